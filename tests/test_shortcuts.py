"""The twins of uopc/speed/node.py agree with the plain functions they stand in for.

Each twin gives an answer that the plain code would give anyway, sooner: the checker with its
table of binary dtypes (`infer` against `twins.plain_infer`), a rebuild that keeps the dtype
(`replace_src` against `UOp(op, src, arg)`), the ranges of a node whose srcs are known
(`fill_ranges` against `ranges.range_of`), and the engine skipping the question for an op no
rule looks at (`PatternMatcher.quiet`). Each test calls the twin and the plain function by name,
whether the overlay is installed or not, on every case there is, or on random graphs.
"""

import random
import re

import pytest

from uopc import typecheck
from uopc.dtypes import BOOL, F32, I32, VALUE_DTYPES, Ptr
from uopc.ops import ALU, Ops
from uopc.ranges import range_of
from uopc.rewrite import RewriteLimit, graph_rewrite
from uopc.speed import node as twins
from uopc.symbolic import default
from uopc.uop import UOp, UOpError
from verify.generators import gen_index_program, gen_program, param

SEEDS = range(60)


def outcome(function, *args):
    """What a call gives: its value, or the type and message of what it raised."""
    try:
        return ("value", function(*args))
    except (UOpError, TypeError, ValueError) as error:
        return ("error", type(error).__name__, str(error))


def stand_ins():
    """A src of every kind the checker tells apart: each value dtype, a pointer, a store."""
    values = [param(slot, dtype) for slot, dtype in enumerate(VALUE_DTYPES)]
    pointer = UOp(Ops.PARAM, arg=typecheck.ParamArg(3, Ptr(F32, 4)))
    index = UOp(Ops.INDEX, (pointer, UOp.const(0)))
    store = UOp(Ops.STORE, (index, UOp.const(1.0)))
    return [*values, pointer, store]


def test_the_dtype_table_agrees_with_the_checker_on_every_op_and_pair():
    nodes = stand_ins()
    for op in Ops:
        for first in nodes:
            for second in nodes:
                src = (first, second)
                assert outcome(twins.infer, op, src, None) == outcome(
                    twins.plain_infer, op, src, None
                ), (op, first, second)
    # the table holds exactly the pairs the checker accepts for its binary ops
    accepted = {
        (op, a, b)
        for op in ALU
        for a in VALUE_DTYPES
        for b in VALUE_DTYPES
        if outcome(twins.plain_infer, op, (param(0, a), param(1, b)), None)[0] == "value"
    }
    accepted = {(op._value_, a, b) for op, a, b in accepted}  # the table is keyed by value
    assert set(twins.BINARY_DTYPES) <= accepted
    assert {key for key in accepted if key[0] != Ops.WHERE._value_} == set(twins.BINARY_DTYPES)


def test_the_dtype_table_leaves_an_arg_or_a_third_src_to_the_checker():
    import enum

    class Other(enum.Enum):  # a member with the value of ADD is not ADD
        ADD = Ops.ADD._value_

    x = param(0, I32)
    for op in (Other.ADD, "ADD", None, 9):
        assert outcome(twins.infer, op, (x, x), None) == outcome(
            twins.plain_infer, op, (x, x), None
        )
    assert outcome(twins.infer, Ops.ADD, (x, x), 3) == outcome(
        twins.plain_infer, Ops.ADD, (x, x), 3
    )
    assert outcome(twins.infer, Ops.ADD, (x, x, x), None)[0] == "error"
    assert outcome(twins.infer, Ops.ADD, (x, 1), None) == outcome(
        twins.plain_infer, Ops.ADD, (x, 1), None
    )


def graphs():
    for seed in SEEDS:
        r = random.Random(seed)
        yield gen_program(r, ranges=True)[0]
        yield gen_index_program(r)[0]


def test_a_rebuild_gives_the_node_that_building_it_again_gives():
    pool = {dtype: [param(10 + i, dtype) for i in range(3)] for dtype in VALUE_DTYPES}
    r = random.Random(7)
    rebuilt = 0
    for root in graphs():
        for node in root.toposort():
            if not node.src:
                continue
            for _ in range(3):
                # new srcs: the same dtype mostly, another dtype now and then
                src = tuple(
                    r.choice(pool[r.choice(VALUE_DTYPES)] if r.random() < 0.2 else pool[s.dtype])
                    if isinstance(s.dtype, type(I32)) and r.random() < 0.5
                    else s
                    for s in node.src
                )
                # the checker first: once a node is in the table, UOp(...) finds it unchecked
                wanted = outcome(twins.plain_infer, node.op, src, node.arg)
                quick = outcome(twins.replace_src, node, src)
                assert quick[0] == wanted[0], (node, src, quick, wanted)
                if quick[0] == "value":
                    assert quick[1].dtype is wanted[1], (node, src)
                    assert quick[1] is UOp(node.op, src, node.arg)
                    rebuilt += 1
                else:
                    assert quick == wanted
    assert rebuilt > 1000


