"""Eight short demos, one per trap or idea the chapters quote; run from the repository root.

    python demos/run_demos.py

Each demo starts with a header line `demo N: <title>` and is one quoted block (a marker line
`@@ block NAME` before it, stripped by the book build). Demos 5 to 7 show what clang and the CPU
do with hand-written C, so their output depends on the machine and the compiler version: their
headers end in `(this machine)`. Every other line is the same on every run.

A printed claim that turns out false (two results that must agree, a check that must hold)
makes the program exit with a non-zero status after printing everything.
"""

from _common import MACHINE, block, claim, finish, param, state

import ctypes
import math
import os
import subprocess
import sys
import tempfile

from uopc import F32, I32, INT_MAX, INT_MIN, CallArg, Ops, UOp, runtime
from uopc.interp import evaluate
from uopc.render import render
from uopc.rewrite import PatternMatcher, RewriteLimit, UPat, graph_rewrite, rule
from uopc.semantics import f32, floordiv, same
from uopc.symbolic import simplify
from uopc.textfmt import dumps, infix


def size(root: UOp) -> int:
    return len(root.toposort())


# ---------------------------------------------------------------------------------------------
# Demo 1: hash consing and its traps (Chapter 5)
# ---------------------------------------------------------------------------------------------


def tree_size(root: UOp) -> int:
    """The number of nodes the graph would have as a tree, every shared node counted per use."""
    sizes: dict[UOp, int] = {}
    for node in root.toposort():
        sizes[node] = 1 + sum(sizes[s] for s in node.src)
    return sizes[root]


def demo_hash_consing():
    block("demo1")
    print("demo 1: hash consing and the three traps in its key")
    p, q = param(0, F32), param(1, F32)
    same_node = (p + q) is (p + q)
    print(f"(p+q) is (p+q): {same_node}")
    shared = (p + q) * (p + q) + (p + q)
    nodes, tree = size(shared), tree_size(shared)
    print(f"(p+q)*(p+q)+(p+q): {nodes} nodes in the graph, {tree} as a tree")
    zeros = UOp.const(-0.0) is not UOp.const(0.0)
    one_true = UOp.const(1) is not UOp.const(True)
    one_nan = UOp.const(math.nan) is UOp.const(-math.nan)
    print(f"const -0.0 and const 0.0 are different nodes: {zeros}")
    print(f"const 1 and const True are different nodes: {one_true}")
    print(f"every nan constant is one node: {one_nan}")
    print(f"yet in Python: 1 == True is {1 == True}, 0.0 == -0.0 is {0.0 == -0.0},", end=" ")
    print(f"nan == nan is {math.nan == math.nan}")
    claim(same_node and (nodes, tree) == (5, 11), "demo 1: sharing")
    claim(zeros and one_true and one_nan, "demo 1: the three traps")


# ---------------------------------------------------------------------------------------------
# Demo 2: two rules that undo each other (Chapter 8)
# ---------------------------------------------------------------------------------------------

LOOP_RULES: list = []
var = UPat.var


@rule(
    "distribute", UPat(Ops.MUL, src=(var("x"), UPat(Ops.ADD, src=(var("y"), var("z"))))), LOOP_RULES
)
def distribute(x, y, z):
    return x * y + x * z  # x*(y+z) -> x*y + x*z


@rule(
    "factor",
    UPat(
        Ops.ADD,
        src=(UPat(Ops.MUL, src=(var("x"), var("y"))), UPat(Ops.MUL, src=(var("x"), var("z")))),
    ),
    LOOP_RULES,
)
def factor(x, y, z):
    return x * (y + z)  # x*y + x*z -> x*(y+z): the inverse of distribute


