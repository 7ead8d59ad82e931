"""The same ideas in tinygrad (Step 14, Chapter 16): what it writes, and where it decides otherwise.

Seven blocks, each after a marker line `@@ block NAME` that the book build strips:
  version         the installed tinygrad version (every other block is that version's output)
  default-c       the C tinygrad writes for relu(x*y+1) (DEV=CPU DEBUG=4), and the result
  noopt-c         the same with NOOPT=1: a plain loop
  float-rules     tinygrad's simplification of five float expressions, beside uopc's
  signed-zero     -0.0 plus 0.0 through tensors, and through NumPy
  relu-nan        relu(x*y+1) at x = nan, in tinygrad and in uopc
  const-identity  which constants tinygrad keeps apart

Every tinygrad object is looked up by its dotted name (`find`), never by file or line, because
the PyPI layout may differ from the source the book read; a missing name stops the demo with a
message saying which. If tinygrad is not installed the demo says so in one line and exits 0.
Every block depends on the tinygrad version, so each title ends with `(tinygrad VERSION)`.
A printed claim that turns out false (a wrong result) exits non-zero, and so does any reading
chapter 16 makes of a block that the block no longer bears out (the shape of each kernel's C,
three of tinygrad's float answers, relu at nan): each is checked where it is printed.

Usage: python demos/tinygrad_demo.py
"""

import importlib
import importlib.metadata
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

from book.protocol import block

ROOT = Path(__file__).resolve().parents[1]

# tinygrad runs on its CPU device (clang), offline, and keeps no compiled kernels on disk, so
# that what DEBUG prints does not depend on an earlier run. Set before tinygrad is imported.
TINYGRAD_ENV = {"DEV": "CPU", "CACHELEVEL": "0"}

X, Y = [1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0]
EXPECTED = [11.0, 41.0, 91.0, 161.0]  # relu(x*y+1), worked out by hand

# The child prints the generated source (DEBUG=4) and then the result on a line of its own.
CHILD = f"""
import json
from tinygrad import Tensor
x, y = Tensor({X}), Tensor({Y})
print("RESULT " + json.dumps((x * y + 1).relu().tolist()))
"""


def tinygrad_version():
    """The installed distribution's version, or None when tinygrad is not installed."""
    try:
        return importlib.metadata.version("tinygrad")
    except importlib.metadata.PackageNotFoundError:
        return None


def find(dotted: str):
    """The tinygrad object with this dotted name: the longest importable module, then attributes.

    Exits with a message naming what is missing, so that a tinygrad release that moved or
    renamed something fails here, clearly, rather than somewhere inside a block.
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                found = getattr(found, attribute)
        except AttributeError:
            break
        return found
    raise SystemExit(
        f"tinygrad {tinygrad_version()} has no {dotted}; this program was written for the "
        "version pinned in requirements.txt"
    )


def titled_block(name: str, title: str, version: str) -> None:
    block(name)
    print(f"{title}  (tinygrad {version})")


def fail(message: str) -> None:
    raise SystemExit(f"FAILED: {message}")


# ---------------------------------------------------------------------------------------------
# Blocks 1 and 2: the C, from a child process with the debug level that prints it
# ---------------------------------------------------------------------------------------------


def run_child(extra_env: dict) -> tuple[list[str], list]:
    """(the elementwise kernel's C lines, the result) of CHILD run with DEBUG=4 and extra_env."""
    # the caller's own tinygrad settings (NOOPT, BEAM, ...) must not leak into the child
    env = {key: value for key, value in os.environ.items() if key not in ("NOOPT", "BEAM")}
    env.update(TINYGRAD_ENV, DEBUG="4", **extra_env)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300
    )
    if done.returncode != 0:
        fail(f"the tinygrad child process failed:\n{done.stderr[-2000:]}")
    lines = done.stdout.splitlines()
    results = [line for line in lines if line.startswith("RESULT ")]
    if len(results) != 1:
        fail("the child printed no result line")
    return kernel_source(lines), json.loads(results[0].removeprefix("RESULT "))


def kernel_source(lines: list[str]) -> list[str]:
    """The elementwise kernel (tinygrad names it E_...) with the typedefs just above it.

    DEBUG=4 also prints the source of tinygrad's own helper programs; only the kernel that
    computes relu is wanted, from its typedefs down to the first line that closes it.
    """
    starts = [i for i, line in enumerate(lines) if re.match(r"(\w+\s+)*void\s+E_\w*\(", line)]
    if len(starts) != 1:
        fail(f"expected one elementwise kernel (void E_...) in the DEBUG=4 output, saw {starts}")
    first = last = starts[0]
    while first > 0 and lines[first - 1].startswith("typedef "):
        first -= 1
    while last < len(lines) and lines[last] != "}":
        last += 1
    if last == len(lines):
        fail("the elementwise kernel never closes")
    return lines[first : last + 1]


