def _fast_division(u: UOp) -> bool:
    # C's truncating / and % agree with floor division when the dividend is never negative and
    # the divisor always positive; without the guard -7 / 2 gives -3 where the contract says -4.
    return u.src[0].vmin >= 0 and u.src[1].vmin > 0


def _floordiv(u, a, b):
    return f"{a} / {b}" if _fast_division(u) else f"floordiv_i32({a}, {b})"


def _floormod(u, a, b):
    return f"{a} % {b}" if _fast_division(u) else f"floormod_i32({a}, {b})"


# Float MAX and CMPLT compare the difference with zero. clang (14 to 19) reads `(a > b) ? a : b`
# as a max that ignores the sign of zero and folds max(max(0, x), 0) to max(0, x): -0.0 at
# x = -0.0 where the contract says 0.0 (tests/test_render.py keeps the cases). `a - b > 0.0f` has
# the same truth value for every pair of floats (with subnormals, a - b is 0 only when a == b;
# nan and inf - inf fail both tests), clang sees no max in it, and loops still vectorise.
def _max(u, a, b):
    # never fmaxf: fmaxf(0.0f, NAN) is 0.0f where the contract gives nan
    if u.dtype is BOOL:
        return f"{a} || {b}"
    if u.dtype is F32:
        return f"({a} - {b} > 0.0f) ? {a} : {b}"
    return f"({a} > {b}) ? {a} : {b}"


def _cmplt(u, a, b):
    return f"{a} - {b} < 0.0f" if u.src[0].dtype is F32 else f"{a} < {b}"


def _mul(u, a, b):
    return f"{a} && {b}" if u.dtype is BOOL else f"{a} * {b}"


# op -> C expression from the node and the C names of its srcs
ALU_EXPR = {
    Ops.CAST: _cast,
    Ops.NEG: lambda u, a: f"-{a}",  # -v0; a negative literal is bracketed, so never `--`
    Ops.RECIP: lambda u, a: f"1.0f / {a}",  # 1.0f / v0
    Ops.EXP2: lambda u, a: f"exp2f({a})",
    Ops.LOG2: lambda u, a: f"log2f({a})",
    Ops.ADD: lambda u, a, b: f"{a} + {b}",  # wraps for ints thanks to -fwrapv
    Ops.MUL: _mul,
    Ops.MAX: _max,
    Ops.CMPLT: _cmplt,
    Ops.CMPNE: lambda u, a, b: f"{a} != {b}",
    Ops.FLOORDIV: _floordiv,
    Ops.FLOORMOD: _floormod,
    Ops.WHERE: lambda u, c, a, b: f"{c} ? {a} : {b}",  # both branches were already computed
}
assert set(ALU_EXPR) == set(ALU), "every ALU op needs a C expression"
