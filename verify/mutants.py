"""Planted bugs (verification.md §9): each one textual edit, each one must make the suite fail.

    python -m verify.mutants [--full] [--only NAME_OR_NUMBER ...] [--workers 2] [--all-files]
                            [--files test_x.py ...]

A mutant is (name, file, exact original text, replacement). It is applied to a private copy of
`uopc` in a temporary directory, never to the working tree, and the pytest suite runs against
the copy in a fresh process: cwd = the temporary directory and PYTHONPATH = the copy first, so
that `import uopc` finds the copy (a run started from the repository root would find the working
tree instead, and every mutant would silently pass). The run records `uopc.__file__` after
collection; a run that imported anything but the copy is an ERROR.

Verdicts:
  caught    the suite failed; the first failing test is named. pytest runs with `-x` over the
            test files in a fixed order: the unit layer, the pipeline layers, the memory layer
            (the book's layers, in the book's order), then every other test file of the
            package by name (the tests of the book's production, book/producers.py's
            BOOK_TESTS, only with `--all-files`).
  survived  the whole suite passed: a hole in the suite (or an equivalent mutant).
  ERROR     neither: the original text does not occur exactly once (a target that moved
            silently tests nothing), the edit does not compile, the run imported the working
            tree, or pytest itself broke or timed out.

Before the mutants, the unmutated copy is run once (the baseline): a test that already fails
there cannot tell anything about a mutant, so it is deselected and named in a warning. A no-op
control (an edited comment) runs beside the mutants and must survive, which shows that the
harness can tell a survivor from a catch. The last line is `MUTANTS <total> <caught>`; the exit
status is non-zero when a mutant survives or is an ERROR, or the control is caught.

The book's build does not run this program: tests/mutant_matrix.py runs every planted bug
against every layer and the other tests once, and prints this list (and its MUTANTS line) too.
This command line stays for a developer, who may want the whole suite at once or every catch.

Loaded by pytest as a plugin (`-p verify.mutants`, the checkout last on PYTHONPATH), the hooks
at the end of this file record the imported package and the first failure for the harness.
Nothing here imports `uopc` at module level, so the plugin never imports the package before the
suite does.
"""

import argparse
import concurrent.futures
import contextlib
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
PACKAGE = REPO / "uopc"

# The book's layers first, in the book's order, so that the first catch is usually a layer.
FIRST_FILES = ("test_rules_unit.py", "test_pipeline.py", "test_memory.py")
NOT_RUN = ("test_mutants.py",)  # the planted-bug tests themselves
TIMEOUT = 1800  # seconds for one pytest run; the quick suite takes about one minute
PYCACHE = "UOPC_MATRIX_PYCACHE"  # the children's bytecode cache (bytecode_cache)
# pytest plugins a run does without: the cache of the last failures (each copy is new), and
# Hypothesis's, which no test uses but which imported all of Hypothesis at the end of every
# run (about a fifth of a P cell that stops at its first test)
UNUSED_PLUGINS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


class Mutant(NamedTuple):
    name: str
    file: str  # relative to uopc/
    original: str
    replacement: str
    group: str  # "book" (verification.md §9.3), "rule" (one per strict rule), "own", "further"


def book(name, file, original, replacement):
    return Mutant(name, file, original, replacement, "book")


def rule(name, original, replacement):
    return Mutant(name, "symbolic.py", original, replacement, "rule")


def own(name, file, original, replacement):
    return Mutant(name, file, original, replacement, "own")


def further(name, original, replacement):
    return Mutant(name, "further.py", original, replacement, "further")


