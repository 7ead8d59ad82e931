"""Which test layer catches which planted bug (verification.md §9.4): the mutant matrix.

    python tests/mutant_matrix.py [--full] [--book-layers] [--only NAME_OR_NUMBER ...]
                                  [--layers LETTERS] [--workers 2] [--details FILE]

Every mutant of `tests/mutants.py` is applied to a private copy of `uopc` (never the working
tree), and one fresh Python process per mutant imports the copy (cwd = the temporary directory,
PYTHONPATH = the copy first) and calls the layer functions one after the other, catching each
layer's failure: a layer *catches* the mutant when it raises (a failed check or any error,
a crash or a time-out included). Mutants run two at a time. All runs share one compiled-C
cache, which is keyed by the C source: only mutants that change the C produce new libraries.

Columns: the book's twelve layers A to L, then three beyond the book: M semantics (the value
contract against NumPy and against the C reference), S sanitize (the generated C under UBSan
and ASan) and P other tests (every other test file of the package, by pytest -x on the copy,
so that the matrix shows which bugs a test outside the layers also catches);
`--book-layers` prints A to L only. `n` counts the marks of a row, and "caught by exactly one
layer" counts over the columns printed (a line after it gives the figure for A to L alone).

Decisions where the book is silent: the layers run in-process in the order of the columns
(the unit layer's module is imported first, since its cases rely on building -0.0 before 0.0);
failing programs are not shrunk (shrinking only makes a report readable, and a matrix needs
the verdict alone); a process that dies marks the layer it was running as catching, and the
remaining layers go on in a new process. Before the mutants, the unmutated copy must pass every
layer, and a no-op control mutant (an edited comment) must be caught by none.

The exit status is non-zero when the baseline or the control goes wrong, a mutant is an ERROR,
or a mutant escapes every column (with `--book-layers`, one of our own may: the runtime's
cache key, say, is none of the layers' business; P catches it).
"""

