# ---- the book's claims: float32 rules (14) -------------------------------------------------
G_FLOAT = "float32 rules (bit patterns, all nans equal)"
BOOK_FLOAT = (  # title, lhs, rhs, expected, quick
    ("x*1.0 -> x", fx * 1.0, fx, "proved", True),
    ("x+(-0.0) -> x", fx + -0.0, fx, "proved", True),
    ("x+0.0 -> x", fx + 0.0, fx, "refuted", True),
    ("x*0.0 -> 0.0", fx * 0.0, const(0.0), "refuted", True),
    ("(x+y)+z -> x+(y+z)", (fx + fy) + fz, fx + (fy + fz), "refuted", False),
    ("x*(1/x) -> 1.0", fx * recip(fx), const(1.0), "refuted", False),
    ("-(-x) -> x", neg(neg(fx)), fx, "proved", True),
    ("x*-1.0 -> -x", fx * -1.0, -fx, "proved", True),
    ("-(x*y) -> x*(-y)", -(fx * fy), fx * -fy, "proved", True),
    ("max(x,y) -> max(y,x)", maximum(fx, fy), maximum(fy, fx), "refuted", True),
    ("x+(-x) -> 0.0", fx + -fx, const(0.0), "refuted", True),
    ("max(x,x) -> x", maximum(fx, fx), fx, "proved", True),
    ("x+y == y+x", fx + fy, fy + fx, "proved", True),
    ("x*y == y*x", fx * fy, fy * fx, "proved", True),
)


def book_float(claims):
    for title, lhs, rhs, expect, quick in BOOK_FLOAT:
        rewrite(claims, G_FLOAT, title, (lhs, rhs), expect, quick=quick)


