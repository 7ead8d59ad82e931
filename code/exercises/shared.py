"""Helpers that the answers of more than one chapter use.

Graphs (the book's relu, tree sizes, a matcher with fresh counters, a tracing matcher), samples
of special and seeded random inputs, C functions compiled through the runtime's cache, z3 for
float32 and 32-bit ints, child processes, the planted-bug machinery of the test suite (5.5,
15.4, 15.5), and tinygrad's facts (step 14's Try it and chapter 16). A helper used by one
chapter only stays in that chapter's file.
"""

import ctypes
import importlib.metadata
import itertools
import json
import math
import os
import random
import re
import struct
import subprocess
import sys

import z3

from uopc import BOOL, F32, I32, CallArg, Ops, UOp
from uopc.fold import fold
from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher
from uopc.runtime import compile_c
from uopc.semantics import same
from uopc.symbolic import FAST, SYM
from verify.generators import SPECIAL_FLOAT, SPECIAL_INT, param, rand_value

from answers import REPO, STATE, ExerciseFailure, Skip, check


def call_of(body, args, name) -> UOp:
    return UOp(Ops.CALL, (body, *args), CallArg(name))


def relu_parts():
    """The book's relu: body max(x*y + 1.0, 0.0) over f32 x (slot 0) and y (slot 1)."""
    x, y = param(0, F32), param(1, F32)
    body = (x * y + 1.0).max(0.0)
    zero = UOp.const(0.0)
    return x, y, body, call_of(body, [zero, zero], "relu")


def tree_size(root) -> int:
    """Nodes of the graph counted as a tree (a shared node once per use), by the sizes of srcs."""
    size = {}
    for node in root.toposort():
        size[node] = 1 + sum(size[s] for s in node.src)
    return size[root]


def function_lines(source: str, name: str) -> list[str]:
    """The lines of the C function `name` in a rendered source, signature to closing brace."""
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"\w+ \*?{name}\(", line))
    end = lines.index("}", start)
    return lines[start : end + 1]


def fresh_matcher(fast_math=False) -> PatternMatcher:
    """The default (or fast-math) rule list with its own `fired` counter, starting at zero."""
    matcher = fold + PatternMatcher(SYM)
    return matcher + PatternMatcher(FAST) if fast_math else matcher


class Tracer(PatternMatcher):
    """A matcher that records every rewrite as (before, after, rule name)."""

    def __init__(self, rules):
        super().__init__(rules)
        self.steps = []

    def rewrite(self, u, ctx=None):
        before = self.fired.copy()
        result = super().rewrite(u, ctx)
        if result is not None:
            (name,) = [n for n in self.fired if self.fired[n] != before[n]]
            self.steps.append((u, result, name))
        return result


def sample_envs(params, seed, count):
    """Every combination of special values for the params, then `count` seeded random envs."""
    specials = {I32: SPECIAL_INT, F32: SPECIAL_FLOAT, BOOL: (False, True)}
    envs = [
        dict(zip([p.arg.slot for p in params], values, strict=True))
        for values in itertools.product(*[specials[p.dtype] for p in params])
    ]
    r = random.Random(seed)
    envs += [{p.arg.slot: rand_value(r, p.dtype) for p in params} for _ in range(count)]
    return envs


def sample_values(dtype, seed, count) -> list:
    r = random.Random(seed)
    return [rand_value(r, dtype) for _ in range(count)]


def disagreements(lhs, rhs, params, seed, count=300) -> tuple[int, list]:
    """Compare two graphs with the contract on special and seeded random inputs."""
    envs = sample_envs(params, seed, count)
    bad = [env for env in envs if not same(evaluate(lhs, env), evaluate(rhs, env))]
    return len(envs), bad


def c_function(source: str, name: str, restype, argtypes, flags=None):
    """A function of a small hand-written C source, compiled through the runtime's cache."""
    function = getattr(ctypes.CDLL(compile_c(source, flags=flags)), name)
    function.restype, function.argtypes = restype, argtypes
    return function


def bits_to_f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def sign(value: float) -> str:
    return "-" if math.copysign(1.0, value) < 0 else "+"


# z3 -------------------------------------------------------------------------------------------

FP32 = z3.Float32()
RNE = z3.RNE()


def z3_find(*constraints, timeout_s=120):
    """A model satisfying the constraints (a counterexample), or None when there is none."""
    solver = z3.Solver()
    solver.set("timeout", timeout_s * 1000)
    solver.add(*constraints)
    verdict = solver.check()
    if verdict == z3.unknown:
        raise ExerciseFailure(f"{STATE['label']}: z3 gave up ({solver.reason_unknown()})")
    return solver.model() if verdict == z3.sat else None


def z3_same(a, b):
    """The project's `same` for two float32 terms: both nan, or equal bit patterns."""
    both_nan = z3.And(z3.fpIsNaN(a), z3.fpIsNaN(b))
    neither = z3.And(z3.Not(z3.fpIsNaN(a)), z3.Not(z3.fpIsNaN(b)))
    return z3.Or(both_nan, z3.And(neither, z3.fpToIEEEBV(a) == z3.fpToIEEEBV(b)))


def z3_f32(value: float):
    return z3.FPVal(value, FP32)


