PRELUDE = """\
#include <stdint.h>
#include <stdbool.h>
#include <math.h>
#include <float.h>

_Static_assert(FLT_EVAL_METHOD == 0, "float ops must round to float32 after every operation");

/* Floor division; total: x / 0 is 0 and INT_MIN / -1 wraps to INT_MIN (C traps on both). */
static inline int32_t floordiv_i32(int32_t a, int32_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int32_t)(0u - (uint32_t)a);
  int32_t q = a / b, r = a % b;
  return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q;
}

/* Floor remainder, with the divisor's sign; x % 0 is x, so a == b * (a / b) + a % b. */
static inline int32_t floormod_i32(int32_t a, int32_t b) {
  if (b == 0) return a;
  if (b == -1) return 0;
  int32_t r = a % b;
  return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}

/* Float to int truncates toward zero, saturates, and sends nan to 0 (C leaves these undefined). */
static inline int32_t f32_to_i32(float x) {
  if (x != x) return 0;
  if (x >= 2147483648.0f) return INT32_MAX;
  if (x <= -2147483648.0f) return INT32_MIN;
  return (int32_t)x;
}
"""