# fmt: off
# The 19 planted bugs of verification.md §9.3, names exactly as in its table.
BOOK = [
    book("division split ignores overflow", "symbolic.py",
         "if c <= 0 or not d.safe:", "if c <= 0:"),
    book("split remainder may overflow", "symbolic.py",
         "    if r is not None and not r.safe:\n        return None\n", ""),
    book("x+0.0 -> x on floats", "symbolic.py",
         "return x if c.arg == 0.0 and math.copysign(1.0, c.arg) < 0 else None",
         "return x if c.arg == 0.0 else None"),
    book("float MAX is reordered", "symbolic.py",
         "    if u.op is Ops.MAX and u.dtype is F32:\n        return None\n", ""),
    book("mod bucket off by one", "symbolic.py",
         "x.vmin // c.arg != x.vmax // c.arg", "x.vmin // c.arg != (x.vmax - 1) // c.arg"),
    book("ADD range one too small", "ranges.py",
         "srcs[0][1] + srcs[1][1], safe)", "srcs[0][1] + srcs[1][1] - 1, safe)"),
    book("FLOORMOD range one too small", "ranges.py", "(0, c - 1, safe)", "(0, c - 2, safe)"),
    book("x*-1 -> x", "symbolic.py",
         "return -x if c.arg == -1 else None", "return x if c.arg == -1 else None"),
    book("(x//c1)//c2 as x//(c1+c2)", "symbolic.py",
         "return x // const(c1.arg * c2.arg)", "return x // const(c1.arg + c2.arg)"),
    book("MUL range ignores overflow", "ranges.py",
         "return _fit(min(products), max(products), safe)",
         "return (min(products), max(products), safe)"),
    book("const fold reverses operands", "fold.py",
         "[s.arg for s in u.src]", "[s.arg for s in reversed(u.src)]"),
    book("inline picks the wrong argument", "fold.py",
         "return ctx[p.arg.slot]", "return ctx[(p.arg.slot + 1) % len(ctx)]"),
    book("C: float->int cast not saturating", "render.py",
         'return f"f32_to_i32({a})"', 'return f"((int32_t){a})"'),
    book("C: floor division uses C's /", "render.py",
         "return u.src[0].vmin >= 0 and u.src[1].vmin > 0", "return True"),
    book("C: plain / allowed when divisor may be 0", "render.py",
         "and u.src[1].vmin > 0", "and u.src[1].vmin >= 0"),
    book("C: max of floats uses fmaxf", "render.py",
         'return f"({a} - {b} > 0.0f) ? {a} : {b}"', 'return f"fmaxf({a}, {b})"'),
    book("text format drops min/max bounds", "textfmt.py",
         "return fields + [(key, bound) for key, bound in bounds if bound is not None]",
         "return fields"),
    book("hash cons key ignores sign of zero", "uop.py",
         'return ("f32", f32_bits(arg))', 'return ("f32", float(arg))'),
    book("AFTER dropped from the renderer's order", "builder.py",
         "pointer = UOp(Ops.AFTER, (self.version, *self.readers)) if self.readers else "
         "self.version", "pointer = self.version"),
]

# One plausible wrong edit for every strict rule that no book mutant edits (a book mutant
# "breaks" a rule when its edit lies inside the rule's decorator or function). Each changes
# some result: a rule that only fires less never gives a wrong answer (§9.5), so where the only
# plausible bug is firing too broadly, the guard or the pattern is loosened.
RULES = [
    rule("rule range is a point: bool becomes int",
         "const(bool(vmin) if u.dtype is BOOL else vmin)", "const(vmin)"),
    rule("rule max by range: compares the tops",
         "if a.vmin >= b.vmax:", "if a.vmax >= b.vmax:"),
    rule("rule x*1: fires for -1 too",
         "return x if c.arg == 1 else None", "return x if abs(c.arg) == 1 else None"),
    rule("rule x+0 (int): also on floats",
         '@rule("x+0 (int)", UPat(Ops.ADD, dtype=INT,',
         '@rule("x+0 (int)", UPat(Ops.ADD, dtype=(I32, F32),'),
    rule("rule -(-x): inner op not checked",
         "UPat(Ops.NEG, src=(UPat(Ops.NEG, src=(var(\"x\"),)),))",
         "UPat(Ops.NEG, src=(UPat(src=(var(\"x\"),)),))"),
    rule("rule -(x*c): float constant wrapped",
         "x * const(wrap32(-c.arg) if x.dtype is I32 else -c.arg)", "x * const(wrap32(-c.arg))"),
    rule("rule x+(-x) (int): also on floats",
         '@rule("x+(-x) (int)", UPat(Ops.ADD, dtype=INT, src=(var("x"), UPat(Ops.NEG, '
         'src=(var("x"),)))), SYM)\ndef add_own_negation(x):\n    return const(0)',
         '@rule("x+(-x) (int)", UPat(Ops.ADD, dtype=(I32, F32), src=(var("x"), UPat(Ops.NEG, '
         'src=(var("x"),)))), SYM)\ndef add_own_negation(x):\n'
         "    return const(0.0 if x.dtype is F32 else 0)"),
    rule("rule max(x,x): MUL taken as idempotent",
         '@rule("max(x,x)", UPat(Ops.MAX,', '@rule("max(x,x)", UPat((Ops.MAX, Ops.MUL),'),
    rule("rule x<x: x!=x also false",
         '@rule("x<x", UPat(Ops.CMPLT,', '@rule("x<x", UPat((Ops.CMPLT, Ops.CMPNE),'),
    rule("rule cast to own dtype: int/bool no-op",
         "return x if x.dtype is u.dtype else None",
         "return x if F32 not in (x.dtype, u.dtype) else None"),
    rule("rule x*True (bool): XOR too",
         '@rule("x*True (bool)", UPat(Ops.MUL, dtype=BOOL,',
         '@rule("x*True (bool)", UPat((Ops.MUL, Ops.CMPNE), dtype=BOOL,'),
    rule("rule where(const,a,b): branches swapped",
         "return a if c.arg else b", "return b if c.arg else a"),
    rule("rule where(c,a,a): equal constants merged",
         'src=(var("c"), var("a"), var("a"))), SYM)\ndef where_same(c, a):\n    return a',
         'src=(var("c"), var("a"), var("b"))), SYM)\ndef where_same(c, a, b):\n'
         "    equal = a.op is Ops.CONST and b.op is Ops.CONST and a.arg == b.arg\n"
         "    return a if a is b or equal else None"),
    rule("rule where(c,True,False): swapped test",
         "return c if t.arg is True and f.arg is False else None",
         "return c if t.arg is False and f.arg is True else None"),
    rule("rule where(c,False,True): c != False",
         "return c.ne(const(True)) if", "return c.ne(const(False)) if"),
    rule("rule (x+c1)+c2: sum not wrapped",
         "return x + const(wrap32(c1.arg + c2.arg))", "return x + const(c1.arg + c2.arg)"),
    rule("rule (x*c1)*c2: constants added",
         "return x * const(wrap32(c1.arg * c2.arg))", "return x * const(wrap32(c1.arg + c2.arg))"),
    rule("rule (x+c1)*c2: c1 not scaled",
         "return x * c2 + const(wrap32(c1.arg * c2.arg))", "return x * c2 + c1"),
    rule("rule x//c trivial: x//0 gives x",
         "return const(0) if c.arg == 0 else None", "return x if c.arg == 0 else None"),
    rule("rule x%c trivial: x%0 gives 0",
         "    if c.arg == 0:\n        return x\n    return const(0) if c.arg in (1, -1)",
         "    if c.arg == 0:\n        return const(0)\n    return const(0) if c.arg in (1, -1)"),
    rule("rule (x%c1)%c2: divisibility reversed",
         "c1.arg % c2.arg == 0", "c2.arg % c1.arg == 0"),
    rule("rule (a*c1+b)//c2: r//c dropped",
         "return q if r is None else q + r // c", "return q"),
    rule("rule (a*c1+b)%c2: r%c taken as r",
         "return const(0) if r is None else r % c", "return const(0) if r is None else r"),
]

