"""The contract at its edges: eval_op on the awkward inputs of each op, beside NumPy (Chapter 3).

    python demos/contract_edges.py

Two quoted blocks, after a marker line `@@ block NAME` that the book build strips. edges: a
table with one row per edge case (the op, the types, the inputs, what `eval_op` gives, what
NumPy gives on int32, float32 and bool arrays) and its verdict: `same` (compared with the
contract's own `same`), or a numbered difference that the contract makes on purpose, each
explained under the table. A row marked same that differs, or a row marked as a difference
that agrees, makes the program exit with a non-zero status. Casts that C leaves undefined
(a float out of the int32 range, nan to int) are left out: NumPy's answer there is the
machine's, and chapter 2 shows it. Every line of it is the same on every run.
exp2-log2 (this machine): EXP2 and LOG2, the two ops the contract does not hold to exact bits,
on seeded float32 inputs: how many of NumPy's answers and of the C library's (exp2f and log2f,
called through ctypes) differ from the contract's, and by how many ulps at most. Both routines
are the machine's, so the block is marked as depending on it.
"""

from _common import MACHINE, block, claim, finish, state

import ctypes
import ctypes.util
import math
import sys

import numpy as np

from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, Ops
from uopc.semantics import eval_op, f32, f32_bits, same

NUMPY_TYPE = {I32: np.int32, F32: np.float32, BOOL: np.bool_}
NUMPY_OP = {
    Ops.ADD: np.add,
    Ops.MUL: np.multiply,
    Ops.NEG: np.negative,
    Ops.FLOORDIV: np.floor_divide,
    Ops.FLOORMOD: np.remainder,
    Ops.MAX: np.maximum,
    Ops.RECIP: np.reciprocal,
    Ops.EXP2: np.exp2,
    Ops.LOG2: np.log2,
    Ops.CMPLT: np.less,
    Ops.CMPNE: np.not_equal,
    Ops.WHERE: np.where,
}
NAN, INF = math.nan, math.inf

# The differences the contract makes on purpose: why, in two lines each, and what the row must
# show for those lines to be true (the inputs, eval_op's answer, NumPy's).
WHY = {
    "mod0": (
        ("x % 0 is x, so that a == b*(a//b) + a%b still holds;", "NumPy gives 0"),
        lambda inputs, ours, theirs: ours == inputs[0] and theirs == 0,
    ),
    "max-nan": (
        ("MAX is `a if a > b else b`: a nan first gives the second value;",
         "NumPy's maximum gives nan whichever side it is on"),
        lambda inputs, ours, theirs: ours == inputs[1] and math.isnan(theirs),
    ),
}  # fmt: skip

# (op, type of the sources, type of the result, inputs, None or the key of a difference)
EDGES = (
    (Ops.ADD, I32, I32, (INT_MAX, 1), None),
    (Ops.MUL, I32, I32, (46341, 46341), None),
    (Ops.NEG, I32, I32, (INT_MIN,), None),
    (Ops.FLOORDIV, I32, I32, (-7, 2), None),
    (Ops.FLOORDIV, I32, I32, (7, 0), None),
    (Ops.FLOORDIV, I32, I32, (INT_MIN, -1), None),
    (Ops.FLOORMOD, I32, I32, (-7, 2), None),
    (Ops.FLOORMOD, I32, I32, (7, -2), None),
    (Ops.FLOORMOD, I32, I32, (7, 0), "mod0"),
    (Ops.ADD, F32, F32, (-0.0, 0.0), None),
    (Ops.ADD, F32, F32, (INF, -INF), None),
    (Ops.MUL, F32, F32, (0.0, INF), None),
    (Ops.MUL, F32, F32, (-1.0, 0.0), None),
    (Ops.MUL, F32, F32, (3e38, 10.0), None),
    (Ops.NEG, F32, F32, (0.0,), None),
    (Ops.MAX, F32, F32, (1.0, NAN), None),
    (Ops.MAX, F32, F32, (NAN, 1.0), "max-nan"),
    (Ops.RECIP, F32, F32, (-0.0,), None),
    (Ops.RECIP, F32, F32, (3.0,), None),
    (Ops.EXP2, F32, F32, (128.0,), None),
    (Ops.LOG2, F32, F32, (0.0,), None),
    (Ops.LOG2, F32, F32, (-1.0,), None),
    (Ops.CMPLT, F32, BOOL, (NAN, 1.0), None),
    (Ops.CMPNE, F32, BOOL, (NAN, NAN), None),
    (Ops.MUL, BOOL, BOOL, (True, False), None),
    (Ops.MAX, BOOL, BOOL, (True, False), None),
    (Ops.CAST, F32, I32, (-3.7,), None),
    (Ops.CAST, I32, F32, (16777217,), None),
    (Ops.CAST, F32, BOOL, (NAN,), None),
    (Ops.CAST, BOOL, I32, (True,), None),
)


def contract_value(op, source, result, inputs):
    """eval_op on the inputs as the contract holds them: a float rounded to float32 first."""
    values = [f32(v) if source is F32 else v for v in inputs]
    return eval_op(op, result, values)


def numpy_value(op, source, result, inputs):
    """The same op on one-element NumPy arrays of the source type (warnings off: NumPy warns
    at a division by zero, an overflow, the logarithm of zero)."""
    arrays = [np.array([v], dtype=NUMPY_TYPE[source]) for v in inputs]
    with np.errstate(all="ignore"):
        if op is Ops.CAST:
            answer = arrays[0].astype(NUMPY_TYPE[result])
        else:
            answer = NUMPY_OP[op](*arrays)
    if answer.dtype != NUMPY_TYPE[result]:
        raise SystemExit(f"contract_edges: NumPy's {op.name} gave {answer.dtype}")
    return answer[0].item()