import argparse
import contextlib
import importlib
import io
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# letter, name, [(module, function), ...]: a layer fails when one of its functions raises
BOOK_LAYERS = [
    ("A", "unit", [("test_rules_unit", "layer_unit")]),
    ("B", "hash", [("test_pipeline", "layer_hash")]),
    ("C", "sound", [("test_pipeline", "layer_sound")]),
    ("D", "special", [("test_pipeline", "layer_special")]),
    ("E", "exhaust", [("test_pipeline", "layer_exhaustive")]),
    ("F", "overflow", [("test_pipeline", "layer_overflow")]),
    ("G", "ranges", [("test_pipeline", "layer_ranges")]),
    ("H", "fold", [("test_pipeline", "layer_fold")]),
    ("I", "text", [("test_pipeline", "layer_text")]),
    ("J", "render", [("test_pipeline", "layer_render")]),
    ("K", "zerodiv", [("test_pipeline", "layer_zerodiv")]),
    ("L", "memory", [("test_memory", "layer_memory")]),
]
EXTRA_LAYERS = [
    ("M", "semantics", [("test_semantics", f"semantics_vs_{ref}") for ref in ("numpy", "c")]),
    ("S", "sanitize", [("test_sanitize", "sanitize")]),
]
# P: the package's other tests, every test file but the layers' own (and the book's programs,
# see mutants.BOOK_FILES), run by pytest -x on the copy: does any test outside the layers fail?
OTHER = ("P", "other tests")
LAYER_FILES = (
    "test_rules_unit.py", "test_pipeline.py", "test_memory.py", "test_semantics.py",
    "test_sanitize.py",
)  # fmt: skip
# Why no second layer sees a planted bug that, in a run at quick or full size, one layer alone
# caught (printed under it in the list "caught by exactly one layer"). The reasons are about
# the book's layers A to L: M, S and P may add a second catch. A row caught once that has no
# entry here is printed with "why: not explained", to be written here.
SINGLE_REASONS = {
    "C: plain / allowed when divisor may be 0": "wrong only in compiled C, when a divisor whose"
    " declared range starts at 0 is 0 at run time under a dividend from 0 up; only K declares"
    " such ranges and runs every value of them (J divides by constants or by parameters that are"
    " rarely both bounded at 0 and 0)",
    "text format drops min/max bounds": "only I writes graphs as text; the other layers never"
    " leave the graph, so a bound lost in writing is invisible to them",
    "text: float values written with %g": "only I writes graphs as text; the other layers never"
    " leave the graph",
    "AFTER dropped from the renderer's order": "only L builds programs with loads and stores;"
    " the other layers compute scalar values, where there is no AFTER edge to lose",
    "builder: a load skips earlier stores": "only L builds programs with the Builder; the other"
    " layers compute scalar values",
    "C: float literal with %.6g": "of the layers that compile C, K is integer-only and L's"
    " programs hold few float constants; J compiles random float constants and compares",
    "runtime: bool passed as c_int8": "only J calls compiled functions with bool scalars; K's"
    " functions take integers and L's take buffers",
    "rule x+(-x) (int): also on floats": "needs a float ADD of a node and its own negation (and"
    " an inf or nan there), a shape the random programs seldom build; A builds it, and D's first"
    " programs",
    "rule x<x: x!=x also false": "needs a CMPNE of a node with itself, which the random"
    " programs seldom build; A builds it by hand",
    "rule where(c,a,a): equal constants merged": "wrong only for a WHERE whose branches are 0.0"
    " and -0.0 (equal by ==, two constants), which the random programs seldom build",
    "rule where(c,True,False): swapped test": "needs a WHERE with the constant branches False"
    " and True, which the random programs seldom build; A builds it by hand",
    "rule where(c,False,True): c != False": "needs a WHERE with the constant branches False and"
    " True, which the random programs seldom build; A builds it by hand",
    "rule (x+c1)+c2: sum not wrapped": "every value stays the same (an int ADD wraps anyway);"
    " only the constant lies outside int32, which A checks and a value comparison cannot see",
    "rule x//c trivial: x//0 gives x": "needs a division by the constant 0, which the program"
    " generators never write (their divisors are positive constants or parameters)",
    "rule (x%c1)%c2: divisibility reversed": "no value ever changes: where the slip would fire"
    " wrongly (c1 dividing c2), x%c1 lies in one bucket of c2 and that rule has rewritten it"
    " first; the slip only stops the rule where it should fire, which A's declared results"
    " notice and no value comparison can",
    "rule (a*c1+b)//c2: r//c dropped": "in the exhaustive domain the leftover stays below the"
    " divisor, so r//c is 0 everywhere; F's split-shaped programs (one in five) show it, at"
    " quick size not always",
    "rule (a*c1+b)%c2: r%c taken as r": "in the exhaustive domain the leftover stays below the"
    " divisor, so r%c is r everywhere; F's split-shaped programs (one in five) show it, at"
    " quick size not always",
    "C: INT_MIN literal without brackets": "wrong only where INT_MIN stands under a minus or as"
    " the right operand of *, / or % in the C; random programs seldom put that constant there"
    " (P's literal tests write it on purpose)",
    "runtime: cache key ignores the flags": "every layer compiles with the runtime's one set of"
    " flags, so a cache that ignores them gives the same library; only a test that compiles one"
    " source with two sets of flags (P) can tell",
    "interp: call body sees the caller's env": "the layers give the interpreter bodies, or CALLs"
    " whose arguments are the caller's own inputs, where both environments agree; a CALL with"
    " other arguments is evaluated only in P's tests",
    "interp: float input not rounded to f32": "wrong only for a float input that float32 cannot"
    " hold exactly, such as 16777217 of the special list; D, which draws only special values,"
    " meets it at full size, the others too seldom",
}
LAYER_TIMEOUT = 600  # seconds for one layer of one mutant before it counts as failed
MARK = "@@LAYER"  # the child's result lines start with this


# ---------------------------------------------------------------------------------------------
# The child: one process per mutant, the copy of uopc first on the path
# ---------------------------------------------------------------------------------------------


class LayerTimeout(BaseException):
    """Raised by the alarm; a BaseException, so that no `except Exception` in a layer eats it."""


def _alarm(signum, frame):
    raise LayerTimeout(f"no verdict after {LAYER_TIMEOUT} s")


def child(letters: str) -> int:
    """Run the layers named by letters, in that order; one result line per layer."""
    out = sys.stdout
    layers = {letter: functions for letter, _, functions in BOOK_LAYERS + EXTRA_LAYERS}
    try:
        # in this order: the unit cases build -0.0 before anything else builds 0.0
        for module in ("uopc", "test_rules_unit", "test_pipeline"):
            importlib.import_module(module)
        uopc, test_pipeline = sys.modules["uopc"], sys.modules["test_pipeline"]
        # speed only: a failure is reported without shrinking the program first
        test_pipeline.shrink = lambda root, *args, **kwargs: root
        print(f"{MARK} IMPORTED {uopc.__file__}", file=out, flush=True)
    except BaseException as error:  # a mutant that breaks the import fails every layer
        for letter in letters:
            print(f"{MARK} {letter} x 0.0 import failed: {one_line(error)}", file=out, flush=True)
        return 0
    signal.signal(signal.SIGALRM, _alarm)
    for letter in letters:
        start, problem = time.perf_counter(), None
        signal.alarm(LAYER_TIMEOUT)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                for module, function in layers[letter]:
                    getattr(importlib.import_module(module), function)()
        except BaseException as error:
            problem = one_line(error)
        finally:
            signal.alarm(0)
        seconds = time.perf_counter() - start
        mark = "." if problem is None else "x"
        print(f"{MARK} {letter} {mark} {seconds:.1f} {problem or ''}", file=out, flush=True)
    return 0


