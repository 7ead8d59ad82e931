"""Graphs and texts that cannot exist, the message each one gets, and a chain 200,000 deep.

    python demos/errors.py

Each case prints a padded label, then `ExceptionName: message`, or `built` for the one good case
of a group. The messages come from the type checker (`uopc.typecheck.infer`) and the text reader
(`uopc.textfmt.loads`). No bad case may leave a node behind: the program counts the live nodes
before and after each one.

Quoted blocks, each after a marker line `@@ block NAME` that the book build strips: bad-graphs
(Chapter 4), bad-texts (Chapter 5), bad-memory (Chapter 6), then chain-times and chain
(Chapter 4). chain-times is the one line that depends on the machine (timings), marked
`(this machine)`; every other line is the same on every run. A printed claim that turns out
false makes the program exit with a non-zero status.
"""

from _common import MACHINE, block, claim, finish, param, state

import gc
import sys
import time

from uopc import BOOL, F32, I32, CallArg, Ops, ParamArg, Ptr, UOp
from uopc.interp import evaluate
from uopc.semantics import wrap32
from uopc.symbolic import simplify
from uopc.textfmt import infix, loads

LABEL_WIDTH = 40


def live() -> int:
    gc.collect()
    return len(UOp.live_nodes())


def attempt(label: str, build) -> tuple[bool, int]:
    """Print what build() gives; whether it raised, and how many nodes it left alive."""
    before = live()
    try:
        build()
        outcome, refused = "built", False
    except Exception as error:  # the demo shows whatever the checker or the reader raises
        outcome, refused = f"{type(error).__name__}: {error}", True
    left = live() - before
    print(f"{label + ':':<{LABEL_WIDTH}} {outcome}")
    return refused, left


def run_cases(group: str, cases) -> None:
    """The bad cases, then the good one (if any), which must build."""
    bad_cases = sum(bad for _, _, bad in cases)
    key = "errors_" + group.replace(" ", "_")
    state(key, bad_cases, f"{group} shown refused, each with its message (of {len(cases)} cases)")
    left_behind = 0
    for label, build, bad in cases:
        refused, left = attempt(label, build)
        claim(refused == bad, f"{group}: {label}")
        left_behind += left if bad else 0
    print(f"nodes left behind by the bad cases: {left_behind}")
    claim(left_behind == 0, f"{group}: no bad case leaves a node")


# ---------------------------------------------------------------------------------------------
# Block 1: eleven bad graphs and one good (Chapter 4)
# ---------------------------------------------------------------------------------------------


def show_bad_graphs():
    block("bad-graphs")
    x, y, t = param(0, I32), param(1, F32), param(2, BOOL)
    zero_i, zero_f = UOp.const(0), UOp.const(0.0)
    body = x.cast(F32) + y  # wants an i32 in slot 0 and an f32 in slot 1
    inner = UOp(Ops.CALL, (body, zero_i, zero_f), CallArg("inner"))
    uses_call = inner + 1.0
    cases = [  # label, what builds the node (every src built already), whether it is bad
        ("i32 + f32", lambda: UOp(Ops.ADD, (x, y)), True),
        ("ADD of two bools", lambda: UOp(Ops.ADD, (t, t)), True),
        ("WHERE with an i32 condition", lambda: UOp(Ops.WHERE, (x, y, y)), True),
        ("WHERE with an i32 and an f32 branch", lambda: UOp(Ops.WHERE, (t, x, y)), True),
        ("RECIP of an i32", lambda: UOp(Ops.RECIP, (x,)), True),
        ("FLOORDIV of two f32", lambda: UOp(Ops.FLOORDIV, (y, y)), True),
        ("the i32 CONST 2**31", lambda: UOp(Ops.CONST, (), 2**31), True),
        ("CAST to ptr<f32,4>", lambda: UOp(Ops.CAST, (y,), Ptr(F32, 4)), True),
        ("CALL with no argument for slot 1", lambda: call(body, zero_i), True),
        ("CALL with an i32 where the body wants f32", lambda: call(body, zero_i, zero_i), True),
        ("CALL inside a body", lambda: call(uses_call, zero_i, zero_f), True),
        ("a well-typed CALL", lambda: call(body, zero_i, zero_f), False),
    ]
    run_cases("bad graphs", cases)


def call(body: UOp, *args: UOp) -> UOp:
    return UOp(Ops.CALL, (body, *args), CallArg("f"))


# ---------------------------------------------------------------------------------------------
# Block 2: five bad texts and one good (Chapter 5)
# ---------------------------------------------------------------------------------------------

