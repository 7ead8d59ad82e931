"""Random inputs and random programs shared by the tests, the short path and the benchmarks.

Relies on `uopc` only. Invariants: a given seed always gives the same program and the same
inputs (nothing here iterates over a set or depends on node ids); every node built here is
well typed by construction, so no generator ever catches a `UOpError`; no program contains
EXP2 or LOG2 (their last bit may differ between folding and C) or a cast to its own dtype.
"""

import math

from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, Ops, ParamArg, Ptr, UOp
from uopc.semantics import f32

# --8<-- [start:specials]
FLT_MAX = f32(3.4028234663852886e38)  # the largest finite float32
FLT_MIN = 2.0**-126  # the smallest normal float32
SUB_MAX = 2.0**-126 - 2.0**-149  # the largest subnormal float32
SUB_MIN = 2.0**-149  # the smallest subnormal float32

SPECIAL_INT = (
    0, 1, -1, 2, -2, 3, 7, -7, 16, -16, 255, 256,
    46340, 46341, -46341,  # around the square root of INT_MAX
    2**30, -(2**30), 2**30 - 1,
    INT_MIN, INT_MIN + 1, INT_MAX, INT_MAX - 1,
)  # fmt: skip

SPECIAL_FLOAT = (
    0.0, -0.0, math.inf, -math.inf, math.nan,
    1.0, -1.0, 0.5, 2.0, -2.0, 3.0, f32(0.1),
    FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, SUB_MAX, -SUB_MAX, SUB_MIN, -SUB_MIN,
    16777216.0,  # 2**24: above it not every integer is a float32
    16777217.0,  # not a float32: rounds to 2**24, kept to exercise that rounding
    2147483520.0,  # the largest float32 below 2**31: the last one a cast to i32 keeps
    2147483648.0, -2147483648.0,  # where the cast to i32 saturates
)  # fmt: skip
# --8<-- [end:specials]


# --8<-- [start:rand_value]
INT_SPECIAL_SHARE = 0.25  # of the i32 inputs, drawn from SPECIAL_INT
FLOAT_SPECIAL_SHARE = 0.4  # of the f32 inputs, drawn from SPECIAL_FLOAT


def rand_value(r, dtype):
    """One input of dtype: a share from the special lists, the rest spread wide."""
    if dtype is BOOL:
        return r.random() < 0.5
    u = r.random()
    if dtype is I32:
        if u < INT_SPECIAL_SHARE:
            return r.choice(SPECIAL_INT)
        if u < INT_SPECIAL_SHARE + 1 / 3:
            return r.randint(-16, 16)  # small: where index arithmetic lives
        return r.randint(INT_MIN, INT_MAX)
    if u < FLOAT_SPECIAL_SHARE:
        return r.choice(SPECIAL_FLOAT)
    if u < 0.7:
        return f32(r.uniform(-1000.0, 1000.0))  # moderate: rounding in the last bits
    # any exponent, subnormals included; the few draws that round up to infinity stay finite
    magnitude = f32((1.0 + r.random()) * 2.0 ** r.randint(-149, 127))
    return math.copysign(min(magnitude, FLT_MAX), r.choice((1.0, -1.0)))


# --8<-- [end:rand_value]


def rand_env(r, params):
    """An input for every param: {slot: value}, inside the param's declared range if any."""
    env = {}
    for param in params:
        arg = param.arg
        value = rand_value(r, arg.dtype)
        if arg.vmin is not None and not arg.vmin <= value <= arg.vmax:
            # the range is a caller promise that rewrites rely on: stay inside it
            value = r.choice((arg.vmin, arg.vmax, r.randint(arg.vmin, arg.vmax)))
        env[arg.slot] = value
    return env


def used_params(root):
    """The PARAM nodes under root, ordered by slot."""
    return sorted((n for n in root.toposort() if n.op is Ops.PARAM), key=lambda n: n.arg.slot)


# ---------------------------------------------------------------------------------------------
# gen_program: a random well-typed expression over an i32 (slot 0), an f32 (1) and a bool (2)
# ---------------------------------------------------------------------------------------------

MIN_NODES, MAX_NODES = 6, 22
FLOAT_CONST_FAVOURITES = (0.0, -0.0, 1.0, -1.0, 2.0)  # the constants float rules look for

