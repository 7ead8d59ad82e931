"""Range analysis: the (vmin, vmax, safe) triple of every integer and bool node.

Relies on `ops` and `dtypes` only: a node is read through its fields (op, src, arg, dtype and
its cached triple `_range`), so this module needs nothing of the node's class, and `uop`, whose
`vmin`, `vmax` and `safe` call `fill_ranges`, imports it.
Invariants: a node's triple is computed once, after every src's triple, and cached in the node;
safe means that the wrapped int32 value of the node is its exact value.
"""

import math

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN
from .ops import Ops

# A node refuses every assignment (it never changes after it is built); its range cache is the
# one field written later, once, and only here.
_set = object.__setattr__

FULL = (INT_MIN, INT_MAX)
UNBOUNDED = (-math.inf, math.inf, True)
BOOL_RANGE = (0, 1, True)


# --8<-- [start:fit]
def _fit(lo, hi, safe):
    """The exact bounds if they fit int32; otherwise the op may wrap, so anything goes."""
    if INT_MIN <= lo and hi <= INT_MAX:
        return (lo, hi, safe)
    return (INT_MIN, INT_MAX, False)


# --8<-- [end:fit]


def param_bounds(arg) -> tuple[int, int]:
    """The bounds a PARAM's ParamArg promises, a bound left out (None) being int32's own."""
    return (INT_MIN if arg.vmin is None else arg.vmin, INT_MAX if arg.vmax is None else arg.vmax)


def _range_param(u, srcs, safe):
    if u.dtype is BOOL:
        return BOOL_RANGE
    return (*param_bounds(u.arg), True)


# Beyond the book's table: every row below carries S, the safety of the srcs, where the table
# wrote True (comparisons, casts, WHERE with a known condition). A comparison over a product
# that wraps is computed from the wrapped value, so its value can differ from the exact one;
# keeping S makes "safe means the wrapped value is the exact value" true of every node.
def _range_cast(u, srcs, safe):
    src = u.src[0]
    if u.dtype is BOOL:
        if src.dtype is F32:
            return (0, 1, safe)
        lo, hi, _ = srcs[0]
        if lo == hi == 0:
            return (0, 0, safe)
        return (0, 1, safe) if lo <= 0 <= hi else (1, 1, safe)
    if src.dtype is F32:
        return (INT_MIN, INT_MAX, safe)
    return (srcs[0][0], srcs[0][1], safe)  # from bool or i32: the same values


# --8<-- [start:range_mul]
def _range_mul(u, srcs, safe):
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    products = (lo1 * lo2, lo1 * hi2, hi1 * lo2, hi1 * hi2)
    return _fit(min(products), max(products), safe)


# --8<-- [end:range_mul]


def _range_cmplt(u, srcs, safe):
    if u.src[0].dtype is F32:
        return (0, 1, safe)
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    if hi1 < lo2:
        return (1, 1, safe)
    return (0, 0, safe) if lo1 >= hi2 else (0, 1, safe)


def _range_cmpne(u, srcs, safe):
    if u.src[0].dtype is F32:
        return (0, 1, safe)
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    if hi1 < lo2 or hi2 < lo1:
        return (1, 1, safe)
    return (0, 0, safe) if lo1 == hi1 == lo2 == hi2 else (0, 1, safe)


def _range_where(u, srcs, safe):
    condition, if_true, if_false = srcs
    # a known condition picks one branch; the other branch's safety does not matter
    if condition[0] == condition[1] == 1:
        return (if_true[0], if_true[1], condition[2] and if_true[2])
    if condition[0] == condition[1] == 0:
        return (if_false[0], if_false[1], condition[2] and if_false[2])
    return (min(if_true[0], if_false[0]), max(if_true[1], if_false[1]), safe)


def _range_floordiv(u, srcs, safe):
    (lo, hi, _), (dlo, dhi, _) = srcs
    if dlo <= 0 <= dhi:
        # beyond the book's table: INT_MIN // -1 wraps, so the quotient is not always exact
        return (INT_MIN, INT_MAX, safe and not (lo == INT_MIN and dlo <= -1))
    if dlo == dhi:
        c = dlo
        if c == -1:
            return _fit(-hi, -lo, safe)
        return (min(lo // c, hi // c), max(lo // c, hi // c), safe)
    m = max(abs(lo), abs(hi))
    return _fit(-m, m, safe)


# --8<-- [start:range_floormod]
def _range_floormod(u, srcs, safe):
    (lo, hi, _), (dlo, dhi, _) = srcs
    if dlo <= 0 <= dhi:
        return (INT_MIN, INT_MAX, safe)
    if dlo == dhi:
        c = dlo
        if lo // c == hi // c:
            k = lo // c
            return (lo - k * c, hi - k * c, safe)  # exact: x%4 for x in [9,10] is [1,2]
        return (0, c - 1, safe) if c > 0 else (c + 1, 0, safe)
    return (0, dhi - 1, safe) if dlo > 0 else (dlo + 1, 0, safe)


# --8<-- [end:range_floormod]


def _range_call(u, srcs, safe):
    return BOOL_RANGE if u.dtype is BOOL else (INT_MIN, INT_MAX, False)


# --8<-- [start:range_table]
_RANGES = {
    Ops.CONST: lambda u, srcs, safe: (int(u.arg), int(u.arg), True),
    Ops.PARAM: _range_param,
    Ops.LOAD: lambda u, srcs, safe: BOOL_RANGE if u.dtype is BOOL else (*FULL, True),
    Ops.CAST: _range_cast,
    Ops.NEG: lambda u, srcs, safe: _fit(-srcs[0][1], -srcs[0][0], safe),
    Ops.ADD: lambda u, srcs, safe: _fit(srcs[0][0] + srcs[1][0], srcs[0][1] + srcs[1][1], safe),
    Ops.MUL: _range_mul,
    Ops.MAX: lambda u, srcs, safe: (
        max(srcs[0][0], srcs[1][0]),
        max(srcs[0][1], srcs[1][1]),
        safe,
    ),
    Ops.CMPLT: _range_cmplt,
    Ops.CMPNE: _range_cmpne,
    Ops.WHERE: _range_where,
    Ops.FLOORDIV: _range_floordiv,
    Ops.FLOORMOD: _range_floormod,
    Ops.CALL: _range_call,
}
# --8<-- [end:range_table]


# --8<-- [start:fill_ranges]
def fill_ranges(u) -> None:
    """Cache the triple of u and of every node under it that has none yet, srcs first.

    An iterative walk that stops at cached triples: a node is computed once all its srcs
    have theirs, so usually only u itself and a new constant or two are visited."""
    stack = [u]
    while stack:
        node = stack[-1]
        missing = [src for src in node.src if src._range is None]
        if missing:
            stack.extend(missing)  # computed first; node comes back to the top after them
            continue
        stack.pop()
        if node._range is None:  # a node shared by two users may be pushed twice
            _set(node, "_range", range_of(node))


# --8<-- [end:fill_ranges]


# --8<-- [start:range_of]
def range_of(u):
    """The (vmin, vmax, safe) triple of u; every src's triple must already be cached."""
    srcs = [s._range for s in u.src]
    safe = True
    for triple in srcs:
        safe = safe and triple[2]
    if u.dtype is not I32 and u.dtype is not BOOL:  # i32 and bool nodes are always values
        # no bounds for floats and places; a float computed from a wrapping int is not exact
        return UNBOUNDED if safe or u.dtype is not F32 else (-math.inf, math.inf, False)
    return _RANGES[u.op](u, srcs, safe)


# --8<-- [end:range_of]
