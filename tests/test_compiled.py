"""The compiled matcher against the plain one (uopc/speed/matcher.py against uopc/rewrite.py).

Over the rule unit cases (every strict rule, firing and keeping) and thousands of random
graphs, both matchers are asked about every node and about whole graphs: they must return the
same node (hash consing makes that an identity test) and fire the same rule, which shows in
their `fired` counters. The rule sets are the strict set (with folding and inlining) and the
fast-math set; the test also checks that every one of their rules fired somewhere, so that no
rule escapes the comparison. Seeds are fixed; a failure prints the seed and the program.
"""

import os
import random

import pytest
from test_rules_unit import CASES

from uopc import F32, I32, Ops, ParamArg, UOp, rewrite, speed
from uopc.fold import FOLD, INLINE
from uopc.rewrite import PatternMatcher, RewriteLimit, UPat, graph_rewrite, rule
from uopc.speed.matcher import ARITY, CompiledMatcher, functions_by_dtype
from uopc.symbolic import FAST, SYM
from uopc.textfmt import dumps
from verify.generators import gen_index_program, gen_program

FULL = os.environ.get("UOPC_FULL") == "1"
# random programs of each generator: every rule that fires in the first 2,000 has fired by the
# 1,000th (the last, at seed 996), so the quick size loses no rule; --full runs 20 times as many
GRAPHS = 20_000 if FULL else 1_000
RULE_SETS = {"strict": FOLD + INLINE + SYM, "fast": FOLD + INLINE + SYM + FAST}


class PlainMatcher(PatternMatcher):
    """A matcher that asks with the plain rewrite, whether the overlay is installed or not."""

    rewrite = speed.plain(rewrite.PatternMatcher, "rewrite")


class Pair:
    """The plain and the compiled matcher over one rule list, asked the same questions.

    Whole graphs are rewritten in lockstep: graph_rewrite asks this pair, which asks both
    matchers about the same node and checks their answers before going on. (Two separate runs
    could differ without a fault: canonical order compares ids, and a node freed after the
    first run comes back with a new id in the second.)
    """

    def __init__(self, rules):
        self.plain = PlainMatcher(rules)
        self.compiled = CompiledMatcher(rules)
        self.by_dtype = CompiledMatcher(rules)  # asked through its functions of op and dtype
        self.fired = self.plain.fired  # what RewriteLimit reports
        self.quiet = frozenset()  # every node is asked about, so both matchers see it
        self.where = ""

    def rewrite(self, u, ctx=None):
        plain, compiled = self.plain.rewrite(u, ctx), self.compiled.rewrite(u, ctx)
        assert compiled is plain, f"{self.where}: {u!r}: compiled {compiled!r}, plain {plain!r}"
        assert self.compiled.fired == self.plain.fired, f"{self.where}: {u!r}: other rule fired"
        functions = functions_by_dtype(self.by_dtype).get(u.op)
        by_dtype = None if functions is None else functions[u.dtype](u, ctx)
        assert by_dtype is plain, f"{self.where}: {u!r}: by dtype {by_dtype!r}, plain {plain!r}"
        assert self.by_dtype.fired == self.plain.fired, f"{self.where}: {u!r}: by dtype, other"
        return plain

    def graph(self, root, where: str) -> None:
        self.where = where
        for u in root.toposort():  # every node of the input, as built
            self.rewrite(u)
        graph_rewrite(root, self)  # and every node that rewriting meets


def program_text(root) -> str:
    try:
        return dumps(root)
    except Exception as error:  # a program the text format cannot hold: show why instead
        return f"(not printable: {error})"


F = UOp(Ops.PARAM, (), ParamArg(1, F32))
FAST_CASES = [  # the unit cases cover the strict rules; these, the fast-math ones
    ("f*0.0", lambda: F * 0.0),
    ("f+0.0", lambda: F + 0.0),
    ("(f*2.0)*3.0", lambda: F * 2.0 * 3.0),
    ("f*recip(f)", lambda: F * UOp(Ops.RECIP, (F,))),
    ("f+(-f)", lambda: F + (-F)),
]


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_rule_cases_agree(name):
    pair = Pair(RULE_SETS[name])
    for case_name, _rule, _fires, build, _wanted in CASES:
        pair.graph(build(), f"{name} set, case {case_name}")
    for case_name, build in FAST_CASES:
        pair.graph(build(), f"{name} set, case {case_name}")
    # every rule of the set fired at least once, so none escaped the comparison
    silent = {r.name for r in RULE_SETS[name]} - set(pair.plain.fired)
    assert not silent, f"{name}: rules that never fired: {sorted(silent)}"


