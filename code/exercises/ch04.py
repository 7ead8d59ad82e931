"""Chapter 4 · The UOp: the answers to exercises 4.1-4.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch04.
"""

from uopc import BOOL, F32, I32, Ops, UOp, UOpError
from uopc.interp import evaluate
from uopc.semantics import wrap32
from uopc.textfmt import dumps, loads
from uopc.uop import arg_key
from verify.generators import SPECIAL_INT, param

from answers import check, exercise, out
from shared import call_of, tree_size


@exercise("ch04", "4.1", "(x+1)*(x+1)")
def ex_4_1():
    x = param(0, I32)
    root = (x + 1) * (x + 1)
    # reasoned apart from hash consing: the distinct subexpressions of the tree, as tuples
    tree = ("mul", ("add", "x", 1), ("add", "x", 1))
    distinct, stack = set(), [tree]
    while stack:
        item = stack.pop()
        distinct.add(item)
        if isinstance(item, tuple):
            stack.extend(item[1:])
    check(len(root.toposort()) == len(distinct) == 4, f"{len(root.toposort())} nodes")
    check(root.src[0] is root.src[1], "the two sources of the MUL are two objects")
    check(tree_size(root) == 7, f"as a tree {tree_size(root)} nodes")
    out(
        f"{len(distinct)} nodes (x, 1, x+1, the product), 7 as a tree; the MUL's two sources are "
        "one object"
    )


@exercise("ch04", "4.2", "an i32 plus an f32")
def ex_4_2():
    x, y = param(0, I32), param(1, F32)
    try:
        _ = x + y
        message = None
    except UOpError as error:
        message = str(error)
    check(message == "ADD: needs two srcs of the same dtype", f"message {message!r}")
    fixed = x.cast(F32) + y
    check(fixed.dtype is F32 and fixed.op is Ops.ADD, "x.cast(F32) + y")
    out(f"UOpError: {message}")
    out(f"x.cast(F32) + y builds, dtype {fixed.dtype}")


@exercise("ch04", "4.3", "x*2 + 3 written by hand")
def ex_4_3():
    hand = (
        "; uop v1\n"
        "%0 = param : dtype=i32 slot=0\n"
        "%1 = const : dtype=i32 value=2\n"
        "%2 = mul %0, %1\n"
        "%3 = const : dtype=i32 value=3\n"
        "%4 = add %2, %3\n"
    )
    x = param(0, I32)
    check(loads(hand) is x * 2 + 3, "loads(hand text) is x*2 + 3")
    check(dumps(x * 2 + 3) == hand, "dumps(x*2 + 3) differs from the hand text")
    check(all(evaluate(loads(hand), {0: v}) == wrap32(v * 2 + 3) for v in SPECIAL_INT), "values")
    out("loads of the hand-written text is x*2 + 3 itself, and dumps gives back the same text")


@exercise("ch04", "4.4", "a body that uses slot 2, called with two arguments")
def ex_4_4():
    body = param(0, F32) + param(2, F32)  # built: a body alone is a graph like any other
    try:
        call_of(body, [UOp.const(1.0), UOp.const(2.0)], "f")
        message = None
    except UOpError as error:
        message = str(error)
    check(body.op is Ops.ADD, "the body builds")
    check(message == "CALL: PARAM slot 2 has no argument", f"message {message!r}")
    three = call_of(body, [UOp.const(1.0), UOp.const(2.0), UOp.const(3.0)], "f")
    check(three.op is Ops.CALL, "with a third argument the call builds")
    out(f"the body builds; the CALL raises UOpError: {message}")


@exercise("ch04", "4.5", "const(1) against const(1) and const(True)")
def ex_4_5():
    same_node = UOp.const(1) is UOp.const(1)
    merged = UOp.const(1) is UOp.const(True)
    check(same_node and not merged, f"{same_node}, {merged}")
    check(1 == True and arg_key(1) != arg_key(True), "the keys keep the type")  # noqa: E712
    check(UOp.const(1).dtype is I32 and UOp.const(True).dtype is BOOL, "dtypes")
    out(f"const(1) is const(1): {same_node}; const(1) is const(True): {merged}")
    out(f"Python says 1 == True, but the keys differ: {arg_key(1)} and {arg_key(True)}")
