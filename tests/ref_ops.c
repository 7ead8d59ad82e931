/* The C reference for the value contract (tests/test_semantics.py loads it through ctypes).
 *
 * Written apart from uopc/render.py and from uopc/semantics.py: it shares no helper with the
 * renderer's prelude and uses other algorithms where the two could share a mistake.
 *   - Integer results are computed exactly in 64 bits and wrapped to 32 bits by `wrap`, which
 *     uses only defined conversions (it does not lean on -fwrapv).
 *   - Floor division and remainder are done in 64 bits: the remainder first, then the exact
 *     quotient (a - r) / b; INT_MIN / -1 = 2**31 fits in 64 bits and wraps back to INT_MIN.
 *   - Float to int takes the float apart (sign, exponent, mantissa) and builds the integer by
 *     shifting, instead of comparing against limits and converting.
 *   - Float MAX is written as an explicit comparison with the nan cases spelled out.
 *   - NEG on floats and the float-to-bool cast work on the bit pattern.
 *   - Bools travel as int32_t holding 0 or 1; bool ops are bitwise ops on those ints.
 * Float ADD, MUL and RECIP are the machine's float32 instructions (FLT_EVAL_METHOD must be 0),
 * which is exactly what the contract's "compute in double, round once" is tested against.
 *
 * One exported function per op and dtype case, each looping over n inputs:
 *   void ref_<op>_<dtype>(const T *a, [const T *b,] U *out, int n)
 *   void ref_where_<dtype>(const int32_t *c, const T *a, const T *b, T *out, int n)
 *   void ref_cast_<from>_<to>(const T *a, U *out, int n)
 * Compile: clang -O2 -fwrapv -ffp-contract=off -fno-fast-math -std=c11 -shared -fPIC ... -lm
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

_Static_assert(FLT_EVAL_METHOD == 0, "float32 ops must not be evaluated in wider precision");

typedef int32_t boolean; /* 0 or 1 */

/* The int32 congruent to x modulo 2**32, through conversions C defines for every value. */
static int32_t wrap(int64_t x) {
  uint32_t low = (uint32_t)x; /* conversion to unsigned is reduction modulo 2**32 */
  if (low <= 0x7fffffffu) return (int32_t)low;
  return -(int32_t)(0xffffffffu - low) - 1; /* low - 2**32, without leaving int32 */
}

static uint32_t bits_of(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static float float_of(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* Floor remainder in 64 bits: C's remainder moved into the divisor's sign; x % 0 is x. */
static int64_t floor_rem64(int64_t a, int64_t b) {
  if (b == 0) return a;
  int64_t r = a % b; /* |a| <= 2**31, so neither a % b nor a / b can trap in 64 bits */
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

static int32_t floor_div(int32_t a, int32_t b) {
  if (b == 0) return 0;
  int64_t r = floor_rem64(a, b);
  return wrap(((int64_t)a - r) / b); /* exact division: a - r is a multiple of b */
}

static int32_t floor_mod(int32_t a, int32_t b) { return wrap(floor_rem64(a, b)); }

/* Truncate toward zero and saturate, from the bit fields; nan gives 0. */
static int32_t to_int_saturating(float x) {
  uint32_t u = bits_of(x);
  int negative = (u >> 31) != 0;
  int exponent = (int)((u >> 23) & 0xffu);
  uint32_t mantissa = u & 0x7fffffu;
  if (exponent == 0xff && mantissa != 0) return 0; /* nan */
  int power = exponent - 127;                      /* x = 1.mantissa * 2**power */
  if (power < 0) return 0;                         /* |x| < 1 (zeros, subnormals included) */
  if (power >= 31) return negative ? INT32_MIN : INT32_MAX; /* |x| >= 2**31, infinities */
  int64_t significand = (int64_t)(mantissa | 0x800000u); /* 24 bits with the hidden one */
  int64_t magnitude = power >= 23 ? significand << (power - 23) : significand >> (23 - power);
  return wrap(negative ? -magnitude : magnitude); /* magnitude < 2**31: no wrap happens */
}

/* The contract's "a if a > b else b", written as its cases: nan in a or b gives b. */
static float max_float(float a, float b) {
  if (isnan(a) || isnan(b)) return b;
  if (a > b) return a;
  return b; /* b >= a, including equal zeros of either sign */
}

#define UNARY(name, T, U, expr)                                                                 \
  void ref_##name(const T *a, U *out, int n) {                                                 \
    for (int i = 0; i < n; i++) {                                                               \
      T x = a[i];                                                                               \
      out[i] = (expr);                                                                          \
    }                                                                                           \
  }

#define BINARY(name, T, U, expr)                                                                \
  void ref_##name(const T *a, const T *b, U *out, int n) {                                     \
    for (int i = 0; i < n; i++) {                                                               \
      T x = a[i], y = b[i];                                                                     \
      out[i] = (expr);                                                                          \
    }                                                                                           \
  }

#define WHERE(name, T)                                                                          \
  void ref_##name(const boolean *c, const T *a, const T *b, T *out, int n) {                   \
    for (int i = 0; i < n; i++) {                                                               \
      if (c[i] != 0)                                                                            \
        out[i] = a[i];                                                                          \
      else                                                                                      \
        out[i] = b[i];                                                                          \
    }                                                                                           \
  }

/* i32 */
BINARY(add_i32, int32_t, int32_t, wrap((int64_t)x + y))
BINARY(mul_i32, int32_t, int32_t, wrap((int64_t)x * y))
BINARY(max_i32, int32_t, int32_t, x > y ? x : y)
BINARY(cmplt_i32, int32_t, boolean, x < y)
BINARY(cmpne_i32, int32_t, boolean, x != y)
UNARY(neg_i32, int32_t, int32_t, wrap(-(int64_t)x))
BINARY(floordiv_i32, int32_t, int32_t, floor_div(x, y))
BINARY(floormod_i32, int32_t, int32_t, floor_mod(x, y))

/* f32 */
BINARY(add_f32, float, float, x + y)
BINARY(mul_f32, float, float, x * y)
BINARY(max_f32, float, float, max_float(x, y))
BINARY(cmplt_f32, float, boolean, x < y)  /* an ordered comparison: false with nan */
BINARY(cmpne_f32, float, boolean, x != y) /* true with nan */
UNARY(neg_f32, float, float, float_of(bits_of(x) ^ 0x80000000u))
UNARY(recip_f32, float, float, 1.0f / x)
UNARY(exp2_f32, float, float, exp2f(x))
UNARY(log2_f32, float, float, log2f(x))

/* bool, as 0/1 ints: MUL is AND, MAX is OR, CMPLT is "a is 0 and b is 1", CMPNE is XOR */
BINARY(mul_bool, boolean, boolean, x & y)
BINARY(max_bool, boolean, boolean, x | y)
BINARY(cmplt_bool, boolean, boolean, (x ^ 1) & y)
BINARY(cmpne_bool, boolean, boolean, x ^ y)

WHERE(where_bool, boolean)
WHERE(where_i32, int32_t)
WHERE(where_f32, float)

/* the six casts between distinct value dtypes */
UNARY(cast_bool_i32, boolean, int32_t, x)
UNARY(cast_bool_f32, boolean, float, x ? 1.0f : 0.0f)
UNARY(cast_i32_bool, int32_t, boolean, x != 0)
UNARY(cast_i32_f32, int32_t, float, (float)x) /* rounds to nearest, ties to even */
UNARY(cast_f32_bool, float, boolean, (bits_of(x) & 0x7fffffffu) != 0) /* only zeros are 0 */
UNARY(cast_f32_i32, float, int32_t, to_int_saturating(x))
