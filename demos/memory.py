"""Chapter 14's examples: each memory hazard in both orders, merged loads, refusals, aliasing.

    python demos/memory.py

Four quoted blocks, each after a marker line `@@ block NAME` that the book build strips:
- hazards: read after write, write after read and write after write, each a two- or
  three-line program over one buffer, built twice: by hand with the ordering edge that the hazard
  needs left out, and by `Builder`. Each is run by the interpreter in "id" and "dfs" order and
  as compiled C, and compared with the program run line by line in plain Python;
- merge: a three-point stencil over a buffer that is never written (equal loads are one node),
  against a buffer that is written (a load after a store is a new node);
- refusals: what the type checker refuses when a memory node is built, and what the
  interpreter refuses while it runs a call (and the C that has no such check);
- alias: one buffer passed as two arguments: refused, then run with the opt-in.
Every line is the same on every run. A printed claim that turns out false makes the program exit
with a non-zero status.
"""

from _common import block, claim, finish, state

import sys
from collections.abc import Callable
from typing import NamedTuple

from uopc import F32, I32, Ops, ParamArg, Ptr, UOp, UOpError
from uopc.builder import Builder, Mem, make_call
from uopc.interp import run_call
from uopc.render import render
from uopc.runtime import Buffer, Program

START = [3.0, 4.0]  # the buffer p of every hazard program, before the call


def buffer_args(count: int, size: int, dtype=F32) -> list[UOp]:
    """The BUFFER arguments of a call whose pointer params are slots 0 .. count-1."""
    return [UOp(Ops.BUFFER, arg=ParamArg(slot, Ptr(dtype, size))) for slot in range(count)]


# ---------------------------------------------------------------------------------------------
# Block 1: the hazards, each in both orders
# ---------------------------------------------------------------------------------------------


# --8<-- [start:unordered]
def at(p: UOp, i: int) -> UOp:
    return UOp(Ops.INDEX, (p, UOp.const(i)))


def read(p: UOp, i: int) -> UOp:
    return UOp(Ops.LOAD, (at(p, i),))


def write(p: UOp, i: int, value) -> UOp:
    return UOp(Ops.STORE, (at(p, i), value if isinstance(value, UOp) else UOp.const(value)))


# Each program by hand, every access on p itself: no AFTER, so nothing orders the two accesses
# of the hazard. A SINK's srcs carry no order; each is listed so that "dfs" meets them badly.
def raw_unordered(p: UOp) -> UOp:  # p[0] = 5.0; p[1] = p[0]
    five = write(p, 0, 5.0)
    copy = write(p, 1, read(p, 0))  # should read the 5.0
    return UOp.sink(copy, five)


def war_unordered(p: UOp) -> UOp:  # v = p[0]; p[0] = 7.0; p[1] = v
    v = read(p, 0)  # should read the old p[0]
    seven = write(p, 0, 7.0)
    return UOp.sink(seven, write(p, 1, v))


def waw_unordered(p: UOp) -> UOp:  # p[0] = 1.0; p[0] = 2.0
    one = write(p, 0, 1.0)
    two = write(p, 0, 2.0)  # should be the one that stays
    return UOp.sink(two, one)


# --8<-- [end:unordered]


# --8<-- [start:ordered]
# The same programs written in program order with the Builder, which adds the AFTER edges.
def raw_ordered(p: Mem) -> None:
    p.store(0, 5.0)
    p.store(1, p.load(0))


def war_ordered(p: Mem) -> None:
    v = p.load(0)
    p.store(0, 7.0)
    p.store(1, v)


def waw_ordered(p: Mem) -> None:
    p.store(0, 1.0)
    p.store(0, 2.0)


# --8<-- [end:ordered]


def raw_python(p: list) -> None:
    p[0] = 5.0
    p[1] = p[0]


def war_python(p: list) -> None:
    v = p[0]
    p[0] = 7.0
    p[1] = v


def waw_python(p: list) -> None:
    p[0] = 1.0
    p[0] = 2.0


class Hazard(NamedTuple):
    name: str
    text: str
    unordered: Callable[[UOp], UOp]
    ordered: Callable[[Mem], None]
    python: Callable[[list], None]


HAZARDS = (
    Hazard("read after write", "p[0] = 5.0; p[1] = p[0]", raw_unordered, raw_ordered, raw_python),
    Hazard(
        "write after read", "v = p[0]; p[0] = 7.0; p[1] = v", war_unordered, war_ordered, war_python
    ),
    Hazard("write after write", "p[0] = 1.0; p[0] = 2.0", waw_unordered, waw_ordered, waw_python),
)


def unordered_call(hazard: Hazard) -> UOp:
    p = UOp(Ops.PARAM, arg=ParamArg(0, Ptr(F32, 2)))
    return make_call(hazard.unordered(p), buffer_args(1, 2), "unordered")


