def _to_i32(value, where: str) -> int:
    number = operator.index(value)  # an int or a bool; a float is a TypeError, not truncated
    if not INT_MIN <= number <= INT_MAX:
        raise ValueError(f"{where}: {value} does not fit in int32")
    return number


# dtype -> the contract value of a Python input: float32-rounded, a real bool, an int32.
NORMALISE = {
    F32: lambda value, where: f32(float(value)),
    BOOL: lambda value, where: bool(value),
    I32: _to_i32,
}
