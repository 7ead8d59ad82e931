def _to_i32(value, where: str) -> int:
    number = operator.index(value)  # an int or a bool; a float is a TypeError, not truncated
    if not INT_MIN <= number <= INT_MAX:
        raise ValueError(f"{where}: {value} does not fit in int32")
    return number


def _to_bool(value, where: str) -> bool:
    # True, False, 0 or 1, as the runtime takes them: bool("false") would be True
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    raise TypeError(f"{where}: a bool wants True, False, 0 or 1, got {value!r:.40}")


# dtype -> the contract value of a Python input: float32-rounded, a real bool, an int32.
NORMALISE = {
    F32: lambda value, where: f32(float(value)),
    BOOL: _to_bool,
    I32: _to_i32,
}