def ordered_call(hazard: Hazard) -> UOp:
    kernel = Builder()
    hazard.ordered(kernel.buffer(0, F32, 2))
    return make_call(kernel.body(), buffer_args(1, 2), "ordered")


def three_runs(call: UOp) -> dict[str, list]:
    """p after the call: the interpreter in each order, and the compiled C."""
    results = {}
    for order in ("id", "dfs"):
        data = list(START)
        run_call(call, [data], order)
        results[order] = data
    compiled = Buffer(F32, 2).copyin(START)
    Program(call)(compiled)
    results["C"] = compiled.tolist()
    return results


def show_hazards():
    block("hazards")
    print(f"p starts as {START} each time; the program line by line in Python gives 'expected'")
    for hazard in HAZARDS:
        expected = list(START)
        hazard.python(expected)
        print(f"{hazard.name}: {hazard.text}   expected {expected}")
        for label, call in (
            ("no edge", unordered_call(hazard)),
            ("Builder", ordered_call(hazard)),
        ):
            runs = three_runs(call)
            shown = "  ".join(f"{order} {value}" for order, value in runs.items())
            print(f"  {label:<8} {shown}")
            claim(runs["C"] == runs["dfs"], f"{hazard.name}, {label}: C runs in the dfs order")
            if label == "no edge":
                claim(runs["id"] != runs["dfs"], f"{hazard.name}: the orders disagree")
                claim(expected in (runs["id"], runs["dfs"]), f"{hazard.name}: one order is right")
            else:
                claim(all(value == expected for value in runs.values()), f"{hazard.name}: Builder")


# ---------------------------------------------------------------------------------------------
# Block 2: when equal loads are one node, and when they must not be
# ---------------------------------------------------------------------------------------------


def show_merge():
    block("merge")
    kernel = Builder()
    source, out = kernel.buffer(0, F32, 5), kernel.buffer(1, F32, 5)
    written = 0
    for k in range(1, 4):
        out.store(k, source.load(k - 1) + source.load(k) + source.load(k + 1))
        written += 3
    call = make_call(kernel.body(), buffer_args(2, 5), "stencil")
    nodes = sum(node.op is Ops.LOAD for node in call.toposort())
    print("out[k] = in[k-1] + in[k] + in[k+1] for k = 1, 2, 3; in is never written")
    print(f"  loads written: {written}, LOAD nodes in the graph: {nodes}")
    claim(nodes < written, "stencil: equal loads of an unwritten buffer are merged")
    state("merge_loads_written", written, "loads the stencil program writes, three per output")
    state("merge_load_nodes", nodes, "LOAD nodes of the stencil's graph (of the loads written)")
    data = [[1.0, 2.0, 4.0, 8.0, 16.0], [0.0] * 5]
    run_call(call, data)
    print(f"  in = {data[0]} gives out = {data[1]}")
    claim(data[1] == [0.0, 7.0, 14.0, 28.0, 0.0], "stencil: the result")

    kernel = Builder()
    a = kernel.buffer(0, F32, 2)
    before = a.load(0)
    again = a.load(0)
    a.store(1, 9.0)
    after = a.load(0)
    print("a written buffer: load a[0], load a[0], store a[1] = 9.0, load a[0]")
    print(f"  the first two loads are one node: {before is again}")
    print(f"  the load after the store is a new node: {after is not before}")
    claim(before is again and after is not before, "merge: a store separates equal loads")


# ---------------------------------------------------------------------------------------------
# Block 3: what is refused, when the graph is built and when it runs
# ---------------------------------------------------------------------------------------------


def pointer(slot: int = 0, size: int = 2, dtype=F32) -> UOp:
    return UOp(Ops.PARAM, arg=ParamArg(slot, Ptr(dtype, size)))


def refused_when_built() -> list[tuple[str, Callable[[], UOp]]]:
    """The refusals chapter 6 (demos/errors.py) does not show already."""
    p, x = pointer(), UOp(Ops.PARAM, arg=ParamArg(1, F32))
    return [
        ("INDEX into a float value", lambda: UOp(Ops.INDEX, (x, UOp.const(0)))),
        ("INDEX into an INDEX", lambda: UOp(Ops.INDEX, (at(p, 1), UOp.const(0)))),
        ("AFTER waiting for an ADD", lambda: UOp(Ops.AFTER, (p, x + 1.0))),
        (
            "a BUFFER inside a body",
            lambda: make_call(UOp.sink(write(buffer_args(1, 2)[0], 0, 1.0)), [], "global"),
        ),
        ("two ALLOCs in one slot", two_allocs),
    ]


