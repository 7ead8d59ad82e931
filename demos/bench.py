"""The benchmark (Chapter 13, Appendix D), and uopc against tinygrad measured in the same run.

Blocks, each after a marker line `@@ block NAME` that the book build strips:
  relu             relu(x*y+1) run three ways: the interpreter, one ctypes call per element, a
                   loop inside C
  compile          clang's time against the size of the function, at -O0, -O1 and -O2
  graphs           300 index expressions: nodes, memory, simplification; sharing in p = p + p
  tinygrad         the same 300 expressions, and chains of additions, given to uopc and to
                   tinygrad: nodes, speed, memory, each ratio against its target
  tinygrad-method  how that comparison is made fair, and what tinygrad does with the long chain

The expressions come from one generator (`gen_term`) that builds library-neutral expressions; each
library builds its own graph from them through a small adapter (`Uopc`, `Tinygrad`). With the
uopc adapter the expressions give exactly the graphs of `tests/common.gen_index_program` (checked
below). Every simplified expression of both libraries is checked on all 512 points of the
domain against the original term's value computed here with Python ints; a mismatch, or any
other false claim, exits non-zero. Targets for uopc that are missed are reported, not failed:
a benchmark reports.

Every time, rate, ratio and byte count depends on the machine and the moment: those lines end
with `(this machine)`. Only the node counts are the same on every run. The data also goes to
`out/bench/bench.json` (with a hash of the sources, so that a stale benchmark shows).

Usage: python demos/bench.py [--quick] [--json PATH]
  --quick   tiny sizes (seconds, for the test suite); writes JSON only when --json is given
Run it alone on an idle machine: other jobs distort every figure.
"""

import argparse
import ctypes
import gc
import hashlib
import importlib.util
import itertools
import json
import operator
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
import weakref
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMOS = Path(__file__).resolve().parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))  # for `common`
if importlib.util.find_spec("uopc") is None:  # a plain clone, not installed: after the rest
    sys.path.append(str(ROOT))
if str(DEMOS) not in sys.path:
    sys.path.append(str(DEMOS))  # for tinygrad_demo's lookup by name

from common import DIVISORS, INDEX_OPS, MULTIPLIERS, gen_index_program  # noqa: E402
from tinygrad_demo import find, tinygrad_version  # noqa: E402

from uopc import F32, I32, CallArg, Ops, ParamArg, UOp, runtime  # noqa: E402
from uopc.interp import evaluate  # noqa: E402
from uopc.render import render  # noqa: E402
from uopc.semantics import same  # noqa: E402
from uopc.symbolic import simplify  # noqa: E402
from uopc.textfmt import dumps  # noqa: E402

MACHINE = "(this machine)"
SEED = 1234  # the relu inputs
RANGES = ((0, 7), (0, 7), (0, 7))  # i, j, k: 8 * 8 * 8 = 512 points, every one checked
NAMES = ("i", "j", "k")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

FULL = {
    "expressions": 300,
    "interpreter": 20_000,
    "ctypes": 200_000,
    "c_loop": 20_000_000,
    "statements": [10, 100, 1000, 5000],
    "compile_runs": 3,
    "repeats": 3,
    "chain": 100_000,
    "long_chain": 200_000,
    "doublings": 18,
}
QUICK = {
    **FULL,
    "expressions": 30,
    "interpreter": 500,
    "ctypes": 5_000,
    "c_loop": 200_000,
    "statements": [10, 100],
    "compile_runs": 1,
    "repeats": 2,
    "chain": 2_000,
    "long_chain": 4_000,
}

# ---------------------------------------------------------------------------------------------
# One generator, two libraries
# ---------------------------------------------------------------------------------------------


class Term:
    """A library-neutral node: op name, arg, srcs. Equal expressions are one object (interned), so a
    term's node count is what hash consing gives in either library."""

    __slots__ = ("op", "arg", "src")
    table: dict = {}

    def __new__(cls, op: str, arg=None, src: tuple = ()):
        key = (op, arg, src)  # srcs are interned, so they compare by identity
        term = cls.table.get(key)
        if term is None:
            term = cls.table[key] = object.__new__(cls)
            term.op, term.arg, term.src = op, arg, src
        return term


