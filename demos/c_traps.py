"""C's traps on real C: compiled by clang at -O0, at -O2 and with the runtime's flags, and run.

    python demos/c_traps.py

Chapter 12. For each trap a tiny C program, written here as text, reads its inputs from the
command line (so that clang cannot fold them away) and prints what it computes; a program that
a signal ends (a division that traps) is shown by the signal's name. Beside it stand the C that
`render` writes for the same op, compiled with the runtime's own flags by `Program`, and the
contract's value (`evaluate`). "The runtime's flags" are `runtime.CFLAGS` less `-shared`, so that
clang makes a program rather than a library.

Blocks, each after a marker line `@@ block NAME` that the book build strips: overflow, division,
shortcut, fma, assembly, cast, max, max-proof, width, literals, shifts, vectorise, tinygrad. A block
whose results depend on the compiler or the processor starts with a line ending in
`(this machine)`. Undefined behaviour may come out differently with another clang, so the demo
prints what happened and claims only what chapter 12 relies on; a false claim makes it exit 1.
"""

from _common import MACHINE, ROOT, block, claim, finish, state

import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import z3

from uopc import F32, I32, INT_MAX, INT_MIN, Ops, ParamArg, UOp, runtime
from uopc.builder import signature_call
from uopc.interp import evaluate
from uopc.ops import ALU
from uopc.render import PRELUDE, literal, render
from uopc.runtime import Program
from uopc.semantics import f32, floordiv, floormod, same

RUNTIME_FLAGS = [flag for flag in runtime.CFLAGS if flag != "-shared"]
SETTINGS = (
    ("clang -O0", ["-O0"]),
    ("clang -O2", ["-O2"]),
    ("the runtime's flags", RUNTIME_FLAGS),
)
HEADERS = "#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n#include <math.h>\n"


class Clang:
    """Builds C programs into one temporary folder and runs them."""

    def __init__(self, folder: str):
        self.folder, self.count = Path(folder), 0

    def build(self, source: str, flags: list[str]) -> Path:
        self.count += 1
        path = self.folder / f"p{self.count}.c"
        path.write_text(source, encoding="utf-8")
        exe = path.with_suffix("")
        command = [runtime.CC, *flags, str(path), "-o", str(exe), "-lm"]
        subprocess.run(command, check=True, capture_output=True, text=True)
        return exe

    def run(self, exe: Path, *args: str) -> str:
        """What the program printed, or the name of the signal that ended it."""
        done = subprocess.run([str(exe), *args], capture_output=True, text=True)
        if done.returncode < 0:
            return signal.Signals(-done.returncode).name
        if done.returncode != 0:
            raise SystemExit(f"c_traps: {exe.name} exited with {done.returncode}")
        return done.stdout.strip()

    def assembly(self, source: str, flags: list[str], function: str) -> list[str]:
        """The instructions clang writes for one function (-S), without directives, labels
        and comments."""
        self.count += 1
        path = self.folder / f"p{self.count}.c"
        path.write_text(source, encoding="utf-8")
        command = [runtime.CC, *flags, "-S", str(path), "-o", "-"]
        text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        lines = text.split(f"\n{function}:", 1)[1].split("\n")
        body = []
        for line in lines:
            code = line.split("#", 1)[0].strip()
            if code.startswith(".Lfunc_end"):
                break
            if code and not code.startswith(".") and not code.endswith(":"):
                body.append(code.replace("\t", " "))
        return body

    def errors(self, source: str, flags: list[str]) -> list[str]:
        """clang's error lines for source (with the file name cut off), or [] if it compiles."""
        path = self.folder / "check.c"
        path.write_text(source, encoding="utf-8")
        done = subprocess.run(
            [runtime.CC, *flags, "-fsyntax-only", str(path)], capture_output=True, text=True
        )
        return [
            line.split(" error: ", 1)[1] for line in done.stderr.splitlines() if " error: " in line
        ]


def call(body: UOp, *dtypes, name: str) -> UOp:
    """A CALL of body; its arguments only give the C signature, the values come at run time."""
    return signature_call(body, dtypes, name)


def param(slot, dtype, vmin=None, vmax=None) -> UOp:
    return UOp(Ops.PARAM, arg=ParamArg(slot, dtype, vmin, vmax))


