"""One example per idea, in the order the book meets them: relu, ranges, a rewrite trace, memory.

    python demos/walkthrough.py

Eight quoted blocks, each after a marker line `@@ block NAME` that the book build strips:
relu-text, relu-c (Chapter 1), ranges (Chapter 6), trace (Chapter 8), bump, memory-trap,
stencil and interpreter-errors (Chapter 14). Every line is the same on every run. A printed
claim that turns out false makes the program exit with a non-zero status.
"""

from _common import block, claim, finish, param, state

import sys

from uopc import F32, I32, CallArg, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import run_call
from uopc.render import PRELUDE, render
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.runtime import execute
from uopc.symbolic import default, simplify
from uopc.textfmt import dumps, infix, spell_value


def buffers(dtype, size: int, count: int) -> list[UOp]:
    """The BUFFER arguments of a call whose pointer params are slots 0 .. count-1."""
    return [UOp(Ops.BUFFER, arg=ParamArg(slot, Ptr(dtype, size))) for slot in range(count)]


def function_text(call: UOp) -> str:
    """The rendered C without the prelude: the function alone."""
    source = render(call)
    if not source.startswith(PRELUDE):
        raise ValueError("the rendered C does not start with the prelude")
    return source[len(PRELUDE) :].lstrip("\n")


def build_relu() -> UOp:
    x, y = param(0, F32), param(1, F32)
    zero = UOp.const(0.0)
    return UOp(Ops.CALL, ((x * y + 1.0).max(zero), zero, zero), CallArg("relu"))


# ---------------------------------------------------------------------------------------------
# Blocks 1 and 2: relu as text and as C (Chapters 1 and 4)
# ---------------------------------------------------------------------------------------------


def show_relu():
    relu = build_relu()
    block("relu-text")
    print(dumps(relu), end="")
    zero = relu.src[0].src[1]  # the max's second src
    one_zero = relu.src[1] is zero and relu.src[2] is zero
    print(f"the call's two arguments are the 0.0 node the max uses: {one_zero}")
    claim(one_zero and len(dumps(relu).splitlines()) == 9, "relu text")
    block("relu-c")
    print(function_text(relu), end="")


# ---------------------------------------------------------------------------------------------
# Block 3: the range of every node (Chapter 6)
# ---------------------------------------------------------------------------------------------


def describe(node: UOp, numbers: dict) -> str:
    """What a text line says about a node: its slot, its value or its srcs."""
    if node.op is Ops.PARAM:
        return f"slot={node.arg.slot}"
    if node.op is Ops.CONST:
        return f"value={spell_value(node.arg)}"
    return ", ".join(f"%{numbers[s]}" for s in node.src)


def range_line(label: str, node: UOp, what: str) -> str:
    return f"{label:<4} {node.op.name.lower():<9} {what:<9} range [{node.vmin}, {node.vmax}]"