def term_order(root: Term) -> list[Term]:
    """Every term under root once, srcs first (iterative: no recursion on depth)."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        term, srcs_done = stack.pop()
        if srcs_done:
            order.append(term)
        elif term not in seen:
            seen.add(term)
            stack.append((term, True))
            stack.extend((s, False) for s in reversed(term.src) if s not in seen)
    return order


def _operand(r, nodes):
    return r.choice(nodes) if r.random() < 0.6 else Term("CONST", r.randint(-8, 8))


def _divisor(r, multipliers):
    if multipliers and r.random() < 0.5:
        k = abs(r.choice(multipliers))
        return r.choice([d for d in range(1, k + 1) if k % d == 0])
    return r.choice(DIVISORS)


def _grow(r, node, nodes, multipliers):
    kind = r.choice(INDEX_OPS)
    if kind == "NEG":
        return Term("NEG", src=(node,))
    if kind == "MUL":
        if r.random() < 0.7:
            multipliers.append(r.choice(MULTIPLIERS))
            return Term("MUL", src=(node, Term("CONST", multipliers[-1])))
        return Term("MUL", src=(node, r.choice(nodes)))
    if kind in ("FLOORDIV", "FLOORMOD"):
        return Term(kind, src=(node, Term("CONST", _divisor(r, multipliers))))
    other = _operand(r, nodes)
    if kind == "WHERE":
        compare = r.choice(("CMPLT", "CMPNE"))
        condition = Term(compare, src=(r.choice(nodes), _operand(r, nodes)))
        branches = (node, other) if r.random() < 0.5 else (other, node)
        return Term("WHERE", src=(condition, *branches))
    return Term(kind, src=(node, other) if r.random() < 0.5 else (other, node))


def gen_term(r) -> Term:
    """One index expression over i, j, k: the algorithm of `common.gen_index_program`, drawing
    the same random numbers in the same order, on expressions instead of uopc nodes."""
    params = [Term("PARAM", slot) for slot in range(len(RANGES))]
    nodes, multipliers = list(params), []
    target = r.randint(4, 24)
    root = r.choice(params)
    while len(term_order(root)) < target:
        root = _grow(r, root, nodes, multipliers)
        nodes.append(root)
    return root


def gen_expressions(count: int) -> list[list[Term]]:
    """Expressions for seeds 0 .. count-1, each as its expressions in order: srcs first, root last.
    (Ordered once here, so that building allocates nothing but the library's own nodes.)"""
    return [term_order(gen_term(random.Random(seed))) for seed in range(count)]


def build(lib, expression: list[Term]):
    """The library's graph for an expression; the local map keeps sharing, then is dropped."""
    built = {}
    for term in expression:
        if term.op == "PARAM":
            built[term] = lib.param(term.arg, *RANGES[term.arg])
        elif term.op == "CONST":
            built[term] = lib.const(term.arg)
        else:
            built[term] = lib.alu(term.op, tuple(built[s] for s in term.src))
    return built[expression[-1]]


class Uopc:
    name = "uopc"

    def param(self, slot, lo, hi):
        return UOp(Ops.PARAM, arg=ParamArg(slot, I32, lo, hi))

    def const(self, value):
        return UOp.const(value)

    def alu(self, op, srcs):
        return UOp(Ops[op], srcs)

    def simplify(self, root):
        return simplify(root)

    def nodes(self, root):
        return root.toposort()

    def forget(self):
        pass  # uopc keeps nothing between two simplify calls (the rewrite map is per call)

    def chain(self, n):
        x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
        node = x
        for c in range(1, n + 1):
            node = node + c
        return node

    def chain_value(self, result):
        return evaluate(result, {0: 0})


class Tinygrad:
    """tinygrad through names looked up one by one: a missing name stops with a clear message."""

    name = "tinygrad"

    def __init__(self):
        self.UOp = find("tinygrad.uop.ops.UOp")
        self.Ops = find("tinygrad.uop.Ops")
        self.graph_rewrite = find("tinygrad.uop.ops.graph_rewrite")
        self.symbolic = find("tinygrad.uop.symbolic.symbolic")  # what UOp.simplify applies
        self.index = find("tinygrad.dtype.dtypes.weakint")  # the dtype UOp.variable defaults to
        self.context = find("tinygrad.helpers.Context")
        self.stack_limit = find("tinygrad.uop.ops.REWRITE_STACK_LIMIT")  # a ContextVar
        # a functools.cache on div/mod nodes: it would carry rewrites (and nodes) from one
        # timed repetition into the next, so it is emptied between repetitions
        self.memo = find("tinygrad.uop.divandmod.fold_divmod_general")
        if not hasattr(self.memo, "cache_clear"):
            raise SystemExit("tinygrad's fold_divmod_general has no cache_clear any more")

    def param(self, slot, lo, hi):
        return self.UOp.variable(NAMES[slot], lo, hi, self.index)

    def const(self, value):
        return self.UOp.const(value, self.index)

    def alu(self, op, srcs):
        if op == "NEG":
            return -srcs[0]  # tinygrad has no integer NEG: its own negation builds x*-1
        return self.UOp(self.Ops[op], src=srcs)

    def simplify(self, root):
        return self.graph_rewrite(root, self.symbolic)

    def nodes(self, root):
        return list(root.toposort())

    def forget(self):
        self.memo.cache_clear()

    def chain(self, n):
        node = self.UOp.variable("x", INT_MIN, INT_MAX, self.index)
        for c in range(1, n + 1):
            node = self.UOp(self.Ops.ADD, src=(node, self.const(c)))
        return node

    def chain_value(self, result):
        return tinygrad_values(result, {"x": [0]})[0]


# ---------------------------------------------------------------------------------------------
# Values: the reference on expressions, and an evaluator of tinygrad graphs
# ---------------------------------------------------------------------------------------------

POINTS = list(itertools.product(*(range(lo, hi + 1) for lo, hi in RANGES)))
COLUMNS = {name: [point[slot] for point in POINTS] for slot, name in enumerate(NAMES)}


def wrap(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_OPS = {
    "ADD": operator.add,
    "SUB": operator.sub,
    "MUL": operator.mul,
    "NEG": operator.neg,
    "MAX": max,
    "FLOORDIV": operator.floordiv,  # Python's // and % are floor division and its remainder
    "FLOORMOD": operator.mod,
    "CDIV": trunc_div,
    "CMOD": lambda a, b: a - b * trunc_div(a, b),
    "CMPLT": operator.lt,
    "CMPNE": operator.ne,
    "CMPEQ": operator.eq,
    "AND": operator.and_,
    "OR": operator.or_,
    "XOR": operator.xor,
    "SHL": operator.lshift,
    "SHR": operator.rshift,
    "WHERE": lambda c, a, b: a if c else b,
}
COMPARISONS = ("CMPLT", "CMPNE", "CMPEQ")


def reference(expression: list[Term], wrapped: bool) -> list[int]:
    """The term's value at every point, with Python ints and floor semantics; wrapped=True
    wraps every integer result to int32, as uopc's contract does (tinygrad's index dtype
    never wraps)."""
    values = {}
    for term in expression:
        if term.op == "PARAM":
            values[term] = COLUMNS[NAMES[term.arg]]
        elif term.op == "CONST":
            values[term] = [term.arg] * len(POINTS)
        else:
            fn = INT_OPS[term.op]
            column = [fn(*args) for args in zip(*(values[s] for s in term.src), strict=True)]
            if wrapped and term.op not in COMPARISONS:
                column = [wrap(v) for v in column]
            values[term] = column
    return values[expression[-1]]


def tinygrad_values(root, columns: dict) -> list:
    """The value of a tinygrad graph for each row of columns (variable name -> values).

    Written here from each op's meaning, not with tinygrad's own evaluator, so that the check
    does not share tinygrad's mistakes. An op not listed stops the check with its name.
    """
    rows = len(next(iter(columns.values())))
    values = {}
    for u in root.toposort():
        op = u.op.name
        if op == "STACK" and not u.src:
            values[u] = None  # the empty shape under a variable: no value
        elif op in ("BUFFER", "PARAM") and getattr(u.arg, "name", None) in columns:
            values[u] = columns[u.arg.name]
        elif op == "CONST":
            values[u] = [u.arg] * rows
        elif op == "CAST" and u.dtype.name == "bool":
            values[u] = [bool(v) for v in values[u.src[0]]]
        elif op == "CAST" and u.dtype.name in ("weakint", "int", "long"):
            values[u] = [int(v) for v in values[u.src[0]]]
        elif op in INT_OPS:
            fn = INT_OPS[op]
            values[u] = [fn(*args) for args in zip(*(values[s] for s in u.src), strict=True)]
        else:
            raise SystemExit(f"tinygrad_values: no meaning written here for {op} ({u.dtype})")
    return values[root]


def check_uopc(seed, original, result, expected) -> tuple[int, list]:
    """(points checked, failures) of uopc's result, with uopc's own interpreter."""
    failures = []
    for point, want in zip(POINTS, expected, strict=True):
        got = evaluate(result, dict(enumerate(point)))
        if got != want:
            failures.append(
                f"uopc, seed {seed}: at (i, j, k) = {point} the simplified graph gives {got}, "
                f"the original {want}\n{dumps(original, 'original')}{dumps(result, 'simplified')}"
            )
            break
    return len(POINTS), failures


def check_tinygrad(seed, original, result, expected) -> tuple[int, list]:
    """(points checked, failures): the original (a check of the adapter and of the evaluator)
    and the simplified graph, each against the reference."""
    failures = []
    for what, graph in (("original", original), ("simplified", result)):
        got = tinygrad_values(graph, COLUMNS)
        for point, g, want in zip(POINTS, got, expected, strict=True):
            if g != want:
                failures.append(
                    f"tinygrad, seed {seed}: at (i, j, k) = {point} the {what} graph gives {g}, "
                    f"the reference {want}\n  original:   {original.render(simplify=False)}\n"
                    f"  simplified: {result.render(simplify=False)}"
                )
                break
    return len(POINTS), failures


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------


class Clock:
    """Wall (perf_counter) and CPU (process_time) seconds of a block, collector paused.

    The collector is paused for both libraries, as timeit does: a collection walks every live
    object, and its pauses would otherwise land in whichever run triggered them. (uopc's
    graph_rewrite pauses it by itself; tinygrad's does not, so this favours tinygrad.)
    """

    def __enter__(self):
        gc.collect()
        gc.disable()
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu
        gc.enable()


def dropped(refs: list, who: str) -> None:
    """After a repetition: every node it built must be gone, so that the next one starts from
    fresh nodes with empty caches (ranges, rewrite results) in both libraries."""
    gc.collect()
    alive = sum(ref() is not None for ref in refs)
    if alive:
        raise SystemExit(f"FAILED: {alive} nodes of a timed {who} graph outlived their run")


def expressions_run(lib, expressions) -> tuple[float, float, dict]:
    """One timed run: fresh graphs, built untimed, then every expression simplified alone."""
    lib.forget()
    roots = [build(lib, e) for e in expressions]
    refs = [weakref.ref(n) for root in roots for n in lib.nodes(root)]
    with Clock() as clock:
        results = [lib.simplify(root) for root in roots]
    refs += [weakref.ref(n) for root in results for n in lib.nodes(root)]
    del roots, results
    lib.forget()
    dropped(refs, lib.name)
    return clock.wall, clock.cpu, {}


def chain_run(lib, n: int) -> tuple[float, float, dict]:
    """One timed simplification of x + 1 + 2 + ... + n, on a chain built untimed."""
    lib.forget()
    chain = lib.chain(n)
    with Clock() as clock:
        result = lib.simplify(chain)
    info = {"size": len(lib.nodes(result)), "value_at_0": lib.chain_value(result)}
    del chain, result
    lib.forget()
    gc.collect()
    return clock.wall, clock.cpu, info


def interleaved(libs, run_once, repeats: int, warmup: int) -> dict:
    """Best wall and cpu seconds of `repeats` runs per library, the libraries taking turns, so
    that a change in the machine's load falls on both; `warmup` untimed turns first."""
    out = {lib.name: {"walls": [], "cpus": []} for lib in libs}
    for turn in range(warmup + repeats):
        for lib in libs:
            wall, cpu, info = run_once(lib)
            if turn >= warmup:
                out[lib.name]["walls"].append(wall)
                out[lib.name]["cpus"].append(cpu)
                out[lib.name].update(info)
    for entry in out.values():
        entry.update(wall=min(entry["walls"]), cpu=min(entry["cpus"]))
    return out


def try_long_chain(lib, n: int, stack_limit: int | None = None) -> dict:
    """One simplification of the long chain: its time, or the exception and how soon it came.

    stack_limit (tinygrad only) raises tinygrad's REWRITE_STACK_LIMIT for this one call.
    """
    lib.forget()
    chain = lib.chain(n)
    error, result = None, None
    with Clock() as clock:
        try:
            if stack_limit is None:
                result = lib.simplify(chain)
            else:
                with lib.context(REWRITE_STACK_LIMIT=stack_limit):
                    result = lib.simplify(chain)
        except (RecursionError, RuntimeError, MemoryError) as exception:
            error = f"{type(exception).__name__}: {exception}"
    outcome = {"n": n, "ok": error is None, "wall": clock.wall, "cpu": clock.cpu, "error": error}
    if result is not None:
        outcome.update(size=len(lib.nodes(result)), value_at_0=lib.chain_value(result))
    del chain, result
    lib.forget()
    gc.collect()
    return outcome


def traced_build(lib, expressions) -> dict:
    """Bytes tracemalloc sees while the graphs are built (what stays allocated), per node."""
    gc.collect()
    tracemalloc.start()
    roots = [build(lib, e) for e in expressions]
    traced, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_expression = [lib.nodes(root) for root in roots]
    distinct = len({node for nodes in per_expression for node in nodes})
    per_node = traced / distinct
    return {"traced_bytes": traced, "distinct": distinct, "bytes_per_distinct_node": per_node}


# ---------------------------------------------------------------------------------------------
# Block 1: relu three ways
# ---------------------------------------------------------------------------------------------

LOOP_C = """
void relu_loop(const float *x, const float *y, float *out, int32_t n) {
  for (int32_t i = 0; i < n; i++) out[i] = relu(x[i], y[i]);
}
"""


def best(function, repeats: int = 3) -> tuple[float, float]:
    """The fastest wall and cpu seconds of several runs of function(), collector paused."""
    clocks = []
    for _ in range(repeats):
        with Clock() as clock:
            function()
        clocks.append(clock)
    return min(c.wall for c in clocks), min(c.cpu for c in clocks)


def bench_relu(sizes: dict) -> tuple[dict, list[str]]:
    import numpy as np

    x, y = (UOp(Ops.PARAM, arg=ParamArg(slot, F32)) for slot in (0, 1))
    body = (x * y + 1.0).max(0.0)
    zero = UOp.const(0.0)
    call = UOp(Ops.CALL, (body, zero, zero), CallArg("relu"))
    program = runtime.Program(call)
    loop_lib = ctypes.CDLL(runtime.compile_c(render(call) + LOOP_C))
    loop = loop_lib.relu_loop
    loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32]
    loop.restype = None

    rng = np.random.default_rng(SEED)
    n_loop = sizes["c_loop"]
    xs, ys = (rng.uniform(-4.0, 4.0, n_loop).astype(np.float32) for _ in range(2))
    out = np.zeros(n_loop, dtype=np.float32)
    n_interp, n_ctypes = sizes["interpreter"], sizes["ctypes"]
    px, py = xs[:n_ctypes].tolist(), ys[:n_ctypes].tolist()
    fn = program.fn

    ix, iy = px[:n_interp], py[:n_interp]

    def interpret():
        return [evaluate(body, {0: a, 1: b}) for a, b in zip(ix, iy, strict=True)]

    def per_call():
        return [fn(a, b) for a, b in zip(px, py, strict=True)]

    def c_loop():
        loop(xs.ctypes.data, ys.ctypes.data, out.ctypes.data, n_loop)

    (t_interp, c_interp), (t_ctypes, c_ctypes), (t_loop, c_loop_cpu) = map(
        best, (interpret, per_call, c_loop)
    )
    wanted = interpret()
    agree = all(map(same, per_call()[:n_interp], wanted)) and all(
        map(same, out[:n_interp].tolist(), wanted)
    )
    if not agree:
        raise SystemExit("FAILED: the compiled relu and the interpreter disagree")
    ns = {
        "interpreter": t_interp / n_interp * 1e9,
        "ctypes_per_element": t_ctypes / n_ctypes * 1e9,
        "c_loop": t_loop / n_loop * 1e9,
    }
    cpu_ns = {
        "interpreter": c_interp / n_interp * 1e9,
        "ctypes_per_element": c_ctypes / n_ctypes * 1e9,
        "c_loop": c_loop_cpu / n_loop * 1e9,
    }
    scaled = t_interp / n_interp * n_ctypes
    lines = [
        f"one function, three ways of running it: relu(x*y+1) on seeded f32 inputs  {MACHINE}",
        f"  interpreter (evaluate), timed on {n_interp:,} elements, scaled to {n_ctypes:,}: "
        f"{scaled:.3f} s, {ns['interpreter']:,.0f} ns per element",
        f"  compiled, one ctypes call per element, {n_ctypes:,} elements: "
        f"{t_ctypes:.3f} s, {ns['ctypes_per_element']:,.0f} ns per element",
        f"  a loop inside C, {n_loop:,} elements: {t_loop:.4f} s, "
        f"{ns['c_loop']:.2f} ns per element",
        f"  interpreter / C loop: {ns['interpreter'] / ns['c_loop']:,.0f}x",
        f"  ctypes / C loop: {ns['ctypes_per_element'] / ns['c_loop']:,.0f}x",
        "  (wall time, best of 3 runs each; the three agree on every interpreted element;",
        f"  cpu time of this process per element: {cpu_ns['interpreter']:,.0f}, "
        f"{cpu_ns['ctypes_per_element']:,.0f} and {cpu_ns['c_loop']:.2f} ns)",
    ]
    return ns, cpu_ns, lines


# ---------------------------------------------------------------------------------------------
# Block 2: compile time
# ---------------------------------------------------------------------------------------------

LEVELS = ("-O0", "-O1", "-O2")


def statement_chain(n: int) -> str:
    """The C of a function that is a chain of n float adds and multiplies on one param."""
    node = UOp(Ops.PARAM, arg=ParamArg(0, F32))
    for i in range(n):
        node = node + 1.5 if i % 2 == 0 else node * 0.75
    source = render(UOp(Ops.CALL, (node, UOp.const(0.0)), CallArg(f"chain{n}")))
    statements = sum(line.startswith("  float v") for line in source.splitlines())
    if statements != n:
        raise SystemExit(f"FAILED: the chain of {n} rendered to {statements} statements")
    return source


def bench_compile(sizes: dict) -> tuple[dict, list[str]]:
    """compile_c with the runtime's flags at each level, each run in a fresh, empty cache."""
    runtime.compiler_version(runtime.CC)  # asked once per process: not part of any timing
    others = [flag for flag in runtime.CFLAGS if not flag.startswith("-O")]
    saved = runtime.CACHE_DIR
    times = {level: [] for level in LEVELS}
    try:
        for n in sizes["statements"]:
            source = statement_chain(n)
            for level in LEVELS:
                runs = []
                for _ in range(sizes["compile_runs"]):
                    with tempfile.TemporaryDirectory() as cache:
                        runtime.CACHE_DIR = cache  # read by compile_c at call time
                        start = time.perf_counter()
                        runtime.compile_c(source, flags=[level, *others])
                        runs.append(time.perf_counter() - start)
                times[level].append(statistics.median(runs))
    finally:
        runtime.CACHE_DIR = saved
    runs = sizes["compile_runs"]
    lines = [
        f"clang's time against the size of the function, in seconds  {MACHINE}",
        "  (compile_c with the runtime's flags at each level: a shared library built from",
        f"  nothing in an empty cache, clang's start-up included; median of {runs} runs)",
        f"  {'statements':>10}" + "".join(f"{level:>8}" for level in LEVELS),
    ]
    for position, n in enumerate(sizes["statements"]):
        row = "".join(f"{times[level][position]:>8.3f}" for level in LEVELS)
        lines.append(f"  {n:>10,}{row}")
    data = {"statements": list(sizes["statements"])}
    data.update({level.lstrip("-"): times[level] for level in LEVELS})
    return data, lines


# ---------------------------------------------------------------------------------------------
# Block 3, and the comparison with tinygrad
# ---------------------------------------------------------------------------------------------


def tree_size(root) -> int:
    """How many nodes the graph would have as a tree: each node counted once per use."""
    size = {}
    for node in root.toposort():
        size[node] = 1 + sum(size[s] for s in node.src)
    return size[root]


def count_nodes(lib, roots) -> dict:
    per_expression = [lib.nodes(root) for root in roots]
    return {
        "sum": sum(len(nodes) for nodes in per_expression),
        "distinct": len({node for nodes in per_expression for node in nodes}),
    }


def same_as_common(expressions) -> None:
    """The uopc adapter's graphs are exactly tests/common.gen_index_program's, seed by seed."""
    uopc = Uopc()
    for seed, expression in enumerate(expressions):
        theirs = gen_index_program(random.Random(seed), ranges=RANGES)[0]
        if build(uopc, expression) is not theirs:
            raise SystemExit(
                f"FAILED: seed {seed}: gen_term no longer draws what common.gen_index_program "
                "draws; update gen_term to match it"
            )


def measure(lib, expressions, references) -> tuple[dict, list[str]]:
    """Nodes before and after, and every simplified expression checked on every point."""
    check = check_uopc if lib.name == "uopc" else check_tinygrad
    roots = [build(lib, e) for e in expressions]
    results = [lib.simplify(root) for root in roots]
    entry = {"before": count_nodes(lib, roots), "after": count_nodes(lib, results)}
    checked, failures = 0, []
    for seed, (root, result, expected) in enumerate(zip(roots, results, references, strict=True)):
        points, found = check(seed, root, result, expected)
        checked, failures = checked + points, failures + found
    entry.update(points_checked=checked, failures=len(failures))
    del roots, results, root, result  # the loop's names too: no node may outlive this
    lib.forget()
    return entry, failures


def chain_claims(name: str, outcome: dict) -> list[str]:
    """A simplified chain is x + c in at most 4 nodes (tinygrad's variable has a shape node),
    and its value at x = 0 is 1 + 2 + ... + n, wrapped to int32 in uopc."""
    if not outcome.get("ok", True):
        return []  # a library that gave up is reported, not failed
    n = outcome["n"]
    total = n * (n + 1) // 2
    want = wrap(total) if name == "uopc" else total
    if outcome["size"] > 4 or outcome["value_at_0"] != want:
        return [f"{name}: the chain of {n:,} simplified to {outcome['size']} nodes, "
                f"{outcome['value_at_0']} at x = 0 (want {want})"]  # fmt: skip
    return []


def doubling(count: int) -> tuple[int, int]:
    p = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    for _ in range(count):
        p = p + p
    return len(p.toposort()), tree_size(p)


def graphs_block(sizes, memory, entry, doubled) -> list[str]:
    n = sizes["expressions"]
    before, after, speed = entry["before"], entry["after"], entry["simplify"]
    return [
        "building and simplifying graphs",
        f"  {n:,} index expressions over i, j, k in [0, 7] (seeds 0 to {n - 1:,})",
        f"  nodes, counted one expression at a time: {before['sum']:,}; "
        f"distinct: {before['distinct']:,}",
        f"  memory traced while building them: {memory['traced_bytes'] / 1024:,.0f} KiB, "
        f"{memory['bytes_per_distinct_node']:,.0f} bytes per distinct node  {MACHINE}",
        f"  simplify all {n:,}: {speed['wall'] * 1000:,.0f} ms, "
        f"{entry['nodes_per_second']:,.0f} nodes per second  {MACHINE}",
        f"  nodes after simplifying, counted one expression at a time: {after['sum']:,}",
        f"  p = p + p {sizes['doublings']} times: {doubled[0]:,} nodes by toposort, "
        f"{doubled[1]:,} as a tree (2**{sizes['doublings'] + 1} - 1)",
    ]


def ratio(a, b):
    return a / b if a is not None and b else None


def comparison(data, memory, sizes) -> dict:
    """Every figure of both libraries, and uopc/tinygrad for each, with the targets."""
    u, t = data["uopc"], data["tinygrad"]
    rows = {
        "nodes_before": (u["before"]["sum"], t["before"]["sum"]),
        "distinct_before": (u["before"]["distinct"], t["before"]["distinct"]),
        "nodes_after": (u["after"]["sum"], t["after"]["sum"]),
        "distinct_after": (u["after"]["distinct"], t["after"]["distinct"]),
        "simplify_seconds_wall": (u["simplify"]["wall"], t["simplify"]["wall"]),
        "simplify_seconds_cpu": (u["simplify"]["cpu"], t["simplify"]["cpu"]),
        "nodes_per_second": (u["nodes_per_second"], t["nodes_per_second"]),
        "nodes_per_second_cpu": (
            u["before"]["sum"] / u["simplify"]["cpu"],
            t["before"]["sum"] / t["simplify"]["cpu"],
        ),
        "bytes_traced": (memory["uopc"]["traced_bytes"], memory["tinygrad"]["traced_bytes"]),
        "bytes_per_distinct_node": (
            memory["uopc"]["bytes_per_distinct_node"],
            memory["tinygrad"]["bytes_per_distinct_node"],
        ),
        "chain_seconds_wall": (u["chain"]["wall"], t["chain"]["wall"]),
        "chain_seconds_cpu": (u["chain"]["cpu"], t["chain"]["cpu"]),
        "long_chain_seconds_wall": (
            u["long_chain"]["wall"] if u["long_chain"]["ok"] else None,
            t["long_chain"]["wall"] if t["long_chain"]["ok"] else None,
        ),
    }
    table = {
        name: {"uopc": a, "tinygrad": b, "uopc_over_tinygrad": ratio(a, b)}
        for name, (a, b) in rows.items()
    }
    targets = {
        "nodes_per_second": (">=", 4.0),
        "nodes_per_second_cpu": (">=", 4.0),
        "chain_seconds_wall": ("<=", 0.25),
        "chain_seconds_cpu": ("<=", 0.25),
        "bytes_per_distinct_node": ("<=", 0.75),
    }
    for name, (sense, bound) in targets.items():
        r = table[name]["uopc_over_tinygrad"]
        table[name]["target"] = f"{sense} {bound}"
        table[name]["met"] = r is not None and (r >= bound if sense == ">=" else r <= bound)
    table["long_chain_handled"] = {
        "uopc": u["long_chain"]["ok"],
        "tinygrad": t["long_chain"]["ok"],
        "target": "uopc handles it",
        "met": u["long_chain"]["ok"],
    }
    return table


def tinygrad_block(version, sizes, table, data) -> list[str]:
    n, chain, long = sizes["expressions"], sizes["chain"], sizes["long_chain"]

    def number(value, digits):
        if value is None:
            return "-"
        if isinstance(value, int):
            return f"{value:,}"
        return f"{value:,.{digits}f}"

    rows = [
        ("nodes before, per expression, summed", "nodes_before", 0),
        ("distinct nodes before", "distinct_before", 0),
        ("nodes after, per expression, summed", "nodes_after", 0),
        ("distinct nodes after", "distinct_after", 0),
        (f"simplify all {n:,}, ms (wall)", "simplify_seconds_wall", 1),
        (f"simplify all {n:,}, ms (cpu)", "simplify_seconds_cpu", 1),
        ("nodes per second (wall)", "nodes_per_second", 0),
        ("nodes per second (cpu)", "nodes_per_second_cpu", 0),
        ("bytes per distinct node", "bytes_per_distinct_node", 0),
        (f"chain of {chain:,} additions, s (wall)", "chain_seconds_wall", 2),
        (f"chain of {chain:,} additions, s (cpu)", "chain_seconds_cpu", 2),
        (f"chain of {long:,} additions, s (wall)", "long_chain_seconds_wall", 2),
    ]
    lines = [
        f"uopc against tinygrad {version}, in this run  {MACHINE}",
        f"  {n:,} index expressions over i, j, k in [0, 7], each simplified alone; best of "
        f"{sizes['repeats']} on fresh graphs",
        f"  {'figure':<40}{'uopc':>12}{'tinygrad':>12}{'uopc/tg':>9}  target",
    ]
    for label, key, digits in rows:
        row = table[key]
        scale = 1000 if key.startswith("simplify_seconds") else 1
        a = None if row["uopc"] is None else row["uopc"] * scale
        b = None if row["tinygrad"] is None else row["tinygrad"] * scale
        target = ""
        if "target" in row:
            target = f"{row['target']}: {'met' if row['met'] else 'MISSED'}"
        lines.append(
            f"  {label:<40}{number(a, digits):>12}{number(b, digits):>12}"
            f"{number(row['uopc_over_tinygrad'], 2):>9}  {target}"
        )
    u, t = data["uopc"], data["tinygrad"]
    lines.append(
        f"  {'points checked, all correct':<40}{u['points_checked']:>12,}{t['points_checked']:>12,}"
    )
    settings = {"uopc": "", "tinygrad": f", REWRITE_STACK_LIMIT={t['stack_limit']:,}"}
    for name, entry in (("uopc", u), ("tinygrad", t)):
        outcome = entry["long_chain"]
        if outcome["ok"]:
            text = (
                f"{outcome['wall']:.2f} s, {outcome['size']} nodes after, "
                f"value at x = 0: {outcome['value_at_0']:,}"
            )
        else:
            text = f"stops after {outcome['wall']:.2f} s with {outcome['error']}"
        lines.append(f"  {name}, chain of {long:,} at its defaults{settings[name]}:")
        lines.append(f"    {text}")
    raised = t.get("long_chain_raised")
    if raised is not None:
        limit = raised["limit"]
        text = (
            f"{raised['wall']:.2f} s, {raised['size']} nodes after"
            if raised["ok"]
            else f"stops after {raised['wall']:.2f} s with {raised['error']}"
        )
        lines.append(f"  tinygrad, chain of {long:,} with REWRITE_STACK_LIMIT={limit:,}:")
        lines.append(f"    {text}")
    lines += [
        "  every ratio is uopc/tinygrad; wall is perf_counter, cpu is process_time (this",
        "  process only, so less disturbed by other jobs); the targets are uopc's",
    ]
    return lines


SOURCES = ("uopc/*.py", "demos/bench.py", "demos/tinygrad_demo.py", "tests/common.py")


def sources() -> list[str]:
    """The files this benchmark's figures come from, sorted: the package, this program and
    the two it imports (the generator's constants, the lookup of tinygrad names)."""
    return sorted({str(p.relative_to(ROOT)) for pattern in SOURCES for p in ROOT.glob(pattern)})


def sources_hash() -> str:
    """sha256 over the name and the bytes of each source: a benchmark older than them shows."""
    digest = hashlib.sha256()
    for name in sources():
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes() + b"\0")
    return digest.hexdigest()


