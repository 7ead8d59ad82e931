@rule("a*c+b<n", UPat(Ops.CMPLT, src=(var("d", dtype=INT), cvar("n"))), FURTHER)
def sum_less(d, n):
    # c*q < n -> q < ceil(n/c) for c > 0; c*q + r < n -> q < n//c when c | n and 0 <= r < c
    # (r cannot carry c*q past n). Both need d safe: 1073741824*2 < 2 is -2147483648 < 2, True,
    # while 1073741824 < 1 is False.
    whole = factor(d)
    if whole > 1 and (parts := split(d, whole)) is not None and parts[1] is None:
        return parts[0].lt(const(-(-n.arg // whole)))
    c = math.gcd(whole, n.arg)
    if c <= 1 or (parts := split(d, c)) is None or parts[1] is None:
        return None
    q, r = parts
    return q.lt(const(n.arg // c)) if 0 <= r.vmin and r.vmax < c else None