def one_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".replace("\n", " | ")
    return text[:1000]  # the first lines of a long report are enough to tell the cause


# ---------------------------------------------------------------------------------------------
# The parent: one job per mutant, two jobs at a time
# ---------------------------------------------------------------------------------------------


def other_files() -> list[str]:
    import mutants

    return [f for f in mutants.suite_files() if Path(f).name not in LAYER_FILES]


def run_layers(mutant, letters: str, full: bool, others: list[str] | None = None) -> dict:
    """{"cells": {letter: (caught, seconds, why)}, "error": text or None} for one mutant.

    The letter P runs `others` (by default other_files()) under pytest; every other letter is
    a layer run in the child."""
    import mutants

    start = time.perf_counter()
    with mutants.private_folder("uopc-matrix-") as root:
        try:
            copy = mutants.make_copy(mutant, root)
        except ValueError as error:
            return {"cells": {}, "error": str(error), "seconds": 0.0}
        cells, imported, todo = {}, [], letters.replace(OTHER[0], "")
        env = mutants.child_env(root, full)
        while todo:
            command = [sys.executable, str(Path(__file__).resolve()), "--child", todo]
            try:
                timeout = LAYER_TIMEOUT * len(todo) + 120
                done = mutants.run_child(command, timeout, cwd=root, env=env)
                stdout, status = done.stdout, done.returncode
            except subprocess.TimeoutExpired as expired:
                stdout, status = expired.stdout or "", "a time-out"
                stdout = stdout.decode() if isinstance(stdout, bytes) else stdout
            for text in stdout.splitlines():
                if not text.startswith(MARK + " "):
                    continue
                fields = text.split(" ", 4)
                if fields[1] == "IMPORTED":
                    imported.append(text.split(" ", 2)[2])
                else:
                    why = fields[4] if len(fields) > 4 else ""
                    cells[fields[1]] = (fields[2] == "x", float(fields[3]), why)
            todo = "".join(letter for letter in todo if letter not in cells)
            if todo:  # the process died inside the first layer it did not report
                cells[todo[0]] = (True, 0.0, f"the process died ({status}) in this layer")
                todo = todo[1:]
        error = None
        wanted = str(copy / "__init__.py")
        if any(path != wanted for path in imported):
            error = f"the run imported {sorted(set(imported))}, not {wanted}"
        if OTHER[0] in letters:
            files = other_files() if others is None else others
            other = mutants.run_suite(mutant, files, full, [], stop_first=True)
            if other["verdict"] == "ERROR":
                error = error or f"the other tests: {other['detail']}"
            caught = other["verdict"] == "caught"
            cells[OTHER[0]] = (caught, other["seconds"], other["detail"] if caught else "")
        return {"cells": cells, "error": error, "seconds": time.perf_counter() - start}


def job(args) -> dict:
    mutant, letters, full, others = args
    return run_layers(mutant, letters, full, others)


def matrix_lines(rows, columns) -> list[str]:
    """The matrix in the layout of verification.md §9.4 (rows: (name, set of letters))."""
    letters = [letter for letter, _ in columns]
    lines = [f"{'planted bug':<43}{' '.join(letters)}  n"]
    for name, caught in rows:
        marks = " ".join("x" if letter in caught else "." for letter in letters)
        lines.append(f"{name:<43}{marks}  {len(caught)}")
    lines.append("")
    lines.append("columns: A unit, B hash, C sound, D special, E exhaust, F overflow,")
    lines.append("         G ranges, H fold, I text, J render, K zerodiv, L memory")
    extra = [f"{letter} {name}" for letter, name in columns if letter not in "ABCDEFGHIJKL"]
    if extra:
        lines.append(f"         {', '.join(extra)} (beyond the book)")
    totals = ", ".join(f"{letter} {sum(letter in c for _, c in rows)}" for letter in letters)
    lines.append(f"caught by layer: {totals}")
    once = [name for name, caught in rows if len(caught) == 1]
    lines.append(f"caught by exactly one layer: {len(once)} of {len(rows)}")
    return lines


