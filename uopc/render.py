"""The C writer: `render` turns a CALL into one C function, preceded by `PRELUDE`.

Relies on `ops`, `dtypes` and `uop` (toposort for the statement order, `vmin` for the division
fast path). Invariant: the C computes exactly what `semantics.py` says, bit for bit, when it is
compiled with the runtime's flags: every node is one statement in `toposort` order (so both WHERE
branches run, which is why every op is total), every operand is a name or a literal that C reads
as the same value, and each of C's traps (signed overflow, zero divisors, INT_MIN / -1, out of
range float to int, wider float evaluation) is closed either here or by a flag.
"""

import math
import re
from pathlib import Path

from .dtypes import BOOL, F32, I32, INT_MIN, VOID, Ptr
from .ops import ALU, Ops
from .uop import UOp

# --8<-- [start:prelude]
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
# --8<-- [end:prelude]


# --8<-- [start:literal]
def literal(u: UOp) -> str:
    """The C text of a CONST: a literal C reads as exactly the constant's value and dtype."""
    if not isinstance(u, UOp) or u.op is not Ops.CONST:
        raise TypeError(f"literal needs a CONST node, got {_describe(u)}")
    value = u.arg
    if u.dtype is BOOL:
        return "true" if value else "false"
    if u.dtype is I32:
        if value == INT_MIN:
            return "(-2147483647 - 1)"  # 2147483648 does not fit an int, so -2147483648 is a long
        return f"({value})" if value < 0 else str(value)  # so NEG writes -(-5), never --5
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "(-INFINITY)"
    text = f"{value:.9g}"  # C's %.9g: nine significant digits identify every float32
    if "." not in text and "e" not in text:
        text += ".0"  # `1f` is not C; `1.0f` is
    text += "f"  # without the suffix C reads a double, and the op would run in double
    return f"({text})" if text.startswith("-") else text


# --8<-- [end:literal]


def _describe(u) -> str:
    return u.op.name if isinstance(u, UOp) else type(u).__name__


# --8<-- [start:cast]
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


# --8<-- [end:cast]


# --8<-- [start:division]
def _fast_division(u: UOp) -> bool:
    # C's truncating / and % agree with floor division when the dividend is never negative and
    # the divisor always positive; without the guard -7 / 2 gives -3 where the contract says -4.
    return u.src[0].vmin >= 0 and u.src[1].vmin > 0


def _floordiv(u, a, b):
    return f"{a} / {b}" if _fast_division(u) else f"floordiv_i32({a}, {b})"


def _floormod(u, a, b):
    return f"{a} % {b}" if _fast_division(u) else f"floormod_i32({a}, {b})"


# --8<-- [end:division]


# --8<-- [start:float_max]
# Float MAX and CMPLT compare the difference with zero. clang (14 to 19) reads `(a > b) ? a : b`
# as a max that ignores the sign of zero and folds max(max(0, x), 0) to max(0, x): -0.0 at
# x = -0.0 where the contract says 0.0 (tests/test_render.py keeps the cases). `a - b > 0.0f` has
# the same truth value for every pair of floats (with subnormals, a - b is 0 only when a == b;
# nan and inf - inf fail both tests), clang sees no max in it, and loops still vectorise.
def _max(u, a, b):
    # never fmaxf: fmaxf(0.0f, NAN) is 0.0f where the contract gives nan
    if u.dtype is BOOL:
        return f"{a} || {b}"
    if u.dtype is F32:
        return f"({a} - {b} > 0.0f) ? {a} : {b}"
    return f"({a} > {b}) ? {a} : {b}"


def _cmplt(u, a, b):
    return f"{a} - {b} < 0.0f" if u.src[0].dtype is F32 else f"{a} < {b}"


# --8<-- [end:float_max]


# --8<-- [start:alu_table]
def _mul(u, a, b):
    return f"{a} && {b}" if u.dtype is BOOL else f"{a} * {b}"


# op -> C expression from the node and the C names of its srcs
ALU_EXPR = {
    Ops.CAST: _cast,
    Ops.NEG: lambda u, a: f"-{a}",  # -v0; a negative literal is bracketed, so never `--`
    Ops.RECIP: lambda u, a: f"1.0f / {a}",  # 1.0f / v0
    Ops.EXP2: lambda u, a: f"exp2f({a})",
    Ops.LOG2: lambda u, a: f"log2f({a})",
    Ops.ADD: lambda u, a, b: f"{a} + {b}",  # wraps for ints thanks to -fwrapv
    Ops.MUL: _mul,
    Ops.MAX: _max,
    Ops.CMPLT: _cmplt,
    Ops.CMPNE: lambda u, a, b: f"{a} != {b}",
    Ops.FLOORDIV: _floordiv,
    Ops.FLOORMOD: _floormod,
    Ops.WHERE: lambda u, c, a, b: f"{c} ? {a} : {b}",  # both branches were already computed
}
assert set(ALU_EXPR) == set(ALU), "every ALU op needs a C expression"
# --8<-- [end:alu_table]


# --8<-- [start:signature]
def _signature(call: UOp) -> str:
    """`float add(float p0, float p1) {`: one parameter per argument position, used or not."""
    params = []
    for position, argument in enumerate(call.src[1:]):
        dtype = argument.dtype
        if isinstance(dtype, Ptr):
            params.append(f"{dtype.base.c} *p{position}")
        else:
            params.append(f"{dtype.c} p{position}")
    body = call.src[0]
    ret = "void" if body.dtype is VOID else body.dtype.c
    return f"{ret} {call.arg.name}({', '.join(params) or 'void'}) {{"


