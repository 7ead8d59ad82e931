"""The figures of chapters 2, 3, 7, 9 and 10, as Graphviz source; make_figures.py draws them.

Each builder computes its figure from the real code (the bits from struct, the values through
the interpreter, the bindings from UPat.match, the graphs from the real rules) and stops the run
(SystemExit) when the code no longer gives what the figure's caption says. Each is drawn
narrow, stacked or in panels, to read on a phone. The colours and the helpers below (head,
finish, panel, graph_lines) are the one set every graph figure uses, make_figures.py's too.
"""

import math
import re
import struct

from uopc import F32, I32, CallArg, Ops, ParamArg, UOp
from uopc.interp import evaluate
from uopc.rewrite import UPat
from uopc.textfmt import spell_value, to_dot

INK = "#1a1c2e"  # PALETTE's letters: 14:1 on the node fill, 11.9:1 or more on every fill here
NODE_FILL = "#e8eaf6"  # PALETTE's node fill
PANEL = "#f5f5f5"  # a panel behind a group of nodes: its title is dark ink on it
LINE = "#5c6bc0"  # PALETTE's node border
WARN = "#ffcdd2"  # a light red: the node where the rule or the guard matters
TINT = "#fff3e0"  # a light orange: a sign bit, a named pattern node and what it bound
MINT = "#e0f2f1"  # a light green: the exponent field, an end state
FONT = 'fontname="Helvetica", fontsize=12'
NARROW = '  graph [nodesep=0.12]; node [margin="0.04,0.03"];'  # close together, for a phone
NODE_LINE = re.compile(r'^  n(\d+) \[label="([^"]*)"(.*)\];$')
EDGE_LINE = re.compile(r"^  n(\d+) -> n(\d+)(.*);$")


def head() -> list[str]:
    """to_dot's first four lines (graph, node and edge styles): both_palettes looks for them."""
    return to_dot(UOp.const(0)).splitlines()[:4]


def panel(name: str, title: str, body: list[str]) -> list[str]:
    """A cluster with a light fill and a dark title, holding the lines of body."""
    return [
        f"  subgraph cluster_{name} {{",
        f'    style=filled; fillcolor="{PANEL}"; color="{LINE}"; fontcolor="{INK}";',
        f'    label="{title}"; labeljust=l; fontname="Helvetica"; fontsize=12;',
        *[f"  {line}" for line in body],
        "  }",
    ]


def graph_lines(root: UOp, prefix: str, notes=None, fills=None) -> list[str]:
    """to_dot's nodes and edges of root, ids prefixed; notes(node) adds lines under a label,
    and fills maps a node to a fill of its own."""
    nodes = root.toposort()
    lines = []
    for line in to_dot(root).splitlines()[4:-1]:
        node, edge = NODE_LINE.match(line), EDGE_LINE.match(line)
        if node:
            u = nodes[int(node[1])]
            label = node[2] + "".join(f"\\n{note}" for note in (notes(u) if notes else ()))
            fill = f', fillcolor="{fills[u]}"' if fills and u in fills else ""
            lines.append(f'  {prefix}{node[1]} [label="{label}"{node[3]}{fill}];')
        elif edge:
            lines.append(f"  {prefix}{edge[1]} -> {prefix}{edge[2]}{edge[3]};")
        else:
            raise SystemExit(f"chapter_figures: to_dot wrote a line not expected: {line!r}")
    return lines


def note_box(name: str, text: str) -> str:
    return f'  {name} [label="{text}", shape=box, style=filled, fillcolor="{PANEL}", {FONT}];'


def below(upper: list[str], lower: list[str]) -> str:
    """Invisible edges that put the nodes lower under the nodes upper: panels stacked."""
    return "".join(f"  {a} -> {b} [style=invis];" for a in upper for b in lower)


def finish(lines: list[str]) -> str:
    return "\n".join([*head(), *lines, "}"]) + "\n"


def fail(figure: str, what: str):
    raise SystemExit(f"chapter_figures: {figure}: {what}")


# ---------------------------------------------------------------------------------------------
# Chapter 2: the 32 bits of an f32 and of an i32, each field and what it is worth
# ---------------------------------------------------------------------------------------------

F32_VALUE = 0.15625  # the value chapter 2 decodes by hand
I32_PRODUCT = (46341, 46341)  # the smallest square past 2**31: chapter 2's last wrapped value
BIT_WIDTH = 11  # points per bit: 32 bits and the borders stay under 360 points, so the 11 pt
# text is still 11 px fitted to a 390 px phone (tests/test_figures.py)


