"""Patterns, the matcher and the rewrite engine, one case a line."""

import math

import pytest

import uopc.rewrite as rewrite_module
from book.protocol import size
from uopc import F32, I32, Ops, ParamArg, UOp
from uopc.rewrite import ANY, PatternMatcher, RewriteLimit, Rule, UPat, graph_rewrite, rule

C = UOp.const
a = UOp(Ops.PARAM, (), ParamArg(0, I32))
b = UOp(Ops.PARAM, (), ParamArg(1, I32))
f = UOp(Ops.PARAM, (), ParamArg(2, F32))
x, y = UPat.var("x"), UPat.var("y")
ADD_ADD_CONST = UPat(Ops.ADD, src=(UPat(Ops.ADD, src=(x, UPat.cvar("c1"))), UPat.cvar("c2")))

MATCHES = [
    (UPat(Ops.ADD, src=(x, x)), lambda: a + a, True),
    (UPat(Ops.ADD, src=(x, x)), lambda: (a + b) + (a + b), True),
    (UPat(Ops.ADD, src=(x, x)), lambda: a + b, False),
    (UPat(Ops.ADD, src=(x, x)), lambda: (a + b) + (b + a), False),
    (UPat(Ops.ADD, src=(x, y)), lambda: a + b, True),
    (UPat((Ops.ADD, Ops.MUL), src=(x, y)), lambda: a * b, True),
    (UPat(Ops.ADD, src=(x,)), lambda: a + b, False),  # src count must match
    (UPat(Ops.MUL, src=(x, y)), lambda: a + b, False),
    (UPat(Ops.ADD, dtype=F32, src=(x, y)), lambda: a + b, False),
    (UPat(Ops.ADD, dtype=(I32, F32), src=(x, y)), lambda: a + b, True),
    (UPat.cvar("c"), lambda: C(1), True),
    (UPat.cvar("c"), lambda: a, False),
    (UPat.cvar("c", dtype=F32), lambda: C(1), False),
    (UPat(Ops.CONST, arg=0.0), lambda: C(0.0), True),
    (UPat(Ops.CONST, arg=0.0), lambda: C(-0.0), False),  # the two zeros differ
    (UPat(Ops.CONST, arg=1), lambda: C(True), False),  # True is not 1
    (UPat(Ops.CONST, arg=math.nan), lambda: C(math.nan), True),  # nan matches nan
    (UPat(Ops.CONST, arg=ANY), lambda: C(7), True),
    (UPat(), lambda: a, True),
    (ADD_ADD_CONST, lambda: (a + 1) + 2, True),
    (ADD_ADD_CONST, lambda: (a + b) + 2, False),
]  # fmt: skip


@pytest.mark.parametrize("pattern, build, expected", MATCHES)
def test_match(pattern, build, expected):
    assert pattern.match(build(), {}) is expected


def test_match_binds_names():
    store = {}
    assert UPat(Ops.ADD, src=(x, UPat.cvar("c")), name="u").match(a + 5, store)
    assert store == {"x": a, "c": C(5), "u": a + 5}


def test_upat_stores_tuples():
    pattern = UPat(Ops.ADD, dtype=I32)
    assert pattern.op == (Ops.ADD,) and pattern.dtype == (I32,)


def test_rule_decorator_registers_and_returns_fn():
    registry = []

    def plain(x):
        return x

    def with_ctx(x, ctx):
        return ctx

    assert rule("one", UPat.var("x"), registry)(plain) is plain
    rule("two", UPat.var("x"), registry)(with_ctx)
    assert registry == [
        Rule("one", registry[0].pat, plain, False),
        Rule("two", registry[1].pat, with_ctx, True),
    ]


def test_matcher_index_order_and_counter():
    rules = []
    rule("add first", UPat(Ops.ADD, src=(x, y)), rules)(lambda x, y: y + x if x.id > y.id else None)
    rule("anything", UPat(name="u"), rules)(lambda u: None)
    pm = PatternMatcher(rules)
    assert [r.name for r in pm.by_op[Ops.ADD]] == ["add first", "anything"]
    assert [r.name for r in pm.by_op[Ops.MUL]] == ["anything"]
    assert pm.rewrite(b + a) is a + b and pm.rewrite(a + b) is None
    assert pm.fired["add first"] == 1
    combined = pm + PatternMatcher([])
    assert combined.fired == {} and len(combined.rules) == 2


