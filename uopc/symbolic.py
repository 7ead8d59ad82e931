"""The rewrite rules: 28 strict rules that never change a result, 5 fast-math rules that may.

Relies on `semantics`, `uop`, `rewrite` and `fold`. Invariant: a strict rule returns a node
that is `same` as the node it replaces on every input, nan, infinities and both zeros
included; each is proved by a z3 claim of the same name. The order of the lists is part of
the specification, because the rules are not confluent.
"""

import math

from .dtypes import BOOL, F32, I32, INT_MAX
from .fold import fold
from .ops import ALU, COMMUTATIVE, Ops
from .rewrite import PatternMatcher, UPat, graph_rewrite, rule
from .semantics import wrap32
from .uop import UOp

SYM: list = []
FAST: list = []

var, cvar, const = UPat.var, UPat.cvar, UOp.const
INT, FLT = (I32,), (F32,)

# --8<-- [start:canonical_order]
# ---- canonical order and ranges ------------------------------------------------------------


@rule(
    "canonical order",
    UPat(COMMUTATIVE, src=(var("a"), var("b")), name="u"),
    SYM,
)
def canonical_order(u, a, b):
    # b + a -> a + b: constants right, otherwise the older node first, so b+a meets a+b.
    # Float MAX does not commute (nan, signed zeros), so it keeps its order.
    if u.op is Ops.MAX and u.dtype is F32:
        return None
    if (a.op is Ops.CONST, a.id) > (b.op is Ops.CONST, b.id):
        return UOp(u.op, (b, a))
    return None


# --8<-- [end:canonical_order]


# --8<-- [start:range_rules]
@rule("range is a point", UPat(tuple(ALU), dtype=(I32, BOOL), name="u"), SYM)
def range_is_a_point(u):
    # u -> c when vmin == vmax == c (ranges are sound): x%1, j<4 for j in [0,3], (i+k)*0
    vmin, vmax, _ = u.range
    if vmin == vmax:
        return const(bool(vmin) if u.dtype is BOOL else vmin)
    return None


@rule("max by range", UPat(Ops.MAX, dtype=(I32, BOOL), src=(var("a"), var("b"))), SYM)
def max_by_range(a, b):
    # max(a, b) -> a when a is never smaller than b, and the other way round
    if a.vmin >= b.vmax:
        return a
    return b if b.vmin >= a.vmax else None


# --8<-- [end:range_rules]

# ---- identities ----------------------------------------------------------------------------
# --8<-- [start:identities]


@rule("x*1", UPat(Ops.MUL, dtype=(I32, F32), src=(var("x"), cvar("c"))), SYM)
def mul_one(x, c):
    return x if c.arg == 1 else None  # x*1 -> x, exact even for nan and both zeros


@rule("x*-1", UPat(Ops.MUL, dtype=(I32, F32), src=(var("x"), cvar("c"))), SYM)
def mul_minus_one(x, c):
    return -x if c.arg == -1 else None  # x*-1 -> -x: the same wrap; float negation is exact


@rule("x+(-0.0) (float)", UPat(Ops.ADD, dtype=FLT, src=(var("x"), cvar("c"))), SYM)
def add_minus_zero(x, c):
    # x + (-0.0) -> x. Not x + 0.0: at x = -0.0 that gives +0.0. Test the sign, not == 0.0.
    return x if c.arg == 0.0 and math.copysign(1.0, c.arg) < 0 else None


