"""Claim 1: the value contract (`uopc.semantics.eval_op`) against two independent references.

Every op of the contract, for each dtype it accepts, and the six casts between value dtypes:
30 cases. Each case runs on 20,000 input tuples at full size (1,000 quick), drawn with
`common.rand_value` from a seed named after the case, plus every tuple of special values
exactly once (all pairs for two-input ops, both bools for a WHERE condition). The results of
`eval_op` must equal those of (a) NumPy on float32/int32 arrays and (b) the hand-written C of
`tests/ref_ops.c` under `same`; EXP2 and LOG2 may differ by one ulp (their last bit depends on
the maths library), measured on the ordered integer image of the bit patterns, with nan and
the infinities required to match exactly.

Run as a script: `python tests/test_semantics.py [--full] [--only numpy|c]`.
"""

import ctypes
import functools
import itertools
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from book import protocol
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, DType, Ops
from uopc.runtime import compile_c
from uopc.semantics import eval_op, f32, f32_bits, same
from verify import generators as common

HERE = Path(__file__).resolve().parent
REF_SOURCE = HERE / "ref_ops.c"
# The reference's own flags (the runtime's, restated here so that a change to uopc cannot
# change the reference); compile_c adds -lm.
REF_CC = "clang"
REF_FLAGS = "-O2 -fwrapv -ffp-contract=off -fno-fast-math -std=c11 -shared -fPIC".split()
INEXACT = (Ops.EXP2, Ops.LOG2)  # within one ulp; every other op bit for bit
SHOWN_MISMATCHES = 10


@dataclass(frozen=True)
class Case:
    """One op on one dtype: `srcs` the input dtypes, `out` the result's (for CAST the target)."""

    op: Ops
    srcs: tuple[DType, ...]
    out: DType

    @property
    def name(self) -> str:
        """`add_i32`, `where_f32`, `cast_f32_i32`: also the C function's name after `ref_`."""
        if self.op is Ops.CAST:
            return f"cast_{self.srcs[0]}_{self.out}"
        return f"{self.op.name.lower()}_{self.srcs[-1]}"


def binary(op, dtype, out=None):
    return Case(op, (dtype, dtype), out or dtype)


CASES = (
    *(binary(op, d) for d in (I32, F32) for op in (Ops.ADD, Ops.MUL, Ops.MAX)),
    *(binary(op, d, BOOL) for d in (I32, F32, BOOL) for op in (Ops.CMPLT, Ops.CMPNE)),
    binary(Ops.MUL, BOOL),  # AND
    binary(Ops.MAX, BOOL),  # OR
    Case(Ops.NEG, (I32,), I32),
    Case(Ops.NEG, (F32,), F32),
    binary(Ops.FLOORDIV, I32),
    binary(Ops.FLOORMOD, I32),
    Case(Ops.RECIP, (F32,), F32),
    Case(Ops.EXP2, (F32,), F32),
    Case(Ops.LOG2, (F32,), F32),
    *(Case(Ops.WHERE, (BOOL, d, d), d) for d in (BOOL, I32, F32)),
    *(Case(Ops.CAST, (a,), b) for a in (BOOL, I32, F32) for b in (BOOL, I32, F32) if a is not b),
)

# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------

# Inputs enter as contract values: SPECIAL_FLOAT holds 16777217.0, which is not a float32 and
# becomes 2**24 here, so the rounded list has one duplicate, dropped to keep "exactly once".
NORMALISE = {F32: lambda v: f32(float(v)), I32: int, BOOL: bool}


def _distinct(values, dtype):
    seen, kept = set(), []
    for value in map(NORMALISE[dtype], values):
        key = ("f", f32_bits(value)) if dtype is F32 else (type(value).__name__, value)
        if key not in seen:
            seen.add(key)
            kept.append(value)
    return tuple(kept)


SPECIALS = {
    BOOL: (False, True),
    I32: _distinct(common.SPECIAL_INT, I32),
    F32: _distinct(common.SPECIAL_FLOAT, F32),
}
# SPECIAL_INT has no integer that float32 cannot hold, so the i32 -> f32 cast also gets the
# rounding cases: 2**24 + 1 and + 3 (ties, to even), 2**31 - 64 (a tie that rounds up to 2**31).
ROUNDING_INTS = (2**24 + 1, 2**24 + 3, -(2**24) - 1, 2**31 - 64, 2**31 - 65)
EXTRA = {"cast_i32_f32": tuple((v,) for v in ROUNDING_INTS)}


