"""Which test layer catches which planted bug (verification.md §9.4): the mutant matrix, and
the list of the planted bugs caught.

    python tests/mutant_matrix.py [--full] [--book-layers] [--only NAME_OR_NUMBER ...]
                                  [--layers LETTERS] [--workers 2] [--details FILE]
                                  [--fresh] [--cells DIR] [--no-skip] [--hints FILE]
                                  [--plain] [--prefix NAME]

Every mutant of `verify/mutants.py` is applied to a private copy of `uopc` (never the working
tree), and one fresh Python process per mutant imports the copy (cwd = the temporary directory,
PYTHONPATH = the copy first) and calls the layer functions one after the other, catching each
layer's failure: a layer *catches* the mutant when it raises (a failed check or any error,
a crash or a time-out included). Mutants run two at a time. All runs share one compiled-C
cache, which is keyed by the C source: only mutants that change the C produce new libraries;
the children share one bytecode cache, kept in build/ from run to run, where each copy's
bytecode goes with the copy (mutants.bytecode_cache).

Columns: the book's twelve layers A to L, then three beyond the book: M semantics (the value
contract against NumPy and against the C reference), S sanitize (the generated C under UBSan
and ASan) and P other tests (every other test file of the package, by pytest -x on the copy,
less the tests of the book's production, book/producers.py's BOOK_TESTS), so that the matrix
shows which bugs a test outside the layers also catches; `--book-layers` prints A to L only.
`n` counts the marks of a row, and "caught by exactly one layer" counts over the columns
printed (a line after it gives the figure for A to L alone).

A cell (one mutant, one column) is caught or not: a layer stops at its first failing check, so
only a cell that catches nothing runs to the end. P runs its tests in the order that makes a
catch come soonest (the tests that caught this bug last time, then the quick tests of the
module it edits, the other quick tests, the slow ones last: see mutants.ordered), the first of
them alone first, without collecting the rest (mutants.run_suite); whether some test fails does
not depend on that order.

Each cell's verdict is saved in build/mutant-cells/ (not committed) under a hash of everything
it depends on: the mutant (name, file, original and replacement text), every file of uopc/, the
test files the column runs with their helpers, and the size. A saved cell is used again, so a
rerun after an edit of one test file reruns that file's columns only, and a stopped run goes on
where it stopped; `--fresh` runs every cell again. The unmutated copy and the control are saved
the same way. `--hints FILE` (the build gives out/tests/mutant_hints.json, a record of the
run committed with the book) names the tests of P that failed first on each planted bug: a run
without saved cells, a fresh clone's, tries them first too, and writes the file again at the
end. Hints only order P's tests; no verdict depends on them.

A cell that cannot catch its bug is not run. The unmutated copy runs first, each column in a
process of its own, with a probe before every statement that holds a line some mutant's edit
may be reached from (verify/coverage_lines.py says which: the edited lines, the nearest code on
each side, a function's first statement for an edit at its start). A column's tests are seeded
and the child's hash seed is fixed, so on the mutated copy the column does exactly what it did
on the unmutated one until it reaches the edit; if none of those lines ran, it never reaches
the edit, passes as before, and the cell is printed as not caught without running. An edit of
runtime.py, whose path depends on the on-disk cache, is reached too in a column that called
one of its functions that read or write the cache (coverage_lines.OUTSIDE_STATE). Never
skipped: an edit of a line that runs at import (module level, decorators, `def` lines), of no
code, of a file that is not Python, the control, column P (its tests start Python processes),
and a column whose run started a Python process. The lines are saved beside the unmutated
copy's cells (lines/, keyed by the cell and the lines watched), the time of each cell in
history/; the rows run longest first, so that both workers stay busy to the end. `--no-skip`
runs every cell; `--details` names each cell not run and why.

`--plain` runs the columns with the plain code alone (`uopc.speed.uninstall()` in the child,
before any layer): the speed overlay of appendix G must not be what catches a bug, nor what
hides one. P is left out (its tests run both modes already, tests/conftest.py), and so may a bug
of our own or of the further rules go unmarked, as with --book-layers; the overlay's own
planted bugs cannot be caught there at all. `--prefix NAME` states the numbers as NAME_*, so that
such a run (or one of a few columns) does not restate the whole matrix's.

Decisions where the book is silent: the layers run in-process in the order of the columns
(the unit layer's module is imported first, since its cases rely on building -0.0 before 0.0);
failing programs are not shrunk (shrinking only makes a report readable, and a matrix needs
the verdict alone); a process that dies marks the layer it was running as catching, and the
remaining layers go on in a new process. Before the mutants, the unmutated copy must pass every
layer, and a no-op control mutant (an edited comment) must be caught by none. For P the
unmutated copy does not run, and the control runs last, only the tests of P that caught a
planted bug (each bug's first failing test): a mark in P then rests on a test that passes
without the bug (the edit is in a comment, so the control runs the unmutated code), and a
failure there is reported as the control caught. The whole of P, most of whose tests catch
nothing, runs on the unmutated code in the build's test row (tests/counts), not twice.

The output: the matrix and its summary lines, then the list of the planted bugs, each caught or
survived with the first column that caught it and that column's first failing check, and the
line `MUTANTS <total> <caught>` (read by scripts/summary.py); the lines that depend on the
machine (times, cells run and reused) come last, each marked `(this machine)`. Under the book's
build (BOOK_NUMBERS=1) the numbers the book quotes are stated with protocol.state.

The exit status is non-zero when the baseline or the control goes wrong, a mutant is an ERROR,
a mutant escapes every column (with `--book-layers`, one of our own may: the runtime's cache
key, say, is none of the layers' business; P catches it), or the printed report disagrees with
itself (per-layer totals and rows, the single-catcher list and its count).
"""