# Beyond the book: bugs in the renderer, the runtime, the builder, the text format and the
# reference interpreter, the parts that the rule mutants never touch; and bugs in the contract
# itself (semantics.py), which every reference of the interpreter, folding and the layers
# follows, so that only a check written against another source can catch them: NumPy, the C
# reference (tests/ref_ops.c) and the compiled C.
OWN = [
    own("contract: FLOORMOD has the dividend's sign", "semantics.py",
        "return a if b == 0 else a - b * (a // b)",
        "return a if b == 0 else int(math.fmod(a, b))"),
    own("contract: float to int wraps past INT_MAX", "semantics.py",
        "            return INT_MAX\n", "            return INT_MIN\n"),
    own("contract: CMPNE false at nan", "semantics.py",
        "Ops.CMPNE: lambda a, b: a != b,", "Ops.CMPNE: lambda a, b: a != b and a == a,"),
    own("contract: float MAX keeps a nan in a", "semantics.py",
        "    return a if a > b else b", "    return b if b > a else a"),
    own("C: INT_MIN literal without brackets", "render.py",
        'return "(-2147483647 - 1)"', 'return "-2147483647 - 1"'),
    own("C: float literal with %.6g", "render.py",
        'text = f"{value:.9g}"', 'text = f"{value:.6g}"'),
    own("runtime: bool passed as c_int8", "runtime.py",
        "CTYPE = {BOOL: ctypes.c_bool,", "CTYPE = {BOOL: ctypes.c_int8,"),
    own("runtime: cache key ignores the flags", "runtime.py",
        '"\\0".join([cc, compiler_version(cc), *flags, src])',
        '"\\0".join([cc, compiler_version(cc), src])'),
    own("builder: a load skips earlier stores", "builder.py",
        "UOp(Ops.INDEX, (self.version, _index(i)))", "UOp(Ops.INDEX, (self.base, _index(i)))"),
    own("text: float values written with %g", "textfmt.py",
        "    return repr(value)\n",
        '    return repr(value) if isinstance(value, int) else f"{value:g}"\n'),
    own("interp: float input not rounded to f32", "interp.py",
        "F32: lambda value, where: f32(float(value)),", "F32: lambda value, where: float(value),"),
    own("interp: call body sees the caller's env", "interp.py",
        "return evaluate(node.src[0], arguments)", "return evaluate(node.src[0], env)"),
    own("speed: rebuild keeps dtype over new dtypes", "speed/node.py",
        "        if src[0].dtype is not old[0].dtype or src[1].dtype is not old[1].dtype:\n",
        "        if False:\n"),
    own("speed: dtype table gives src 0's dtype", "speed/node.py",
        "dtype = check(op, (_Value(first), _Value(second)), None)",
        "dtype = check(op, (_Value(first), _Value(second)), None) and first"),
]