def spell(value) -> str:
    """A float as its shortest float32 text (NumPy's; a whole number without an exponent),
    anything else as Python writes it."""
    if not isinstance(value, float):
        return str(value)
    if math.isfinite(value) and value == int(value) and abs(value) < 2**31:
        return f"{value:.1f}"
    return str(np.float32(value))


WIDTHS = (8, 8, 17, 11, 11)  # the columns before the verdict


def show_edges():
    block("edges")
    head = ("op", "types", "inputs", "eval_op", "NumPy")
    print(" ".join(f"{c:<{w}}" for c, w in zip(head, WIDTHS, strict=True)), "verdict")
    numbers, agree = {key: k + 1 for k, key in enumerate(WHY)}, 0
    for op, source, result, inputs, why in EDGES:
        ours = contract_value(op, source, result, inputs)
        theirs = numpy_value(op, source, result, inputs)
        alike = same(ours, theirs)
        verdict = "same" if why is None else f"differs ({numbers[why]})"
        claim(alike == (why is None), f"{op.name} {inputs}: {ours} and NumPy's {theirs}")
        claim(why is None or WHY[why][1](inputs, ours, theirs), f"{op.name} {inputs}: as WHY says")
        agree += alike
        types = str(source) if source is result else f"{source}→{result}"
        shown = ", ".join(spell(v) for v in inputs)
        cells = (op.name, types, shown, spell(ours), spell(theirs))
        print(" ".join(f"{c:<{w}}" for c, w in zip(cells, WIDTHS, strict=True)), verdict)
    for key, number in numbers.items():
        first, second = WHY[key][0]
        print(f"({number}) {first}\n    {second}")
    both_nan = [
        contract_value(Ops.MAX, F32, F32, (1.0, NAN)),
        numpy_value(Ops.MAX, F32, F32, (1.0, NAN)),
    ]
    claim(all(map(math.isnan, both_nan)), "MAX(1.0, nan): nan from eval_op and from NumPy")
    differ = len(EDGES) - agree
    print(f"{len(EDGES)} edge cases: {agree} the same as NumPy, {differ} different on purpose")
    state("contract_edges", len(EDGES), "edge cases of the contract checked against NumPy")
    state("contract_edges_same", agree, "of those, the ones where eval_op and NumPy agree")


INEXACT_INPUTS = 20_000  # per op: enough to see how often the last bit differs, in about a second


def inexact_inputs(op) -> list[float]:
    """Seeded float32 inputs: for EXP2 the whole range from subnormal results to overflow, for
    LOG2 positive floats drawn by bit pattern, so that every exponent is as likely as any."""
    rng = np.random.default_rng(3)
    if op is Ops.EXP2:
        values = rng.uniform(-150.0, 130.0, INEXACT_INPUTS).astype(np.float32)
    else:
        values = rng.integers(1, 0x7F800000, INEXACT_INPUTS, dtype=np.uint32).view(np.float32)
    return [float(v) for v in values]


def c_library_routine(op):
    """exp2f or log2f of the C library, called through ctypes: float in, float out."""
    path = ctypes.util.find_library("m")
    if path is None:
        raise SystemExit("contract_edges: no C math library found for exp2f and log2f")
    routine = getattr(ctypes.CDLL(path), "exp2f" if op is Ops.EXP2 else "log2f")
    routine.argtypes, routine.restype = [ctypes.c_float], ctypes.c_float
    return routine


def ulps(x: float, y: float) -> int:
    """How many float32 steps lie between two finite floats of the same sign, or two equal
    specials (the inputs above give no NaN, and an infinity only where both overflow)."""
    if same(x, y):
        return 0
    if not (math.isfinite(x) and math.isfinite(y)) or (x < 0) != (y < 0):
        raise SystemExit(f"contract_edges: {x} and {y} are not on one ulp scale")
    return abs(f32_bits(x) - f32_bits(y))


def show_inexact():
    block("exp2-log2")
    count = f"{INEXACT_INPUTS:,}"
    print(f"EXP2 and LOG2 on {count} seeded float32 inputs each, against the contract {MACHINE}")
    print(f"  {'routine':<17} {'inputs':>7} {'differ':>7}  largest gap, first at")
    for op in (Ops.EXP2, Ops.LOG2):
        values = inexact_inputs(op)
        ours = [eval_op(op, F32, [v]) for v in values]
        with np.errstate(all="ignore"):
            numpy = NUMPY_OP[op](np.array(values, dtype=np.float32)).tolist()
        c_routine = c_library_routine(op)
        c_library = [float(c_routine(v)) for v in values]
        for name, theirs, key in (
            (f"NumPy {op.name.lower()}", numpy, "numpy"),
            (f"C library {c_routine.__name__}", c_library, "c"),
        ):
            gaps = [ulps(a, b) for a, b in zip(ours, theirs, strict=True)]
            differ, largest = sum(gap > 0 for gap in gaps), max(gaps)
            where = spell(values[gaps.index(largest)]) if largest else "-"
            print(f"  {name:<17} {count:>7} {differ:>7,}  {largest} ulp, {where}")
            what = f"{op.name} of {key} against the contract, on the demo's inputs {MACHINE}"
            state(f"edges_{op.name.lower()}_{key}_differ", differ, f"answers that differ: {what}")
            state(f"edges_{op.name.lower()}_{key}_gap", largest, f"largest ulp gap: {what}")
    state("edges_inexact_inputs", INEXACT_INPUTS, "seeded float32 inputs per op, EXP2 and LOG2")


def main() -> int:
    show_edges()
    show_inexact()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