@rule("x+0 (int)", UPat(Ops.ADD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def add_zero(x, c):
    return x if c.arg == 0 else None  # x + 0 -> x


# --8<-- [end:identities]


# --8<-- [start:negations]
@rule("-(-x)", UPat(Ops.NEG, src=(UPat(Ops.NEG, src=(var("x"),)),)), SYM)
def neg_neg(x):
    return x  # -(-x) -> x: the sign flipped twice (and INT_MIN wraps to itself twice)


@rule(
    "-(x*c)", UPat(Ops.NEG, dtype=(I32, F32), src=(UPat(Ops.MUL, src=(var("x"), cvar("c"))),)), SYM
)
def neg_mul_const(x, c):
    # -(x*c) -> x*(-c): a ring identity for i32; float rounding is symmetric about zero
    return x * const(wrap32(-c.arg) if x.dtype is I32 else -c.arg)


@rule("x+(-x) (int)", UPat(Ops.ADD, dtype=INT, src=(var("x"), UPat(Ops.NEG, src=(var("x"),)))), SYM)
def add_own_negation(x):
    return const(0)  # x + (-x) -> 0 in the ring of i32 (not for floats: inf + -inf is nan)


# --8<-- [end:negations]


# --8<-- [start:self_and_cast]
@rule("max(x,x)", UPat(Ops.MAX, src=(var("x"), var("x"))), SYM)
def max_self(x):
    return x  # max(x, x) -> x: x > x is false, so MAX returns its second src, x, even for nan


@rule("x<x", UPat(Ops.CMPLT, src=(var("x"), var("x"))), SYM)
def less_than_self(x):
    return const(False)  # x < x -> False, also for nan


@rule("cast to own dtype", UPat(Ops.CAST, src=(var("x"),), name="u"), SYM)
def cast_to_own_dtype(u, x):
    return x if x.dtype is u.dtype else None  # cast(x, dtype of x) -> x


@rule("x*True (bool)", UPat(Ops.MUL, dtype=BOOL, src=(var("x"), cvar("c"))), SYM)
def and_true(x, c):
    return x if c.arg is True else None  # x AND True -> x (x AND False falls to ranges)


# --8<-- [end:self_and_cast]

# --8<-- [start:where]
# ---- WHERE ---------------------------------------------------------------------------------


@rule("where(const,a,b)", UPat(Ops.WHERE, src=(cvar("c"), var("a"), var("b"))), SYM)
def where_const(c, a, b):
    return a if c.arg else b  # where(True, a, b) -> a; where(False, a, b) -> b


@rule("where(c,a,a)", UPat(Ops.WHERE, src=(var("c"), var("a"), var("a"))), SYM)
def where_same(c, a):
    return a  # where(c, a, a) -> a


@rule("where(c,True,False)", UPat(Ops.WHERE, dtype=BOOL, src=(var("c"), cvar("t"), cvar("f"))), SYM)
def where_true_false(c, t, f):
    return c if t.arg is True and f.arg is False else None  # where(c, True, False) -> c


@rule("where(c,False,True)", UPat(Ops.WHERE, dtype=BOOL, src=(var("c"), cvar("t"), cvar("f"))), SYM)
def where_false_true(c, t, f):
    # where(c, False, True) -> c != True, which is not c
    return c.ne(const(True)) if t.arg is False and f.arg is True else None


# --8<-- [end:where]

# --8<-- [start:constants]
# ---- constants that gather -----------------------------------------------------------------


@rule(
    "(x+c1)+c2",
    UPat(Ops.ADD, dtype=INT, src=(UPat(Ops.ADD, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def add_add_const(x, c1, c2):
    return x + const(wrap32(c1.arg + c2.arg))  # (x+c1)+c2 -> x+(c1+c2): i32 + is a ring


@rule(
    "(x*c1)*c2",
    UPat(Ops.MUL, dtype=INT, src=(UPat(Ops.MUL, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def mul_mul_const(x, c1, c2):
    return x * const(wrap32(c1.arg * c2.arg))  # (x*c1)*c2 -> x*(c1*c2)


@rule(
    "(x+c1)*c2",
    UPat(Ops.MUL, dtype=INT, src=(UPat(Ops.ADD, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def distribute_const(x, c1, c2):
    # (x+c1)*c2 -> x*c2 + c1*c2; no factoring rule exists, so this cannot loop
    return x * c2 + const(wrap32(c1.arg * c2.arg))


# --8<-- [end:constants]

# ---- division and remainder ----------------------------------------------------------------


# --8<-- [start:division_trivial]
@rule("x//c trivial", UPat(Ops.FLOORDIV, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floordiv_trivial(x, c):
    # x//1 -> x; x//-1 -> -x (INT_MIN // -1 and -INT_MIN are both INT_MIN); x//0 -> 0
    if c.arg == 1:
        return x
    if c.arg == -1:
        return -x
    return const(0) if c.arg == 0 else None


@rule("x%c trivial", UPat(Ops.FLOORMOD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floormod_trivial(x, c):
    # x%0 -> x (the contract); x%1 and x%-1 -> 0
    if c.arg == 0:
        return x
    return const(0) if c.arg in (1, -1) else None


# --8<-- [end:division_trivial]


# --8<-- [start:bucket]
@rule("x%c inside one bucket", UPat(Ops.FLOORMOD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floormod_one_bucket(x, c):
    # x%c -> x - k*c when x//c is k over x's whole range (x in [8,11]: x%4 -> x-8)
    if c.arg == 0 or x.vmin // c.arg != x.vmax // c.arg:
        return None
    k = x.vmin // c.arg
    return x if k == 0 else x + const(wrap32(-k * c.arg))


# --8<-- [end:bucket]


# --8<-- [start:nested]
@rule(
    "(x//c1)//c2",
    UPat(Ops.FLOORDIV, dtype=INT, src=(UPat(Ops.FLOORDIV, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def floordiv_floordiv(x, c1, c2):
    # (x//c1)//c2 -> x//(c1*c2) for positive divisors whose product fits
    if c1.arg > 0 and c2.arg > 0 and c1.arg * c2.arg <= INT_MAX:
        return x // const(c1.arg * c2.arg)
    return None


@rule(
    "(x%c1)%c2",
    UPat(Ops.FLOORMOD, dtype=INT, src=(UPat(Ops.FLOORMOD, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def floormod_floormod(x, c1, c2):
    # (x%c1)%c2 -> x%c2 when c2 divides c1 (both positive)
    if c1.arg > 0 and c2.arg > 0 and c1.arg % c2.arg == 0:
        return x % c2
    return None


# --8<-- [end:nested]


# --8<-- [start:terms]
MAX_UNFOLDED = 4096  # past this many terms, a sum whose ADDs share a node is not split


def add_terms(d: UOp) -> list[UOp] | None:
    """The non-ADD leaves of the tree of ADDs under d, left to right (iteratively); None when
    shared ADDs would unfold to more than MAX_UNFOLDED terms.

    A shared ADD is listed at each use, so 60 lines of `%k = add %(k-1), %(k-1)` would unfold
    to 2**60 terms; a sum whose ADDs form a tree has one term more than ADDs, whatever its size."""
    terms, stack = [], [d]
    while stack:
        node = stack.pop()
        if node.op is Ops.ADD:
            stack.extend(reversed(node.src))
        else:
            terms.append(node)
            if len(terms) == MAX_UNFOLDED + 1 and shares_an_add(d):
                return None
    return terms


def shares_an_add(d: UOp) -> bool:
    """Whether some ADD under d (through ADDs only) is a src of more than one use."""
    adds = d.toposort(skip=lambda node: node.op is not Ops.ADD)
    uses = sum(1 for node in adds for s in node.src if s.op is Ops.ADD)
    return uses + 1 > len(adds)  # in a tree every ADD but d is used exactly once


# --8<-- [end:terms]


# --8<-- [start:quotient]
def quotient(term: UOp, c: int):
    """term // c when term is visibly a multiple of c (a constant, or y * k with c | k)."""
    if term.op is Ops.CONST and term.arg % c == 0:
        return const(term.arg // c)
    if term.op is Ops.MUL and term.src[1].op is Ops.CONST and term.src[1].arg % c == 0:
        return term.src[0] * const(term.src[1].arg // c)
    return None


def total(terms: list[UOp]) -> UOp:
    result = terms[0]
    for term in terms[1:]:
        result = result + term
    return result


# --8<-- [end:quotient]


# --8<-- [start:split]
def split(d: UOp, c: int):
    """Write d as c*q + r: (q, r) or (q, None); None when that is not safe or not visible.

    The guard d.safe matters: without it (a*4 + b)//4 -> a + b//4 fails at
    a = 1073741824, b = -2147483648, where a*4 wraps.
    """
    if c <= 0 or not d.safe:
        return None
    terms = add_terms(d)
    if terms is None:
        return None
    quotients, rest = [], []
    for term in terms:
        q = quotient(term, c)
        if q is None:
            rest.append(term)
        else:
            quotients.append(q)
    if not quotients:
        return None
    r = total(rest) if rest else None
    if r is not None and not r.safe:
        return None
    return total(quotients), r


# --8<-- [end:split]


# --8<-- [start:split_rules]
@rule("(a*c1+b)//c2", UPat(Ops.FLOORDIV, dtype=INT, src=(var("d"), cvar("c"))), SYM)
def split_floordiv(d, c):
    # (c*q + r)//c -> q + r//c, exact when nothing wraps
    parts = split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return q if r is None else q + r // c


@rule("(a*c1+b)%c2", UPat(Ops.FLOORMOD, dtype=INT, src=(var("d"), cvar("c"))), SYM)
def split_floormod(d, c):
    # (c*q + r)%c -> r%c, exact when nothing wraps
    parts = split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return const(0) if r is None else r % c


# --8<-- [end:split_rules]

# --8<-- [start:fast]
# ---- fast math: each of these changes some result, so they run only on request -------------


@rule("x*0.0", UPat(Ops.MUL, dtype=FLT, src=(var("x"), cvar("c"))), FAST)
def fast_mul_zero(x, c):
    return const(0.0) if c.arg == 0.0 else None  # wrong for nan, ±inf, and negative x


@rule("x+0.0 (float)", UPat(Ops.ADD, dtype=FLT, src=(var("x"), cvar("c"))), FAST)
def fast_add_zero(x, c):
    return x if c.arg == 0.0 else None  # wrong at x = -0.0


# --8<-- [end:fast]


# --8<-- [start:fast_cancel]
@rule(
    "(x*c1)*c2 (float)",
    UPat(Ops.MUL, dtype=FLT, src=(UPat(Ops.MUL, src=(var("x"), cvar("c1"))), cvar("c2"))),
    FAST,
)
def fast_regroup(x, c1, c2):
    return x * const(c1.arg * c2.arg)  # two roundings become one: the last bit may change


@rule(
    "x*recip(x)", UPat(Ops.MUL, dtype=FLT, src=(var("x"), UPat(Ops.RECIP, src=(var("x"),)))), FAST
)
def fast_mul_recip(x):
    return const(1.0)  # wrong for nan, 0, ±inf, and in the last bit for some x


@rule(
    "x+(-x) (float)", UPat(Ops.ADD, dtype=FLT, src=(var("x"), UPat(Ops.NEG, src=(var("x"),)))), FAST
)
def fast_add_negation(x):
    return const(0.0)  # wrong for nan and ±inf (inf + -inf is nan)


# --8<-- [end:fast_cancel]

# --8<-- [start:simplify]
default = fold + PatternMatcher(SYM)
fast = default + PatternMatcher(FAST)


def simplify(root: UOp, fast_math: bool = False) -> UOp:
    """Rewrite root with the strict rules (and the fast-math rules on request)."""
    return graph_rewrite(root, fast if fast_math else default)


# --8<-- [end:simplify]