# Beyond the book: one or more plausible slips per family of the further rules (uopc/further.py,
# off by default). The layers A to L simplify with the book's rules, so tests/test_further.py,
# which runs them with the set on, is where these must be caught.
FURTHER = [
    further("further recombine: c2 may be negative",
            "c1 <= 0 or c2 <= 0 or c1 * c2 > INT_MAX", "c1 <= 0 or c1 * c2 > INT_MAX"),
    further("further recombine: factor m not checked",
            "if terms.get(pair) == c * m:", "if terms.get(pair) is not None:"),
    further("further like terms: -x read as x",
            "stack.append((node.src[0], -k))", "stack.append((node.src[0], k))"),
    further("further (x*c)*y: the sign dropped",
            "return -(inner.src[0] * other)", "return inner.src[0] * other"),
    further("further (x%(c1*c2))//c1: c1 < 0 taken",
            "if c.arg > 0 and m.arg > 0 and m.arg % c.arg == 0:",
            "if c.arg != 0 and m.arg > 0 and m.arg % c.arg == 0:"),
    further("further (x*c1)%c2: x*c1 may wrap",
            "c2.arg % c1.arg == 0 and p.safe:", "c2.arg % c1.arg == 0:"),
    further("further sum split: d may wrap",
            "if abs(c) < 2 or not d.safe:", "if abs(c) < 2:"),
    further("further x!=x: also on floats",
            'UPat(Ops.CMPNE, src=(var("x", dtype=INT), var("x")))',
            'UPat(Ops.CMPNE, src=(var("x"), var("x")))'),
    further("further x+c<n: x + c may wrap",
            "if d.safe and INT_MIN <= n.arg - c.arg <= INT_MAX:",
            "if INT_MIN <= n.arg - c.arg <= INT_MAX:"),
    further("further a*c+b<n: the rest may reach c",
            "0 <= r.vmin and r.vmax < c else None", "0 <= r.vmin and r.vmax <= c else None"),
]
# fmt: on

MUTANTS = BOOK + RULES + OWN + FURTHER

# The harness's own check: a comment edited. It must survive, or the harness cannot tell.
CONTROL = Mutant(
    "control: a comment edited (must survive)",
    "symbolic.py",
    "# x*1 -> x, exact even for nan and both zeros",
    "# x*1 -> x (a comment edited by the mutation harness's control run)",
    "control",
)


# ---------------------------------------------------------------------------------------------
# A killed run cleans up: SIGTERM becomes an exception, so every `finally` runs
# ---------------------------------------------------------------------------------------------


class Terminated(BaseException):
    """SIGTERM (or SIGINT) arrived. A BaseException, so that no `except Exception` eats it."""


HOLD = {"depth": 0, "pending": None}  # while depth > 0, a stop waits in pending
FOLDERS = itertools.count()  # with the process id, a name no other folder of a run has had


def _terminated(signum, frame):
    if HOLD["depth"]:
        HOLD["pending"] = signum
        return
    raise Terminated(f"stopped by {signal.Signals(signum).name}")


def _release() -> None:
    HOLD["depth"] -= 1
    if not HOLD["depth"] and HOLD["pending"]:
        signum, HOLD["pending"] = HOLD["pending"], None
        _terminated(signum, None)


@contextlib.contextmanager
def private_folder(prefix: str):
    """A temporary folder, removed however the block ends. A stop that arrives while it is
    made or removed waits until that is done: no folder is left made but not yet owned by the
    `finally`, or half removed."""
    HOLD["depth"] += 1
    root = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-{next(FOLDERS)}-"))
    try:
        _release()  # a stop that arrived meanwhile is raised here, inside the `try`
        yield root
    finally:
        HOLD["depth"] += 1
        try:
            shutil.rmtree(root, ignore_errors=True)
            if os.environ.get(PYCACHE):  # the copy's bytecode goes with the copy
                shutil.rmtree(mirror(root), ignore_errors=True)
        finally:
            _release()


BYTECODE = REPO / "build" / "mutant-pycache"  # bytecode_cache's folder (build/ is not committed)


def mirror(path: Path, cache: str | None = None) -> Path:
    """Where a child's bytecode of the files under path goes, in the cache (PYTHONPYCACHEPREFIX
    keeps a source's bytecode at the cache followed by the source's absolute folder)."""
    return Path(cache or os.environ[PYCACHE]) / str(path).lstrip(os.sep)


