"""Chapter 1 · What we are building: the answers to exercises 1.1-1.4.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch01.
"""

import collections
import math
import re
import subprocess
import sys

from uopc import F32, I32, Ops, UOp
from uopc.interp import evaluate
from uopc.render import render
from uopc.runtime import Program
from uopc.semantics import same
from uopc.symbolic import simplify
from uopc.textfmt import dumps, loads
from verify.generators import param

from answers import REPO, Skip, check, exercise, out
from shared import call_of, function_lines, relu_parts, tree_size


@exercise("ch01", "1.1", "the graph of (p+q)*(p+q)+(p+q)")
def ex_1_1():
    p, q = param(0, F32), param(1, F32)
    s = p + q
    root = s * s + s
    nodes = root.toposort()
    ops = collections.Counter(n.op.name for n in nodes)
    check(len(nodes) == 5, f"{len(nodes)} nodes")
    check(ops == {"PARAM": 2, "ADD": 2, "MUL": 1}, f"ops {dict(ops)}")
    check(root.src[0].src[0] is root.src[0].src[1] is root.src[1], "p+q is one node")
    # the tree counted by walking it, a shared node once per use (no memo)
    walked, stack = 0, [root]
    while stack:
        node = stack.pop()
        walked += 1
        stack.extend(node.src)
    check(walked == tree_size(root) == 11, f"tree sizes {walked}, {tree_size(root)}")
    out(f"{len(nodes)} nodes: p, q, p+q, the product, the sum; as a tree {walked}")


@exercise("ch01", "1.2", "demo 8 of run_demos.py")
def ex_1_2():
    script = REPO / "demos" / "run_demos.py"
    if not script.exists():
        raise Skip("demos/run_demos.py is not there yet")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=REPO, timeout=600
    )
    check(done.returncode == 0, f"run_demos.py exited {done.returncode}: {done.stderr[-300:]}")
    lines = done.stdout.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("demo 8:")]
    check(len(starts) == 1, "exactly one `demo 8:` header")
    demo = lines[starts[0] :]
    demo = demo[: next((i for i, ln in enumerate(demo[1:], 1) if ln.startswith("demo ")), None)]
    function = function_lines("\n".join(demo), "relu")
    statements = [line for line in function[1:-1] if not line.strip().startswith("return")]
    check(len(statements) == 3 and function[-2].strip().startswith("return"), f"{function}")
    x, y, body, call = relu_parts()
    check(function == function_lines(render(call), "relu"), "demo 8 prints another relu")
    # the lines `relu(a, b): ...` after the function: every number printed is relu(a, b)
    calls = [re.match(r"relu\((\S+), (\S+)\)\D*(.*)", line) for line in demo]
    calls = [found for found in calls if found]
    results = [(float(c[1]), float(c[2]), re.findall(r"-?\d+\.\d+|nan|inf", c[3])) for c in calls]
    check(len(results) == 2 and all(values for _, _, values in results), f"{demo}")
    for a, b, values in results:
        wanted = evaluate(body, {0: a, 1: b})
        check(all(same(float(v), wanted) for v in values), f"relu({a}, {b}) printed {values}")
    out(f"the function is {function[0]!r}: {len(statements)} statements, then the return")
    shown = ", ".join(f"relu({a}, {b}) = {values[0]}" for a, b, values in results)
    out(f"the demo also prints {shown}, as the interpreter gives")


@exercise("ch01", "1.3", "relu when x*y + 1 is nan")
def ex_1_3():
    x, y, body, call = relu_parts()
    compiled = Program(call)
    for a, b in ((math.nan, 3.0), (math.inf, 0.0)):
        check(math.isnan(evaluate(x * y + 1.0, {0: a, 1: b})), f"x*y + 1 at ({a}, {b}) is nan")
        interpreted = evaluate(body, {0: a, 1: b})
        folded = simplify(call_of(body, [UOp.const(a), UOp.const(b)], "relu"))
        from_c = compiled(a, b)
        check(folded.op is Ops.CONST, "folding gives one constant")
        for how, value in (("interpreter", interpreted), ("folding", folded.arg), ("C", from_c)):
            check(same(value, 0.0), f"{how} at ({a}, {b}) gives {value}, not +0.0")
        out(f"x = {a}, y = {b}: interpreter {interpreted}, folding {folded.arg}, C {from_c}")


@exercise("ch01", "1.4", "the text of x + x")
def ex_1_4():
    x = param(0, I32)
    text = dumps(x + x)
    lines = text.splitlines()
    check(lines[1:] == ["%0 = param : dtype=i32 slot=0", "%1 = add %0, %0"], f"{lines}")
    check(loads(text) is x + x, "loads(text) is x + x")
    out(f"two node lines: {lines[1]!r}, {lines[2]!r}; loads gives back x + x itself")
