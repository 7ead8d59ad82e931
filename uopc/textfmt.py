"""The interchange text format (`dumps`, `loads`, `ParseError`), the one-line infix printer and
the Graphviz writer `to_dot`.

Relies on `uop` for the node and its constructor (and on `ops` and `dtypes` for the names).
Invariants: `loads(dumps(u)) is u` for every graph, because `loads` builds every node through the
normal constructor, and hash consing hands back the nodes that already exist; a text `loads`
refuses leaves nothing it built reachable, because every line is checked (shape, names, refs,
keys, values) before the first node is built, and a type error while building drops the partial
graph before `ParseError` is raised. Every walk is a loop, never a recursion.

    text   := header "\\n" { line "\\n" }
    header := "; uop v1" [ " " title ]
    line   := ref " = " opname [ " " ref { ", " ref } ] [ " : " field { " " field } ]
    ref    := "%" decimal
    field  := key "=" value
"""

import re

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, Ptr
from .ops import Ops
from .uop import CallArg, ParamArg, UOp, UOpError

HEADER = "; uop v1"
# --8<-- [start:limits]
# The documented limits: elements in one buffer or scratch array (64 MiB of f32), and the bytes
# of a text the command line reads. Beyond them memory, not the program, would decide.
MAX_ELEMENTS = 2**24
MAX_TEXT_BYTES = 64 * 2**20
# --8<-- [end:limits]


class ParseError(ValueError):
    """A text that `loads` refuses; the message names the physical line (the header is line 1)."""


OPS_BY_NAME = {op.name.lower(): op for op in Ops}
DTYPES_BY_NAME = {dtype.name: dtype for dtype in (BOOL, I32, F32)}
PARAM_OPS = (Ops.PARAM, Ops.BUFFER, Ops.ALLOC)

# --8<-- [start:keys]
# The keys each op takes, in the order `dumps` writes them; an op not listed takes none.
KEYS = {
    Ops.CONST: ("dtype", "value"),
    **{op: ("dtype", "slot", "size", "min", "max") for op in PARAM_OPS},
    Ops.CAST: ("dtype",),
    Ops.CALL: ("name",),
}
# --8<-- [end:keys]

# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def spell_value(value) -> str:
    """A constant as the text writes it: true/false, decimal, or the shortest repr of the double.

    The repr of the stored double (0.10000000149011612, -0.0, nan, inf) reads back with float()
    to the same float32, so the constant comes back as the same node.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _param_fields(u) -> list:
    arg = u.arg
    if isinstance(arg.dtype, Ptr):  # dtype names the element type, size the length
        fields = [("dtype", arg.dtype.base), ("slot", arg.slot), ("size", arg.dtype.size)]
    else:
        fields = [("dtype", arg.dtype), ("slot", arg.slot)]
    bounds = [("min", arg.vmin), ("max", arg.vmax)]
    return fields + [(key, bound) for key, bound in bounds if bound is not None]


def _call_fields(u) -> list:
    name = u.arg.name
    # a name with a space or a line break would not read back as one token
    if not isinstance(name, str) or any(c in name for c in " \n"):
        raise ValueError(f"a call name must be a str without spaces or line breaks, got {name!r}")
    return [("name", name)]


FIELD_WRITERS = {
    Ops.CONST: lambda u: [("dtype", u.dtype), ("value", spell_value(u.arg))],
    **{op: _param_fields for op in PARAM_OPS},
    Ops.CAST: lambda u: [("dtype", u.arg)],
    Ops.CALL: _call_fields,
}


# --8<-- [start:dumps]
def format_line(number: int, u, numbers: dict) -> str:
    """`%k = op %a, %b : key=value ...` for node u, its srcs named through `numbers`."""
    line = f"%{number} = {u.op.name.lower()}"
    if u.src:
        line += " " + ", ".join(f"%{numbers[s]}" for s in u.src)
    fields = FIELD_WRITERS.get(u.op, lambda _: [])(u)
    if fields:
        line += " : " + " ".join(f"{key}={value}" for key, value in fields)
    return line


def dumps(u, title=None) -> str:
    """The graph under u, one line per node in toposort order, so the root is the last line."""
    if title and "\n" in str(title):
        raise ValueError("a title must fit on the header line")
    lines = [f"{HEADER} {title}" if title else HEADER]
    numbers = {}
    for number, node in enumerate(u.toposort()):
        numbers[node] = number
        lines.append(format_line(number, node, numbers))
    return "\n".join(lines) + "\n"


# --8<-- [end:dumps]

# ---------------------------------------------------------------------------------------------
# Reading, first pass: every line to a record (line number, op, src positions, arg), no nodes.
# ---------------------------------------------------------------------------------------------

REFS = r"[^ ,]+(?:, [^ ,]+)*"  # a ref token is checked against the names defined above
FIELDS = r"[^ =]+=[^ ]*(?: [^ =]+=[^ ]*)*"  # key=value tokens; a value may be empty
LINE = re.compile(rf"(%[0-9]+) = ([^ ,]+)(?: ({REFS}))?(?: : ({FIELDS}))?")


MAX_QUOTE = 60  # characters of the user's text an error message quotes


def shorten(text: str, limit: int = MAX_QUOTE) -> str:
    """text as echo writes it, cut after `limit` characters with its length: a message
    quotes a line, never a 30 MB one."""
    if len(text) <= limit:
        return echo(text)
    return f"{echo(text[:limit])}... ({len(text):,} characters)"


def echo(text: str) -> str:
    """text as an error message may quote it: control characters (a terminal escape, a
    carriage return) written as Python escapes, so a message stays one visible line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def read_dtype(text: str):
    if text not in DTYPES_BY_NAME:
        raise ValueError(f"unknown dtype '{shorten(text)}' (bool, i32 or f32)")
    return DTYPES_BY_NAME[text]


