# ---- the fast-math rules: each must be refuted --------------------------------------------
G_FAST = "fast-math rules (each has a refuted claim named after it)"


def one_to_two(ctx):
    # x in [1, 2): ordinary numbers, no nan, infinity, zero or overflow, and still the last bit
    return [fp_geq(ctx.z(fx), ctx.const(1.0, F32)), fp_lt(ctx.z(fx), ctx.const(2.0, F32))]


FAST_CLAIMS = (  # rule name, label, lhs, rhs, hypotheses
    ("x*0.0", "x*0.0 -> 0.0", fx * 0.0, const(0.0), None),
    ("x*0.0", "x*(-0.0) -> 0.0", fx * -0.0, const(0.0), None),
    ("x+0.0 (float)", "x+0.0 -> x", fx + 0.0, fx, None),
    ("(x*c1)*c2 (float)", "(x*c1)*c2 -> x*f32(c1*c2), c1 and c2 symbolic",
     (fx * fc1) * fc2, fx * (fc1 * fc2), None),
    ("(x*c1)*c2 (float)", "(x*3.0)*5.0 -> x*15.0, x in [1, 2)",
     (fx * 3.0) * 5.0, fx * 15.0, one_to_two),
    ("x*recip(x)", "x*recip(x) -> 1.0", fx * recip(fx), const(1.0), None),
    ("x*recip(x)", "x*recip(x) -> 1.0, x in [1, 2)", fx * recip(fx), const(1.0), one_to_two),
    ("x+(-x) (float)", "x+(-x) -> 0.0", fx + -fx, const(0.0), None),
)  # fmt: skip


def rules_fast(claims):
    for name, label, lhs, rhs, hyps in FAST_CLAIMS:
        rewrite(claims, G_FAST, name, (lhs, rhs), "refuted", hyps=hyps, label=label)