# What step 14 and chapter 16 read in each kernel, as patterns over its C: both declare every
# pointer restrict and spell relu as the constant compared first, the value picked when it
# holds; the default kernel is straight-line code that reads each input with one float4 load,
# holds a multiply and an add in one statement per element and writes one float4 store; the
# NOOPT kernel is a loop over the index Lidx0.
RELU_FORM = re.compile(r"\(\(0\.0f<(alu\d+)\)\?\1:0\.0f\)")
POINTER = re.compile(r"float\* (restrict )?data\d")
READINGS = {
    "default-c": {
        "float4 loads": (re.compile(r"= \(\*\(\(float4\*\)"), 2),
        "float4 stores": (re.compile(r"^\s*\*\(\(float4\*\)"), 1),
        "loops": (re.compile(r"^\s*for \("), 0),
        "statements with a multiply and an add": (
            re.compile(r"= \(\(val0\[\d\]\*val1\[\d\]\)\+"),
            4,
        ),
    },
    "noopt-c": {
        "loops over Lidx0": (re.compile(r"^\s*for \(int Lidx0 = 0; Lidx0 < 4; "), 1),
        "float4 loads": (re.compile(r"float4"), 0),
    },
}


def check_kernel(name: str, source: list[str]) -> None:
    """Fail unless the kernel holds what step 14 and chapter 16 say of it (READINGS, RELU_FORM)."""
    pointers = [m.group(1) for line in source for m in POINTER.finditer(line)]
    if len(pointers) != 3 or None in pointers:
        fail(f"{name}: not three restrict pointers: {pointers}")
    if not any(RELU_FORM.search(line) for line in source):
        fail(f"{name}: no relu of the form ((0.0f<v)?v:0.0f)")
    for what, (pattern, wanted) in READINGS[name].items():
        found = sum(bool(pattern.search(line)) for line in source)
        if found != wanted:
            fail(f"{name}: {found} {what}, the book reads {wanted}")


def show_c(name: str, title: str, version: str, extra_env: dict) -> None:
    source, result = run_child(extra_env)
    titled_block(name, title, version)
    print("\n".join(source))
    print(f"result: {result}")
    if result != EXPECTED:
        fail(f"relu(x*y+1) gave {result}, not {EXPECTED}")
    check_kernel(name, source)


# ---------------------------------------------------------------------------------------------
# Blocks 3 to 6, in this process
# ---------------------------------------------------------------------------------------------


def float_rules(version: str) -> None:
    """tinygrad's simplifier on an unbounded float variable, beside uopc's strict and fast sets."""
    from uopc import F32, Ops, ParamArg, UOp
    from uopc.symbolic import simplify
    from uopc.textfmt import infix

    tg_uop = find("tinygrad.uop.ops.UOp")
    graph_rewrite = find("tinygrad.uop.ops.graph_rewrite")
    symbolic = find("tinygrad.uop.symbolic.symbolic")
    float32 = find("tinygrad.dtype.dtypes.float32")

    f = tg_uop.variable("f", -math.inf, math.inf, float32)
    p = UOp(Ops.PARAM, arg=ParamArg(0, F32))
    cases = [
        ("f+0.0", f + 0.0, p + 0.0),
        ("f*0.0", f * 0.0, p * 0.0),
        ("f-f", f - f, p - p),
        ("f*1.0", f * 1.0, p * 1.0),
        ("(f*3.0)*5.0", (f * 3.0) * 5.0, (p * 3.0) * 5.0),
    ]
    titled_block("float-rules", "simplifying float expressions in tinygrad, and in uopc", version)
    print(f"{'expression':<13}{'tinygrad':<12}{'uopc strict':<24}uopc fast-math")
    same_as, answers = {"strict": [], "fast-math": []}, {}
    for text, tiny, ours in cases:
        tiny_result = answers[text] = graph_rewrite(tiny, symbolic).render(simplify=False)
        strict, fast = (infix(simplify(ours, fast_math=m), {0: "f"}) for m in (False, True))
        print(f"{text:<13}{tiny_result:<12}{strict:<24}{fast}")
        for name, ours_text in (("strict", strict), ("fast-math", fast)):
            if ours_text.replace(" ", "") == tiny_result.replace(" ", ""):
                same_as[name].append(text)
    # chapter 16 reads this block: tinygrad's column is our fast-math one on every line, and our
    # strict one on f*1.0 alone
    if same_as["fast-math"] != [text for text, _, _ in cases]:
        fail(f"tinygrad matches our fast-math rules only on {same_as['fast-math']}")
    if same_as["strict"] != ["f*1.0"]:
        fail(f"tinygrad matches our strict rules on {same_as['strict']}, not on f*1.0 alone")
    # and it names three of tinygrad's answers: the zero dropped, f*0.0 made 0.0, one multiply
    named = {"f+0.0": "f", "f*0.0": "0.0", "(f*3.0)*5.0": "(f*15.0)"}
    if any(answers[text] != wanted for text, wanted in named.items()):
        fail(f"tinygrad's answers {answers}, chapter 16 reads {named}")