METHOD = """\
how the comparison is made
  - One generator draws each expression as library-neutral terms (seeds 0 to {last}); an
    adapter builds them in each library: uopc on i32 PARAMs with declared bounds, tinygrad
    on UOp.variable(name, lo, hi) in its index dtype, {index}.
  - Negation is each library's own: NEG in uopc, x*-1 in tinygrad (it has no integer NEG),
    so tinygrad's graphs have a few more nodes; each rate divides that library's own count.
  - Simplifier: uopc.symbolic.simplify; in tinygrad graph_rewrite(u, symbolic), which is
    what UOp.simplify runs. One call per expression in both.
  - Fresh graphs for every timed run, built untimed, after one untimed warm-up run; after
    each run every node it built must be freed (checked with weak references), and
    tinygrad's fold_divmod_general cache is cleared, so no run reuses another's ranges or
    rewrites. The libraries take turns, so a change in the machine's load falls on both.
  - The garbage collector is paused while timing both (uopc's rewrite pauses it itself).
  - Correctness: each simplified expression of each library on all {points} points, against
    the original term's value computed here with Python ints and floor division: wrapped
    to int32 for uopc (its contract), unwrapped for tinygrad (its index dtype does not
    wrap). uopc's results go through uopc.interp.evaluate, tinygrad's (and its original
    graphs) through an evaluator written here. Expressions that overflow int32: {overflowed}.
  - Memory: tracemalloc while each library builds the expressions, before this process
    has built any other graph, divided by the distinct nodes.
  - Chains: x + 1 + 2 + ... + n, built untimed, then simplified; best of {repeats}."""


