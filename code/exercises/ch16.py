"""Chapter 16 · The same ideas in tinygrad: the answers to exercises 16.1-16.5.

Needs tinygrad: without it each answer prints `skipped:` (a failure under --strict). tinygrad runs
in child processes, so its settings (DEV, DEBUG, NOOPT) never reach this process.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch16.
"""

import ast
import importlib.util
import json
import math
import re
from pathlib import Path

from uopc import F32, UOp, runtime
from uopc.interp import evaluate
from uopc.runtime import Program
from uopc.semantics import same
from uopc.symbolic import simplify
from verify.generators import param

from answers import Skip, check, exercise, out, out_machine
from shared import call_of, relu_parts, run_python, sign, tinygrad_facts, tinygrad_version


def tinygrad_definition(kind: type, name: str):
    """The source file and AST node of a tinygrad function or class, found by its name."""
    spec = importlib.util.find_spec("tinygrad")
    for folder in spec.submodule_search_locations:
        for path in sorted(Path(folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if f"{'class' if kind is ast.ClassDef else 'def'} {name}" not in text:
                continue
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, kind) and node.name == name:
                    return path, text, node
    return None


TINYGRAD_KERNEL = """
from tinygrad import Tensor
a, b = Tensor([1.0, 2.0, 3.0, 4.0]), Tensor([10.0, 20.0, 30.0, 40.0])
print("RESULT", ((a + b) * (a + b)).tolist())
"""


def tinygrad_kernel(noopt: bool) -> tuple[list[str], list]:
    """The C of the elementwise kernel tinygrad writes for (a+b)*(a+b), and the result."""
    env = {"DEV": "CPU", "DEBUG": "4", **({"NOOPT": "1"} if noopt else {})}
    done = run_python(TINYGRAD_KERNEL, env)
    text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)  # no terminal colours
    lines = text.splitlines()
    start = next(
        (i for i, line in enumerate(lines) if re.match(r"void E_\w*\(float\*", line)), None
    )
    check(start is not None, f"no elementwise kernel in tinygrad's output: {text[-400:]}")
    kernel = lines[start : lines.index("}", start) + 1]
    if start > 0 and lines[start - 1].startswith("typedef"):
        kernel.insert(0, lines[start - 1])
    result = json.loads(re.search(r"^RESULT (.*)$", text, re.M).group(1))
    return kernel, result


@exercise("ch16", "16.1", "(a+b)*(a+b) in tinygrad, default and NOOPT=1")
def ex_16_1():
    version = tinygrad_version()
    for noopt in (False, True):
        kernel, result = tinygrad_kernel(noopt)
        code = "\n".join(kernel)
        sums = re.findall(r"float (alu\d+) = \(val\d+(?:\[\d\])?\+val\d+(?:\[\d\])?\);", code)
        trips = [int(n) for n in re.findall(r"for \(int \w+ = 0; \w+ < (\d+); \w+\+\+\)", code)]
        computed = len(sums) * math.prod(trips)
        products = re.findall(r"\((alu\d+)\*(alu\d+)\)", code)
        check(
            result == [(p + q) ** 2 for p, q in zip([1, 2, 3, 4], [10, 20, 30, 40], strict=True)],
            f"{result}",
        )
        check(computed == 4, f"{len(sums)} additions x {trips} iterations for 4 elements")
        check(
            sorted(p for p, _ in products) == sorted(sums) and all(p == q for p, q in products),
            "reuse",
        )
        label = "NOOPT=1" if noopt else "default"
        out_machine(
            f"tinygrad {version}, {label}: {len(sums)} addition(s) in the text, "
            f"{computed} sums computed; each sum feeds its product twice"
        )
        for line in kernel:
            out_machine(f"  {line}")


@exercise("ch16", "16.2", "a relu that gives nan for nan")
def ex_16_2():
    x, y, original, _ = relu_parts()
    value = x * y + 1.0
    nan_relu = value.lt(0.0).where(0.0, value)  # (v < 0) ? 0 : v, and nan < 0 is false
    compiled = Program(call_of(nan_relu, [UOp.const(0.0)] * 2, "relu_nan"))
    at_nan, c_at_nan = evaluate(nan_relu, {0: math.nan, 1: 1.0}), compiled(math.nan, 1.0)
    check(math.isnan(at_nan) and math.isnan(c_at_nan), f"at nan: {at_nan}, C {c_at_nan}")
    before = evaluate(original, {0: math.nan, 1: 1.0})
    out(f"where(v < 0.0, 0.0, v), v = x*y + 1: nan at x = nan (C too); max(v, 0.0) gives {before}")
    v = param(0, F32)
    forms = {"max": v.max(0.0), "where": v.lt(0.0).where(0.0, v)}
    programs = {k: Program(call_of(f, [UOp.const(0.0)], f"relu_{k}")) for k, f in forms.items()}
    for point in (-2.0, 0.0, -0.0):
        values = {k: evaluate(f, {0: point}) for k, f in forms.items()}
        check(all(same(programs[k](point), values[k]) for k in forms), f"C differs at {point}")
        differ = point == 0.0 and sign(point) == "-"  # only the negative zero tells them apart
        check(same(values["max"], values["where"]) != differ, f"at {point!r}: {values}")
        out(f"at {point!r}: max(v, 0.0) = {values['max']!r}, where form = {values['where']!r}")
    out("only -0.0 tells them apart: max returns its second source on a tie, the where form v")


