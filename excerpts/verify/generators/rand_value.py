INT_SPECIAL_SHARE = 0.25  # of the i32 inputs, drawn from SPECIAL_INT
FLOAT_SPECIAL_SHARE = 0.4  # of the f32 inputs, drawn from SPECIAL_FLOAT


def rand_value(r, dtype):
    """One input of dtype: a share from the special lists, the rest spread wide."""
    if dtype is BOOL:
        return r.random() < 0.5
    u = r.random()
    if dtype is I32:
        if u < INT_SPECIAL_SHARE:
            return r.choice(SPECIAL_INT)
        if u < INT_SPECIAL_SHARE + 1 / 3:
            return r.randint(-16, 16)  # small: where index arithmetic lives
        return r.randint(INT_MIN, INT_MAX)
    if u < FLOAT_SPECIAL_SHARE:
        return r.choice(SPECIAL_FLOAT)
    if u < 0.7:
        return f32(r.uniform(-1000.0, 1000.0))  # moderate: rounding in the last bits
    # any exponent, subnormals included; the few draws that round up to infinity stay finite
    magnitude = f32((1.0 + r.random()) * 2.0 ** r.randint(-149, 127))
    return math.copysign(min(magnitude, FLT_MAX), r.choice((1.0, -1.0)))