def show_ranges():
    block("ranges")
    i, j = param(0, I32, 0, 15), param(1, I32, 0, 3)
    quotient = (i * 4 + j) // 4
    print("(i*4+j)//4 with i in [0,15] and j in [0,3], one line per node in text order:")
    order = quotient.toposort()
    numbers = {node: number for number, node in enumerate(order)}
    for node in order:
        line = range_line(f"%{numbers[node]}", node, describe(node, numbers))
        print(f"{line:<40} safe={node.safe}")
    add = quotient.src[0]
    claim(all(node.safe for node in order), "ranges: all six nodes are safe")
    claim((add.vmin, add.vmax, quotient.vmin, quotient.vmax) == (0, 63, 0, 15), "ranges: bounds")
    big = param(0, I32, 0, 2**30)
    product = big * 4
    print(f"big in [0, 2**30]: big*4 range [{product.vmin}, {product.vmax}] safe={product.safe}")
    result = simplify(product // 4)
    text = infix(result, {0: "big"})
    print(f"simplify((big*4)//4) = {text}: the top is still a {result.op.name}")
    claim(not product.safe and result.op is Ops.FLOORDIV, "ranges: the guard blocks the split")


# ---------------------------------------------------------------------------------------------
# Block 4: a rewrite trace (Chapter 8)
# ---------------------------------------------------------------------------------------------


class TracingMatcher(PatternMatcher):
    """A matcher that records every rewrite it makes: (before, after, rule name)."""

    def __init__(self, rules):
        super().__init__(rules)
        self.steps: list[tuple[UOp, UOp, str]] = []

    def rewrite(self, u, ctx=None):
        before = self.fired.copy()
        result = super().rewrite(u, ctx)
        if result is not None:
            (name,) = (self.fired - before).keys()  # the one rule that fired
            self.steps.append((u, result, name))
        return result


def show_trace():
    block("trace")
    x = param(0, I32)
    names = {0: "x"}
    start = ((x * 1) + 0) * (UOp.const(2) + 3)
    matcher = TracingMatcher(default.rules)  # simplify's own rules, in their order
    result = graph_rewrite(start, matcher)
    print(f"start:  {infix(start, names)}")
    for number, (before, after, name) in enumerate(matcher.steps, 1):
        print(f"step {number}: {infix(before, names)} -> {infix(after, names)}   [{name}]")
    print(f"result: {infix(result, names)}")
    print(f"firings: {dict(matcher.fired)}")
    rules = [name for _, _, name in matcher.steps]
    claim(rules == ["x*1", "x+0 (int)", "const fold"], "trace: the three steps")
    claim(result is x * 5, "trace: the result is x * 5")
    state(
        "walkthrough_firings",
        len(matcher.steps),
        "rules that fired while simplify's rules rewrote ((x*1)+0)*(2+3), one per step traced",
    )


# ---------------------------------------------------------------------------------------------
# Block 5: the kernel bump (Chapter 14)
# ---------------------------------------------------------------------------------------------


def show_bump():
    block("bump")
    kernel = Builder()
    source, out = kernel.buffer(0, F32, 2), kernel.buffer(1, F32, 2)
    out.store(0, source.load(0) + 1.0)
    out.store(1, out.load(0) * 2.0)  # reads back the value just stored
    call = make_call(kernel.body(), buffers(F32, 2, 2), "bump")
    print(dumps(call), end="")
    function = function_text(call)
    print(function, end="")
    statements = [line.strip() for line in function.splitlines()[1:-1]]
    stores = [n for n, text in enumerate(statements) if text.startswith("*")]
    loads = [n for n, text in enumerate(statements) if "= *" in text]
    later = loads[1] > stores[0]
    print(f"{len(statements)} statements, {len(stores)} stores;", end=" ")
    print(f"the second load comes after the first store: {later}")
    claim((len(statements), len(stores), later) == (10, 2, True), "bump: the C function")
    given = [10.0, 99.0]  # in[1] is never read
    compiled = execute(call, {0: given})[1].tolist()
    lists = [list(given), [0.0, 0.0]]
    run_call(call, lists)
    print(f"in = {given}: out from C {compiled}, from the interpreter {lists[1]}")
    claim(compiled == lists[1] == [11.0, 22.0], "bump: C and the interpreter give [11.0, 22.0]")


# ---------------------------------------------------------------------------------------------
# Block 6: the hash-consing trap with memory (Chapter 14)
# ---------------------------------------------------------------------------------------------


def one_element_program() -> UOp:
    """p[0] = 2.0; v = p[0]; p[0] = v * 10.0, with the builder's AFTER edges."""
    kernel = Builder()
    p = kernel.buffer(0, F32, 1)
    p.store(0, 2.0)
    p.store(0, p.load(0) * 10.0)
    return make_call(kernel.body(), buffers(F32, 1, 1), "sequenced")


def racy_program() -> UOp:
    """Step 11's p[0] = 5.0; p[1] = p[0] with no AFTER: nothing orders the load."""
    p = param(0, Ptr(F32, 3))
    store_five = UOp(Ops.STORE, (UOp(Ops.INDEX, (p, UOp.const(0))), UOp.const(5.0)))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (p, UOp.const(0))),))
    copy = UOp(Ops.STORE, (UOp(Ops.INDEX, (p, UOp.const(1))), load))
    return make_call(UOp.sink(copy, store_five), buffers(F32, 3, 1), "racy")