def cell(text, span: int = 1, fill: str = NODE_FILL, align: str = "CENTER") -> str:
    size = f'width="{BIT_WIDTH * span}" height="20" fixedsize="true"'
    return f'<td colspan="{span}" bgcolor="{fill}" align="{align}" {size}>{text}</td>'


def row(*cells: str) -> str:
    return f"<tr>{''.join(cells)}</tr>"


def wide(text: str, fill: str = PANEL) -> str:
    """A row across all 32 bits, its text at the left."""
    return row(cell(text, 32, fill, "LEFT"))


def f32_rows(value: float) -> list[str]:
    (pattern,) = struct.unpack("<I", struct.pack("<f", value))
    sign, exponent, fraction = pattern >> 31, (pattern >> 23) & 0xFF, pattern & 0x7FFFFF
    significand = 1 + fraction / 2**23
    power = exponent - 127
    decoded = (-1) ** sign * significand * 2.0**power
    if exponent in (0, 255) or decoded != value:
        fail("numbers_bits.svg", f"{value} is not a normal float32 that decodes to itself")
    tints = [TINT] + [MINT] * 8 + [NODE_FILL] * 23  # sign, exponent, fraction
    return [
        wide(f"f32 {value}: three fields"),
        row(cell("s", 1, tints[0]), cell("exponent", 8, tints[1]), cell("fraction", 23)),
        row(*(cell(bit, 1, tint) for bit, tint in zip(f"{pattern:032b}", tints, strict=True))),
        wide(f"sign {sign}: {'-' if sign else '+'}"),
        wide(f"exponent {exponent}, minus 127: 2^{power}"),
        wide(f"fraction {fraction / 2**23}: significand {significand}"),
        wide(f"{'-' if sign else '+'}{significand} x 2^{power} = {decoded}"),
    ]


def i32_rows(a: int, b: int) -> list[str]:
    from uopc.semantics import wrap32

    value = wrap32(a * b)
    pattern = value % 2**32
    top, rest = pattern >> 31, pattern & 0x7FFFFFFF
    if -top * 2**31 + rest != value:
        fail("numbers_bits.svg", f"the bits of {value} do not add up")
    tints = [TINT] + [NODE_FILL] * 31
    return [
        wide(f"i32 {a} * {b}, wrapped: {value}"),
        row(cell("t", 1, tints[0]), cell("the other 31 bits", 31)),
        row(*(cell(bit, 1, tint) for bit, tint in zip(f"{pattern:032b}", tints, strict=True))),
        wide(f"top bit {top}: counts {-top * 2**31}"),
        wide(f"other bits: {rest}"),
        wide(f"{-top * 2**31} + {rest} = {value}"),
    ]


def numbers_bits() -> str:
    """Chapter 2: an f32 and an i32 bit by bit, one table above the other."""
    spacer = row('<td colspan="32" border="0" height="10"></td>')
    table = [
        f'<table border="0" cellborder="1" cellspacing="0" cellpadding="1" color="{LINE}">',
        *f32_rows(F32_VALUE),
        spacer,
        *i32_rows(*I32_PRODUCT),
        "</table>",
    ]
    look = f'shape=plain, style="", fontcolor="{INK}", fontsize=11'
    return finish([f"  bits [{look}, label=<{''.join(table)}>];"])


# ---------------------------------------------------------------------------------------------
# Chapter 3: a guarded division, every node computed, at three inputs
# ---------------------------------------------------------------------------------------------

GUARD_INPUTS = (0, 7, -3)  # exercise 3.3's inputs


def contract_where() -> str:
    """Chapter 3: where(x != 0, 100 // x, 0) with each node's value at x = 0, 7 and -3, as the
    interpreter computes it through eval_op; the division is computed at 0 too, and gives 0."""
    param = UOp(Ops.PARAM, arg=ParamArg(0, I32))
    division = UOp.const(100) // param
    root = param.ne(0).where(division, 0)
    values = {u: [evaluate(u, {0: x}) for x in GUARD_INPUTS] for u in root.toposort()}
    if values[division][0] != 0 or values[root][0] != 0:
        fail("contract_where.svg", f"100 // 0 or the guarded result is not 0: {values[division]}")

    def notes(u):
        return [] if u.op is Ops.CONST else [" | ".join(spell_value(v) for v in values[u])]

    inputs = " | ".join(str(x) for x in GUARD_INPUTS)
    key = note_box("key", f"under each node: its value\\nat x = {inputs}")
    graph = graph_lines(root, "n", notes, {division: WARN})
    return finish([key, *graph, below(["key"], ["n0"])])


