"""The pipeline layers (verification.md §5.3): every claim about graphs, checked on random programs.

Each layer is a plain function `layer_<name>(sizes...) -> checks`, shared by the pytest test of
the book's name and by the script entry point:

    python tests/test_pipeline.py [--quick|--full] [--only=NAME]

Baselines: the reference interpreter (`uopc.interp`) for values, the contract (`eval_op`) plus
exact unbounded integers for ranges, a structural key computed here for hash consing. Every
random failure prints the seed, the inputs, both values and the program in the text format,
and is shrunk (`verify/shrink.py`) to a small program that still fails, printed too.

Invariants: program n of a layer comes from `random.Random(SEED_BASE[layer] + n)`, so a failure
names a reproducible seed; nothing here inserts the repository root in front of `sys.path`
(planted-bug runs put a mutated copy of `uopc` first on PYTHONPATH). The layers that evaluate a
program at many inputs (special, exhaustive, overflow) compute every value first, each node once
per distinct input (values_at: the interpreter's own steps, the same values), then check the
inputs in order; where some evaluation raises they go input by input as before, so that a
failure is met at the same input with the same report.
"""

import collections
import ctypes
import functools
import itertools
import math
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
import traceback

import pytest

from book import protocol
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, CallArg, Ops, ParamArg, Ptr, UOp, interp, runtime
from uopc.builder import signature_call
from uopc.fold import fold
from uopc.interp import evaluate
from uopc.ranges import param_bounds
from uopc.render import PRELUDE, render
from uopc.rewrite import graph_rewrite
from uopc.semantics import eval_op, f32, same
from uopc.symbolic import default, simplify
from uopc.textfmt import ParseError, dumps, loads
from verify import generators as common
from verify.generators import SPECIAL_FLOAT, SPECIAL_INT, gen_index_program, gen_program, rand_env
from verify.layers import (
    BOUNDARY,
    EXHAUSTIVE_POINTS,
    EXHAUSTIVE_RANGES,
    POINTS,
    SEED_BASE,
    SIZES,
    WIDE_RANGES,
    fast_program,
)
from verify.shrink import shrink


def sized(layer: str, name: str, given):
    """A size passed by the caller, else the quick or full size of the table."""
    return given if given is not None else protocol.size(*SIZES[layer][name])


# The numbers the book quotes from these layers, each stated (tests/protocol.state) by the layer
# that computes it, at the size it ran: key -> what it counts, and out of what.
NUMBERS = {
    "sound_programs": "random programs the sound layer simplifies, then simplifies again",
    "sound_inputs": "random inputs per program of the sound layer (original and simplified agree)",
    "special_programs_built": "programs the special layer built, its rare hand-made shapes first",
    "special_programs_changed": "programs of the special layer that simplify changed (compared)",
    "exhaustive_programs_built": "index programs the exhaustive layer built (all points each)",
    "exhaustive_programs_changed": "index programs of the exhaustive layer that simplify changed",
    "fast_programs": "random programs the fast layer simplifies with the fast-math rules",
    "fast_counterexamples": "programs of the fast layer on which fast math changed a value",
    "fast_first_counterexample": "the fast layer's first counterexample: seed, inputs, both values",
    "range_checks": "checks of the ranges layer: values inside ranges, safe nodes exact",
    "range_checks_safe": "of the ranges layer's checks, those that a safe node's value is exact",
    "fold_layer_programs": "random programs of the fold layer, called on constants and folded",
    "fold_layer_inputs": "sets of constant arguments per program of the fold layer",
    "fold_layer_special_percent": "per cent of the fold layer's arguments from the special lists",
    "fold_layer_checks_per_input": "checks per set of arguments: one CONST, of the right value",
    "zerodiv_divisions": "integer divisions and remainders the zerodiv layer ran in C",
}


def state(key: str, value) -> None:
    protocol.state(key, value, NUMBERS[key])


# ---------------------------------------------------------------------------------------------
# Failure reports: seed, inputs, both values, the program, and the program shrunk
# ---------------------------------------------------------------------------------------------


class LayerFailure(AssertionError):
    """A layer found a program on which a claim does not hold; the message says everything."""


def text_of(u) -> str:
    try:
        return dumps(u).rstrip("\n")
    except Exception as error:  # a broken text writer must not hide the failure being reported
        return f"<dumps failed: {type(error).__name__}: {error}>"


def guarded(check):
    """check(u) -> problem text or None, with an exception in the code under test as a problem."""

    def problem(u):
        try:
            return check(u)
        except Exception as error:
            return f"raised {type(error).__name__}: {error}"

    return problem


def fail(layer, seed, root, problem, env=None, batch=None, show=None):
    """Shrink root while it still fails, then raise LayerFailure with a reproducible report.

    problem(u) -> a description of what is wrong with u (naming both values) or None;
    batch(list of u) -> a list of such descriptions, when checking one at a time is slow (C);
    show(u) -> extra text printed under a program (its simplified form, its C).
    """
    if batch is not None:
        problem = lambda u: batch([u])[0]  # noqa: E731
        small = shrink(root, lambda us: [p is not None for p in batch(us)], batch=True)
    else:
        small = shrink(root, lambda u: problem(u) is not None)
    lines = [f"{layer} layer failed: {problem(root)}"]
    if seed is not None:
        lines.append(f"seed: {seed}")
    if env is not None:
        lines.append(f"inputs: {env}")
    for title, u in (("program", root), ("shrunk program", small)):
        lines += [f"{title} ({len(u.toposort())} nodes): {problem(u)}", text_of(u)]
        if show is not None:
            lines.append(guarded(show)(u))
    message = "\n".join(lines)
    print(message)
    raise LayerFailure(message)


def evaluator(root):
    """evaluate(root, env) as a function of env, for a program evaluated at many inputs: the
    interpreter's own walk, whose order (interp.outer_nodes) and table entries
    (interp.EVALUATE) are looked up at the first call and kept, not looked up again at every
    input, which halves the layers that evaluate one program at hundreds of inputs. The same
    values and the same errors, in the same order of work (test_evaluator_is_evaluate); made
    per program and dropped with it, so that no node lives longer than the layer holds it."""
    walk = {}

    def value(env):
        if "steps" not in walk:  # at the first call, as evaluate does: the order, then the table
            steps = [(node, interp.EVALUATE.get(node.op)) for node in interp.outer_nodes(root)]
            walk["steps"] = None if any(step is None for _, step in steps) else steps
        if walk["steps"] is None:
            return evaluate(root, env)  # a memory op: evaluate refuses it, and says why
        values = {}
        for node, step in walk["steps"]:
            values[node] = step(node, values, env)
        return values[root]

    return value


def exact_key(value):
    """A key equal only for the same value of the same type: a float by its bits (0.0 apart
    from -0.0, nans apart by their bits), True apart from 1, 1 apart from 1.0; a value of
    another type (none in the layers) has none."""
    kind = type(value)
    if kind is float:
        return (float, struct.pack("<d", value))
    if kind is int or kind is bool:
        return (kind, value)
    raise TypeError(f"no exact key for a {kind.__name__}")  # the caller goes point by point