def special_tuples(case: Case) -> list[tuple]:
    """Every combination of special values for the case's inputs, each exactly once."""
    tuples = list(itertools.product(*(SPECIALS[d] for d in case.srcs)))
    return tuples + [t for t in EXTRA.get(case.name, ()) if t not in tuples]


def seed_of(case: Case) -> str:
    return f"semantics {case.name}"  # a str seed is hashed the same way on every run


@functools.cache
def inputs(case: Case, count: int) -> tuple[tuple, ...]:
    """The special tuples, then random ones up to `count` (more only if the specials are more)."""
    tuples = special_tuples(case)
    r = random.Random(seed_of(case))
    while len(tuples) < count:
        tuples.append(tuple(NORMALISE[d](common.rand_value(r, d)) for d in case.srcs))
    return tuple(tuples)


def case_size() -> int:
    return protocol.size(1_000, 20_000)


@functools.cache
def contract(case: Case, count: int) -> tuple:
    return tuple(eval_op(case.op, case.out, list(t)) for t in inputs(case, count))


# ---------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------


def ordered(x: float) -> int:
    """The float32 bit pattern as an integer that grows with the value (-0.0 and 0.0 meet at 0)."""
    bits = f32_bits(x)
    return bits if bits < 0x80000000 else 0x80000000 - bits


def ulp_gap(x, y):
    """The distance in ulps between two floats, or None when they must be equal and are not.

    nan and the infinities are not on the ulp scale: they must match exactly.
    """
    if not (isinstance(x, float) and isinstance(y, float)):
        return 0 if same(x, y) else None
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        return 0 if same(x, y) else None
    return abs(ordered(x) - ordered(y))


def is_contract_value(value, dtype) -> bool:
    """A value of dtype's Python type that the dtype can hold: a float32 value, an int32."""
    if dtype is F32:
        return isinstance(value, float) and (math.isnan(value) or f32(value) == value)
    if dtype is I32:
        return type(value) is int and INT_MIN <= value <= INT_MAX
    return type(value) is bool


def show(value) -> str:
    if isinstance(value, float):
        bits = "nan" if math.isnan(value) else f"0x{f32_bits(value):08x}"
        return f"{value!r} ({bits})"
    return repr(value)


def compare(case: Case, count: int, got: list, reference: str, max_gap: dict) -> list[str]:
    """Check every result against the contract; return a description of each mismatch.

    `max_gap` collects, for EXP2 and LOG2, the largest ulp distance seen.
    """
    problems = []
    tuples, wanted = inputs(case, count), contract(case, count)
    for values, expected, value in zip(tuples, wanted, got, strict=True):
        if case.op in INEXACT:
            gap = ulp_gap(expected, value)
            if gap is not None:
                max_gap[case.op] = max(max_gap.get(case.op, 0), gap)
            ok = gap is not None and gap <= 1
        else:
            ok = same(expected, value)
        # `same` rounds both sides to float32 before comparing bits, so it would accept an
        # unrounded double from eval_op (a+b in plain double arithmetic): refuse it here.
        ok = ok and is_contract_value(expected, case.out)
        if not ok:
            problems.append(
                f"{case.op.name} {'/'.join(map(str, case.srcs))} -> {case.out}"
                f" (case {case.name}, seed {seed_of(case)!r})"
                f" inputs {', '.join(map(show, values))}:"
                f" eval_op {show(expected)}, {reference} {show(value)}"
            )
    return problems


def fail_on(problems: list[str], reference: str) -> None:
    if problems:
        for line in problems[:SHOWN_MISMATCHES]:
            print("MISMATCH", line)
        more = len(problems) - SHOWN_MISMATCHES
        if more > 0:
            print(f"... and {more} more")
        raise AssertionError(f"eval_op differs from {reference} on {len(problems)} inputs")


# ---------------------------------------------------------------------------------------------
# Reference (a): NumPy
# ---------------------------------------------------------------------------------------------

NP_DTYPE = {BOOL: np.bool_, I32: np.int32, F32: np.float32}


def np_floor(a, b, remainder: bool):
    """Floor division or remainder: widen to 64 bits, Python-style floor, wrap back to int32.

    NumPy's own int32 versions disagree with the contract at a zero divisor (the remainder by 0
    is 0 there, not x) and at INT_MIN // -1, so the zero-divisor results 0 and x are coded here.
    """
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    divisor = np.where(b64 == 0, 1, b64)  # a placeholder; those lanes are replaced below
    if remainder:
        result = np.where(b64 == 0, a64, np.remainder(a64, divisor))
    else:
        result = np.where(b64 == 0, 0, np.floor_divide(a64, divisor))
    wrapped = (result + 2**31) % 2**32 - 2**31  # INT_MIN // -1 = 2**31 wraps to INT_MIN
    return wrapped.astype(np.int32)


