def rules_constants(claims):
    # the replacement constants wrap32(c1+c2) and wrap32(c1*c2) are the i32 ADD and MUL of c1, c2
    table = (
        ("(x+c1)+c2", "(x+c1)+c2 -> x+(c1+c2)", (x + c1) + c2, x + (c1 + c2)),
        ("(x*c1)*c2", "(x*c1)*c2 -> x*(c1*c2)", (x * c1) * c2, x * (c1 * c2)),
        ("(x+c1)*c2", "(x+c1)*c2 -> x*c2 + c1*c2", (x + c1) * c2, x * c2 + c1 * c2),
    )
    for name, label, lhs, rhs in table:
        rewrite(claims, G_RULES, name, (lhs, rhs), label=f"{label}, c1 and c2 symbolic")
    for k, rhs, text in ((1, x, "x"), (-1, -x, "-x"), (0, const(0), "0")):
        rewrite(claims, G_RULES, "x//c trivial", (x // k, rhs), label=f"x//{k} -> {text}")
    for k, rhs, text in ((0, x, "x"), (1, const(0), "0"), (-1, const(0), "0")):
        rewrite(claims, G_RULES, "x%c trivial", (x % k, rhs), label=f"x%{k} -> {text}")


