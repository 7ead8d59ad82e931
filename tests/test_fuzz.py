"""The numeric fuzz layer (issue 21): the interpreter against the compiled C on nasty inputs.

Random value programs (common.gen_program, a quarter of them wrapped in a floor division or
remainder that can meet INT_MIN // -1) are run by the interpreter and by their compiled C, both
as built ("raw") and after `simplify`. The inputs lean on the values where a C compiler or a
rule goes wrong: NaNs with payloads, positive and negative (a signalling float32 NaN cannot be
passed: Python's float quiets it), both zeros, subnormals, the float32 edges, INT_MIN and -1,
and the integers and floats at the edges of 2^31. Every C result
must be `same` as the interpreter's value of the raw program (float32 bits; every nan alike);
one check is one such comparison: one function (raw or simplified) at one input.

The C of a batch of programs is one file, compiled once, and run in a forked child (a crash
is reported as a result, not suffered). A disagreement is shrunk and printed with its seed, its
input and the program in the text format (tests/test_pipeline.py's `fail`).

    python tests/test_fuzz.py [--full]
"""

import os
import random
import struct
import sys

import pytest
from test_pipeline import (
    SLOT_DTYPES,
    compile_calls,
    compiled_problems,
    fail,
    rendered_text,
    run_compiled,
    signature,
    simplify_or_fail,
    value_call,
)

from book import protocol
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, Ops, ParamArg, UOp
from uopc.interp import evaluate
from uopc.semantics import f32, same
from verify.generators import SPECIAL_FLOAT, SPECIAL_INT, gen_program, rand_value

SEED_BASE = 900_000  # program n is built from random.Random(SEED_BASE + n)
SIZES = {"programs": (60, 1200), "inputs": (12, 24)}  # (quick, full)
BATCH = 100  # programs per C file: 200 functions, a few thousand lines
NASTY_SHARE = 0.7  # of the inputs, drawn from the nasty lists; the rest from rand_value


def from_bits(bits: int) -> float:
    """The float32 with these 32 bits, as a Python float (a NaN keeps its payload)."""
    return struct.unpack("<f", struct.pack("<I", bits))[0]


NAN_PAYLOADS = tuple(
    from_bits(bits)
    for bits in (
        0x7FC00001,  # the smallest payload
        0x7FFFFFFF,  # every payload bit
        0x7FE00000,  # the highest payload bit alone
        0xFFC00000,  # negative, no payload
        0xFFC12345,  # negative, a payload
    )
)
EDGE_FLOAT = (
    2147483520.0, 2147483648.0, 2147483904.0,  # the floats around 2^31
    -2147483520.0, -2147483648.0, -2147483904.0,
    from_bits(0x00000001), from_bits(0x807FFFFF),  # the smallest and a negative largest subnormal
    from_bits(0x7F7FFFFF), from_bits(0xFF7FFFFF),  # the largest finite floats
)  # fmt: skip
EDGE_INT = (INT_MIN, INT_MIN + 1, INT_MIN + 2, INT_MAX, INT_MAX - 1, -1, 0, 1, -(2**30) - 1)
NASTY = {
    F32: SPECIAL_FLOAT + NAN_PAYLOADS + EDGE_FLOAT,
    I32: SPECIAL_INT + EDGE_INT,
    BOOL: (False, True),
}


def nasty_value(r, param):
    """An input for one PARAM, inside its declared range if it has one."""
    arg = param.arg
    if r.random() < NASTY_SHARE:
        value = r.choice(NASTY[arg.dtype])
    else:
        value = rand_value(r, arg.dtype)
    if arg.vmin is not None and not arg.vmin <= value <= arg.vmax:
        value = r.choice((arg.vmin, arg.vmax))  # a promise the simplifier relies on
    return f32(value) if arg.dtype is F32 and value == value else value  # keep a NaN's bits


def nasty_env(r, params) -> dict:
    return {param.arg.slot: nasty_value(r, param) for param in params}


