def gen_program(r, ranges=False):
    """A random expression of 6 to 22 nodes and the params it uses: (root, params).

    The root grows one op at a time; the other operands are drawn from every node built so
    far, so subexpressions are shared. With ranges=True the i32 param has declared bounds.
    """
    pool = _Pool(r, ranges)
    target = r.randint(MIN_NODES, MAX_NODES)
    root, size, failures = pool.leaf(r.choice((BOOL, I32, F32))), 1, 0
    while size < target and failures < 20:
        # now and then a side node that the root may use later (sharing)
        if r.random() < 0.3:
            pool.nodes.append(_grow(pool, pool.pick(r.choice((BOOL, I32, F32)))))
        candidate = _grow(pool, root)
        candidate_size = len(candidate.toposort())
        if candidate_size > MAX_NODES:
            failures += 1
            continue
        pool.nodes.append(candidate)
        root, size = candidate, candidate_size
    if size < MIN_NODES:  # only after 20 oversized tries in a row; a unary op adds one node
        while size < MIN_NODES:
            root = root.cast(I32 if root.dtype is not I32 else F32)
            size = len(root.toposort())
    return root, used_params(root)


