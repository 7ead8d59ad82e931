"""Rules beyond the book: an opt-in set of further integer rewrite rules, off by default.

Relies on `rewrite`, `symbolic` (its strict rules and its `split`) and on the
ranges of `ranges` through a node's `vmin`, `vmax` and `safe`. Invariant: like a strict rule,
every rule of FURTHER returns a node that is `same` as the node it replaces on every input,
and each is proved by z3 claims of the same name (tests/proofs.py --further). The set is off by
default only so that every output the book shows stays as it is; `simplify_further` (or
`uopc simplify --further`) switches it on.

Most rules here read a sum as a linear form: a list of (base, coefficient) terms and one
constant, where `x*c` is x with coefficient c and `-x` is x with coefficient -1. Gathering a
linear form back into a sum uses only ADD, MUL and NEG, and i32 with wrapping + and * is a ring
(the integers modulo 2**32), so every regrouping of it is exact with no guard.
"""

import heapq
import math

from .dtypes import I32, INT_MAX, INT_MIN
from .ops import Ops
from .rewrite import PatternMatcher, UPat, graph_rewrite, rule
from .semantics import wrap32
from .symbolic import FAST, default, split
from .uop import UOp

FURTHER: list = []

var, cvar, const = UPat.var, UPat.cvar, UOp.const
INT = (I32,)
MAX_TERMS = 32  # a longer sum is left alone: gathering stays linear on a long chain


# --8<-- [start:linear_form]
def linear_form(d: UOp):
    """d as ({base: coefficient}, constant), or None past 2*MAX_TERMS nodes walked.

    ADD splits, NEG flips the sign and x*c scales by c; every other node is a base. The
    coefficients are Python ints, wrapped to i32 only when the sum is built again."""
    terms, constant, walked, stack = {}, 0, 0, [(d, 1)]
    while stack:
        node, k = stack.pop()
        walked += 1
        if walked > 2 * MAX_TERMS:
            return None
        if node.op is Ops.ADD:
            stack.extend((s, k) for s in reversed(node.src))
        elif node.op is Ops.NEG:
            stack.append((node.src[0], -k))
        elif node.op is Ops.MUL and node.src[1].op is Ops.CONST:
            stack.append((node.src[0], k * node.src[1].arg))
        elif node.op is Ops.CONST:
            constant += k * node.arg
        else:
            terms[node] = terms.get(node, 0) + k
    return terms, constant


# --8<-- [end:linear_form]


# --8<-- [start:gather]
def term(base: UOp, k: int) -> UOp:
    # x*1 -> x and x*-1 -> -x here already, so the strict rules meet the form they leave
    k = wrap32(k)
    return base if k == 1 else -base if k == -1 else base * const(k)


def gather(terms: dict, constant: int) -> UOp:
    """The sum again: the terms with a coefficient other than 0, by age, the constant last."""
    parts = [term(base, k) for base, k in sorted(terms.items(), key=lambda t: t[0].id) if wrap32(k)]
    if wrap32(constant) or not parts:
        parts.append(const(wrap32(constant)))
    result = parts[0]
    for part in parts[1:]:
        result = result + part
    return result


# --8<-- [end:gather]


def smaller(new: UOp, old: UOp):
    # a rewrite of a sum is taken only when it has fewer nodes: no loop with the distribute
    # rule (x+c1)*c2 -> x*c2 + c1*c2, and never a bigger graph. The nodes under both count
    # on both sides, so comparing what is under one alone gives the same answer as comparing
    # len(toposort()), without walking the shared graph below (a chain of 4,000 links did).
    only_new, only_old = nodes_under_one(new, old)
    return new if only_new < only_old else None


NEW, OLD, BOTH = 1, 2, 3


def nodes_under_one(new: UOp, old: UOp) -> tuple[int, int]:
    """(nodes under new and not old, nodes under old and not new), newest first.

    A src is always older than its user (a smaller id), so walking by falling id meets every
    user of a node before the node: its mark (under new, old or both) is final when it is
    taken. Once every node still waiting is under both, so is everything below them."""
    marks, waiting, one_sided = {}, [], 0
    counts = {NEW: 0, OLD: 0, BOTH: 0}
    for node, mark in ((new, NEW), (old, OLD)):
        one_sided += mark_node(marks, waiting, node, mark)
    while one_sided:
        _, node = heapq.heappop(waiting)
        mark = marks[node]
        counts[mark] += 1
        one_sided -= mark != BOTH
        for s in node.src:
            one_sided += mark_node(marks, waiting, s, mark)
    return counts[NEW], counts[OLD]


def mark_node(marks: dict, waiting: list, node: UOp, mark: int) -> int:
    """Add mark to node's, queueing it when first met: the change in one-sided nodes waiting."""
    before = marks.get(node)
    if before is None:
        marks[node] = mark
        heapq.heappush(waiting, (-node.id, node))
        return mark != BOTH
    marks[node] = before | mark
    return -1 if before != BOTH and before | mark == BOTH else 0


# ---- div/mod recombination -----------------------------------------------------------------


