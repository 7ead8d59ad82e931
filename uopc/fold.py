"""Constant folding, parameter substitution and call inlining.

Relies on `semantics` (folding runs the contract itself, so it cannot disagree with the
interpreter), `uop` and `rewrite`. Invariant: inlining substitutes every parameter
at once, so an argument that is itself a parameter is never substituted a second time.
"""

from .dtypes import VALUE_DTYPES, DType
from .ops import ALU, Ops
from .rewrite import PatternMatcher, UPat, rule
from .semantics import eval_op
from .uop import ALU_SPACE, UOp

FOLD: list = []
SUBST: list = []
INLINE: list = []


# --8<-- [start:fold]
@rule("const fold", UPat(tuple(ALU), name="u"), FOLD)
def const_fold(u):
    # op(c1, c2, ...) -> const(eval_op(op, c1, c2, ...)); the result has u's own dtype
    for src in u.src:
        if src.op is not Ops.CONST:
            return None
    return UOp.const(eval_op(u.op, u.dtype, [s.arg for s in u.src], u.arg))


# --8<-- [end:fold]


# --8<-- [start:subst]
@rule("param -> argument", UPat(Ops.PARAM, name="p"), SUBST)
def param_to_argument(p, ctx):
    # PARAM(slot) -> ctx[slot], for scalar params only (pointers stay: memory is not inlined)
    if isinstance(p.arg.dtype, DType) and p.arg.slot < len(ctx):
        return ctx[p.arg.slot]
    return None


def substitute(body: UOp, args) -> UOp:
    """The body with every PARAM replaced by its argument, all at once.

    One bottom-up pass over the original body: a replacement is never visited again, so
    f(P1, c) over P0 + P1 gives P1 + c (a repeated rewrite would give c + c).
    """
    mapped: dict[UOp, UOp] = {}
    for node in body.toposort():
        if node.op is Ops.PARAM:
            # the one rule of SUBST, called directly: a matcher would only test the op again
            mapped[node] = param_to_argument(node, ctx=args) or node
        else:
            new_src = tuple(mapped[s] for s in node.src)
            mapped[node] = node if new_src == node.src else UOp(node.op, new_src, node.arg)
    return mapped[body]


# --8<-- [end:subst]


# --8<-- [start:inline]
def _is_scalar_value(u: UOp) -> bool:
    return isinstance(u.dtype, DType) and u.space == ALU_SPACE


@rule("inline call", UPat(Ops.CALL, name="c"), INLINE)
def inline_call(c):
    # call(body, a0, a1, ...) -> body[P0 := a0, P1 := a1, ...] for value calls on values
    args = c.src[1:]
    if c.dtype in VALUE_DTYPES and all(_is_scalar_value(a) for a in args):
        return substitute(c.src[0], args)
    return None


fold = PatternMatcher(FOLD + INLINE)
# --8<-- [end:inline]