def by_distinct_inputs(nodes, points, step, key=exact_key) -> dict | None:
    """{node: [its result at each point]}, each node's step run once per distinct input rather
    than once per point; None when some step raised (the caller then walks point by point, as
    before, and meets the same error at the same point, in the same order of work).

    nodes: in toposort order; step(node, {source: its result}, env) -> the node's result;
    key(result): its exact_key. A node's input at a point is its sources' results there, or for
    a PARAM the point's value of its slot; the same input gives the same result, so a step runs
    once per distinct input, and with env None but for a PARAM: a step that read env anyway
    would raise, and the caller would go point by point. In the layers over many points (E, F)
    a node sees about one distinct input in twenty-five of its points."""
    ids, found = {}, {}  # node -> the id (place in found[node]) of its result at each point
    try:
        for node in nodes:
            if node in ids:  # shared by two programs walked together
                continue
            if node.op is Ops.PARAM:
                inputs = [exact_key(point[node.arg.slot]) for point in points]
                where = {seen: i for i, seen in reversed(list(enumerate(inputs)))}
            else:
                columns = [ids[s] for s in node.src]
                inputs = list(zip(*columns, strict=True)) if columns else [()] * len(points)
            memo, results, known = {}, [], {}
            for seen in dict.fromkeys(inputs):  # each distinct input once, as first met
                sources = {s: found[s][k] for s, k in zip(node.src, seen, strict=False)}
                env = points[where[seen]] if node.op is Ops.PARAM else None
                result = step(node, sources, env)
                memo[seen] = known.setdefault(key(result), len(results))
                if memo[seen] == len(results):
                    results.append(result)
            ids[node], found[node] = [memo[seen] for seen in inputs], results
    except Exception:
        return None
    return {node: [found[node][k] for k in column] for node, column in ids.items()}


def values_at(roots, points) -> list | None:
    """[[evaluator(root)(env) for env in points] for root in roots] (the same values by the
    same walk: interp.outer_nodes and the steps of interp.EVALUATE), each node evaluated once
    per distinct input (by_distinct_inputs); None when some evaluation raised, or a root holds
    an op whose step reads more than its sources (a CALL: its body; memory): the caller then
    evaluates point by point."""
    try:  # a graph outer_nodes cannot walk: point by point it raises where it did before
        nodes = [node for root in roots for node in interp.outer_nodes(root)]
    except Exception:
        return None
    if any(node.op is Ops.CALL or node.op not in interp.EVALUATE for node in nodes):
        return None

    def step(node, sources, env):
        return interp.EVALUATE[node.op](node, sources, env)

    columns = by_distinct_inputs(nodes, points, step)
    return None if columns is None else [columns[root] for root in roots]


def simplified_text(u) -> str:
    return "simplified:\n" + text_of(simplify(u))


def value_problem(env, fast_math=False):
    """The check of claim 3 at one input: the simplified program gives the same value."""

    def check(u):
        want, got = evaluate(u, env), evaluate(simplify(u, fast_math=fast_math), env)
        return None if same(want, got) else f"original {want!r}, simplified {got!r}"

    return guarded(check)


def range_problem(env):
    """The root's value lies inside its range [vmin, vmax] (claim 4 at the root)."""

    def check(u):
        value = evaluate(u, env)
        if u.dtype in (I32, BOOL) and not u.vmin <= value <= u.vmax:
            return f"value {value!r} outside the range [{u.vmin}, {u.vmax}]"
        return None

    return guarded(check)


def simplify_or_fail(layer, seed, root, fast_math=False):
    try:
        return simplify(root, fast_math=fast_math)
    except Exception:
        fail(layer, seed, root, guarded(lambda u: simplify(u, fast_math=fast_math) and None))


def compare_values(layer, seed, root, simpler, env, want=None, simpler_value=None) -> int:
    """One check: original (value `want` if known) and simplified agree at env (`same`);
    simpler_value: evaluator(simpler), from a caller that evaluates it at many inputs."""
    want = evaluate(root, env) if want is None else want
    got = evaluate(simpler, env) if simpler_value is None else simpler_value(env)
    if not same(want, got):
        fail(layer, seed, root, value_problem(env), env, show=simplified_text)
    return 1


def check_root_range(layer, seed, root, env, value) -> int:
    """One check: the root's value at env lies inside [vmin, vmax]."""
    if not root.vmin <= value <= root.vmax:
        fail(layer, seed, root, range_problem(env), env)
    return 1


# ---------------------------------------------------------------------------------------------
# hash: one object per meaning (claim 2)
# ---------------------------------------------------------------------------------------------


def float_key(value: float):
    """A float arg keyed by its float32 bits, computed here (struct, not the package)."""
    if math.isnan(value):
        return ("float", "nan")  # every nan is one constant
    try:
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:  # rounds past the largest float32: an infinity of that sign
        bits = 0xFF800000 if value < 0 else 0x7F800000
    return ("float", bits)


def requested_arg_key(arg):
    """What was asked for: the type of a number and its value (float: its float32 bits)."""
    if isinstance(arg, float):
        return float_key(arg)
    if isinstance(arg, bool | int):
        return (type(arg).__name__, arg)  # True and 1 are different requests
    if arg in (BOOL, I32, F32):
        return ("dtype", arg.name)
    return arg  # None, ParamArg, CallArg: frozen records with value equality


class Requests:
    """Nodes built on request, each with a structural key made without the hash-cons table."""

    def __init__(self):
        self.ids = {}  # structural key -> a small number, so that keys stay flat
        self.pairs = []  # (key number, node); holding the nodes keeps every id() distinct

    def key(self, op, arg, src_keys) -> int:
        structure = (op.name, requested_arg_key(arg), tuple(src_keys))
        return self.ids.setdefault(structure, len(self.ids))

    def build(self, op, srcs, arg):
        """srcs: (key, node) pairs. Returns (key, node) of the node built from them."""
        key = self.key(op, arg, [k for k, _ in srcs])
        node = UOp(op, [n for _, n in srcs], arg)
        self.pairs.append((key, node))
        return key, node

    def record(self, u) -> int:
        """The key of an existing graph, from its stored fields; every node recorded."""
        keys = {}
        for node in u.toposort():
            keys[node] = self.key(node.op, node.arg, [keys[s] for s in node.src])
            self.pairs.append((keys[node], node))
        return keys[u]


NAN_OTHER_BITS = struct.unpack("<f", struct.pack("<I", 0x7FC00001))[0]  # a nan with a payload


def const_variants(value) -> list:
    """Constants that Python's == confuses with value, or that must merge with it."""
    if isinstance(value, bool):
        return [value, int(value), float(value), not value]
    if isinstance(value, int):
        close = [value, -value if value != INT_MIN else INT_MAX, float(value)]
        return close + ([bool(value)] if value in (0, 1) else [])
    halfway = value * (1 + 2.0**-30) if math.isfinite(value) else value  # rounds back to value
    return [value, -value, math.copysign(0.0, value), -math.copysign(0.0, value), halfway]


SAME_DTYPE = {bool: BOOL, int: I32, float: F32}


def request_program(requests: Requests, root):
    """Rebuild root node by node, and every node again with each constant src varied."""
    built = {}
    for node in root.toposort():
        if node.op is Ops.CONST:
            for value in const_variants(node.arg):
                requests.build(Ops.CONST, [], value)
        built[node] = requests.build(node.op, [built[s] for s in node.src], node.arg)
        for position, src in enumerate(node.src):
            if src.op is not Ops.CONST:
                continue
            for value in const_variants(src.arg):
                if SAME_DTYPE[type(value)] is not src.dtype:
                    continue  # another dtype would not type check in this position
                varied = list(built[s] for s in node.src)
                varied[position] = requests.build(Ops.CONST, [], value)
                requests.build(node.op, varied, node.arg)


ALWAYS_REQUESTED = (0.0, -0.0, math.nan, NAN_OTHER_BITS, 1, True, 1.0, 0, False, f32(0.1), 0.1)


def hash_requests(roots) -> tuple:
    """(requests, error): every request for the graphs under roots; error is the text of an
    exception that stopped the requests (a merged constant can make a rebuild ill typed)."""
    requests = Requests()
    try:
        for value in ALWAYS_REQUESTED:
            requests.build(Ops.CONST, [], value)
        for u in roots:
            requests.record(u)
            request_program(requests, u)
    except Exception as error:
        return requests, f"a request raised {type(error).__name__}: {error}"
    return requests, None