def demo_rewrite_loop():
    block("demo2")
    print("demo 2: two rules that undo each other")
    a, b, c = param(0, I32), param(1, I32), param(2, I32)
    start = a * (b + c)
    print(f"start: {infix(start, {0: 'a', 1: 'b', 2: 'c'})}, rules: distribute, factor")
    looping, limit = PatternMatcher(LOOP_RULES), 1000
    try:
        graph_rewrite(start, looping, limit=limit)
        message = "no RewriteLimit"
    except RewriteLimit as error:
        message = f"{type(error).__name__}: {error}"
    print(message)
    claim("distribute" in message and "factor" in message, "demo 2: the limit names both rules")
    distribute, factor = looping.fired["distribute"], looping.fired["factor"]
    claim(abs(distribute - factor) <= 1, "demo 2: the two rules alternate")
    claim(distribute + factor <= limit + 1, "demo 2: no more firings than steps")
    state("loop_limit", limit, "the rewrite limit demo 2 sets")
    state("loop_distribute", distribute, "firings of distribute before the limit stops it")
    state("loop_factor", factor, "firings of factor before the limit stops it")
    alone = graph_rewrite(start, PatternMatcher(LOOP_RULES[:1]))
    print(f"distribute alone stops at {infix(alone, {0: 'a', 1: 'b', 2: 'c'})};", end=" ")
    print(f"the last line of its text: {dumps(alone).splitlines()[-1]}")
    products = alone.op is Ops.ADD and all(s.op is Ops.MUL for s in alone.src)
    claim(products, "demo 2: distribute alone gives an add of two products")


# ---------------------------------------------------------------------------------------------
# Demo 3: float rules that look free (Chapter 10)
# ---------------------------------------------------------------------------------------------


def demo_float_rules():
    block("demo3")
    print("demo 3: float rules that look free and are not")
    x = param(0, F32)
    names = {0: "x"}
    cases = [  # expression, whether strict simplify must leave it as it is
        (x + 0.0, True),
        (x + UOp.const(-0.0), False),
        (x * 1.0, False),
        (x * 0.0, True),
    ]
    for expression, kept in cases:
        result = simplify(expression)
        verdict = "unchanged" if result is expression else "rewritten"
        print(f"{infix(expression, names):<11} -> {infix(result, names):<11} {verdict}")
        claim((result is expression) == kept and (kept or result is x), "demo 3: strict rules")
    print("why the two unchanged forms must stay:")
    plus_differs, times_differs = [], []
    for value in (-0.0, math.inf, math.nan):
        plus, times = evaluate(x + 0.0, {0: value}), evaluate(x * 0.0, {0: value})
        print(f"x = {value}: x + 0.0 = {plus}, x * 0.0 = {times}")
        if not same(plus, value):
            plus_differs.append(value)
        if not same(times, 0.0):
            times_differs.append(value)
    print(f"x + 0.0 -> x would change the value at x = {plus_differs}")
    print(f"x * 0.0 -> 0.0 would change the value at x = {times_differs}")
    claim(plus_differs == [-0.0] and len(times_differs) == 3, "demo 3: the refuting inputs")


# ---------------------------------------------------------------------------------------------
# Demo 4: index arithmetic before and after (Chapter 11)
# ---------------------------------------------------------------------------------------------


