def _range_floormod(u, srcs, safe):
    (lo, hi, _), (dlo, dhi, _) = srcs
    if dlo <= 0 <= dhi:
        return (INT_MIN, INT_MAX, safe)
    if dlo == dhi:
        c = dlo
        if lo // c == hi // c:
            k = lo // c
            return (lo - k * c, hi - k * c, safe)  # exact: x%4 for x in [9,10] is [1,2]
        return (0, c - 1, safe) if c > 0 else (c + 1, 0, safe)
    return (0, dhi - 1, safe) if dlo > 0 else (dlo + 1, 0, safe)