def function_text(source: str) -> str:
    """The rendered function alone, without the prelude."""
    return source[len(PRELUDE) :].strip("\n")


def f32_text(value: float) -> str:
    """C's %.9g, except that the two zeros read as 0.0 and -0.0."""
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    return "nan" if math.isnan(value) else f"{value:.9g}"


def row(label: str, cells) -> str:
    return f"  {label:<30}" + "".join(f"{str(cell):<15}" for cell in cells).rstrip()


# ---------------------------------------------------------------------------------------------
# signed overflow
# ---------------------------------------------------------------------------------------------

OVERFLOW_C = "int32_t grows(int32_t x) { return x + 1 > x; }"


def show_overflow(clang: Clang) -> None:
    block("overflow")
    print(f"signed overflow: x + 1 > x at x = INT_MAX {MACHINE}")
    print(f"  C: {OVERFLOW_C}")
    main = 'int main(int c, char **v) { printf("%d\\n", grows(atoi(v[1]))); return 0; }\n'
    source = HEADERS + OVERFLOW_C + "\n" + main
    got = {}
    # -ftrapv is the other flag that defines overflow: it stops the program instead of wrapping
    for label, flags in (*SETTINGS, ("clang -O2 -ftrapv", ["-O2", "-ftrapv"])):
        got[label] = clang.run(clang.build(source, flags), str(INT_MAX))
        print(row(label, [got[label]]))
    x = param(0, I32)
    body = x.lt(x + 1)
    compiled, contract = (
        Program(call(body, I32, name="grows"))(INT_MAX),
        evaluate(body, {0: INT_MAX}),
    )
    print(row("uopc's C, for x < x + 1", [int(compiled)]))
    print(row("the contract", [int(contract)]))
    claim(got["clang -O0"] != got["clang -O2"], "overflow: -O2 gives what -O0 does")
    claim(got["the runtime's flags"] == str(int(contract)), "overflow: -fwrapv misses the contract")
    claim(same(compiled, contract), "overflow: uopc's C differs from the contract")
    trapped = got["clang -O2 -ftrapv"] in signal.Signals.__members__
    claim(trapped, "overflow: -ftrapv did not stop the program with a signal")


# ---------------------------------------------------------------------------------------------
# division and remainder by zero, INT_MIN / -1
# ---------------------------------------------------------------------------------------------

DIVISION_C = (
    "int main(int c, char **v) {\n"
    "  int32_t a = atoi(v[1]), b = atoi(v[2]);\n"
    "  printf(\"%d\\n\", v[3][0] == '/' ? a / b : a % b);\n"
    "  return 0;\n"
    "}\n"
)
DIVISIONS = ((7, 0, "/"), (7, 0, "%"), (INT_MIN, -1, "/"), (INT_MIN, -1, "%"))


def division_label(a: int, b: int, op: str) -> str:
    return f"{'INT_MIN' if a == INT_MIN else a} {op} {b}"