def report_lines(rows, columns) -> list[str]:
    """The matrix and its summary lines, as printed and as scripts/make_numbers.py reads them:
    the book calls the columns layers, so every line does too."""
    lines = matrix_lines(rows, columns)
    book = set("ABCDEFGHIJKL")
    if any(letter not in book for letter, _ in columns):
        book_once = [name for name, caught in rows if len(caught & book) == 1]
        lines.append(f"caught by exactly one of the layers A to L: {len(book_once)} of {len(rows)}")
    lines += ["", "caught by exactly one layer:"]
    for name, caught in rows:
        if len(caught) == 1:
            lines.append(f"  {name} (by {next(iter(caught))})")
            why = textwrap.wrap(SINGLE_REASONS.get(name, "not explained"), 80)
            lines += [f"      why: {why[0]}", *(f"           {more}" for more in why[1:])]
    if not any(len(caught) == 1 for _, caught in rows):
        lines.append("  none")
    missed = [name for name, caught in rows if not caught]
    lines.append(f"caught by no layer: {', '.join(missed) if missed else 'none'}")
    book_missed = [name for name, caught in rows if not caught & book]
    lines.append(f"caught by none of A to L: {', '.join(book_missed) if book_missed else 'none'}")
    return lines


def main(argv=None) -> int:
    import mutants

    parser = argparse.ArgumentParser(description="run every layer on every planted bug")
    parser.add_argument("--full", action="store_true", help="the layers at the book's sizes")
    parser.add_argument("--book-layers", action="store_true", help="columns A to L only")
    parser.add_argument("--only", nargs="+", default=[], help="mutants by number or name part")
    parser.add_argument("--layers", help="only these columns, by letter (e.g. ACP); all by default")
    parser.add_argument("--workers", type=int, default=2, help="mutants run at once (2)")
    parser.add_argument("--details", help="write every failing cell's first error line here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        return child(options.child)
    columns = [(letter, name) for letter, name, _ in BOOK_LAYERS]
    if not options.book_layers:
        columns += [(letter, name) for letter, name, _ in EXTRA_LAYERS] + [OTHER]
    if options.layers:
        unknown = set(options.layers) - {letter for letter, _ in columns}
        if unknown:
            parser.error(f"--layers: no column {', '.join(sorted(unknown))}")
        columns = [(letter, name) for letter, name in columns if letter in options.layers]
    letters = "".join(letter for letter, _ in columns)
    chosen = mutants.select(options.only)
    size = "full" if options.full else "quick"
    start = time.perf_counter()

    others = other_files()  # listed once: a file added during the run cannot count
    jobs = [(m, letters, options.full, others) for m in (None, mutants.CONTROL)]
    jobs += [(mutant, letters, options.full, others) for _, mutant in chosen]
    results = mutants.run_pool(job, jobs, options.workers)
    baseline, control, results = results[0], results[1], results[2:]

    problems = []
    failing = sorted(letter for letter, cell in baseline["cells"].items() if cell[0])
    if baseline["error"] or failing:
        why = baseline["error"] or "; ".join(f"{c}: {baseline['cells'][c][2]}" for c in failing)
        problems.append(f"the unmutated copy fails layers {failing}: {why}")
    rows, details = [], []
    for (number, mutant), result in zip(chosen, results, strict=True):
        if result["error"]:
            problems.append(f"mutant {number} ({mutant.name}): ERROR: {result['error']}")
        caught = {letter for letter, cell in result["cells"].items() if cell[0]}
        rows.append((mutant.name, caught))
        for letter in letters:
            cell = result["cells"].get(letter)
            if cell and cell[0]:
                details.append(f"{number:>3} {mutant.name} | {letter} | {cell[2]}")

    for text in report_lines(rows, columns):
        print(text)
    for (number, mutant), (_, caught) in zip(chosen, rows, strict=True):
        # with --book-layers, a bug of our own outside the layers' reach may go unmarked; with
        # --layers, any bug may escape the few columns chosen
        partial = options.layers or (options.book_layers and mutant.group == "own")
        if not caught and not partial:
            problems.append(f"mutant {number} ({mutant.name}) escapes every column")
    control_caught = sorted(letter for letter, cell in control["cells"].items() if cell[0])
    if control["error"] or control_caught:
        problems.append(f"the control was caught by {control_caught}: {control['error'] or ''}")
    else:
        print(f"control ({mutants.CONTROL.name}): caught by no layer, as it must")
    layer_seconds = {
        letter: sum(r["cells"].get(letter, (0, 0.0))[1] for r in results) for letter in letters
    }
    print(
        "seconds per layer, summed over the mutants: "
        + ", ".join(f"{letter} {seconds:.0f}" for letter, seconds in layer_seconds.items())
    )
    print(f"sizes: {size}; {len(rows)} mutants, {options.workers} at a time")
    print(f"total time: {time.perf_counter() - start:.0f} s")
    if options.details:
        Path(options.details).write_text("\n".join(details) + "\n", encoding="utf-8")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    if "--child" not in sys.argv:  # the child dies with its parent's copy; the parent cleans up
        import mutants

        mutants.clean_up_on_signals()
        try:
            sys.exit(main())
        except mutants.Terminated as stop:
            print(f"mutant_matrix.py: {stop}; the private copies are removed", file=sys.stderr)
            sys.exit(128 + signal.SIGTERM)
    sys.exit(main())
