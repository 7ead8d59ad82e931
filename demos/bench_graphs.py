"""Benchmark blocks `graphs` (uopc's side) and the parts of the comparison both libraries share.

One generator (`gen_term`) draws library-neutral index expressions; each library builds its own
graph from them through a small adapter (`Uopc` here, `Tinygrad` in bench_tinygrad.py). With the
uopc adapter the expressions give exactly the graphs of `verify/generators.gen_index_program`
(checked by `same_as_common`). The reference value of every expression at every point of the
domain is computed here with Python ints; the timed runs, the memory trace and the `graphs`
block are here too.
"""

import contextlib
import gc
import itertools
import operator
import random
import statistics
import sys
import tracemalloc
import weakref

from bench_clock import Clock, checked

from book.protocol import MACHINE_MARK as MACHINE
from uopc import I32, Ops, ParamArg, UOp, speed
from uopc.further import simplify_further
from uopc.interp import evaluate
from uopc.symbolic import simplify
from uopc.textfmt import dumps
from verify.generators import DIVISORS, INDEX_OPS, MULTIPLIERS, gen_index_program

RANGES = ((0, 7), (0, 7), (0, 7))  # i, j, k: 8 * 8 * 8 = 512 points, every one checked
NAMES = ("i", "j", "k")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

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
    """One index expression over i, j, k: the algorithm of `generators.gen_index_program`, drawing
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

    def mode(self):
        """What the timed part runs under: the speed overlay, as installed by `import uopc`."""
        return contextlib.nullcontext()

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

    def check(self, seed, original, result, expected):
        return check_uopc(seed, original, result, expected, self.name)


class UopcOverlay(Uopc):
    """uopc with the overlay installed but for the twins named in `without` (all of them: the
    plain code alone). Only the timed part runs so; the graphs are built as usual."""

    def __init__(self, name: str, without: tuple):
        self.name, self.without = name, without

    @contextlib.contextmanager
    def mode(self):
        speed.install(without=self.without)
        try:
            yield
        finally:
            speed.install()


def plain_uopc() -> UopcOverlay:
    return UopcOverlay("uopc, plain", tuple(speed.twin_names()))


def lock_cost(rounds: int = 1_000_000) -> float:
    """Cpu ns of entering and leaving the table's lock with `with`, as the plain code does once
    for each new node and once for each freed one (uopc/uop.py, TABLE_LOCK): the price of one
    node per structure under threads. The loop's own time is taken out."""
    from uopc.uop import TABLE_LOCK

    with Clock() as empty:
        for _ in range(rounds):
            pass
    with Clock() as clock:
        for _ in range(rounds):
            with TABLE_LOCK:
                pass
    return (clock.cpu - empty.cpu) / rounds * 1e9


def twins_weighed(expressions, turns: int) -> dict:
    """Cpu seconds of the expressions with every twin and with each left out in turn,
    interleaved (one untimed turn first); each figure over the time with every twin. (The plain
    code, every twin left out, is weighed in the pairs already: block overlay.)"""
    every = Uopc()
    configs = [every]
    configs += [UopcOverlay(f"uopc, without {name}", (name,)) for name in speed.twin_names()]
    times = interleaved(
        configs, f"simplify {len(expressions):,} expressions",
        lambda lib: expressions_run(lib, expressions), turns, 1,
    )  # fmt: skip
    base = times[every.name]["cpu"]
    return {lib.name: times[lib.name]["cpu"] / base for lib in configs[1:]}


class UopcFurther(Uopc):
    """uopc with the further integer rules on (uopc.further, off by default)."""

    name = "uopc, further rules on"

    def simplify(self, root):
        return simplify_further(root)


# ---------------------------------------------------------------------------------------------
# Values: the reference on expressions
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


def check_uopc(seed, original, result, expected, who: str = "uopc") -> tuple[int, list]:
    """(points checked, failures) of uopc's result, with uopc's own interpreter."""
    failures = []
    for point, want in zip(POINTS, expected, strict=True):
        got = evaluate(result, dict(enumerate(point)))
        if got != want:
            failures.append(
                f"{who}, seed {seed}: at (i, j, k) = {point} the simplified graph gives {got}, "
                f"the original {want}\n{dumps(original, 'original')}{dumps(result, 'simplified')}"
            )
            break
    return len(POINTS), failures


