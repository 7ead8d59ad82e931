def nested_over_integers(form):
    """(x//c1)//c2 -> x//(c1*c2) or (x%c1)%c2 -> x%c2 with symbolic positive divisors."""

    def build(ctx):
        xi, d1, d2, m = (ctx.integer(n) for n in ("x", "c1", "c2", "m"))
        if form == "//":
            hyps = [in_i32(xi), d1 > 0, d2 > 0, d1 * d2 <= INT_MAX]
            return floordiv_pos(floordiv_pos(xi, d1), d2) == floordiv_pos(xi, d1 * d2), hyps
        hyps = [in_i32(xi), in_i32(d1), d2 > 0, m > 0, d1 == d2 * m]
        return floormod_pos(floormod_pos(xi, d1), d2) == floormod_pos(xi, d2), hyps

    return build


DIV_NOTE = f"{SYMBOLIC}; x//c for c > 0, and c1*c2 by the guard, lie in int32: nothing wraps"
MOD_NOTE = f"{SYMBOLIC}; c1 % c2 == 0 (c1, c2 > 0) is posed as c1 == c2*m, m >= 1, the same"


def rules_nested(claims):
    label = "(x//c1)//c2 -> x//(c1*c2), c1, c2 > 0, c1*c2 <= INT_MAX, symbolic (integers)"
    build = nested_over_integers("//")
    formula(claims, G_RULES, "(x//c1)//c2", build, "int", label=label, note=DIV_NOTE)
    label = "(x%c1)%c2 -> x%c2, c1, c2 > 0, c2 divides c1, symbolic (integers)"
    build = nested_over_integers("%")
    formula(claims, G_RULES, "(x%c1)%c2", build, "int", label=label, note=MOD_NOTE)
    table = (  # rule name, label, lhs, rhs, expected
        ("(x//c1)//c2", "(x//16)//8 -> x//128", (x // 16) // 8, x // 128, "proved"),
        ("(x//c1)//c2", "(x//65536)//32767 -> x//2147418112, a product just below INT_MAX",
         (x // 65536) // 32767, x // 2147418112, "proved"),
        ("(x//c1)//c2", "(x//-2)//-3 -> x//6 fails: the guard c1, c2 > 0 is needed",
         (x // -2) // -3, x // 6, "refuted"),
        ("(x//c1)//c2", "(x//65536)//65536 -> x//wrap32(2**32) fails: c1*c2 <= INT_MAX is needed",
         (x // 65536) // 65536, x // 0, "refuted"),
        ("(x%c1)%c2", "(x%8)%4 -> x%4", (x % 8) % 4, x % 4, "proved"),
        ("(x%c1)%c2", "(x%12)%4 -> x%4", (x % 12) % 4, x % 4, "proved"),
        ("(x%c1)%c2", "(x%6)%4 -> x%4 fails: c2 must divide c1", (x % 6) % 4, x % 4, "refuted"),
    )  # fmt: skip
    for name, label, lhs, rhs, expect in table:
        rewrite(claims, G_RULES, name, (lhs, rhs), expect, label=label)