def read_bool(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(f"a bool value is true or false, got '{shorten(text)}'")
    return text == "true"


# Exactly the spellings the format documents: no `+5`, `1_000`, non-ASCII digits or `Infinity`
# (which Python's int() and float() would take). A float is what repr writes, or a decimal int.
DECIMAL = re.compile(r"-?[0-9]{1,20}", re.ASCII)
FLOAT = re.compile(r"-?[0-9]{1,400}(\.[0-9]{1,400})?(e[+-]?[0-9]{1,4})?|-?inf|-?nan", re.ASCII)


def read_int(text: str) -> int:
    if not DECIMAL.fullmatch(text):
        raise ValueError(f"invalid literal for int() with base 10: '{shorten(text)}'")
    return int(text)


def read_float(text: str) -> float:
    if not FLOAT.fullmatch(text):
        raise ValueError(f"could not convert string to float: '{shorten(text)}'")
    return float(text)


def read_bound(fields: dict, key: str):
    """`min` or `max` of an i32 parameter: a promise about an int32, so inside int32."""
    if key not in fields:
        return None
    bound = read_int(fields[key])
    if not INT_MIN <= bound <= INT_MAX:
        raise ValueError(f"{key}={bound} is outside int32")
    return bound


def read_size(text: str) -> int:
    size = read_int(text)
    if size > MAX_ELEMENTS:
        raise ValueError(f"size={size} is above the limit of {MAX_ELEMENTS} elements")
    return size


# The value of a constant is read by its dtype; a float also as `1`, `nan` and `-inf`.
VALUE_READERS = {BOOL: read_bool, I32: read_int, F32: read_float}


def read_const(fields: dict):
    dtype = read_dtype(fields["dtype"])
    return VALUE_READERS[dtype](fields["value"])


def read_param(fields: dict) -> ParamArg:
    dtype, slot = read_dtype(fields["dtype"]), read_int(fields["slot"])
    if "size" in fields:
        dtype = Ptr(dtype, read_size(fields["size"]))
    low, high = read_bound(fields, "min"), read_bound(fields, "max")
    if low is not None and high is not None and low > high:
        raise ValueError(f"min={low} is above max={high}")
    return ParamArg(slot, dtype, low, high)


# Each reader raises KeyError for a missing key and ValueError for a value it cannot read.
ARG_READERS = {
    Ops.CONST: read_const,
    **{op: read_param for op in PARAM_OPS},
    Ops.CAST: lambda fields: read_dtype(fields["dtype"]),
    Ops.CALL: lambda fields: CallArg(fields["name"]),
}


def parse_line(number: int, line: str, defined: dict) -> tuple:
    """One node line to (number, op, src positions, arg); adds its name to `defined`."""
    match = LINE.fullmatch(line)
    if match is None:
        raise ParseError(f"line {number}: cannot parse '{shorten(line)}'")
    name, op_name, refs, fields = match.groups()
    if name in defined:
        raise ParseError(f"line {number}: '{shorten(name)}' is defined twice")
    if name != f"%{len(defined)}":  # nodes are numbered from %0 in order, without gaps
        raise ParseError(f"line {number}: expected '%{len(defined)}', got '{shorten(name)}'")
    if op_name not in OPS_BY_NAME:
        raise ParseError(f"line {number}: unknown op '{shorten(op_name)}'")
    op = OPS_BY_NAME[op_name]
    srcs = []
    for ref in refs.split(", ") if refs else []:
        if ref not in defined:  # also a forward ref, a self ref, and `%x`
            raise ParseError(f"line {number}: '{shorten(ref)}' is not defined above this line")
        srcs.append(defined[ref])
    arg = parse_fields(number, op, fields.split(" ") if fields else [])
    defined[name] = len(defined)
    return number, op, srcs, arg


def parse_fields(number: int, op, tokens: list):
    """The arg of one line from its `key=value` tokens."""
    fields = {}
    for token in tokens:
        key, _, value = token.partition("=")  # the line pattern made sure of the "="
        if key not in KEYS.get(op, ()):
            raise ParseError(f"line {number}: unknown key '{shorten(key)}'")
        if key in fields:
            raise ParseError(f"line {number}: key '{shorten(key)}' is given twice")
        fields[key] = value
    try:
        return ARG_READERS[op](fields) if op in ARG_READERS else None
    except KeyError as error:  # str(KeyError('value')) is "'value'"
        raise ParseError(f"line {number}: missing key {error}") from None
    except ValueError as error:
        raise ParseError(f"line {number}: bad value: {error}") from None


# ---------------------------------------------------------------------------------------------
# Reading, second pass: build the nodes in order.
# ---------------------------------------------------------------------------------------------


# --8<-- [start:loads]
def loads(text: str):
    """The node of the last line of `text`, every line built through the normal constructor."""
    lines = text.split("\n")  # only "\n" ends a line: a name may hold other separators
    if lines[0].endswith("\r"):  # refused here and on the command line alike
        raise ParseError("line 1 ends in \\r\\n: the format's lines end in \\n alone")
    if lines[0] != HEADER and not lines[0].startswith(HEADER + " "):
        raise ParseError(
            f"the first line must be '{HEADER}' (a title may follow), got '{shorten(lines[0])}'"
        )
    records, defined = [], {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():  # blank lines after the header are ignored
            records.append(parse_line(number, line, defined))
    if not records:
        raise ParseError("no nodes after the header")
    return build(records)


# --8<-- [end:loads]


# --8<-- [start:build]
def build(records: list):
    """Build every record in order; a type error becomes a ParseError naming the line."""
    nodes = []
    for number, op, srcs, arg in records:
        try:
            nodes.append(UOp(op, [nodes[position] for position in srcs], arg))
        except UOpError as error:
            message = f"line {number}: {error}"
            break
    else:
        return nodes[-1]
    # The traceback of the ParseError keeps this frame, so the partial graph is dropped first
    # and the error is raised outside the handler (no chained UOpError holding srcs either).
    nodes.clear()
    raise ParseError(message)


# --8<-- [end:build]

# ---------------------------------------------------------------------------------------------
# The infix printer
# ---------------------------------------------------------------------------------------------

BINARY = {
    Ops.ADD: " + ",
    Ops.MUL: " * ",
    Ops.FLOORDIV: " // ",
    Ops.FLOORMOD: " % ",
    Ops.CMPLT: " < ",
    Ops.CMPNE: " != ",
}
# The name a parameter gets when the caller gives none for its slot (the C renderer's).
DEFAULT_NAMES = {Ops.PARAM: "p", Ops.BUFFER: "b", Ops.ALLOC: "a"}


def _function_form(name: str, srcs) -> list:
    pieces = [f"{name}("]
    for position, src in enumerate(srcs):
        pieces += [", ", src] if position else [src]
    return pieces + [")"]


def _param_form(u, names: dict) -> list:
    # a parameter by the name its caller gives for the slot, else the C renderer's name
    return [names.get(u.arg.slot, f"{DEFAULT_NAMES[u.op]}{u.arg.slot}")]


# op -> function of (node, names) giving the text as strings and src nodes in their places
INFIX_FORMS = {
    **{op: lambda u, names: ["(", u.src[0], BINARY[u.op], u.src[1], ")"] for op in BINARY},
    **{op: _param_form for op in DEFAULT_NAMES},
    Ops.CONST: lambda u, names: [repr(u.arg)],  # as Python prints it: 5, 3.0, True, -0.0
    Ops.CAST: lambda u, names: ["cast(", u.src[0], f", {u.arg})"],
    Ops.CALL: lambda u, names: _function_form(u.arg.name, u.src[1:]),  # body not printed
}


def _op_form(u, names: dict) -> list:
    return _function_form(u.op.name.lower(), u.src)  # max(a, b), where(c, a, b), neg(a), ...


def infix_pieces(u, names: dict) -> list:
    return INFIX_FORMS.get(u.op, _op_form)(u, names)


def infix(node, names=None) -> str:
    """A fully bracketed one-line expression of the graph under node.

    It prints the tree, so a shared node is written at each use. The pieces go through an
    explicit stack into one list joined at the end: linear in the length of the text, where
    joining strings bottom-up would copy a chain's growing prefix once per node.
    """
    names = names or {}
    out, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(infix_pieces(item, names)))
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Graphviz: the graph as a picture, beside the text and the infix form
# ---------------------------------------------------------------------------------------------


def _param_detail(u: UOp) -> str:
    arg, detail = u.arg, f"{u.arg.slot}: {u.arg.dtype}"
    if arg.vmin is not None or arg.vmax is not None:
        detail += f" [{arg.vmin}, {arg.vmax}]"
    return detail


# op -> the detail written after the op's name; other ops show their dtype (if any)
DOT_DETAIL = {
    Ops.CONST: lambda u: spell_value(u.arg),
    Ops.PARAM: _param_detail,
    Ops.BUFFER: _param_detail,
    Ops.ALLOC: _param_detail,
    Ops.CAST: lambda u: f"to {u.arg}",
    Ops.CALL: lambda u: u.arg.name,
}
LEAVES = (Ops.CONST, Ops.PARAM, Ops.BUFFER, Ops.ALLOC)


def dot_label(u: UOp) -> str:
    detail = (
        DOT_DETAIL[u.op](u) if u.op in DOT_DETAIL else ("" if u.dtype is VOID else str(u.dtype))
    )
    text = echo(f"{u.op.name.lower()} {detail}".rstrip())  # a name's control characters too
    return text.replace("\\", "\\\\").replace('"', '\\"')


def to_dot(root: UOp) -> str:
    """Graphviz source: one node per UOp (ids n0, n1, ... in toposort order, as in the text
    format), one edge per src from the src to its user, an AFTER's ordering edges dashed."""
    nodes = root.toposort()
    number = {u: k for k, u in enumerate(nodes)}
    lines = [
        "digraph uop {",
        "  graph [bgcolor=white, ordering=in, nodesep=0.3, ranksep=0.35];",
        '  node [shape=box, style=rounded, fontname="Courier", fontsize=12, height=0.3];',
        "  edge [arrowsize=0.7];",
    ]
    for k, u in enumerate(nodes):
        shape = ", shape=ellipse" if u.op in LEAVES else ""
        lines.append(f'  n{k} [label="{dot_label(u)}"{shape}];')
    for u in nodes:
        for position, src in enumerate(u.src):
            # AFTER(ptr, access, ...): only src 0 is data; the others order memory accesses
            ordering = u.op is Ops.AFTER and position > 0
            style = " [style=dashed, arrowhead=empty]" if ordering else ""
            lines.append(f"  n{number[src]} -> n{number[u]}{style};")
    lines.append("}")
    return "\n".join(lines) + "\n"