def signed_zero(version: str) -> None:
    import numpy as np

    tensor = find("tinygrad.Tensor")
    start = [-0.0, 1.0]
    sums = [
        ("tensor [-0.0, 1.0] + tensor of zeros", (tensor(start) + tensor.zeros(2)).tolist()),
        ("tensor [-0.0, 1.0] + scalar 0.0", (tensor(start) + 0.0).tolist()),
        ("numpy float32 [-0.0, 1.0] + 0.0", (np.array(start, dtype=np.float32) + 0.0).tolist()),
    ]
    titled_block("signed-zero", "-0.0 plus 0.0 through tensors", version)
    for text, values in sums:
        sign = "-" if math.copysign(1.0, values[0]) < 0 else "+"
        print(f"{text:<38}{str(values):<14}sign of the first: {sign}")
    signs = [math.copysign(1.0, values[0]) for _, values in sums]
    if sums[2][1][0] != 0.0 or signs[2] < 0:
        fail("NumPy's -0.0 + 0.0 should be +0.0 (IEEE 754, round to nearest)")
    # chapter 16's reading: a tensor of zeros gives +0.0, the scalar constant leaves -0.0
    if signs[0] < 0 or signs[1] > 0:
        fail(f"tinygrad's -0.0 + 0.0: tensor {sums[0][1][0]!r}, scalar {sums[1][1][0]!r}")


def relu_nan(version: str) -> None:
    from uopc import F32, Ops, ParamArg, UOp
    from uopc.interp import evaluate

    tensor = find("tinygrad.Tensor")
    x = [math.nan, 1.0, -2.0, 0.0]
    tiny = (tensor(x) * tensor([1.0] * len(x)) + 1).relu().tolist()
    px, py = (UOp(Ops.PARAM, arg=ParamArg(slot, F32)) for slot in (0, 1))
    relu = (px * py + 1.0).max(0.0)  # uopc's relu: MAX(v, 0.0), which gives 0.0 at v = nan
    ours = [evaluate(relu, {0: value, 1: 1.0}) for value in x]
    titled_block("relu-nan", "relu(x*y+1) in tinygrad when x is nan (y = 1)", version)
    print(f"x:        {x}")
    print(f"tinygrad: {tiny}")
    print(f"uopc:     {ours}")
    same_at_nan = math.isnan(tiny[0]) == math.isnan(ours[0])
    print(f"the two agree at nan: {same_at_nan}")
    # chapter 16 reads: relu agrees at nan, both give the constant zero (+0.0)
    if any(math.isnan(v) or math.copysign(1.0, v) < 0 or v != 0.0 for v in (tiny[0], ours[0])):
        fail(f"relu at nan: tinygrad {tiny[0]!r}, uopc {ours[0]!r}; chapter 16 reads +0.0 for both")
    if tiny[1:] != ours[1:] or ours[1:] != [2.0, 0.0, 1.0]:
        fail(f"relu(x*1+1) at x = 1, -2, 0 should be [2.0, 0.0, 1.0]: {tiny[1:]}, {ours[1:]}")


def const_identity(version: str) -> None:
    tg_uop = find("tinygrad.uop.ops.UOp")
    float32 = find("tinygrad.dtype.dtypes.float32")
    const = tg_uop.const
    zero, minus_zero = const(0.0, float32), const(-0.0, float32)
    questions = [
        ("const 0.0 is const -0.0", zero is minus_zero),
        ("const nan is const nan", const(math.nan, float32) is const(float("nan"), float32)),
        ("const 1 is const True", const(1) is const(True)),
    ]
    titled_block("const-identity", "constants as nodes in tinygrad", version)
    for text, answer in questions:
        print(f"{text}: {answer}")
    kind = type(zero.arg).__name__
    print(f"(a float constant's arg is a {kind}: {zero.arg!r} and {minus_zero.arg!r})")
    # chapters 5 and 16 read: the zeros apart, the nans one node, 1 and True apart, ConstFloat
    if [answer for _, answer in questions] != [False, True, False] or kind != "ConstFloat":
        fail(f"tinygrad's constants: {questions}, {kind}")


def main() -> None:
    version = tinygrad_version()
    if version is None:
        print("tinygrad is not installed (pip install -r requirements.txt): nothing to show")
        return
    os.environ.update(TINYGRAD_ENV)  # before the first tinygrad import, in this process too
    block("version")
    print(f"tinygrad {version}, installed from PyPI; every block below is this version's output")
    show_c("default-c", "relu(x*y+1) in tinygrad, DEV=CPU DEBUG=4", version, {})
    show_c("noopt-c", "the same with NOOPT=1", version, {"NOOPT": "1"})
    float_rules(version)
    signed_zero(version)
    relu_nan(version)
    const_identity(version)


if __name__ == "__main__":
    main()
