def split_over_integers_symbolic(form, rest):
    """d = c*q + r (or d = c*q) with c >= 1 symbolic, d and r inside int32."""

    def build(ctx):
        ci, qi, ri = ctx.integer("c"), ctx.integer("q"), ctx.integer("r")
        d = ci * qi + ri if rest else ci * qi
        hyps = [ci >= 1, in_i32(d)] + ([in_i32(ri)] if rest else [])
        if form == "//":
            return floordiv_pos(d, ci) == qi + (floordiv_pos(ri, ci) if rest else 0), hyps
        return floormod_pos(d, ci) == (floormod_pos(ri, ci) if rest else 0), hyps

    return build


def quotient_fits(ctx):
    # with c >= 2, d = c*q + r and r inside int32, so is q: q + r//c does not wrap on the way
    ci, qi, ri = ctx.integer("c"), ctx.integer("q"), ctx.integer("r")
    return in_i32(qi), [ci >= 2, in_i32(ci * qi + ri), in_i32(ri)]


def split_wrapped(form, div):
    """Bit vectors: q is the wrapped value of the exact quotient Q, d = div*Q + r fits."""

    def build(ctx):
        big_q, r = ctx.other("Q", z3.BitVecSort(64, ctx.zc)), ctx.var("r", I32)
        exact_d = big_q * div + z3.SignExt(32, r)
        # |Q| < 2**33 follows from d and r fitting; it only keeps div*Q from wrapping in 64 bits
        hyps = [in_i32(exact_d), big_q < 2**33, big_q > -(2**33)]
        d, q, k = z3.Extract(31, 0, exact_d), z3.Extract(31, 0, big_q), bv32(div, r)
        if form == "//":
            return floordiv_bv(d, k) == q + floordiv_bv(r, k), hyps
        return floormod_bv(d, k) == floormod_bv(r, k), hyps

    return build


SPLIT_NOTE = f"{SYMBOLIC}; the bit-vector claims that follow model the wraps"
WRAP_NOTE = "for c = 1 the sum q may wrap, and the ring still gives d back"


def rules_split(claims):
    for form, name in (("//", "(a*c1+b)//c2"), ("%", "(a*c1+b)%c2")):
        with_rest, alone = ("q + r//c", "q") if form == "//" else ("r%c", "0")
        label = f"d = c*q + r, d and r in int32: d{form}c -> {with_rest}, c symbolic (integers)"
        build = split_over_integers_symbolic(form, True)
        formula(claims, G_RULES, name, build, "int", label=label, note=SPLIT_NOTE)
        label = f"d = c*q in int32: d{form}c -> {alone}, c symbolic (integers)"
        formula(
            claims, G_RULES, name, split_over_integers_symbolic(form, False), "int", label=label
        )
        for div in (1, 8) if form == "//" else (8,):
            shown = with_rest.replace("c", str(div))
            label = f"d = {div}*q + r, q wrapped: d{form}{div} -> {shown} (bit vectors)"
            note = WRAP_NOTE if div == 1 else ""
            formula(claims, G_RULES, name, split_wrapped(form, div), "bv", label=label, note=note)
    label = "d = c*q + r, c >= 2, d and r in int32: q lies in int32 (integers)"
    formula(claims, G_RULES, "(a*c1+b)//c2", quotient_fits, "int", label=label)
    split_shapes(claims)


