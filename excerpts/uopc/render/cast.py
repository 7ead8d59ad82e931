def _cast(u: UOp, a: str) -> str:
    """CAST: C's own conversions, except float to int, which goes through the saturating helper.

    i32 -> bool `(v0 != 0)`; f32 -> bool `(v0 != 0.0f)`; f32 -> i32 `f32_to_i32(v0)`;
    bool -> i32 `((int32_t)v0)`; i32 or bool -> f32 `((float)v0)`; same dtype `v0`.
    """
    source, target = u.src[0].dtype, u.dtype
    if source is target:
        return a
    if target is BOOL:
        return f"({a} != 0.0f)" if source is F32 else f"({a} != 0)"
    if target is F32:
        return f"((float){a})"
    if source is F32:
        return f"f32_to_i32({a})"  # a plain (int32_t) is undefined for nan and out of range
    return f"((int32_t){a})"


