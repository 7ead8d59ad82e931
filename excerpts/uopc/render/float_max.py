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


