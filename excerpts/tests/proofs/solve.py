# ---- asking z3, and checking its answers against the contract ------------------------------
def py_value(num):
    """A z3 numeral as a Python value (a float through its bit pattern, any nan as nan)."""
    if z3.is_bool(num):
        return z3.is_true(num)
    if z3.is_bv(num):
        return num.as_signed_long()
    if z3.is_int(num):
        return num.as_long()
    if num.isNaN():
        return math.nan
    bits = z3.simplify(fp_bits(num)).as_long()
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def show(values):
    return ", ".join(f"{name}={value!r}" for name, value in values.items())


def model_values(ctx, model):
    return {n: py_value(model.eval(t, model_completion=True)) for n, (t, _) in ctx.vars.items()}


def solve(claim, timeout):
    """Ask z3 for an input where the claim fails, and check its answer with the contract."""
    ctx = Context()
    goal, hyps, pairs = claim.pose(ctx)
    solver = z3.Solver(ctx=ctx.zc)
    solver.set("timeout", int(timeout * 1000))
    solver.add(*hyps, z3.Not(goal))
    start = time.perf_counter()
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unknown:
        why = f"({solver.reason_unknown()}, limit {timeout:g} s)"
        return Result(claim, "unsettled", seconds, why)
    if answer == z3.unsat:
        result = Result(claim, "proved", seconds)
        result.points, result.problem = cross_check(claim, ctx, hyps, pairs)
        return result
    values = model_values(ctx, solver.model())
    result = Result(claim, "refuted", seconds, "COUNTEREXAMPLE " + show(values), example=values)
    if pairs:
        result.sides = [(evaluate(lhs, values), evaluate(rhs, values)) for lhs, rhs in pairs]
        result.confirmed = any(not same(left, right) for left, right in result.sides)
        if not result.confirmed:
            result.problem = f"the contract gives the same values there: {result.sides}"
    return result