import argparse
import contextlib
import hashlib
import importlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from book.protocol import MACHINE_MARK

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
CELLS = REPO / "build" / "mutant-cells"  # the saved cells (build/ is not committed)
# Bumped when the harness changes what a saved cell means (the child, the plugin, the keys).
CELL_FORMAT = 3
# What every column's tests import besides their own module (the generators, the counts, the
# shrinker, pytest's options and the C reference).
SUPPORT = (
    "verify/generators.py", "book/protocol.py", "verify/layers.py", "verify/shrink.py",
    "book/own_tree.py", "tests/conftest.py", "tests/ref_ops.c",
)  # fmt: skip
SLOW_TEST = 1.0  # seconds: a test of P this slow in the unmutated run runs after the others

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
# P: the package's other tests, every test file but the layers' own (and the book's production,
# producers.BOOK_TESTS), run by pytest -x on the copy: does any test outside the layers fail?
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
    "runtime: cache key ignores the flags": "no layer compiles one source with two sets of flags"
    " (S gives its sanitizer flags to files only it writes, the others the runtime's flags), so a"
    " cache that ignores them gives the same library; only a test that compiles one source with"
    " two sets of flags (P) can tell",
    "interp: call body sees the caller's env": "the layers give the interpreter bodies, or CALLs"
    " whose arguments are the caller's own inputs, where both environments agree; a CALL with"
    " other arguments is evaluated only in P's tests",
    "interp: float input not rounded to f32": "wrong only for a float input that float32 cannot"
    " hold exactly, such as 16777217 of the special list; D, which draws only special values,"
    " meets it at full size, the others too seldom",
    "speed: rebuild keeps dtype over new dtypes": "the engine rebuilds a node only"
    " over the final forms of its srcs, and every rule keeps its node's dtype, so no layer's"
    " rewrite ever rebuilds over srcs of another dtype; only the shortcut's own test"
    " (tests/test_shortcuts.py, in P) calls replace_src with them",
}

# The same reason for every planted bug of a group, by the first word of its name.
GROUP_REASONS = {
    "further": "the further integer rules are off by default, and the layers A to L, M and S run"
    " the book's rules; only tests/test_further.py (in P) runs the layers with the set on",
}
LAYER_TIMEOUT = 600  # seconds for one layer of one mutant before it counts as failed
COMPILE_SECONDS = 120  # the layers' UOPC_COMPILE_TIMEOUT: seconds per 1,000 lines of C
MARK = "@@LAYER"  # the child's result lines start with this
# The unmutated copy's columns that take longest, started first when no earlier run has timed
# them (seconds at full size, roughly): S compiles every sanitized file of an empty C cache.
FIRST_GUESS = {"S": 15.0, "E": 15.0, "F": 15.0, "D": 5.0, "M": 5.0, "H": 4.0}


# ---------------------------------------------------------------------------------------------
# The child: one process per mutant, the copy of uopc first on the path
# ---------------------------------------------------------------------------------------------


class LayerTimeout(BaseException):
    """Raised by the alarm; a BaseException, so that no `except Exception` in a layer eats it."""


def _alarm(signum, frame):
    raise LayerTimeout(f"no verdict after {LAYER_TIMEOUT} s")


def child(letters: str) -> int:
    """Run the layers named by letters, in that order; one result line per layer. With
    $UOPC_MATRIX_TRACE set (the unmutated copy's run of one column), the lines of the copy that
    ran, from before the first import to the end, are written to that file (see trace_start)."""
    out = sys.stdout
    layers = {letter: functions for letter, _, functions in BOOK_LAYERS + EXTRA_LAYERS}
    trace = trace_start(os.environ.get("UOPC_MATRIX_TRACE"))
    try:
        # in this order: the unit cases build -0.0 before anything else builds 0.0
        for module in ("uopc", "test_rules_unit", "test_pipeline"):
            importlib.import_module(module)
        uopc, test_pipeline = sys.modules["uopc"], sys.modules["test_pipeline"]
        if os.environ.get("UOPC_MATRIX_PLAIN") == "1":  # --plain: the plain code alone
            uopc.speed.uninstall()
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
    if trace:
        trace()
    return 0


def trace_start(path: str | None):
    """Start recording which of the watched lines of the copy run, from the first import on:
    $UOPC_MATRIX_WATCH holds {file under uopc/: [lines]}, and each statement of those files
    that holds a watched line gets a probe as the module is imported (coverage_lines.instrument:
    a line tracer made the slowest columns several times slower, a probe costs next to
    nothing). Returns the function that writes {"lines": {file: [lines of the probed
    statements that ran]}, "watched": the same as given, "python_children": the Python
    processes started meanwhile} to path: a Python child runs code of the copy unseen, so a
    column that starts any is never skipped. None when path is None."""
    if not path:
        return None
    import builtins
    import importlib.machinery

    from verify import coverage_lines

    package = os.path.join(os.getcwd(), "uopc")
    watched = json.loads(os.environ.get("UOPC_MATRIX_WATCH") or "{}")
    spans: list[tuple[str, int, int]] = []
    ran: set[int] = set()
    started = []
    setattr(builtins, coverage_lines.PROBE, ran.add)

    class Loader(importlib.machinery.SourceFileLoader):
        def source_to_code(self, data, path, *, _optimize=-1):
            name = os.path.relpath(path, package)
            if name not in watched:
                return super().source_to_code(data, path, _optimize=_optimize)
            tree, found = coverage_lines.instrument(
                data.decode("utf-8"), set(watched[name]), len(spans)
            )
            spans.extend((name, first, last) for first, last in found)
            return compile(tree, path, "exec", dont_inherit=True)

        def get_code(self, fullname):  # never a cached bytecode file: the probes are in none
            return self.source_to_code(self.get_data(self.path), self.path)

    class Finder:
        @staticmethod
        def find_spec(fullname, path=None, target=None):
            if fullname != "uopc" and not fullname.startswith("uopc."):
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
            if spec is not None and str(spec.origin).endswith(".py"):
                spec.loader = Loader(fullname, spec.origin)
            return spec

    sys.meta_path.insert(0, Finder)

    def audit(event, args):  # a Python child would run code of the copy out of our sight
        if event == "subprocess.Popen":
            words = [args[0], *(args[1] if isinstance(args[1], list | tuple) else [args[1]])]
        elif event in ("os.system", "os.exec", "os.posix_spawn", "os.spawn"):
            words = [str(a) for a in args[:2]]
        else:
            return
        if any("python" in os.path.basename(str(w)) for w in words if w):
            started.append(event)

    sys.addaudithook(audit)

    def stop():
        lines: dict[str, set[int]] = {}
        for number in ran:
            name, first, last = spans[number]
            lines.setdefault(name, set()).update(range(first, last + 1))
        lines = {name: sorted(numbers) for name, numbers in lines.items()}
        result = {"lines": lines, "watched": watched, "python_children": len(started)}
        write_json(Path(path), result)

    return stop


