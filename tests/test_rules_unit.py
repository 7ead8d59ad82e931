"""The unit layer: hand-written rule cases and point checks (verification §5.2).

A *case* is one expression and the result `simplify` must give for it (SAME: it must come back
unchanged), plus the rule the case is about and whether that rule must fire or must not. Every
strict rule of `SYM` has at least one case where it fires and one where it does not, so a rule
that fires too often or too seldom is noticed (§9.5: a mutant that only fires less passes every
random layer). A *point check* evaluates an expression and its simplified form at one chosen
input and compares the two values with `same`; the inputs are the hard ones: INT_MIN, wrap
boundaries, zero divisors, nan, both zeros and both infinities.

Each case and each point check is one check of the layer's count. The layer must catch planted
bugs 1, 2, 3, 5, 6, 8, 9, 10 and 18; the cases that were designed for one say so.
"""

import math

import pytest

from book import protocol
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import evaluate
from uopc.semantics import same
from uopc.symbolic import SYM, default, simplify
from uopc.textfmt import infix

pytestmark = pytest.mark.layer("unit")

C = UOp.const
# Both float zeros are held for the whole run, -0.0 built first: if the hash-cons key ignores
# the sign of zero (bug 18), C(0.0) then returns the -0.0 node and `1/0` folds to -inf.
NEG_ZERO = C(-0.0)
ZERO = C(0.0)


def param(slot, dtype=I32, vmin=None, vmax=None):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype, vmin, vmax))


x, y = param(0), param(1)  # i32 without a declared range: every value is possible
i, j, k = param(0, I32, 0, 15), param(1, I32, 0, 3), param(2, I32, 0, 7)
n = param(2, I32, 8, 11)  # one bucket of 4: x//4 is 2 on all of it
n12 = param(2, I32, 8, 12)  # one past the bucket: 12//4 is 3
m = param(0, I32, 5, 9)  # §9.5: max(m, 5) is m
big = param(2, I32, 0, 2**30)  # big*4 may wrap
low = param(0, I32, INT_MIN, INT_MIN + 3)  # a bucket of 4 at the very bottom
high = param(0, I32, INT_MAX - 3, INT_MAX)  # and at the very top
# For bug 2: a*3 + b + e always fits int32, but b + e on its own may not.
a3 = param(0, I32, -715827882, -357913941)  # a*3 in [-2147483646, -1073741823]
b3, e3 = param(1, I32, 0, 2**30), param(2, I32, 0, 2**30)
f, g = param(1, F32), param(0, F32)
b, c = param(2, BOOL), param(3, BOOL)


def recip(u):
    return UOp(Ops.RECIP, (u,))


def neg(u):
    return UOp(Ops.NEG, (u,))  # -(-x) written with the operator reads as a decrement to ruff


def value_call():
    """f(y, 5) with body P0 + P1: inlined at once, so y is not substituted a second time."""
    return make_call(x + y, [y, C(5)], "add")


def memory_call():
    """A call whose body stores: it has no value, so `inline call` must leave it alone."""
    builder = Builder()
    builder.buffer(0, F32, 2).store(0, 1.0)
    buffer = UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 2)))
    return make_call(builder.body(), [buffer], "store_one")


SAME = None  # the wanted result of a case whose expression must come back unchanged
FIRE, KEEP = True, False  # whether the case's rule must fire or must not