# The ops that can take a node of the given dtype as a source, and where (see _grow). Repeats
# weight the draw towards arithmetic; comparisons and casts then move between the dtypes.
GROW_OPS = {
    BOOL: ("MUL", "MAX", "CMPLT", "CMPNE", "CAST", "CAST", "CAST", "WHERE_COND",
           "WHERE_BRANCH"),
    I32: ("ADD", "ADD", "ADD", "MUL", "MUL", "MAX", "CMPLT", "CMPNE", "NEG", "FLOORDIV",
          "FLOORMOD", "CAST", "WHERE_BRANCH"),
    F32: ("ADD", "ADD", "ADD", "MUL", "MUL", "MUL", "MAX", "CMPLT", "CMPNE", "NEG", "RECIP",
          "CAST", "WHERE_BRANCH"),
}  # fmt: skip


def random_range(r):
    """A declared (vmin, vmax) for an i32 param: mostly narrow, sometimes very wide."""
    if r.random() < 0.25:
        return r.choice(((0, 2**30), (-(2**30), 2**29), (INT_MIN, INT_MAX), (0, INT_MAX)))
    low = r.randint(-20, 20)
    return low, low + r.randint(0, 40)


class _Pool:
    """The params and the nodes built so far; operands are drawn from it so that they share."""

    def __init__(self, r, ranges):
        self.r = r
        bounds = random_range(r) if ranges else (None, None)
        self.params = {
            I32: UOp(Ops.PARAM, (), ParamArg(0, I32, *bounds)),
            F32: UOp(Ops.PARAM, (), ParamArg(1, F32)),
            BOOL: UOp(Ops.PARAM, (), ParamArg(2, BOOL)),
        }
        self.nodes = []

    def leaf(self, dtype):
        r = self.r
        if r.random() < 0.5:
            return self.params[dtype]
        if dtype is F32 and r.random() < 0.3:
            return UOp.const(r.choice(FLOAT_CONST_FAVOURITES))
        return UOp.const(rand_value(r, dtype))  # integer constants follow the integer mix

    def pick(self, dtype):
        """An operand of dtype: half the time a node already built, else a leaf."""
        candidates = [n for n in self.nodes if n.dtype is dtype]
        if candidates and self.r.random() < 0.5:
            return self.r.choice(candidates)
        return self.leaf(dtype)


def _grow(pool, node):
    """A new node that has `node` among its srcs; the other srcs come from the pool."""
    r, dtype = pool.r, node.dtype
    kind = r.choice(GROW_OPS[dtype])
    if kind == "CAST":
        return node.cast(r.choice([d for d in (BOOL, I32, F32) if d is not dtype]))
    if kind in ("NEG", "RECIP"):
        return UOp(Ops[kind], (node,))
    if kind == "WHERE_COND":
        branch_dtype = r.choice((BOOL, I32, F32))
        return UOp(Ops.WHERE, (node, pool.pick(branch_dtype), pool.pick(branch_dtype)))
    other = pool.pick(dtype)
    if kind == "WHERE_BRANCH":
        branches = (node, other) if r.random() < 0.5 else (other, node)
        return UOp(Ops.WHERE, (pool.pick(BOOL), *branches))
    srcs = (node, other) if r.random() < 0.5 else (other, node)
    return UOp(Ops[kind], srcs)


def gen_program(r, ranges=False):
    """A random expression of 6 to 22 nodes and the params it uses: (root, params).

    The root grows one op at a time; the other operands are drawn from every node built so
    far, so subexpressions are shared. With ranges=True the i32 param has declared bounds.
    """
    pool = _Pool(r, ranges)
    target = r.randint(MIN_NODES, MAX_NODES)
    root, size, failures = pool.leaf(r.choice((BOOL, I32, F32))), 1, 0
    while size < target and failures < 20:
        # now and then a side node that the root may use later (sharing)
        if r.random() < 0.3:
            pool.nodes.append(_grow(pool, pool.pick(r.choice((BOOL, I32, F32)))))
        candidate = _grow(pool, root)
        candidate_size = len(candidate.toposort())
        if candidate_size > MAX_NODES:
            failures += 1
            continue
        pool.nodes.append(candidate)
        root, size = candidate, candidate_size
    if size < MIN_NODES:  # only after 20 oversized tries in a row; a unary op adds one node
        while size < MIN_NODES:
            root = root.cast(I32 if root.dtype is not I32 else F32)
            size = len(root.toposort())
    return root, used_params(root)