def hash_problems(requests: Requests):
    """Both directions: equal keys give one object, and no object carries two keys."""
    by_key, by_node, problems, checks = {}, {}, [], 0
    for key, node in requests.pairs:
        checks += 2
        first = by_key.setdefault(key, node)
        if first is not node:
            problems.append(f"one request, two objects: {first!r} and {node!r}")
        first_key = by_node.setdefault(node, key)
        if first_key != key:
            problems.append(f"two requests, one object {node!r}: {describe_key(requests, key)}")
    return problems, checks


def describe_key(requests: Requests, number: int) -> str:
    op, arg, _ = next(s for s, k in requests.ids.items() if k == number)
    if isinstance(arg, tuple) and arg[0] == "float" and isinstance(arg[1], int):
        return f"{op} float32 bits 0x{arg[1]:08x}"
    return f"{op} {arg}"


def hash_check(root):
    requests, error = hash_requests([root])
    problems, _ = hash_problems(requests)
    return problems[0] if problems else error


def layer_hash(programs=None) -> int:
    programs, checks = sized("hash", "programs", programs), 0
    for n in range(programs):
        seed = SEED_BASE["hash"] + n
        # half with declared ranges: a bounded and an unbounded PARAM must be two nodes
        root, _ = gen_program(random.Random(seed), ranges=n % 2 == 1)
        requests, error = hash_requests([root, simplify_or_fail("hash", seed, root)])
        problems, made = hash_problems(requests)
        if problems or error:
            fail("hash", seed, root, guarded(hash_check))
        checks += made
    return checks


# ---------------------------------------------------------------------------------------------
# sound, special, exhaustive, fast, overflow: simplify keeps every value (claim 3)
# ---------------------------------------------------------------------------------------------


def never_fired(fired_before: collections.Counter) -> list:
    """The default matcher's rules that produced no rewrite since fired_before was taken."""
    fired = default.fired - fired_before
    return [r.name for r in default.rules if fired[r.name] == 0]


def layer_sound(programs=None, inputs=None) -> int:
    programs, inputs = sized("sound", "programs", programs), sized("sound", "inputs", inputs)
    before, checks = collections.Counter(default.fired), 0
    for n in range(programs):
        seed = SEED_BASE["sound"] + n
        r = random.Random(seed)
        root, params = gen_program(r)
        simpler = simplify_or_fail("sound", seed, root)
        if simplify(simpler) is not simpler:
            fail("sound", seed, root, guarded(idempotence_problem), show=simplified_text)
        checks += 1
        root_value, simpler_value = evaluator(root), evaluator(simpler)
        for _ in range(inputs):
            env = rand_env(r, params)
            checks += compare_values("sound", seed, root, simpler, env, root_value(env),
                                     simpler_value)  # fmt: skip
    print(f"sound: rules that never fired in this layer: {never_fired(before)}")
    assert checks == programs * (1 + inputs), "sound: one check per program and one per input"
    state("sound_programs", programs)
    state("sound_inputs", inputs)
    return checks


def idempotence_problem(u):
    once = simplify(u)
    twice = simplify(once)
    return None if twice is once else "simplify(simplify(u)) is not simplify(u)"


SPECIAL_VALUES = {I32: SPECIAL_INT, F32: SPECIAL_FLOAT, BOOL: (False, True)}


def special_inputs(r, params, count) -> list:
    """count inputs built around the special values: every combination of them first (a seeded
    sample when there are more than count), then, up to count, inputs whose every value is a
    special one or a random one (common.rand_value, itself a mix) at even odds, so that one
    float parameter, with its few special values, still gets count inputs. A program without
    parameters has one input: a second would repeat it."""
    combinations = list(itertools.product(*(SPECIAL_VALUES[p.dtype] for p in params)))
    if len(combinations) > count:
        combinations = r.sample(combinations, count)
    while params and len(combinations) < count:
        combinations.append(tuple(special_or_random(r, p.dtype) for p in params))
    slots = [p.arg.slot for p in params]
    return [dict(zip(slots, values, strict=True)) for values in combinations]


def special_or_random(r, dtype):
    return r.choice(SPECIAL_VALUES[dtype]) if r.random() < 0.5 else common.rand_value(r, dtype)


# Shapes that strict rules match but random programs seldom build, each wrong under a plausible
# slip of its rule only at special values (inf, nan, a zero's sign, a zero divisor): the first
# programs of this layer are these, so that the unit cases are not their only check.
RARE_SHAPES = (
    lambda i, f, b: f + (-f),  # x+(-x): 0.0 is wrong at inf and nan
    lambda i, f, b: f.ne(f),  # x!=x is true at nan, unlike x<x
    lambda i, f, b: b.where(UOp.const(0.0), UOp.const(-0.0)),  # equal by ==, not the same
    lambda i, f, b: b.where(UOp.const(False), UOp.const(True)),  # not b
    lambda i, f, b: b.where(UOp.const(True), UOp.const(False)),  # b
    lambda i, f, b: i // UOp.const(0),  # 0 by the contract
)


def rare_shape_program(n):
    i, f, b = (UOp(Ops.PARAM, (), ParamArg(slot, dtype)) for slot, dtype in enumerate(SLOT_DTYPES))
    root = RARE_SHAPES[n](i, f, b)
    return root, common.used_params(root)


def layer_special(programs=None, inputs=None) -> int:
    programs = sized("special", "programs", programs)
    inputs = sized("special", "inputs", inputs)
    checks = changed = 0
    for n in range(programs):
        seed = SEED_BASE["special"] + n
        r = random.Random(seed)
        root, params = rare_shape_program(n) if n < len(RARE_SHAPES) else gen_program(r)
        simpler = simplify_or_fail("special", seed, root)
        if simpler is root:
            continue  # an unchanged program cannot differ from itself
        changed += 1
        points = special_inputs(r, params, inputs)
        checks += compare_at_points("special", seed, root, simpler, points)
    print(f"special: {changed} of {programs} programs changed by simplify; {checks} checks")
    state("special_programs_changed", changed)
    state("special_programs_built", programs)
    return checks


def compare_at_points(layer, seed, root, simpler, points) -> int:
    """compare_values at every point, in order, each value computed beforehand (values_at)
    where no evaluation raises, else point by point."""
    root_value, simpler_value = evaluator(root), evaluator(simpler)
    known, checks = values_at([root, simpler], points), 0
    for i, env in enumerate(points):
        want = root_value(env) if known is None else known[0][i]
        got = simpler_value if known is None else (lambda env, i=i: known[1][i])
        checks += compare_values(layer, seed, root, simpler, env, want, got)
    return checks


def compare_on_points(layer, seed, root, points) -> tuple:
    """(checks, changed): the root's range at every point, and original vs simplified at
    every point when simplify changed the program."""
    simpler = simplify_or_fail(layer, seed, root)
    checks = 0
    root_value, simpler_value = evaluator(root), evaluator(simpler)
    known = values_at([root, simpler], points)  # every value at once, if none raises
    for i, env in enumerate(points):
        value = root_value(env) if known is None else known[0][i]
        checks += check_root_range(layer, seed, root, env, value)
        if simpler is not root:
            got = simpler_value if known is None else (lambda env, i=i: known[1][i])
            checks += compare_values(layer, seed, root, simpler, env, value, got)
    return checks, simpler is not root


def layer_exhaustive(programs=None) -> int:
    programs, checks, changed = sized("exhaustive", "programs", programs), 0, 0
    for n in range(programs):
        seed = SEED_BASE["exhaustive"] + n
        root, _ = gen_index_program(random.Random(seed), EXHAUSTIVE_RANGES)
        made, was_changed = compare_on_points("exhaustive", seed, root, EXHAUSTIVE_POINTS)
        checks, changed = checks + made, changed + was_changed
    print(f"exhaustive: {changed} of {programs} programs changed by simplify; {checks} checks")
    state("exhaustive_programs_changed", changed)
    state("exhaustive_programs_built", programs)
    return checks


