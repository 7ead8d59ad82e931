"""The command line: `python -m uopc COMMAND FILE [options]` on a program in the text format.

Commands: show, check, simplify, render, run, dot (`python -m uopc COMMAND --help` for each).
FILE may be `-` for standard input. Relies on every other module of the package; nothing in the
package imports this one (the figure script imports `to_dot`). Invariant: every failure a user
can cause (a bad file, a bad argument, a type error, no compiler, a compiler error) ends the
program with one line on standard error that starts with `uopc: `, and exit status 2; a
traceback always means a bug in uopc.
"""

import argparse
import collections
import json
import sys

from . import runtime
from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, Ptr
from .interp import run_call
from .ops import Ops
from .render import render
from .rewrite import RewriteLimit
from .semantics import f32
from .symbolic import default, fast, simplify
from .textfmt import ParseError, dumps, infix, loads, spell_value
from .uop import ALU_SPACE, UOp, UOpError

EXIT_ERROR = 2  # argparse's status for a usage error; used for every failure


class CliError(Exception):
    """A failure the user caused: its text is the one line printed after `uopc: `."""


# ---------------------------------------------------------------------------------------------
# Reading the program
# ---------------------------------------------------------------------------------------------


def read_text(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:  # missing file, a directory, no permission
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not a UTF-8 text file") from None


def load_program(path: str) -> UOp:
    """The root node of the program in `path`; a ParseError names the file and the line."""
    text = read_text(path)
    try:
        return loads(text)
    except ParseError as error:
        raise CliError(f"{'<stdin>' if path == '-' else path}: {error}") from None


def load_call(path: str, command: str) -> UOp:
    root = load_program(path)
    if root.op is not Ops.CALL:
        raise CliError(f"{command} needs a CALL at the root of {path}, got {root.op.name}")
    return root


# ---------------------------------------------------------------------------------------------
# show, check, simplify, render
# ---------------------------------------------------------------------------------------------


def parse_names(text: str | None) -> dict:
    """`x,y` -> {0: "x", 1: "y"}: the name the infix form gives each parameter slot."""
    if text is None:
        return {}
    names = text.split(",")
    if not all(name.strip() for name in names):
        raise CliError(f"--names: empty name in '{text}' (write them as x,y,z)")
    return {slot: name.strip() for slot, name in enumerate(names)}


def cmd_show(args) -> None:
    root = load_program(args.file)
    names = parse_names(args.names)
    print(dumps(root), end="")
    print()
    if root.op is Ops.CALL:  # the call with its arguments, then the body it runs
        print("call:", infix(root, names))
        print("body:", infix(root.src[0], names))
    else:
        print("infix:", infix(root, names))


def range_column(u: UOp) -> str:
    """`[vmin, vmax] safe` for an int or bool value; nothing for floats and memory."""
    if u.dtype not in (I32, BOOL) or u.space != ALU_SPACE:
        return ""
    return f"[{u.vmin}, {u.vmax}] {'safe' if u.safe else 'unsafe'}"


def check_row(number: int, u: UOp) -> list:
    return [
        f"%{number}",
        u.op.name.lower(),
        str(u.dtype),
        str(u.shape),
        str(u.space),
        range_column(u),
    ]


def print_table(rows: list) -> None:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
        print("  ".join(cells).rstrip())


def cmd_check(args) -> None:
    nodes = load_program(args.file).toposort()
    print_table([check_row(number, u) for number, u in enumerate(nodes)])
    print(f"ok: {len(nodes)} nodes, every one well typed")


def print_stats(root: UOp, result: UOp, fired: collections.Counter, matcher) -> None:
    before, after = len(root.toposort()), len(result.toposort())
    print(f"\nnodes: {before} before, {after} after")
    # rules in the matcher's order (the order they are tried in), each named once
    names = [name for name in dict.fromkeys(r.name for r in matcher.rules) if fired[name]]
    print(f"rules fired: {sum(fired.values())}" + ("" if names else " (none)"))
    width = max((len(name) for name in names), default=0)
    for name in names:
        print(f"  {name.ljust(width)}  {fired[name]}")


def cmd_simplify(args) -> None:
    root = load_program(args.file)
    matcher = fast if args.fast_math else default  # the matcher `simplify` uses
    before = collections.Counter(matcher.fired)  # `fired` counts every run of this process
    result = simplify(root, fast_math=args.fast_math)
    print(dumps(result), end="")
    if args.stats:
        print_stats(root, result, matcher.fired - before, matcher)


def cmd_render(args) -> None:
    call = load_call(args.file, "render")
    try:
        print(render(call), end="")
    except (TypeError, ValueError) as error:  # a name that is not a C identifier, ...
        raise CliError(str(error)) from None


# ---------------------------------------------------------------------------------------------
# run: values from the command line, by the dtype each argument position wants
# ---------------------------------------------------------------------------------------------


def read_f32(raw) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise ValueError
    return f32(float(raw))  # rounded as the C float parameter will round it


def read_i32(raw) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise ValueError  # 1.5 (and 2.0) are not ints
    value = int(raw, 10) if isinstance(raw, str) else raw
    if not INT_MIN <= value <= INT_MAX:
        raise ValueError
    return value


def read_bool(raw) -> bool:
    words = {"true": True, "false": False, "1": True, "0": False}
    if isinstance(raw, str) and raw in words:
        return words[raw]
    if isinstance(raw, bool) or (isinstance(raw, int) and raw in (0, 1)):
        return bool(raw)
    raise ValueError


READERS = {F32: read_f32, I32: read_i32, BOOL: read_bool}


def read_value(raw, dtype, where: str):
    """A command-line word or a JSON element as a value of dtype."""
    try:
        return READERS[dtype](raw)
    except ValueError:
        raise CliError(f"{where} wants {dtype}, got {json.dumps(raw)}") from None


def scalar_values(call: UOp, words: list, positions: list) -> dict:
    if len(words) != len(positions):
        wanted = ", ".join(str(call.src[1 + p].dtype) for p in positions) or "none"
        raise CliError(
            f"{call.arg.name} takes {len(positions)} scalar argument(s) ({wanted}), "
            f"got {len(words)}"
        )
    dtypes = [call.src[1 + p].dtype for p in positions]
    return {
        p: read_value(word, dtype, f"argument {p}")
        for p, word, dtype in zip(positions, words, dtypes, strict=True)
    }


def buffer_values(call: UOp, text: str | None, positions: list) -> dict:
    """--buffers: one JSON list per pointer argument, in order; absent means zero-filled."""
    ptrs = [call.src[1 + p].dtype for p in positions]
    if text is None:
        return {
            p: [READERS[ptr.base](0)] * ptr.size for p, ptr in zip(positions, ptrs, strict=True)
        }
    try:
        lists = json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"--buffers is not valid JSON: {error}") from None
    if not isinstance(lists, list) or not all(isinstance(item, list) for item in lists):
        raise CliError("--buffers must be a JSON list of lists, one per buffer argument")
    if len(lists) != len(positions):
        raise CliError(
            f"{call.arg.name} takes {len(positions)} buffer(s), --buffers gave {len(lists)}"
        )
    return {
        p: buffer_list(p, items, ptr) for p, items, ptr in zip(positions, lists, ptrs, strict=True)
    }