@contextlib.contextmanager
def bytecode_cache(folder: Path = BYTECODE):
    """The bytecode cache of the children of a run (PYTHONPYCACHEPREFIX), kept in this
    checkout's build/ from run to run: each module is compiled once, not once a child (pytest's
    rewriting of the test files was nearly half of each P cell), nor once a run (a cache that
    went with its run compiled Python's own modules and the site-packages' again in every run,
    the cache being empty). It holds the bytecode of this checkout's files and of Python's,
    checked against each source's time and size as any bytecode is; a copy's goes with the
    copy (private_folder), and no copy's path is used twice, so no child reads bytecode made
    from another copy's file. The copies of a run that was killed are removed at the start."""
    folder.mkdir(parents=True, exist_ok=True)
    stale = mirror(Path(tempfile.gettempdir()), str(folder))
    for name in ("uopc-matrix-*", "uopc-mutant-*"):  # the prefixes of the copies' folders
        for left in stale.glob(name):
            if not (Path(tempfile.gettempdir()) / left.name).exists():
                shutil.rmtree(left, ignore_errors=True)
    before = os.environ.get(PYCACHE)
    os.environ[PYCACHE] = str(folder)  # child_env passes it on; pool workers inherit it
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(PYCACHE, None)
        else:
            os.environ[PYCACHE] = before


def clean_up_on_signals() -> None:
    """In the parent and in every pool worker: a SIGTERM unwinds the stack, so run_child
    stops its child and the `finally` of run_suite or run_layers removes the private copy.
    (The working tree is never edited, so there is nothing of it to restore.)"""
    signal.signal(signal.SIGTERM, _terminated)
    signal.signal(signal.SIGINT, _terminated)


def run_pool(function, jobs: list, workers: int) -> list:
    """function over jobs in a pool of worker processes, results in order. When the parent is
    stopped, each worker is sent SIGTERM in turn and waited for, so that each one removes its
    copy before the parent exits (a signal sent to the whole process group does the same)."""
    pool = concurrent.futures.ProcessPoolExecutor(workers, initializer=clean_up_on_signals)
    finished = False
    try:
        results = list(pool.map(_worker_job, [(function, job) for job in jobs]))
        finished = True
        return results
    except Terminated:
        for worker in multiprocessing.active_children():
            worker.terminate()
        for worker in multiprocessing.active_children():
            worker.join(timeout=60)
        raise
    finally:
        # done: wait for the idle workers to exit (else the interpreter's exit may find the
        # pool's pipe closed and print a traceback); stopped: do not wait
        pool.shutdown(wait=finished)


def run_child(command: list[str], timeout: float, **options) -> subprocess.CompletedProcess:
    """subprocess.run with capture_output and text, the child in a process group of its own:
    stopped or timed out, the whole group gets SIGTERM (then SIGKILL), so that what the child
    started (a nested harness run by a test, clang) goes with it and cleans up after itself."""
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, **options,
    ) as child:  # fmt: skip
        try:
            stdout, stderr = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:  # with what the child printed before it was stopped
            stdout, stderr = stop_group(child)
            raise subprocess.TimeoutExpired(command, timeout, stdout, stderr) from None
        except BaseException:
            stop_group(child)
            raise
    return subprocess.CompletedProcess(command, child.returncode, stdout, stderr)


def stop_group(child: subprocess.Popen) -> tuple[str, str]:
    """SIGTERM to the child's process group, SIGKILL if it is still there after 30 s; the
    output the child printed."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signum)
        try:
            return child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            continue
    return "", ""


def _worker_job(args):
    """In a worker: one job; stopped, the worker ends (its copy removed on the way out) instead
    of reporting the stop as the job's result and taking the next job."""
    function, job = args
    try:
        return function(job)
    except Terminated:
        os._exit(128 + signal.SIGTERM)


# ---------------------------------------------------------------------------------------------
# Applying a mutant to a private copy
# ---------------------------------------------------------------------------------------------


def target_problem(mutant: Mutant, package: Path = PACKAGE) -> str | None:
    """Why the mutant cannot be applied to `package`, or None when its text occurs once."""
    path = package / mutant.file
    if not path.is_file():
        return f"no file uopc/{mutant.file}"
    count = path.read_text(encoding="utf-8").count(mutant.original)
    if count != 1:
        return f"the original text occurs {count} times in uopc/{mutant.file}, not once"
    if mutant.original == mutant.replacement:
        return "the replacement equals the original"
    return None


