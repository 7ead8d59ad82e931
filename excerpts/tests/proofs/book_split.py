# ---- the book's claims: the divisible-terms split (6, bit vectors) -------------------------
G_SPLIT = "the divisible-terms split (bit vectors; guarded: a*k and the sum fit in int32)"


def book_split(claims):
    for k, div in ((4, 4), (24, 8)):
        d, q = a * k + b, a * (k // div)

        def guard(ctx, d=d):
            return ctx.safe(d)

        split = f"(a*{k}+b)//{div} -> a*{k // div} + b//{div}"
        rest = f"(a*{k}+b)%{div} -> b%{div}"
        rewrite(claims, G_SPLIT, f"{split}, guarded", (d // div, q + b // div), hyps=guard)
        rewrite(claims, G_SPLIT, f"{rest}, guarded", (d % div, b % div), hyps=guard)
        rewrite(claims, G_SPLIT, f"{split}, no guard", (d // div, q + b // div), "refuted")