def recombined(terms: dict):
    """One pair of terms that recombines, or None: (x//c)*c*m + (x%c)*m -> x*m, and
    ((x//c1)%c2)*c1*m + (x%c1)*m -> (x%(c1*c2))*m."""
    for base, m in terms.items():
        if base.op is not Ops.FLOORMOD or base.src[1].op is not Ops.CONST:
            continue
        x, c = base.src[0], base.src[1].arg
        # x == (x//c)*c + x%c for every x and c (c == 0 too): the contract's definition
        pair = x // const(c)
        if terms.get(pair) == c * m:
            return base, pair, x
        for upper in terms:
            whole = nested_modulus(upper, x, c)
            if whole is not None and terms[upper] == c * m:
                return base, upper, whole
    return None


def nested_modulus(upper: UOp, x: UOp, c1: int):
    # upper = (x//c1)%c2 with c1, c2 > 0 and c1*c2 in int32: x%(c1*c2), else None
    if upper.op is not Ops.FLOORMOD or upper.src[1].op is not Ops.CONST:
        return None
    inner, c2 = upper.src[0], upper.src[1].arg
    if inner.op is not Ops.FLOORDIV or inner.src[0] is not x or inner.src[1].op is not Ops.CONST:
        return None
    if inner.src[1].arg != c1 or c1 <= 0 or c2 <= 0 or c1 * c2 > INT_MAX:
        return None
    return x % const(c1 * c2)


@rule("(x//c)*c+x%c", UPat(Ops.ADD, dtype=INT, name="d"), FURTHER)
def recombine(d):
    # (x//c)*c + x%c -> x; ((x//c1)%c2)*c1 + x%c1 -> x%(c1*c2) (c1, c2 > 0, c1*c2 fits)
    form = linear_form(d)
    if form is None:
        return None
    terms, constant = form
    found = recombined(terms)
    if found is None:
        return None
    low, high, whole = found
    m = terms.pop(low)
    del terms[high]
    terms[whole] = terms.get(whole, 0) + m
    return gather(terms, constant)


# --8<-- [start:like_terms]
# ---- combining like terms ------------------------------------------------------------------


@rule("x+x", UPat(Ops.ADD, dtype=INT, src=(var("x"), var("x"))), FURTHER)
def add_self(x):
    # x + x -> x*2: one node more in this graph, but the factor 2 is now visible to the rules
    # that look for constant factors ((i+i)%2 -> 0 when i+i cannot wrap); a ring identity
    return x * const(2)


@rule("like terms", UPat((Ops.ADD, Ops.NEG, Ops.MUL), dtype=INT, name="d"), FURTHER)
def like_terms(d):
    # x*c1 + x*c2 -> x*(c1+c2), x*c + x -> x*(c+1), -(x*4 + 8) -> x*-4 + -8: the terms over one
    # base gather into one; exact in the ring of i32, so no guard
    if d.op is Ops.MUL and d.src[1].op is not Ops.CONST:
        return None
    form = linear_form(d)
    if form is None:
        return None
    terms, constant = form
    return smaller(gather(terms, constant), d)


# --8<-- [end:like_terms]


# --8<-- [start:constant_out]
@rule("(x*c)*y", UPat(Ops.MUL, dtype=INT, src=(var("a"), var("b"))), FURTHER)
def constant_out(a, b):
    # (x*c)*y -> (x*y)*c and (-x)*y -> -(x*y): the constant factor or the sign moves to the
    # top of the product, where the division, modulo and like-terms rules see it; a ring identity
    for inner, other in ((a, b), (b, a)):
        if other.op is Ops.CONST:
            return None
        if inner.op is Ops.MUL and inner.src[1].op is Ops.CONST:
            return (inner.src[0] * other) * inner.src[1]
        if inner.op is Ops.NEG:
            return -(inner.src[0] * other)
    return None


# --8<-- [end:constant_out]


# ---- nested division and modulo ------------------------------------------------------------


