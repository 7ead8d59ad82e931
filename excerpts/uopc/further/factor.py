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