def model_f32(model, var) -> float:
    """The float32 a model gives a z3 float variable, as a Python float."""
    if z3.is_true(model.eval(z3.fpIsNaN(var), model_completion=True)):
        return math.nan
    bits = model.eval(z3.fpToIEEEBV(var), model_completion=True).as_long()
    return bits_to_f32(bits)


def model_i32(model, var) -> int:
    return model.eval(var, model_completion=True).as_signed_long()


def z3_floordiv(a, b):
    """The contract's floor division on 32-bit vectors: x//0 is 0, INT_MIN//-1 wraps."""
    q, r = a / b, z3.SRem(a, b)  # z3's / on bit-vectors is signed and truncates
    floored = z3.If(z3.And(r != 0, (r < 0) != (b < 0)), q - 1, q)
    return z3.If(b == 0, z3.BitVecVal(0, 32), z3.If(b == -1, -a, floored))


# Child processes ----------------------------------------------------------------------------


def run_python(code: str, env_extra=None, cwd=None, timeout=600) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or REPO,
        timeout=timeout,
    )


# Planted bugs: the test suite's own machinery (verify/mutants.py, verify/mutant_matrix.py) applies
# one textual edit to a private copy of uopc and runs the layers on it in a child process.

LAYERS = (  # (letter, name) in the order of the planted-bug matrix (verification.md §9.2)
    ("A", "unit"), ("B", "hash"), ("C", "sound"), ("D", "special"), ("E", "exhaust"),
    ("F", "overflow"), ("G", "ranges"), ("H", "fold"), ("I", "text"), ("J", "render"),
    ("K", "zerodiv"), ("L", "memory"),
)  # fmt: skip
BOOK_LETTERS = "".join(letter for letter, _ in LAYERS)


def planted(name: str, file: str, original: str, replacement: str):
    from verify import mutants  # imports nothing of uopc

    return mutants.Mutant(name, file, original, replacement, "exercise")


def layer_verdicts(mutant, letters=BOOK_LETTERS) -> dict:
    """{letter: (caught, first error line)}: the layers run on a copy with `mutant` applied
    (None: the unmutated copy), at quick sizes, by tests/mutant_matrix.py's harness."""
    from verify import mutant_matrix

    result = mutant_matrix.run_layers(mutant, letters, False)
    check(result["error"] is None, f"the planted-bug harness: {result['error']}")
    check(sorted(result["cells"]) == sorted(letters), f"layers without a verdict: {result}")
    return {letter: (caught, why) for letter, (caught, _, why) in result["cells"].items()}


_CONTROL: dict = {}


def control_run() -> dict:
    """Every layer on an unmutated copy, once: a layer catches a bug only if it passes here."""
    if not _CONTROL:
        _CONTROL.update(layer_verdicts(None))
    return _CONTROL


def failures_of(why: str) -> list[str]:
    """The failure lines of the unit layer's error (the harness joins lines with ' | ')."""
    return why.split(" | ")[1:]


# Chapters 8 and 11 -------------------------------------------------------------------


def correct_on_all_points(original, result, params) -> bool:
    """original and result agree at every point of the params' declared ranges."""
    ranges = [range(p.arg.vmin, p.arg.vmax + 1) for p in params]
    for values in itertools.product(*ranges):
        env = {p.arg.slot: v for p, v in zip(params, values, strict=True)}
        if not same(evaluate(original, env), evaluate(result, env)):
            return False
    return True


# Chapters 12 and 13 ------------------------------------------------------------------

LEVELS = ("-O0", "-O1", "-O2", "-O3")


# tinygrad (step 14's Try it and chapter 16) ---------------------------------------------


def tinygrad_version() -> str:
    try:
        return importlib.metadata.version("tinygrad")
    except importlib.metadata.PackageNotFoundError:
        raise Skip("tinygrad is not installed") from None


TINYGRAD_FACTS = """
import json, math
from tinygrad import Tensor
from tinygrad.dtype import dtypes
from tinygrad.uop.ops import UOp
f = UOp.variable("f", -math.inf, math.inf, dtypes.float)
x = Tensor([math.nan, 1.0, -2.0, 0.0])
facts = {
    "f+0.0": str((f + 0.0).simplify().render()),
    "scalar": (Tensor([-0.0, 1.0]) + 0.0).tolist()[0],
    "zeros": (Tensor([-0.0, 1.0]) + Tensor.zeros(2)).tolist()[0],
    "relu": (x * Tensor([1.0] * 4) + 1).relu().tolist(),
}
print("FACTS", json.dumps({k: (repr(v) if isinstance(v, float) else v) for k, v in facts.items()}))
"""

_TINYGRAD: dict = {}


def tinygrad_facts() -> dict:
    """What tinygrad computes for the comparisons of S14 and 16.2-16.4 (one child process)."""
    if not _TINYGRAD:
        version = tinygrad_version()
        done = run_python(TINYGRAD_FACTS, {"DEV": "CPU"})
        found = re.search(r"^FACTS (.*)$", done.stdout, re.M)
        check(found is not None, f"tinygrad's child failed: {done.stderr[-400:]}")
        facts = json.loads(found.group(1))
        relu = facts["relu"]
        _TINYGRAD.update(
            facts, version=version, relu_nan=relu[0] if isinstance(relu, list) else relu
        )
    return _TINYGRAD