def fast_or_fail(seed, root):
    return simplify_or_fail("fast", seed, root, fast_math=True)


def layer_fast(programs=None, inputs=None) -> int:
    """Negative control: fast math must be caught changing a value; counts the programs."""
    programs, inputs = sized("fast", "programs", programs), sized("fast", "inputs", inputs)
    checks, found = 0, []
    for n in range(programs):
        seed, root, env, tried = fast_program(n, inputs, fast_or_fail)
        checks += tried
        if env is not None:
            found.append((seed, root, env))
    print(f"fast: {len(found)} counterexamples in {programs} programs")
    assert found, "fast math changed no value: the search cannot see an unsound rule"
    seed, root, env = found[0]
    problem = value_problem(env, fast_math=True)
    small = shrink(root, lambda u: problem(u) is not None)
    print(f"fast: first at seed {seed}, inputs {env}: {problem(root)}\n{text_of(root)}")
    state("fast_programs", programs)
    state("fast_counterexamples", len(found))
    state("fast_first_counterexample", f"seed {seed}, inputs {env}: {problem(root)}")
    print(f"fast: shrunk to {len(small.toposort())} nodes: {problem(small)}\n{text_of(small)}")
    return checks


def overflow_points(r, params) -> list:
    """Every combination of boundary values clamped to each range, then random points up to
    POINTS, each value a boundary value (clamped) or a random one of the range at even odds."""
    columns = []
    for p in params:
        lo, hi = p.arg.vmin, p.arg.vmax
        # the range is a promise rewrites rely on: a value outside it is clamped to it
        columns.append(sorted({min(max(v, lo), hi) for v in BOUNDARY}))
    slots = [p.arg.slot for p in params]
    points = [dict(zip(slots, vs, strict=True)) for vs in itertools.product(*columns)]
    for _ in range(max(protocol.size(*POINTS) - len(points), 0) if params else 0):
        values = [r.choice(c) if r.random() < 0.5 else r.randint(c[0], c[-1]) for c in columns]
        points.append(dict(zip(slots, values, strict=True)))
    return points


def changed_parts(layer, seed, root) -> list:
    """(node, simplified node) for every op node under root, root included, that simplify
    changes: a wrap inside a program is often hidden from the root by what follows it."""
    parts = []
    for u in root.toposort():
        if u.op not in (Ops.CONST, Ops.PARAM):
            simpler = simplify_or_fail(layer, seed, u)
            if simpler is not u:
                parts.append((u, simpler))
    return parts


def compare_parts(seed, root, parts, env, order=None, known=None) -> int:
    """The root's range, and every changed part against its simplified form, at env. parts:
    (part, simplified part, evaluator of the simplified part); order: root.toposort(); known:
    (the contract's value of every node, each simplified part's value) at env, computed
    beforehand for many points (overflow_values)."""
    if known is None:  # the contract's value of every node, in one pass
        wrapped, _ = node_values(root, env, order)
    else:
        wrapped = known[0]
    checks = check_root_range("overflow", seed, root, env, wrapped[root])
    for place, (part, _, simpler_value) in enumerate(parts):
        simpler = simpler_value(env) if known is None else known[1][place]
        if not same(wrapped[part], simpler):
            number = root.toposort().index(part)
            print(f"overflow: the program of seed {seed}, whose part %{number} fails:")
            print(text_of(root))
            fail("overflow", seed, part, value_problem(env), env, show=simplified_text)
        checks += 1
    return checks


def overflow_values(root, parts, order, points) -> list | None:
    """compare_parts's `known` at each point: the contract's values of the root and of the
    changed parts, and each simplified part's value (values_at); None when some evaluation
    raised (compare_parts then evaluates point by point, in its own order)."""
    wrapped = node_values_at(order, points)
    simpler = values_at([simpler for _, simpler, _ in parts], points)
    if wrapped is None or simpler is None:
        return None
    watched = [root, *(part for part, _, _ in parts)]
    return [
        ({u: wrapped[u][i][0] for u in watched}, [values[i] for values in simpler])
        for i in range(len(points))
    ]


