"""Chapter 6's range table, worked out by the code and checked against every input.

    python demos/ranges_table.py

Each row builds one small node over parameters of declared ranges, reads vmin, vmax and
safe from uopc.ranges (through the node), and checks them against an independent reading:
the reference interpreter (uopc.interp, which runs the contract of semantics.py and knows
nothing of ranges) on every input the declared ranges allow, and the same graph computed again
with Python's unlimited integers, to see whether any input really wraps. A row whose inputs are
too many to run (an i32 with no bounds, a float) runs chosen inputs instead, and says so.

The rows are printed as two markdown tables, one per quoted block after a marker line
@@ block NAME that the book build strips: ranges-table-arith (the ops without division) and
ranges-table-div (division, remainder, casts and calls), both in Chapter 6. A row whose range
leaves out a value an input produces, or that is marked safe while an input wraps, makes the
program exit with a non-zero status. Every line is the same on every run.
"""

from _common import block, claim, finish, param, state

import itertools
import sys
from dataclasses import dataclass

from walkthrough import TracingMatcher

from uopc import BOOL, F32, I32, CallArg, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.dtypes import INT_MAX, INT_MIN
from uopc.interp import evaluate, run_call
from uopc.rewrite import graph_rewrite
from uopc.semantics import cast
from uopc.symbolic import default
from uopc.textfmt import infix

# i32 inputs for a parameter declared with no bounds: both ends and a few between
CHOSEN_I32 = (INT_MIN, -1, 0, 1, INT_MAX)
# f32 inputs: the infinities and nan, numbers past both ends of i32, and small ones
CHOSEN_F32 = (float("-inf"), -3e9, -1.5, -0.0, 0.0, 0.5, 2.5, 3e9, float("inf"), float("nan"))


@dataclass
class Row:
    op: str  # the rule's name in the table
    example: str  # the example as the table writes it
    node: UOp
    inputs: list  # one env (slot -> value) per run, or one memory for a LOAD
    every: bool  # whether inputs are every value the declared ranges allow
    run: object = None  # how to run one input; evaluate by default


# ---------------------------------------------------------------------------------------------
# The independent reading: run every input, wrapped (the contract) and exact (unlimited ints)
# ---------------------------------------------------------------------------------------------

