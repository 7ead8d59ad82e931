"""The z3 claims: the book's 59 (verification.md §10) and claims named after every rule.

Relies on z3, and on `uopc` only for op and dtype names, the rule names (`uopc.symbolic.SYM`
and `FAST`) and the contract (`eval_op`, `same`) that z3's answers are checked against. The z3
model of each op below is written here from the contract in `uopc/semantics.py`; no rule code
is used, so a claim says what the rule's comment says, not what its code happens to do.

Invariants: a claim is `proved` only when z3 answers unsat within the claim's time limit; an
`unknown` or a timeout is `unsettled`, which is never as expected. A counterexample counts only
when `eval_op` confirms that the two sides differ there, and a proved rewrite is also evaluated
with `eval_op` at sample points (seeded random and special values, and points z3 finds inside
the hypotheses), so a slip in the z3 model shows up as a failure, not as a proof. Before the
claims, the model of every op is compared with `eval_op` on the special values.

Run: python tests/proofs.py [--only NAME] [--quick] [--timeout S] [--int-timeout S]
One line per claim, grouped under `--- <group> ---` headers; the last line is
`CLAIMS <total> <as-expected> <refuted>`; the exit code is 1 when a claim is not as expected or
the model differs from the contract. With BOOK_NUMBERS=1 the numbers the book quotes (the
tallies, each group's size, the verdicts of chapter 10's tables, chapter 6's counterexample)
follow as `@@ number` lines (tests/protocol.state), computed from the claims' results.
"""

import argparse
import itertools
import math
import operator
import random
import re
import struct
import sys
import time
import zlib
from dataclasses import dataclass, field

import z3

from book import protocol
from uopc.dtypes import BOOL, F32, I32, INT_MAX, INT_MIN
from uopc.further import FURTHER as FURTHER_RULES
from uopc.ops import Ops
from uopc.semantics import eval_op, f32, floordiv, floormod, same
from uopc.symbolic import FAST, SYM
from verify.generators import SPECIAL_FLOAT, SPECIAL_INT, rand_value

TIMEOUT = 60.0  # seconds per bit-vector or float claim
INT_TIMEOUT = 120.0  # seconds per claim over mathematical integers (§10.3)
SAMPLES = 48  # random points per proved rewrite for the contract cross-check


# ---- the contract in z3 terms --------------------------------------------------------------
# Every claim gets a z3 context of its own (see Context), so the helpers below take the
# context from their operands. RNE, round to nearest with ties to even, is every float op's.
def rne(t):
    return z3.RNE(t.ctx)


def z3_const(value, dtype, zc):
    """A z3 numeral, in the z3 context zc, for a Python value of dtype."""
    if dtype is BOOL:
        return z3.BoolVal(value, zc)
    if dtype is I32:
        return z3.BitVecVal(value, 32, zc)
    sort = z3.Float32(zc)
    if math.isnan(value):
        return z3.fpNaN(sort)
    if math.isinf(value):
        return z3.fpInfinity(sort, value < 0)
    if value == 0.0:  # spelled out: the sign of zero is what several claims are about
        return z3.fpZero(sort, math.copysign(1.0, value) < 0)
    return z3.FPVal(value, None, sort, zc)


def bv32(value, t):
    return z3.BitVecVal(value, 32, t.ctx)


def _with_context(fn):
    # z3's fp functions build in the global context unless given `ctx`, and mixing contexts
    # crashes the process: take the context from the last argument
    return lambda *args: fn(*args, ctx=args[-1].ctx)


fp_add, fp_mul, fp_div, fp_neg = map(_with_context, (z3.fpAdd, z3.fpMul, z3.fpDiv, z3.fpNeg))
fp_lt, fp_gt, fp_leq, fp_geq, fp_eq = map(
    _with_context, (z3.fpLT, z3.fpGT, z3.fpLEQ, z3.fpGEQ, z3.fpEQ)
)
fp_is_nan, fp_is_zero, fp_bits = map(_with_context, (z3.fpIsNaN, z3.fpIsZero, z3.fpToIEEEBV))
fp_from_i32, fp_to_i32 = map(_with_context, (z3.fpSignedToFP, z3.fpToSBV))


def floordiv_bv(a, b):
    # bvsdiv truncates and wraps INT_MIN / -1 to INT_MIN, as the contract does; a non-zero
    # remainder whose sign differs from the divisor's moves the quotient one step down
    q, r = a / b, z3.SRem(a, b)
    down = z3.And(r != 0, (r < 0) != (b < 0))
    return z3.If(b == 0, bv32(0, a), z3.If(down, q - 1, q))


def floormod_bv(a, b):
    # the remainder takes the divisor's sign; a zero divisor gives a (so a == b*(a//b) + a%b)
    r = z3.SRem(a, b)
    up = z3.And(r != 0, (r < 0) != (b < 0))
    return z3.If(b == 0, a, z3.If(up, r + b, r))


# One line per op and kind of the sources' dtype, as in the contract's tables.
MODEL = {
    "int": {
        Ops.ADD: lambda a, b: a + b,  # bit-vector arithmetic wraps modulo 2**32
        Ops.MUL: lambda a, b: a * b,
        Ops.NEG: lambda a: -a,  # -INT_MIN is INT_MIN
        Ops.MAX: lambda a, b: z3.If(a > b, a, b),  # a signed comparison
        Ops.CMPLT: lambda a, b: a < b,
        Ops.CMPNE: lambda a, b: a != b,
        Ops.FLOORDIV: floordiv_bv,
        Ops.FLOORMOD: floormod_bv,
    },
    "float": {
        Ops.ADD: lambda a, b: fp_add(rne(a), a, b),
        Ops.MUL: lambda a, b: fp_mul(rne(a), a, b),
        Ops.NEG: fp_neg,  # flips the sign bit, of zeros too
        Ops.MAX: lambda a, b: z3.If(fp_gt(a, b), a, b),  # nan in a gives b, nan in b gives b
        Ops.RECIP: lambda a: fp_div(rne(a), z3_const(1.0, F32, a.ctx), a),
        Ops.CMPLT: fp_lt,  # false with nan
        Ops.CMPNE: lambda a, b: z3.Not(fp_eq(a, b)),  # true with nan; 0.0 != -0.0 is false
    },
    "bool": {
        Ops.MUL: z3.And,
        Ops.MAX: z3.Or,
        Ops.CMPLT: lambda a, b: z3.And(z3.Not(a), b),  # False < True
        Ops.CMPNE: z3.Xor,
    },
}


def cast_z3(v, src, dst):
    """The contract's casts: truncation toward zero, saturation, nan to 0 (i32) or True."""
    if src is dst:
        return v
    if dst is BOOL:
        return v != 0 if src is I32 else z3.Not(fp_is_zero(v))  # nan is not zero: True
    if dst is F32:
        if src is BOOL:
            return z3.If(v, z3_const(1.0, F32, v.ctx), z3_const(0.0, F32, v.ctx))
        return fp_from_i32(rne(v), v, z3.Float32(v.ctx))
    if src is BOOL:
        return z3.If(v, bv32(1, v), bv32(0, v))
    big, small = (z3_const(limit, F32, v.ctx) for limit in (2147483648.0, -2147483648.0))
    truncated = fp_to_i32(z3.RTZ(v.ctx), v, z3.BitVecSort(32, v.ctx))
    low = z3.If(fp_leq(v, small), bv32(INT_MIN, v), truncated)
    high = z3.If(fp_geq(v, big), bv32(INT_MAX, v), low)
    return z3.If(fp_is_nan(v), bv32(0, v), high)


def same_z3(a, b, dtype):
    """`same` in z3: floats by IEEE bit pattern, all nans equal (z3 leaves a nan's bits open)."""
    if dtype is not F32:
        return a == b
    both_nan = z3.And(fp_is_nan(a), fp_is_nan(b))
    numbers = z3.And(z3.Not(fp_is_nan(a)), z3.Not(fp_is_nan(b)))
    return z3.Or(both_nan, z3.And(numbers, fp_bits(a) == fp_bits(b)))


# Over mathematical integers z3's div is Euclidean; floor division by a negative divisor is the
# Euclidean quotient of the negated operands. The remainder is the contract's own formula
# a - b*(a//b), which z3 handles far better than its `mod` when the divisor is symbolic.
def floordiv_int(a, b):
    return z3.If(b == 0, 0, z3.If(b > 0, a / b, (-a) / (-b)))


def floormod_int(a, b):
    return z3.If(b == 0, a, a - b * floordiv_int(a, b))


# Where the hypotheses make the divisor positive, Euclidean division is floor division as it
# stands; leaving out the case split is what lets z3 settle claims with symbolic divisors.
def floordiv_pos(a, b):
    return a / b


def floormod_pos(a, b):
    return a - b * (a / b)


def in_i32(v):
    """v (an integer or a 64-bit bit vector) lies in the int32 range."""
    return z3.And(v >= INT_MIN, v <= INT_MAX)


# ---- terms: the two sides of a claim, evaluated by z3 and by eval_op -----------------------
class E:
    """A term: a variable (op PARAM, arg its name), a constant, or an op over terms."""

    __slots__ = ("op", "dtype", "src", "arg")

    def __init__(self, op, dtype, src=(), arg=None):
        self.op, self.dtype, self.src, self.arg = op, dtype, tuple(src), arg

    def __add__(self, other):
        return alu(Ops.ADD, self, other)

    def __mul__(self, other):
        return alu(Ops.MUL, self, other)

    def __floordiv__(self, other):
        return alu(Ops.FLOORDIV, self, other)

    def __mod__(self, other):
        return alu(Ops.FLOORMOD, self, other)

    def __neg__(self):
        return alu(Ops.NEG, self)