def test_every_range_filled_by_the_shortcut_is_the_one_the_table_gives():
    checked = 0
    for root in graphs():
        assert root.range  # fills every node under root, through the shortcut where it applies
        for node in root.toposort():
            assert node._range is not None, node  # every node under root has its triple
            assert node._range == range_of(node), node
            checked += 1
    assert checked > 1500
    # the shortcut's own case: the srcs are a node with its triple and a new leaf
    x = param(0, I32, 0, 9)
    assert x.range
    new = UOp.const(123457)  # a constant no earlier test built: no triple yet
    assert new._range is None
    assert (x + new).range == (123457, 123466, True) and new._range == (123457, 123457, True)


def test_every_node_filled_srcs_first_gets_the_triple_the_table_gives():
    """Asked srcs first, most nodes take the shortcut itself (its srcs known or leaves)."""
    quick = 0
    for root in graphs():
        for node in root.toposort():
            srcs_known = all(s._range is not None or not s.src for s in node.src)
            assert node.range == range_of(node), node
            quick += srcs_known and node.dtype in (I32, BOOL)
    assert quick > 500
    # through the quick door at the edges of int32: exact, then wrapping (anything goes)
    small, big = param(0, I32, -3, 4), param(1, I32, 2**30, 2**31 - 1)
    assert (small + small).range == (-6, 8, True)
    assert (big + big).range == (-(2**31), 2**31 - 1, False)
    assert (small * small).range == (-12, 16, True)
    assert (big * small).range == (-(2**31), 2**31 - 1, False)
    assert small.max(big).range == (2**30, 2**31 - 1, True)
    assert (small + UOp.const(-(2**31))).range == (-(2**31), 2**31 - 1, False)  # -3 + INT_MIN
    # a src that is bounded but not safe passes its unsafety on
    unsafe = (big * big).lt(0).cast(I32)
    assert unsafe.range == (0, 1, False)
    assert (unsafe + small).range == (-3, 5, False) and (small + unsafe).range[2] is False
    assert (unsafe * small).range == (-3, 4, False) and small.max(unsafe).range == (0, 4, False)
    assert (-unsafe).range == (-1, 0, False) and small.lt(0).where(unsafe, small).range == (
        -3,
        4,
        False,
    )


def test_the_checker_shortcut_for_constants_agrees_with_the_checker():
    values = [0, 1, -1, 2**31 - 1, -(2**31), 2**31, -(2**31) - 1, True, False, 0.5, "x", None]
    for value in values:
        for src in ((), (param(0, I32),)):
            assert outcome(twins.infer, Ops.CONST, src, value) == outcome(
                twins.plain_infer, Ops.CONST, src, value
            ), (value, src)


class Asking:
    """The default matcher, asked about every node: no op is skipped as quiet."""

    def __init__(self, pm):
        self.pm, self.fired, self.quiet = pm, pm.fired, frozenset()
        self.asked = 0

    def rewrite(self, u, ctx=None):
        self.asked += 1
        return self.pm.rewrite(u, ctx)


def test_skipping_the_quiet_ops_changes_no_result():
    assert Ops.CONST in default.quiet and Ops.PARAM in default.quiet
    assert not default.quiet & set(ALU)
    for root in graphs():
        asking = Asking(default)
        # both rewrites share the table: the second meets the first's nodes, so is compares
        assert graph_rewrite(root, default) is graph_rewrite(root, asking)


@pytest.mark.parametrize("limit", [5, 17, 40])
def test_skipping_the_quiet_ops_keeps_the_step_count(limit):
    """A node of a quiet op still counts as a step, so a limit stops at the same place."""
    x, y = param(0, I32), param(1, I32)
    root = ((x + 1) * (y + 2) + (x * 3 + y * 4)) // 5
    messages = []
    for pm in (default, Asking(default)):
        try:
            graph_rewrite(root, pm, limit=limit)
            messages.append("finished")
        except RewriteLimit as error:
            messages.append(str(error).split(";")[0])
    assert messages[0] == messages[1]


