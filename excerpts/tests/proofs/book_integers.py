# ---- the book's claims: splits by other divisors (8, mathematical integers) ----------------
G_NPOT = "divisors other than powers of two (integers, guarded: bit vectors did not settle)"


def split_over_integers(k, div, form):
    """(a*k + b)//div or %div over integers, with a, b, a*k and a*k + b inside int32."""

    def build(ctx):
        ai, bi = ctx.integer("a"), ctx.integer("b")
        d = ai * k + bi
        hyps = [in_i32(ai), in_i32(bi), in_i32(ai * k), in_i32(d)]
        if form == "//":
            return floordiv_int(d, div) == ai * (k // div) + floordiv_int(bi, div), hyps
        return floormod_int(d, div) == floormod_int(bi, div), hyps

    return build


def book_integers(claims):
    for k, div in ((6, 3), (15, 5), (35, 7), (6, 6)):
        title = f"(a*{k}+b)//{div} -> a*{k // div} + b//{div}"
        formula(claims, G_NPOT, title, split_over_integers(k, div, "//"), "int")
        title = f"(a*{k}+b)%{div} -> b%{div}"
        formula(claims, G_NPOT, title, split_over_integers(k, div, "%"), "int")


