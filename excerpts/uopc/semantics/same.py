def same(a, b) -> bool:
    """The equality of every test: floats by float32 bits with all nans equal, else by kind."""
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, float) and isinstance(b, float)):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return f32_bits(a) == f32_bits(b)
    return isinstance(a, bool) == isinstance(b, bool) and a == b