def split_program(r):
    """(a*c + b) + e, divided by c or its remainder, each sum's operands in a random order: the
    shape of the divisible-terms split, on ranges under which every node of the program is
    safe (a*c in [-2**31, -2**30], b and e from 0). Half of them let b + e, the part the split
    leaves over, wrap (b and e up to 2**30): a split that forgets the leftover's own guard is
    wrong there. In the other half (up to 2**29) the split is right and fires, and its leftover
    is far larger than c: a split that drops r//c, or takes r%c for r, is wrong there, which the
    exhaustive domain, where the leftover stays below the divisor, cannot show. The random
    index programs seldom take this shape."""
    c = r.choice((2, 3, 4))
    top = 2**30 if r.random() < 0.5 else 2**29
    ranges = ((-(2**31 // c), -(2**30 // c)), (0, top), (0, top))
    a, b, e = (UOp(Ops.PARAM, (), ParamArg(s, I32, lo, hi)) for s, (lo, hi) in enumerate(ranges))
    inner = a * c + b if r.random() < 0.5 else b + a * c
    total = inner + e if r.random() < 0.5 else e + inner
    return UOp(r.choice((Ops.FLOORDIV, Ops.FLOORMOD)), (total, UOp.const(c))), [a, b, e]


def layer_overflow(programs=None) -> int:
    programs, checks, changed = sized("overflow", "programs", programs), 0, 0
    for n in range(programs):
        seed = SEED_BASE["overflow"] + n
        r = random.Random(seed)
        ranges = tuple(r.choice(WIDE_RANGES) for _ in range(3))
        if n % 5 == 4:  # one program in five has the split's shape
            root, params = split_program(r)
        else:
            root, params = gen_index_program(r, ranges)
        parts = changed_parts("overflow", seed, root)
        changed += any(part is root for part, _ in parts)
        parts = [(part, simpler, evaluator(simpler)) for part, simpler in parts]
        order = root.toposort()  # node_values walks it at every point
        points = overflow_points(r, params)
        known = overflow_values(root, parts, order, points)  # every value at once, if none raises
        for i, env in enumerate(points):
            checks += compare_parts(seed, root, parts, env, order, known and known[i])
    print(f"overflow: {changed} of {programs} programs changed by simplify; {checks} checks")
    return checks


# ---------------------------------------------------------------------------------------------
# ranges: every int/bool value inside [vmin, vmax]; a safe node never wraps (claim 4)
# ---------------------------------------------------------------------------------------------

# i32 ops on exact (unbounded) integers; the contract's version of each wraps the result.
EXACT = {
    Ops.ADD: lambda a, b: a + b,
    Ops.MUL: lambda a, b: a * b,
    Ops.NEG: lambda a: -a,
    Ops.MAX: lambda a, b: a if a > b else b,
    Ops.FLOORDIV: lambda a, b: 0 if b == 0 else a // b,
    Ops.FLOORMOD: lambda a, b: a if b == 0 else a % b,
    Ops.WHERE: lambda c, a, b: a if c else b,
}
NORMALISE = {I32: int, F32: lambda v: f32(float(v)), BOOL: bool}


def node_values(root, env, order=None):
    """Every node's contract (wrapped) value and its exact value, in toposort order (order:
    root.toposort(), from a caller that walks one program at many inputs).

    Only i32 nodes have an exact value of their own: bools and floats cannot wrap, and the
    range table marks every comparison and every cast to bool safe, so for them (and for a
    cast from f32, which saturates) the exact value is the contract's.
    """
    wrapped, exact = {}, {}
    for u in root.toposort() if order is None else order:
        wrapped[u], exact[u] = node_value(u, wrapped, exact, env)
    return wrapped, exact


def node_value(u, wrapped, exact, env) -> tuple:
    """(contract value, exact value) of u from its sources' (node_values), one node."""
    if u.op is Ops.CONST:
        value = u.arg
    elif u.op is Ops.PARAM:
        value = NORMALISE[u.dtype](env[u.arg.slot])
    else:
        value = eval_op(u.op, u.dtype, [wrapped[s] for s in u.src], u.arg)
    if u.dtype is I32 and u.op in EXACT:
        return value, EXACT[u.op](*(exact[s] if s.dtype is I32 else wrapped[s] for s in u.src))
    if u.dtype is I32 and u.op is Ops.CAST and u.src[0].dtype is I32:
        return value, exact[u.src[0]]
    return value, value


def node_values_at(order, points) -> dict | None:
    """{node: [(contract value, exact value) at each point]}, what node_values gives at each
    point, each node computed once per distinct input (by_distinct_inputs); None when some
    point raised (the caller then goes point by point and meets it there)."""

    def step(u, sources, env):
        wrapped = {s: pair[0] for s, pair in sources.items()}
        exact = {s: pair[1] for s, pair in sources.items()}
        return node_value(u, wrapped, exact, env)

    def key(pair):
        return exact_key(pair[0]), exact_key(pair[1])

    return by_distinct_inputs(order, points, step, key)


def range_violations(root, env, order=None):
    """(range checks, safe checks, first violation or None) over every int/bool node; order:
    root.toposort(), from a caller that checks one program at many inputs."""
    order = root.toposort() if order is None else order
    wrapped, exact = node_values(root, env, order)
    in_range = on_safe = 0
    for number, u in enumerate(order):
        if u.dtype not in (I32, BOOL):
            continue
        in_range += 1
        name, value = f"%{number} ({u.op.name})", wrapped[u]
        if not u.vmin <= value <= u.vmax:
            return in_range, on_safe, f"{name} = {value!r} outside [{u.vmin}, {u.vmax}]"
        if u.dtype is I32 and u.safe:
            on_safe += 1
            if exact[u] != value:
                return in_range, on_safe, f"{name} is safe but wraps: exact {exact[u]}, got {value}"
    return in_range, on_safe, None


def ranges_problem(env):
    return guarded(lambda u: range_violations(u, env)[2])


def ranges_program(r, n):
    """Even n: a random program with a bounded i32 param; odd n: an index program."""
    if n % 2 == 0:
        return gen_program(r, ranges=True)
    return gen_index_program(r, tuple(common.random_range(r) for _ in range(3)))


def layer_ranges(programs=None, inputs=None) -> int:
    programs, inputs = sized("ranges", "programs", programs), sized("ranges", "inputs", inputs)
    checks = safe_checks = 0
    for n in range(programs):
        seed = SEED_BASE["ranges"] + n
        r = random.Random(seed)
        root, params = ranges_program(r, n)
        order = root.toposort()
        for _ in range(inputs):
            env = rand_env(r, params)
            in_range, on_safe, problem = range_violations(root, env, order)
            if problem is not None:
                fail("ranges", seed, root, ranges_problem(env), env)
            checks += in_range + on_safe
            safe_checks += on_safe
    print(f"ranges: {checks} checks, {safe_checks} of them on safe nodes")
    state("range_checks", checks)
    state("range_checks_safe", safe_checks)
    return checks


# ---------------------------------------------------------------------------------------------
# fold: a call on constants folds to one constant, the interpreter's value (claim 5)
# ---------------------------------------------------------------------------------------------

SLOT_DTYPES = (I32, F32, BOOL)  # gen_program's params: i32 in slot 0, f32 in 1, bool in 2


FOLD_SPECIAL_SHARE = 0.4  # of the argument values, drawn from the special lists
FOLD_CHECKS_PER_INPUT = 2  # a single CONST, and the interpreter's value


def fold_value(r, dtype):
    """A share from the special lists, else the usual mix (which has specials of its own)."""
    if r.random() < FOLD_SPECIAL_SHARE:
        return r.choice(SPECIAL_VALUES[dtype])
    return common.rand_value(r, dtype)


def fold_problem(values):
    def check(u):
        call = UOp(Ops.CALL, (u, *map(UOp.const, values)), CallArg("f"))
        folded = graph_rewrite(call, fold)
        want = evaluate(u, dict(enumerate(values)))
        if folded.op is not Ops.CONST:
            return f"folded to a {folded.op.name}, not a CONST; interpreter {want!r}"
        return None if same(folded.arg, want) else f"folded {folded.arg!r}, interpreter {want!r}"

    return guarded(check)


def layer_fold(programs=None, inputs=None) -> int:
    programs, inputs = sized("fold", "programs", programs), sized("fold", "inputs", inputs)
    checks = 0
    for n in range(programs):
        seed = SEED_BASE["fold"] + n
        r = random.Random(seed)
        root, _ = gen_program(r)
        for _ in range(inputs):
            values = [fold_value(r, dtype) for dtype in SLOT_DTYPES]
            problem = fold_problem(values)
            if problem(root) is not None:
                fail("fold", seed, root, problem, dict(enumerate(values)))
            checks += FOLD_CHECKS_PER_INPUT
    assert checks == programs * inputs * FOLD_CHECKS_PER_INPUT, "fold: programs x inputs x checks"
    state("fold_layer_programs", programs)
    state("fold_layer_inputs", inputs)
    state("fold_layer_special_percent", round(FOLD_SPECIAL_SHARE * 100))
    state("fold_layer_checks_per_input", FOLD_CHECKS_PER_INPUT)
    return checks


# ---------------------------------------------------------------------------------------------
# text: loads(dumps(u)) is u, and damaged texts raise ParseError (claim 7)
# ---------------------------------------------------------------------------------------------


SMALL_EXPRESSIONS = {I32: lambda p: p + 3, F32: lambda p: p * 2.0, BOOL: lambda p: p.ne(True)}


def call_arguments(r, root):
    """One argument per slot: a constant, the param itself, or a small expression of it.

    Simplifying such a call inlines it and folds what became constant, so the simplified
    graphs exercise inlining and folding too.
    """
    params = {p.arg.slot: p for p in common.used_params(root)}
    arguments = []
    for slot, dtype in enumerate(SLOT_DTYPES):
        p = params.get(slot, UOp(Ops.PARAM, (), ParamArg(slot, dtype)))
        choice = r.randrange(3)
        if choice == 0:
            arguments.append(UOp.const(inside(p, common.rand_value(r, dtype))))
        elif choice == 1:
            arguments.append(p)
        else:
            arguments.append(small_expression(p))
    return arguments


def inside(p, value):
    """value, moved to the nearer bound if it lies outside p's declared range: the checker
    refuses a call whose argument may leave the range its PARAM declares."""
    if p.dtype is not I32:
        return value
    low, high = param_bounds(p.arg)
    return min(max(value, low), high)


def small_expression(p):
    """p + 3 (or its f32 and bool kin); for an i32 p whose declared range p + 3 may leave,
    max(p - 3, low), which stays inside [low, high]."""
    expression = SMALL_EXPRESSIONS[p.dtype](p)
    if p.dtype is I32:
        low, high = param_bounds(p.arg)
        if not (low <= expression.vmin and expression.vmax <= high):
            expression = (p - 3).max(low)
    return expression


def round_trip_problem(u):
    back = loads(dumps(u))
    return None if back is u else f"loads(dumps(u)) built another node: {back!r}, not {u!r}"


def text_problem(arguments, simplified):
    def check(u):
        call = UOp(Ops.CALL, (u, *arguments), CallArg("f"))
        return round_trip_problem(simplify(call) if simplified else call)

    return guarded(check)


H = "; uop v1\n"
P0 = "%0 = param : dtype=i32 slot=0\n"
P1F = "%1 = param : dtype=f32 slot=1\n"
BAD_TEXTS = [
    # the five of the book's error demo
    ("no header", P0 + "%1 = add %0, %0\n"),
    ("use before definition", H + "%0 = add %1, %1\n%1 = param : dtype=i32 slot=0\n"),
    ("unknown op", H + "%0 = sqrt\n"),
    ("bad source token", H + P0 + "%1 = add %0, %x\n"),
    ("ill-typed line", H + P0 + P1F + "%2 = add %0, %1\n"),
    # ten more
    ("wrong format version", "; uop v2\n" + P0),
    ("no nodes after the header", H),
    ("a key the op does not take", H + "%0 = const : dtype=i32 value=1 slot=0\n"),
    ("a line without '='", H + "%0 const : dtype=i32 value=1\n"),
    ("a name defined twice", H + P0 + "%0 = neg %0\n"),
    ("a missing key", H + "%0 = param : dtype=f32\n"),
    ("an int written as a float", H + "%0 = const : dtype=i32 value=1.5\n"),
    ("an unknown dtype", H + "%0 = const : dtype=f64 value=1.0\n"),
    ("a bool written as a number", H + "%0 = const : dtype=bool value=1\n"),
    ("an int beyond int32", H + "%0 = const : dtype=i32 value=2147483648\n"),
]


def check_bad_text(name, text) -> int:
    try:
        node = loads(text)
    except ParseError:
        return 1
    except Exception as error:
        outcome = f"raised {type(error).__name__}: {error}"
    else:
        outcome = f"was accepted as {node!r}"
    message = f"text layer failed: the bad text '{name}' {outcome}, not ParseError:\n{text}"
    print(message)
    raise LayerFailure(message)


def layer_text(programs=None) -> int:
    programs, checks = sized("text", "programs", programs), 0
    for n in range(programs):
        seed = SEED_BASE["text"] + n
        r = random.Random(seed)
        root, _ = gen_program(r, ranges=True)  # declared ranges, so min= and max= are written
        arguments = call_arguments(r, root)
        for simplified in (False, True):  # 300 random and 300 simplified graphs
            problem = text_problem(arguments, simplified)
            if problem(root) is not None:
                fail("text", seed, root, problem, show=simplified_text if simplified else None)
            checks += 1
    for name, text in BAD_TEXTS:
        checks += check_bad_text(name, text)
    return checks


# ---------------------------------------------------------------------------------------------
# render, zerodiv: the compiled C gives the interpreter's value (claim 6)
# ---------------------------------------------------------------------------------------------


class Crash:
    """The result of a call that killed the process running it (SIGFPE for a C division)."""

    def __init__(self, status: int):
        self.status = status

    def __repr__(self) -> str:
        try:
            return f"<crash: {signal.Signals(-self.status).name}>"
        except ValueError:
            return f"<crash: status {self.status}>"


def compile_calls(calls) -> str:
    """One shared library for many calls: one prelude, then every function (one compile)."""
    parts = [PRELUDE]
    for call in calls:
        source = render(call)
        if not source.startswith(PRELUDE):
            raise AssertionError(f"render output of {call.arg.name} does not start with PRELUDE")
        parts.append(source[len(PRELUDE) :])
    return runtime.compile_c("".join(parts))


def _encode(value) -> bytes:
    if isinstance(value, bool):
        return b"b1\n" if value else b"b0\n"
    if isinstance(value, int):
        return b"i%d\n" % value
    return b"f" + value.hex().encode() + b"\n"  # exact, also for -0.0, inf and nan


def _decode(line: str):
    kind, text = line[0], line[1:]
    return {"b": lambda t: t == "1", "i": int, "f": float.fromhex}[kind](text)


def _child(library, signatures, jobs, write_end) -> None:
    """In the forked child: run the jobs in order, one result line each, written at once."""
    lib = ctypes.CDLL(library)
    functions = {}
    for name, args in jobs:
        if name not in functions:
            functions[name] = getattr(lib, name)
            functions[name].argtypes, functions[name].restype = signatures[name]
        os.write(write_end, _encode(functions[name](*args)))


def _run_in_child(library, signatures, jobs):
    """(results, exit status): the results of the jobs run before the child ended."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns, never runs the parent's clean-up
        status = 0
        try:
            os.close(read_end)
            _child(library, signatures, jobs, write_end)
        except BaseException:
            traceback.print_exc()
            status = 70
        os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "r") as pipe:
        lines = pipe.read().splitlines()
    _, wait_status = os.waitpid(pid, 0)
    return [_decode(line) for line in lines], os.waitstatus_to_exitcode(wait_status)


def run_compiled(library, signatures, jobs) -> list:
    """Call every job (function name, args) in a forked child, so that a division trap in the
    C is a result (`Crash`) and not the end of the test run; the rest then run in a new child."""
    results = []
    while len(results) < len(jobs):
        done, status = _run_in_child(library, signatures, jobs[len(results) :])
        results += done
        if len(results) < len(jobs):
            if status >= 0:  # not a signal: the child itself failed (it printed why)
                raise RuntimeError(f"the process running compiled code exited with {status}")
            results.append(Crash(status))
    return results


def signature(call):
    argtypes = [runtime.CTYPE[a.dtype] for a in call.src[1:]]
    return argtypes, runtime.CTYPE[call.src[0].dtype]


def value_call(body, dtypes, name):
    """A CALL whose arguments only give the C signature (placeholders of the slot dtypes)."""
    return signature_call(body, dtypes, name)


def c_arguments(env, dtypes):
    zero = {BOOL: False, I32: 0, F32: 0.0}
    return [env.get(slot, zero[dtype]) for slot, dtype in enumerate(dtypes)]


def compiled_problems(dtypes, env):
    """batch(list of bodies) -> problems: each body compiled (one library) and run at env."""

    def batch(bodies):
        calls = [value_call(body, dtypes, f"shrink{i}") for i, body in enumerate(bodies)]
        library = compile_calls(calls)
        signatures = {call.arg.name: signature(call) for call in calls}
        args = c_arguments(env, dtypes)
        results = run_compiled(library, signatures, [(call.arg.name, args) for call in calls])
        problems = []
        for body, got in zip(bodies, results, strict=True):
            want = evaluate(body, env)
            problems.append(None if same(got, want) else f"C {got!r}, interpreter {want!r}")
        return problems

    return batch


def rendered_text(dtypes):
    def show(u):
        source = render(value_call(u, dtypes, "f"))
        return "C:\n" + source[len(PRELUDE) :].strip("\n")

    return show


BOUNDED_RANGES = ((0, 7), (0, 3), (1, 16), (0, 1000), (2, 9), (-4, 5))


def render_program(r, n):
    """(root, params, slot dtypes). Half the programs have bounded int params (odd n): a
    random program, or an index program ending in a division of a value >= 0 by a constant
    > 0, which takes C's plain `/` or `%` (the other half's divisions may happen to). A
    quarter end in a cast between float and int, where C's own conversion is undefined or
    rounds (the random programs rarely cast a float to an int)."""
    if n % 4 == 0:
        return (*gen_program(r), SLOT_DTYPES)
    if n % 4 == 2:
        root, params = gen_program(r)
        return root.cast(I32 if root.dtype is F32 else F32), params, SLOT_DTYPES
    if n % 4 == 1:
        return (*gen_program(r, ranges=True), SLOT_DTYPES)
    root, params = gen_index_program(r, tuple(r.choice(BOUNDED_RANGES) for _ in range(3)))
    divisor = UOp.const(r.choice((2, 3, 4, 8)))
    root = UOp(r.choice((Ops.FLOORDIV, Ops.FLOORMOD)), (root.max(0), divisor))
    return root, params, (I32, I32, I32)


def uses_plain_division(root) -> bool:
    return any(
        u.op in (Ops.FLOORDIV, Ops.FLOORMOD) and u.src[0].vmin >= 0 and u.src[1].vmin > 0
        for u in root.toposort()
    )


def layer_render(programs=None, inputs=None) -> int:
    programs, inputs = sized("render", "programs", programs), sized("render", "inputs", inputs)
    cases, calls, jobs, plain = [], [], [], 0
    for n in range(programs):
        seed = SEED_BASE["render"] + n
        r = random.Random(seed)
        root, params, dtypes = render_program(r, n)
        envs = [rand_env(r, params) for _ in range(inputs)]
        simpler = simplify_or_fail("render", seed, root)
        for kind, body in (("original", root), ("simplified", simpler)):
            call = value_call(body, dtypes, f"{kind[0]}{n}")
            plain += uses_plain_division(body)
            calls.append(call)
            for env in envs:
                cases.append((seed, kind, body, dtypes, env))
                jobs.append((call.arg.name, c_arguments(env, dtypes)))
    library = compile_calls(calls)
    signatures = {call.arg.name: signature(call) for call in calls}
    results = run_compiled(library, signatures, jobs)
    for (seed, kind, body, dtypes, env), got in zip(cases, results, strict=True):
        if not same(got, evaluate(body, env)):
            batch, show = compiled_problems(dtypes, env), rendered_text(dtypes)
            fail(f"render ({kind} program)", seed, body, None, env, batch, show)
    print(f"render: {plain} of {len(calls)} functions use C's plain / or %")
    assert plain > 0, "no function took the plain division path: the generator misses it"
    return len(jobs)


# (dividend ranges, divisor ranges): declared ranges of x and y in x // y and x % y. The plain
# C path needs a dividend range >= 0 and a divisor range > 0; (0, 4) and (-1, 0) sit at its edge.
ZERODIV_GRID = {
    "quick": (((0, 100), (INT_MIN, INT_MAX)), ((0, 4), (-3, 3), (-1, 0))),
    "full": (
        ((0, 100), (-100, 100), (0, INT_MAX), (INT_MIN, INT_MAX)),
        ((0, 4), (-4, 0), (-3, 3), (-1, 0), (1, 5), (INT_MIN, INT_MAX)),
    ),
}
DIVIDEND_VALUES = (INT_MIN, INT_MIN + 1, -100, -7, -1, 0, 1, 7, 99, 100, INT_MAX - 1, INT_MAX)
WIDE_DIVISOR_VALUES = (INT_MIN, -7, -2, -1, 0, 1, 2, 7, INT_MAX)


def values_in(lo, hi, wide):
    """Every value of a small range; for a wide one, the listed values inside it and its ends."""
    if hi - lo <= 10:
        return list(range(lo, hi + 1))
    return sorted({lo, hi, *(v for v in wide if lo <= v <= hi)})


def layer_zerodiv(grid=None) -> int:
    """grid: (dividend ranges, divisor ranges), by default ZERODIV_GRID's quick or full one."""
    dividends, divisors = grid or ZERODIV_GRID["full" if protocol.full() else "quick"]
    cases, calls, jobs = [], [], []
    for op, (xlo, xhi), (ylo, yhi) in itertools.product(
        (Ops.FLOORDIV, Ops.FLOORMOD), dividends, divisors
    ):
        x = UOp(Ops.PARAM, (), ParamArg(0, I32, xlo, xhi))
        y = UOp(Ops.PARAM, (), ParamArg(1, I32, ylo, yhi))
        call = value_call(UOp(op, (x, y)), (I32, I32), f"z{len(calls)}")
        calls.append(call)
        for a, b in itertools.product(
            values_in(xlo, xhi, DIVIDEND_VALUES), values_in(ylo, yhi, WIDE_DIVISOR_VALUES)
        ):
            cases.append((call.src[0], {0: a, 1: b}))
            jobs.append((call.arg.name, [a, b]))
    library = compile_calls(calls)
    signatures = {call.arg.name: signature(call) for call in calls}
    for (body, env), got in zip(cases, run_compiled(library, signatures, jobs), strict=True):
        want = evaluate(body, env)
        if not same(got, want):
            message = (
                f"zerodiv layer failed: inputs {env}: C {got!r}, interpreter {want!r}\n"
                f"{text_of(body)}\n{rendered_text((I32, I32))(body)}"
            )
            print(message)
            raise LayerFailure(message)
    state("zerodiv_divisions", len(jobs))
    return len(jobs)


# ---------------------------------------------------------------------------------------------
# pytest: one test per layer, with the book's names
# ---------------------------------------------------------------------------------------------


def report_layer(name, layer) -> None:
    """Run a layer, record its count and the default matcher's rules that fired in it.

    pytest's workers each run some of the layers, so the rules that fired in no layer are
    worked out from these lines (scripts/summary.py), not in any one process. A counted run
    (UOPC_COUNTS set: scripts/run_tests.py) runs the layer alone, in a fresh interpreter: see
    count_alone."""
    if os.environ.get("UOPC_COUNTS") and not os.environ.get("UOPC_LAYER_ALONE"):
        count_alone(name, layer)
    else:
        record_layer(name, layer)


def count_alone(name, layer) -> None:
    """The layer in a fresh interpreter, which records its lines itself. Canonical order
    compares ids, and a node that an earlier test left alive keeps its older id, so in a
    worker that has run other tests some rewrites go the other way and a count moves (the
    overflow layer's, by hundreds of checks, from one run of the suite to the next). Alone,
    the count is the same on every run, and the same as the layer run alone by hand."""
    code = f"import test_pipeline as t; t.record_layer({name!r}, t.{layer.__name__})"
    env = dict(os.environ, UOPC_LAYER_ALONE="1")
    here = os.path.dirname(os.path.abspath(__file__))  # `python -c` imports from its folder
    child = subprocess.run(
        [sys.executable, "-c", code],
        cwd=here,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    print(child.stdout, end="")
    if child.returncode != 0:
        pytest.fail(f"layer {name}, run alone, exited {child.returncode}:\n{child.stdout}")


def record_layer(name, layer) -> None:
    before = collections.Counter(default.fired)
    protocol.report("pipeline", name, layer())
    fired = default.fired - before
    protocol.figure("rules_default", [r.name for r in default.rules])
    protocol.figure(f"rules_fired_{name}", [r.name for r in default.rules if fired[r.name]])


@pytest.mark.layer("hash")
def test_hash():
    report_layer("hash", layer_hash)


@pytest.mark.layer("sound")
def test_rewrites_sound():
    report_layer("sound", layer_sound)


@pytest.mark.layer("special")
def test_special():
    report_layer("special", layer_special)


@pytest.mark.layer("exhaustive")
def test_exhaustive():
    report_layer("exhaustive", layer_exhaustive)


@pytest.mark.layer("fast")
def test_fast_math_unsound():
    report_layer("fast", layer_fast)


@pytest.mark.layer("overflow")
def test_overflow():
    report_layer("overflow", layer_overflow)


@pytest.mark.layer("ranges")
def test_ranges():
    report_layer("ranges", layer_ranges)


@pytest.mark.layer("fold")
def test_fold_run():
    report_layer("fold", layer_fold)


@pytest.mark.layer("text")
def test_text():
    report_layer("text", layer_text)


@pytest.mark.layer("render")
@pytest.mark.needs_clang
def test_render_vs_interp():
    report_layer("render", layer_render)


@pytest.mark.layer("zerodiv")
@pytest.mark.needs_clang
def test_render_zero_divisor():
    report_layer("zerodiv", layer_zerodiv)


# The layers' own evaluator: the interpreter's values and errors, input after input.


def outcome(value_of, env):
    """("value", the value) or ("error", its type and text): what one evaluation gave."""
    try:
        return ("value", value_of(env))
    except Exception as error:
        return ("error", type(error).__name__, str(error))


def agree(a, b) -> bool:
    return a[0] == b[0] == "value" and same(a[1], b[1]) or a[0] == b[0] == "error" and a == b


def evaluator_cases():
    """(program, inputs): random programs, calls of them on other arguments, an unbound input
    and an input outside int32 (evaluate raises), and a load from a buffer added to an input
    (evaluate refuses the buffer, an op its table does not hold)."""
    for seed in range(60):
        r = random.Random(seed)
        root, params = gen_program(r, ranges=seed % 2 == 1)
        envs = [rand_env(r, params) for _ in range(8)] + [{}, {0: 2**40, 1: 1.0, 2: True}]
        yield root, envs
        call = UOp(Ops.CALL, (root, *call_arguments(r, root)), CallArg("f"))
        yield call, envs
    buffer = UOp(Ops.BUFFER, (), ParamArg(1, Ptr(I32, 2)))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (buffer, UOp.const(0))),))
    yield _param(0, I32) + load, [{0: 1}]


