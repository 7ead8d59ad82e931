def gen_index_program(r, ranges=((0, 7), (0, 3), (-4, 5))):
    """A random i32 expression over i, j, k (slots 0, 1, 2, with the declared ranges).

    Built from ADD, MUL, NEG, FLOORDIV and FLOORMOD by small constants, MAX, and WHERE on a
    CMPLT or CMPNE; returns (root, params used), params ordered by slot.
    """
    params = [UOp(Ops.PARAM, (), ParamArg(s, I32, lo, hi)) for s, (lo, hi) in enumerate(ranges)]
    nodes, multipliers = list(params), []
    target = r.randint(4, 24)
    root = r.choice(params)
    while len(root.toposort()) < target:
        root = _grow_index(r, root, nodes, multipliers)
        nodes.append(root)
    return root, used_params(root)