GENERATORS = {  # gen_program with declared ranges on odd seeds, so range rules fire too
    "gen_program": lambda r, seed: gen_program(r, ranges=seed % 2 == 1)[0],
    "gen_index_program": lambda r, seed: gen_index_program(r)[0],
}


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("generator", list(GENERATORS))
def test_random_graphs_agree(name, generator):
    pair = Pair(RULE_SETS[name])
    for seed in range(GRAPHS):
        r = random.Random(seed)
        root = GENERATORS[generator](r, seed)
        try:
            pair.graph(root, f"{name} set, {generator} seed {seed}")
        except AssertionError as error:
            raise AssertionError(f"{error}\n{program_text(root)}") from None


def looping_rules() -> list:
    """Two rules that undo each other, distribute and factor: a rewrite never settles."""
    x, y, z = UPat.var("x"), UPat.var("y"), UPat.var("z")
    rules = []
    rule("distribute", UPat(Ops.MUL, src=(UPat(Ops.ADD, src=(x, y)), z)), rules)(
        lambda x, y, z: x * z + y * z
    )
    rule(
        "factor", UPat(Ops.ADD, src=(UPat(Ops.MUL, src=(x, z)), UPat(Ops.MUL, src=(y, z)))), rules
    )(lambda x, y, z: (x + y) * z)
    return rules


def test_a_loop_is_stopped_alike():
    # both matchers count the same steps and firings
    start = gen_index_program(random.Random(0))[0]
    pair = Pair(looping_rules())
    with pytest.raises(RewriteLimit, match="more than 1000 rewrite steps"):
        graph_rewrite((start + 1) * 3, pair, limit=1000)


def test_generated_source_reads_as_the_rules():
    source = CompiledMatcher(SYM).source[Ops.FLOORDIV]
    assert source.startswith("def rewrite_FLOORDIV(u, ctx):")
    assert "    # x//c trivial\n" in source and "fired['x//c trivial'] += 1" in source
    assert CompiledMatcher(SYM).source[Ops.SINK] == "def rewrite_SINK(u, ctx):\n    return None"


def test_the_arity_table_is_the_checkers():
    """ARITY says how many srcs a node of each value op has: the checker must refuse every
    other number for every mix of value dtypes, and accept that number for some mix."""
    from itertools import product

    from uopc.dtypes import VALUE_DTYPES
    from uopc.uop import UOpError

    values = [UOp(Ops.PARAM, arg=ParamArg(slot, d)) for slot, d in enumerate(VALUE_DTYPES)]
    arg = {Ops.CAST: VALUE_DTYPES[1]}  # CAST takes its target dtype as its arg
    for op, count in ARITY.items():
        accepted = set()
        for n in range(5):
            for src in product(values, repeat=n):
                try:
                    UOp(op, src, arg.get(op))
                    accepted.add(n)
                except UOpError:
                    pass
        assert accepted == {count}, (op, accepted)
    # a function over a fixed-arity op names its node's srcs once, for every rule, without a
    # length test; a pattern names a deeper node's srcs where it meets them
    source = CompiledMatcher(SYM).source
    assert "len(" not in source[Ops.NEG] and "\n    u_s0, = u.src\n" in source[Ops.NEG]
    assert "u_s0.op is NEG and (r1_s0 := u_s0.src)" in source[Ops.NEG]


# ---------------------------------------------------------------------------------------------
# Rule bodies written into the generated code (uopc/speed/inline.py)
# ---------------------------------------------------------------------------------------------

BUILT: list = []  # ids of the nodes the rule "let go" built, in order


def loop_then_rest(u):
    # a return inside a loop, and the rest of the body after it
    for s in u.src:
        if s.op is Ops.CONST and s.arg == 5:
            return None
    return s if s.op is Ops.CONST and s.arg != 3 else None


def early_return_then_rest(x, c):
    if c.arg == 2:
        return x
    total = [s.arg for s in (c, c)]  # a comprehension, and a local
    if sum(total) == 12:
        return x * c
    return u_is_kept(x, c)


def u_is_kept(x, c):
    return None if c.arg != 7 else x + 1