def run(args) -> int:
    sizes = QUICK if args.quick else FULL
    json_path = args.json or (None if args.quick else ROOT / "out" / "bench" / "bench.json")
    version = tinygrad_version()
    libs = [Uopc()] + ([Tinygrad()] if version is not None else [])
    expressions = gen_expressions(sizes["expressions"])
    # memory first: nothing else built yet in either library (only tinygrad's import)
    memory = {lib.name: traced_build(lib, expressions) for lib in libs}
    gc.collect()
    same_as_common(expressions)

    relu_ns, relu_cpu_ns, lines = bench_relu(sizes)
    print("@@ block relu", *lines, sep="\n", flush=True)
    compile_times, lines = bench_compile(sizes)
    print("@@ block compile", *lines, sep="\n", flush=True)

    wrapped = [reference(e, wrapped=True) for e in expressions]
    exact = [reference(e, wrapped=False) for e in expressions]
    data, failures = {}, []
    for lib in libs:
        data[lib.name], found = measure(lib, expressions, wrapped if lib.name == "uopc" else exact)
        failures += found
    # one untimed turn first: it fills both libraries' lazily built matcher tables
    speeds = interleaved(libs, lambda lib: expressions_run(lib, expressions), sizes["repeats"], 1)
    chains = interleaved(libs, lambda lib: chain_run(lib, sizes["chain"]), sizes["repeats"], 0)
    for lib in libs:
        entry = data[lib.name]
        entry.update(simplify=speeds[lib.name], chain={"n": sizes["chain"], **chains[lib.name]})
        entry["nodes_per_second"] = entry["before"]["sum"] / entry["simplify"]["wall"]
        entry["long_chain"] = try_long_chain(lib, sizes["long_chain"])
        if lib.name == "tinygrad":
            entry["stack_limit"] = lib.stack_limit.value  # its default: nothing sets it here
        for key in ("chain", "long_chain"):
            failures += chain_claims(lib.name, entry[key])
    doubled = doubling(sizes["doublings"])
    print("@@ block graphs", *graphs_block(sizes, memory["uopc"], data["uopc"], doubled), sep="\n")
    if doubled != (sizes["doublings"] + 1, 2 ** (sizes["doublings"] + 1) - 1):
        failures.append(f"p = p + p: {doubled}")

    result = {
        "quick": args.quick,
        "sources_hash": sources_hash(),
        "sources": sources(),
        "relu_ns": relu_ns,
        "relu_cpu_ns": relu_cpu_ns,
        "compile_times": compile_times,
        "graphs": {
            "expressions": sizes["expressions"],
            "nodes": data["uopc"]["before"]["sum"],
            "distinct": data["uopc"]["before"]["distinct"],
            "traced_bytes": memory["uopc"]["traced_bytes"],
            "bytes_per_distinct_node": memory["uopc"]["bytes_per_distinct_node"],
            "simplify_seconds": data["uopc"]["simplify"]["wall"],
            "nodes_per_second": data["uopc"]["nodes_per_second"],
            "nodes_after": data["uopc"]["after"]["sum"],
            "doubling": {"count": sizes["doublings"], "nodes": doubled[0], "tree": doubled[1]},
        },
    }
    if version is None:
        print("@@ block tinygrad", "tinygrad is not installed: no comparison", sep="\n")
        result["tinygrad"] = {"version": None}
    else:
        if not args.quick:  # is the stack limit all that stops tinygrad? (about a minute)
            limit = 4 * sizes["long_chain"] + 100_000
            raised = try_long_chain(libs[1], sizes["long_chain"], stack_limit=limit)
            data["tinygrad"]["long_chain_raised"] = {**raised, "limit": limit}
        table = comparison(data, memory, sizes)
        lines = tinygrad_block(version, sizes, table, data)
        print("@@ block tinygrad", *lines, sep="\n")
        overflowed = sum(w != e for w, e in zip(wrapped, exact, strict=True))
        method = METHOD.format(
            last=sizes["expressions"] - 1, index=libs[1].index, points=len(POINTS),
            overflowed=overflowed, repeats=sizes["repeats"],
        )  # fmt: skip
        print("@@ block tinygrad-method", method, sep="\n")
        result["tinygrad"] = {
            "version": version,
            "expressions": sizes["expressions"],
            "domain_points": len(POINTS),
            "repeats": sizes["repeats"],
            "ratios": "uopc/tinygrad; seconds are wall (perf_counter) unless the key says cpu",
            "figures": table,
            "details": {name: data[name] for name in data},
            "memory": memory,
        }
    if failures:  # and no data file: a failed run must not replace the last good one
        print("\n".join(failures), file=sys.stderr)
        print(f"FAILED: {len(failures)} false claims (above)", file=sys.stderr)
        return 1
    if json_path is not None:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the test suite")
    parser.add_argument("--json", type=Path, help="where to write the data")
    sys.exit(run(parser.parse_args()))


if __name__ == "__main__":
    main()