# (case name, rule, FIRE/KEEP, expression, wanted result or SAME); rule None: no rule claim.
# fmt: off
CASES = [
    ("3+x", "canonical order", FIRE, lambda: C(3) + x, lambda: x + 3),
    ("y*x", "canonical order", FIRE, lambda: y * x, lambda: x * y),
    ("2.0*f", "canonical order", FIRE, lambda: C(2.0) * f, lambda: f * 2.0),
    ("x+3", "canonical order", KEEP, lambda: x + 3, SAME),
    ("max(2.0,f) keeps its order", "canonical order", KEEP, lambda: C(2.0).max(f), SAME),
    ("j<4", "range is a point", FIRE, lambda: j.lt(4), lambda: C(True)),
    ("(i+k)*0", "range is a point", FIRE, lambda: (i + k) * 0, lambda: C(0)),
    ("max(j,4)", "range is a point", FIRE, lambda: j.max(4), lambda: C(4)),
    ("j+1", "range is a point", KEEP, lambda: j + 1, SAME),
    ("j+1<4 (ADD range top)", "range is a point", KEEP, lambda: (j + 1).lt(4), SAME),
    ("j+k<1 (ADD range bottom)", "range is a point", KEEP, lambda: (j + k).lt(1), SAME),
    ("max(m,5), m in [5,9]", "max by range", FIRE, lambda: m.max(5), lambda: m),
    ("max(j,-5)", "max by range", FIRE, lambda: j.max(-5), lambda: j),
    ("max(i,j)", "max by range", KEEP, lambda: i.max(j), SAME),
    ("max(j+k,1)", "max by range", KEEP, lambda: (j + k).max(1), SAME),
    ("x*1", "x*1", FIRE, lambda: x * 1, lambda: x),
    ("f*1.0", "x*1", FIRE, lambda: f * 1.0, lambda: f),
    ("x*2", "x*1", KEEP, lambda: x * 2, SAME),
    ("x*-1", "x*-1", FIRE, lambda: x * -1, lambda: -x),
    ("f*-1.0", "x*-1", FIRE, lambda: f * -1.0, lambda: -f),
    ("x*-2", "x*-1", KEEP, lambda: x * -2, SAME),
    ("f+(-0.0)", "x+(-0.0) (float)", FIRE, lambda: f + NEG_ZERO, lambda: f),
    ("f+0.0", "x+(-0.0) (float)", KEEP, lambda: f + ZERO, SAME),
    ("f*0.0", None, KEEP, lambda: f * ZERO, SAME),
    ("x+0", "x+0 (int)", FIRE, lambda: x + 0, lambda: x),
    ("x+1", "x+0 (int)", KEEP, lambda: x + 1, SAME),
    ("-(-x)", "-(-x)", FIRE, lambda: neg(neg(x)), lambda: x),
    ("-(-f)", "-(-x)", FIRE, lambda: neg(neg(f)), lambda: f),
    ("-(x+y)", "-(-x)", KEEP, lambda: -(x + y), SAME),
    ("-(x*3)", "-(x*c)", FIRE, lambda: -(x * 3), lambda: x * -3),
    ("-(f*2.5)", "-(x*c)", FIRE, lambda: -(f * 2.5), lambda: f * -2.5),
    # second layer for the planted bug "rule -(x*c): float constant wrapped" (only sound saw it)
    ("-(f*0.0)", "-(x*c)", FIRE, lambda: -(f * ZERO), lambda: f * NEG_ZERO),
    ("-(x*y)", "-(x*c)", KEEP, lambda: -(x * y), SAME),
    ("x+(-x)", "x+(-x) (int)", FIRE, lambda: x + (-x), lambda: C(0)),
    ("f+(-f)", "x+(-x) (int)", KEEP, lambda: f + (-f), SAME),
    ("x+(-y)", "x+(-x) (int)", KEEP, lambda: x + (-y), SAME),
    ("max(x,x)", "max(x,x)", FIRE, lambda: x.max(x), lambda: x),
    ("max(f,f)", "max(x,x)", FIRE, lambda: f.max(f), lambda: f),
    ("max(x,y)", "max(x,x)", KEEP, lambda: x.max(y), SAME),
    ("f<f", "x<x", FIRE, lambda: f.lt(f), lambda: C(False)),
    ("f<g", "x<x", KEEP, lambda: f.lt(g), SAME),
    # hole found by the planted bug "rule x<x: x!=x also false": nan != nan is True
    ("f!=f", "x<x", KEEP, lambda: f.ne(f), SAME),
    ("x.cast(I32)", "cast to own dtype", FIRE, lambda: x.cast(I32), lambda: x),
    ("f.cast(F32)", "cast to own dtype", FIRE, lambda: f.cast(F32), lambda: f),
    ("x.cast(F32)", "cast to own dtype", KEEP, lambda: x.cast(F32), SAME),
    ("b*True", "x*True (bool)", FIRE, lambda: b * True, lambda: b),
    ("b*c", "x*True (bool)", KEEP, lambda: b * c, SAME),
    ("where(True,f,g)", "where(const,a,b)", FIRE, lambda: C(True).where(f, g), lambda: f),
    ("where(False,x,y)", "where(const,a,b)", FIRE, lambda: C(False).where(x, y), lambda: y),
    ("where(b,x,y)", "where(const,a,b)", KEEP, lambda: b.where(x, y), SAME),
    ("where(b,f,f)", "where(c,a,a)", FIRE, lambda: b.where(f, f), lambda: f),
    ("where(b,f,g)", "where(c,a,a)", KEEP, lambda: b.where(f, g), SAME),
    # hole found by the planted bug "rule where(c,a,a): equal constants merged": 0.0 == -0.0
    ("where(b,0.0,-0.0)", "where(c,a,a)", KEEP, lambda: b.where(ZERO, NEG_ZERO), SAME),
    ("where(b,True,False)", "where(c,True,False)", FIRE, lambda: b.where(True, False), lambda: b),
    ("where(b,True,c)", "where(c,True,False)", KEEP, lambda: b.where(True, c), SAME),
    ("where(b,False,True)", "where(c,False,True)", FIRE, lambda: b.where(False, True),
     lambda: b.ne(True)),
    ("where(b,False,c)", "where(c,False,True)", KEEP, lambda: b.where(False, c), SAME),
    ("(x+3)+5", "(x+c1)+c2", FIRE, lambda: (x + 3) + 5, lambda: x + 8),
    ("(x+INT_MAX)+1 wraps", "(x+c1)+c2", FIRE, lambda: (x + INT_MAX) + 1, lambda: x + INT_MIN),
    ("(x+y)+5", "(x+c1)+c2", KEEP, lambda: (x + y) + 5, SAME),
    ("(x*2)*3", "(x*c1)*c2", FIRE, lambda: (x * 2) * 3, lambda: x * 6),
    ("(x*65536)*65536 wraps to 0", "(x*c1)*c2", FIRE, lambda: (x * 65536) * 65536, lambda: C(0)),
    ("(x*y)*3", "(x*c1)*c2", KEEP, lambda: (x * y) * 3, SAME),
    ("(x+3)*5", "(x+c1)*c2", FIRE, lambda: (x + 3) * 5, lambda: x * 5 + 15),
    ("(x+y)*5", "(x+c1)*c2", KEEP, lambda: (x + y) * 5, SAME),
    ("x//-1", "x//c trivial", FIRE, lambda: x // -1, lambda: -x),
    ("x//0", "x//c trivial", FIRE, lambda: x // 0, lambda: C(0)),
    ("x//2", "x//c trivial", KEEP, lambda: x // 2, SAME),
    ("x%0", "x%c trivial", FIRE, lambda: x % 0, lambda: x),
    ("x%2", "x%c trivial", KEEP, lambda: x % 2, SAME),
    ("n%4, n in [8,11]", "x%c inside one bucket", FIRE, lambda: n % 4, lambda: n + -8),
    ("n%-12, n in [8,11]", "x%c inside one bucket", FIRE, lambda: n % -12, lambda: n + -12),
    ("low%4 at INT_MIN", "x%c inside one bucket", FIRE, lambda: low % 4, lambda: low + INT_MIN),
    ("n%3, n in [8,11]", "x%c inside one bucket", KEEP, lambda: n % 3, SAME),
    ("n%4, n in [8,12]", "x%c inside one bucket", KEEP, lambda: n12 % 4, SAME),
    ("(x//2)//3", "(x//c1)//c2", FIRE, lambda: (x // 2) // 3, lambda: x // 6),
    ("(x//-2)//3", "(x//c1)//c2", KEEP, lambda: (x // -2) // 3, SAME),
    ("(x//65536)//65536", "(x//c1)//c2", KEEP, lambda: (x // 65536) // 65536, SAME),
    ("(x%12)%4", "(x%c1)%c2", FIRE, lambda: (x % 12) % 4, lambda: x % 4),
    ("(x%12)%5", "(x%c1)%c2", KEEP, lambda: (x % 12) % 5, SAME),
    ("(i*4+j)//4", "(a*c1+b)//c2", FIRE, lambda: (i * 4 + j) // 4, lambda: i),
    ("(i*6+k)//3", "(a*c1+b)//c2", FIRE, lambda: (i * 6 + k) // 3, lambda: i * 2 + k // 3),
    ("((i*4+j)//2)//2", "(a*c1+b)//c2", FIRE, lambda: ((i * 4 + j) // 2) // 2, lambda: i),
    ("(y+x*4)//4 may wrap", "(a*c1+b)//c2", KEEP, lambda: (y + x * 4) // 4, SAME),
    ("(big*4)//4 may wrap", "(a*c1+b)//c2", KEEP, lambda: (big * 4) // 4, SAME),
    ("(e+(b+a*3))//3, b+e may wrap", "(a*c1+b)//c2", KEEP, lambda: (e3 + (b3 + a3 * 3)) // 3, SAME),
    ("(i*4+j)%4", "(a*c1+b)%c2", FIRE, lambda: (i * 4 + j) % 4, lambda: j),
    ("(i*6+k)%6", "(a*c1+b)%c2", FIRE, lambda: (i * 6 + k) % 6, lambda: k % 6),
    ("(y+x*4)%4 may wrap", "(a*c1+b)%c2", KEEP, lambda: (y + x * 4) % 4, SAME),
    ("(e+(b+a*3))%3, b+e may wrap", "(a*c1+b)%c2", KEEP, lambda: (e3 + (b3 + a3 * 3)) % 3, SAME),
    ("1/0 (float)", "const fold", FIRE, lambda: recip(ZERO), lambda: C(math.inf)),
    ("1/-0 (float)", "const fold", FIRE, lambda: recip(NEG_ZERO), lambda: C(-math.inf)),
    ("1/f", "const fold", KEEP, lambda: recip(f), SAME),
    ("((x*1)+0)*(2+3)", "const fold", FIRE, lambda: ((x * 1) + 0) * (C(2) + 3), lambda: x * 5),
    ("add(y, 5)", "inline call", FIRE, value_call, lambda: y + 5),
    ("a call that stores", "inline call", KEEP, memory_call, SAME),
]
# fmt: on


def show(u) -> str:
    """How a failure names a node: `const inf` for a constant, else the infix expression."""
    if u.op is Ops.CONST:
        return f"const {u.arg!r}"
    if u.op is Ops.CALL:
        return f"{u.arg.name}(...) call"
    return infix(u)


def check_case(name, rule, fires, build, wanted) -> None:
    """One hand-written case: simplify's result, and whether the case's rule fired."""
    expression = build()
    before = default.fired[rule] if rule else 0
    got = simplify(expression)
    fired = (default.fired[rule] if rule else 0) > before
    want = expression if wanted is SAME else wanted()
    if got is not want:
        raise AssertionError(f"{name}: got {show(got)}, wanted {show(want)}")
    if rule and fired != fires:
        verb = "did not fire" if fires else "fired"
        raise AssertionError(f"{name}: rule {rule!r} {verb} (result {show(got)})")


# ---------------------------------------------------------------------------------------------
# Point checks: (name, expression, inputs), each input an env of slot -> value
# ---------------------------------------------------------------------------------------------

EDGES = (INT_MIN, INT_MIN + 1, -1, INT_MAX - 1, INT_MAX)
# the split's overflow: at a = 2**30, b = INT_MIN, a*4 wraps to 0 and a + b//4 would be wrong
WIDE_A = (2**30, -(2**30), INT_MIN, INT_MAX)
WIDE_B = (INT_MIN, INT_MAX, -1, 0)
FLOATS = (0.0, -0.0, math.inf, -math.inf, math.nan)


def envs(slot, values):
    return [{slot: v} for v in values]


def grid(*columns):
    """Every combination of one value per slot: columns are (slot, values) pairs."""
    result = [{}]
    for slot, values in columns:
        result = [{**env, slot: v} for env in result for v in values]
    return result


def with_bool(values):
    """One env per float value, the bool in slot 2 alternating."""
    return [{1: v, 2: position % 2 == 0} for position, v in enumerate(values)]


# fmt: off
POINTS = [
    ("(x//2)//3 sweep", lambda: (x // 2) // 3, envs(0, [*range(-200, 201), *EDGES])),
    ("(a*4+b)//4 wide", lambda: (x * 4 + y) // 4, grid((0, WIDE_A), (1, WIDE_B))),
    ("(a*4+b)%4 wide", lambda: (x * 4 + y) % 4, grid((0, WIDE_A), (1, WIDE_B))),
    ("(a*3+b+e)//3", lambda: (a3 * 3 + b3 + e3) // 3,
     grid((0, (-715827882, -357913941)), (1, (0, 2**30)), (2, (0, 2**30)))),
    ("(a*3+b+e)%3", lambda: (a3 * 3 + b3 + e3) % 3,
     grid((0, (-715827882, -357913941)), (1, (0, 2**30)), (2, (0, 2**30)))),
    ("(big*4)//4", lambda: (big * 4) // 4, envs(2, (0, 2**29, 2**30 - 1, 2**30))),
    ("(x*65536)*65536", lambda: (x * 65536) * 65536, envs(0, (1, -1, INT_MAX, INT_MIN))),
    ("(x*46341)*46341", lambda: (x * 46341) * 46341, envs(0, (1, -1, INT_MAX, INT_MIN))),
    ("(x+INT_MAX)*2", lambda: (x + INT_MAX) * 2, envs(0, (0, 1, -1, INT_MIN))),
    ("x*-1", lambda: x * -1, envs(0, (INT_MIN, INT_MIN + 1, -1, 0, INT_MAX))),
    ("x//-1", lambda: x // -1, envs(0, (INT_MIN, INT_MIN + 1, INT_MAX))),
    ("-(-x)", lambda: neg(neg(x)), envs(0, (INT_MIN,))),
    ("x+(-x)", lambda: x + (-x), envs(0, (INT_MIN, INT_MAX))),
    ("-(x*3)", lambda: -(x * 3), envs(0, (INT_MIN, 2**30))),
    ("-(x*INT_MIN)", lambda: -(x * INT_MIN), envs(0, (1, -1, INT_MIN))),
    ("(x+INT_MAX)+1", lambda: (x + INT_MAX) + 1, envs(0, (0, -1, INT_MIN))),
    ("low%4", lambda: low % 4, envs(0, range(INT_MIN, INT_MIN + 4))),
    ("high%4", lambda: high % 4, envs(0, range(INT_MAX - 3, INT_MAX + 1))),
    ("n%4", lambda: n % 4, envs(2, range(8, 12))),
    ("n%-12", lambda: n % -12, envs(2, range(8, 12))),
    ("x//0", lambda: x // 0, envs(0, (INT_MIN, -7, 0, INT_MAX))),
    ("x%0", lambda: x % 0, envs(0, (INT_MIN, -7, 0, INT_MAX))),
    ("f*1.0", lambda: f * 1.0, envs(1, FLOATS)),
    ("f*-1.0", lambda: f * -1.0, envs(1, FLOATS)),
    ("f+(-0.0)", lambda: f + NEG_ZERO, envs(1, FLOATS)),
    ("f+0.0", lambda: f + ZERO, envs(1, FLOATS)),
    ("f*0.0", lambda: f * ZERO, envs(1, FLOATS)),
    ("-(-f)", lambda: neg(neg(f)), envs(1, FLOATS)),
    ("-(f*2.5)", lambda: -(f * 2.5), envs(1, FLOATS)),
    ("-(f*inf)", lambda: -(f * math.inf), envs(1, FLOATS)),  # for "rule -(x*c): ... wrapped"
    ("max(f,f)", lambda: f.max(f), envs(1, FLOATS)),
    ("f<f", lambda: f.lt(f), envs(1, FLOATS)),
    ("f!=f", lambda: f.ne(f), envs(1, FLOATS)),  # for "rule x<x: x!=x also false"
    # for "rule where(c,a,a): equal constants merged"
    ("where(b,0.0,-0.0)", lambda: b.where(ZERO, NEG_ZERO), envs(2, (True, False))),
    ("f.cast(F32)", lambda: f.cast(F32), envs(1, FLOATS)),
    ("f+(-f)", lambda: f + (-f), envs(1, FLOATS)),
    ("where(b,f,f)", lambda: b.where(f, f), with_bool(FLOATS)),
]
# fmt: on


def inside(u, env) -> bool:
    """Whether env keeps every declared range under u (a range is a promise rules rely on)."""
    for node in u.toposort():
        if node.op is Ops.PARAM and node.arg.vmin is not None:
            if not node.arg.vmin <= env[node.arg.slot] <= node.arg.vmax:
                return False
    return True


def check_points(name, build, inputs) -> int:
    """Original vs simplified at every input; returns the number of comparisons."""
    expression = build()
    simplified = simplify(expression)
    for env in inputs:
        assert inside(expression, env), f"{name}: input {env} is outside a declared range"
        original, result = evaluate(expression, env), evaluate(simplified, env)
        if not same(original, result):
            raise AssertionError(
                f"{name} at {env}: original {original!r}, simplified {result!r}"
                f" (simplified to {show(simplified)})"
            )
    return len(inputs)


def layer_unit() -> int:
    """Every case and every point check; returns the check count, raises on any failure."""
    failures, count = [], 0
    for case in CASES:
        try:
            check_case(*case)
        except AssertionError as error:
            failures.append(str(error))
        count += 1
    for name, build, inputs in POINTS:
        try:
            count += check_points(name, build, inputs)
        except AssertionError as error:
            failures.append(str(error))
    if failures:
        raise AssertionError(f"{len(failures)} unit failures:\n" + "\n".join(failures))
    return count


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_case(case):
    check_case(*case)


@pytest.mark.parametrize("point", POINTS, ids=[point[0] for point in POINTS])
def test_points(point):
    check_points(*point)


def test_every_strict_rule_fires_and_keeps():
    """The table itself: every SYM rule has a case where it fires and one where it does not."""
    for rule in SYM:
        claims = {fires for _, name, fires, _, _ in CASES if name == rule.name}
        assert claims == {FIRE, KEEP}, f"{rule.name}: cases only for {claims or 'nothing'}"
    assert len(CASES) >= 52
    assert sum(len(inputs) for _, _, inputs in POINTS) >= 547


def test_unit_layer():
    protocol.report("unit", "unit", layer_unit())


if __name__ == "__main__":
    protocol.report("unit", "unit", layer_unit())
