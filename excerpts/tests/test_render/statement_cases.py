# (case, call, the function's lines after the signature, without the closing brace)
STATEMENTS = [
    ("relu", value_call((x * y + 1.0).max(0.0), F32, F32), [
        "  float v0 = p0 * p1;", "  float v1 = v0 + 1.0f;",
        "  float v2 = (v1 - 0.0f > 0.0f) ? v1 : 0.0f;", "  return v2;"]),
    ("sub", value_call(x - y, F32, F32), [
        "  float v0 = -p1;", "  float v1 = p0 + v0;", "  return v1;"]),
    ("floordiv", value_call(i // j, I32, I32), [
        "  int32_t v0 = floordiv_i32(p0, p1);", "  return v0;"]),
    ("floordiv bounded", value_call(i_small // j_small, I32, I32), [
        "  int32_t v0 = p0 / p1;", "  return v0;"]),
    ("floormod", value_call(i % j, I32, I32), [
        "  int32_t v0 = floormod_i32(p0, p1);", "  return v0;"]),
    ("floormod bounded", value_call(i_small % j_small, I32, I32), [
        "  int32_t v0 = p0 % p1;", "  return v0;"]),
    ("divisor may be 0", value_call(i_small // param(1, I32, 0, 10), I32, I32), [
        "  int32_t v0 = floordiv_i32(p0, p1);", "  return v0;"]),
    ("dividend may be negative", value_call(param(0, I32, -1, 9) % 4, I32), [
        "  int32_t v0 = floormod_i32(p0, 4);", "  return v0;"]),
    ("shared node, one line", value_call(shared + shared, F32, F32), [
        "  float v0 = p0 * p1;", "  float v1 = v0 + v0;", "  return v1;"]),
    ("where runs both arms", value_call(flag.where(k // 3, k * 2), BOOL, I32), [
        "  int32_t v0 = floordiv_i32(p1, 3);", "  int32_t v1 = p1 * 2;",
        "  int32_t v2 = p0 ? v0 : v1;", "  return v2;"]),
    ("negative literal", value_call(i - (-5), I32), [
        "  int32_t v0 = -(-5);", "  int32_t v1 = p0 + v0;", "  return v1;"]),
    ("bool mul and max", value_call((flag * flag).max(flag), BOOL), [
        "  bool v0 = p0 && p0;", "  bool v1 = v0 || p0;", "  return v1;"]),
    ("recip exp2 log2", value_call(UOp(Ops.LOG2, (UOp(Ops.EXP2, (UOp(Ops.RECIP, (x,)),)),)), F32), [
        "  float v0 = 1.0f / p0;", "  float v1 = exp2f(v0);", "  float v2 = log2f(v1);",
        "  return v2;"]),
    ("compare", value_call(x.lt(y).ne(True), F32, F32), [
        "  bool v0 = p0 - p1 < 0.0f;", "  bool v1 = v0 != true;", "  return v1;"]),
    ("cast f32 -> i32", value_call(x.cast(I32), F32), [
        "  int32_t v0 = f32_to_i32(p0);", "  return v0;"]),
    ("cast f32 -> bool", value_call(x.cast(BOOL), F32), [
        "  bool v0 = (p0 != 0.0f);", "  return v0;"]),
    ("cast i32 -> bool", value_call(i.cast(BOOL), I32), [
        "  bool v0 = (p0 != 0);", "  return v0;"]),
    ("cast i32 -> f32", value_call(i.cast(F32), I32), [
        "  float v0 = ((float)p0);", "  return v0;"]),
    ("cast bool -> i32", value_call(flag.cast(I32), BOOL), [
        "  int32_t v0 = ((int32_t)p0);", "  return v0;"]),
    ("cast to itself", value_call(x.cast(F32), F32), [
        "  float v0 = p0;", "  return v0;"]),
    ("constant body", value_call(UOp.const(-2.5)), [
        "  return (-2.5f);"]),
]  # fmt: skip