def test_rule_returning_its_input_is_ignored():
    rules = []
    rule("identity", UPat(name="u"), rules)(lambda u: u)
    pm = PatternMatcher(rules)
    assert pm.rewrite(a) is None and pm.fired["identity"] == 0


def test_ctx_reaches_the_rule():
    rules = []
    rule("swap", UPat(Ops.PARAM, name="p"), rules)(lambda p, ctx: ctx.get(p))
    assert graph_rewrite(a + b, PatternMatcher(rules), ctx={a: b}) is b + b


def loop_matcher():
    rules = []
    distribute = UPat(Ops.MUL, src=(UPat(Ops.ADD, src=(x, y)), UPat.var("z")))
    factor = UPat(
        Ops.ADD, src=(UPat(Ops.MUL, src=(x, UPat.var("z"))), UPat(Ops.MUL, src=(y, UPat.var("z"))))
    )
    rule("distribute", distribute, rules)(lambda x, y, z: x * z + y * z)
    rule("factor", factor, rules)(lambda x, y, z: (x + y) * z)
    return PatternMatcher(rules)


def test_rewrite_limit_names_the_busiest_rules():
    with pytest.raises(
        RewriteLimit,
        match=r"more than 1000 rewrite steps; busiest rules: "
        r"\[\('distribute', 498\), \('factor', 497\)\]",  # the crossing question counts
    ):
        graph_rewrite((a + b) * C(3), loop_matcher(), limit=1000)


def test_default_limit_stops_a_loop_on_a_small_graph():
    # (a+b)*3 has 5 nodes: the base plus 100 questions per node
    with pytest.raises(RewriteLimit, match=r"more than 100500 rewrite steps"):
        graph_rewrite((a + b) * C(3), loop_matcher())


def test_default_limit_grows_with_the_graph(monkeypatch):
    # a chain that needs far more questions than the base: no loop, so no RewriteLimit
    monkeypatch.setattr(rewrite_module, "BASE_LIMIT", 50)
    chain = a
    for _ in range(2000):
        chain = chain + b
    counter = []
    rule("count", UPat(Ops.ADD, name="u"), counter)(lambda u: None)
    assert graph_rewrite(chain, PatternMatcher(counter)) is chain
    with pytest.raises(RewriteLimit, match="more than 1000 rewrite steps"):
        graph_rewrite(chain, PatternMatcher(counter), limit=1000)  # an explicit limit stays


def test_rewrite_limit_is_a_runtime_error():
    assert issubclass(RewriteLimit, RuntimeError)


def test_sharing_survives_and_each_node_is_asked_once():
    rules = []
    asked = []
    rule("count", UPat(name="u"), rules)(lambda u: asked.append(u))
    p = a
    for _ in range(30):
        p = p + p
    assert graph_rewrite(p, PatternMatcher(rules)) is p
    assert len(asked) == 31  # the graph, not the tree of 2**31 - 1 nodes


def test_replacement_is_rewritten_again():
    rules = []
    rule("mul to add", UPat(Ops.MUL, src=(x, y)), rules)(lambda x, y: x + y)
    rule("add of same", UPat(Ops.ADD, src=(x, x)), rules)(lambda x: x)
    assert graph_rewrite(a * a, PatternMatcher(rules)) is a


def test_deep_graph_is_rewritten_without_recursion():
    rules = []
    rule("b to a", UPat(Ops.PARAM, name="p"), rules)(lambda p: a if p is b else None)
    chain, n = b, size(20_000, 100_000)  # far more than Python's recursion limit either way
    for _ in range(n):
        chain = -chain
    result = graph_rewrite(chain, PatternMatcher(rules))
    assert result.toposort()[0] is a and len(result.toposort()) == n + 1