# ---------------------------------------------------------------------------------------------
# Chapter 7: a pattern beside the graph it matches, with the names the match binds
# ---------------------------------------------------------------------------------------------


def pattern_label(pat: UPat) -> str:
    op = "|".join(op.name for op in pat.op) if pat.op else "any node"
    dtype = f" {'|'.join(str(d) for d in pat.dtype)}" if pat.dtype else ""
    return f"{op}{dtype}" + (f"\\nas {pat.name}" if pat.name else "")


def pattern_lines(pat: UPat, prefix: str) -> tuple[list[str], set[str]]:
    """The pattern as a tree, drawn as to_dot draws a graph (sources above their user); a
    sub-pattern is drawn once per place it is used. Its first id is the top pattern. The lines,
    and the names the pattern binds."""
    lines, names, stack, count = [], set(), [(pat, None)], 0
    while stack:
        node, user = stack.pop()
        k, count = f"{prefix}{count}", count + 1
        names |= {node.name} - {None}
        fill = f', fillcolor="{TINT}"' if node.name else ""
        lines.append(f'  {k} [label="{pattern_label(node)}"{fill}];')
        if user:
            lines.append(f"  {k} -> {user};")
        stack.extend((s, k) for s in reversed(node.src or ()))
    return lines, names


def match_panels(case: str, pat: UPat, root: UOp, written: str) -> tuple[list[str], list[str]]:
    """The pattern's panel beside the graph's; each graph node the real match bound is tinted
    and labelled with its name. The ids of the two tops (the lowest nodes), and the lines."""
    store: dict = {}
    pattern, pattern_names = pattern_lines(pat, f"{case}p")
    if not pat.match(root, store):
        fail("patterns_match.svg", f"{written} no longer matches its pattern")
    if set(store) != pattern_names:
        fail("patterns_match.svg", f"the match bound {sorted(store)}, not every name")
    names: dict[UOp, list[str]] = {}
    for name, node in store.items():
        names.setdefault(node, []).append(name)

    def notes(u):
        return [f"bound as {', '.join(names[u])}"] if u in names else []

    graph = graph_lines(root, f"{case}g", notes, {u: TINT for u in names})
    lines = [*panel(f"{case}p", "pattern", pattern), *panel(f"{case}g", f"graph {written}", graph)]
    return [f"{case}p0", f"{case}g{len(root.toposort()) - 1}"], lines


def patterns_match() -> str:
    """Chapter 7: two lines of demos/matcher.py drawn, one above the other: the nested pattern
    that binds three names, and ADD(x, x), whose two x bind one shared node; each pattern
    above the graph it matches."""
    var, cvar = UPat.var, UPat.cvar
    a, b = (UOp(Ops.PARAM, arg=ParamArg(slot, I32)) for slot in (0, 1))
    nested = UPat(Ops.MUL, src=(UPat(Ops.ADD, src=(var("x"), cvar("c1"))), cvar("c2")))
    twice = UPat(Ops.ADD, src=(var("x"), var("x")))
    (pattern_a, graph_a), first = match_panels("a", nested, (a + 3) * 4, "(a + 3) * 4")
    (pattern_b, _), second = match_panels("b", twice, (a + b) + (a + b), "(a + b) + (a + b)")
    # the four panels in one column, each graph under its pattern: narrow enough for a phone
    pairs = ((pattern_a, "ag0"), (graph_a, "bp1"), (pattern_b, "bg0"))
    stacked = [f"  {a} -> {b} [style=invis, weight=0];" for a, b in pairs]  # no pull sideways
    return finish([NARROW, *first, *second, *stacked])


# ---------------------------------------------------------------------------------------------
# Chapter 9: a call before and after the fold rules, with all arguments known and with one
# ---------------------------------------------------------------------------------------------


def relu_call(x, y) -> UOp:
    """demos/fold.py's relu(x, y) = max(x*y + 1.0, 0.0); a number becomes a constant."""
    p, q = (UOp(Ops.PARAM, arg=ParamArg(slot, F32)) for slot in (0, 1))
    args = [v if isinstance(v, UOp) else UOp.const(v) for v in (x, y)]
    return UOp(Ops.CALL, ((p * q + 1.0).max(0.0), *args), CallArg("relu"))


FOLD_KNOWN = (2.0, 3.0)  # the first call of demos/fold.py's fold-relu block


