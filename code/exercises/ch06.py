"""Chapter 6 · Types, shapes, address spaces and ranges: the answers to exercises 6.1-6.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch06.
"""

from uopc import I32, INT_MAX, Ops, UOp
from uopc.interp import evaluate
from uopc.semantics import eval_op
from uopc.symbolic import simplify
from verify.generators import SPECIAL_INT, param

from answers import check, exercise, out


def range_against_truth(expression, envs) -> tuple:
    """(vmin, vmax) of the node and (min, max) of its values over every env."""
    values = [evaluate(expression, env) for env in envs]
    return (expression.vmin, expression.vmax), (min(values), max(values))


@exercise("ch06", "6.1", "ranges of i*4+j and (i*4+j)%8")
def ex_6_1():
    i, j = param(0, I32, 0, 15), param(1, I32, 0, 3)
    envs = [{0: a, 1: b} for a in range(16) for b in range(4)]
    for name, e in (("i*4+j", i * 4 + j), ("(i*4+j)%8", (i * 4 + j) % 8)):
        declared, actual = range_against_truth(e, envs)
        check(declared == actual, f"{name}: range {declared}, values {actual}")
        check(e.safe, f"{name} is marked as possibly wrapping")
        out(f"{name}: range {list(declared)}, equal to the min and max over all 64 inputs")


@exercise("ch06", "6.2", "the range of i - j")
def ex_6_2():
    i, j = param(0, I32, 0, 15), param(1, I32, 0, 3)
    declared, actual = range_against_truth(
        i - j, [{0: a, 1: b} for a in range(16) for b in range(4)]
    )
    check(declared == actual == (-3, 15), f"range {declared}, values {actual}")
    check((i - j).safe, "i - j is marked as possibly wrapping")
    out(f"i - j: range {list(declared)}, equal to the min and max over all inputs")


@exercise("ch06", "6.3", "ranges of x//5 and x%5 for x in [-8, 8]")
def ex_6_3():
    x = param(0, I32, -8, 8)
    envs = [{0: v} for v in range(-8, 9)]
    for name, e in (("x//5", x // 5), ("x%5", x % 5)):
        declared, actual = range_against_truth(e, envs)
        check(declared == actual, f"{name}: range {declared}, values {actual}")
        check(e.safe, f"{name} is marked as possibly wrapping")
        out(f"{name}: range {list(declared)}, equal to the min and max over the 17 inputs")


@exercise("ch06", "6.4", "x*x for x in [-50000, 50000] and in [-46340, 46340]")
def ex_6_4():
    for top in (50000, 46340):
        x = param(0, I32, -top, top)
        square = x * x
        fits = top * top <= INT_MAX  # Python ints never wrap
        check(square.safe == fits, f"top {top}: safe {square.safe}, fits {fits}")
        if not square.safe:
            wrapped = evaluate(square, {0: top})
            check(wrapped != top * top, f"x*x at {top} does not wrap")
            out(
                f"[-{top}, {top}]: safe False: {top}**2 = {top * top:,} > INT_MAX, and x*x at "
                f"{top} wraps to {wrapped:,}"
            )
            continue
        squares = [eval_op(Ops.MUL, I32, [v, v]) for v in range(-top, top + 1)]
        low, high = min(squares), max(squares)
        check(square.vmin <= low and high <= square.vmax, "a square outside the range")
        check(square.vmax == high and square.vmin < low, "the bounds are not as expected")
        out(
            f"[-{top}, {top}]: safe True, range [{square.vmin:,}, {square.vmax:,}] holds every "
            f"square; not tight: the smallest square is {low}"
        )


@exercise("ch06", "6.5", "x % 1")
def ex_6_5():
    x = param(0, I32)
    e = x % 1
    check(e.vmin == e.vmax == 0, f"range [{e.vmin}, {e.vmax}]")
    check(simplify(e) is UOp.const(0), "simplify does not give const 0")
    check(all(evaluate(e, {0: v}) == 0 for v in SPECIAL_INT), "x % 1 is not always 0")
    out(f"range [{e.vmin}, {e.vmax}]; simplify gives the constant {simplify(e).arg}")