def two_allocs() -> UOp:
    kernel = Builder()
    first, second, out = kernel.alloc(0, F32, 2), kernel.alloc(0, F32, 3), kernel.buffer(0, F32, 2)
    first.store(0, 1.0)
    second.store(0, 2.0)
    out.store(0, first.load(0) + second.load(0))
    return make_call(kernel.body(), buffer_args(1, 2), "two_allocs")


def unwritten_scratch() -> UOp:
    kernel = Builder()
    scratch, out = kernel.alloc(0, F32, 2), kernel.buffer(0, F32, 2)
    out.store(0, scratch.load(1))  # scratch is undefined until written
    return make_call(kernel.body(), buffer_args(1, 2), "unwritten")


def constant_past_the_end() -> UOp:
    kernel = Builder()
    kernel.buffer(0, F32, 2).store(2, 1.0)
    return make_call(kernel.body(), buffer_args(1, 2), "past_the_end")


def computed_past_the_end() -> UOp:
    kernel = Builder()
    where, out = kernel.buffer(0, I32, 1), kernel.buffer(1, F32, 2)
    out.store(where.load(0), 1.0)  # the index is known only when the call runs
    return make_call(kernel.body(), [*buffer_args(1, 1, I32), buffer_args(2, 2)[1]], "computed")


def refused_when_run() -> list[tuple[str, UOp, list]]:
    return [
        ("read scratch never written", unwritten_scratch(), [[0.0, 0.0]]),
        ("store at index 2 of a buffer of 2", constant_past_the_end(), [[0.0, 0.0]]),
        ("store at a loaded index, here -1", computed_past_the_end(), [[-1], [0.0, 0.0]]),
    ]


def entry(label: str, message: str) -> str:
    """One refusal: on one line when it fits in the page's code width, else on two."""
    line = f"  {label + ':':<34} {message}"
    return line if len(line) <= 92 else f"  {label}:\n      {message}"


def show_refusals():
    block("refusals")
    print("refused when the node is built (UOpError):")
    for label, build in refused_when_built():
        try:
            build()
            message = "built"
        except UOpError as error:
            message = str(error)
        print(entry(label, message))
        claim(message != "built", f"refused when built: {label}")
    print("refused when the interpreter runs the call (RuntimeError):")
    for label, call, buffers in refused_when_run():
        try:
            run_call(call, buffers)
            message = "ran"
        except RuntimeError as error:
            message = str(error)
        print(entry(label, message))
        claim(message != "ran", f"refused when run: {label}")
    lines = render(constant_past_the_end()).splitlines()
    start = next(k for k, line in enumerate(lines) if "p0 + 2" in line)
    c_lines = " ".join(line.strip() for line in lines[start : start + 2])
    print(f"the C of the store at index 2, which no check stops: {c_lines}")
    claim(c_lines == "float *v0 = p0 + 2; *v0 = 1.0f;", "refusals: the C writes past the end")


# ---------------------------------------------------------------------------------------------
# Block 4: one buffer passed twice
# ---------------------------------------------------------------------------------------------


def crosswise() -> UOp:
    """b[0] = a[1]; b[1] = a[0]: ordered within each buffer, a and b assumed apart."""
    kernel = Builder()
    a, b = kernel.buffer(0, F32, 2), kernel.buffer(1, F32, 2)
    b.store(0, a.load(1))
    b.store(1, a.load(0))
    return make_call(kernel.body(), buffer_args(2, 2), "crosswise")


def show_alias():
    block("alias")
    call = crosswise()
    program = Program(call)
    print("b[0] = a[1]; b[1] = a[0] with a = [3.0, 4.0]")
    a, b = Buffer(F32, 2).copyin(START), Buffer(F32, 2)
    program(a, b)
    print(f"  two buffers: b = {b.tolist()}")
    shared = Buffer(F32, 2).copyin(START)
    try:
        program(shared, shared)
        message = "ran"
    except ValueError as error:
        message = str(error)
    print(f"  one buffer as a and b, refused with a ValueError:\n    {message}")
    untouched = shared.tolist() == START
    print(f"  the refused call left the buffer as it was: {untouched}")
    program(shared, shared, allow_alias=True)
    print(f"  the same with allow_alias=True: the buffer becomes {shared.tolist()}")
    one_list = list(START)
    run_call(call, [one_list, one_list], "dfs")
    print(f"  the interpreter, one list as both, dfs order: {one_list}")
    claim(message != "ran" and untouched, "alias: refused, nothing run")
    claim(b.tolist() == [4.0, 3.0], "alias: two buffers give the crosswise copy")
    claim(shared.tolist() == one_list != b.tolist(), "alias: the opt-in gives another result")


def main() -> int:
    show_hazards()
    show_merge()
    show_refusals()
    show_alias()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