def folding() -> str:
    """Chapter 9: relu(2.0, 3.0) as built, the one constant that fold leaves of it, and what
    fold leaves of relu(z, 3.0), each stacked in its own panel."""
    from uopc.fold import fold
    from uopc.rewrite import graph_rewrite

    call = relu_call(*FOLD_KNOWN)
    folded = graph_rewrite(call, fold)
    expected = evaluate(call, {})
    if folded.op is not Ops.CONST or folded.arg != expected:
        fail("folding.svg", f"fold gave {folded}, the interpreter {expected}")
    z = UOp(Ops.PARAM, arg=ParamArg(0, F32))
    partial = graph_rewrite(relu_call(z, FOLD_KNOWN[1]), fold)
    if any(u.op is Ops.CALL for u in partial.toposort()):
        fail("folding.svg", "fold left a CALL in relu(z, 3.0)")
    known = ", ".join(str(v) for v in FOLD_KNOWN)
    last = f"b{len(call.toposort()) - 1}"
    return finish(
        [
            NARROW,
            *panel("before", f"relu({known}) as built", graph_lines(call, "b")),
            *panel("after", "after fold: one constant", graph_lines(folded, "a")),
            *panel("partial", f"relu(z, {FOLD_KNOWN[1]}) after fold", graph_lines(partial, "z")),
            below([last], ["a0"]),
            below(["a0"], ["z0"]),
        ]
    )


# ---------------------------------------------------------------------------------------------
# Chapter 10: a fast-math rule beside what the strict rules keep, at the inputs it breaks
# ---------------------------------------------------------------------------------------------


def first_changed_above_one(root: UOp, limit: int = 100_000) -> float:
    """Counting float32 values up from 1.0 (exercise 10.4), the first x where root is not 1."""
    pattern = struct.unpack("<I", struct.pack("<f", 1.0))[0]
    for step in range(limit):
        (x,) = struct.unpack("<f", struct.pack("<I", pattern + step))
        if evaluate(root, {0: x}) != 1.0:
            return x
    fail("floats_fast.svg", f"x*recip(x) is 1.0 on the first {limit} floats from 1.0")


def short(value) -> str:
    """The shortest text that reads back as the same float32 (NumPy's, as number_facts.py)."""
    import numpy as np

    return str(np.float32(value))


def floats_fast() -> str:
    """Chapter 10: x*recip(x) as strict simplify keeps it, and the 1.0 that fast math makes of
    it, each node with its value at 2.0, at the first x above 1.0 where the product is not
    1.0, and at 0.0, inf and nan, one per line; the inputs where the two differ are tinted."""
    from uopc.semantics import same
    from uopc.symbolic import simplify

    x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
    original = x * UOp(Ops.RECIP, (x,))
    strict, fast = simplify(original), simplify(original, fast_math=True)
    if strict is not original or fast.op is not Ops.CONST:
        fail("floats_fast.svg", f"simplify gave {strict} strict and {fast} fast")
    inputs = (2.0, first_changed_above_one(original), 0.0, math.inf, math.nan)
    values = {u: [evaluate(u, {0: v}) for v in inputs] for u in [*strict.toposort(), fast]}
    differ = [v for v, s, f in zip(inputs, values[strict], values[fast], strict=True)
              if not same(s, f)]  # fmt: skip
    if differ != list(inputs[1:]):
        fail("floats_fast.svg", f"the two differ at {differ}, not at {inputs[1:]}")
    product, below_one = values[strict], 1.0 - 2.0**-24  # the float32 just under 1.0
    if fast.arg != 1.0 or product[1] != below_one or not all(map(math.isnan, product[2:])):
        fail("floats_fast.svg", f"the caption's values changed: {fast.arg}, {product}")

    def notes(u):  # every node's value at each input, one a line
        return [short(v) for v in values[u]]

    shown = ", ".join(short(v) for v in inputs)
    lost = ", ".join(short(v) for v in differ)
    strict_lines = graph_lines(strict, "s", notes, {strict: WARN})
    fast_lines = graph_lines(fast, "f", notes, {fast: WARN})
    return finish(
        [
            NARROW,
            note_box("key", f"under each node: its value\\nat x = {shown},\\none a line"),
            *panel("strict", "strict simplify keeps", strict_lines),
            *panel("fast", "fast math: 1.0", fast_lines),
            note_box("lost", f"the two differ at\\nx = {lost}"),
            below(["key"], ["s0", "f0"]),
            below([f"s{len(strict.toposort()) - 1}", "f0"], ["lost"]),
        ]
    )
