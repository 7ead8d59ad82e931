FLT_MAX = f32(3.4028234663852886e38)  # the largest finite float32
FLT_MIN = 2.0**-126  # the smallest normal float32
SUB_MAX = 2.0**-126 - 2.0**-149  # the largest subnormal float32
SUB_MIN = 2.0**-149  # the smallest subnormal float32

SPECIAL_INT = (
    0, 1, -1, 2, -2, 3, 7, -7, 16, -16, 255, 256,
    46340, 46341, -46341,  # around the square root of INT_MAX
    2**30, -(2**30), 2**30 - 1,
    INT_MIN, INT_MIN + 1, INT_MAX, INT_MAX - 1,
)  # fmt: skip

SPECIAL_FLOAT = (
    0.0, -0.0, math.inf, -math.inf, math.nan,
    1.0, -1.0, 0.5, 2.0, -2.0, 3.0, f32(0.1),
    FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, SUB_MAX, -SUB_MAX, SUB_MIN, -SUB_MIN,
    16777216.0,  # 2**24: above it not every integer is a float32
    16777217.0,  # not a float32: rounds to 2**24, kept to exercise that rounding
    2147483520.0,  # the largest float32 below 2**31: the last one a cast to i32 keeps
    2147483648.0, -2147483648.0,  # where the cast to i32 saturates
)  # fmt: skip