DTYPE_OF = {bool: BOOL, int: I32, float: F32}


def var(name, dtype):
    return E(Ops.PARAM, dtype, arg=name)


def const(value):
    return E(Ops.CONST, DTYPE_OF[type(value)], arg=value)


def alu(op, *srcs):
    srcs = [s if isinstance(s, E) else const(s) for s in srcs]
    if op in (Ops.CMPLT, Ops.CMPNE):
        return E(op, BOOL, srcs)
    return E(op, srcs[1].dtype if op is Ops.WHERE else srcs[0].dtype, srcs)


def neg(t):  # -(-x) written with `-` reads as a decrement to linters
    return alu(Ops.NEG, t)


def maximum(a, b):
    return alu(Ops.MAX, a, b)


def less(a, b):
    return alu(Ops.CMPLT, a, b)


def ne(a, b):
    return alu(Ops.CMPNE, a, b)


def where(cond, a, b):
    return alu(Ops.WHERE, cond, a, b)


def recip(t):
    return alu(Ops.RECIP, t)


def cast(t, dtype):
    return E(Ops.CAST, dtype, (t,))


def walk(t):
    """Every node of a term, sources first (claim terms are a few nodes deep)."""
    for s in t.src:
        yield from walk(s)
    yield t


def evaluate(t, values):
    """The value of a term under the contract, `values` giving each variable."""
    if t.op is Ops.PARAM:
        return values[t.arg]
    if t.op is Ops.CONST:
        return t.arg
    return eval_op(t.op, t.dtype, [evaluate(s, values) for s in t.src])


RING = {Ops.ADD: operator.add, Ops.MUL: operator.mul, Ops.NEG: operator.neg}
SORT = {BOOL: z3.BoolSort, I32: lambda zc: z3.BitVecSort(32, zc), F32: z3.Float32}


class Context:
    """The z3 side of one claim: its variables (created on first use) and its terms.

    Each claim has a z3 context of its own: in a shared one, the terms left by earlier claims
    change how z3 numbers and orders the new ones, and with that its search, so a claim took
    2 s alone and 55 s after others, and a counterexample depended on what ran before it."""

    def __init__(self):
        self.zc = z3.Context()
        self.vars = {}  # name -> (z3 variable, dtype, or "int" for any other kind of variable)

    def var(self, name, dtype):
        if name not in self.vars:
            self.vars[name] = (z3.Const(name, SORT[dtype](self.zc)), dtype)
        if self.vars[name][1] is not dtype:  # one name, one variable: a claim-writing slip
            raise ValueError(f"variable {name} is used as {self.vars[name][1]} and {dtype}")
        return self.vars[name][0]

    def other(self, name, sort):
        """A variable outside the three dtypes: a mathematical integer, a 64-bit vector."""
        if name not in self.vars:
            self.vars[name] = (z3.Const(name, sort), "int")
        return self.vars[name][0]

    def integer(self, name):
        return self.other(name, z3.IntSort(self.zc))

    def const(self, value, dtype):
        return z3_const(value, dtype, self.zc)

    def z(self, t):
        if t.op is Ops.PARAM:
            return self.var(t.arg, t.dtype)
        if t.op is Ops.CONST:
            return self.const(t.arg, t.dtype)
        vals = [self.z(s) for s in t.src]
        if t.op is Ops.WHERE:
            return z3.If(*vals)
        if t.op is Ops.CAST:
            return cast_z3(vals[0], t.src[0].dtype, t.dtype)
        return MODEL[t.src[0].dtype.kind][t.op](*vals)

    def exact(self, t):
        """The exact value of an i32 ring term in 64 bits (enough while every node fits)."""
        if t.op is Ops.PARAM:
            return z3.SignExt(32, self.z(t))
        if t.op is Ops.CONST:
            return z3.BitVecVal(t.arg, 64, self.zc)
        if t.op not in RING:
            raise ValueError(f"no exact value for {t.op} here: only ring ops are modelled")
        return RING[t.op](*[self.exact(s) for s in t.src])

    def safe(self, t):
        """`safe` (compiler.md §6.4): no ADD, MUL or NEG under t wraps."""
        return [in_i32(self.exact(n)) for n in walk(t) if n.op in (Ops.ADD, Ops.MUL, Ops.NEG)]


# ---- claims --------------------------------------------------------------------------------
@dataclass
class Claim:
    """One question for z3: a rewrite (or identity) that must hold, or must fail."""

    name: str  # the rule's name (rule claims) or the book's label (book claims)
    label: str  # which instance of the rule is claimed; empty for book claims
    group: str
    expect: str  # "proved" or "refuted"
    pose: object  # Context -> (goal, hypotheses, pairs of terms for the contract cross-check)
    theory: str = "bv"  # "bv", "float" or "int": "int" gets the longer time limit
    note: str = ""  # why the claim is posed the way it is; printed under its line
    quick: bool = True  # settled by the quick pytest run too

    @property
    def title(self):
        return f"{self.name}: {self.label}" if self.label else self.name


@dataclass
class Result:
    claim: Claim
    outcome: str  # "proved", "refuted" or "unsettled"
    seconds: float
    detail: str = ""  # the counterexample, or why nothing was settled
    points: int = 0  # pairs evaluated with eval_op at sample points (proved rewrites)
    confirmed: bool = False  # eval_op confirmed the counterexample
    problem: str = ""  # the contract contradicts z3's answer
    example: dict = field(default_factory=dict)  # the counterexample: variable -> value
    sides: list = field(default_factory=list)  # (lhs, rhs) by the contract at the example

    @property
    def as_expected(self):
        return self.outcome == self.claim.expect and not self.problem


def rewrite(claims, group, name, pairs, expect="proved", hyps=None, label="", **extra):
    """Claim that each pair (lhs, rhs) has the same value, under hyps(ctx) when given."""
    pairs = pairs if isinstance(pairs, list) else [pairs]
    floats = any(n.dtype is F32 for pair in pairs for t in pair for n in walk(t))

    def pose(ctx):
        goal = z3.And([same_z3(ctx.z(lhs), ctx.z(rhs), lhs.dtype) for lhs, rhs in pairs])
        return goal, (hyps(ctx) if hyps else []), pairs

    theory = "float" if floats else "bv"
    claims.append(Claim(name, label, group, expect, pose, theory, **extra))


def formula(claims, group, name, build, theory, label="", **extra):
    """Claim a z3 formula, build(ctx) -> (goal, hypotheses), with no terms to cross-check."""

    def pose(ctx):
        return (*build(ctx), [])

    claims.append(Claim(name, label, group, "proved", pose, theory, **extra))


# the variables of the claims
x, y, z = var("x", I32), var("y", I32), var("z", I32)
a, b, e = var("a", I32), var("b", I32), var("e", I32)
c, c1, c2 = var("c", I32), var("c1", I32), var("c2", I32)
lo, hi = var("lo", I32), var("hi", I32)
fx, fy, fz, fc = var("x", F32), var("y", F32), var("z", F32), var("c", F32)
fc1, fc2 = var("c1", F32), var("c2", F32)
bx, by, bc = var("x", BOOL), var("y", BOOL), var("c", BOOL)
PAIR_OF = {I32: (x, y), F32: (fx, fy), BOOL: (bx, by)}  # two variables of each dtype


# ---- the book's claims: integer rules (25, bit vectors) ------------------------------------
G_INT = "integer rules (32-bit bit vectors)"
MERGE_PAIRS = ((3, 5), (-2, 7), (4, 4), (1, -1))
SLOW = {3, 7, (2, 3), (3, 5)}  # bit-vector division by 3, 5, 7: seconds, so full runs only


