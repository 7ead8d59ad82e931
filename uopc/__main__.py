"""The command line: `python -m uopc COMMAND FILE [options]` on a program in the text format.

Commands: show, check, simplify, render, run, dot (`python -m uopc COMMAND --help` for each).
FILE may be `-` for standard input. Relies on every other module of the package; nothing in the
package imports this one. Invariant: every failure a user can cause (a bad file, a bad
argument, a type error, no compiler, a compiler error, an unusable cache, output that cannot be
written) ends the program with one line on standard error that starts with `uopc: `, and exit
status 2; a reader that closes the pipe early ends it quietly; Ctrl-C (SIGINT) ends it with the
one line `uopc: interrupted` and status 130; a traceback always means a bug in uopc.
"""

import argparse
import collections
import json
import os
import sys
from typing import NamedTuple

from . import runtime, speed
from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, Ptr
from .interp import run_call
from .ops import Ops
from .ranges import param_bounds
from .render import render
from .rewrite import RewriteLimit
from .semantics import f32
from .textfmt import (
    MAX_ELEMENTS,
    MAX_TEXT_BYTES,
    ParseError,
    dumps,
    echo,
    infix,
    loads,
    read_float,
    read_int,
    shorten,
    spell_value,
    to_dot,
)
from .uop import ALU_SPACE, UOp, UOpError

EXIT_ERROR = 2  # argparse's status for a usage error; used for every failure
EXIT_PIPE = 141  # 128 + SIGPIPE: what a Unix tool reports when its reader went away
EXIT_INTERRUPTED = 130  # 128 + SIGINT: what a Unix tool reports when Ctrl-C stopped it
MAX_INFIX_NODES = 100_000  # `show` writes the tree, where a shared node appears at every use


class CliError(Exception):
    """A failure the user caused: its text is the one line printed after `uopc: `."""


# ---------------------------------------------------------------------------------------------
# Reading the program
# ---------------------------------------------------------------------------------------------


