def cast(v, dtype):
    """Convert v to dtype; float to int truncates, saturates, and sends nan to 0."""
    if dtype is BOOL:
        return v != 0  # nan != 0 is True
    if dtype is F32:
        return f32(float(v))
    if isinstance(v, float):
        if math.isnan(v):
            return 0
        if v >= 2147483648.0:
            return INT_MAX
        if v <= -2147483648.0:
            return INT_MIN
        return int(v)  # int() truncates toward zero
    return int(v)