def test_evaluator_is_evaluate():
    """evaluator(root)(env) gives evaluate(root, env), values and errors, at every input."""
    for root, envs in evaluator_cases():
        value_of = evaluator(root)
        for env in envs:
            want = outcome(functools.partial(evaluate, root), env)
            got = outcome(value_of, env)
            assert agree(want, got), f"{text_of(root)}\nat {env}: evaluate {want}, evaluator {got}"


def signed_zero_case():
    """1/x at 0.0 and -0.0 (inf and -inf): inputs equal by == but not the same, which a key by
    == alone would take for one."""
    x = _param(0, F32)
    return UOp(Ops.RECIP, (x,)), [{0: 0.0}, {0: -0.0}, {0: 0.0}, {0: math.nan}]


def test_values_at_is_evaluator():
    """values_at gives what evaluator gives at every point, or None where some point raises
    (an unbound input, one outside int32) or the program holds a CALL or a memory op; and it
    is used, not None, for the layers' own programs at their own points."""
    cases = [*evaluator_cases(), signed_zero_case()]
    for root, envs in cases:
        got = values_at([root], envs)
        want = [outcome(evaluator(root), env) for env in envs]
        if got is None:
            calls = any(node.op is Ops.CALL for node in root.toposort())
            memory = any(node.op not in interp.EVALUATE for node in root.toposort())
            assert calls or memory or any(w[0] == "error" for w in want), text_of(root)
            continue
        for env, w, g in zip(envs, want, got[0], strict=True):
            assert agree(w, ("value", g)), f"{text_of(root)}\nat {env}: {w}, values_at {g!r}"
    for n in range(20):
        root, _ = gen_index_program(random.Random(SEED_BASE["exhaustive"] + n), EXHAUSTIVE_RANGES)
        simpler = simplify(root)
        got = values_at([root, simpler], EXHAUSTIVE_POINTS)
        assert got is not None
        for u, values in zip((root, simpler), got, strict=True):
            pairs = zip(values, EXHAUSTIVE_POINTS, strict=True)
            assert all(same(v, evaluate(u, env)) for v, env in pairs)