def np_f32_to_i32(a):
    """Truncate, saturate, nan to 0: written out, because NumPy's cast leaves nan and values
    outside int32 undefined (on x86 it gives INT_MIN for all of them, with a warning)."""
    wide = np.trunc(a.astype(np.float64))
    saturated = np.clip(np.where(np.isnan(wide), 0.0, wide), INT_MIN, INT_MAX)
    return saturated.astype(np.int32)


# case name -> NumPy function of the input arrays; NumPy's own op wherever it agrees.
NUMPY = {
    "add_i32": np.add,  # int32 arrays wrap
    "mul_i32": np.multiply,
    "max_i32": np.maximum,
    "add_f32": np.add,  # float32 arrays use the machine's float32 instructions
    "mul_f32": np.multiply,
    # np.maximum propagates a nan from either side and may pick either zero; the contract is
    # "a if a > b else b", so it is written that way
    "max_f32": lambda a, b: np.where(a > b, a, b),
    **{f"cmplt_{d}": np.less for d in ("i32", "f32", "bool")},
    **{f"cmpne_{d}": np.not_equal for d in ("i32", "f32", "bool")},
    "mul_bool": np.logical_and,
    "max_bool": np.logical_or,
    "neg_i32": np.negative,  # -INT_MIN wraps to INT_MIN
    "neg_f32": np.negative,
    "floordiv_i32": lambda a, b: np_floor(a, b, remainder=False),
    "floormod_i32": lambda a, b: np_floor(a, b, remainder=True),
    "recip_f32": lambda a: np.float32(1.0) / a,
    # NumPy's float32 exp2 and log2 are fast approximations of their own, which depend on the
    # processor (2 ulp from the contract at some inputs on an AVX-512 machine, demos/
    # contract_edges.py): the contract is the double result rounded once, so NumPy computes it
    # that way too, in float64, and the test holds it within one ulp.
    "exp2_f32": lambda a: np.exp2(a.astype(np.float64)).astype(np.float32),
    "log2_f32": lambda a: np.log2(a.astype(np.float64)).astype(np.float32),
    **{f"where_{d}": np.where for d in ("bool", "i32", "f32")},
    "cast_bool_i32": lambda a: a.astype(np.int32),
    "cast_bool_f32": lambda a: a.astype(np.float32),
    "cast_i32_bool": lambda a: a.astype(np.bool_),  # non-zero is True
    "cast_i32_f32": lambda a: a.astype(np.float32),  # nearest, ties to even
    "cast_f32_bool": lambda a: a.astype(np.bool_),  # nan is True, both zeros False
    "cast_f32_i32": np_f32_to_i32,
}


def numpy_results(case: Case, count: int) -> list:
    columns = zip(*inputs(case, count), strict=True)
    arrays = [np.array(col, dtype=NP_DTYPE[d]) for col, d in zip(columns, case.srcs, strict=True)]
    with np.errstate(all="ignore"):  # overflow, 1/0 and log2 of negatives are expected here
        result = np.asarray(NUMPY[case.name](*arrays))
    assert result.dtype == NP_DTYPE[case.out], f"{case.name}: NumPy gave {result.dtype}"
    return result.tolist()  # Python bools, ints and floats (float32 values are exact doubles)


# --8<-- [start:vs_numpy]
def semantics_vs_numpy() -> int:
    """Every case against NumPy; returns the number of checks."""
    checks, max_gap, problems = 0, {}, []
    for case in CASES:
        count = case_size()
        problems += compare(case, count, numpy_results(case, count), "numpy", max_gap)
        checks += len(inputs(case, count))
    fail_on(problems, "NumPy")
    gaps = {op.name: max_gap.get(op, 0) for op in INEXACT}
    print(f"semantics vs numpy: {checks} checks passed; max ulp difference for exp2/log2: {gaps}")
    protocol.report("semantics-numpy", "numpy", checks)
    for op, gap in gaps.items():
        protocol.state(f"ulp_max_{op.lower()}_numpy", gap, f"max ulp gap of {op} from NumPy")
    return checks


# --8<-- [end:vs_numpy]

# ---------------------------------------------------------------------------------------------
# Reference (b): the C of tests/ref_ops.c
# ---------------------------------------------------------------------------------------------