# op -> its value over Python's unlimited integers: the contract of semantics.py without the
# wrap to 32 bits. Only what these small graphs use; a zero divisor is the contract's.
EXACT = {
    Ops.NEG: lambda a: -a,
    Ops.ADD: lambda a, b: a + b,
    Ops.MUL: lambda a, b: a * b,
    Ops.MAX: max,
    Ops.CMPLT: lambda a, b: a < b,
    Ops.CMPNE: lambda a, b: a != b,
    Ops.WHERE: lambda c, a, b: a if c else b,
    Ops.FLOORDIV: lambda a, b: 0 if b == 0 else a // b,
    Ops.FLOORMOD: lambda a, b: a if b == 0 else a - b * (a // b),
}


def exact(root: UOp, env: dict):
    """root's value with no wrapping; a CALL runs its body on the exact argument values."""
    values = {}
    for node in root.toposort():
        srcs = [values.get(s) for s in node.src]
        if node.op is Ops.CONST:
            values[node] = node.arg
        elif node.op is Ops.PARAM:
            values[node] = env.get(node.arg.slot)
        elif node.op is Ops.CALL:
            values[node] = exact(node.src[0], dict(enumerate(srcs[1:])))
        elif node.op is Ops.CAST:
            values[node] = cast(srcs[0], node.dtype)  # a cast never wraps: it saturates
        else:
            values[node] = EXACT[node.op](*srcs)
    return values[root]


def every_input(*domains) -> list[dict]:
    """Every env that gives slot k a value of domains[k]."""
    return [dict(enumerate(values)) for values in itertools.product(*domains)]


def run_row(row: Row) -> tuple[list, bool]:
    """The value of row.node for each input, and whether some input wraps."""
    if row.run is not None:
        return [row.run(given) for given in row.inputs], False
    values, wraps = [], False
    for env in row.inputs:
        value = evaluate(row.node, env)
        values.append(int(value))
        wraps = wraps or int(exact(row.node, env)) != int(value)
    return values, wraps


# ---------------------------------------------------------------------------------------------
# The rows
# ---------------------------------------------------------------------------------------------


def span(low: int, high: int) -> range:
    return range(low, high + 1)


def declared(slot: int, low: int, high: int) -> UOp:
    return param(slot, I32, low, high)


def load_row() -> Row:
    """A LOAD in a kernel that copies it out: its value is whatever the buffer holds."""
    kernel = Builder()
    source, out = kernel.buffer(0, I32, 1), kernel.buffer(1, I32, 1)
    loaded = source.load(0)
    out.store(0, loaded)
    pointers = [UOp(Ops.BUFFER, arg=ParamArg(slot, Ptr(I32, 1))) for slot in range(2)]
    call = make_call(kernel.body(), pointers, "copy")

    def run(held: int) -> int:
        memory = [[held], [0]]
        run_call(call, memory)
        return memory[1][0]

    return Row("LOAD", "p[0], p an i32 buffer", loaded, list(CHOSEN_I32), False, run)


def call_row() -> Row:
    """A value CALL: the analysis does not look into the body, which doubles its argument."""
    body = param(0, I32) * 2
    call = UOp(Ops.CALL, (body, declared(0, 0, 3)), CallArg("double"))
    return Row("CALL", "double([0, 3]), body a * 2", call, every_input(span(0, 3)), True)


def two(op, example, build, first, second) -> Row:
    """A row of an op over two i32 params declared first and second (each a (low, high))."""
    x, y = declared(0, *first), declared(1, *second)
    inputs = every_input(span(*first), span(*second))
    return Row(op, example, build(x, y), inputs, True)


def one(op, example, build, bounds) -> Row:
    """A row of an op over one i32 param declared bounds."""
    return Row(op, example, build(declared(0, *bounds)), every_input(span(*bounds)), True)


def arith_rows() -> list[Row]:
    unbounded = param(0, I32)
    c = param(2, BOOL)
    return [
        Row("CONST", "7", UOp.const(7), [{}], True),
        one("PARAM", "x declared [0, 3]", lambda x: x, (0, 3)),
        Row("PARAM", "x declared with no bounds", unbounded, every_input(CHOSEN_I32), False),
        load_row(),
        one("NEG", "-[1, 2]", lambda x: -x, (1, 2)),
        two("ADD", "[0, 3] + [1, 2]", lambda x, y: x + y, (0, 3), (1, 2)),
        one("ADD", "[2^31-2, 2^31-1] + 1", lambda x: x + 1, (INT_MAX - 1, INT_MAX)),
        two("MUL", "[-2, 3] * [1, 2]", lambda x, y: x * y, (-2, 3), (1, 2)),
        one("MUL", "[2^30, 2^30+1] * 4", lambda x: x * 4, (2**30, 2**30 + 1)),
        two("MAX", "max([0, 6], [2, 5])", lambda x, y: x.max(y), (0, 6), (2, 5)),
        two("CMPLT", "[0, 3] < [4, 7]", lambda x, y: x.lt(y), (0, 3), (4, 7)),
        two("CMPLT", "[4, 7] < [0, 3]", lambda x, y: x.lt(y), (4, 7), (0, 3)),
        two("CMPLT", "[0, 3] < [2, 5]", lambda x, y: x.lt(y), (0, 3), (2, 5)),
        two("CMPNE", "[0, 3] != [4, 7]", lambda x, y: x.ne(y), (0, 3), (4, 7)),
        two("CMPNE", "[2, 2] != [2, 2]", lambda x, y: x.ne(y), (2, 2), (2, 2)),
        two("CMPNE", "[0, 3] != [2, 5]", lambda x, y: x.ne(y), (0, 3), (2, 5)),
        two("WHERE", "where(x < y, x, y)", lambda x, y: x.lt(y).where(x, y), (0, 3), (4, 7)),
        where_unknown(c),
    ]


def where_unknown(c: UOp) -> Row:
    x, y = declared(0, 0, 3), declared(1, 4, 7)
    inputs = every_input(span(0, 3), span(4, 7), (False, True))
    return Row("WHERE", "where(c, x, y), c a bool", c.where(x, y), inputs, True)


def div_rows() -> list[Row]:
    floordiv, floormod = (lambda x, y: x // y), (lambda x, y: x % y)
    return [
        one("FLOORDIV", "[0, 7] // 2", lambda x: x // 2, (0, 7)),
        one("FLOORDIV", "[0, 7] // -2", lambda x: x // -2, (0, 7)),
        one("FLOORDIV", "[0, 7] // -1", lambda x: x // -1, (0, 7)),
        one("FLOORDIV", "[-2^31, -2^31+1] // -1", lambda x: x // -1, (INT_MIN, INT_MIN + 1)),
        two("FLOORDIV", "[0, 7] // [1, 3]", floordiv, (0, 7), (1, 3)),
        two("FLOORDIV", "[0, 7] // [-3, -1]", floordiv, (0, 7), (-3, -1)),
        two("FLOORDIV", "[0, 7] // [-1, 2]", floordiv, (0, 7), (-1, 2)),
        one("FLOORMOD", "[0, 7] % 4", lambda x: x % 4, (0, 7)),
        one("FLOORMOD", "[9, 10] % 4", lambda x: x % 4, (9, 10)),
        one("FLOORMOD", "[0, 7] % -4", lambda x: x % -4, (0, 7)),
        one("FLOORMOD", "[9, 10] % -4", lambda x: x % -4, (9, 10)),
        two("FLOORMOD", "[0, 7] % [2, 3]", floormod, (0, 7), (2, 3)),
        two("FLOORMOD", "[0, 7] % [-3, -2]", floormod, (0, 7), (-3, -2)),
        two("FLOORMOD", "[0, 7] % [-1, 2]", floormod, (0, 7), (-1, 2)),
        *cast_rows(),
        call_row(),
    ]


def cast_rows() -> list[Row]:
    flag, number = param(0, BOOL), param(0, F32)
    floats = every_input(CHOSEN_F32)
    return [
        one("CAST", "bool([1, 2])", lambda x: x.cast(BOOL), (1, 2)),
        one("CAST", "bool([0, 0])", lambda x: x.cast(BOOL), (0, 0)),
        one("CAST", "bool([0, 3])", lambda x: x.cast(BOOL), (0, 3)),
        Row("CAST", "i32(b), b a bool", flag.cast(I32), every_input((False, True)), True),
        Row("CAST", "i32(f), f an f32", number.cast(I32), floats, False),
        Row("CAST", "bool(f), f an f32", number.cast(BOOL), floats, False),
    ]


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------


def interval(low: int, high: int) -> str:
    """A range as the table writes it: all i32 for the whole int32 range."""
    if (low, high) == (INT_MIN, INT_MAX):
        return "all i32"
    return f"[{spell(low)}, {spell(high)}]"


def spell(value: int) -> str:
    """An end point, a value near a power of two written from it: 2^31-1, -2^31, 2^30+1."""
    for power in (30, 31):
        for sign in (1, -1):
            offset = value - sign * 2**power
            if abs(offset) <= 2:
                start = f"{'-' if sign < 0 else ''}2^{power}"
                return start if offset == 0 else f"{start}{offset:+d}"
    return str(value)


ARITH_LEGEND = """\
computed: vmin and vmax read from the node; values: the least and greatest value the
interpreter gave over the inputs. In the WHERE rows x is declared [0, 3] and y [4, 7].
Chosen i32 inputs: -2^31, -1, 0, 1, 2^31-1."""
DIV_LEGEND = """\
Columns as in the first table. Chosen f32 inputs: -inf, inf, nan, -3e9, 3e9 (past both ends
of i32), -1.5, -0.0, 0.0, 0.5, 2.5."""

# The rows chapter 6 explains one by one: the ranges wider than what the inputs give (an
# overflow given up, signs the rule does not keep, a divisor range holding 0, a call), and the
# rows not marked safe (three wrap; the call is unsafe only because nobody looked).
WIDER = [
    "[2^30, 2^30+1] * 4",
    "[0, 7] // [1, 3]",
    "[0, 7] // [-3, -1]",
    "[0, 7] // [-1, 2]",
    "[0, 7] % [-1, 2]",
    "double([0, 3]), body a * 2",
]
UNSAFE = [
    "[2^31-2, 2^31-1] + 1",
    "[2^30, 2^30+1] * 4",
    "[-2^31, -2^31+1] // -1",
    "double([0, 3]), body a * 2",
]

HEADER = ("op", "example", "computed", "safe", "values", "inputs", "computed is")


def table_cells(row: Row, counts: dict) -> tuple:
    """Check one row against its inputs and give its cells."""
    node = row.node
    values, wraps = run_row(row)
    low, high = min(values), max(values)
    claim(node.vmin <= low and high <= node.vmax, f"{row.op} {row.example}: a value outside")
    claim(not (node.safe and wraps), f"{row.op} {row.example}: safe, but an input wraps")
    tight = (low, high) == (node.vmin, node.vmax)
    counts["rows"] += 1
    counts["wider"] += not tight
    if not tight:
        counts["wider rows"].append(row.example)
    if not node.safe:
        counts["unsafe rows"].append(row.example)
    counts["inputs"] += len(values)
    inputs = f"all {len(values)}" if row.every else f"{len(values)} chosen"
    verdict = ("exact" if tight else "wider") + (", wraps" if wraps else "")
    safe = "yes" if node.safe else "no"
    return (
        row.op,
        row.example,
        interval(node.vmin, node.vmax),
        safe,
        interval(low, high),
        inputs,
        verdict,
    )


def show(name: str, rows: list[Row], counts: dict, legend: str) -> None:
    """One block: a markdown table with its columns padded, so it reads as text too."""
    block(name)
    lines = [HEADER, *(table_cells(row, counts) for row in rows)]
    widths = [max(len(line[k]) for line in lines) for k in range(len(HEADER))]
    rule = tuple("-" * width for width in widths)
    for line in [lines[0], rule, *lines[1:]]:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + " |")
    print(legend)


# ---------------------------------------------------------------------------------------------
# What simplify does with the ranges of (i*4 + j) // 4
# ---------------------------------------------------------------------------------------------


# rule name -> the node whose range its guard reads: the split needs a safe dividend, and a
# range that is one point is replaced by that constant
READS = {"(a*c1+b)//c2": lambda node: node.src[0], "range is a point": lambda node: node}


def show_split_trace() -> None:
    block("split-trace")
    i, j = declared(0, 0, 15), declared(1, 0, 3)
    names = {0: "i", 1: "j"}
    start = (i * 4 + j) // 4
    matcher = TracingMatcher(default.rules)  # simplify's own rules, in their order
    result = graph_rewrite(start, matcher)
    print(f"simplify {infix(start, names)}, i declared [0, 15] and j [0, 3]:")
    for number, (before, after, name) in enumerate(matcher.steps, 1):
        line = f"step {number}: {infix(before, names)} -> {infix(after, names)}"
        print(f"{line:<50} [{name}]")
        if name in READS:  # the range this rule's guard reads
            node = READS[name](before)
            text = f"{infix(node, names)}: range {interval(node.vmin, node.vmax)}"
            print(f"{'':8}it reads {text}, safe={node.safe}")
    print(f"result: {infix(result, names)}")
    rules = [name for _, _, name in matcher.steps]
    expected = ["canonical order", "(a*c1+b)//c2", "x*1", "range is a point", "x+0 (int)"]
    claim(rules == expected, f"split trace: the rules {rules}")
    claim(result is i, "split trace: the result is i")


def main() -> int:
    counts = {"rows": 0, "wider": 0, "inputs": 0, "wider rows": [], "unsafe rows": []}
    show("ranges-table-arith", arith_rows(), counts, ARITH_LEGEND)
    show("ranges-table-div", div_rows(), counts, DIV_LEGEND)
    show_split_trace()
    # what chapter 6 says of the table: which rows are wider than the truth, which unsafe
    claim(counts["wider rows"] == WIDER, f"the wider rows are {counts['wider rows']}")
    claim(counts["unsafe rows"] == UNSAFE, f"the unsafe rows are {counts['unsafe rows']}")
    state("range_table_rows", counts["rows"], "rows of chapter 6's range table, each checked")
    state(
        "range_table_wider",
        counts["wider"],
        "rows of chapter 6's range table whose range is wider than the values its inputs give",
    )
    state("range_table_inputs", counts["inputs"], "inputs run to check chapter 6's range table")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
