# ---- fast math: each of these changes some result, so they run only on request -------------


@rule("x*0.0", UPat(Ops.MUL, dtype=FLT, src=(var("x"), cvar("c"))), FAST)
def fast_mul_zero(x, c):
    return const(0.0) if c.arg == 0.0 else None  # wrong for nan, ±inf, and negative x


@rule("x+0.0 (float)", UPat(Ops.ADD, dtype=FLT, src=(var("x"), cvar("c"))), FAST)
def fast_add_zero(x, c):
    return x if c.arg == 0.0 else None  # wrong at x = -0.0


