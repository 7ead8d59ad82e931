# ---- the book's claims: the bucket range rule (6, bit vectors) -----------------------------
G_BUCKET = "the bucket range rule (bit vectors, x inside its range)"


def book_bucket(claims):
    for low, high, div in ((8, 11, 4), (12, 17, 6), (-10, -6, 5)):
        k = low // div

        def inside(ctx, low=low, high=high):
            return [ctx.z(x) >= low, ctx.z(x) <= high]

        span = f"x in [{low},{high}]"
        title = f"{span}: x%{div} -> x{-k * div:+d}"
        rewrite(claims, G_BUCKET, title, (x % div, x + (-k * div)), hyps=inside)
        rewrite(claims, G_BUCKET, f"{span}: x//{div} -> {k}", (x // div, const(k)), hyps=inside)


