def _fit(lo, hi, safe):
    """The exact bounds if they fit int32; otherwise the op may wrap, so anything goes."""
    if INT_MIN <= lo and hi <= INT_MAX:
        return (lo, hi, safe)
    return (INT_MIN, INT_MAX, False)