def fuzz_program(r, n):
    """(root, params): a random program; every fourth one divided so INT_MIN // -1 can occur."""
    root, params = gen_program(r, ranges=n % 4 == 1)
    if n % 4 != 3:
        return root, params
    x = UOp(Ops.PARAM, (), ParamArg(0, I32))
    value = root if root.dtype is I32 else root.cast(I32)
    dividend = r.choice((x, value, UOp.const(INT_MIN)))
    divisor = r.choice((x, value, UOp.const(-1)))
    root = UOp(r.choice((Ops.FLOORDIV, Ops.FLOORMOD)), (dividend, divisor))
    return root, sorted({*params, x}, key=lambda p: p.arg.slot)


def run_batch(numbers, inputs: int) -> int:
    """Programs `numbers`, raw and simplified, in one library; returns the check count."""
    cases, calls, jobs = [], [], []
    for n in numbers:
        seed = SEED_BASE + n
        r = random.Random(seed)
        root, params = fuzz_program(r, n)
        envs = [nasty_env(r, params) for _ in range(inputs)]
        simpler = simplify_or_fail("fuzz", seed, root)
        for kind, body in (("raw", root), ("simplified", simpler)):
            call = value_call(body, SLOT_DTYPES, f"{kind[0]}{n}")
            calls.append(call)
            for env in envs:
                cases.append((seed, kind, root, env))
                jobs.append((call.arg.name, [env.get(slot, 0) for slot in range(3)]))
    signatures = {call.arg.name: signature(call) for call in calls}
    results = run_compiled(compile_calls(calls), signatures, jobs)
    for (seed, kind, root, env), got in zip(cases, results, strict=True):
        want = evaluate(root, env)
        if not same(got, want):
            batch, show = compiled_problems(SLOT_DTYPES, env), rendered_text(SLOT_DTYPES)
            if kind == "simplified":  # the simplified program's C is what disagreed
                root = simplify_or_fail("fuzz", seed, root)
            fail(f"fuzz ({kind} program, C {got!r})", seed, root, None, env, batch, show)
    return len(cases)


def layer_fuzz(programs=None, inputs=None) -> int:
    """Programs 0 .. programs-1 at `inputs` inputs each (quick or full sizes of SIZES)."""
    programs = protocol.size(*SIZES["programs"]) if programs is None else programs
    inputs = protocol.size(*SIZES["inputs"]) if inputs is None else inputs
    checks = 0
    for start in range(0, programs, BATCH):
        checks += run_batch(range(start, min(start + BATCH, programs)), inputs)
    return checks


def test_nasty_values_are_what_they_claim():
    """The payload NaNs are NaNs with distinct bits; the edges are float32 values."""
    bits = {struct.unpack("<I", struct.pack("<f", value))[0] for value in NAN_PAYLOADS}
    assert len(bits) == len(NAN_PAYLOADS) and all(v != v for v in NAN_PAYLOADS)
    assert all(f32(value) == value for value in EDGE_FLOAT)
    assert from_bits(0x00000001) == 2.0**-149 and 2147483904.0 == 2.0**31 + 256


def test_the_programs_meet_int_min_over_minus_one():
    """Over the quick size, some program divides INT_MIN by -1 at some input."""
    found = 0
    for n in range(3, protocol.size(*SIZES["programs"]), 4):
        r = random.Random(SEED_BASE + n)
        root, params = fuzz_program(r, n)
        for env in (nasty_env(r, params) for _ in range(SIZES["inputs"][0])):
            for u in root.toposort():
                if u.op is Ops.FLOORDIV and [evaluate(s, env) for s in u.src] == [INT_MIN, -1]:
                    found += 1
    assert found > 0


@pytest.mark.layer("fuzz")
@pytest.mark.needs_clang
def test_fuzz():
    protocol.report("reliability", "fuzz", layer_fuzz())


if __name__ == "__main__":
    if "--full" in sys.argv[1:]:
        os.environ["UOPC_FULL"] = "1"
    protocol.report("reliability", "fuzz", layer_fuzz())