def book_integer(claims):
    for k1, k2 in MERGE_PAIRS:
        rewrite(claims, G_INT, f"(x*{k1})*{k2} -> x*{k1 * k2}", ((x * k1) * k2, x * (k1 * k2)))
    for k1, k2 in MERGE_PAIRS:
        rewrite(claims, G_INT, f"(x+{k1})+{k2} -> x+{k1 + k2}", ((x + k1) + k2, x + (k1 + k2)))
    for k1, k2 in MERGE_PAIRS:
        title = f"(x+{k1})*{k2} -> x*{k2} + {k1 * k2}"
        rewrite(claims, G_INT, title, ((x + k1) * k2, x * k2 + k1 * k2))
    for k in (2, 3, 4, 7, 16):  # a - b is ADD(a, NEG(b)): there is no SUB
        title, pair = f"x%{k} == x - {k}*(x//{k})", (x % k, x + -(const(k) * (x // k)))
        rewrite(claims, G_INT, title, pair, quick=k not in SLOW)
    for k1, k2 in ((2, 3), (4, 4), (3, 5), (8, 2)):
        title, pair = f"(x//{k1})//{k2} -> x//{k1 * k2}", ((x // k1) // k2, x // (k1 * k2))
        rewrite(claims, G_INT, title, pair, quick=(k1, k2) not in SLOW)
    rewrite(claims, G_INT, "x//1 -> x and x%1 -> 0", [(x // 1, x), (x % 1, const(0))])
    rewrite(claims, G_INT, "x//-1 -> -x and x%-1 -> 0", [(x // -1, -x), (x % -1, const(0))])
    rewrite(claims, G_INT, "x//0 -> 0 and x%0 -> x", [(x // 0, const(0)), (x % 0, x)])
    rewrite(claims, G_INT, "INT_MIN//-1 == INT_MIN", (const(INT_MIN) // -1, const(INT_MIN)))


# ---- the book's claims: the divisible-terms split (6, bit vectors) -------------------------
G_SPLIT = "the divisible-terms split (bit vectors; guarded: a*k and the sum fit in int32)"


def book_split(claims):
    for k, div in ((4, 4), (24, 8)):
        d, q = a * k + b, a * (k // div)

        def guard(ctx, d=d):
            return ctx.safe(d)

        split = f"(a*{k}+b)//{div} -> a*{k // div} + b//{div}"
        rest = f"(a*{k}+b)%{div} -> b%{div}"
        rewrite(claims, G_SPLIT, f"{split}, guarded", (d // div, q + b // div), hyps=guard)
        rewrite(claims, G_SPLIT, f"{rest}, guarded", (d % div, b % div), hyps=guard)
        rewrite(claims, G_SPLIT, f"{split}, no guard", (d // div, q + b // div), "refuted")


# ---- the book's claims: splits by other divisors (8, mathematical integers) ----------------
G_NPOT = "divisors other than powers of two (integers, guarded: bit vectors did not settle)"


def split_over_integers(k, div, form):
    """(a*k + b)//div or %div over integers, with a, b, a*k and a*k + b inside int32."""

    def build(ctx):
        ai, bi = ctx.integer("a"), ctx.integer("b")
        d = ai * k + bi
        hyps = [in_i32(ai), in_i32(bi), in_i32(ai * k), in_i32(d)]
        if form == "//":
            return floordiv_int(d, div) == ai * (k // div) + floordiv_int(bi, div), hyps
        return floormod_int(d, div) == floormod_int(bi, div), hyps

    return build


def book_integers(claims):
    for k, div in ((6, 3), (15, 5), (35, 7), (6, 6)):
        title = f"(a*{k}+b)//{div} -> a*{k // div} + b//{div}"
        formula(claims, G_NPOT, title, split_over_integers(k, div, "//"), "int")
        title = f"(a*{k}+b)%{div} -> b%{div}"
        formula(claims, G_NPOT, title, split_over_integers(k, div, "%"), "int")


# ---- the book's claims: the bucket range rule (6, bit vectors) -----------------------------
G_BUCKET = "the bucket range rule (bit vectors, x inside its range)"


def book_bucket(claims):
    for low, high, div in ((8, 11, 4), (12, 17, 6), (-10, -6, 5)):
        k = low // div

        def inside(ctx, low=low, high=high):
            return [ctx.z(x) >= low, ctx.z(x) <= high]

        span = f"x in [{low},{high}]"
        title = f"{span}: x%{div} -> x{-k * div:+d}"
        rewrite(claims, G_BUCKET, title, (x % div, x + (-k * div)), hyps=inside)
        rewrite(claims, G_BUCKET, f"{span}: x//{div} -> {k}", (x // div, const(k)), hyps=inside)


# --8<-- [start:book_float]
# ---- the book's claims: float32 rules (14) -------------------------------------------------
G_FLOAT = "float32 rules (bit patterns, all nans equal)"
BOOK_FLOAT = (  # title, lhs, rhs, expected, quick
    ("x*1.0 -> x", fx * 1.0, fx, "proved", True),
    ("x+(-0.0) -> x", fx + -0.0, fx, "proved", True),
    ("x+0.0 -> x", fx + 0.0, fx, "refuted", True),
    ("x*0.0 -> 0.0", fx * 0.0, const(0.0), "refuted", True),
    ("(x+y)+z -> x+(y+z)", (fx + fy) + fz, fx + (fy + fz), "refuted", False),
    ("x*(1/x) -> 1.0", fx * recip(fx), const(1.0), "refuted", False),
    ("-(-x) -> x", neg(neg(fx)), fx, "proved", True),
    ("x*-1.0 -> -x", fx * -1.0, -fx, "proved", True),
    ("-(x*y) -> x*(-y)", -(fx * fy), fx * -fy, "proved", True),
    ("max(x,y) -> max(y,x)", maximum(fx, fy), maximum(fy, fx), "refuted", True),
    ("x+(-x) -> 0.0", fx + -fx, const(0.0), "refuted", True),
    ("max(x,x) -> x", maximum(fx, fx), fx, "proved", True),
    ("x+y == y+x", fx + fy, fy + fx, "proved", True),
    ("x*y == y*x", fx * fy, fy * fx, "proved", True),
)


def book_float(claims):
    for title, lhs, rhs, expect, quick in BOOK_FLOAT:
        rewrite(claims, G_FLOAT, title, (lhs, rhs), expect, quick=quick)


# --8<-- [end:book_float]

BOOK_GROUPS = (G_INT, G_SPLIT, G_NPOT, G_BUCKET, G_FLOAT)


# ---- claims named after the strict rules ---------------------------------------------------
G_RULES = "strict rules (each has a proved claim named after it)"
COMMUTING = {  # canonical order reorders these; bool has no ADD, float MAX is left alone
    I32: (Ops.ADD, Ops.MUL, Ops.CMPNE, Ops.MAX),
    BOOL: (Ops.MUL, Ops.CMPNE, Ops.MAX),
    F32: (Ops.ADD, Ops.MUL, Ops.CMPNE),
}
SYMBOL = {Ops.ADD: "+", Ops.MUL: "*", Ops.CMPNE: "!=", Ops.MAX: "max"}


def rules_order(claims):
    for dtype, ops in COMMUTING.items():
        p, q = PAIR_OF[dtype]
        for op in ops:
            s = SYMBOL[op]
            both = ("max(a,b)", "max(b,a)") if op is Ops.MAX else (f"a{s}b", f"b{s}a")
            label = "{} == {} ({})".format(*both, dtype.name)
            rewrite(claims, G_RULES, "canonical order", (alu(op, p, q), alu(op, q, p)), label=label)
    label = "max(a,b) == max(b,a) fails for f32, so the rule leaves float MAX alone"
    pair = (maximum(fx, fy), maximum(fy, fx))
    rewrite(claims, G_RULES, "canonical order", pair, "refuted", label=label)


IDENTITIES = (  # rule name, label, lhs, rhs
    ("x*1", "x*1 -> x (i32)", x * 1, x),
    ("x*1", "x*1.0 -> x (f32)", fx * 1.0, fx),
    ("x*-1", "x*-1 -> -x (i32)", x * -1, -x),
    ("x*-1", "x*-1.0 -> -x (f32)", fx * -1.0, -fx),
    ("x+(-0.0) (float)", "x+(-0.0) -> x", fx + -0.0, fx),
    ("x+0 (int)", "x+0 -> x", x + 0, x),
    ("-(-x)", "-(-x) -> x (i32)", neg(neg(x)), x),
    ("-(-x)", "-(-x) -> x (f32)", neg(neg(fx)), fx),
    ("-(x*c)", "-(x*c) -> x*(-c), c symbolic (i32)", -(x * c), x * -c),
    ("-(x*c)", "-(x*c) -> x*(-c), c symbolic (f32)", -(fx * fc), fx * -fc),
    ("x+(-x) (int)", "x+(-x) -> 0", x + -x, const(0)),
    ("x*True (bool)", "x*True -> x", bx * True, bx),
    ("where(c,True,False)", "where(c,True,False) -> c", where(bc, True, False), bc),
    ("where(c,False,True)", "where(c,False,True) -> c!=True", where(bc, False, True), ne(bc, True)),
)


def rules_identities(claims):
    for name, label, lhs, rhs in IDENTITIES:
        rewrite(claims, G_RULES, name, (lhs, rhs), label=label)
    for dtype, (p, q) in PAIR_OF.items():
        tag = f"({dtype.name})"
        table = (  # rule name, label, pairs
            ("max(x,x)", "max(x,x) -> x", (maximum(p, p), p)),
            ("x<x", "x<x -> False", (less(p, p), const(False))),
            ("cast to own dtype", "cast(x) -> x", (cast(p, dtype), p)),
            ("where(const,a,b)", "where(True,a,b) -> a and where(False,a,b) -> b",
             [(where(True, p, q), p), (where(False, p, q), q)]),
            ("where(c,a,a)", "where(c,a,a) -> a", (where(bc, p, p), p)),
        )  # fmt: skip
        for name, label, pairs in table:
            rewrite(claims, G_RULES, name, pairs, label=f"{label} {tag}")


# why the division rules' claims with symbolic constants are posed over integers
SYMBOLIC = "over integers: with a symbolic divisor the bit-vector form did not settle in 60 s"


def as_int(ctx, t):
    """A bool or i32 term as a 32-bit value, bools as 0 or 1 (as ranges see them)."""
    v = ctx.z(t)
    return z3.If(v, bv32(1, v), bv32(0, v)) if t.dtype is BOOL else v


def in_range(ctx, t, low, high):
    # range soundness (claim 4, tested by the ranges layer) is a hypothesis of these claims
    return [ctx.z(low) <= as_int(ctx, t), as_int(ctx, t) <= ctx.z(high)]


def rules_ranges(claims):
    xlo, xhi, ylo, yhi = (var(n, I32) for n in ("a_vmin", "a_vmax", "b_vmin", "b_vmax"))
    for p, q, point in ((x, y, lo), (bx, by, cast(lo, BOOL))):
        tag = f"({p.dtype.name})"

        def point_range(ctx, p=p):
            return in_range(ctx, p, lo, hi) + [ctx.z(lo) == ctx.z(hi)]

        def first(ctx, p=p, q=q):  # a.vmin >= b.vmax
            ranges = in_range(ctx, p, xlo, xhi) + in_range(ctx, q, ylo, yhi)
            return ranges + [ctx.z(xlo) >= ctx.z(yhi)]

        def second(ctx, p=p, q=q):  # b.vmin >= a.vmax
            ranges = in_range(ctx, p, xlo, xhi) + in_range(ctx, q, ylo, yhi)
            return ranges + [ctx.z(ylo) >= ctx.z(xhi)]

        table = (  # rule name, label, pair, hypotheses
            ("range is a point", "x in [v,v] -> v", (p, point), point_range),
            ("max by range", "a.vmin >= b.vmax: max(a,b) -> a", (maximum(p, q), p), first),
            ("max by range", "b.vmin >= a.vmax: max(a,b) -> b", (maximum(p, q), q), second),
        )
        for name, label, pair, hyps in table:
            rewrite(claims, G_RULES, name, pair, hyps=hyps, label=f"{label} {tag}")


def bucket_over_integers(ctx):
    xi, low, high, ci = (ctx.integer(n) for n in ("x", "lo", "hi", "c"))
    k = floordiv_int(low, ci)
    hyps = [in_i32(xi), in_i32(low), in_i32(high), in_i32(ci), ci != 0, low <= xi, xi <= high]
    return floormod_int(xi, ci) == xi - k * ci, hyps + [k == floordiv_int(high, ci)]


def rules_bucket(claims):
    name = "x%c inside one bucket"
    label = "x in [lo,hi], lo//c == hi//c == k: x%c -> x-k*c, c symbolic (integers)"
    note = f"{SYMBOLIC}; x-k*c is x%c, inside int32, so x + wrap32(-k*c) equals it"
    formula(claims, G_RULES, name, bucket_over_integers, "int", label=label, note=note)
    for div in (4, -4):  # in bit vectors the wrap of the replacement is modelled too

        def bucket(ctx, div=div):  # k = lo//div is exact here: only a divisor of -1 wraps
            return in_range(ctx, x, lo, hi) + [ctx.z(lo // div) == ctx.z(hi // div)]

        label = f"x in [lo,hi], lo//{div} == hi//{div} == k: x%{div} -> x + wrap32(-k*{div})"
        pair = (x % div, x + -((lo // div) * div))
        rewrite(claims, G_RULES, name, pair, hyps=bucket, label=label)


def rules_constants(claims):
    # the replacement constants wrap32(c1+c2) and wrap32(c1*c2) are the i32 ADD and MUL of c1, c2
    table = (
        ("(x+c1)+c2", "(x+c1)+c2 -> x+(c1+c2)", (x + c1) + c2, x + (c1 + c2)),
        ("(x*c1)*c2", "(x*c1)*c2 -> x*(c1*c2)", (x * c1) * c2, x * (c1 * c2)),
        ("(x+c1)*c2", "(x+c1)*c2 -> x*c2 + c1*c2", (x + c1) * c2, x * c2 + c1 * c2),
    )
    for name, label, lhs, rhs in table:
        rewrite(claims, G_RULES, name, (lhs, rhs), label=f"{label}, c1 and c2 symbolic")
    for k, rhs, text in ((1, x, "x"), (-1, -x, "-x"), (0, const(0), "0")):
        rewrite(claims, G_RULES, "x//c trivial", (x // k, rhs), label=f"x//{k} -> {text}")
    for k, rhs, text in ((0, x, "x"), (1, const(0), "0"), (-1, const(0), "0")):
        rewrite(claims, G_RULES, "x%c trivial", (x % k, rhs), label=f"x%{k} -> {text}")


def nested_over_integers(form):
    """(x//c1)//c2 -> x//(c1*c2) or (x%c1)%c2 -> x%c2 with symbolic positive divisors."""

    def build(ctx):
        xi, d1, d2, m = (ctx.integer(n) for n in ("x", "c1", "c2", "m"))
        if form == "//":
            hyps = [in_i32(xi), d1 > 0, d2 > 0, d1 * d2 <= INT_MAX]
            return floordiv_pos(floordiv_pos(xi, d1), d2) == floordiv_pos(xi, d1 * d2), hyps
        hyps = [in_i32(xi), in_i32(d1), d2 > 0, m > 0, d1 == d2 * m]
        return floormod_pos(floormod_pos(xi, d1), d2) == floormod_pos(xi, d2), hyps

    return build


DIV_NOTE = f"{SYMBOLIC}; x//c for c > 0, and c1*c2 by the guard, lie in int32: nothing wraps"
MOD_NOTE = f"{SYMBOLIC}; c1 % c2 == 0 (c1, c2 > 0) is posed as c1 == c2*m, m >= 1, the same"


def rules_nested(claims):
    label = "(x//c1)//c2 -> x//(c1*c2), c1, c2 > 0, c1*c2 <= INT_MAX, symbolic (integers)"
    build = nested_over_integers("//")
    formula(claims, G_RULES, "(x//c1)//c2", build, "int", label=label, note=DIV_NOTE)
    label = "(x%c1)%c2 -> x%c2, c1, c2 > 0, c2 divides c1, symbolic (integers)"
    build = nested_over_integers("%")
    formula(claims, G_RULES, "(x%c1)%c2", build, "int", label=label, note=MOD_NOTE)
    table = (  # rule name, label, lhs, rhs, expected
        ("(x//c1)//c2", "(x//16)//8 -> x//128", (x // 16) // 8, x // 128, "proved"),
        ("(x//c1)//c2", "(x//65536)//32767 -> x//2147418112, a product just below INT_MAX",
         (x // 65536) // 32767, x // 2147418112, "proved"),
        ("(x//c1)//c2", "(x//-2)//-3 -> x//6 fails: the guard c1, c2 > 0 is needed",
         (x // -2) // -3, x // 6, "refuted"),
        ("(x//c1)//c2", "(x//65536)//65536 -> x//wrap32(2**32) fails: c1*c2 <= INT_MAX is needed",
         (x // 65536) // 65536, x // 0, "refuted"),
        ("(x%c1)%c2", "(x%8)%4 -> x%4", (x % 8) % 4, x % 4, "proved"),
        ("(x%c1)%c2", "(x%12)%4 -> x%4", (x % 12) % 4, x % 4, "proved"),
        ("(x%c1)%c2", "(x%6)%4 -> x%4 fails: c2 must divide c1", (x % 6) % 4, x % 4, "refuted"),
    )  # fmt: skip
    for name, label, lhs, rhs, expect in table:
        rewrite(claims, G_RULES, name, (lhs, rhs), expect, label=label)


def split_over_integers_symbolic(form, rest):
    """d = c*q + r (or d = c*q) with c >= 1 symbolic, d and r inside int32."""

    def build(ctx):
        ci, qi, ri = ctx.integer("c"), ctx.integer("q"), ctx.integer("r")
        d = ci * qi + ri if rest else ci * qi
        hyps = [ci >= 1, in_i32(d)] + ([in_i32(ri)] if rest else [])
        if form == "//":
            return floordiv_pos(d, ci) == qi + (floordiv_pos(ri, ci) if rest else 0), hyps
        return floormod_pos(d, ci) == (floormod_pos(ri, ci) if rest else 0), hyps

    return build


def quotient_fits(ctx):
    # with c >= 2, d = c*q + r and r inside int32, so is q: q + r//c does not wrap on the way
    ci, qi, ri = ctx.integer("c"), ctx.integer("q"), ctx.integer("r")
    return in_i32(qi), [ci >= 2, in_i32(ci * qi + ri), in_i32(ri)]


def split_wrapped(form, div):
    """Bit vectors: q is the wrapped value of the exact quotient Q, d = div*Q + r fits."""

    def build(ctx):
        big_q, r = ctx.other("Q", z3.BitVecSort(64, ctx.zc)), ctx.var("r", I32)
        exact_d = big_q * div + z3.SignExt(32, r)
        # |Q| < 2**33 follows from d and r fitting; it only keeps div*Q from wrapping in 64 bits
        hyps = [in_i32(exact_d), big_q < 2**33, big_q > -(2**33)]
        d, q, k = z3.Extract(31, 0, exact_d), z3.Extract(31, 0, big_q), bv32(div, r)
        if form == "//":
            return floordiv_bv(d, k) == q + floordiv_bv(r, k), hyps
        return floormod_bv(d, k) == floormod_bv(r, k), hyps

    return build


SPLIT_NOTE = f"{SYMBOLIC}; the bit-vector claims that follow model the wraps"
WRAP_NOTE = "for c = 1 the sum q may wrap, and the ring still gives d back"


def rules_split(claims):
    for form, name in (("//", "(a*c1+b)//c2"), ("%", "(a*c1+b)%c2")):
        with_rest, alone = ("q + r//c", "q") if form == "//" else ("r%c", "0")
        label = f"d = c*q + r, d and r in int32: d{form}c -> {with_rest}, c symbolic (integers)"
        build = split_over_integers_symbolic(form, True)
        formula(claims, G_RULES, name, build, "int", label=label, note=SPLIT_NOTE)
        label = f"d = c*q in int32: d{form}c -> {alone}, c symbolic (integers)"
        formula(
            claims, G_RULES, name, split_over_integers_symbolic(form, False), "int", label=label
        )
        for div in (1, 8) if form == "//" else (8,):
            shown = with_rest.replace("c", str(div))
            label = f"d = {div}*q + r, q wrapped: d{form}{div} -> {shown} (bit vectors)"
            note = WRAP_NOTE if div == 1 else ""
            formula(claims, G_RULES, name, split_wrapped(form, div), "bv", label=label, note=note)
    label = "d = c*q + r, c >= 2, d and r in int32: q lies in int32 (integers)"
    formula(claims, G_RULES, "(a*c1+b)//c2", quotient_fits, "int", label=label)
    split_shapes(claims)


# --8<-- [start:split_shapes]
def guards(d, rest=None):
    """The split's guards: d safe, and the sum of the remaining terms safe on its own."""
    return lambda ctx: ctx.safe(d) + (ctx.safe(rest) if rest is not None else [])


def split_shapes(claims):
    # the term shapes that split() recognises: y*k with c | k, and constants divisible by c
    d1, r1, d2 = (a * 4 + b) + e, b + e, (a * 8 + 16) + b
    table = (  # rule name, label, lhs, rhs, hypotheses, expected
        ("(a*c1+b)//c2", "((a*4+b)+e)//4 -> a*1 + (b+e)//4, d and rest safe",
         d1 // 4, a * 1 + r1 // 4, guards(d1, r1), "proved"),
        ("(a*c1+b)%c2", "((a*4+b)+e)%4 -> (b+e)%4, d and rest safe",
         d1 % 4, r1 % 4, guards(d1, r1), "proved"),
        ("(a*c1+b)//c2", "((a*8+16)+b)//8 -> (a*1+2) + b//8, d safe",
         d2 // 8, (a * 1 + 2) + b // 8, guards(d2), "proved"),
        ("(a*c1+b)%c2", "((a*8+16)+b)%8 -> b%8, d safe", d2 % 8, b % 8, guards(d2), "proved"),
        ("(a*c1+b)//c2", "((a*4+b)+e)//4 -> a*1 + (b+e)//4 fails when the rest is not safe",
         d1 // 4, a * 1 + r1 // 4, guards(d1), "refuted"),
        ("(a*c1+b)//c2", "(a*8+b)//8 -> a*1 + b//8 fails when d is not safe",
         (a * 8 + b) // 8, a * 1 + b // 8, None, "refuted"),
        ("(a*c1+b)%c2", "(a*3+b)%3 -> b%3 fails when d is not safe",
         (a * 3 + b) % 3, b % 3, None, "refuted"),
    )  # fmt: skip
    for name, label, lhs, rhs, hyps, expect in table:
        rewrite(claims, G_RULES, name, (lhs, rhs), expect, hyps=hyps, label=label)


# --8<-- [end:split_shapes]


# ---- the fast-math rules: each must be refuted --------------------------------------------
G_FAST = "fast-math rules (each has a refuted claim named after it)"


def one_to_two(ctx):
    # x in [1, 2): ordinary numbers, no nan, infinity, zero or overflow, and still the last bit
    return [fp_geq(ctx.z(fx), ctx.const(1.0, F32)), fp_lt(ctx.z(fx), ctx.const(2.0, F32))]


FAST_CLAIMS = (  # rule name, label, lhs, rhs, hypotheses
    ("x*0.0", "x*0.0 -> 0.0", fx * 0.0, const(0.0), None),
    ("x*0.0", "x*(-0.0) -> 0.0", fx * -0.0, const(0.0), None),
    ("x+0.0 (float)", "x+0.0 -> x", fx + 0.0, fx, None),
    ("(x*c1)*c2 (float)", "(x*c1)*c2 -> x*f32(c1*c2), c1 and c2 symbolic",
     (fx * fc1) * fc2, fx * (fc1 * fc2), None),
    ("(x*c1)*c2 (float)", "(x*3.0)*5.0 -> x*15.0, x in [1, 2)",
     (fx * 3.0) * 5.0, fx * 15.0, one_to_two),
    ("x*recip(x)", "x*recip(x) -> 1.0", fx * recip(fx), const(1.0), None),
    ("x*recip(x)", "x*recip(x) -> 1.0, x in [1, 2)", fx * recip(fx), const(1.0), one_to_two),
    ("x+(-x) (float)", "x+(-x) -> 0.0", fx + -fx, const(0.0), None),
)  # fmt: skip


def rules_fast(claims):
    for name, label, lhs, rhs, hyps in FAST_CLAIMS:
        rewrite(claims, G_FAST, name, (lhs, rhs), "refuted", hyps=hyps, label=label)


# ---- the further rules (uopc/further.py, opt-in): each has a proved claim named after it ----
G_FURTHER = "further rules (opt-in; each has a proved claim named after it)"
RING_NOTE = "a ring identity: no guard, the wraps of both sides agree modulo 2**32"


def ranged(*bounds):
    """Hypotheses: each (term, low, high) lies in [low, high]."""
    return lambda ctx: sum((in_range(ctx, t, const(lo_), const(hi_)) for t, lo_, hi_ in bounds), [])


def both(*hyps):
    return lambda ctx: sum((h(ctx) for h in hyps), [])


FURTHER_RING = (  # rule name, label, lhs, rhs
    ("like terms", "x*c1 + x*c2 -> x*(c1+c2), c1 and c2 symbolic", x * c1 + x * c2, x * (c1 + c2)),
    ("like terms", "x*c + x -> x*(c+1), c symbolic", x * c + x, x * (c + 1)),
    ("like terms", "(x*c1 + y) + x*c2 -> x*(c1+c2) + y, c1 and c2 symbolic",
     (x * c1 + y) + x * c2, x * (c1 + c2) + y),
    ("like terms", "-(x*4 + 8) -> x*-4 + -8", neg(x * 4 + 8), x * -4 + -8),
    ("like terms", "((x+y)+-7) + ((x+y)+-7) -> (x*2 + y*2) + -14",
     ((x + y) + -7) + ((x + y) + -7), (x * 2 + y * 2) + -14),
    ("like terms", "(x + y*3)*c -> x*c + y*(3*c), c symbolic",
     (x + y * 3) * c, x * c + y * (c * 3)),
    ("x+x", "x + x -> x*2", x + x, x * 2),
    ("(x*c)*y", "(x*c)*y -> (x*y)*c, c symbolic", (x * c) * y, (x * y) * c),
    ("(x*c)*y", "(-x)*y -> -(x*y)", neg(x) * y, neg(x * y)),
    ("(x//c)*c+x%c", "(x//4)*4 + x%4 -> x", (x // 4) * 4 + x % 4, x),
    ("(x//c)*c+x%c", "(x//-4)*-4 + x%-4 -> x", (x // -4) * -4 + x % -4, x),
    ("(x//c)*c+x%c", "(x//0)*0 + x%0 -> x", (x // 0) * 0 + x % 0, x),
    ("(x//c)*c+x%c", "(x//-1)*-1 + x%-1 -> x (INT_MIN//-1 wraps)", (x // -1) * -1 + x % -1, x),
    ("(x//c)*c+x%c", "((x//4)*4)*3 + (x%4)*3 -> x*3", ((x // 4) * 4) * 3 + (x % 4) * 3, x * 3),
    ("(x//c)*c+x%c", "-((x//4)*4) + -(x%4) -> -x", neg((x // 4) * 4) + neg(x % 4), neg(x)),
)  # fmt: skip


def further_ring(claims):
    for name, label, lhs, rhs in FURTHER_RING:
        rewrite(claims, G_FURTHER, name, (lhs, rhs), label=label, note=RING_NOTE)
    rewrite(
        claims, G_FURTHER, "x!=x (int)", (ne(x, x), const(False)), label="x != x -> False (i32)"
    )
    label = "x != x -> False fails for f32 (nan != nan): the rule is for i32 only"
    rewrite(claims, G_FURTHER, "x!=x (int)", (ne(fx, fx), const(False)), "refuted", label=label)


def nested_modulus_over_integers(ctx):
    # ((x//c1)%c2)*c1 + x%c1 == x%(c1*c2): the quotients and remainders are exact (c1, c2 > 0)
    xi, d1, d2 = (ctx.integer(n) for n in ("x", "c1", "c2"))
    hyps = [in_i32(xi), d1 > 0, d2 > 0, d1 * d2 <= INT_MAX]
    lhs = floormod_pos(floordiv_pos(xi, d1), d2) * d1 + floormod_pos(xi, d1)
    return lhs == floormod_pos(xi, d1 * d2), hyps


def digit_over_integers(ctx):
    # (x%(c1*c2))//c1 == (x//c1)%c2 for c1, c2 > 0, with x written as m*w + c1*s + t, where
    # m = c1*c2, 0 <= s < c2, 0 <= t < c1: every integer has that form. Posed on x itself, z3
    # settled it in about 1 s on some runs and not in 120 s on others.
    w, s, t, d1, d2, m = (ctx.integer(n) for n in ("w", "s", "t", "c1", "c2", "m"))
    xi = m * w + d1 * s + t
    hyps = [d1 > 0, d2 > 0, m == d1 * d2, 0 <= t, t < d1, 0 <= s, s < d2]
    digit = floormod_pos(floordiv_pos(xi, d1), d2)
    return floordiv_pos(floormod_pos(xi, m), d1) == digit, hyps


def multiple_over_integers(ctx):
    # (x*c1)%(c1*m) == (x%m)*c1 for c1, m > 0 when x*c1 lies in int32
    xi, d1, m = (ctx.integer(n) for n in ("x", "c1", "m"))
    hyps = [in_i32(xi), d1 > 0, m > 0, in_i32(xi * d1), d1 * m <= INT_MAX]
    return floormod_pos(xi * d1, d1 * m) == floormod_pos(xi, m) * d1, hyps


def split_any_sign(form):
    """d = c*q + r with c symbolic, non-zero, of either sign, d and r in int32."""

    def build(ctx):
        ci, qi, ri = ctx.integer("c"), ctx.integer("q"), ctx.integer("r")
        d = ci * qi + ri
        hyps = [ci != 0, in_i32(ci), in_i32(d), in_i32(ri)]
        if form == "//":
            return floordiv_int(d, ci) == qi + floordiv_int(ri, ci), hyps
        return floormod_int(d, ci) == floormod_int(ri, ci), hyps

    return build


def less_over_integers(rest):
    """c*q + r < n == q < n/c (c | n, 0 <= r < c), or c*q < n == q < ceil(n/c), c >= 1."""

    def build(ctx):
        ci, qi, ri, m, ni = (ctx.integer(n) for n in ("c", "q", "r", "m", "n"))
        if rest:
            hyps = [ci >= 1, ri >= 0, ri < ci]
            return (ci * qi + ri < ci * m) == (qi < m), hyps
        return (ci * qi < ni) == (qi < floordiv_pos(ni + ci - 1, ci)), [ci >= 1]

    return build


def further_division(claims):
    table = (  # rule name, label, build
        ("(x//c)*c+x%c",
         "((x//c1)%c2)*c1 + x%c1 -> x%(c1*c2), c1, c2 > 0, c1*c2 <= INT_MAX, symbolic (integers)",
         nested_modulus_over_integers),
        ("(x%(c1*c2))//c1", "(x%(c1*c2))//c1 -> (x//c1)%c2, c1, c2 > 0, symbolic (integers)",
         digit_over_integers),
        ("(x*c1)%c2", "(x*c1)%(c1*m) -> (x%m)*c1, c1, m > 0, x*c1 in int32, symbolic (integers)",
         multiple_over_integers),
        ("sum//c by terms", "d = c*q + r, c != 0 of either sign: d//c -> q + r//c (integers)",
         split_any_sign("//")),
        ("sum%c by terms", "d = c*q + r, c != 0 of either sign: d%c -> r%c (integers)",
         split_any_sign("%")),
        ("a*c+b<n", "c >= 1, 0 <= r < c: c*q + r < c*m -> q < m, symbolic (integers)",
         less_over_integers(True)),
        ("a*c+b<n", "c >= 1: c*q < n -> q < ceil(n/c), symbolic (integers)",
         less_over_integers(False)),
    )  # fmt: skip
    for name, label, build in table:
        formula(claims, G_FURTHER, name, build, "int", label=label, note=SYMBOLIC)


def further_shapes(claims):
    # bit-vector instances: the wraps are modelled, and each guard is shown to be needed
    d1, r1, d3 = (x * 6 + x * 4) + y, y, (x * -8 + x * 4) + y
    d2 = a * 4 + b
    table = (  # rule name, label, lhs, rhs, hypotheses, expected
        ("(x//c)*c+x%c", "((x//4)%8)*4 + x%4 -> x%32", ((x // 4) % 8) * 4 + x % 4, x % 32,
         None, "proved"),
        ("(x//c)*c+x%c", "((x//2)%-3)*2 + x%2 -> x%-6 fails: c2 > 0 is needed",
         ((x // 2) % -3) * 2 + x % 2, x % -6, None, "refuted"),
        ("(x//c)*c+x%c", "((x//65536)%32768)*65536 + x%65536 -> x%wrap32(2**31) fails: "
         "c1*c2 <= INT_MAX is needed", ((x // 65536) % 32768) * 65536 + x % 65536, x % INT_MIN,
         None, "refuted"),
        ("(x%(c1*c2))//c1", "(x%12)//4 -> (x//4)%3", (x % 12) // 4, (x // 4) % 3, None, "proved"),
        ("(x%(c1*c2))//c1", "(x%4)//-2 -> (x//-2)%-2 fails: c1 > 0 is needed",
         (x % 4) // -2, (x // -2) % -2, None, "refuted"),
        ("(x*c1)%c2", "(x*2)%6 -> (x%3)*2, x*2 safe", (x * 2) % 6, (x % 3) * 2, guards(x * 2),
         "proved"),
        ("(x*c1)%c2", "(x*2)%6 -> (x%3)*2 fails when x*2 wraps", (x * 2) % 6, (x % 3) * 2, None,
         "refuted"),
        ("sum//c by terms", "((x*6 + x*4) + y)//2 -> x*5 + y//2, d and rest safe",
         d1 // 2, x * 5 + r1 // 2, guards(d1, r1), "proved"),
        ("sum//c by terms", "((x*-8 + x*4) + y)//-4 -> x + y//-4, d and rest safe",
         d3 // -4, x + r1 // -4, guards(d3, r1), "proved"),
        ("sum//c by terms", "((x*6 + x*4) + y)//-2 -> x*-5 + y//-2 fails when d is not safe",
         d1 // -2, x * -5 + r1 // -2, None, "refuted"),
        ("sum%c by terms", "((x*6 + x*3) + y)%3 -> y%3 fails when d is not safe",
         ((x * 6 + x * 3) + y) % 3, r1 % 3, None, "refuted"),
        ("x+c<n", "x + c < n -> x < n - c, x + c safe, n - c in int32, c and n symbolic",
         less(x + c, lo), less(x, lo + neg(c)), both(guards(x + c), guards(lo + neg(c))),
         "proved"),
        ("x+c<n", "x + 1 < 0 -> x < -1 fails when x + 1 wraps", less(x + 1, 0), less(x, -1),
         None, "refuted"),
        ("x+c<n", "x + c < n -> x < n - c fails when n - c wraps", less(x + c, lo),
         less(x, lo + neg(c)), guards(x + c), "refuted"),
        ("a*c+b<n", "a*4 + b < 8 -> a < 2, b in [0, 3], d safe", less(d2, 8), less(a, 2),
         both(guards(d2), ranged((b, 0, 3))), "proved"),
        ("a*c+b<n", "a*4 < 9 -> a < 3, a*4 safe", less(a * 4, 9), less(a, 3), guards(a * 4),
         "proved"),
        ("a*c+b<n", "a*4 + b < 8 -> a < 2 fails for b in [0, 4]", less(d2, 8), less(a, 2),
         both(guards(d2), ranged((b, 0, 4))), "refuted"),
        ("a*c+b<n", "a*2 < 2 -> a < 1 fails when a*2 wraps", less(a * 2, 2), less(a, 1), None,
         "refuted"),
    )  # fmt: skip
    for name, label, lhs, rhs, hyps, expect in table:
        rewrite(claims, G_FURTHER, name, (lhs, rhs), expect, hyps=hyps, label=label)


FURTHER = (further_ring, further_division, further_shapes)


def further_claims():
    """The claims of the further rules, in the order of FURTHER_RULES (uopc/further.py)."""
    claims = []
    for add in FURTHER:
        add(claims)
    order = [r.name for r in FURTHER_RULES]
    return sorted(claims, key=lambda claim: order.index(claim.name))


RULE_GROUPS = (G_RULES, G_FAST)
GROUPS = BOOK_GROUPS + RULE_GROUPS
# Where the book cuts the saved output into blocks (`@@ block NAME` lines, which the build
# strips): before each group named here, and before the first claim of each rule named here
# (chapter 11 shows the claims of the split's two rules, which come last in G_RULES).
BLOCKS = {
    G_INT: "integer", G_SPLIT: "split", G_NPOT: "split-integers", G_BUCKET: "bucket",
    G_FLOAT: "float", G_RULES: "strict-rules", "(a*c1+b)//c2": "split-rules",
    G_FAST: "fast-rules",
}  # fmt: skip
BOOK = (book_integer, book_split, book_integers, book_bucket, book_float)
RULES = (rules_order, rules_ranges, rules_identities, rules_constants, rules_bucket)
RULES += (rules_nested, rules_split, rules_fast)


def rule_names():
    return [r.name for r in SYM], [r.name for r in FAST]


def all_claims():
    """Every claim in output order: the book's five groups, then the rules' claims in the
    order of the rule lists."""
    claims = []
    for add in BOOK + RULES:
        add(claims)
    order = sum(rule_names(), [])

    def position(claim):
        rank = order.index(claim.name) if claim.group in RULE_GROUPS else 0
        return GROUPS.index(claim.group), rank

    return sorted(claims, key=position)  # stable: book claims keep their order


# ---- asking z3, and checking its answers against the contract ------------------------------
def py_value(num):
    """A z3 numeral as a Python value (a float through its bit pattern, any nan as nan)."""
    if z3.is_bool(num):
        return z3.is_true(num)
    if z3.is_bv(num):
        return num.as_signed_long()
    if z3.is_int(num):
        return num.as_long()
    if num.isNaN():
        return math.nan
    bits = z3.simplify(fp_bits(num)).as_long()
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def show(values):
    return ", ".join(f"{name}={value!r}" for name, value in values.items())


def model_values(ctx, model):
    return {n: py_value(model.eval(t, model_completion=True)) for n, (t, _) in ctx.vars.items()}


def solve(claim, timeout):
    """Ask z3 for an input where the claim fails, and check its answer with the contract."""
    ctx = Context()
    goal, hyps, pairs = claim.pose(ctx)
    solver = z3.Solver(ctx=ctx.zc)
    solver.set("timeout", int(timeout * 1000))
    solver.add(*hyps, z3.Not(goal))
    start = time.perf_counter()
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unknown:
        why = f"({solver.reason_unknown()}, limit {timeout:g} s)"
        return Result(claim, "unsettled", seconds, why)
    if answer == z3.unsat:
        result = Result(claim, "proved", seconds)
        result.points, result.problem = cross_check(claim, ctx, hyps, pairs)
        return result
    values = model_values(ctx, solver.model())
    result = Result(claim, "refuted", seconds, "COUNTEREXAMPLE " + show(values), example=values)
    if pairs:
        result.sides = [(evaluate(lhs, values), evaluate(rhs, values)) for lhs, rhs in pairs]
        result.confirmed = any(not same(left, right) for left, right in result.sides)
        if not result.confirmed:
            result.problem = f"the contract gives the same values there: {result.sides}"
    return result


def sample_points(ctx, claim, hyps):
    """Seeded random points (a share of them special values), and up to four points that z3
    finds inside the hypotheses: random ones rarely land in a range such as [8, 11]."""
    rng = random.Random(zlib.crc32(claim.title.encode()))
    kinds = [(name, dtype) for name, (_, dtype) in ctx.vars.items()]
    # inputs are float32 values: rand_value may give 16777217.0, which rounds on the way in
    points = [
        {n: f32(rand_value(rng, d)) if d is F32 else rand_value(rng, d) for n, d in kinds}
        for _ in range(SAMPLES)
    ]
    if hyps:
        solver = z3.Solver(ctx=ctx.zc)
        solver.set("timeout", 5000)
        solver.add(*hyps)
        terms = [term for term, _ in ctx.vars.values()]
        for _ in range(4):
            if solver.check() != z3.sat:
                break
            model = solver.model()
            points.append(model_values(ctx, model))
            solver.add(z3.Or([t != model.eval(t, model_completion=True) for t in terms]))
    return points


def inside(ctx, hyps, point):
    if not hyps:
        return True
    subst = [(term, ctx.const(point[name], dtype)) for name, (term, dtype) in ctx.vars.items()]
    return z3.is_true(z3.simplify(z3.substitute(z3.And(hyps), *subst)))


def cross_check(claim, ctx, hyps, pairs):
    """Evaluate a proved rewrite with eval_op at sample points inside its hypotheses;
    return (pairs evaluated, problem or "")."""
    if not pairs or any(dtype == "int" for _, dtype in ctx.vars.values()):
        return 0, ""
    count = 0
    for point in sample_points(ctx, claim, hyps):
        if not inside(ctx, hyps, point):
            continue
        for lhs, rhs in pairs:
            left, right = evaluate(lhs, point), evaluate(rhs, point)
            if not same(left, right):
                return count, f"the contract differs at {show(point)}: {left!r} vs {right!r}"
            count += 1
    return count, ""


# ---- the z3 model against the contract, op by op -------------------------------------------
def model_cases():
    """(op, result dtype, source values) for every modelled op over the special values."""
    specials = {I32: SPECIAL_INT, F32: tuple(f32(v) for v in SPECIAL_FLOAT), BOOL: (False, True)}
    for dtype, values in specials.items():
        for op in MODEL[dtype.kind]:
            arity = 1 if op in (Ops.NEG, Ops.RECIP) else 2
            for args in itertools.product(values, repeat=arity):
                yield op, dtype, args
        for args in itertools.product((False, True), values[:6], values[-6:]):
            yield Ops.WHERE, dtype, args
        for target, v in itertools.product(specials, values):
            yield Ops.CAST, target, (v,)


def check_model():
    """z3's value of each op on special values against eval_op's, and the integer division
    model against Python's; returns (comparisons, the disagreements)."""
    ctx, count, wrong = Context(), 0, []
    for op, dtype, args in model_cases():
        srcs = [const(v) for v in args]
        term = cast(srcs[0], dtype) if op is Ops.CAST else alu(op, *srcs)
        got, want = py_value(z3.simplify(ctx.z(term))), evaluate(term, {})
        count += 1
        if not same(got, want):
            wrong.append(f"{op.name} {dtype.name} {args}: z3 {got!r}, contract {want!r}")
    for p, q in itertools.product(SPECIAL_INT, repeat=2):
        div, mod = (
            z3.simplify(f(z3.IntVal(p, ctx.zc), z3.IntVal(q, ctx.zc)))
            for f in (floordiv_int, floormod_int)
        )
        want = (floordiv(p, q), floormod(p, q)) if (p, q) != (INT_MIN, -1) else (-INT_MIN, 0)
        got = [(py_value(div), py_value(mod))]
        if q > 0:  # the short forms, used only where the divisor is positive
            pos = (
                z3.simplify(f(z3.IntVal(p, ctx.zc), z3.IntVal(q, ctx.zc)))
                for f in (floordiv_pos, floormod_pos)
            )
            got.append(tuple(py_value(v) for v in pos))
        count += len(got)
        wrong += [f"integer division {p}, {q}: z3 {g}, contract {want}" for g in got if g != want]
    return count, wrong


def select(claims, only=None, quick=False):
    """The claims to run: the quick ones only if asked; with `only`, those of one rule (or
    one claim title), else those whose title contains it."""
    if quick:
        claims = [cl for cl in claims if cl.quick]
    if only:
        chosen = [cl for cl in claims if only in (cl.name, cl.title)]
        claims = chosen or [cl for cl in claims if only in cl.title]
    return claims


def run(claims, timeout=TIMEOUT, int_timeout=INT_TIMEOUT, out=print, blocks=None):
    """Settle each claim, printing one line per claim under its group's header; with blocks
    (BLOCKS), a block marker before each group or rule named there."""
    results, blocks, started = [], blocks or {}, set()
    for group, members in itertools.groupby(claims, key=lambda cl: cl.group):
        members = list(members)
        width = max(len(cl.title) for cl in members)
        if group in blocks:
            out(protocol.block_line(blocks[group]))
        out(f"--- {group} ---")
        for claim in members:
            if claim.name in blocks and claim.name not in started:
                started.add(claim.name)
                out(protocol.block_line(blocks[claim.name]))
            result = solve(claim, int_timeout if claim.theory == "int" else timeout)
            results.append(result)
            mark = "ok" if result.as_expected else "FAIL"
            settled = f"expected {claim.expect:<8} {result.outcome:<9} [{result.seconds:.1f}s]"
            out(f"{mark:<4} {claim.title:<{width}}  {settled} {result.detail}".rstrip())
            for line in (f"note: {claim.note}" if claim.note else "", result.problem):
                if line:
                    out(f"     {line}")
    return results


def summary(results):
    """The closing lines; the last is the machine-readable CLAIMS line (verification §7.2)."""
    lines = []
    book = [r for r in results if r.claim.group in BOOK_GROUPS]
    for label, part in (("book claims", book), ("all claims", results)):
        counts = tally(part)
        outcomes = ", ".join(f"{outcome} {counts[outcome]}" for outcome in OUTCOMES)
        lines.append(f"{label}: {counts['total']}, as expected {counts['as_expected']}, {outcomes}")
    points, confirmed = sum(r.points for r in results), sum(r.confirmed for r in results)
    lines.append(
        f"checked with eval_op: {points} evaluations of proved rewrites at sample points, "
        f"{confirmed} counterexamples confirmed"
    )
    proved, refuted = coverage(results)
    strict, fast = (set(names) for names in rule_names())
    lines.append(
        f"strict rules with a proved claim: {len(proved & strict)} of {len(strict)}; "
        f"fast-math rules with a refuted claim: {len(refuted & fast)} of {len(fast)}"
    )
    total, ok = len(results), sum(r.as_expected for r in results)
    lines.append(f"CLAIMS {total} {ok} {sum(r.outcome == 'refuted' for r in results)}")
    return lines


OUTCOMES = ("proved", "refuted", "unsettled")


def tally(results) -> dict:
    """total, as_expected and one count per outcome, over some results."""
    counts = {"total": len(results), "as_expected": sum(r.as_expected for r in results)}
    return counts | {outcome: sum(r.outcome == outcome for r in results) for outcome in OUTCOMES}


def coverage(results):
    """The rule names with a claim proved as expected, and those with one refuted as expected."""
    kept = [r for r in results if r.claim.group in RULE_GROUPS and r.as_expected]
    proved = {r.claim.name for r in kept if r.outcome == "proved"}
    return proved, {r.claim.name for r in kept if r.outcome == "refuted"}


# ---- the numbers the book quotes, from the results -----------------------------------------
# The rows of chapter 10's two tables: key suffix -> the title of the claim, in the float32
# group (float_claim_<row>) and in the fast-math group (fast_claim_<row>).
FLOAT_ROWS = {
    "mul_one": "x*1.0 -> x",
    "add_neg_zero": "x+(-0.0) -> x",
    "add_zero": "x+0.0 -> x",
    "mul_zero": "x*0.0 -> 0.0",
    "regroup_add": "(x+y)+z -> x+(y+z)",
    "mul_recip": "x*(1/x) -> 1.0",
    "add_own_negation": "x+(-x) -> 0.0",
    "neg_neg": "-(-x) -> x",
    "mul_minus_one": "x*-1.0 -> -x",
    "neg_mul": "-(x*y) -> x*(-y)",
    "max_self": "max(x,x) -> x",
    "max_swap": "max(x,y) -> max(y,x)",
    "add_swap": "x+y == y+x",
    "mul_swap": "x*y == y*x",
}
FAST_ROWS = {
    "mul_zero": "x*0.0: x*0.0 -> 0.0",
    "add_zero": "x+0.0 (float): x+0.0 -> x",
    "regroup_mul": "(x*c1)*c2 (float): (x*3.0)*5.0 -> x*15.0, x in [1, 2)",
    "mul_recip": "x*recip(x): x*recip(x) -> 1.0, x in [1, 2)",
    "add_own_negation": "x+(-x) (float): x+(-x) -> 0.0",
}
SPLIT_CLAIM = "(a*4+b)//4 -> a*1 + b//4, no guard"  # chapter 6: why the split has a guard
# what each tally counts, said once for the book's claims and once for all of them
MEANINGS = {
    "total": "z3 claims settled in the run",
    "as_expected": "z3 claims whose outcome is the expected one",
    "proved": "z3 claims proved (no counterexample within the time limit)",
    "refuted": "z3 claims refuted (z3 found a counterexample)",
    "unsettled": "z3 claims settled neither way within the time limit",
}
KINDS = (  # key, which of the book's claims it counts, in words
    ("claims_float", lambda claim: claim.theory == "float", "posed over float32"),
    ("claims_int", lambda claim: claim.theory != "float", "over integers, bounded or not"),
    ("claims_unbounded", lambda claim: claim.theory == "int", "over mathematical integers"),
)
RULE_COUNTS = (  # key, meaning
    ("rules_strict_proved", "strict rules (SYM) with a proved claim named after them"),
    ("rules_strict", "strict rules: the rules of uopc.symbolic.SYM"),
    ("rules_fast_refuted", "fast-math rules (FAST) with a refuted claim named after them"),
    ("rules_fast", "fast-math rules: the rules of uopc.symbolic.FAST"),
)


def slug(title: str) -> str:
    """A group's header as a key: lower case, every run of other characters one underscore."""
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")


class Numbers:
    """The numbers of one run, (key, value, meaning) in order, and the problems found."""

    def __init__(self):
        self.stated, self.problems = [], []

    def put(self, key, value, meaning):
        self.stated.append((key, value, meaning))

    def expect(self, holds, problem):
        if not holds:
            self.problems.append(problem)


def book_numbers(results, quick=False, only=None) -> Numbers:
    """Every number the book quotes from the claims, and what must hold of them: every claim as
    expected; in a run of every claim (no --only, no --quick) every row of chapter 10's tables
    there; in a run of every rule's claims (no --only) every rule covered."""
    numbers = Numbers()
    book = [r for r in results if r.claim.group in BOOK_GROUPS]
    for prefix, part, scope in (("book_claims", book, "the book's"), ("claims", results, "all")):
        counts = tally(part)
        for name, value in counts.items():
            numbers.put(f"{prefix}_{name}", value, f"{MEANINGS[name]}, of {scope} claims")
        wrong = counts["total"] - counts["as_expected"]
        numbers.expect(not wrong, f"{scope} claims: {wrong} not as expected")
    for group in GROUPS:
        size = sum(r.claim.group == group for r in results)
        if size:
            numbers.put(f"claims_group_{slug(group)}", size, f"claims in the group {group}")
    for key, kind, words in KINDS:
        count = sum(kind(r.claim) for r in book)
        numbers.put(key, count, f"of the book's claims, those {words}")
    table_rows(numbers, results, every_claim=not (quick or only))
    split_counterexample(numbers, results, every_claim=not only)
    proved, refuted = coverage(results)
    strict, fast = (set(names) for names in rule_names())
    values = (len(proved & strict), len(strict), len(refuted & fast), len(fast))
    for (key, meaning), value in zip(RULE_COUNTS, values, strict=True):
        numbers.put(key, value, meaning)
    numbers.expect(only or strict <= proved, "a strict rule has no proved claim")
    numbers.expect(only or fast <= refuted, "a fast-math rule has no refuted claim")
    return numbers


def table_rows(numbers, results, every_claim):
    """float_claim_<row>, fast_claim_<row>: "proved", or "refuted at x = -0.0" (z3's
    counterexample, which eval_op confirmed); each row's claim as expected."""
    by_title = {(r.claim.group, r.claim.title): r for r in results}
    titles = {(cl.group, cl.title) for cl in all_claims()}
    for prefix, group, rows in (
        ("float_claim", G_FLOAT, FLOAT_ROWS),
        ("fast_claim", G_FAST, FAST_ROWS),
    ):
        for row, title in rows.items():
            numbers.expect((group, title) in titles, f"{prefix}_{row}: no claim titled {title!r}")
            result = by_title.get((group, title))
            numbers.expect(
                result is not None or not every_claim, f"{prefix}_{row}: {title!r} was not run"
            )
            if result is None:
                continue
            numbers.expect(result.as_expected, f"{title}: {result.outcome}, not as expected")
            example = ", ".join(f"{name} = {value!r}" for name, value in result.example.items())
            verdict = f"refuted at {example}" if result.outcome == "refuted" else result.outcome
            numbers.put(f"{prefix}_{row}", verdict, f"z3's verdict on the claim {title}")


def split_counterexample(numbers, results, every_claim):
    """split_cex_a, split_cex_b: where the split without its guard fails; split_cex_left and
    split_cex_right: the two sides there by the contract. They must differ, and a*4 + b must
    leave the int32 range (so the guard would have refused the rewrite)."""
    found = [r for r in results if r.claim.group == G_SPLIT and r.claim.title == SPLIT_CLAIM]
    numbers.expect(found or not every_claim, f"{SPLIT_CLAIM}: not run")
    refuted = [r for r in found if r.outcome == "refuted" and r.sides]
    numbers.expect(refuted or not found, f"{SPLIT_CLAIM}: not refuted")
    if not refuted:
        return
    a, b = refuted[0].example["a"], refuted[0].example["b"]
    ((left, right),) = refuted[0].sides
    where = f"at the counterexample z3 found to {SPLIT_CLAIM}"
    numbers.put("split_cex_a", a, f"a {where}")
    numbers.put("split_cex_b", b, f"b {where}")
    numbers.put("split_cex_left", left, f"(a*4+b)//4 by the int32 contract {where}")
    numbers.put("split_cex_right", right, f"a*1 + b//4 by the int32 contract {where}")
    numbers.expect(left != right, "split: the counterexample does not make the two sides differ")
    numbers.expect(not INT_MIN <= a * 4 + b <= INT_MAX, "split: a*4 + b fits int32")


def proofs(quick=False, only=None, timeout=TIMEOUT, int_timeout=INT_TIMEOUT, out=print):
    """The model check, then the claims; returns (results, model disagreements)."""
    count, wrong = check_model()
    out(
        f"z3 model against the contract: {count} comparisons on special values, {len(wrong)} differ"
    )
    for line in wrong[:20]:
        out(f"     {line}")
    results = run(select(all_claims(), only, quick), timeout, int_timeout, out, BLOCKS)
    out(protocol.block_line("summary"))
    for line in summary(results):
        out(line)
    return results, wrong


def proofs_layer(quick=False) -> int:
    """The proofs as a layer: the number of claims; AssertionError if any is not as expected."""
    results, wrong = proofs(quick)
    failed = [r.claim.title for r in results if not r.as_expected]
    assert not wrong and not failed, f"model differs: {wrong[:5]}; claims: {failed}"
    return len(results)


LAYERS = {"proofs": proofs_layer}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", metavar="NAME", help="the claims of one rule, or one claim")
    parser.add_argument("--quick", action="store_true", help="leave out the slow book claims")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per claim")
    parser.add_argument("--int-timeout", type=float, default=INT_TIMEOUT, help="seconds per claim")
    args = parser.parse_args(argv)
    if args.only and not select(all_claims(), args.only):
        print(f"no claim is named {args.only!r}", file=sys.stderr)
        return 2
    results, wrong = proofs(args.quick, args.only, args.timeout, args.int_timeout)
    numbers = book_numbers(results, args.quick, args.only)
    for key, value, meaning in numbers.stated:
        protocol.state(key, value, meaning)
    for problem in numbers.problems:
        print(f"proofs: FAILED: {problem}", file=sys.stderr)
    settled = results and all(r.as_expected for r in results)
    return 0 if settled and not wrong and not numbers.problems else 1


# ---- the further rules' claims, run on their own: the book's counts above stay as they are -----
FURTHER_COUNTS = (  # key suffix, meaning
    ("total", "z3 claims about the further rules (uopc/further.py) settled in the run"),
    ("as_expected", "z3 claims about the further rules whose outcome is the expected one"),
    ("proved", "z3 claims about the further rules proved"),
    ("refuted", "z3 claims about the further rules refuted (each shows a guard is needed)"),
)


def further_numbers(results) -> Numbers:
    """further_claims_<tally>, rules_further and rules_further_proved, and what must hold: every
    claim as expected and, in a run of all of them, every further rule proved."""
    numbers = Numbers()
    counts = tally(results)
    for name, meaning in FURTHER_COUNTS:
        numbers.put(f"further_claims_{name}", counts[name], meaning)
    names = {r.name for r in FURTHER_RULES}
    proved = {r.claim.name for r in results if r.as_expected and r.outcome == "proved"}
    numbers.put("rules_further", len(names), "further rules: the rules of uopc.further.FURTHER")
    numbers.put(
        "rules_further_proved",
        len(names & proved),
        "further rules with a proved claim named after them",
    )
    wrong = counts["total"] - counts["as_expected"]
    numbers.expect(not wrong, f"further claims: {wrong} not as expected")
    return numbers


def further_main(argv) -> int:
    """python tests/proofs.py --further [--only NAME]: the further rules' claims alone."""
    parser = argparse.ArgumentParser(description="the z3 claims of uopc/further.py")
    parser.add_argument("--further", action="store_true", required=True)
    parser.add_argument("--only", metavar="NAME", help="the claims of one rule, or one claim")
    args = parser.parse_args(argv)
    claims = select(further_claims(), args.only)
    if not claims:
        print(f"no further claim is named {args.only!r}", file=sys.stderr)
        return 2
    results = run(claims)
    counts = tally(results)
    print(f"further claims: {counts['total']}, as expected {counts['as_expected']}, "
          f"proved {counts['proved']}, refuted {counts['refuted']}")  # fmt: skip
    numbers = further_numbers(results)
    numbers.expect(args.only or len(results) == len(further_claims()), "a claim was not run")
    numbers.expect(
        args.only or {r.name for r in FURTHER_RULES} <= {r.claim.name for r in results},
        "a further rule has no claim",
    )
    for key, value, meaning in numbers.stated:
        protocol.state(key, value, meaning)
    for problem in numbers.problems:
        print(f"proofs: FAILED: {problem}", file=sys.stderr)
    return 0 if results and not numbers.problems else 1


if __name__ == "__main__":
    sys.exit(further_main(sys.argv[1:]) if "--further" in sys.argv[1:] else main())