def show_memory_trap():
    block("memory-trap")
    p = param(0, Ptr(F32, 1))
    place = UOp(Ops.INDEX, (p, UOp.const(0)))
    first = UOp(Ops.LOAD, (place,))
    store = UOp(Ops.STORE, (place, UOp.const(2.0)))
    second = UOp(Ops.LOAD, (UOp(Ops.INDEX, (p, UOp.const(0))),))
    merged = second is first
    print("load p[0], store 2.0 into p[0], load p[0] again, nothing ordering them:")
    print(f"  the second load is the first: {merged}")
    after = UOp(Ops.LOAD, (UOp(Ops.INDEX, (UOp(Ops.AFTER, (p, store)), UOp.const(0))),))
    distinct = after is not first
    print(f"a load through AFTER(p, store) is a different node: {distinct}")
    claim(merged and distinct, "memory trap: hash consing merges the unordered loads")
    sequenced = one_element_program()
    for order in ("id", "dfs"):
        data = [1.0]
        run_call(sequenced, [data], order)
        chain = "p = [1.0]; p[0] = 2.0; v = p[0]; p[0] = v * 10.0"
        print(f"sequenced, order {order:<3}: {chain} -> p = {data}")
        claim(data == [20.0], f"memory trap: sequenced in order {order}")
    results = {}
    for order in ("id", "dfs"):
        data = [1.0, 0.0, 0.0]
        run_call(racy_program(), [data], order)
        results[order] = data
        chain = "p = [1.0, 0.0, 0.0]; p[0] = 5.0; p[1] = p[0]"
        print(f"racy, order {order:<3}: {chain} -> p = {data}")
    expected = {"id": [5.0, 5.0, 0.0], "dfs": [5.0, 1.0, 0.0]}
    claim(results == expected, "memory trap: the racy program in both orders")
    depends = results["id"] != results["dfs"]
    print(f"without sequencing, the result depends on the visiting order: {depends}")
    claim(depends, "memory trap: the racy program depends on the order")


# ---------------------------------------------------------------------------------------------
# Block 7: a stencil, where merging loads is right (Chapter 14)
# ---------------------------------------------------------------------------------------------


def show_stencil():
    block("stencil")
    kernel = Builder()
    source, out = kernel.buffer(0, F32, 5), kernel.buffer(1, F32, 5)
    written = 0
    for k in range(1, 4):
        out.store(k, source.load(k - 1) + source.load(k) + source.load(k + 1))
        written += 3
    call = make_call(kernel.body(), buffers(F32, 5, 2), "stencil")
    loads = sum(node.op is Ops.LOAD for node in call.toposort())
    print(f"out[k] = in[k-1] + in[k] + in[k+1] for k = 1..3: {written} loads written")
    print(f"LOAD nodes in the graph: {loads} (in is never written, so equal loads are one node)")
    claim((written, loads) == (9, 5), "stencil: 9 loads, 5 nodes")
    print(function_text(call), end="")
    given = [1.0, 2.0, 4.0, 8.0, 16.0]
    compiled = execute(call, {0: given})[1].tolist()
    lists = [list(given), [0.0] * 5]
    run_call(call, lists)
    print(f"in = {given}")
    print(f"out from C:               {compiled}")
    print(f"out from the interpreter: {lists[1]}")
    claim(compiled == lists[1] == [0.0, 7.0, 14.0, 28.0, 0.0], "stencil: the result")


# ---------------------------------------------------------------------------------------------
# Block 8: two errors the interpreter reports and C would not (Chapter 14)
# ---------------------------------------------------------------------------------------------


def unwritten_scratch() -> UOp:
    kernel = Builder()
    scratch, out = kernel.alloc(0, F32, 2), kernel.buffer(0, F32, 2)
    out.store(0, scratch.load(0))  # scratch memory is undefined until written
    return make_call(kernel.body(), buffers(F32, 2, 1), "unwritten")


def store_past_the_end() -> UOp:
    kernel = Builder()
    kernel.buffer(0, F32, 2).store(2, 1.0)
    return make_call(kernel.body(), buffers(F32, 2, 1), "past_the_end")


def show_interpreter_errors():
    block("interpreter-errors")
    cases = [
        ("read ALLOC memory never written", unwritten_scratch()),
        ("store at index 2 of a size-2 buffer", store_past_the_end()),
    ]
    for label, call in cases:
        try:
            run_call(call, [[0.0, 0.0]])
            message = "no error"
        except RuntimeError as error:
            message = f"{type(error).__name__}: {error}"
        print(f"{label + ':':<37} {message}")
        claim(message != "no error", f"interpreter errors: {label}")


def main() -> int:
    show_relu()
    show_ranges()
    show_trace()
    show_bump()
    show_memory_trap()
    show_stencil()
    show_interpreter_errors()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