def index_cases(i, j, k):
    return [
        ("(i*4+j)//4", (i * 4 + j) // 4),
        ("(i*4+j)%4", (i * 4 + j) % 4),
        ("j%4", j % 4),
        ("(i*8+k)//8", (i * 8 + k) // 8),
        ("((i*4+j)//2)//2", ((i * 4 + j) // 2) // 2),
        ("(i*6+k)%6", (i * 6 + k) % 6),
        ("(i*6+k)//3", (i * 6 + k) // 3),
        ("max(j,4)", j.max(4)),
        ("j<4", j.lt(4)),
        ("(i+3)+5", (i + 3) + 5),
        ("(i*2)*3", (i * 2) * 3),
        ("(i+k)*0", (i + k) * 0),
    ]


def demo_index():
    block("demo4")
    print("demo 4: index arithmetic before and after, i in [0,15], j in [0,3], k in [0,7]")
    i, j, k = param(0, I32, 0, 15), param(1, I32, 0, 3), param(2, I32, 0, 7)
    names = {0: "i", 1: "j", 2: "k"}
    inputs = [{0: a, 1: b, 2: c} for a in range(16) for b in range(4) for c in range(8)]
    single = 0
    for label, expression in index_cases(i, j, k):
        result = simplify(expression)
        ok = all(same(evaluate(expression, env), evaluate(result, env)) for env in inputs)
        claim(ok, f"demo 4: {label}")
        single += size(result) == 1
        counts = f"{size(expression):>2} -> {size(result):>2}"
        print(f"{label:<16} {counts}  {infix(result, names):<22} {len(inputs)} inputs: {ok}")
    print(f"{single} of 12 become a single node")


# ---------------------------------------------------------------------------------------------
# Demos 5-7: C compiled by hand with other flags (Chapter 12); these depend on the machine
# ---------------------------------------------------------------------------------------------


def clang(folder: str, name: str, source: str, flags: list[str], output: str) -> str:
    """Compile source (saved as folder/name) with flags; returns the path of the output."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as file:
        file.write(source)
    target = os.path.join(folder, output)
    done = subprocess.run([runtime.CC, *flags, path, "-o", target], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{runtime.CC} failed:\n{done.stderr}")
    return target


INCREMENT_C = "int f(int x) { return x + 1 > x; }\n"
INCREMENT_MAIN_C = """\
#include <stdlib.h>
int main(int argc, char **argv) { int x = atoi(argv[1]); return x + 1 > x; }
"""


def demo_signed_overflow(folder: str):
    block("demo5")
    print(f"demo 5: the same C, three compiler settings {MACHINE}")
    print(INCREMENT_C, end="")
    results = {}
    for number, flags in enumerate((["-O0"], ["-O2"], ["-O2", "-fwrapv"])):
        # one file name per build: dlopen hands back a library already loaded under a name
        output = f"inc{number}.so"
        library = clang(folder, "inc.c", INCREMENT_C, [*flags, "-shared", "-fPIC"], output)
        function = ctypes.CDLL(library).f
        function.argtypes, function.restype = [ctypes.c_int32], ctypes.c_int32
        setting = " ".join(flags)
        results[setting] = function(INT_MAX)  # the input arrives at run time: no folding
        print(f"clang {setting:<14} f(INT_MAX) = {results[setting]}")
    x = param(0, I32)
    contract = int(evaluate(x.lt(x + 1), {0: INT_MAX}))
    print(f"the contract: x + 1 wraps to INT_MIN, so x + 1 > x is {contract}")
    claim(results["-O2 -fwrapv"] == 0 == contract, "demo 5: -fwrapv agrees with the contract")
    program = clang(folder, "inc_main.c", INCREMENT_MAIN_C, ["-O0", "-ftrapv"], "inc_trapv")
    code = subprocess.run([program, str(INT_MAX)]).returncode
    print(f"clang -O0 -ftrapv, run as a child process: return code {code}")
    print("(a negative code is the signal that ended the child: -4 SIGILL or -5 SIGTRAP")
    print(" means the overflow trapped)")


DIVIDE_MAIN_C = """\
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int a = atoi(argv[1]), b = atoi(argv[2]);
  printf("%d\\n", a / b);
  return 0;
}
"""


def demo_int_min_division(folder: str):
    block("demo6")
    print(f"demo 6: INT_MIN / -1, the division that crashes {MACHINE}")
    program = clang(folder, "divide.c", DIVIDE_MAIN_C, ["-O2"], "divide")
    done = subprocess.run([program, str(INT_MIN), "-1"], capture_output=True, text=True)
    print(f"C a / b with a = INT_MIN, b = -1 read from argv: return code {done.returncode}")
    print("(-8 is SIGFPE: the x86-64 divide instruction traps on this one quotient)")
    contract = floordiv(INT_MIN, -1)
    print(f"the contract's floordiv(INT_MIN, -1) = {contract}")
    a, b = param(0, I32), param(1, I32)
    call = UOp(Ops.CALL, (a // b, UOp.const(0), UOp.const(0)), CallArg("div"))
    compiled = runtime.Program(call)(INT_MIN, -1)
    print(f"uopc's compiled a // b at the same pair = {compiled}")
    claim(contract == compiled == INT_MIN, "demo 6: floordiv(INT_MIN, -1) is INT_MIN")


MULADD_C = "float muladd(float a, float b, float c) { return a * b + c; }\n"


def fma_lines(assembly: str) -> list[str]:
    """The instructions whose mnemonic names a fused multiply-add, comments removed."""
    found = []
    for line in assembly.splitlines():
        text = " ".join(line.split("#")[0].split())
        if text and not text.startswith(".") and "fma" in text.split()[0]:
            found.append(text)
    return found


def demo_fma(folder: str):
    block("demo7")
    print(f"demo 7: a*b+c with and without fused multiply-add {MACHINE}")
    a = b = 1.0 + 2.0**-12
    c = -(1.0 + 2.0**-11)
    print("a = b = 1 + 2**-12, c = -(1 + 2**-11)")
    print(MULADD_C, end="")
    results = {}
    for contract in ("fast", "off"):
        flags = ["-O2", "-march=native", f"-ffp-contract={contract}", "-shared", "-fPIC"]
        library = clang(folder, "muladd.c", MULADD_C, flags, f"muladd_{contract}.so")
        function = ctypes.CDLL(library).muladd
        function.argtypes, function.restype = [ctypes.c_float] * 3, ctypes.c_float
        results[contract] = function(a, b, c)
        print(f"clang -march=native -ffp-contract={contract:<4}  {results[contract]:.9g}")
    rounded_twice = f32(f32(a * b) + c)  # the product rounded to float32, then the sum
    rounded_once = f32(a * b + c)  # a*b and the sum are exact in double: one rounding
    print(f"Python, product rounded first (two roundings): {rounded_twice:.9g}")
    print(f"Python, rounded once at the end (fused):       {rounded_once:.9g}")
    assembly = subprocess.run(
        [runtime.CC, "-O2", "-march=native", "-ffp-contract=fast", "-S", "-o", "-",
         os.path.join(folder, "muladd.c")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    fused = fma_lines(assembly)
    print(f"FMA instructions in the -ffp-contract=fast assembly: {fused}")
    claim(same(results["off"], rounded_twice), "demo 7: -ffp-contract=off rounds twice")
    # without an FMA unit clang cannot fuse; that is not a failure (programs.md, demo 7)
    claim(not fused or same(results["fast"], rounded_once), "demo 7: the fused build rounds once")


# ---------------------------------------------------------------------------------------------
# Demo 8: relu end to end (Chapters 1 and 9)
# ---------------------------------------------------------------------------------------------


# --8<-- [start:relu]
def demo_relu():
    block("demo8")
    print("demo 8: relu end to end")
    x, y = param(0, F32), param(1, F32)
    zero = UOp.const(0.0)
    relu = UOp(Ops.CALL, ((x * y + 1.0).max(zero), zero, zero), CallArg("relu"))
    source = render(relu)
    print(source[source.index("float relu(") :], end="")
    compiled = runtime.Program(relu)
    for arguments, expected in (((2.0, 3.0), 7.0), ((-2.0, 3.0), 0.0)):
        c_value = compiled(*arguments)
        interpreted = evaluate(relu.src[0], dict(enumerate(arguments)))
        print(f"relu{arguments}: compiled {c_value}, evaluate {interpreted}")
        claim(same(c_value, expected) and same(interpreted, expected), f"demo 8: relu{arguments}")


# --8<-- [end:relu]


def main() -> int:
    demo_hash_consing()
    demo_rewrite_loop()
    demo_float_rules()
    demo_index()
    with tempfile.TemporaryDirectory(prefix="uopc-demos-") as folder:
        demo_signed_overflow(folder)
        demo_int_min_division(folder)
        demo_fma(folder)
    demo_relu()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