def show_division(clang: Clang) -> None:
    block("division")
    print(f"C's / and % at a zero divisor and at INT_MIN / -1 {MACHINE}")
    print(row("", [division_label(*case) for case in DIVISIONS]))
    crashed = []
    for label, flags in SETTINGS:
        exe = clang.build(HEADERS + DIVISION_C, flags)
        results = [clang.run(exe, str(a), str(b), op) for a, b, op in DIVISIONS]
        crashed += [result.startswith("SIG") for result in results]
        print(row(label, results))
    x, y = param(0, I32), param(1, I32)
    programs = {
        "/": Program(call(x // y, I32, I32, name="div")),
        "%": Program(call(x % y, I32, I32, name="mod")),
    }
    ours = [programs[op](a, b) for a, b, op in DIVISIONS]
    contract = [(floordiv if op == "/" else floormod)(a, b) for a, b, op in DIVISIONS]
    print(row("uopc's C (the helpers)", ours))
    print(row("the contract", contract))
    claim(all(crashed), "division: some plain C division did not trap")
    claim(ours == contract, "division: uopc's helpers differ from the contract")


def show_shortcut(clang: Clang) -> None:
    block("shortcut")
    cases = (
        ("x // y, no ranges", param(0, I32), param(1, I32)),
        ("x in [0,100], y in [1,10]", param(0, I32, 0, 100), param(1, I32, 1, 10)),
    )
    for label, x, y in cases:
        (statement,) = function_text(render(call(x // y, I32, I32, name="div"))).splitlines()[1:2]
        print(f"{label:<30}{statement.strip()}")
    exe = clang.build(HEADERS + DIVISION_C, ["-O2"])
    trunc = [int(clang.run(exe, "-7", "2", op)) for op in "/%"]
    print(f"C at -7 and 2:  -7 / 2 = {trunc[0]}, -7 % 2 = {trunc[1]} (rounded toward zero)")
    print(f"the contract:   -7 // 2 = {floordiv(-7, 2)}, -7 % 2 = {floormod(-7, 2)} (rounded down)")
    claim(trunc != [floordiv(-7, 2), floormod(-7, 2)], "shortcut: C's / agrees at -7 / 2")


# ---------------------------------------------------------------------------------------------
# fused multiply-add
# ---------------------------------------------------------------------------------------------

FMA_A, FMA_C = 1 + 2**-12, -(1 + 2**-11)
MULADD_C = "float muladd(float a, float b, float c) { return a * b + c; }"
FMA_MAIN = (
    "int main(int c, char **v) {\n"
    "  float a = strtof(v[1], 0), b = strtof(v[2], 0), d = strtof(v[3], 0);\n"
    '  printf("%a\\n", muladd(a, b, d));\n'
    "  return 0;\n"
    "}\n"
)


def show_fma(clang: Clang) -> None:
    block("fma")
    print(f"a * b + c with a = b = 1 + 2**-12 and c = -(1 + 2**-11) {MACHINE}")
    print(f"  C: {MULADD_C}")
    source = HEADERS + MULADD_C + "\n" + FMA_MAIN
    native = [
        ("clang -O0 -march=native", ["-O0", "-march=native"]),
        ("clang -O2 -march=native", ["-O2", "-march=native"]),
        ("runtime's flags -march=native", [*RUNTIME_FLAGS, "-march=native"]),
    ]
    args = (FMA_A.hex(), FMA_A.hex(), FMA_C.hex())
    got = {}
    for label, flags in (*SETTINGS, *native):
        got[label] = float.fromhex(clang.run(clang.build(source, flags), *args))
        print(row(label, [f32_text(got[label])]))
    two_roundings = f32(f32(FMA_A * FMA_A) + FMA_C)
    one_rounding = f32(FMA_A * FMA_A + FMA_C)  # exact in double: a*a needs 25 bits
    print(row("Python, product rounded first", [f32_text(two_roundings)]))
    print(row("Python, rounded once", [f32_text(one_rounding)]))
    a, b, c = param(0, F32), param(1, F32), param(2, F32)
    body = a * b + c
    ours = Program(call(body, F32, F32, F32, name="muladd"))(FMA_A, FMA_A, FMA_C)
    contract = evaluate(body, {0: FMA_A, 1: FMA_A, 2: FMA_C})
    print(row("uopc's C, the runtime's flags", [f32_text(ours)]))
    print(row("the contract", [f32_text(contract)]))
    rendered = function_text(render(call(body, F32, F32, F32, name="muladd")))
    split = {}
    for label, flags in (
        ("uopc's C, -O2 -march=native", ["-O2", "-march=native"]),
        ("and -ffp-contract=fast", ["-O2", "-march=native", "-ffp-contract=fast"]),
    ):
        exe = clang.build(HEADERS + rendered + "\n" + FMA_MAIN, flags)
        split[label] = float.fromhex(clang.run(exe, *args))
        print(row(label, [f32_text(split[label])]))
    claim(split["uopc's C, -O2 -march=native"] == two_roundings, "fma: two statements fused")
    claim(two_roundings != one_rounding, "fma: the two roundings agree")
    claim(all(got[label] == two_roundings for label, _ in SETTINGS), "fma: fused without -march")
    claim(got["clang -O2 -march=native"] == one_rounding, "fma: -march=native did not fuse")
    claim(got["runtime's flags -march=native"] == two_roundings, "fma: fused with contract off")
    claim(same(ours, contract) and contract == two_roundings, "fma: uopc's C and the contract")


def show_assembly(clang: Clang) -> None:
    """What clang makes of the renderer's plain statements: the relu of chapter 1 with the
    runtime's flags, and a * b + c where the processor's fused instruction is allowed."""
    block("assembly")
    print(f"the instructions clang writes, x86-64 {MACHINE}")
    x, y = param(0, F32), param(1, F32)
    relu = function_text(render(call((x * y + 1.0).max(0.0), F32, F32, name="relu")))
    ours = clang.assembly(relu, RUNTIME_FLAGS, "relu")
    print("  uopc's relu, the runtime's flags:")
    print("\n".join(f"    {line}" for line in ours))
    fused = clang.assembly(MULADD_C, ["-O2", "-march=native"], "muladd")
    print(f"  {MULADD_C.split(' {')[0]}, clang -O2 -march=native:")
    print("\n".join(f"    {line}" for line in fused))
    names = [line.split()[0] for line in ours]
    claim("subss" not in names, f"relu: clang kept the subtraction of 0.0: {names}")
    claim(names.count("maxss") == 1, f"relu: the max is not one maxss: {names}")
    fused_names = [line.split()[0] for line in fused]
    claim(sum(name.startswith("vfmadd") for name in fused_names) == 1,
          f"fma: muladd at -O2 -march=native is not one vfmadd: {fused_names}")  # fmt: skip


# ---------------------------------------------------------------------------------------------
# float to int
# ---------------------------------------------------------------------------------------------

CAST_C = "int32_t to_int(float x) { return (int32_t)x; }"
CAST_MAIN = (
    "int main(int c, char **v) {\n"
    '  for (int k = 1; k < c; k++) printf("%d\\n", to_int(strtof(v[k], 0)));\n'
    "  return 0;\n"
    "}\n"
)
CAST_INPUTS = (1e10, -1e10, math.nan, -2.5)
VISIBLE_C = 'int main(void) { float big = 1e10f; printf("%d\\n", (int32_t)big); return 0; }\n'


def show_cast(clang: Clang) -> None:
    block("cast")
    print(f"float to int: C's cast against the contract's {MACHINE}")
    print(f"  C: {CAST_C}")
    print(row("x", [f32_text(v) for v in CAST_INPUTS]))
    source = HEADERS + CAST_C + "\n" + CAST_MAIN
    got = {}
    for label, flags in SETTINGS:
        exe = clang.build(source, flags)
        got[label] = [int(v) for v in clang.run(exe, *map(f32_text, CAST_INPUTS)).split()]
        print(row(label, got[label]))
    x = param(0, F32)
    program = Program(call(x.cast(I32), F32, name="to_int"))
    ours = [program(v) for v in CAST_INPUTS]
    contract = [evaluate(x.cast(I32), {0: v}) for v in CAST_INPUTS]
    print(row("uopc's C (f32_to_i32)", ours))
    print(row("the contract", contract))
    visible = {}
    for label, flags in SETTINGS:
        exe = clang.build(HEADERS + VISIBLE_C, flags)
        visible[label] = [clang.run(exe), clang.run(exe)]
    print("  (int32_t)1e10f with the constant in the source, each program run twice:")
    for label, _ in SETTINGS:
        print(row(label, visible[label]))
    claim(ours == contract, "cast: uopc's C differs from the contract")
    claim(got["clang -O0"][0] != contract[0], "cast: C's plain cast saturates 1e10")
    claim(visible["clang -O0"][0] != visible["clang -O2"][0], "cast: the folded cast matches -O0")


# ---------------------------------------------------------------------------------------------
# float max: NaN and the sign of zero
# ---------------------------------------------------------------------------------------------

MAX_INPUTS = (-0.0, math.nan, -1.0, 2.5)
FMAXF_C = "float fmax_zero(float x) { return fmaxf(0.0f, x); }"
DIFFERENCE = re.compile(r"\((\S+) - (\S+) > 0\.0f\)")  # the renderer's float MAX test


def float_main(function: str) -> str:
    return (
        "int main(int c, char **v) {\n"
        f'  for (int k = 1; k < c; k++) printf("%a\\n", {function}(strtof(v[k], 0)));\n'
        "  return 0;\n"
        "}\n"
    )


def run_floats(clang: Clang, source: str, flags: list[str], inputs) -> list[float]:
    printed = clang.run(clang.build(source, flags), *map(f32_text, inputs))
    return [float.fromhex(line) for line in printed.split()]


def nested_sources() -> tuple[UOp, str, str]:
    """max(max(0.0, x), 0.0): its graph, the C the renderer writes, and the same C with the
    comparison the renderer used to write, `(a > b)`, in place of `(a - b > 0.0f)`."""
    zero = UOp.const(0.0)
    body = zero.max(param(0, F32)).max(0.0)
    now = function_text(render(call(body, F32, name="nested")))
    before = DIFFERENCE.sub(r"(\1 > \2)", now)
    return body, now, before


def show_max(clang: Clang) -> None:
    block("max")
    print(f"float max: fmaxf, and max(max(0.0, x), 0.0) written two ways {MACHINE}")
    print(f"  C: {FMAXF_C}")
    source = HEADERS + FMAXF_C + "\n" + float_main("fmax_zero")
    fmaxf = {label: run_floats(clang, source, flags, [math.nan]) for label, flags in SETTINGS}
    contract_nan = evaluate(UOp.const(0.0).max(param(0, F32)), {0: math.nan})
    print(row("", ["-O0", "-O2", "runtime's flags"]))
    print(row("fmaxf(0.0f, nan)", [f32_text(fmaxf[label][0]) for label, _ in SETTINGS]))
    print(row("the contract's max(0.0, nan)", [f32_text(contract_nan)]))
    body, now, before = nested_sources()
    print("  before, (a > b) ? a : b:")
    print("\n".join("    " + line for line in before.splitlines()[1:3]))
    print("  now, (a - b > 0.0f) ? a : b:")
    print("\n".join("    " + line for line in now.splitlines()[1:3]))
    print(row("x", [f32_text(v) for v in MAX_INPUTS]))
    contract = [evaluate(body, {0: v}) for v in MAX_INPUTS]
    results = {}
    for form, function in (("before", before), ("now", now)):
        source = PRELUDE + "#include <stdio.h>\n#include <stdlib.h>\n" + function + "\n"
        for label, flags in SETTINGS:
            values = run_floats(clang, source + float_main("nested"), flags, MAX_INPUTS)
            results[form, label] = values
            print(row(f"{form}, {label}", [f32_text(v) for v in values]))
    print(row("the contract", [f32_text(v) for v in contract]))

    def agrees(values):
        return all(map(same, values, contract))

    misses = [not same(fmaxf[label][0], contract_nan) for label, _ in SETTINGS]
    claim(all(misses), "max: fmaxf agrees with the contract at nan")
    claim(agrees(results["before", "clang -O0"]), "max: the old form is wrong at -O0")
    claim(not agrees(results["before", "clang -O2"]), "max: clang -O2 no longer folds")
    claim(not agrees(results["before", "the runtime's flags"]), "max: the flags stop the fold")
    claim(all(agrees(results["now", label]) for label, _ in SETTINGS), "max: the new form")


def show_max_proof() -> None:
    block("max-proof")
    sort, rounding = z3.Float32(), z3.RNE()
    a, b, zero = z3.FP("a", sort), z3.FP("b", sort), z3.FPVal(0.0, sort)
    difference = z3.fpSub(rounding, a, b)
    questions = (
        ("a - b > 0.0f and a > b", z3.fpGT(difference, zero), z3.fpGT(a, b)),
        ("a - b < 0.0f and a < b", z3.fpLT(difference, zero), z3.fpLT(a, b)),
    )
    print("z3, over every pair of float32 values (nan, infinities, subnormals included):")
    for label, left, right in questions:
        solver = z3.Solver()
        solver.add(left != right)
        verdict = solver.check()
        text = "the same truth value for every pair" if verdict == z3.unsat else f"{verdict}"
        print(f"  {label}: {text}")
        claim(verdict == z3.unsat, f"max-proof: {label} not proved")


# ---------------------------------------------------------------------------------------------
# the width of float arithmetic, literals, shifts
# ---------------------------------------------------------------------------------------------

EVAL_METHOD_C = (
    "#include <float.h>\n#include <stdio.h>\n"
    'int main(void) { printf("%d\\n", FLT_EVAL_METHOD); return 0; }\n'
)
X87 = ["--target=i386-linux-gnu", "-mfpmath=387", "-std=c11"]  # 32-bit x86, floats on the x87


def show_width(clang: Clang) -> None:
    block("width")
    print(f"FLT_EVAL_METHOD: 0 means each float op rounds to float {MACHINE}")
    methods = {}
    for label, flags in SETTINGS:
        methods[label] = clang.run(clang.build(EVAL_METHOD_C, flags))
        print(row(label, [methods[label]]))
    (assertion,) = [line for line in PRELUDE.splitlines() if line.startswith("_Static_assert")]
    errors = clang.errors("#include <float.h>\n" + assertion + "\n", X87)
    print(f"  the prelude's assert, compiled for {' '.join(X87[:2])}:")
    print("\n".join(f"    error: {line}" for line in errors) or "    compiles")
    claim(set(methods.values()) == {"0"}, "width: FLT_EVAL_METHOD is not 0 here")
    claim(any("static" in line for line in errors), "width: the x87 build passes the assert")


SIZES_C = (
    "int main(void) {\n"
    '  printf("%zu %zu\\n", sizeof(-2147483648), sizeof((-2147483647 - 1)));\n'
    "  return 0;\n"
    "}\n"
)
TIMES_MAIN = (
    "int main(int c, char **v) {\n"
    "  float x = strtof(v[1], 0);\n"
    '  printf("%a %a\\n", with_f(x), without_f(x));\n'
    "  return 0;\n"
    "}\n"
)


def tenth_trap_x() -> int:
    """The first positive integer x at which x * 0.100000001 (the literal without its f, a
    double) rounds to another float than x * 0.100000001f (a float, as the contract computes)."""
    tenth = f32(0.1)
    as_double = float(literal(UOp.const(tenth))[:-1])
    return next(x for x in range(1, 1000) if f32(x * as_double) != f32(x * tenth))


def show_literals(clang: Clang) -> None:
    block("literals")
    print(f"literals: INT_MIN, and a float constant without its f {MACHINE}")
    sizes = clang.run(clang.build(HEADERS + SIZES_C, ["-O0"])).split()
    print(f"  sizeof(-2147483648) = {sizes[0]} bytes, sizeof((-2147483647 - 1)) = {sizes[1]} bytes")
    tenth = literal(UOp.const(f32(0.1)))
    x = tenth_trap_x()
    state(
        "c_traps_literal_x",
        x,
        "the first of the integers 1, 2, 3, ... at which x * 0.100000001 (a double) and "
        "x * 0.100000001f round to different floats",
    )
    functions = (
        f"float with_f(float x) {{ return x * {tenth}; }}\n"
        f"float without_f(float x) {{ return x * {tenth[:-1]}; }}\n"
    )
    printed = clang.run(clang.build(HEADERS + functions + TIMES_MAIN, ["-O2"]), str(x))
    with_f, without_f = (float.fromhex(v) for v in printed.split())
    print(f"  uopc writes f32(0.1) as {tenth}; at x = {x}:")
    print(f"    x * {tenth} = {f32_text(with_f)}, x * {tenth[:-1]} = {f32_text(without_f)}")
    contract = evaluate(param(0, F32) * UOp.const(f32(0.1)), {0: float(x)})
    print(f"    the contract: {f32_text(contract)}")
    negate = function_text(render(call(UOp(Ops.NEG, (UOp.const(-5),)), name="negate")))
    print(f"  the negation of the constant -5: {negate.splitlines()[1].strip()}")
    errors = clang.errors("int negate(void) { return --5; }\n", ["-std=c11"])
    print(f"  without the brackets, --5: error: {errors[0] if errors else 'none'}")
    claim(sizes == ["8", "4"], "literals: sizes")
    claim(same(with_f, contract) and not same(without_f, contract), "literals: the f suffix")
    claim(bool(errors), "literals: --5 compiles")


def show_shifts() -> None:
    block("shifts")
    names = sorted(op.name for op in ALU)
    print(f"ALU ops of uopc: {', '.join(names)}")
    shifts = [name for name in names if name in ("SHL", "SHR")]
    print(f"shift ops among them: {', '.join(shifts) or 'none'}")
    claim(not shifts, "shifts: uopc has a shift op")


# ---------------------------------------------------------------------------------------------
# the flags against vectorising
# ---------------------------------------------------------------------------------------------

LOOP_C = """
void relu_loop(const float *x, const float *y, float *out, int32_t n) {
  for (int32_t i = 0; i < n; i++) out[i] = relu(x[i], y[i]);
}
"""
REMARK = re.compile(r"remark: (.*?) \[-Rpass")


def show_vectorise(clang: Clang) -> None:
    block("vectorise")
    print(f"relu(x*y + 1) in a loop: does clang vectorise it? {MACHINE}")
    x, y = param(0, F32), param(1, F32)
    source = render(call((x * y + 1.0).max(0.0), F32, F32, name="relu")) + LOOP_C
    path = clang.folder / "loop.c"
    path.write_text(source, encoding="utf-8")
    remarks = ["-Rpass=loop-vectorize", "-Rpass-missed=loop-vectorize"]
    found = {}
    maytrap = "-ffp-exception-behavior=maytrap"
    for label, extra in (("the runtime's flags", []), (f"and {maytrap}", [maytrap])):
        command = [runtime.CC, *runtime.CFLAGS, *extra, *remarks, "-c", str(path), "-o", os.devnull]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        found[label] = REMARK.findall(done.stderr)
        print(f"  {label}: {'; '.join(found[label]) or 'no remark'}")
    width = re.search(r"vectorization width: (\d+)", " ".join(found["the runtime's flags"]))
    claim(width is not None, "vectorise: the loop is not vectorised with the runtime's flags")
    stopped = any("not vectorized" in remark for remark in found[f"and {maytrap}"])
    claim(stopped, "vectorise: the loop is vectorised with maytrap")
    if width:
        meaning = f"floats per step of the vectorised relu loop, the runtime's flags {MACHINE}"
        state("c_traps_vector_width", int(width[1]), meaning)


# ---------------------------------------------------------------------------------------------
# tinygrad on the same inputs
# ---------------------------------------------------------------------------------------------

TINYGRAD_CHILD = f"""
import json, math
from tinygrad import Tensor, Device
from tinygrad.uop.ops import Ops
a, c = {FMA_A!r}, {FMA_C!r}
renderer = type(Device["CPU"].renderer)
print(json.dumps({{
    "renderer": renderer.__module__ + "." + renderer.__name__,
    "args": Device["CPU"].renderer.compiler.args,
    "muladd": (Tensor([a]) * Tensor([a]) + Tensor([c])).tolist()[0],
    "casts": Tensor([1e10, -1e10, math.nan]).cast("int32").tolist(),
    "shifts": [name for name in ("SHL", "SHR") if hasattr(Ops, name)],
}}))
"""


def show_tinygrad() -> None:
    block("tinygrad")
    try:
        import importlib.metadata

        version = importlib.metadata.version("tinygrad")
    except importlib.metadata.PackageNotFoundError:
        print(f"tinygrad is not installed {MACHINE}")
        return
    print(f"tinygrad {version} on its CPU device, the same inputs {MACHINE}")
    environment = {**os.environ, "DEV": "CPU", "CACHELEVEL": "0"}
    command = [sys.executable, "-c", TINYGRAD_CHILD]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"c_traps: the tinygrad child failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"  renderer: {result['renderer']}")
    print(f"  its compiler's target flags: {' '.join(result['args'])}")
    ours = f32_text(f32(f32(FMA_A * FMA_A) + FMA_C))
    print(f"  a * b + c of the fma block: {f32_text(result['muladd'])} (uopc: {ours})")
    print(f"  cast to int32 of 1e10, -1e10, nan: {result['casts']}")
    print(f"  (uopc: {[INT_MAX, INT_MIN, 0]})")
    print(f"  shift ops: {', '.join(result['shifts']) or 'none'}")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="c-traps-") as folder:
        clang = Clang(folder)
        show_overflow(clang)
        show_division(clang)
        show_shortcut(clang)
        show_fma(clang)
        show_assembly(clang)
        show_cast(clang)
        show_max(clang)
        show_max_proof()
        show_width(clang)
        show_literals(clang)
        show_shifts()
        show_vectorise(clang)
    show_tinygrad()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