def make_copy(mutant: Mutant | None, root: Path) -> Path:
    """Copy the working tree's package to root/uopc and apply the mutant (None: unmutated).

    Raises ValueError when the mutant's text is not there exactly once or the edited file
    does not compile (a syntax error would be a catch that tests nothing)."""
    shutil.copytree(PACKAGE, root / "uopc", ignore=shutil.ignore_patterns("__pycache__"))
    if mutant is not None:
        problem = target_problem(mutant, root / "uopc")
        if problem:
            raise ValueError(problem)
        path = root / "uopc" / mutant.file
        text = path.read_text(encoding="utf-8").replace(mutant.original, mutant.replacement)
        path.write_text(text, encoding="utf-8")
        try:
            compile(text, str(path), "exec")
        except SyntaxError as error:
            raise ValueError(f"the edited file does not compile: {error}") from None
    return root / "uopc"


def shared_cache() -> str:
    """One compiled-C cache for every run: it is keyed by the source (and flags), so a mutant
    that does not change the renderer reuses the libraries of the others."""
    return os.environ.get("UOPC_CACHE") or os.path.join(tempfile.gettempdir(), "uopc-mutant-cache")


def child_env(copy_root: Path, full: bool, extra: dict | None = None) -> dict:
    env = dict(os.environ)
    env.pop("UOPC_COUNTS", None)  # a planted-bug run must not add to the suite's counts
    # the copy first, always: then tests/ (the layers a child imports by name) and, last, this
    # checkout for `book` (its uopc/ comes after the copy's, so it is never imported); while the
    # build records what a program uses, its recorder after all (book/used.py)
    from book.used import keep_recording

    path = keep_recording([str(copy_root), str(TESTS), str(REPO)])
    env["PYTHONPATH"] = os.pathsep.join(path)
    env["UOPC_TESTED_COPY"] = str(copy_root / "uopc")  # on purpose: book/own_tree.py allows it
    env["UOPC_CACHE"] = shared_cache()
    env["UOPC_FULL"] = "1" if full else "0"
    if os.environ.get(PYCACHE):  # the run's own cache (bytecode_cache), written as it goes
        env["PYTHONPYCACHEPREFIX"] = os.environ[PYCACHE]
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:  # verify/mutants.py's own runs: no bytecode written anywhere
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return env


def book_tests() -> tuple[str, ...]:
    """book/producers.py's BOOK_TESTS: the tests of the book's production rather than of the
    package. They run the book's programs again as child programs from the repository (some
    write there), build the site or check the build's scripts: slow, two runs of them at once
    disturb each other, and a failure there says little about which part of the package is
    wrong."""
    from book.producers import BOOK_TESTS  # imports nothing of uopc

    return tuple(BOOK_TESTS)


def suite_files(all_files: bool = False) -> list[str]:
    """The test files of a run, in the order described above; listed once, before the baseline,
    so that a test file added while the mutants run cannot pass for a catch."""
    left_out = NOT_RUN + FIRST_FILES + (() if all_files else book_tests())
    rest = sorted(p.name for p in TESTS.glob("test_*.py") if p.name not in left_out)
    return [str(TESTS / name) for name in (*FIRST_FILES, *rest)]


# ---------------------------------------------------------------------------------------------
# One pytest run
# ---------------------------------------------------------------------------------------------


def run_suite(
    mutant: Mutant | None,
    files: list[str],
    full: bool,
    skip: list[str],
    stop_first: bool,
    order: dict | None = None,
):
    """Run the test files on a copy with `mutant` applied: a dict with verdict, detail, seconds
    (and durations: node id -> seconds of every test that ran).

    skip: node ids to deselect (the baseline's failures). stop_first: pytest -x. order: the
    order the tests run in (see pytest_collection_modifyitems), which only makes a catch come
    sooner: the verdict is the same in any order. With stop_first, the tests order["first"]
    names (those that caught this bug last time) run alone first, in a pytest of their own:
    they come first in the whole run too, so when one fails, the whole run would have stopped
    there, and the suite is not collected (most of a run that stops at its first test). When
    none fails, the whole run follows, as without them."""
    start = time.perf_counter()
    with private_folder("uopc-mutant-") as root:
        try:
            copy = make_copy(mutant, root)
        except ValueError as error:
            return verdict("ERROR", str(error), start)
        (root / "skip.txt").write_text("".join(f"{node}\n" for node in skip), encoding="utf-8")
        (root / "order.json").write_text(json.dumps(order or {}), encoding="utf-8")
        first = first_nodes(order, files, skip) if stop_first else []
        if first:
            tried = run_pytest(root, copy, first, full, stop_first, start, "first")
            if tried["verdict"] == "caught":
                return tried
        return run_pytest(root, copy, files, full, stop_first, start, "all")