@exercise("ch16", "16.3", "tinygrad's CPU compiler flags")
def ex_16_3():
    version = tinygrad_version()
    found = tinygrad_definition(ast.ClassDef, "ClangCompiler")
    if found is None:
        raise Skip(f"tinygrad {version} has no ClangCompiler")
    path, text, node = found
    method = next(n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "compile")
    listed = [n for n in ast.walk(method) if isinstance(n, ast.List)]
    strings = [e.value for lst in listed for e in lst.elts if isinstance(e, ast.Constant)]
    # flags, not "-c", "-x" or "-o" (whose arguments follow them) nor "-" (standard input)
    theirs = [s for s in strings if isinstance(s, str) and re.fullmatch(r"-[A-Za-z].+", s)]
    ours = list(runtime.CFLAGS)
    both = [flag for flag in ours if flag in theirs]
    only_ours = [flag for flag in ours if flag not in theirs]
    why = {  # what each flag only we pass guards against
        "-fwrapv": "signed overflow, undefined in C (the contract wraps)",
        "-ffp-contract=off": "a*b + c fused into one rounding (FMA)",
        "-fno-fast-math": "float rewrites that change results (regrouping, nan, zero signs)",
        "-std=c11": "a C dialect that changes with the compiler's default",
        "-shared": "nothing: it makes the library ctypes loads (tinygrad loads objects itself)",
    }
    check(set(only_ours) <= set(why), f"flags with no reason given: {set(only_ours) - set(why)}")
    check(both, "no flag in common")
    out_machine(f"tinygrad {version}, ClangCompiler.compile: {' '.join(theirs)}")
    out(f"ours (runtime.CFLAGS): {' '.join(ours)}")
    out_machine(f"in both: {' '.join(both)}")
    for flag in only_ours:
        out_machine(f"only ours: {flag}: {why[flag]}")


@exercise("ch16", "16.4", "f + 0.0 in tinygrad and here")
def ex_16_4():
    x = param(0, F32)
    check(simplify(x + 0.0) is x + 0.0, "strict simplify drops the add")
    ours = evaluate(x + 0.0, {0: -0.0})
    compiled = Program(call_of(x + 0.0, [UOp.const(0.0)], "plus_zero"))(-0.0)
    check(same(ours, 0.0) and same(compiled, 0.0), f"ours {ours}, C {compiled}")
    out(f"ours: strict simplify keeps x + 0.0; at x = -0.0 the interpreter and C give {ours}")
    facts = tinygrad_facts()
    # the answer's reading of tinygrad: the add dropped, the scalar keeps -0.0, the zeros do not
    check(facts["f+0.0"] == "f", f"tinygrad simplifies f + 0.0 to {facts['f+0.0']}")
    scalar, zeros = float(facts["scalar"]), float(facts["zeros"])  # as the child wrote them
    check(math.copysign(1.0, scalar) < 0 and scalar == 0.0, f"tensor + 0.0 gives {scalar}")
    check(math.copysign(1.0, zeros) > 0 and zeros == 0.0, f"tensor + zeros gives {zeros}")
    out_machine(f"tinygrad {facts['version']}: f + 0.0 simplifies to {facts['f+0.0']}")
    out_machine(
        f"tinygrad: [-0.0, 1.0] + 0.0 gives {facts['scalar']} first; "
        f"+ zeros(2) gives {facts['zeros']}"
    )


@exercise("ch16", "16.5", "fold_divmod_general")
def ex_16_5():
    version = tinygrad_version()
    found = tinygrad_definition(ast.FunctionDef, "fold_divmod_general")
    if found is None:
        out_machine(f"tinygrad {version} has no fold_divmod_general (check skipped)")
        raise Skip(f"tinygrad {version} has no fold_divmod_general")
    path, text, node = found
    first = ast.get_source_segment(text, node).splitlines()[:8]
    code = "\n".join(first)
    zero = next((ln for ln in first if "ZeroDivisionError" in ln), None)
    constant = next(
        (ln for ln in first if "vmin" in ln and "vmax" in ln and "ZeroDivisionError" not in ln),
        None,
    )
    check(zero is not None and "raise" in zero and "==0" in zero.replace(" ", ""), f"{code}")
    check(constant is not None and "vmax" in constant, f"{code}")
    # the book names tinygrad's code and describes it; it never quotes it
    where = f"{path.parent.name}/{path.name}, line {node.lineno}"
    out_machine(f"tinygrad {version}: fold_divmod_general is in {where}")
    line = first.index(zero) + 1
    out_machine(f"its line {line} raises ZeroDivisionError when the divisor's range is [0, 0]")
    line = first.index(constant) + 1
    out_machine(f"its line {line} folds a quotient whose range is a single value")