def read_text(path: str) -> str:
    """The file's text, read as bytes (so a CRLF file reads as loads sees it) and at most
    MAX_TEXT_BYTES of them (so /dev/zero is refused, not read until memory runs out)."""
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)  # a test may hand a text stream
            data = stdin.read(MAX_TEXT_BYTES + 1) if stdin else sys.stdin.read().encode()
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_TEXT_BYTES + 1)
    except OSError as error:  # missing file, a directory, no permission
        raise CliError(f"cannot read {echo(path)}: {error.strerror or error}") from None
    if len(data) > MAX_TEXT_BYTES:
        raise CliError(f"{echo(path)}: larger than the limit of {MAX_TEXT_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CliError(f"{echo(path)}: not a UTF-8 text file") from None


def load_program(path: str) -> UOp:
    """The root node of the program in `path`; a ParseError names the file and the line."""
    text = read_text(path)
    try:
        return loads(text)
    except ParseError as error:
        raise CliError(f"{'<stdin>' if path == '-' else echo(path)}: {error}") from None


def load_call(path: str, command: str) -> UOp:
    root = load_program(path)
    if root.op is not Ops.CALL:
        raise CliError(f"{command} needs a CALL at the root of {echo(path)}, got {root.op.name}")
    return root


# ---------------------------------------------------------------------------------------------
# show, check, simplify, render
# ---------------------------------------------------------------------------------------------


def inert(text: str) -> str:
    """Lines of text with every control character escaped (a call name may hold a terminal's
    escape sequence), the line breaks kept."""
    return "\n".join(echo(line) for line in text.split("\n"))


def parse_names(text: str | None) -> dict:
    """`x,y` -> {0: "x", 1: "y"}: the name the infix form gives each parameter slot."""
    if text is None:
        return {}
    names = text.split(",")
    if not all(name.strip() for name in names):
        raise CliError(f"--names: empty name in '{shorten(text)}' (write them as x,y,z)")
    return {slot: name.strip() for slot, name in enumerate(names)}


def tree_size(root: UOp) -> int:
    """The nodes of the graph written out as a tree: a node shared by k users counts k times."""
    sizes: dict[UOp, int] = {}
    for u in root.toposort():
        sizes[u] = 1 + sum(sizes[src] for src in u.src)
    return sizes[root]


def cmd_show(args) -> None:
    root = load_program(args.file)
    names = parse_names(args.names)
    size = tree_size(root)
    if size > MAX_INFIX_NODES:  # 42 lines can share their way to a tree of 2**40 nodes
        raise CliError(
            f"show: the infix form would write {size:,} nodes (shared nodes at every use), "
            f"above the limit of {MAX_INFIX_NODES:,}; use check or dot"
        )
    print(inert(dumps(root)), end="")
    print()
    if root.op is Ops.CALL:  # the call with its arguments, then the body it runs
        print("call:", echo(infix(root, names)))
        print("body:", echo(infix(root.src[0], names)))
    else:
        print("infix:", echo(infix(root, names)))


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


def symbolic(further=False):
    """uopc.symbolic (or uopc.further), imported by the one command that needs its rules."""
    from . import further as further_module
    from . import symbolic as symbolic_module

    return further_module if further else symbolic_module


def cmd_simplify(args) -> None:
    root = load_program(args.file)
    rules = symbolic(args.further)
    if args.further:  # the strict rules and the further rules (uopc/further.py)
        matcher = rules.further_fast if args.fast_math else rules.further
        simplify = rules.simplify_further
    else:  # the matcher `simplify` uses
        matcher = rules.fast if args.fast_math else rules.default
        simplify = rules.simplify
    before = collections.Counter(matcher.fired)  # `fired` counts every run of this process
    result = simplify(root, fast_math=args.fast_math)
    print(inert(dumps(result)), end="")
    if args.stats:
        print_stats(root, result, matcher.fired - before, matcher)


def cmd_render(args) -> None:
    call = load_call(args.file, "render")
    try:
        print(render(call), end="")
    except (TypeError, ValueError) as error:  # a name C or clang already means, ...
        raise CliError(str(error)) from None


# ---------------------------------------------------------------------------------------------
# run: values from the command line, by the dtype each argument position wants
# ---------------------------------------------------------------------------------------------


def read_f32(raw) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise ValueError
    # a word as the text format spells a float; a JSON number as JSON read it
    return f32(read_float(raw) if isinstance(raw, str) else float(raw))  # as C's float rounds


def read_i32(raw) -> int:
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise ValueError  # 1.5 (and 2.0) are not ints
    value = read_int(raw) if isinstance(raw, str) else raw
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


def shown(raw) -> str:
    """A value as an error message quotes it: JSON, cut short when long, escaped."""
    text = json.dumps(raw) if not isinstance(raw, int) or abs(raw) < 10**40 else "a long number"
    return echo(text if len(text) <= 60 else f"{text[:40]}... ({len(text)} characters)")


def read_value(raw, dtype, where: str):
    """A command-line word or a JSON element as a value of dtype."""
    try:
        return READERS[dtype](raw)
    except (ValueError, OverflowError):  # a 401-digit integer is no float
        raise CliError(f"{where} wants {dtype}, got {shown(raw)}") from None


def scalar_values(call: UOp, words: list, positions: list) -> dict:
    if len(words) != len(positions):
        wanted = ", ".join(str(call.src[1 + p].dtype) for p in positions) or "none"
        raise CliError(
            f"{shorten(call.arg.name)} takes {len(positions)} scalar argument(s) ({wanted}), "
            f"got {len(words)}"
        )
    dtypes = [call.src[1 + p].dtype for p in positions]
    return {
        p: read_value(word, dtype, f"argument {p}")
        for p, word, dtype in zip(positions, words, dtypes, strict=True)
    }


def parse_buffers(text: str) -> list:
    """--buffers as JSON, every way it can fail as one line."""
    try:
        lists = json.loads(text)
    except json.JSONDecodeError as error:
        raise CliError(f"--buffers is not valid JSON: {error}") from None
    except RecursionError:  # [[[[...]]]] 50,000 deep
        raise CliError("--buffers is nested too deeply: write one flat list per buffer") from None
    except ValueError:  # an integer beyond Python's limit of digits
        raise CliError("--buffers holds a number with too many digits") from None
    if not isinstance(lists, list) or not all(isinstance(item, list) for item in lists):
        raise CliError("--buffers must be a JSON list of lists, one per buffer argument")
    return lists


def buffer_values(call: UOp, text: str | None, positions: list) -> dict:
    """--buffers: one JSON list per pointer argument, in order; absent means zero-filled."""
    ptrs = [call.src[1 + p].dtype for p in positions]
    total = sum(ptr.size for ptr in ptrs)
    if total > MAX_ELEMENTS:  # the lists, the arrays and the printed answer all grow with it
        raise CliError(f"the buffers hold {total:,} elements, above the limit of {MAX_ELEMENTS:,}")
    if text is None:
        return {
            p: [READERS[ptr.base](0)] * ptr.size for p, ptr in zip(positions, ptrs, strict=True)
        }
    lists = parse_buffers(text)
    if len(lists) != len(positions):
        raise CliError(
            f"{shorten(call.arg.name)} takes {len(positions)} buffer(s), "
            f"--buffers gave {len(lists)}"
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
            low, high = param_bounds(u.arg)
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


def bind(call: UOp, values: list) -> UOp:
    """The call with every scalar argument a constant of its value, as both runners take it."""
    arguments = [
        u if isinstance(value, list) else UOp.const(value)
        for u, value in zip(call.src[1:], values, strict=True)
    ]
    return UOp(Ops.CALL, (call.src[0], *arguments), call.arg)


def compiled_run(call: UOp, values: list) -> tuple:
    """runtime.execute: compile with clang (or find the library in the cache) and run once."""
    buffers = {
        p: runtime.Buffer(u.dtype.base, u.dtype.size).copyin(value)
        for p, (u, value) in enumerate(zip(call.src[1:], values, strict=True))
        if isinstance(value, list)
    }
    try:
        result = runtime.execute(bind(call, values), buffers)
    except runtime.CacheError as error:  # a cache that cannot be used or trusted
        raise CliError(str(error)) from None
    except runtime.CompilerError as error:  # too large, too slow, or not a program
        raise CliError(str(error)) from None
    except FileNotFoundError as error:  # no compiler: the runtime's message says what to do
        raise CliError(str(error)) from None
    except RuntimeError as error:  # "clang failed:" and the compiler's errors
        raise CliError(compiler_error(str(error))) from None
    except (TypeError, ValueError) as error:  # the renderer refused the call
        raise CliError(str(error)) from None
    except OSError as error:  # the library would not load
        raise CliError(f"cannot load the compiled library: {error}") from None
    if call.src[0].dtype is VOID:
        result = None
    return result, [buffers[p].tolist() if p in buffers else None for p in range(len(values))]


def compiler_error(text: str) -> str:
    """`clang failed: <the cause>` from the compiler's whole output: the first error line that
    says what went wrong, not the linker's summary, a warning, or a line that only says where."""
    head, _, rest = text.partition("\n")
    lines = [line.strip() for line in rest.splitlines() if line.strip()]
    causes = [line for line in lines if not line.endswith(":") and not _not_a_cause(line)]
    errors = [line for line in causes if "error" in line] or causes or lines or ["(no message)"]
    return f"{head} {shorten(errors[0], 300)}"


def _not_a_cause(line: str) -> bool:
    return any(word in line for word in ("linker command failed", "warning:", "note:"))


def interpreted_run(call: UOp, values: list) -> tuple:
    """interp.run_call: the reference interpreter checks every access against its buffer."""
    lists = [value if isinstance(value, list) else None for value in values]
    try:
        result = run_call(bind(call, values), lists)
    except (RuntimeError, ValueError) as error:
        raise CliError(f"the interpreter stopped: {error}") from None
    return result, lists


def cmd_run(args) -> None:
    call = load_call(args.file, "run")
    if isinstance(call.src[0].dtype, Ptr):  # one line for both paths, before any value is read
        raise CliError(f"a call cannot return a pointer ({call.src[0].op.name} body)")
    values = argument_values(call, args)
    result, lists = (interpreted_run if args.interp else compiled_run)(call, values)
    shown_args = [f"b{p}" if isinstance(v, list) else spell_value(v) for p, v in enumerate(values)]
    head = f"{echo(call.arg.name)}({', '.join(shown_args)})"
    print(head if call.src[0].dtype is VOID else f"{head} = {spell_value(result)}")
    for position, items in enumerate(lists):
        if items is not None:
            print(f"b{position} = {json.dumps(items)}")


def cmd_dot(args) -> None:
    print(to_dot(load_program(args.file)), end="")


# ---------------------------------------------------------------------------------------------
# The commands, their options, and main
# ---------------------------------------------------------------------------------------------


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one `uopc: ` line like every other failure."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)  # `--fast` is not taken for `--fast-math`
        super().__init__(*args, **kwargs)

    def error(self, message):
        if message.startswith("unrecognized arguments: -"):  # -inf and -1e3 look like options
            message += " (values that start with '-' go after '--': run FILE -- -inf -1e3)"
        self.exit(EXIT_ERROR, f"uopc: {echo(message)} (see: {self.prog} --help)\n")


def option(*flags, **settings) -> tuple:
    return flags, settings


class Command(NamedTuple):
    run: object  # the function of the parsed arguments
    summary: str
    options: tuple = ()  # option(...) for each argument after FILE


COMMANDS = {
    "show": Command(
        cmd_show,
        "print the program as loaded, then its infix form",
        (option("--names", metavar="x,y", help="names of params by slot (default p0,..)"),),
    ),
    "check": Command(cmd_check, "print every node's op, dtype, shape, space and integer range"),
    "simplify": Command(
        cmd_simplify,
        "print the program after the rewrite rules",
        (
            option("--fast-math", action="store_true", help="also the fast-math rules"),
            option("--further", action="store_true", help="also the further integer rules"),
            option("--stats", action="store_true", help="node counts and rules fired"),
        ),
    ),
    "render": Command(cmd_render, "print the C source of a CALL"),
    "run": Command(
        cmd_run,
        "compile and run a CALL on values from the command line",
        (
            option(
                "values",
                nargs="*",
                help="one value per scalar argument, in order (after --, a value may start with -)",
            ),
            option("--buffers", metavar="JSON", help="one list per buffer argument (default: 0s)"),
            option("--interp", action="store_true", help="run the reference interpreter"),
        ),
    ),
    "dot": Command(cmd_dot, "print the graph as Graphviz source (for dot -Tsvg)"),
}


PLAIN_HELP = "run the plain code the chapters show, without the speed overlay (uopc.speed)"


def make_parser() -> tuple[Parser, dict]:
    """The parser of `python -m uopc`, and the parser of each command by name."""
    parser = Parser(prog="python -m uopc", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    subparsers = {}
    for name, command in COMMANDS.items():
        sub = commands.add_parser(name, help=command.summary, description=command.summary)
        sub.add_argument("file", metavar="FILE", help="a program in the text format, - for stdin")
        for flags, settings in command.options:
            sub.add_argument(*flags, **settings)
        sub.add_argument("--plain", action="store_true", help=PLAIN_HELP)
        subparsers[name] = sub
    return parser, subparsers


def parse_arguments(argv: list):
    """A command's own parser reads its arguments in any order (`run FILE --interp 5`)."""
    parser, subparsers = make_parser()
    if not argv or argv[0] not in subparsers:
        return parser.parse_args(argv)  # --help, or a usage error naming the commands
    args = subparsers[argv[0]].parse_intermixed_args(argv[1:])
    args.command = argv[0]
    return args


def quiet_stdout() -> None:
    """Send what is still buffered for standard output nowhere, so that Python's own flush at
    exit cannot fail a second time (only when stdout is the real one, not a test's capture)."""
    if sys.stdout is sys.__stdout__:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def fail(message: str) -> int:
    print(f"uopc: {message}", file=sys.stderr)
    return EXIT_ERROR


def main(argv=None) -> int:
    try:
        return run_command(sys.argv[1:] if argv is None else list(argv))
    except KeyboardInterrupt:  # Ctrl-C is the user's choice, not a bug: no traceback
        quiet_stdout()
        print("uopc: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def run_command(argv: list) -> int:
    args = parse_arguments(argv)
    if args.plain:
        speed.uninstall()
    try:
        COMMANDS[args.command][0](args)
        sys.stdout.flush()  # a full disk shows here, not in Python's flush at exit
    except (CliError, UOpError, RewriteLimit) as error:
        kind = "" if isinstance(error, CliError) else f"{type(error).__name__}: "
        return fail(f"{kind}{error}")
    except MemoryError:
        return fail("out of memory")
    except BrokenPipeError:  # `show deep.uop | head -1`: the reader has all it wanted
        quiet_stdout()
        return EXIT_PIPE
    except OSError as error:  # writing the output: `check relu.uop > /dev/full`
        quiet_stdout()
        return fail(f"cannot write the output: {error.strerror or error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