def buffer_list(position: int, items: list, ptr: Ptr) -> list:
    if len(items) != ptr.size:
        raise CliError(f"buffer argument {position} holds {ptr.size} elements, got {len(items)}")
    where = f"buffer argument {position}"
    return [read_value(item, ptr.base, f"{where}, element {i},") for i, item in enumerate(items)]


def argument_values(call: UOp, args) -> list:
    """The value of every argument position: a scalar, or a list for a buffer."""
    arguments = call.src[1:]
    pointers = [p for p, u in enumerate(arguments) if isinstance(u.dtype, Ptr)]
    scalars = [p for p in range(len(arguments)) if p not in pointers]
    values = scalar_values(call, args.values, scalars)
    values.update(buffer_values(call, args.buffers, pointers))
    check_declared_ranges(call, values)
    if not args.interp:
        check_indices(call)
    return [values[p] for p in range(len(arguments))]


def check_declared_ranges(call: UOp, values: dict) -> None:
    """A value outside its PARAM's declared range is refused: the simplifier relied on it."""
    for u in call.src[0].toposort():
        if u.op is Ops.PARAM and u.dtype is I32:
            low = INT_MIN if u.arg.vmin is None else u.arg.vmin
            high = INT_MAX if u.arg.vmax is None else u.arg.vmax
            if not low <= values[u.arg.slot] <= high:
                raise CliError(
                    f"argument {u.arg.slot} is {values[u.arg.slot]}, outside [{low}, {high}]"
                )


def check_indices(call: UOp) -> None:
    """An index whose range leaves its buffer is refused before C runs it: C would touch
    another object, where the interpreter stops at the access."""
    for u in call.src[0].toposort():
        index = u.src[1] if u.op is Ops.INDEX else None
        if index is not None and not (0 <= index.vmin and index.vmax < u.dtype.size):
            raise CliError(
                f"an index may reach [{index.vmin}, {index.vmax}], outside a buffer of "
                f"{u.dtype.size}: declare its parameter's min and max, or use --interp"
            )


