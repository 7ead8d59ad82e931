# ---- the z3 model against the contract, op by op -------------------------------------------
def model_cases():
    """(op, result dtype, source values) for every modelled op over the special values."""
    specials = {I32: SPECIAL_INT, F32: tuple(f32(v) for v in SPECIAL_FLOAT), BOOL: (False, True)}
    for dtype, values in specials.items():
        for op in MODEL[dtype.kind]:
            arity = 1 if op in (Ops.NEG, Ops.RECIP) else 2
            for args in itertools.product(values, repeat=arity):
                yield op, dtype, args
        for args in itertools.product((False, True), values[:6], values[-6:]):
            yield Ops.WHERE, dtype, args
        for target, v in itertools.product(specials, values):
            yield Ops.CAST, target, (v,)


def check_model():
    """z3's value of each op on special values against eval_op's, and the integer division
    model against Python's; returns (comparisons, the disagreements)."""
    ctx, count, wrong = Context(), 0, []
    for op, dtype, args in model_cases():
        srcs = [const(v) for v in args]
        term = cast(srcs[0], dtype) if op is Ops.CAST else alu(op, *srcs)
        got, want = py_value(z3.simplify(ctx.z(term))), evaluate(term, {})
        count += 1
        if not same(got, want):
            wrong.append(f"{op.name} {dtype.name} {args}: z3 {got!r}, contract {want!r}")
    for p, q in itertools.product(SPECIAL_INT, repeat=2):
        div, mod = (
            z3.simplify(f(z3.IntVal(p, ctx.zc), z3.IntVal(q, ctx.zc)))
            for f in (floordiv_int, floormod_int)
        )
        want = (floordiv(p, q), floormod(p, q)) if (p, q) != (INT_MIN, -1) else (-INT_MIN, 0)
        got = [(py_value(div), py_value(mod))]
        if q > 0:  # the short forms, used only where the divisor is positive
            pos = (
                z3.simplify(f(z3.IntVal(p, ctx.zc), z3.IntVal(q, ctx.zc)))
                for f in (floordiv_pos, floormod_pos)
            )
            got.append(tuple(py_value(v) for v in pos))
        count += len(got)
        wrong += [f"integer division {p}, {q}: z3 {g}, contract {want}" for g in got if g != want]
    return count, wrong