# ---------------------------------------------------------------------------------------------
# gen_index_program: i32 index arithmetic over i, j, k with declared ranges
# ---------------------------------------------------------------------------------------------

MULTIPLIERS = (2, 3, 4, 6, 8, -1, -2)
DIVISORS = (1, 2, 3, 4, 5, 6, 8, -2, -3)
INDEX_OPS = ("ADD", "ADD", "MUL", "MUL", "NEG", "FLOORDIV", "FLOORMOD", "MAX", "WHERE")


def _small_const(r):
    return UOp.const(r.randint(-8, 8))


def _index_operand(r, nodes):
    """Another i32 operand: a node already built (params included) or a small constant."""
    return r.choice(nodes) if r.random() < 0.6 else _small_const(r)


def _divisor(r, multipliers):
    """Half the time a multiplier already used (or a factor of it), so that splits can fire."""
    if multipliers and r.random() < 0.5:
        k = abs(r.choice(multipliers))
        return r.choice([d for d in range(1, k + 1) if k % d == 0])
    return r.choice(DIVISORS)


def _grow_index(r, node, nodes, multipliers):
    kind = r.choice(INDEX_OPS)
    if kind == "NEG":
        return -node
    if kind == "MUL":
        if r.random() < 0.7:
            multipliers.append(r.choice(MULTIPLIERS))
            return node * multipliers[-1]
        return node * r.choice(nodes)
    if kind in ("FLOORDIV", "FLOORMOD"):
        return UOp(Ops[kind], (node, UOp.const(_divisor(r, multipliers))))
    other = _index_operand(r, nodes)
    if kind == "WHERE":
        compare = r.choice((Ops.CMPLT, Ops.CMPNE))
        condition = UOp(compare, (r.choice(nodes), _index_operand(r, nodes)))
        return condition.where(node, other) if r.random() < 0.5 else condition.where(other, node)
    srcs = (node, other) if r.random() < 0.5 else (other, node)
    return UOp(Ops[kind], srcs)


def gen_index_program(r, ranges=((0, 7), (0, 3), (-4, 5))):
    """A random i32 expression over i, j, k (slots 0, 1, 2, with the declared ranges).

    Built from ADD, MUL, NEG, FLOORDIV and FLOORMOD by small constants, MAX, and WHERE on a
    CMPLT or CMPNE; returns (root, params used), params ordered by slot.
    """
    params = [UOp(Ops.PARAM, (), ParamArg(s, I32, lo, hi)) for s, (lo, hi) in enumerate(ranges)]
    nodes, multipliers = list(params), []
    target = r.randint(4, 24)
    root = r.choice(params)
    while len(root.toposort()) < target:
        root = _grow_index(r, root, nodes, multipliers)
        nodes.append(root)
    return root, used_params(root)


# ---------------------------------------------------------------------------------------------
# Memory nodes by hand: the helpers of the renderer's and the runtime's unit tests
# ---------------------------------------------------------------------------------------------


def param(slot, dtype, vmin=None, vmax=None):
    """A PARAM node: the value of call argument `slot`, of dtype, in [vmin, vmax] if given.
    The one helper for it: the demos (through demos/_common.py) and the exercise answers
    import it from here."""
    return UOp(Ops.PARAM, arg=ParamArg(slot, dtype, vmin, vmax))


def ptr_param(slot, size, dtype=F32):
    return UOp(Ops.PARAM, (), ParamArg(slot, Ptr(dtype, size)))


def buffer(slot, size, dtype=F32):
    return UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(dtype, size)))


def at(pointer, index):
    return UOp(Ops.INDEX, (pointer, UOp.const(index)))


def load(pointer, index):
    return UOp(Ops.LOAD, (at(pointer, index),))


def store(pointer, index, value):
    return UOp(Ops.STORE, (at(pointer, index), value))