# ---------------------------------------------------------------------------------------------
# Timed runs and the memory trace
# ---------------------------------------------------------------------------------------------


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
    with lib.mode(), Clock() as clock:
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
    with lib.mode(), Clock() as clock:
        result = lib.simplify(chain)
    info = {"size": len(lib.nodes(result)), "value_at_0": lib.chain_value(result)}
    del chain, result
    lib.forget()
    gc.collect()
    return clock.wall, clock.cpu, info


def interleaved(libs, what: str, run_once, pairs: int, warmup: int) -> dict:
    """Wall and cpu seconds of `pairs` turns, in each turn every library once in the order of
    libs (uopc, then tinygrad: one pair), so that a slow moment of the machine falls on both
    runs of a pair; `warmup` untimed turns first. Each library's runs, in turn order (pair i is
    entry i of both lists), and their medians. Each run is checked (wall and cpu agree) under
    the name "<library>: <what>"."""
    out = {lib.name: {"walls": [], "cpus": []} for lib in libs}
    for turn in range(warmup + pairs):
        for lib in libs:
            wall, cpu, info = checked(f"{lib.name}: {what}", lambda lib=lib: run_once(lib))
            if turn >= warmup:
                out[lib.name]["walls"].append(wall)
                out[lib.name]["cpus"].append(cpu)
                out[lib.name].update(info)
    for entry in out.values():
        entry.update(wall=statistics.median(entry["walls"]), cpu=statistics.median(entry["cpus"]))
    return out


def spread(ratios: list[float]) -> dict:
    """The ratios of the pairs, in turn order, their median, and the lowest and the highest."""
    if not ratios:
        raise ValueError("no pairs")
    return {
        "pairs": list(ratios),
        "median": statistics.median(ratios),
        "min": min(ratios),
        "max": max(ratios),
    }


def try_long_chain(lib, n: int) -> dict:
    """One simplification of the chain of n at the library's defaults, on a chain built for
    it: its time, or the exception and how soon it came."""
    name = f"{lib.name}: the chain of {n:,}"
    outcome = checked(name, lambda: attempt(lib, lib.chain(n), n))[2]
    gc.collect()
    return outcome


STACK_ERROR = "stack too big"  # what tinygrad's RuntimeError says when its stack limit stops it


def stack_limit_runs(lib, n: int, long: int) -> tuple[dict, dict]:
    """tinygrad on the chain of `long` at its defaults; then, to see whether its stack limit is
    what stops it there, on the chain of n, which the pairs ran to the end at the default
    limit, with the limit lowered to n: on its way down tinygrad's stack holds about two
    entries per addition, so that run must stop at once with the same error. (Raising the
    limit until the long chain passes shows it too, for half a minute of tinygrad's time.)
    One chain serves both: the chain of n is the long one's source, long - n levels down."""
    chain = short = lib.chain(long)
    for _ in range(long - n):
        short = short.src[0]
    name = f"{lib.name}: the chain of {long:,}"
    at_default = checked(name, lambda chain=chain: attempt(lib, chain, long))
    name = f"{lib.name}: the chain of {n:,}, REWRITE_STACK_LIMIT={n:,}"
    lowered = checked(name, lambda short=short: attempt(lib, short, n, stack_limit=n))
    del chain, short
    gc.collect()
    return at_default[2], {**lowered[2], "limit": n}


def lowered_claims(outcome: dict) -> list[str]:
    """The lowered limit stopped tinygrad, and with its stack error."""
    if not outcome["ok"] and STACK_ERROR in outcome["error"]:
        return []
    got = "finished" if outcome["ok"] else f"stopped with {outcome['error']}"
    return [f"tinygrad, the chain of {outcome['n']:,} at REWRITE_STACK_LIMIT="
            f"{outcome['limit']:,}: {got}, not with {STACK_ERROR!r}"]  # fmt: skip


def attempt(lib, chain, n: int, stack_limit: int | None = None) -> tuple[float, float, dict]:
    """One timed simplification of the chain of n, with tinygrad's REWRITE_STACK_LIMIT set to
    stack_limit for the call when one is given: (wall, cpu, the outcome)."""
    lib.forget()
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
    del result
    lib.forget()
    return clock.wall, clock.cpu, outcome


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