ONE_PARAM = "%0 = param : dtype=i32 slot=0\n"
TWO_PARAMS = ONE_PARAM + "%1 = param : dtype=f32 slot=1\n"
TEXTS = [  # label, text, whether it is bad
    ("no header line", "%0 = param : dtype=f32 slot=0\n", True),
    ("a src used before its line", "; uop v1\n%0 = add %1, %1\n" + ONE_PARAM, True),
    ("an unknown op", "; uop v1\n%0 = constant : dtype=f32 value=1.0\n", True),
    ("a src that is not a number", f"; uop v1\n{ONE_PARAM}%1 = add %0, %x\n", True),
    ("an ADD of i32 and f32", f"; uop v1\n{TWO_PARAMS}%2 = add %0, %1\n", True),
    ("a good file", f"; uop v1\n{TWO_PARAMS}%2 = cast %0 : dtype=f32\n%3 = add %2, %1\n", False),
]


def show_bad_texts():
    block("bad-texts")
    cases = [(label, lambda text=text: loads(text), bad) for label, text, bad in TEXTS]
    run_cases("bad texts", cases)


# ---------------------------------------------------------------------------------------------
# Block 3: memory graphs that infer() refuses to build, then what a STORE node reports about
# itself (dtype, space, shape; Chapter 6)
# ---------------------------------------------------------------------------------------------


def show_bad_memory():
    block("bad-memory")
    p4 = param(0, Ptr(F32, 4))
    one_i, one_f = UOp.const(1), UOp.const(1.0)
    index = UOp(Ops.INDEX, (p4, one_i))
    load = UOp(Ops.LOAD, (index,))
    store = UOp(Ops.STORE, (index, one_f))
    body = UOp.sink(store)
    buffer8 = UOp(Ops.BUFFER, arg=ParamArg(0, Ptr(F32, 8)))
    cases = [
        ("a pointer + a number", lambda: UOp(Ops.ADD, (p4, one_i)), True),
        ("INDEX with an f32", lambda: UOp(Ops.INDEX, (p4, one_f)), True),
        ("LOAD from a pointer with no INDEX", lambda: UOp(Ops.LOAD, (p4,)), True),
        ("STORE of an i32 into an f32 buffer", lambda: UOp(Ops.STORE, (index, one_i)), True),
        ("CALL passing ptr<f32,8> for ptr<f32,4>", lambda: call(body, buffer8), True),
        ("SINK of a LOAD", lambda: UOp.sink(load), True),
    ]
    run_cases("bad memory", cases)
    print("a store of 1.0 into a size-4 f32 buffer, (op, dtype, shape, space) of:")
    for node in (index, one_f, store):
        print(f"  ({node.op.name}, {node.dtype}, {node.shape}, {node.space})")
    properties = (store.dtype.name, store.shape, store.space)
    claim(properties == ("void", (), None), "the properties of a store")


# ---------------------------------------------------------------------------------------------
# Block 4: a chain 200,000 deep (Chapter 4)
# ---------------------------------------------------------------------------------------------

STEPS = 200_000


def show_chain():
    x = param(0, I32)
    start = time.perf_counter()
    chain = x
    for c in range(1, STEPS + 1):
        chain = chain + c  # a new constant at each step, so nothing is shared
    built = time.perf_counter()
    nodes = len(chain.toposort())
    sorted_at = time.perf_counter()
    value = evaluate(chain, {0: 0})
    evaluated = time.perf_counter()
    result = simplify(chain)
    simplified = time.perf_counter()
    block("chain-times")
    times = [built - start, sorted_at - built, evaluated - sorted_at, simplified - evaluated]
    steps = ("build", "toposort", "evaluate", "simplify")
    spent = ", ".join(f"{step} {seconds:.2f} s" for step, seconds in zip(steps, times, strict=True))
    for step, seconds in zip(steps, times, strict=True):
        state(f"chain_{step}_s", f"{seconds:.2f}", f"seconds to {step} the chain {MACHINE}")
    print(f"x + 1 + 2 + ... + {STEPS:,}: {nodes:,} nodes; {spent} {MACHINE}")
    block("chain")
    exact = wrap32(STEPS * (STEPS + 1) // 2)
    print(f"evaluated at x = 0: {value}; wrap32 of the sum 1..{STEPS:,}: {exact}")
    claim(nodes == 2 * STEPS + 1 and value == exact, "chain: the count and the value")
    again = evaluate(result, {0: 0})
    size = len(result.toposort())
    print(f"simplified: {size} nodes, {infix(result, {0: 'x'})}, which evaluates to {again}")
    claim(size == 3 and result.op is Ops.ADD and again == value, "chain: the simplified graph")
    state("chain_adds", STEPS, "additions in the chain x + 1 + 2 + ...")
    state("chain_nodes", nodes, "nodes of the chain: one ADD and one CONST per step, and x")
    state("chain_value", value, "the chain's value at x = 0, the wrapped sum")
    state("chain_nodes_after", size, "nodes of the chain once simplified")


def main() -> int:
    show_bad_graphs()
    show_bad_texts()
    show_bad_memory()
    show_chain()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
