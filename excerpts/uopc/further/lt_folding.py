def factor(d: UOp) -> int:
    """The gcd of the constants among the sum d's terms and of their constant factors (x*c
    gives c, a term without one gives nothing); 0 when there are none or the sum is too long."""
    g, leaves, stack = 0, 0, [d]
    while stack:
        node = stack.pop()
        if node.op is Ops.ADD:
            stack.extend(node.src)
            continue
        leaves += 1
        if leaves > MAX_TERMS:
            return 0
        if node.op is Ops.MUL and node.src[1].op is Ops.CONST:
            g = math.gcd(g, node.src[1].arg)
        elif node.op is Ops.CONST:
            g = math.gcd(g, node.arg)
    return g


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


