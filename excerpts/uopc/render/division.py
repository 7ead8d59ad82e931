def _fast_division(u: UOp) -> bool:
    # C's truncating / and % agree with floor division when the dividend is never negative and
    # the divisor always positive; without the guard -7 / 2 gives -3 where the contract says -4.
    return u.src[0].vmin >= 0 and u.src[1].vmin > 0


def _floordiv(u, a, b):
    return f"{a} / {b}" if _fast_division(u) else f"floordiv_i32({a}, {b})"


def _floormod(u, a, b):
    return f"{a} % {b}" if _fast_division(u) else f"floormod_i32({a}, {b})"


