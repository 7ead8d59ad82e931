"""Every rule of the strict and fast-math lists, where it must fire and where it must not.

Each case names a rule, builds an expression, and gives the expected result of `simplify`
(or None for "unchanged"). A firing case also checks that the named rule is the one that
fired, so a case cannot pass because some other rule happened to do the work.
"""

import contextlib
import math
import signal

import pytest

from book.protocol import size
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, Ops, ParamArg, UOp
from uopc.fold import fold
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.symbolic import (
    FAST,
    MAX_UNFOLDED,
    SYM,
    add_terms,
    default,
    fast,
    simplify,
    split,
    total,
)

C = UOp.const
x = UOp(Ops.PARAM, (), ParamArg(0, I32))  # no declared range
y = UOp(Ops.PARAM, (), ParamArg(1, I32))
i = UOp(Ops.PARAM, (), ParamArg(0, I32, 0, 15))
j = UOp(Ops.PARAM, (), ParamArg(1, I32, 0, 3))
k = UOp(Ops.PARAM, (), ParamArg(2, I32, 0, 7))
n = UOp(Ops.PARAM, (), ParamArg(2, I32, 8, 11))
big = UOp(Ops.PARAM, (), ParamArg(2, I32, 0, 2**30))
f = UOp(Ops.PARAM, (), ParamArg(1, F32))
g = UOp(Ops.PARAM, (), ParamArg(0, F32))
b = UOp(Ops.PARAM, (), ParamArg(2, BOOL))
c = UOp(Ops.PARAM, (), ParamArg(3, BOOL))