def test_node_values_at_is_node_values():
    """node_values_at gives node_values's pair of every node at every point of the overflow
    layer's programs, or None when a point raises (an unbound input)."""
    for n in range(15):
        r = random.Random(SEED_BASE["overflow"] + n)
        ranges = tuple(r.choice(WIDE_RANGES) for _ in range(3))
        root, params = split_program(r) if n % 5 == 4 else gen_index_program(r, ranges)
        order, points = root.toposort(), overflow_points(r, params)[:200]
        got = node_values_at(order, points)
        assert got is not None
        for i, env in enumerate(points):
            wrapped, exact = node_values(root, env, order)
            for u in order:
                assert same(got[u][i][0], wrapped[u]) and got[u][i][1] == exact[u]
        if params:
            assert node_values_at(order, [*points, {}]) is None


# The shrinker itself: a failure report is only as good as the program it shows.


def _param(slot, dtype):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype))


def test_shrink_keeps_one_floormod():
    x, y, b = _param(0, I32), _param(1, F32), _param(2, BOOL)
    inner = (x * 3 + 7) % (x + 2)
    root = b.where(inner.cast(F32) * y, y + 1.0).cast(I32) + x
    has_floormod = lambda u: any(n.op is Ops.FLOORMOD for n in u.toposort())  # noqa: E731
    small = shrink(root, has_floormod)
    assert small.op is Ops.FLOORMOD
    assert all(s.op in (Ops.CONST, Ops.PARAM) for s in small.src)


