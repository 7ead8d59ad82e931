def guards(d, rest=None):
    """The split's guards: d safe, and the sum of the remaining terms safe on its own."""
    return lambda ctx: ctx.safe(d) + (ctx.safe(rest) if rest is not None else [])


def split_shapes(claims):
    # the term shapes that split() recognises: y*k with c | k, and constants divisible by c
    d1, r1, d2 = (a * 4 + b) + e, b + e, (a * 8 + 16) + b
    table = (  # rule name, label, lhs, rhs, hypotheses, expected
        ("(a*c1+b)//c2", "((a*4+b)+e)//4 -> a*1 + (b+e)//4, d and rest safe",
         d1 // 4, a * 1 + r1 // 4, guards(d1, r1), "proved"),
        ("(a*c1+b)%c2", "((a*4+b)+e)%4 -> (b+e)%4, d and rest safe",
         d1 % 4, r1 % 4, guards(d1, r1), "proved"),
        ("(a*c1+b)//c2", "((a*8+16)+b)//8 -> (a*1+2) + b//8, d safe",
         d2 // 8, (a * 1 + 2) + b // 8, guards(d2), "proved"),
        ("(a*c1+b)%c2", "((a*8+16)+b)%8 -> b%8, d safe", d2 % 8, b % 8, guards(d2), "proved"),
        ("(a*c1+b)//c2", "((a*4+b)+e)//4 -> a*1 + (b+e)//4 fails when the rest is not safe",
         d1 // 4, a * 1 + r1 // 4, guards(d1), "refuted"),
        ("(a*c1+b)//c2", "(a*8+b)//8 -> a*1 + b//8 fails when d is not safe",
         (a * 8 + b) // 8, a * 1 + b // 8, None, "refuted"),
        ("(a*c1+b)%c2", "(a*3+b)%3 -> b%3 fails when d is not safe",
         (a * 3 + b) % 3, b % 3, None, "refuted"),
    )  # fmt: skip
    for name, label, lhs, rhs, hyps, expect in table:
        rewrite(claims, G_RULES, name, (lhs, rhs), expect, hyps=hyps, label=label)