def test_the_shortcuts_keep_bool_and_float_nodes_apart():
    b, f = param(0, BOOL), param(1, F32)
    assert (b * b).dtype is BOOL and (f * f).dtype is F32
    assert outcome(lambda: b + b)[0] == "error"  # ADD is not defined on bool
    assert outcome(lambda: f // f)[0] == "error"  # FLOORDIV needs ints


def test_a_compiled_rule_whose_function_takes_keywords_only_is_called_by_keyword():
    from uopc.rewrite import PatternMatcher, Rule, UPat
    from uopc.speed.matcher import CompiledMatcher

    def swap(*, a, b):
        return UOp(Ops.ADD, (b, a)) if a.id > b.id else None

    # a lambda is never written into the generated code (speed/inline.py), so it stays a call,
    # by position: the two calls the compiled matcher can make are both compared here
    swap_by_position = lambda a, b: UOp(Ops.ADD, (b, a)) if a.id > b.id else None  # noqa: E731
    calls = {swap: r"fn\d+\(a=\S+, b=\S+\)", swap_by_position: r"fn\d+\(u_s0, u_s1\)"}

    x, y = param(0, I32), param(1, I32)
    for fn, call in calls.items():
        rules = [Rule("swap", UPat(Ops.ADD, src=(UPat(name="a"), UPat(name="b"))), fn, False)]
        plain, compiled = PatternMatcher(rules), CompiledMatcher(rules)
        assert re.search(call, compiled.source[Ops.ADD]), compiled.source[Ops.ADD]
        for node in (x + y, y + x):
            assert compiled.rewrite(node) is plain.rewrite(node)


def test_the_constructor_twin_builds_what_the_plain_one_builds():
    """UOp.__new__'s twin (the table by the op's value) against the plain constructor: the same
    node object, or the same error, for every op over srcs of every kind, and for what is not
    an op at all (another enum's member with the same value included)."""
    import enum

    from uopc import speed

    plain_new = speed.plain(UOp, "__new__").__func__

    class Other(enum.Enum):
        ADD = Ops.ADD._value_

    nodes = stand_ins()
    built = 0
    for op in [*Ops, Other.ADD, "ADD", None, 9]:
        for src in [(), *[(a,) for a in nodes], *[(a, b) for a in nodes for b in nodes]]:
            for arg in (None, 1, I32, [1]):
                quick = outcome(twins.new, UOp, op, src, arg)
                plain = outcome(plain_new, UOp, op, src, arg)
                if quick[0] == "value":
                    assert plain[0] == "value" and plain[1] is quick[1], (op, src, arg)
                    built += 1
                else:
                    assert quick == plain, (op, src, arg)
    assert built > 20  # the valid nodes among those mixes
    for root in graphs():  # every node of random graphs, asked again: the node itself
        for node in root.toposort():
            assert twins.new(UOp, node.op, node.src, node.arg) is node


def test_an_int_constant_is_found_by_its_key_only_while_the_key_functions_are_plain():
    """The constructor's twin finds a built int constant under ("int", value) without calling
    normalise_const and arg_key, while they are written as uop.py's (node.int_keys): the node
    the plain constructor finds, for ints, and bools and floats (which take the calls) apart."""
    from uopc import speed, uop

    plain_new = speed.plain(UOp, "__new__").__func__
    assert twins.INT_KEYS and twins.int_keys(uop.normalise_const, uop.arg_key)
    kept = [UOp.const(v) for v in (0, 1, -1, 7, 2**31 - 1, -(2**31), True, False, 1.0, 0.0)]
    for value in (0, 1, -1, 7, 2**31 - 1, -(2**31), True, False, 1.0, 0.0, -0.0, 5, 2**40):
        quick = outcome(twins.new, UOp, Ops.CONST, (), value)
        plain = outcome(plain_new, UOp, Ops.CONST, (), value)
        assert quick[0] == plain[0] and (quick[1] is plain[1] or quick == plain), value
    assert len(kept) == 10

    def slipped_key(arg):  # a planted bug in arg_key: then the calls are made
        if arg is None:
            return None
        if isinstance(arg, float):
            return ("f32", uop.f32_bits(arg))
        if isinstance(arg, bool | int):
            return ("int", arg)
        return arg

    assert not twins.int_keys(uop.normalise_const, slipped_key)
    assert not twins.int_keys(lambda value: value, uop.arg_key)


def test_the_forget_twin_drops_what_the_plain_one_drops():
    """node.forget (the callback of the weak references the _build twin makes) against
    uop._forget: the entry of a freed node goes, an entry replaced since by a newer node with
    that key stays, in both; and a node built through the twins leaves no entry when freed."""
    from types import SimpleNamespace

    from uopc import uop

    for key in [(1, 2), ("int", 7), ()]:
        for replaced in (False, True):
            outcomes = []
            for function in (uop._forget, twins.forget, "callback"):
                ref, newer = SimpleNamespace(key=key), SimpleNamespace(key=key)
                bucket = {key: newer if replaced else ref, "other": ref}
                if function == "callback":  # the bucket's own, made by forget_in
                    twins.forget_in(bucket)(ref)
                else:
                    function(*((bucket, ref) if function is uop._forget else (ref, bucket)))
                outcomes.append(sorted(map(repr, bucket)) + [bucket.get(key) is newer])
            assert outcomes[0] == outcomes[1] == outcomes[2], (key, replaced, outcomes)
    x = param(0, I32)
    constant = UOp.const(123_457)
    node = twins.new(UOp, Ops.ADD, (x, constant))
    bucket = twins.BUCKETS[Ops.ADD._value_]
    assert bucket[(x, constant)]() is node
    del node
    assert (x, constant) not in bucket
    # a node with an arg, in the other table, and one built into a bucket of neither
    del constant
    constants = twins.ARG_BUCKETS[Ops.CONST._value_]
    assert ("int", 123_457) not in constants
    constant = twins.new(UOp, Ops.CONST, (), 123_457)
    assert constants[("int", 123_457)]() is constant
    del constant
    assert ("int", 123_457) not in constants
    other = {}
    twins.FORGET[id(other)] = twins.forget_in(other)
    try:
        node = twins._build(UOp, Ops.ADD, (x, x), None, I32, other, "key")
        assert other["key"]() is node
        del node
        assert "key" not in other
    finally:
        del twins.FORGET[id(other)]


def test_the_twin_without_the_class_call_builds_what_the_class_call_builds():
    """UOp._binary's twin calls UOp.__new__ where the plain one calls the class: the same node
    object, or the same error, for every binary op over nodes, plain numbers of every kind and
    things that are neither."""
    from uopc import speed

    plain_binary = speed.plain(UOp, "_binary")
    values = [0, 1, -1, 2**31 - 1, 2**31, -(2**31) - 1, True, False, 0.0, -0.0, 1.5]
    values += [float("nan"), float("inf"), None, "text", [1], I32]
    nodes = [*stand_ins(), UOp.const(3), UOp.const(2.5), UOp.const(True)]
    checked = 0
    for op in [*ALU, Ops.STORE, Ops.INDEX]:
        for node in nodes:
            for other in [*nodes, *values]:
                quick = outcome(twins._binary, node, op, other)
                plain = outcome(plain_binary, node, op, other)
                assert quick[0] == plain[0], (op, node, other)
                assert quick[1] is plain[1] or quick == plain, (op, node, other)
                checked += quick[0] == "value"
    assert checked > 50  # the valid nodes among those mixes


def test_no_module_keeps_a_twin_after_uninstall():
    """A module that binds a name to a replaced function when it is imported (after install,
    which `import uopc` runs first) would keep the twin in plain mode: uninstall must leave no
    twin under any name of any module of uopc but the speed package's own."""
    import importlib
    import pkgutil
    import sys

    import uopc
    from uopc import speed

    for info in pkgutil.iter_modules(uopc.__path__):  # every module, as a program imports it
        if info.name != "__main__":
            importlib.import_module(f"uopc.{info.name}")
    twins_by_id = {}
    for _where, name, twin in speed.TWINS:
        function = getattr(twin, "__func__", twin)
        twins_by_id[id(function)] = name
    speed.uninstall()
    try:
        kept = [
            (module_name, name, twins_by_id[id(getattr(value, "__func__", value))])
            for module_name, module in list(sys.modules.items())
            if module_name.startswith("uopc") and not module_name.startswith("uopc.speed")
            for name, value in list(vars(module).items())
            if id(getattr(value, "__func__", value)) in twins_by_id
        ]
        assert not kept, f"modules that keep a twin in plain mode: {kept}"
    finally:
        speed.install()


def test_the_range_twin_gives_the_triple_the_table_gives(monkeypatch):
    """UOp.range's twin, asked node by node srcs first: the triple range_of gives, by its own
    short way for most integer nodes; with the ranges' twin left out, it leaves every missing
    triple to ranges.fill_ranges, as the plain property does."""
    from uopc import ranges

    written_in = 0
    for seed in SEEDS:
        root = gen_index_program(random.Random(1000 + seed))[0] * UOp.const(7919 + seed)
        for node in root.toposort():
            missing = node._range is None
            known = [s._range is not None for s in node.src]
            assert twins.node_range(node) == range_of(node) == node._range, node
            written_in += missing and len(known) == 2 and known[0] and node.dtype is I32
        if root.dtype is I32:  # over a new constant, which has no triple yet
            fresh = UOp.const(700_001 + seed)
            assert fresh._range is None
            assert twins.node_range(root + fresh) == range_of(root + fresh)
            assert fresh._range == (700_001 + seed, 700_001 + seed, True)
    assert written_in > 300
    from uopc import speed

    plain_fill = speed.plain(ranges, "fill_ranges")
    x = param(0, I32, 0, 9)
    assert x.range  # known: the twin's short way would apply
    asked = []
    monkeypatch.setattr(ranges, "fill_ranges", lambda u: asked.append(u) or plain_fill(u))
    node = x * UOp.const(104729)  # a constant no earlier test built: no triple yet
    assert twins.node_range(node) == (0, 942561, True) and asked == [node]
