# ---- claims named after the strict rules ---------------------------------------------------
G_RULES = "strict rules (each has a proved claim named after it)"
COMMUTING = {  # canonical order reorders these; bool has no ADD, float MAX is left alone
    I32: (Ops.ADD, Ops.MUL, Ops.CMPNE, Ops.MAX),
    BOOL: (Ops.MUL, Ops.CMPNE, Ops.MAX),
    F32: (Ops.ADD, Ops.MUL, Ops.CMPNE),
}
SYMBOL = {Ops.ADD: "+", Ops.MUL: "*", Ops.CMPNE: "!=", Ops.MAX: "max"}


def rules_order(claims):
    for dtype, ops in COMMUTING.items():
        p, q = PAIR_OF[dtype]
        for op in ops:
            s = SYMBOL[op]
            both = ("max(a,b)", "max(b,a)") if op is Ops.MAX else (f"a{s}b", f"b{s}a")
            label = "{} == {} ({})".format(*both, dtype.name)
            rewrite(claims, G_RULES, "canonical order", (alu(op, p, q), alu(op, q, p)), label=label)
    label = "max(a,b) == max(b,a) fails for f32, so the rule leaves float MAX alone"
    pair = (maximum(fx, fy), maximum(fy, fx))
    rewrite(claims, G_RULES, "canonical order", pair, "refuted", label=label)


IDENTITIES = (  # rule name, label, lhs, rhs
    ("x*1", "x*1 -> x (i32)", x * 1, x),
    ("x*1", "x*1.0 -> x (f32)", fx * 1.0, fx),
    ("x*-1", "x*-1 -> -x (i32)", x * -1, -x),
    ("x*-1", "x*-1.0 -> -x (f32)", fx * -1.0, -fx),
    ("x+(-0.0) (float)", "x+(-0.0) -> x", fx + -0.0, fx),
    ("x+0 (int)", "x+0 -> x", x + 0, x),
    ("-(-x)", "-(-x) -> x (i32)", neg(neg(x)), x),
    ("-(-x)", "-(-x) -> x (f32)", neg(neg(fx)), fx),
    ("-(x*c)", "-(x*c) -> x*(-c), c symbolic (i32)", -(x * c), x * -c),
    ("-(x*c)", "-(x*c) -> x*(-c), c symbolic (f32)", -(fx * fc), fx * -fc),
    ("x+(-x) (int)", "x+(-x) -> 0", x + -x, const(0)),
    ("x*True (bool)", "x*True -> x", bx * True, bx),
    ("where(c,True,False)", "where(c,True,False) -> c", where(bc, True, False), bc),
    ("where(c,False,True)", "where(c,False,True) -> c!=True", where(bc, False, True), ne(bc, True)),
)


def rules_identities(claims):
    for name, label, lhs, rhs in IDENTITIES:
        rewrite(claims, G_RULES, name, (lhs, rhs), label=label)
    for dtype, (p, q) in PAIR_OF.items():
        tag = f"({dtype.name})"
        table = (  # rule name, label, pairs
            ("max(x,x)", "max(x,x) -> x", (maximum(p, p), p)),
            ("x<x", "x<x -> False", (less(p, p), const(False))),
            ("cast to own dtype", "cast(x) -> x", (cast(p, dtype), p)),
            ("where(const,a,b)", "where(True,a,b) -> a and where(False,a,b) -> b",
             [(where(True, p, q), p), (where(False, p, q), q)]),
            ("where(c,a,a)", "where(c,a,a) -> a", (where(bc, p, p), p)),
        )  # fmt: skip
        for name, label, pairs in table:
            rewrite(claims, G_RULES, name, pairs, label=f"{label} {tag}")