def first_nodes(order: dict | None, files: list[str], skip: list[str]) -> list[str]:
    """order["first"]'s node ids (relative to the repository) that lie in one of the files
    and are not skipped, as pytest takes them on its command line (the file's full path)."""
    wanted = set(files)
    nodes = []
    for node in (order or {}).get("first", []):
        path = str(REPO / node.split("::", 1)[0])
        if path in wanted and node not in skip:
            nodes.append(path + node[len(node.split("::", 1)[0]) :])
    return nodes


def run_pytest(root: Path, copy: Path, tests: list[str], full, stop_first, start, name: str):
    """One pytest run over tests (files or node ids) in the copy's folder; the verdict."""
    probe, skipfile = root / f"probe-{name}.txt", root / "skip.txt"
    command = [sys.executable, "-m", "pytest", "-p", "verify.mutants", *UNUSED_PLUGINS]
    command += ["-q", "--rootdir", str(REPO), *(["-x"] if stop_first else [])]
    command += [*(["--full"] if full else []), *tests]
    extra = {"UOPC_MUTANT_PROBE": str(probe), "UOPC_MUTANT_SKIP": str(skipfile)}
    extra["UOPC_MUTANT_ORDER"] = str(root / "order.json")
    try:
        done = run_child(command, TIMEOUT, cwd=root, env=child_env(root, full, extra))
    except subprocess.TimeoutExpired:
        return verdict("ERROR", f"pytest ran longer than {TIMEOUT} s", start)
    lines = probe.read_text(encoding="utf-8").splitlines() if probe.exists() else []
    # one record per line, tab-separated: node ids may hold spaces
    records = [line.split("\t") for line in lines]
    imported = [r[1] for r in records if r[0] == "IMPORTED"]
    failed = [r[1] + (f" ({r[2]})" if r[2] != "call" else "") for r in records if r[0] == "FAILED"]
    nodes = [r[1] for r in records if r[0] == "FAILED"]
    durations = {}
    for record in records:
        if record[0] == "DURATION":
            durations[record[1]] = durations.get(record[1], 0.0) + float(record[2])
    wanted = str(copy / "__init__.py")
    if failed and not imported:
        # a test module that no longer imports fails before the probe sees the package
        return verdict("caught", failed[0], start, failed, nodes, durations)
    if imported != [wanted]:
        found = imported or "nothing"
        return verdict("ERROR", f"the run imported {found}, not {wanted}", start)
    if failed:
        return verdict("caught", failed[0], start, failed, nodes, durations)
    if done.returncode == 0:
        return verdict("survived", "every test passed", start, durations=durations)
    tail = " | ".join((done.stdout + done.stderr).strip().splitlines()[-3:])
    return verdict("ERROR", f"pytest exited with {done.returncode}: {tail}", start)


def verdict(name, detail, start, failed=(), nodes=(), durations=None):
    """failed: the failures as printed (node id and phase); nodes: their bare node ids."""
    return {
        "verdict": name,
        "detail": detail,
        "failed": list(failed),
        "nodes": list(nodes),
        "durations": dict(durations or {}),
        "seconds": time.perf_counter() - start,
    }


def run_one(args) -> dict:
    """A worker's job (module level, so that a process pool can pickle it)."""
    mutant, files, full, skip, stop_first = args
    return run_suite(mutant, files, full, skip, stop_first)


# ---------------------------------------------------------------------------------------------
# The pytest plugin (`-p mutants`): active only when the harness sets UOPC_MUTANT_PROBE
# ---------------------------------------------------------------------------------------------


def _probe(line: str) -> None:
    path = os.environ.get("UOPC_MUTANT_PROBE")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")


def pytest_collection_modifyitems(config, items):
    path = os.environ.get("UOPC_MUTANT_SKIP")
    if path and os.path.exists(path):
        skip = set(Path(path).read_text(encoding="utf-8").splitlines())
        if skip:
            config.hook.pytest_deselected(items=[i for i in items if i.nodeid in skip])
            items[:] = [i for i in items if i.nodeid not in skip]
    path = os.environ.get("UOPC_MUTANT_ORDER")
    if path and os.path.exists(path):
        items[:] = ordered(items, json.loads(Path(path).read_text(encoding="utf-8")))


def ordered(items: list, order: dict) -> list:
    """The tests in the order that makes a catch come soonest (under -x the run stops there):
    first the tests named in order["first"] (those that caught this bug last time), then the
    quick tests of order["own"] (the test file of the module the bug edits), then the other
    quick tests, then the slow ones (order["slow"], each a second or more in the unmutated run).
    Within each group the usual order holds. Only the time to a catch depends on this order,
    not whether there is one."""
    first = {node: rank for rank, node in enumerate(order.get("first", []))}
    slow, own = set(order.get("slow", [])), order.get("own")

    def key(pair):
        index, item = pair
        place = first.get(item.nodeid, len(first))
        return (place, item.nodeid in slow, item.nodeid.split("::")[0] != own, index)

    return [item for _, item in sorted(enumerate(items), key=key)]