def let_go(x, c):
    # builds a node, keeps it in a local and returns None: with the call, the node is freed
    # when the function returns, so the next rule builds it again under a new id
    node = x + 100
    BUILT.append(node.id)
    return None


def built_again(x, c):
    return x + 100 if c.arg == 9 else None


def closure_rule():
    k = 4

    def fn(x, c):
        return x + k if c.arg == k else None

    return fn


def test_inlined_rules_of_every_shape_agree_with_their_functions():
    from uopc.rewrite import Rule

    rules = []
    for name, fn, by in (
        ("loop then rest", lambda u: loop_then_rest(u), "mul"),  # a lambda: called
        ("loop then rest, inlined", loop_then_rest, "mul"),
        ("early return", early_return_then_rest, "add"),
        ("let go", let_go, "add"),
        ("built again", built_again, "add"),
        ("closure", closure_rule(), "add"),  # a closure: called
    ):
        pattern = (
            UPat(Ops.MUL, src=(UPat.var(), UPat.cvar()), name="u")
            if by == "mul"
            else UPat(Ops.ADD, src=(UPat.var("x"), UPat.cvar("c")))
        )
        rules.append(Rule(name, pattern, fn, False))
    compiled, plain = CompiledMatcher(rules), PlainMatcher(rules)
    add, mul = compiled.source[Ops.ADD], compiled.source[Ops.MUL]
    assert "fn" not in add.split("# closure")[0] and "fn" in add.split("# closure")[1]
    assert mul.count("= fn") == 1 and "for r1_s in" in mul  # the lambda's call; the loop, inlined
    x = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    for k in range(-2, 13):
        for node in (x + k, x * k, UOp(Ops.MUL, (x * 2, UOp.const(k)))):
            outcomes = []
            for matcher in (plain, compiled):
                BUILT.clear()
                result = matcher.rewrite(node)
                shape = None if result is None else dumps(result)  # (holding no node)
                # how many ids after the node "let go" built is the result's: the node let go
                # must be freed before the next rule builds it again, in both
                gap = result.id - BUILT[0] if result is not None and BUILT else None
                outcomes.append((shape, gap))
                del result  # so that the other matcher's rules find nothing of this one's
            assert outcomes[0] == outcomes[1], (k, node, compiled.source[node.op])
    assert compiled.fired == plain.fired and plain.fired["built again"] > 0


# ---------------------------------------------------------------------------------------------
# A node's range read from its cache in the inlined bodies (speed/matcher.py, cached_reads)
# ---------------------------------------------------------------------------------------------


def test_range_reads_come_from_the_cache_only_while_the_properties_are_plain():
    from uopc.speed.matcher import CACHED_READS, cached_reads

    plain = {name: vars(UOp)[name] for name in ("vmin", "vmax", "safe")}
    plain["range"] = speed.plain(UOp, "range")
    assert cached_reads(plain) == CACHED_READS
    assert set(CACHED_READS) == {"vmin", "vmax", "safe", "range"}
    source = CompiledMatcher(SYM).source[Ops.MAX]  # max by range: a.vmin >= b.vmax
    assert "._range or " in source and ".vmin" not in source and ".vmax" not in source
    # a property changed in uop.py (a planted bug) is read through the property, as written
    slipped = cached_reads({**plain, "vmin": property(lambda self: self.range[1])})
    assert "vmin" not in slipped and "vmax" in slipped
    assert cached_reads({**plain, "range": property(lambda self: self._range)}) == {}


def test_the_constructor_is_called_at_once_only_while_uop_const_is_plain():
    from uopc.speed.matcher import CALLS, constructor_calls

    plain_const = vars(UOp)["const"].__func__
    assert [target for target, _maker in CALLS] == [UOp, plain_const]
    source = CompiledMatcher(SYM).source[Ops.ADD]  # canonical order: UOp(u.op, (b, a))
    assert "UOp.__new__(UOp, r0_u.op, (r0_b, r0_a))" in source and "const(" not in source

    class Slipped(UOp):  # a const changed in uop.py (a planted bug): called as it is
        __slots__ = ()

        @staticmethod
        def const(value):
            return UOp(Ops.CONST, (), value + 1)

    assert [target for target, _maker in constructor_calls(Slipped)] == [Slipped]

    class Initialised(UOp):  # a class with an __init__ of its own: called as a class
        __slots__ = ()

        def __init__(self, *args):
            pass

    assert constructor_calls(Initialised) == []