def node_parts(count: int = 2_000) -> dict:
    """Bytes of one new i32 ADD node, part by part: the node, its src tuple, its id, the weak
    reference the table holds it by, and (what tracemalloc sees beyond those, per node) the
    table's entry. The nodes are x + c over constants built before the trace starts."""
    x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    constants = [UOp.const(1_000_000 + k) for k in range(count)]  # ids and values above 256
    gc.collect()
    tracemalloc.start()
    nodes = [x + c for c in constants]
    traced, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    one = nodes[-1]
    (ref,) = weakref.getweakrefs(one)  # the table's, the only one
    parts = {
        "node": sys.getsizeof(one),
        "src tuple": sys.getsizeof(one.src),
        "id": sys.getsizeof(one.id),
        "weak reference": sys.getsizeof(ref),
    }
    per_node = (traced - sys.getsizeof(nodes)) / count
    parts["table entry"] = round(per_node - sum(parts.values()))
    return parts


# ---------------------------------------------------------------------------------------------
# Block `graphs`
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
    """The uopc adapter's graphs are exactly verify/generators.gen_index_program's, seed by seed."""
    uopc = Uopc()
    for seed, expression in enumerate(expressions):
        theirs = gen_index_program(random.Random(seed), ranges=RANGES)[0]
        if build(uopc, expression) is not theirs:
            raise SystemExit(
                f"FAILED: seed {seed}: gen_term no longer draws what generators.gen_index_program "
                "draws; update gen_term to match it"
            )


def measure(lib, expressions, references, further=None) -> tuple[dict, list[str]]:
    """Nodes before and after, and every simplified expression checked on every point; with
    `further` (the same library, other rules: its entry under "further"), its results of the
    same graphs too, each checked where it is not the very node of the first's result (the
    same node has the same values, already checked)."""
    roots = [build(lib, e) for e in expressions]
    results = [lib.simplify(root) for root in roots]
    entry = {"before": count_nodes(lib, roots), "after": count_nodes(lib, results)}
    failures = on_points(lib, entry, roots, results, references)
    if further is not None:
        more = [further.simplify(root) for root in roots]
        entry["further"] = {"before": entry["before"], "after": count_nodes(further, more)}
        failures += on_points(further, entry["further"], roots, more, references, results)
        del more
    del roots, results  # no node may outlive this
    lib.forget()
    return entry, failures


def on_points(lib, entry, roots, results, references, checked=None) -> list[str]:
    """Each result checked on every point (a node of `checked`, seed by seed, counts as
    checked); the points and the failures go into entry, the failures' messages out."""
    points, failures = 0, []
    for seed, (root, result, expected) in enumerate(zip(roots, results, references, strict=True)):
        if checked is not None and result is checked[seed]:
            points += len(POINTS)
            continue
        found_points, found = lib.check(seed, root, result, expected)
        points, failures = points + found_points, failures + found
    entry.update(points_checked=points, failures=len(failures))
    return failures


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
        f"  nodes, counted one expression at a time: {before['sum']:,}",
        f"  distinct nodes: {before['distinct']:,}",
        f"  memory traced while building: {memory['traced_bytes'] / 1024:,.0f} KiB  {MACHINE}",
        f"  bytes per distinct node: {memory['bytes_per_distinct_node']:,.0f}  {MACHINE}",
        "  one new i32 ADD node, by part (bytes):  " + MACHINE,
        "    " + ", ".join(f"{part} {size}" for part, size in memory["parts"].items()),
        f"  simplify all {n:,}: {speed['wall'] * 1000:,.0f} ms wall, "
        f"{speed['cpu'] * 1000:,.0f} ms cpu  {MACHINE}",
        f"  nodes per second (cpu): {entry['nodes_per_second_cpu']:,.0f}  {MACHINE}",
        f"  nodes after, counted one expression at a time: {after['sum']:,}",
        f"  the same with the further rules on: {entry['further']['after']['sum']:,}",
        f"  p = p + p, {sizes['doublings']} times: {doubled[0]:,} nodes by toposort;",
        f"    as a tree {doubled[1]:,} (2**{sizes['doublings'] + 1} - 1)",
    ]