# --8<-- [end:signature]


# A call's name becomes a C symbol and is looked up by ctypes, so a name C or clang already
# means something by would lie: `exit` is a noreturn builtin whose body clang drops, `sin` is
# declared by <math.h>. The list is data (c_names.txt, derived from clang by
# tests/test_names.py); the rules without a list are a leading underscore (reserved in C, and
# ctypes' own attributes) and the prelude's helpers, read from the prelude itself.
PRELUDE_HELPERS = tuple(re.findall(r"^static inline \w+ (\w+)\(", PRELUDE, re.MULTILINE))
NAME_SECTIONS = {
    "keyword": "is a C keyword",
    "header": "is declared by a header the prelude includes",
    "builtin": "is a library function clang treats as a builtin",
}


def _read_name_rules(path: Path) -> dict:
    rules, section = {}, None
    for line in path.read_text(encoding="ascii").splitlines():
        if line.startswith("["):
            section = NAME_SECTIONS[line.strip("[]")]
        elif line and not line.startswith("#"):
            rules[line] = section
    return rules | {name: "names a helper of the prelude" for name in PRELUDE_HELPERS}


NAME_RULES = _read_name_rules(Path(__file__).with_name("c_names.txt"))


def _check_name(name) -> None:
    if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
        raise ValueError(f"render: the call's name {name!r} is not a C identifier")
    if name.startswith("_"):
        raise ValueError(f"render: the call's name '{name}' starts with an underscore")
    if name in NAME_RULES:
        raise ValueError(f"render: the call's name '{name}' {NAME_RULES[name]}")


def _check_call(call) -> None:
    if not isinstance(call, UOp) or call.op is not Ops.CALL:
        raise TypeError(f"render needs a CALL, got {_describe(call)}")
    _check_name(call.arg.name)
    if isinstance(call.src[0].dtype, Ptr):
        raise ValueError(f"render: a call cannot return a pointer ({call.src[0].op.name} body)")


# --8<-- [start:statement]
def _statement(u: UOp, name: str, names: dict) -> str:
    """The one C statement of an INDEX, LOAD or ALU node, whose value is called `name`."""
    operands = [names[s] for s in u.src]
    if u.op is Ops.INDEX:
        return f"  {u.dtype.base.c} *{name} = {operands[0]} + {operands[1]};"
    if u.op is Ops.LOAD:
        return f"  {u.dtype.c} {name} = *{operands[0]};"
    if u.op in ALU_EXPR:
        return f"  {u.dtype.c} {name} = {ALU_EXPR[u.op](u, *operands)};"
    raise ValueError(f"render: no C for a {u.op.name} inside a call body")


# --8<-- [end:statement]


# Scratch beyond this many bytes in one call leaves the stack (a thread's stack may be small):
# it becomes `static _Thread_local`, so each thread still has its own and nothing is shared.
STACK_SCRATCH_BYTES = 64 * 1024
ELEMENT_BYTES = {"bool": 1, "int32_t": 4, "float": 4}


def _declare_alloc(u: UOp, stack_bytes: int) -> tuple[str, int]:
    """`  float a3[4];`, declared before every statement, and the scratch bytes then on the
    stack; past STACK_SCRATCH_BYTES, `  static _Thread_local float a3[4000000];` instead."""
    element, size = u.dtype.base.c, u.dtype.size
    needed = size * ELEMENT_BYTES[element]
    if stack_bytes + needed <= STACK_SCRATCH_BYTES:
        return f"  {element} a{u.arg.slot}[{size}];", stack_bytes + needed
    return f"  static _Thread_local {element} a{u.arg.slot}[{size}];", stack_bytes


# --8<-- [start:render]
def render(call: UOp) -> str:
    """The C source of a CALL: the prelude, then one function with one statement per node."""
    _check_call(call)
    body = call.src[0]
    names: dict[UOp, str] = {}  # node -> the C text that stands for its value or address
    declarations: list[str] = []
    stack_bytes = 0  # scratch declared on the stack so far
    statements: list[str] = []
    counter = 0
    for u in body.toposort():
        op = u.op
        if op is Ops.CONST:
            names[u] = literal(u)
        elif op is Ops.PARAM:
            names[u] = f"p{u.arg.slot}"
        elif op is Ops.ALLOC:
            names[u] = f"a{u.arg.slot}"
            declaration, stack_bytes = _declare_alloc(u, stack_bytes)
            declarations.append(declaration)
        elif op is Ops.AFTER:
            names[u] = names[u.src[0]]  # the same pointer; its other srcs only fixed the order
        elif op is Ops.STORE:
            statements.append(f"  *{names[u.src[0]]} = {names[u.src[1]]};")
        elif op is not Ops.SINK:
            # v<k> counts the INDEX, LOAD and ALU nodes only (a STORE has no value to name)
            names[u] = name = f"v{counter}"
            counter += 1
            statements.append(_statement(u, name, names))
    lines = [_signature(call), *declarations, *statements]
    if body.dtype is not VOID:
        lines.append(f"  return {names[body]};")
    lines.append("}")
    return PRELUDE + "\n" + "\n".join(lines) + "\n"


# --8<-- [end:render]