@rule(
    "(x%(c1*c2))//c1",
    UPat(Ops.FLOORDIV, dtype=INT, src=(UPat(Ops.FLOORMOD, src=(var("x"), cvar("m"))), cvar("c"))),
    FURTHER,
)
def floormod_floordiv(x, m, c):
    # (x%(c1*c2))//c1 -> (x//c1)%c2 for c1, c2 > 0: one digit of x in base c1 either way.
    # Not for c1 < 0: (x%4)//-2 is 0 or -1 or -2, (x//-2)%-2 is 0 or -1.
    if c.arg > 0 and m.arg > 0 and m.arg % c.arg == 0:
        return (x // c) % const(m.arg // c.arg)
    return None


@rule(
    "(x*c1)%c2",
    UPat(
        Ops.FLOORMOD,
        dtype=INT,
        src=(UPat(Ops.MUL, src=(var("x"), cvar("c1")), name="p"), cvar("c2")),
    ),
    FURTHER,
)
def mul_floormod(p, x, c1, c2):
    # (x*c1)%c2 -> (x%(c2/c1))*c1 when c1 > 0 divides c2 and x*c1 does not wrap: the remainder
    # of a multiple of c1 is c1 times a smaller remainder ((x*2)%6 -> (x%3)*2, in [0, 4]).
    # Without p safe, x = 1073741824: (x*2)%6 is -2147483648%6 = 4, while (x%3)*2 is 2.
    if c1.arg > 0 and c2.arg > 0 and c2.arg % c1.arg == 0 and p.safe:
        return (x % const(c2.arg // c1.arg)) * c1
    return None


def linear_split(d: UOp, c: int):
    """d as c*q + r over its linear form: (q, r), r None when nothing is left; None when a
    part is not safe, nothing divides, or d is too long a sum. Any c with |c| >= 2."""
    if abs(c) < 2 or not d.safe:
        return None
    form = linear_form(d)
    if form is None:
        return None
    terms, constant = form
    whole = {base: k // c for base, k in terms.items() if k % c == 0}
    if not whole:  # no term divides: (y + 5)//2 -> 2 + (y + 1)//2 would only grow the graph
        return None
    rest = {base: k for base, k in terms.items() if k % c}
    r = gather(rest, constant % c) if rest or constant % c else None
    if r is not None and not r.safe:
        return None
    return gather(whole, constant // c), r


@rule("sum//c by terms", UPat(Ops.FLOORDIV, dtype=INT, src=(var("d"), cvar("c"))), FURTHER)
def linear_floordiv(d, c):
    # (x*6 + x*4 + y)//-2 -> x*-5 + y//-2: the split of symbolic.py over the gathered terms, for
    # negative divisors too; exact when d and the rest are safe (the split's own guard)
    parts = linear_split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return q if r is None else q + r // c


@rule("sum%c by terms", UPat(Ops.FLOORMOD, dtype=INT, src=(var("d"), cvar("c"))), FURTHER)
def linear_floormod(d, c):
    # (x + x + 1)%2 -> 1, (x*18 + y*18)%-2 -> 0: the multiples of c drop out
    parts = linear_split(d, c.arg)
    if parts is None:
        return None
    return const(0) if parts[1] is None else parts[1] % c


# ---- comparison folding --------------------------------------------------------------------


@rule("x!=x (int)", UPat(Ops.CMPNE, src=(var("x", dtype=INT), var("x"))), FURTHER)
def int_not_self(x):
    return const(False)  # x != x -> False for i32 (not for f32: nan != nan is True)


@rule(
    "x+c<n",
    UPat(Ops.CMPLT, src=(UPat(Ops.ADD, dtype=INT, src=(var("x"), cvar("c")), name="d"), cvar("n"))),
    FURTHER,
)
def add_const_less(d, x, c, n):
    # x + c < n -> x < n - c when x + c does not wrap and n - c fits; x = INT_MAX, c = 1, n = 0
    # breaks it without the guard (x + 1 wraps to INT_MIN, which is < 0; x < -1 is false)
    if d.safe and INT_MIN <= n.arg - c.arg <= INT_MAX:
        return x.lt(const(n.arg - c.arg))
    return None


# --8<-- [start:factor]
def factor(d: UOp) -> int:
    """The gcd of the constants among the sum d's terms and of their constant factors (x*c
    gives c, a term without one gives nothing); 0 when there are none or the sum is too long."""
    g, leaves, stack = 0, 0, [d]
    while stack:
        node = stack.pop()
        if node.op is Ops.ADD:
            stack.extend(node.src)
            continue
        leaves += 1
        if leaves > MAX_TERMS:
            return 0
        if node.op is Ops.MUL and node.src[1].op is Ops.CONST:
            g = math.gcd(g, node.src[1].arg)
        elif node.op is Ops.CONST:
            g = math.gcd(g, node.arg)
    return g


# --8<-- [end:factor]


# --8<-- [start:lt_folding]
@rule("a*c+b<n", UPat(Ops.CMPLT, src=(var("d", dtype=INT), cvar("n"))), FURTHER)
def sum_less(d, n):
    # c*q < n -> q < ceil(n/c) for c > 0; c*q + r < n -> q < n//c when c | n and 0 <= r < c
    # (r cannot carry c*q past n). Both need d safe: 1073741824*2 < 2 is -2147483648 < 2, True,
    # while 1073741824 < 1 is False.
    whole = factor(d)
    if whole > 1 and (parts := split(d, whole)) is not None and parts[1] is None:
        return parts[0].lt(const(-(-n.arg // whole)))
    c = math.gcd(whole, n.arg)
    if c <= 1 or (parts := split(d, c)) is None or parts[1] is None:
        return None
    q, r = parts
    return q.lt(const(n.arg // c)) if 0 <= r.vmin and r.vmax < c else None


# --8<-- [end:lt_folding]


# --8<-- [start:further_matcher]
# After the strict rules: each node meets the book's rules first, so they fire where they
# always did, and the further rules (which walk whole sums) see only the canonical forms that
# the strict rules leave, and only when none of those fired.
further = default + PatternMatcher(FURTHER)
further_fast = further + PatternMatcher(FAST)


def simplify_further(root: UOp, fast_math: bool = False) -> UOp:
    """Rewrite root with the strict rules and the further rules (and the fast-math rules on
    request)."""
    return graph_rewrite(root, further_fast if fast_math else further)


# --8<-- [end:further_matcher]