def compiled_run(call: UOp, values: list) -> tuple:
    """Compile with clang (or find the library in the cache) and run once."""
    buffers = [
        runtime.Buffer(u.dtype.base, u.dtype.size).copyin(value)
        if isinstance(value, list)
        else value
        for u, value in zip(call.src[1:], values, strict=True)
    ]
    try:
        program = runtime.Program(call)
    except runtime.CacheError as error:  # a cache that cannot be used or trusted
        raise CliError(str(error)) from None
    except FileNotFoundError as error:  # no compiler: the runtime's message says what to do
        raise CliError(str(error)) from None
    except RuntimeError as error:  # "clang failed:" and the compiler's errors
        raise CliError(compiler_error(str(error))) from None
    except (TypeError, ValueError) as error:  # the renderer refused the call
        raise CliError(str(error)) from None
    result = program(*buffers)
    return result, [b.tolist() if isinstance(b, runtime.Buffer) else None for b in buffers]


def compiler_error(text: str) -> str:
    """`clang failed: <the first error line>` from the compiler's whole output."""
    head, _, rest = text.partition("\n")
    lines = [line for line in rest.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line] or lines or ["(no message)"]
    return f"{head} {errors[0].strip()}"


def interpreted_run(call: UOp, values: list) -> tuple:
    """The reference interpreter; it checks every access against its buffer's size."""
    arguments = [
        UOp.const(value) if not isinstance(value, list) else u  # the interpreter reads CONSTs
        for u, value in zip(call.src[1:], values, strict=True)
    ]
    lists = [value if isinstance(value, list) else None for value in values]
    try:
        result = run_call(UOp(Ops.CALL, (call.src[0], *arguments), call.arg), lists)
    except (RuntimeError, ValueError) as error:
        raise CliError(f"the interpreter stopped: {error}") from None
    return result, lists


def cmd_run(args) -> None:
    call = load_call(args.file, "run")
    values = argument_values(call, args)
    result, lists = (interpreted_run if args.interp else compiled_run)(call, values)
    shown = [f"b{p}" if isinstance(v, list) else spell_value(v) for p, v in enumerate(values)]
    head = f"{call.arg.name}({', '.join(shown)})"
    print(head if call.src[0].dtype is VOID else f"{head} = {spell_value(result)}")
    for position, items in enumerate(lists):
        if items is not None:
            print(f"b{position} = {json.dumps(items)}")


# ---------------------------------------------------------------------------------------------
# dot: the graph for Graphviz
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
    text = f"{u.op.name.lower()} {detail}".rstrip()
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


def cmd_dot(args) -> None:
    print(to_dot(load_program(args.file)), end="")


# ---------------------------------------------------------------------------------------------
# The parser and main
# ---------------------------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one `uopc: ` line like every other failure."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)  # `--fast` is not taken for `--fast-math`
        super().__init__(*args, **kwargs)

    def error(self, message):
        if message.startswith("unrecognized arguments: -"):  # -inf and -1e3 look like options
            message += " (values that start with '-' go after '--': run FILE -- -inf -1e3)"
        self.exit(EXIT_ERROR, f"uopc: {message} (see: {self.prog} --help)\n")


COMMANDS = {
    "show": (cmd_show, "print the program as loaded, then its infix form"),
    "check": (cmd_check, "print every node's op, dtype, shape, space and integer range"),
    "simplify": (cmd_simplify, "print the program after the rewrite rules"),
    "render": (cmd_render, "print the C source of a CALL"),
    "run": (cmd_run, "compile and run a CALL on values from the command line"),
    "dot": (cmd_dot, "print the graph as Graphviz source (for dot -Tsvg)"),
}


def add_options(name: str, sub) -> None:
    if name == "show":
        sub.add_argument("--names", metavar="x,y", help="names of params by slot (default p0,..)")
    elif name == "simplify":
        sub.add_argument("--fast-math", action="store_true", help="also the fast-math rules")
        sub.add_argument("--stats", action="store_true", help="node counts and rules fired")
    elif name == "run":
        sub.add_argument(
            "values",
            nargs="*",
            help="one value per scalar argument, in order (after --, a value may start with -)",
        )
        sub.add_argument(
            "--buffers", metavar="JSON", help="one list per buffer argument (default: zeros)"
        )
        sub.add_argument("--interp", action="store_true", help="run the reference interpreter")


def make_parser() -> Parser:
    parser = Parser(prog="python -m uopc", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, summary) in COMMANDS.items():
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.add_argument("file", metavar="FILE", help="a program in the text format, - for stdin")
        add_options(name, sub)
    return parser


def main(argv=None) -> int:
    args = make_parser().parse_args(argv)
    try:
        COMMANDS[args.command][0](args)
    except (CliError, UOpError, RewriteLimit) as error:
        kind = "" if isinstance(error, CliError) else f"{type(error).__name__}: "
        print(f"uopc: {kind}{error}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