def pytest_collection_finish(session):
    if os.environ.get("UOPC_MUTANT_PROBE"):
        try:
            import uopc  # the suite has imported it already: this names the package in use
        except Exception as error:  # a mutant that breaks the import fails the tests anyway
            _probe(f"NOIMPORT\t{type(error).__name__}: {error}")
        else:
            _probe(f"IMPORTED\t{uopc.__file__}")


def pytest_collectreport(report):
    if report.failed:
        _probe(f"FAILED\t{report.nodeid or '<collection>'}\tcollection")


def pytest_runtest_logreport(report):
    if report.failed:
        _probe(f"FAILED\t{report.nodeid}\t{report.when}")
    _probe(f"DURATION\t{report.nodeid}\t{report.duration:.3f}")


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def select(names: list[str]) -> list[tuple[int, Mutant]]:
    """(number, mutant) pairs: all, or those given by number or by a part of their name."""
    numbered = list(enumerate(MUTANTS, start=1))
    if not names:
        return numbered
    wanted = [name.lower() for name in names]
    chosen = [
        (n, m)
        for n, m in numbered
        if any(w == str(n) if w.isdigit() else w in m.name.lower() for w in wanted)
    ]
    if not chosen:
        raise SystemExit(f"no mutant matches {names}")
    return chosen


def line(number, mutant: Mutant, result: dict) -> str:
    seconds = f"({result['seconds']:.0f} s)"
    return f"{number:>3} {result['verdict']:<8} {mutant.name:<42} {result['detail']} {seconds}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="run the planted bugs against the test suite")
    parser.add_argument("--full", action="store_true", help="the suite at the book's sizes")
    parser.add_argument("--only", nargs="+", default=[], help="mutants by number or name part")
    parser.add_argument("--workers", type=int, default=2, help="parallel pytest runs (2)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--no-control", action="store_true", help="skip the no-op control run")
    parser.add_argument("--all-files", action="store_true", help="also the book's program tests")
    parser.add_argument("--files", nargs="+", help="only these test files (names in tests/)")
    parser.add_argument(
        "--every-catch", action="store_true", help="no -x: list every test that fails"
    )
    options = parser.parse_args(argv)
    chosen = select(options.only)
    if options.list:
        for number, mutant in chosen:
            print(f"{number:>3} {mutant.group:<5} {mutant.name:<42} uopc/{mutant.file}")
        return 0
    start = time.perf_counter()
    print(f"sizes: {'full' if options.full else 'quick'}; cache {shared_cache()}", flush=True)

    # The baseline: the unmutated copy, every test (no -x). Its failures say nothing of a mutant.
    files = suite_files(options.all_files)
    if options.files:  # a small run (the numbers' tests): the files named, in the usual order
        files = [f for f in files if Path(f).name in options.files]
    print(f"test files, in this order: {' '.join(Path(f).name for f in files)}")
    base = run_suite(None, files, options.full, [], stop_first=False)
    if base["verdict"] == "ERROR":
        print(f"baseline ERROR: {base['detail']}")
        return 2
    skip = base["nodes"]
    print(f"baseline (no mutant): {len(skip)} failing tests, {base['seconds']:.0f} s", flush=True)
    for node in base["failed"]:
        print(f"WARNING: fails without any mutant, deselected: {node}")

    first = not options.every_catch
    jobs = [] if options.no_control else [(CONTROL, files, options.full, skip, first)]
    jobs += [(mutant, files, options.full, skip, first) for _, mutant in chosen]
    results = run_pool(run_one, jobs, options.workers)
    control_ok = True
    if not options.no_control:
        control = results.pop(0)
        control_ok = control["verdict"] == "survived"
        state = "survived, as it must" if control_ok else f"{control['verdict']}: HARNESS BROKEN"
        print(f"control ({CONTROL.name}): {state}: {control['detail']}")
    caught = 0
    for (number, mutant), result in zip(chosen, results, strict=True):
        print(line(number, mutant, result))
        if options.every_catch:
            for node in result["failed"][1:]:
                print(f"{'':<13}also {node}")
        caught += result["verdict"] == "caught"
    print(f"total time: {time.perf_counter() - start:.0f} s")
    print(f"MUTANTS {len(chosen)} {caught}")
    return 0 if caught == len(chosen) and control_ok else 1


if __name__ == "__main__":
    clean_up_on_signals()
    try:
        sys.exit(main())
    except Terminated as stop:
        print(f"mutants.py: {stop}; the private copies are removed", file=sys.stderr)
        sys.exit(128 + signal.SIGTERM)