# (rule, expression, expected result; None means the expression must come back unchanged)
FIRES = [
    ("canonical order", lambda: C(3) + x, lambda: x + 3),
    ("canonical order", lambda: y * x, lambda: x * y),
    ("canonical order", lambda: y.ne(x), lambda: x.ne(y)),
    ("canonical order", lambda: C(2.0) * f, lambda: f * 2.0),
    ("range is a point", lambda: j.lt(4), lambda: C(True)),
    ("range is a point", lambda: (i + k) * 0, lambda: C(0)),
    ("range is a point", lambda: x % 1, lambda: C(0)),
    ("range is a point", lambda: (i * 4 + j) // 64, lambda: C(0)),
    ("max by range", lambda: j.max(C(-5)), lambda: j),
    ("range is a point", lambda: j.max(C(4)), lambda: C(4)),
    ("max by range", lambda: i.max(j - 3), lambda: i),
    ("x*1", lambda: x * 1, lambda: x),
    ("x*1", lambda: f * 1.0, lambda: f),
    ("x*-1", lambda: x * -1, lambda: -x),
    ("x*-1", lambda: f * -1.0, lambda: -f),
    ("x+(-0.0) (float)", lambda: f + C(-0.0), lambda: f),
    ("x+0 (int)", lambda: x + 0, lambda: x),
    ("-(-x)", lambda: UOp(Ops.NEG, (-f,)), lambda: f),
    ("-(-x)", lambda: UOp(Ops.NEG, (-x,)), lambda: x),
    ("-(x*c)", lambda: -(x * 3), lambda: x * -3),
    ("-(x*c)", lambda: -(f * 2.5), lambda: f * -2.5),
    ("-(x*c)", lambda: -(x * INT_MIN), lambda: x * INT_MIN),
    # second catcher for the planted bug "rule -(x*c): float constant wrapped"
    ("-(x*c)", lambda: -(f * math.inf), lambda: f * -math.inf),
    ("x+(-x) (int)", lambda: x + (-x), lambda: C(0)),
    ("max(x,x)", lambda: f.max(f), lambda: f),
    ("max(x,x)", lambda: x.max(x), lambda: x),
    ("x<x", lambda: f.lt(f), lambda: C(False)),
    ("x<x", lambda: x.lt(x), lambda: C(False)),
    ("cast to own dtype", lambda: f.cast(F32), lambda: f),
    ("cast to own dtype", lambda: b.cast(BOOL), lambda: b),
    ("x*True (bool)", lambda: b * True, lambda: b),
    ("where(const,a,b)", lambda: UOp(Ops.WHERE, (C(True), f, g)), lambda: f),
    ("where(const,a,b)", lambda: UOp(Ops.WHERE, (C(False), f, g)), lambda: g),
    ("where(c,a,a)", lambda: b.where(f, f), lambda: f),
    ("where(c,True,False)", lambda: b.where(True, False), lambda: b),
    ("where(c,False,True)", lambda: b.where(False, True), lambda: b.ne(C(True))),
    ("(x+c1)+c2", lambda: (x + 3) + 5, lambda: x + 8),
    ("(x+c1)+c2", lambda: (x + INT_MAX) + 1, lambda: x + INT_MIN),
    ("(x*c1)*c2", lambda: (x * 2) * 3, lambda: x * 6),
    ("(x+c1)*c2", lambda: (x + 3) * 5, lambda: x * 5 + 15),
    ("x//c trivial", lambda: x // -1, lambda: -x),
    ("x//c trivial", lambda: x // 0, lambda: C(0)),
    ("x%c trivial", lambda: x % 0, lambda: x),
    ("x%c inside one bucket", lambda: n % 4, lambda: n + -8),
    ("x%c inside one bucket", lambda: j % 4, lambda: j),
    ("x%c inside one bucket", lambda: n % -12, lambda: n + -12),
    ("(x//c1)//c2", lambda: (x // 3) // 5, lambda: x // 15),
    ("(x%c1)%c2", lambda: (x % 12) % 4, lambda: x % 4),
    ("(a*c1+b)//c2", lambda: (i * 4 + j) // 4, lambda: i),
    ("(a*c1+b)//c2", lambda: (i * 8 + k) // 8, lambda: i),
    ("(a*c1+b)//c2", lambda: (i * 6 + k) // 3, lambda: i * 2 + k // 3),
    ("(a*c1+b)%c2", lambda: (i * 4 + j) % 4, lambda: j),
    ("(a*c1+b)%c2", lambda: (i * 6 + k) % 6, lambda: k % 6),
    ("(a*c1+b)%c2", lambda: (i * 4 + 8) % 4, lambda: C(0)),
]

NOT_FIRES = [
    ("canonical order", lambda: x + y),
    ("canonical order", lambda: g.max(f)),  # float MAX does not commute
    ("range is a point", lambda: i + j),
    ("max by range", lambda: i.max(j)),
    ("x*1", lambda: x * 2),
    ("x*-1", lambda: f * -2.0),
    ("x+(-0.0) (float)", lambda: f + 0.0),  # +0.0 is not the identity: -0.0 + 0.0 is +0.0
    ("x+0 (int)", lambda: x + 1),
    ("-(-x)", lambda: -(f * 2.0)),
    ("-(x*c)", lambda: -(x * y)),
    ("x+(-x) (int)", lambda: f + (-f)),  # inf + -inf is nan
    ("x+(-x) (int)", lambda: x + (-y)),
    ("max(x,x)", lambda: f.max(g)),
    ("x<x", lambda: f.lt(g)),
    ("x<x", lambda: f.ne(f)),  # second catcher for "rule x<x: x!=x also false": nan != nan
    ("cast to own dtype", lambda: x.cast(F32)),
    ("x*True (bool)", lambda: b * c),
    ("where(const,a,b)", lambda: b.where(f, g)),
    ("where(c,a,a)", lambda: b.where(f, g)),
    # second catcher for "rule where(c,a,a): equal constants merged": 0.0 == -0.0 in Python
    ("where(c,a,a)", lambda: b.where(0.0, -0.0)),
    ("where(c,True,False)", lambda: b.where(c, False)),
    ("where(c,False,True)", lambda: b.where(True, c)),
    ("(x+c1)+c2", lambda: (x + y) + 5),
    ("(x+c1)+c2", lambda: (f + 1.0) + 2.0),  # float + does not regroup
    ("(x*c1)*c2", lambda: (f * 3.0) * 5.0),
    ("(x+c1)*c2", lambda: (f + 1.0) * 2.0),
    ("x//c trivial", lambda: x // 2),
    ("x%c trivial", lambda: x % 2),
    ("x%c inside one bucket", lambda: i % 4),
    ("(x//c1)//c2", lambda: (x // -3) // 5),
    ("(x//c1)//c2", lambda: (x // 65536) // 65536),  # the product does not fit
    ("(x%c1)%c2", lambda: (x % 12) % 5),
    ("(x%c1)%c2", lambda: (x % -12) % 4),
    ("(a*c1+b)//c2", lambda: (big * 4) // 4),  # big*4 may wrap
    ("(a*c1+b)//c2", lambda: (x * 4 + y) // 4),  # x*4 may wrap
    ("(a*c1+b)//c2", lambda: (i * 3 + j) // 4),  # no term is a multiple of 4
    ("(a*c1+b)//c2", lambda: (i * 4 + j) // -4),  # negative divisor
    ("(a*c1+b)%c2", lambda: (x * 4 + y) % 4),
    ("(a*c1+b)%c2", lambda: ((i * 2) * 2 + j) % 5),
]


def fired_by(expr, pm_rules):
    pm = PatternMatcher(pm_rules)
    return graph_rewrite(expr, pm), pm.fired


@pytest.mark.parametrize("name, build, expected", FIRES)
def test_rule_fires(name, build, expected):
    result, fired = fired_by(build(), fold.rules + SYM)
    assert fired[name] > 0, f"{name} did not fire; fired: {dict(fired)}"
    assert result is expected()


@pytest.mark.parametrize("name, build", NOT_FIRES)
def test_rule_does_not_fire(name, build):
    expr = build()
    result, fired = fired_by(expr, fold.rules + SYM)
    assert fired[name] == 0
    assert result is simplify(expr)


def test_split_refuses_a_remainder_that_may_wrap():
    """Second catcher for the planted bug "split remainder may overflow": a*3 + b + e always
    fits int32, but its remainder b + e alone may not, so the split must refuse."""
    a = UOp(Ops.PARAM, (), ParamArg(0, I32, -715827882, -357913941))  # a*3 < -2**30
    b1, e1 = (UOp(Ops.PARAM, (), ParamArg(slot, I32, 0, 2**30)) for slot in (1, 2))
    d = a * 3 + b1 + e1
    assert d.safe and not (b1 + e1).safe
    assert split(d, 3) is None
    q, r = split(a * 3 + b1, 3)  # with a remainder that fits, it splits: q is a*1
    assert simplify(q) is a and r is b1


UNCHANGED = [
    lambda: x + y,
    lambda: f + 0.0,
    lambda: f * 0.0,
    lambda: (big * 4) // 4,
    lambda: g.max(f),
    lambda: (f * 3.0) * 5.0,
]


@pytest.mark.parametrize("build", UNCHANGED)
def test_strict_leaves_unchanged(build):
    expr = build()
    assert simplify(expr) is expr


FAST_CASES = [
    ("x*0.0", lambda: f * 0.0, lambda: C(0.0)),
    ("x*0.0", lambda: f * -0.0, lambda: C(0.0)),
    ("x+0.0 (float)", lambda: f + 0.0, lambda: f),
    ("(x*c1)*c2 (float)", lambda: (f * 3.0) * 5.0, lambda: f * 15.0),
    ("x*recip(x)", lambda: f * UOp(Ops.RECIP, (f,)), lambda: C(1.0)),
    ("x+(-x) (float)", lambda: f + (-f), lambda: C(0.0)),
]


@pytest.mark.parametrize("name, build, expected", FAST_CASES)
def test_fast_math_rule(name, build, expected):
    result, fired = fired_by(build(), fold.rules + SYM + FAST)
    assert fired[name] > 0
    assert result is expected()
    assert simplify(build(), fast_math=True) is expected()


def test_rule_names_and_counts():
    assert [r.name for r in default.rules[:8]] == [
        "const fold", "inline call", "canonical order", "range is a point", "max by range",
        "x*1", "x*-1", "x+(-0.0) (float)",
    ]  # fmt: skip
    assert len(SYM) == 28 and len(FAST) == 5
    assert len(default.rules) == 30 and len(fast.rules) == 35
    assert len({r.name for r in SYM + FAST}) == 33
    names = [r.name for r in SYM]
    assert names.index("(x+c1)+c2") < names.index("x%c inside one bucket")
    assert names.index("x%c inside one bucket") < names.index("(x//c1)//c2")
    assert names[-2:] == ["(a*c1+b)//c2", "(a*c1+b)%c2"]


PER_OP = {
    Ops.ADD: 7, Ops.MUL: 8, Ops.NEG: 4, Ops.CMPLT: 3, Ops.FLOORDIV: 5, Ops.FLOORMOD: 6,
    Ops.WHERE: 6, Ops.CAST: 3, Ops.CONST: 0, Ops.LOAD: 0, Ops.CALL: 1,
}  # fmt: skip


@pytest.mark.parametrize("op, count", PER_OP.items())
def test_per_op_index(op, count):
    assert len(default.by_op[op]) == count


BOOK_RESULTS = [
    (lambda: ((x * 1) + 0) * (C(2) + 3), lambda: x * 5),
    (lambda: ((i * 4 + j) // 2) // 2, lambda: i),
    (lambda: (i + 3) + 5, lambda: i + 8),
    (lambda: (i * 2) * 3, lambda: i * 6),
]


@pytest.mark.parametrize("build, expected", BOOK_RESULTS)
def test_book_results(build, expected):
    assert simplify(build()) is expected()


def test_simplify_is_idempotent_on_examples():
    for build, _ in BOOK_RESULTS + [(b, None) for _, b, _ in FIRES]:
        once = simplify(build())
        assert simplify(once) is once


# A chain twenty times deeper than Python's default recursion limit at quick sizes, the
# benchmark's length with --full. Its addends are step * STRIDE: at the book's size 1 + 2 + ...
# + n wraps past INT_MAX by itself; the quick chain's steps are a thousand times larger so that
# its sum wraps too (more than once), at a seventh of the length that plain steps would need.
LONG_CHAIN = size(10_000, 200_000)
STRIDE = size(1_000, 1)


@pytest.mark.slow  # a second in plain mode: under -n 2 it starts early (tests/conftest.py)
def test_long_chain_of_additions():
    chain = x
    for step in range(1, LONG_CHAIN + 1):
        chain = chain + step * STRIDE
    assert len(chain.toposort()) == 2 * LONG_CHAIN + 1
    result = simplify(chain)
    total = STRIDE * LONG_CHAIN * (LONG_CHAIN + 1) // 2
    assert total > INT_MAX  # so that the folded constant wraps
    assert result is x + ((total - INT_MIN) % 2**32 + INT_MIN)  # -1474736480 at 200,000


def test_fast_constant_keeps_float32():
    # the regrouped constant is rounded to float32 by the constructor
    result = simplify((f * 0.1) * 3.0, fast_math=True)
    assert result.src[1].arg == UOp.const(0.1 * 3.0).arg
    assert not math.isnan(result.src[1].arg)


def test_floordiv_by_a_range_holding_minus_one_is_not_safe():
    # INT_MIN // -1 wraps to INT_MIN: a quotient whose divisor may be -1 is not exact
    divisor = UOp(Ops.PARAM, (), ParamArg(1, I32, -1, 1))
    assert not (x // divisor).safe
    assert (i // UOp(Ops.PARAM, (), ParamArg(1, I32, -1, 1))).safe  # i >= 0: no wrap


class TookTooLong(BaseException):
    """Raised by the alarm; a BaseException, so that no `except Exception` in uopc eats it."""


@contextlib.contextmanager
def alarm(seconds: int):
    """Fail, rather than hang, when the body runs past seconds (for walks that take
    milliseconds when right and hours when wrong: never a timing of the fast case)."""

    def ring(signum, frame):
        raise TookTooLong(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def doubled(base: UOp, depth: int) -> UOp:
    """base + base, that sum added to itself, and so on: depth ADDs, each used twice above."""
    node = base
    for _ in range(depth):
        node = node + node
    return node


p01 = UOp(Ops.PARAM, (), ParamArg(0, I32, 0, 1))


def test_a_sum_of_shared_adds_is_not_unfolded():
    """Issue 31: add_terms listed a shared ADD at each use, so `// 4` over 27 doublings walked
    2**27 terms. Depth 30 still fits i32 (so the split is tried, and gives up); depth 60 wraps
    (so `safe` refuses first). A regression unfolds 2**30 terms: the alarm makes that a
    failure instead of a hang."""
    with alarm(20):
        for depth in (30, 60):
            expr = doubled(p01, depth) // 4
            assert simplify(expr) is expr, depth
        assert add_terms(doubled(p01, 30)) is None


def test_add_terms_lists_trees_and_short_shared_sums_as_before():
    """The bound leaves ordinary sums alone: a tree of any size, and a shared sum of at most
    MAX_UNFOLDED terms, are listed term by term and split as before."""
    assert MAX_UNFOLDED == 4096
    assert add_terms(doubled(p01 * 4, 12)) == [p01 * 4] * 4096
    assert split(doubled(p01 * 4, 12), 4) == (total([p01 * 1] * 4096), None)  # q is p*1
    assert add_terms(doubled(p01 * 4, 13)) is None and split(doubled(p01 * 4, 13), 4) is None
    chain = x
    for k in range(MAX_UNFOLDED + 10):
        chain = chain + (y * 4 if k % 2 else x)
    assert add_terms(chain) == [x] + [x, y * 4] * (MAX_UNFOLDED // 2 + 5)