def one_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".replace("\n", " | ")
    return text[:1000]  # the first lines of a long report are enough to tell the cause


# ---------------------------------------------------------------------------------------------
# The parent: one job per mutant, two jobs at a time
# ---------------------------------------------------------------------------------------------


def other_files() -> list[str]:
    from verify import mutants

    return [f for f in mutants.suite_files() if Path(f).name not in LAYER_FILES]


def run_layers(
    mutant,
    letters: str,
    full: bool,
    others: list[str] | None = None,
    order=None,
    save=None,
    trace: dict | None = None,
) -> dict:
    """{"cells": {letter: (caught, seconds, why)}, "error": text or None} for one mutant.

    The letter P runs `others` (by default other_files()) under pytest, its tests in `order`
    (see mutants.ordered); every other letter is a layer run in the child. save(letter, cell,
    extra) is called with each verdict as soon as it is known to be sound (not with the cells
    of a run that imported the wrong package); extra is P's run (failing nodes, durations).
    trace: {file under uopc/: [lines]}, the lines to watch: record which of them the layers ran
    (the result's "lines", as trace_start writes them; None when the child did not write
    them)."""
    from verify import mutants

    start = time.perf_counter()
    with mutants.private_folder("uopc-matrix-") as root:
        try:
            copy = mutants.make_copy(mutant, root)
        except ValueError as error:
            return {"cells": {}, "error": str(error), "seconds": 0.0}
        cells, imported, todo = {}, [], letters.replace(OTHER[0], "")
        # the layers' compiles get a time limit far above the default (10 s per 1,000 lines),
        # which a loaded machine can reach: a catch must not depend on the machine's load
        # a fixed hash seed: the order of a set of strings, and so the path through the code,
        # is the same in every run (the skipping of cells relies on it, see run_rows)
        extra = {"UOPC_COMPILE_TIMEOUT": str(COMPILE_SECONDS), "PYTHONHASHSEED": "0"}
        if trace is not None:
            extra["UOPC_MATRIX_TRACE"] = str(root / "lines.json")
            extra["UOPC_MATRIX_WATCH"] = json.dumps(trace)
        env = mutants.child_env(root, full, extra)
        while todo:
            command = [sys.executable, "-m", "verify.mutant_matrix", "--child", todo]
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
                    why = plain(fields[4] if len(fields) > 4 else "", root)
                    cells[fields[1]] = (fields[2] == "x", float(fields[3]), why)
            todo = "".join(letter for letter in todo if letter not in cells)
            if todo:  # the process died inside the first layer it did not report
                cells[todo[0]] = (True, 0.0, f"the process died ({status}) in this layer")
                todo = todo[1:]
        lines = read_json(root / "lines.json") if trace is not None else None
        error = None
        wanted = str(copy / "__init__.py")
        if any(path != wanted for path in imported):
            error = f"the run imported {sorted(set(imported))}, not {wanted}"
        elif save is not None:
            for letter, cell in cells.items():
                save(letter, cell, None)
        if OTHER[0] in letters:
            files = other_files() if others is None else others
            other = mutants.run_suite(mutant, files, full, [], stop_first=True, order=order)
            caught = other["verdict"] == "caught"
            cells[OTHER[0]] = (caught, other["seconds"], other["detail"] if caught else "")
            if other["verdict"] == "ERROR":
                error = error or f"the other tests: {other['detail']}"
            elif save is not None:
                save(OTHER[0], cells[OTHER[0]], other)
        seconds = time.perf_counter() - start
        return {"cells": cells, "error": error, "seconds": seconds, "lines": lines}


def plain(why: str, root: Path) -> str:
    """An error line without the names of this run's temporary folders, which differ by run."""
    from verify import mutants

    return why.replace(str(root), "<copy>").replace(mutants.shared_cache(), "<C cache>")


# ---------------------------------------------------------------------------------------------
# The saved cells: one JSON file per verdict, named by the hash of what the verdict depends on
# ---------------------------------------------------------------------------------------------


def digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def package_digest() -> str:
    """Every file of uopc/, path and bytes: a bug's catch can depend on any module."""
    from verify import mutants

    whole = hashlib.sha256()
    for path in sorted(mutants.PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            whole.update(str(path.relative_to(mutants.PACKAGE)).encode() + b"\0")
            whole.update(hashlib.sha256(path.read_bytes()).digest())
    return whole.hexdigest()


def column_files(letter: str, others: list[str]) -> list[Path]:
    """The files a column's verdict depends on besides the package: the tests it runs (its
    layer's module or modules; for P every file it runs) and their helpers."""
    if letter == OTHER[0]:
        runs = [Path(name) for name in others]
    else:
        layers = {letter: functions for letter, _, functions in BOOK_LAYERS + EXTRA_LAYERS}
        runs = [TESTS / f"{module}.py" for module, _ in layers[letter]]
    return sorted({*runs, *(REPO / name for name in SUPPORT)})


def identity(mutant) -> list:
    if mutant is None:
        return ["the unmutated copy"]
    return [mutant.name, mutant.file, mutant.original, mutant.replacement]


def cell_keys(mutant, letters, size, package, others, files: dict) -> dict[str, str]:
    """{letter: the name of its saved cell}; files: a memo of file digests for this run."""
    keys = {}
    for letter in letters:
        parts = []
        for path in column_files(letter, others):
            if path not in files:
                files[path] = hashlib.sha256(path.read_bytes()).hexdigest()
            parts.append((path.name, files[path]))
        mode = ["plain"] if os.environ.get("UOPC_MATRIX_PLAIN") == "1" else []
        keys[letter] = digest(CELL_FORMAT, size, identity(mutant), package, letter, parts, *mode)
    return keys


def write_json(path: Path, data) -> None:
    """Atomically: a temporary file in the same folder, then renamed over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def load_cell(folder: Path, key: str):
    """A saved verdict (caught, seconds, why), or None."""
    data = read_json(folder / f"{key}.json")
    if not isinstance(data, dict) or set(data) < {"caught", "seconds", "why"}:
        return None
    return (bool(data["caught"]), float(data["seconds"]), str(data["why"]))


def first_catch_path(folder: Path, mutant) -> Path:
    """Where the tests of P that caught this mutant last time are kept (whatever the sources)."""
    return folder / "first" / f"{digest(identity(mutant))[:32]}.json"


def durations_path(folder: Path, size: str) -> Path:
    return folder / f"durations-{size}.json"


def p_order(mutant, folder: Path | None, size: str) -> dict:
    """The order of P's tests for this mutant (mutants.ordered): its last catches, the tests of
    the module it edits, and the tests slow in the last unmutated run."""
    if mutant is None or folder is None:
        return {}
    first = read_json(first_catch_path(folder, mutant)) or []
    durations = read_json(durations_path(folder, size)) or {}
    slow = sorted(node for node, seconds in durations.items() if seconds >= SLOW_TEST)
    return {"first": first, "own": f"tests/test_{Path(mutant.file).stem}.py", "slow": slow}


def read_hints(path: str | None) -> dict:
    """{planted bug's name: the tests of P that failed first on it}, from --hints, or {}."""
    data = read_json(Path(path)) if path else None
    if not isinstance(data, dict):
        return {}
    return {name: nodes for name, nodes in data.items() if isinstance(nodes, list)}


def seed_hints(hints: dict, folder: Path, mutant_list) -> None:
    """A planted bug with no saved first catches (a fresh clone) gets the hinted ones."""
    for mutant in mutant_list:
        nodes = hints.get(mutant.name)
        if nodes and not first_catch_path(folder, mutant).exists():
            write_json(first_catch_path(folder, mutant), nodes)


def new_hints(hints: dict, folder: Path, chosen, results) -> dict:
    """The hints after this run: for every bug P caught, the tests that failed first."""
    found = {}
    for (_, mutant), result in zip(chosen, results, strict=True):
        cell = result["cells"].get(OTHER[0])
        nodes = read_json(first_catch_path(folder, mutant)) or hints.get(mutant.name)
        if cell and cell[0] and nodes:
            found[mutant.name] = nodes
    return found


def cacheable(cell) -> bool:
    """A time-out depends on the machine's load: such a cell is run again next time."""
    return not any(text in cell[2] for text in ("LayerTimeout", "a time-out", "was stopped after"))


def lines_path(folder: Path, key: str, watched: dict) -> Path:
    """Where the lines that the unmutated copy ran in the cell `key`, of those watched, are
    kept (a new mutant watches new lines: the column runs again)."""
    return folder / "lines" / f"{digest(key, watched)}.json"


def seconds_path(folder: Path, size: str) -> Path:
    """The seconds of each cell last time it ran, by mutant and column: the order of the jobs."""
    return folder / "history" / f"seconds-{size}.json"


def save_durations(folder: Path, size: str, other: dict) -> None:
    """Keep the seconds of the tests of P that passed in this run, for the order of later runs
    (the slow ones last: p_order). Only that order depends on them, never a verdict; two
    workers that save at once may lose one's times, which costs at most some order."""
    failed = set(other["nodes"])
    times = {node: s for node, s in other["durations"].items() if node not in failed}
    known = read_json(durations_path(folder, size)) or {}
    write_json(durations_path(folder, size), {**known, **times})


def job(args) -> dict:
    """A worker's job: the cells of one mutant not saved yet, each saved as soon as known;
    traced (the unmutated copy's run of one column), the lines it ran are saved beside them."""
    mutant, letters, full, others, folder, keys, trace = args
    size = "full" if full else "quick"

    def current(letter) -> bool:
        # the sources as they are now: a file edited while this row ran (the working tree is
        # shared) would file the verdict under sources it was not made from
        return cell_keys(mutant, letter, size, package_digest(), others, {})[letter] == keys[letter]

    def save(letter, cell, other):
        if folder is None or not cacheable(cell):
            return
        if not current(letter):
            return
        caught, seconds, why = cell
        write_json(
            folder / f"{keys[letter]}.json",
            {"caught": caught, "seconds": seconds, "why": why, "letter": letter},
        )
        if other and mutant is not None and caught:
            write_json(first_catch_path(folder, mutant), other["nodes"][:3])
        if other:
            save_durations(folder, size, other)

    order = p_order(mutant, folder, size)
    result = run_layers(mutant, letters, full, others, order=order, save=save, trace=trace)
    if trace is not None and folder is not None and result["lines"] and not result["error"]:
        if len(letters) == 1 and letters in result["cells"] and current(letters):
            write_json(lines_path(folder, keys[letters], trace), result["lines"])
    return result


# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------


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
    """The matrix and its summary lines, as printed and as the book quotes them: the book
    calls the columns layers, so every line does too."""
    lines = matrix_lines(rows, columns)
    book = set("ABCDEFGHIJKL")
    if any(letter not in book for letter, _ in columns):
        book_once = [name for name, caught in rows if len(caught & book) == 1]
        lines.append(f"caught by exactly one of the layers A to L: {len(book_once)} of {len(rows)}")
    lines += ["", "caught by exactly one layer:"]
    for name, caught in rows:
        if len(caught) == 1:
            lines.append(f"  {name} (by {next(iter(caught))})")
            reason = SINGLE_REASONS.get(name) or GROUP_REASONS.get(name.split()[0])
            why = textwrap.wrap(reason or "not explained", 80)
            lines += [f"      why: {why[0]}", *(f"           {more}" for more in why[1:])]
    if not any(len(caught) == 1 for _, caught in rows):
        lines.append("  none")
    missed = [name for name, caught in rows if not caught]
    lines.append(f"caught by no layer: {', '.join(missed) if missed else 'none'}")
    book_missed = [name for name, caught in rows if not caught & book]
    lines.append(f"caught by none of A to L: {', '.join(book_missed) if book_missed else 'none'}")
    return lines


def first_check(letter: str, why: str, width: int = 100) -> str:
    """The letter of a catching cell and its first failing check, on one short line: the test
    of P, or a layer's error (for the unit layer, which lists all its failures, the first)."""
    parts = why.split(" | ")
    text = parts[0]
    if re.fullmatch(r"\w+: \d+ unit failures?:", text) and len(parts) > 1:
        text = f"{text} {parts[1]}"
    # a node's serial number (<CALL f32 #647>) depends on what the process built before, which
    # differs when only some columns of a row run again
    text = f"{letter}: {re.sub(r' #[0-9]+>', ' #n>', text)}"
    return text if len(text) <= width else text[: width - 3] + "..."


def caught_lines(chosen, results, letters) -> list[str]:
    """One line per planted bug: caught or survived, and the first column that caught it."""
    lines = ["planted bugs, each with the first column that caught it and its first failing check:"]
    caught = 0
    for (number, mutant), cells in zip(chosen, results, strict=True):
        first = next((letter for letter in letters if cells.get(letter, (False,))[0]), None)
        verdict = "caught" if first else "survived"
        detail = first_check(first, cells[first][2]) if first else "no column failed"
        lines.append(f"{number:>3} {verdict:<8} {mutant.name:<42} {detail}")
        caught += first is not None
    lines.append(f"MUTANTS {len(chosen)} {caught}")
    return lines


def check_report(lines: list[str]) -> tuple[dict, list[str]]:
    """The numbers the book quotes, read back from the printed report as a reader would, and
    what in it disagrees with itself (every per-layer total is its column's marks, the
    single-catcher list is as long as its count, the rows are as many as the total)."""
    text = "\n".join(lines) + "\n"
    problems = []
    once = re.search(r"^caught by exactly one layer: (\d+) of (\d+)$", text, re.M)
    listed = text.split("\ncaught by exactly one layer:\n", 1)[1]
    listed = len(re.findall(r"^  \S.* \(by \w+\)$", listed.split("\ncaught by no layer:")[0], re.M))
    book = re.search(r"^caught by exactly one of the layers A to L: (\d+) of \d+$", text, re.M)
    letters = re.search(r"^planted bug +([A-Z](?: [A-Z])*)  n$", text, re.M)[1].split()
    rows = [row.split() for row in re.findall(r"^.{43}((?:[x.] )*[x.])  \d+$", text, re.M)]
    totals = ", ".join(f"{c} {sum(row[i] == 'x' for row in rows)}" for i, c in enumerate(letters))
    printed = re.search(r"^caught by layer: (.*)$", text, re.M)[1]
    missed = re.search(r"^caught by no layer: (.*)$", text, re.M)[1]
    total, caught = (int(n) for n in re.findall(r"^MUTANTS (\d+) (\d+)$", text, re.M)[-1])
    if printed != totals:
        problems.append(f"the per-layer totals printed ({printed}) are not the rows' ({totals})")
    if listed != int(once[1]):
        problems.append(f"the single-catcher list has {listed} bugs, its count {once[1]}")
    if len(rows) != int(once[2]) or len(rows) != total:
        problems.append(f"{len(rows)} rows, but {once[2]} in the count and {total} in MUTANTS")
    numbers = {
        "mutants_total": total,
        "mutants_caught": caught,
        "mutants_single_catcher": int(once[1]),
        "mutants_matrix_total": int(once[2]),
        "mutants_single_layer": listed,
        "mutants_single_book_layer": int(book[1]) if book else int(once[1]),
        "mutants_matrix_rows": len(rows),
        "mutants_missed": 0 if missed == "none" else len(missed.split(", ")),
    }
    return numbers, problems


MEANINGS = {
    "mutants_total": "planted bugs run against the tests (one textual edit each)",
    "mutants_caught": "planted bugs that some column of the matrix caught, out of mutants_total",
    "mutants_single_catcher": "planted bugs caught by exactly one column of the matrix, out of"
    " mutants_matrix_total",
    "mutants_matrix_total": "planted bugs in the matrix, the N of 'caught by exactly one layer:"
    " K of N'",
    "mutants_single_layer": "planted bugs in the printed list of those caught by exactly one"
    " column (equal to mutants_single_catcher)",
    "mutants_single_book_layer": "planted bugs caught by exactly one of the book's layers A to"
    " L, out of mutants_matrix_total",
    "mutants_matrix_rows": "rows of the printed matrix, one per planted bug",
    "mutants_missed": "planted bugs caught by no column of the matrix (0 in a good run)",
}


def state_numbers(numbers: dict, prefix: str = "mutants", how: str = "") -> None:
    """The numbers of the report, as <prefix>_<name>: a run with other columns or another mode
    (--prefix) states its own keys, `how` saying which run in their meanings."""
    from book import protocol

    for key, value in numbers.items():
        meaning = f"{how}: {MEANINGS[key]}" if how else MEANINGS[key]
        protocol.state(key.replace("mutants", prefix, 1), value, meaning)


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def parse(argv):
    parser = argparse.ArgumentParser(description="run every layer on every planted bug")
    parser.add_argument("--full", action="store_true", help="the layers at the book's sizes")
    parser.add_argument("--book-layers", action="store_true", help="columns A to L only")
    parser.add_argument("--only", nargs="+", default=[], help="mutants by number or name part")
    parser.add_argument("--layers", help="only these columns, by letter (e.g. ACP); all by default")
    parser.add_argument("--workers", type=int, default=2, help="mutants run at once (2)")
    parser.add_argument("--details", help="write every failing cell's first error line here")
    parser.add_argument("--fresh", action="store_true", help="run every cell, saved or not")
    parser.add_argument("--cells", default=str(CELLS), help="the saved cells' folder")
    parser.add_argument(
        "--no-skip",
        dest="skip",
        action="store_false",
        help="run every cell, also those whose column never runs the lines the bug edits",
    )
    parser.add_argument("--hints", help="P's first failing tests by planted bug: read, then saved")
    parser.add_argument(
        "--plain", action="store_true", help="the plain code alone, without the speed overlay"
    )
    parser.add_argument("--prefix", help="state the numbers as PREFIX_* (another run's keys)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser, parser.parse_args(argv)


def chosen_columns(parser, options) -> list[tuple[str, str]]:
    columns = [(letter, name) for letter, name, _ in BOOK_LAYERS]
    if not options.book_layers:
        columns += [(letter, name) for letter, name, _ in EXTRA_LAYERS]
        columns += [] if options.plain else [OTHER]
    if options.layers:
        unknown = set(options.layers) - {letter for letter, _ in columns}
        if unknown:
            parser.error(f"--layers: no column {', '.join(sorted(unknown))}")
        columns = [(letter, name) for letter, name in columns if letter in options.layers]
    return columns


def ran_lines(data) -> dict | None:
    """The saved record of a traced run as {"lines": {file under uopc/: set of lines that
    ran}, "watched": {file: set of lines watched}}; None when it cannot be trusted for skipping
    (missing, or the run started a Python process)."""
    if not isinstance(data, dict) or data.get("python_children", 1) != 0:
        return None
    return {
        part: {name: set(lines) for name, lines in data.get(part, {}).items()}
        for part in ("lines", "watched")
    }


def watch_lines(mutant, text: str | None) -> set[int] | None:
    """The lines of the unmutated file whose run means the mutant's edit may be reached (see
    verify/coverage_lines.py), or None when the mutant is never skipped: the control (it shows
    that the harness tells a survivor, so it always runs), a file that is not Python, an edit
    reached by every run, or a target that is not there once (the run says what is wrong with
    it). For a file whose path depends on state outside the run, the lines include the first
    statements of the functions through which that state comes in (coverage_lines.entries)."""
    from verify import coverage_lines

    if mutant is None or mutant.group == "control" or text is None:
        return None
    if not mutant.file.endswith(".py"):
        return None
    if text.count(mutant.original) != 1:
        return None
    return coverage_lines.watch(text, mutant.original, coverage_lines.entries(mutant.file))[0]


def skip_reason(mutant, ran: dict | None, text: str | None) -> str | None:
    """Why the cell of this mutant in a column whose unmutated run is `ran` (see ran_lines)
    cannot catch it: the column never ran a line the edit may be reached from; or None when the
    cell must run (also when those lines were not all watched in that run). text: the
    unmutated file the mutant edits."""
    from verify import coverage_lines

    watched = watch_lines(mutant, text)
    if watched is None or ran is None or not watched <= ran["watched"].get(mutant.file, set()):
        return None
    lines = ran["lines"].get(mutant.file, set())
    entry = coverage_lines.entries(mutant.file)
    reached, why = coverage_lines.reached(text, mutant.original, lines, entry)
    return None if reached else why


def longest_first(jobs: list, estimate) -> list[int]:
    """The places of jobs, the longest expected first: with each worker taking the next job
    when it is free, both stay busy to the end (no long job starts last)."""
    return sorted(range(len(jobs)), key=lambda place: -estimate(jobs[place]))


def run_rows(mutant_list, letters, options, others) -> tuple[list[dict], dict]:
    """Every row's cells, from the saved cells where they are there, from runs where not, and
    (not caught) where a column cannot reach the mutant's edit; mutant_list[0] is None, the
    unmutated copy. (results, counts); a result holds the row's cells and error, counts the
    cells run, reused and skipped, and the seconds of the unmutated copy's runs.

    In three steps. First the unmutated copy, each column but P in a process of its own (the
    two workers share them) with its lines recorded: a column that fails there cannot judge a
    mutant, and its lines say which mutants it can reach. Then the control and the mutants,
    one job per mutant, with the unmutated copy's untraced columns (--no-skip), the longest
    expected first; a cell whose column never ran the lines its mutant edits is not run
    (skip_reason) and counts as not caught, as its run would. Last the control's P, on the
    tests of P that caught a bug (control_other)."""
    from verify import mutants

    folder, size = Path(options.cells), "full" if options.full else "quick"
    package, files = package_digest(), {}
    keys = [cell_keys(mutant, letters, size, package, others, files) for mutant in mutant_list]
    results = [{"cells": {}, "error": None, "skipped": {}} for _ in mutant_list]
    history = read_json(seconds_path(folder, size)) or {}
    counts = {"run": 0, "reused": 0, "skipped": 0, "baseline": 0.0}

    def name(mutant, letter) -> str:
        return f"{digest(identity(mutant))[:32]}:{letter}"

    def run(jobs, places, estimate):
        order = longest_first(jobs, estimate)
        done = mutants.run_pool(job, [jobs[i] for i in order], options.workers) if jobs else []
        for i, result in zip(order, done, strict=True):
            place = places[i]
            results[place]["cells"].update(result["cells"])
            if result["error"]:
                results[place]["error"] = "; ".join(filter(None, [results[place]["error"],
                                                                  result["error"]]))  # fmt: skip
            for letter, cell in result["cells"].items():
                history[name(mutant_list[place], letter)] = cell[1]
            counts["run"] += len(jobs[i][1])
            yield jobs[i], result

    def saved(place, letter):
        return None if options.fresh else load_cell(folder, keys[place][letter])

    texts = {}
    for mutant in mutant_list[1:]:
        if mutant.file not in texts:
            path = mutants.PACKAGE / mutant.file
            texts[mutant.file] = path.read_text(encoding="utf-8") if path.is_file() else None
    watched: dict[str, set[int]] = {}  # every line some mutant's edit may be reached from
    for mutant in mutant_list[1:]:
        lines = watch_lines(mutant, texts[mutant.file])
        if lines:
            watched.setdefault(mutant.file, set()).update(lines)
    watched = {file: sorted(lines) for file, lines in sorted(watched.items())}

    # 1. the unmutated copy, a job per column but P (for P, the control's run in step 3),
    # traced; untraced columns (--no-skip) go with the mutants' jobs
    traced = {letter: options.skip and letter != OTHER[0] for letter in letters}
    ran: dict[str, dict | None] = {}
    jobs, places, later = [], [], []
    for letter in letters.replace(OTHER[0], ""):
        cell = saved(0, letter)
        lines = None
        if cell is not None and traced[letter]:
            lines = read_json(lines_path(folder, keys[0][letter], watched))
            cell = cell if lines is not None else None
        if cell is not None:
            results[0]["cells"][letter] = cell
            ran[letter] = ran_lines(lines)
            counts["reused"] += 1
        elif traced[letter]:
            jobs.append((None, letter, options.full, others, folder, keys[0], watched))
            places.append(0)
        else:
            later.append(letter)
    start = time.perf_counter()
    first = lambda j: history.get(name(None, j[1]), FIRST_GUESS.get(j[1], 1.0))  # noqa: E731
    for (_, letter, *_), result in run(jobs, places, first):
        ran[letter] = ran_lines(result["lines"]) if traced[letter] else None
    counts["baseline"] = time.perf_counter() - start
    clean = not results[0]["error"]

    # 2. the control and the mutants, each cell reused, skipped or run
    jobs = [(None, letter, options.full, others, folder, keys[0], None) for letter in later]
    places = [0] * len(jobs)
    for place, mutant in enumerate(mutant_list[1:], start=1):
        cells, todo = results[place]["cells"], ""
        for letter in letters:
            if letter == OTHER[0] and mutant.group == "control":
                continue  # step 3, once the tests of P that caught a bug are known
            cell = saved(place, letter)
            base = results[0]["cells"].get(letter)
            why = None
            if cell is None and clean and base is not None and not base[0]:
                why = skip_reason(mutant, ran.get(letter), texts[mutant.file])
            if cell is not None:
                cells[letter] = cell
                counts["reused"] += 1
            elif why is not None:
                cells[letter] = (False, 0.0, "")
                results[place]["skipped"][letter] = why
                counts["skipped"] += 1
            else:
                todo += letter
        if todo:
            jobs.append((mutant, todo, options.full, others, folder, keys[place], None))
            places.append(place)

    def guess(mutant, letter) -> float:
        if letter != OTHER[0]:  # as long as the unmutated copy's run, or less
            return results[0]["cells"].get(letter, (0, 1.0))[1]
        return 5.0  # P: a planted bug stops at its first catch

    def estimate(j):
        mutant, todo = j[0], j[1]
        if mutant is None:
            return first(j)
        return sum(history.get(name(mutant, c), guess(mutant, c)) for c in todo)

    for _ in run(jobs, places, estimate):
        pass

    # 3. the control's P: every test of P that caught a planted bug must pass without the bug
    for place, mutant in enumerate(mutant_list[1:], start=1):
        if OTHER[0] in letters and mutant.group == "control":
            cell, error, ran = control_other(mutant, results[1:], options, others, keys[place])
            results[place]["cells"][OTHER[0]] = cell
            results[place]["error"] = results[place]["error"] or error
            counts["run" if ran else "reused"] += 1
            history[name(mutant, OTHER[0])] = cell[1]
    if options.cells:
        write_json(seconds_path(folder, size), history)
    return results, counts


def catching_tests(rows: list[dict]) -> list[str]:
    """The tests of P that caught a planted bug, as the rows' P cells name them (each bug's first
    failing test; a file whose collection failed stands as the file), sorted and once each."""
    nodes = set()
    for row in rows:
        cell = row["cells"].get(OTHER[0])
        if cell and cell[0]:
            nodes.add(re.sub(r" \((setup|teardown|collection)\)$", "", cell[2]))
    return sorted(nodes)


def control_other(control, rows, options, others, keys) -> tuple[tuple, str | None, bool]:
    """The control's cell of P, its error, and whether it ran (else it was saved): the tests of
    P that caught a planted bug in rows (catching_tests), run on the control's copy at the
    row's size. A mark in P means that a test failed with the bug in; this shows that each such
    test passes without it (the edit is in a comment: the code that runs is the unmutated
    copy's), which is what makes the mark the bug's. The whole of P on the unmutated code runs
    in the build's test row (tests/counts), not here: a run of every test, most of which
    caught nothing, was a quarter of the matrix's time."""
    from verify import mutants

    nodes = catching_tests(rows)
    folder, size = Path(options.cells), "full" if options.full else "quick"
    key = digest(keys[OTHER[0]], nodes)
    cell = None if options.fresh else load_cell(folder, key)
    if cell is not None:
        return cell, None, False
    if not nodes:
        return (False, 0.0, ""), None, True  # no test of P caught a bug: none to run
    # the node ids are relative to the repository (pytest's rootdir), and the run's cwd is the
    # copy: each id's file by its full path, the rest as it is (a Path would fold the // of a
    # test id such as test_rule_fires[(x//c1)//c2-...] into one /, which names no test)
    targets = [f"{REPO}/{node}" for node in nodes]
    other = mutants.run_suite(control, targets, options.full, [], stop_first=True)
    caught = other["verdict"] == "caught"
    cell = (caught, other["seconds"], other["detail"] if caught else "")
    if other["verdict"] == "ERROR":
        return cell, f"the other tests: {other['detail']}", True
    now = cell_keys(control, OTHER[0], size, package_digest(), others, {})[OTHER[0]]
    if options.cells and cacheable(cell) and now == keys[OTHER[0]]:
        saved = {"caught": caught, "seconds": cell[1], "why": cell[2], "letter": OTHER[0]}
        write_json(folder / f"{key}.json", saved)
        save_durations(folder, size, other)
    return cell, None, True


def shown_folder(folder: str) -> str:
    """The saved cells' folder as the report names it: under the checkout, relative to it (the
    line then reads the same in every clone)."""
    path = Path(folder).resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def main(argv=None) -> int:
    from verify import mutants

    parser, options = parse(argv)
    if options.child:
        return child(options.child)
    columns = chosen_columns(parser, options)
    letters = "".join(letter for letter, _ in columns)
    if options.plain:  # read by the cells' keys and by every child (mutants.child_env)
        os.environ["UOPC_MATRIX_PLAIN"] = "1"
    chosen = mutants.select(options.only)
    size = "full" if options.full else "quick"
    start = time.perf_counter()

    others = other_files()  # listed once: a file added during the run cannot count
    everything = [None, mutants.CONTROL, *(mutant for _, mutant in chosen)]
    hints = read_hints(options.hints)
    seed_hints(hints, Path(options.cells), everything[2:])
    with mutants.bytecode_cache():
        results, counts = run_rows(everything, letters, options, others)
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
            elif letter in result["skipped"]:
                why = result["skipped"][letter]
                details.append(f"{number:>3} {mutant.name} | {letter} | not run: {why}")

    lines = report_lines(rows, columns)
    for (number, mutant), (_, caught) in zip(chosen, rows, strict=True):
        # with --book-layers, a bug of our own or in the further rules (off in every book layer)
        # outside the layers' reach may go unmarked; with
        # --layers, any bug may escape the few columns chosen
        reach = options.book_layers or options.plain  # P's bugs may go unmarked
        partial = options.layers or (reach and mutant.group in ("own", "further"))
        if not caught and not partial:
            problems.append(f"mutant {number} ({mutant.name}) escapes every column")
    control_caught = sorted(letter for letter, cell in control["cells"].items() if cell[0])
    if control["error"] or control_caught:
        why = control["error"] or "; ".join(
            f"{c}: {control['cells'][c][2]}" for c in control_caught
        )
        problems.append(f"the control was caught by {control_caught}: {why}")
    else:
        of_p = ""
        if OTHER[0] in letters:
            tried = len(catching_tests(results))
            of_p = f" (of P, the {tried} tests that caught a planted bug: each passed)"
        lines.append(f"control ({mutants.CONTROL.name}): caught by no layer, as it must{of_p}")
    lines.append(f"sizes: {size}; {len(rows)} mutants")
    lines += ["", *caught_lines(chosen, [r["cells"] for r in results], letters)]
    for text in lines:
        print(text)
    numbers, inconsistent = check_report(lines)
    problems += inconsistent
    how = " ".join(f"--{word}" for word in ("plain", "full") if getattr(options, word))
    how += f" --layers {options.layers}" if options.layers else ""
    prefix = options.prefix or "mutants"
    state_numbers(numbers, prefix, f"in the run {how.strip()}" if options.prefix else "")

    layer_seconds = {
        letter: sum(r["cells"].get(letter, (0, 0.0))[1] for r in results) for letter in letters
    }
    print(
        "seconds per layer, summed over the mutants: "
        + ", ".join(f"{letter} {seconds:.0f}" for letter, seconds in layer_seconds.items())
        + f" {MACHINE_MARK}"
    )
    print(
        f"total time: {time.perf_counter() - start:.0f} s, {options.workers} at a time; cells run"
        f" {counts['run']}, reused {counts['reused']} (from {shown_folder(options.cells)}), skipped"
        f" {counts['skipped']} (never reached); unmutated copy with probes"
        f" {counts['baseline']:.0f} s {MACHINE_MARK}"
    )
    if options.details:
        Path(options.details).write_text("\n".join(details) + "\n", encoding="utf-8")
    if options.hints and not options.only and OTHER[0] in letters:  # a whole run: all hints
        write_json(Path(options.hints), new_hints(hints, Path(options.cells), chosen, results))
    for problem in problems:
        print(f"PROBLEM: {problem}")
    return 1 if problems else 0


def entry() -> int:
    """The command line (tests/mutant_matrix.py, or the child: python -m verify.mutant_matrix)."""
    if "--child" in sys.argv:  # the child dies with its parent's copy; the parent cleans up
        return main()
    from verify import mutants

    mutants.clean_up_on_signals()
    try:
        return main()
    except mutants.Terminated as stop:
        print(f"mutant_matrix.py: {stop}; the private copies are removed", file=sys.stderr)
        return 128 + signal.SIGTERM


if __name__ == "__main__":
    sys.exit(entry())