# Bools cross into C as int32 0/1; a result other than 0 or 1 stays an int and fails `same`.
C_TYPE = {BOOL: ctypes.c_int32, I32: ctypes.c_int32, F32: ctypes.c_float}
FROM_C = {BOOL: lambda v: {0: False, 1: True}.get(v, v), I32: int, F32: float}


@functools.cache
def reference_library() -> ctypes.CDLL:
    """ref_ops.c compiled (or found in uopc's content-addressed cache) and loaded."""
    return ctypes.CDLL(compile_c(REF_SOURCE.read_text(), cc=REF_CC, flags=REF_FLAGS))


def c_results(case: Case, count: int) -> list:
    tuples = inputs(case, count)
    n = len(tuples)
    arrays = [
        (C_TYPE[d] * n)(*(int(v) if d is BOOL else v for v in column))
        for column, d in zip(zip(*tuples, strict=True), case.srcs, strict=True)
    ]
    out = (C_TYPE[case.out] * n)()
    function = getattr(reference_library(), f"ref_{case.name}")
    function.argtypes = [ctypes.POINTER(C_TYPE[d]) for d in (*case.srcs, case.out)]
    function.argtypes += [ctypes.c_int]
    function.restype = None
    function(*arrays, out, n)
    return [FROM_C[case.out](v) for v in out]


def semantics_vs_c() -> int:
    """Every case against the C reference; returns the number of checks."""
    checks, max_gap, problems = 0, {}, []
    for case in CASES:
        count = case_size()
        problems += compare(case, count, c_results(case, count), "C", max_gap)
        checks += len(inputs(case, count))
    fail_on(problems, "the C reference")
    gaps = {op.name.lower(): max_gap.get(op, 0) for op in INEXACT}
    print(f"semantics vs C:     {checks} checks passed; max ulp difference for exp2f/log2f: {gaps}")
    protocol.report("semantics-c", "c", checks)
    for op, gap in gaps.items():
        protocol.state(f"ulp_max_{op}_c", gap, f"max ulp gap of {op.upper()} from C")
    return checks


@pytest.mark.layer("semantics")
def test_semantics_vs_numpy():
    assert semantics_vs_numpy() >= 20 * case_size()


@pytest.mark.layer("semantics")
@pytest.mark.needs_clang
def test_semantics_vs_c():
    assert semantics_vs_c() >= 20 * case_size()


@pytest.mark.layer("semantics")
def test_case_list_covers_the_contract():
    """30 cases: every op and dtype that eval_op accepts, and every cast between value dtypes."""
    from uopc.semantics import ANY_DTYPE_CONTRACT, CONTRACT_BY_KIND

    wanted = {(op, kind) for kind, rules in CONTRACT_BY_KIND.items() for op in rules}
    wanted |= {(op, d.kind) for op in ANY_DTYPE_CONTRACT for d in (BOOL, I32, F32)}
    covered = {(c.op, c.srcs[-1].kind) for c in CASES if c.op is not Ops.CAST}
    assert covered == wanted
    casts = {(c.srcs[0], c.out) for c in CASES if c.op is Ops.CAST}
    assert len(casts) == 6 and all(a is not b for a, b in casts)
    assert len({c.name for c in CASES}) == len(CASES) == 30
    assert set(NUMPY) == {c.name for c in CASES}
    state_sizes()


def state_sizes() -> None:
    """The sizes the book quotes, stated (tests/protocol.state) at this run's size."""
    value_ops = list(Ops)[: list(Ops).index(Ops.BUFFER)]  # chapter 3's table: before memory
    for key, value, meaning in (
        ("semantics_cases", len(CASES), "cases of the semantics layers: an op on a dtype, a cast"),
        ("semantics_inputs_per_case", case_size(), "inputs per case, the special ones first"),
        ("ops_exact", len(value_ops) - len(INEXACT), "value-table ops held to identical bits"),
        ("float_special_percent", round(common.FLOAT_SPECIAL_SHARE * 100),
         "per cent of the float inputs rand_value draws from SPECIAL_FLOAT"),
    ):  # fmt: skip
        protocol.state(key, value, meaning)


LAYERS = {"numpy": semantics_vs_numpy, "c": semantics_vs_c}

if __name__ == "__main__":
    import argparse
    import os

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="20,000 inputs per case")
    parser.add_argument("--only", choices=sorted(LAYERS), help="run one reference")
    options = parser.parse_args()
    if options.full:
        os.environ["UOPC_FULL"] = "1"
    try:
        for name, layer in LAYERS.items():
            if options.only in (None, name):
                layer()
    except AssertionError as error:
        print(f"FAILED: {error}")
        sys.exit(1)
