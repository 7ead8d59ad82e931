def sample_points(ctx, claim, hyps):
    """Seeded random points (a share of them special values), and up to four points that z3
    finds inside the hypotheses: random ones rarely land in a range such as [8, 11]."""
    rng = random.Random(zlib.crc32(claim.title.encode()))
    kinds = [(name, dtype) for name, (_, dtype) in ctx.vars.items()]
    # inputs are float32 values: rand_value may give 16777217.0, which rounds on the way in
    points = [
        {n: f32(rand_value(rng, d)) if d is F32 else rand_value(rng, d) for n, d in kinds}
        for _ in range(SAMPLES)
    ]
    if hyps:
        solver = z3.Solver(ctx=ctx.zc)
        solver.set("timeout", 5000)
        solver.add(*hyps)
        terms = [term for term, _ in ctx.vars.values()]
        for _ in range(4):
            if solver.check() != z3.sat:
                break
            model = solver.model()
            points.append(model_values(ctx, model))
            solver.add(z3.Or([t != model.eval(t, model_completion=True) for t in terms]))
    return points


def inside(ctx, hyps, point):
    if not hyps:
        return True
    subst = [(term, ctx.const(point[name], dtype)) for name, (term, dtype) in ctx.vars.items()]
    return z3.is_true(z3.simplify(z3.substitute(z3.And(hyps), *subst)))


def cross_check(claim, ctx, hyps, pairs):
    """Evaluate a proved rewrite with eval_op at sample points inside its hypotheses;
    return (pairs evaluated, problem or "")."""
    if not pairs or any(dtype == "int" for _, dtype in ctx.vars.values()):
        return 0, ""
    count = 0
    for point in sample_points(ctx, claim, hyps):
        if not inside(ctx, hyps, point):
            continue
        for lhs, rhs in pairs:
            left, right = evaluate(lhs, point), evaluate(rhs, point)
            if not same(left, right):
                return count, f"the contract differs at {show(point)}: {left!r} vs {right!r}"
            count += 1
    return count, ""


