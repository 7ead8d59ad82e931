"""Running programs by rewriting: a call on constants folds to one constant (Chapter 9).

    python demos/fold.py

Two quoted blocks, each after a marker line `@@ block NAME` that the book build strips:
fold-relu (relu on four constant pairs, folded by `uopc.fold.fold`, the const fold and inline
call rules alone) and partial-evaluation (calls with one known argument, simplified by the
strict rules). Every line is the same on every run. A printed claim that turns out false makes
the program exit with a non-zero status.
"""

from _common import block, claim, finish, param, state

import math
import sys

from uopc import F32, I32, CallArg, Ops, UOp
from uopc.fold import fold
from uopc.interp import evaluate
from uopc.rewrite import graph_rewrite
from uopc.semantics import same
from uopc.symbolic import simplify
from uopc.textfmt import dumps, infix, spell_value


def relu_body() -> UOp:
    x, y = param(0, F32), param(1, F32)
    return (x * y + 1.0).max(0.0)


def relu(x, y) -> UOp:
    """The call relu(x, y); a number becomes a constant argument."""
    args = [a if isinstance(a, UOp) else UOp.const(a) for a in (x, y)]
    return UOp(Ops.CALL, (relu_body(), *args), CallArg("relu"))


def size(root: UOp) -> int:
    return len(root.toposort())


def show_fold_relu():
    block("fold-relu")
    print("relu(x, y) = max(x*y + 1.0, 0.0), folded with const fold and inline call only:")
    cases = [((2.0, 3.0), 7.0), ((-2.0, 3.0), 0.0), ((math.nan, 3.0), 0.0), ((math.inf, 0.0), 0.0)]
    for (x, y), expected in cases:
        result = graph_rewrite(relu(x, y), fold)
        interpreted = evaluate(relu_body(), {0: x, 1: y})
        single = size(result) == 1 and result.op is Ops.CONST
        value = spell_value(result.arg) if single else infix(result)
        line = f"relu({x}, {y})"
        print(f"{line:<16} -> {size(result)} node: CONST {value:<4}  evaluate gives {interpreted}")
        claim(single and same(result.arg, expected) and same(interpreted, expected), line)


def show_partial_evaluation():
    block("partial-evaluation")
    z = param(0, F32)  # the argument the caller does not know yet
    names = {0: "z"}
    known = simplify(relu(z, 3.0))
    print(f"relu(z, 3.0) -> {infix(known, names)}, {size(known)} nodes:")
    print(dumps(known), end="")
    claim(size(known) == 7 and infix(known, names) == "max(((z * 3.0) + 1.0), 0.0)", "relu(z, 3)")
    state("fold_known_nodes", size(known), "nodes of relu(z, 3.0) once simplified")
    kept = simplify(relu(z, 0.0))
    muls = sum(node.op is Ops.MUL for node in kept.toposort())
    print(f"relu(z, 0.0) -> {infix(kept, names)}, {size(kept)} nodes, {muls} of them a MUL:")
    product = z * 0.0
    differs = [v for v in (-1.0, math.inf, math.nan) if not same(evaluate(product, {0: v}), 0.0)]
    print(f"  the strict rules keep z * 0.0, which is not 0.0 for z in {differs}")
    claim(size(kept) == 6 and muls == 1 and len(differs) == 3, "relu(z, 0.0) keeps z * 0.0")
    state("fold_zero_nodes", size(kept), "nodes of relu(z, 0.0) once simplified")
    state("fold_zero_muls", muls, "of them, the MULs")
    i, j = param(0, I32), param(1, I32)
    g = UOp(Ops.CALL, (i * 4 + j, UOp.const(2), UOp.const(1)), CallArg("g"))
    folded = simplify(g)
    print(f"g(i, j) = i*4 + j; g(2, 1) -> {size(folded)} node: CONST {spell_value(folded.arg)}")
    claim(folded is UOp.const(9), "g(2, 1) is CONST 9")
    state("fold_g_value", folded.arg, "the constant g(2, 1) folds to")


def main() -> int:
    show_fold_relu()
    show_partial_evaluation()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
