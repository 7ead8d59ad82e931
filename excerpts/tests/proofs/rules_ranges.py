def as_int(ctx, t):
    """A bool or i32 term as a 32-bit value, bools as 0 or 1 (as ranges see them)."""
    v = ctx.z(t)
    return z3.If(v, bv32(1, v), bv32(0, v)) if t.dtype is BOOL else v


def in_range(ctx, t, low, high):
    # range soundness (claim 4, tested by the ranges layer) is a hypothesis of these claims
    return [ctx.z(low) <= as_int(ctx, t), as_int(ctx, t) <= ctx.z(high)]


def rules_ranges(claims):
    xlo, xhi, ylo, yhi = (var(n, I32) for n in ("a_vmin", "a_vmax", "b_vmin", "b_vmax"))
    for p, q, point in ((x, y, lo), (bx, by, cast(lo, BOOL))):
        tag = f"({p.dtype.name})"

        def point_range(ctx, p=p):
            return in_range(ctx, p, lo, hi) + [ctx.z(lo) == ctx.z(hi)]

        def first(ctx, p=p, q=q):  # a.vmin >= b.vmax
            ranges = in_range(ctx, p, xlo, xhi) + in_range(ctx, q, ylo, yhi)
            return ranges + [ctx.z(xlo) >= ctx.z(yhi)]

        def second(ctx, p=p, q=q):  # b.vmin >= a.vmax
            ranges = in_range(ctx, p, xlo, xhi) + in_range(ctx, q, ylo, yhi)
            return ranges + [ctx.z(ylo) >= ctx.z(xhi)]

        table = (  # rule name, label, pair, hypotheses
            ("range is a point", "x in [v,v] -> v", (p, point), point_range),
            ("max by range", "a.vmin >= b.vmax: max(a,b) -> a", (maximum(p, q), p), first),
            ("max by range", "b.vmin >= a.vmax: max(a,b) -> b", (maximum(p, q), q), second),
        )
        for name, label, pair, hyps in table:
            rewrite(claims, G_RULES, name, pair, hyps=hyps, label=f"{label} {tag}")


def bucket_over_integers(ctx):
    xi, low, high, ci = (ctx.integer(n) for n in ("x", "lo", "hi", "c"))
    k = floordiv_int(low, ci)
    hyps = [in_i32(xi), in_i32(low), in_i32(high), in_i32(ci), ci != 0, low <= xi, xi <= high]
    return floormod_int(xi, ci) == xi - k * ci, hyps + [k == floordiv_int(high, ci)]


def rules_bucket(claims):
    name = "x%c inside one bucket"
    label = "x in [lo,hi], lo//c == hi//c == k: x%c -> x-k*c, c symbolic (integers)"
    note = f"{SYMBOLIC}; x-k*c is x%c, inside int32, so x + wrap32(-k*c) equals it"
    formula(claims, G_RULES, name, bucket_over_integers, "int", label=label, note=note)
    for div in (4, -4):  # in bit vectors the wrap of the replacement is modelled too

        def bucket(ctx, div=div):  # k = lo//div is exact here: only a divisor of -1 wraps
            return in_range(ctx, x, lo, hi) + [ctx.z(lo // div) == ctx.z(hi // div)]

        label = f"x in [lo,hi], lo//{div} == hi//{div} == k: x%{div} -> x + wrap32(-k*{div})"
        pair = (x % div, x + -((lo // div) * div))
        rewrite(claims, G_RULES, name, pair, hyps=bucket, label=label)