def test_shrink_keeps_the_failure_and_stops():
    x = _param(0, I32)
    root = (x + 5) * 2 + x // 3 + x * 7  # -28 at x = -4
    negative_at_minus_4 = lambda u: evaluate(u, {0: -4}) < 0  # noqa: E731
    assert shrink(root, negative_at_minus_4) is UOp.const(-1)  # the simplest negative graph
    assert shrink(root, lambda u: False) is root  # nothing keeps the failure: root unchanged


def test_shrink_batch_mode_agrees():
    x = _param(0, I32)
    root = (x + 1) * (x % 5) + 3
    has_floormod = lambda u: any(n.op is Ops.FLOORMOD for n in u.toposort())  # noqa: E731
    small = shrink(root, lambda us: [has_floormod(u) for u in us], batch=True)
    assert small.op is Ops.FLOORMOD


# ---------------------------------------------------------------------------------------------
# Script entry point
# ---------------------------------------------------------------------------------------------

LAYERS = {
    "hash": layer_hash,
    "sound": layer_sound,
    "special": layer_special,
    "exhaustive": layer_exhaustive,
    "fast": layer_fast,
    "overflow": layer_overflow,
    "ranges": layer_ranges,
    "fold": layer_fold,
    "text": layer_text,
    "render": layer_render,
    "zerodiv": layer_zerodiv,
}
NEEDS_CLANG = ("render", "zerodiv")


def main(argv) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="the pipeline layers of verification.md §5.3")
    size_group = parser.add_mutually_exclusive_group()
    size_group.add_argument("--quick", action="store_true", help="quick sizes (the default)")
    size_group.add_argument("--full", action="store_true", help="the book's sizes")
    parser.add_argument("--only", choices=list(LAYERS), help="run one layer")
    options = parser.parse_args(argv)
    os.environ["UOPC_FULL"] = "1" if options.full else "0"
    names = [options.only] if options.only else list(LAYERS)
    before, failed = collections.Counter(default.fired), []
    for name in names:
        if name in NEEDS_CLANG and shutil.which(runtime.CC) is None:
            if options.full:
                print(f"{name}: FAILED: {runtime.CC} is not installed")
                failed.append(name)
            else:
                print(f"{name}: skipped, {runtime.CC} is not installed")
            continue
        start, cpu = time.perf_counter(), time.process_time()
        try:
            report_layer(name, LAYERS[name])
        except LayerFailure:
            failed.append(name)  # the report is printed already
        except Exception as error:
            traceback.print_exc()
            print(f"{name}: {type(error).__name__}: {error}")
            failed.append(name)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{name}: {wall:.1f} s ({cpu:.1f} s CPU in this process)")
    if len(names) > 1:
        print(f"rules of the default matcher that never fired in this run: {never_fired(before)}")
    if failed:
        print(f"FAILED layers: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
