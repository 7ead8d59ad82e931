"""The book's programs, one row each: what runs, where its output goes, what it depends on.

A new program of the book is one new row here (a demo: one line in DEMOS); nothing else lists
programs. A row (docs/CONTRIBUTING.md says how the build uses them):
- name "KIND/STEM": the output is out/KIND/STEM.txt, its blocks out/KIND/STEM/NAME.txt;
- command, run from cwd: "{py}" is the interpreter, "{out}" the folder the sized outputs go to
  (out/, or build/quick/out/ under --quick); full / quick: arguments added at each size (a row
  with either is *sized*: its quick output never goes to out/);
- sources: globs (or callables of the tree) of the files the output depends on, the fallback
  for a program with no record of what its last run used (book/used.py);
- slow: checked by the `# sources:` hash on its first line instead of being made again in CI;
  timed: depends on the machine or the clock; full_only: left out of a quick run; echo: shown
  while it runs; always: made from other saved outputs, cheaply, on every run; from_site: a
  print of the built site, made after the numbers in a full build;
- one_core: one process on one core that times nothing (not timed, not CLOCKED) and reads no
  saved output of another one_core row (one_core_problems checks it), so the build runs it
  beside another such row, two at a time; a row that uses both cores (pytest -n 2, the
  matrix's two workers) or times something keeps the machine.
"""

import hashlib
import io
import json
import tokenize
from dataclasses import dataclass
from pathlib import Path

from book.protocol import HASH_LENGTH, header_line

ROOT = Path(__file__).resolve().parents[1]

PACKAGE = ("uopc/**/*.py",)  # the taught modules and the speed overlay
# What every program of the book may import: the output protocol, the sizes, the generators
# and the check that it runs its own tree's uopc.
SUPPORT = ("book/__init__.py", "book/protocol.py", "verify/__init__.py", "verify/generators.py",
           "book/own_tree.py")  # fmt: skip
TEST_SUPPORT = (*SUPPORT, "verify/layers.py", "verify/shrink.py", "tests/conftest.py",
                "tests/ref_ops.c")  # fmt: skip
# The planted-bug harness: its copy, its child runs and its matrix.
HARNESS = ("verify/mutants.py", "verify/mutant_matrix.py", "verify/coverage_lines.py",
           "tests/mutant_matrix.py")  # fmt: skip
# The tests of the book's production rather than of the package: they run the book's programs
# again as child programs, build the site, or check the build's own scripts. The build runs
# each program once, so its test run leaves these to the quick suite (and the planted bugs
# leave them out too: a failure there says little about which part of the package is wrong).
BOOK_TESTS = (
    "test_bench.py", "test_book_checks.py", "test_build.py", "test_demos.py",
    "test_exercises.py", "test_figures.py", "test_numbers.py", "test_proofs.py",
    "test_summary.py", "test_mutants.py", "test_mutant_matrix.py", "test_producers.py",
    "test_own_tree.py", "test_docs_lint.py",
)  # fmt: skip


def package_tests(root: Path) -> list[str]:
    """Every test file and C reference the package's own tests use (less BOOK_TESTS)."""
    return sorted(
        str(path.relative_to(root))
        for pattern in ("tests/*.py", "tests/*.c")
        for path in root.glob(pattern)
        if path.is_file() and path.name not in BOOK_TESTS
    )


def counting_layers(root: Path) -> list[str]:
    """The test files that report check counts or state numbers: counts change with them."""
    return sorted(
        f"tests/{path.name}"
        for path in (root / "tests").glob("test_*.py")
        if path.name not in BOOK_TESTS and "counting" in path.read_text(encoding="utf-8")
    )


@dataclass(frozen=True)
class Producer:
    name: str
    command: tuple
    sources: tuple
    cwd: str = "."
    full: tuple = ()
    quick: tuple = ()
    slow: bool = False
    timed: bool = False
    full_only: bool = False
    echo: bool = False
    always: bool = False
    from_site: bool = False
    one_core: bool = False

    @property
    def sized(self) -> bool:
        return bool(self.full or self.quick or self.full_only)

    @property
    def kind(self) -> str:
        return self.name.split("/")[0]

    def argv(self, python: str, quick: bool, out: Path) -> list[str]:
        parts = (*self.command, *(self.quick if quick else self.full))
        return [part.replace("{py}", python).replace("{out}", str(out)) for part in parts]


# The demos (demos/NAME.py), in the order the build runs them: one line a demo.
DEMOS = (
    "run_demos",
    "walkthrough",
    "ranges_table",
    "number_facts",
    "contract_edges",
    "errors",
    "matcher",
    "upat_fields",
    "fold",
    "order",
    "egraph",
    "fast_math",
    "memory",
    "c_traps",
    "integers",
    "runtime_steps",
    "verification",
)

# What a demo reads besides its own source and the package: saved outputs, test files.
DEMO_INPUTS = {
    "ranges_table": ("demos/walkthrough.py",),  # its TracingMatcher
    "egraph": ("demos/run_demos.py",),  # its rules distribute and factor
    "order": ("verify/shrink.py",),
    "fast_math": ("verify/layers.py", "verify/shrink.py"),
    "integers": ("out/tests/mutant_matrix.txt", "out/tests/counts.txt", "verify/layers.py"),
    "verification": (
        "out/tests/mutant_matrix.txt",
        "out/tests/mutant_matrix_overlay.txt",
        "out/tests/mutant_matrix_plain.txt",
    ),
}


# Demos that time something with the clock and print it (errors: the chain's build, toposort,
# evaluate and simplify times): they run alone, never beside another row.
CLOCKED = ("errors",)


def reads_saved(stem: str) -> bool:
    """Whether a demo reads a saved output (out/...): it must run after the program that
    makes it, or a whole rebuild would leave it made from the old one."""
    return any(path.startswith("out/") for path in DEMO_INPUTS.get(stem, ()))


def demo(stem: str, *more: str, name: str = "", **flags) -> Producer:
    """The row of demos/STEM.py (named demos/STEM unless `name`), reading DEMO_INPUTS and more."""
    sources = (*PACKAGE, *SUPPORT, "demos/_common.py", f"demos/{stem}.py")
    sources += (*DEMO_INPUTS.get(stem, ()), *more)
    return Producer(name or f"demos/{stem}", ("{py}", f"demos/{stem}.py"), sources, **flags)


def one_core_problems(rows) -> list[str]:
    """What breaks the promise of one_core: a timed row (it must run alone), or a row that
    reads the saved output of another one_core row, in its sources or its command (it could
    run while that output is being written)."""
    makers = {f"out/{row.name}.txt": row for row in rows}
    problems = []
    for row in rows:
        if not row.one_core:
            continue
        if row.timed:
            problems.append(f"{row.name}: timed, so it must run alone")
        named = [str(part).replace("{out}", "out") for part in (*row.sources, *row.command)]
        for path in named:
            maker = makers.get(path)
            if maker is not None and maker.one_core and maker is not row:
                problems.append(f"{row.name}: reads {path}, which {maker.name} writes beside it")
    return problems


def all_producers(root: Path = ROOT) -> list[Producer]:
    """Every program of the book, in the order the build runs them."""
    rows = [
        Producer(
            f"short/{path.stem}",
            ("{py}", path.name),
            (*PACKAGE, *SUPPORT, f"code/short/{path.name}"),
            cwd="code/short",
            one_core=True,
        )
        for path in sorted((root / "code" / "short").glob("s[0-9][0-9]_*.py"))
    ]
    # a demo that reads a saved output of the slow programs runs after them (reads_saved)
    rows += [demo(stem, one_core=stem not in CLOCKED) for stem in DEMOS if not reads_saved(stem)]
    # the proofs here, not beside the tests they check: one_core, they run beside the demos
    proofs = ("tests/proofs.py", *PACKAGE, *SUPPORT, "requirements.txt")
    proved = ("{py}", proofs[0])
    long = {"slow": True, "echo": True}  # hash-checked in CI, and shown while it runs
    one_core = {"one_core": True}  # z3, in one process
    rows.append(Producer("proofs/proofs", proved, proofs, quick=("--quick",), **one_core, **long))
    # the further rules' claims (uopc/further.py), apart from the book's counts
    further = (*proved, "--further")
    rows.append(Producer("proofs/further", further, proofs, slow=True, **one_core))
    tinygrad = ("demos/tinygrad_demo.py", "book/protocol.py", "requirements.txt")
    rows.append(
        Producer("bench/tinygrad_demo", ("{py}", tinygrad[0]), tinygrad, slow=True, timed=True)
    )
    rows.append(
        demo("tinygrad_map", "requirements.txt", name="bench/tinygrad_map", slow=True, timed=True)
    )
    # a row's sources start with its program (sources[0]) where it runs from the root
    records = ("--records", "{out}/tests")
    tests = ("scripts/run_tests.py", *PACKAGE, *TEST_SUPPORT, counting_layers)
    full, quick = ("--full", *records), ("--quick", *records)
    rows.append(Producer("tests/counts", ("{py}", tests[0]), tests, full=full, quick=quick, **long))
    matrix = (*PACKAGE, *TEST_SUPPORT, *HARNESS, package_tests)
    command = ("{py}", "tests/mutant_matrix.py")
    hints = ("--full", "--hints", "{out}/tests/mutant_hints.json")
    rows.append(
        Producer("tests/mutant_matrix", command, matrix, full=hints, full_only=True, **long)
    )
    # the layers (no P) at quick sizes, with the overlay and with the plain code alone: the
    # same bugs, sizes and columns, so that only the overlay differs (demos/verification.py)
    for mode, flags in (("overlay", ()), ("plain", ("--plain",))):
        layers = ("--layers", "ABCDEFGHIJKLMS", "--prefix", f"mutants_{mode}", *flags)
        rows.append(Producer(f"tests/mutant_matrix_{mode}", (*command, *layers), matrix, **long))
    # they read what the matrix and the tests wrote, which ran alone before them
    rows += [demo(stem, one_core=stem not in CLOCKED) for stem in DEMOS if reads_saved(stem)]
    answers = (
        *PACKAGE,
        *SUPPORT,
        "code/exercises/*.py",  # the runner, one file per chapter, try_it.py, helpers
        *TEST_SUPPORT,
        *HARNESS,
        package_tests,  # 5.5, 15.4 and 15.5 run the planted-bug harness and its layers
        "tests/proofs.py",
        "demos/*.py",
        "out/tests/mutant_matrix.txt",  # one answer reads the saved matrix
    )
    # alone: exercise 13.3 times a loop of ctypes calls against a loop in C
    rows.append(Producer("exercises/solutions", ("{py}", "code/exercises/solutions.py"), answers))
    bench = (*PACKAGE, "demos/bench*.py", "demos/tinygrad_demo.py", *SUPPORT)
    data = ("--json", "{out}/bench/bench.json")
    busy, script = ("--quick", "--busy", *data), ("{py}", "demos/bench.py")
    rows.append(Producer("bench/bench", script, bench, full=data, quick=busy, timed=True, **long))
    machine = ("scripts/machine_info.py", "requirements.txt")
    rows.append(
        Producer("bench/machine_info", ("{py}", machine[0]), machine, slow=True, timed=True)
    )
    pages = ("scripts/book_pdf.py", "docs/**/*", "mkdocs.yml", "excerpts/**/*", "out/figures/*")
    rows.append(Producer("book/pdf", ("{py}", pages[0]), pages, slow=True, from_site=True))
    saved = ("--proofs", "{out}/proofs/proofs.txt", "--mutants", "{out}/tests/mutant_matrix.txt")
    summary = ("{py}", "scripts/summary.py", "{out}/tests/counts.txt", *saved)
    missing = ("--allow-missing",)
    rows.append(Producer("tests/summary", summary, (summary[1],), quick=missing, always=True))
    # appendix C: what reruns after one change, from the records (book/used.py)
    reruns = ("{py}", "scripts/reruns.py", "{out}")
    rows.append(Producer("book/reruns", reruns, (reruns[1],), always=True))
    return rows


PRODUCERS = {row.name: row for row in all_producers()}


# ---------------------------------------------------------------------------------------------
# The figures: out/figures/NAME, drawn on every run by scripts/make_figures.py
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One figure: its file under out/figures/, the function that draws it ("MODULE.NAME", a
    module of scripts/), and the saved outputs it is drawn from, in the order the function takes
    their paths (skipped, with a note, until they exist). A *graph* returns a UOp or Graphviz
    source, which make_figures draws with the book's palette; any other returns the SVG text."""

    name: str
    draw: str
    reads: tuple = ()
    graph: bool = True


FIGURES = (
    Figure("rendered.svg", "make_figures.rendered_figure"),
    Figure("relu.svg", "make_figures.relu"),
    Figure("sharing.svg", "make_figures.sharing"),
    Figure("index_before.svg", "make_figures.index_expression"),
    Figure("index_after.svg", "make_figures.index_simplified"),
    Figure("bump.svg", "make_figures.bump_figure"),
    Figure("chain_before.svg", "make_figures.chain"),
    Figure("chain_after.svg", "make_figures.chain_simplified"),
    Figure("shared_graph.svg", "make_figures.shared_sum"),
    Figure("shared_tree.svg", "make_figures.shared_tree"),
    Figure("ranges.svg", "make_figures.ranges_figure"),
    Figure("ranges_big.svg", "make_figures.ranges_big_figure"),
    Figure("split_line.svg", "make_figures.split_line"),
    Figure("engine_states.svg", "make_figures.engine_states_dot"),
    Figure("egraph.svg", "make_figures.egraph_dot"),
    # chapters 2, 3, 7, 9 and 10
    Figure("numbers_bits.svg", "chapter_figures.numbers_bits"),
    Figure("contract_where.svg", "chapter_figures.contract_where"),
    Figure("patterns_match.svg", "chapter_figures.patterns_match"),
    Figure("folding.svg", "chapter_figures.folding"),
    Figure("floats_fast.svg", "chapter_figures.floats_fast"),
    # drawn whole by their own functions, some from saved outputs
    Figure("pipeline.svg", "make_figures.pipeline_svg", graph=False),
    Figure("tinygrad_map.svg", "make_figures.tinygrad_map_figure",
           ("out/bench/tinygrad_map/map.txt",), graph=False),
    Figure("compile_times.svg", "make_figures.compile_times_figure", ("out/bench/bench.json",),
           graph=False),
    Figure("relu_ns.svg", "make_figures.relu_ns_figure", ("out/bench/bench.json",), graph=False),
    Figure("mutant_matrix.svg", "make_figures.matrix_figure", ("out/tests/mutant_matrix.txt",),
           graph=False),
)  # fmt: skip
# Outputs under out/ that are data for scripts rather than text for pages; they come from the
# same run as the named slow output, which stands for them in the staleness check.
COMPANIONS = {"bench/bench.json": "bench/bench"}
# Records of a run itself, not of the book's sources: never checked for staleness, never a
# reason to rerun anything. What each program used (book/used.py), the time of the last whole
# run, the test run's own log (how many tests passed: adding a test must not make the book
# stale), and the tests of P that failed first on each planted bug (the matrix tries them first).
RUN_RECORDS = (
    "used.json",
    "tests/run_all_time.json",
    "tests/pytest.txt",
    "tests/pytest.json",
    "tests/mutant_hints.json",
)
# The numbers scripts/make_numbers.py takes from those records. A page that shows one shows a
# record too, so out/numbers.json is hashed without them (hashed_text): a whole run writes its
# own time after the PDF is printed, and the PDF was then stale after every whole run.
RECORD_NUMBERS = ("run_all_seconds", "run_all_elapsed", "tests_passed", "tests_seconds")


# ---------------------------------------------------------------------------------------------
# The sources of each output, and their hash
# ---------------------------------------------------------------------------------------------

# "<kind>/<stem>" -> the globs (and callables) of each slow output's sources: check_stale.py
# checks it by their hash instead of making it again.
SOURCES = {row.name: row.sources for row in PRODUCERS.values() if row.slow}


def source_files(key: str, root: Path = ROOT, sources: tuple | None = None) -> list[str]:
    """The sorted relative paths of the files the row `key` declares (or of `sources`)."""
    found = set()
    for entry in PRODUCERS[key].sources if sources is None else sources:
        if callable(entry):
            found.update(entry(root))
        else:
            found.update(str(path.relative_to(root)) for path in root.glob(entry) if path.is_file())
    return sorted(found)


def files_hash(entries: list[str], root: Path) -> str:
    """The first HASH_LENGTH hex digits of the SHA-256 over each entry's name and what a program
    can depend on: a file's hashed_text, a folder's names ("DIR/", a folder a program globbed:
    a new test file reruns the harness that globs for them). A missing entry is hashed as
    absent, so that writing it later makes the output stale."""
    digest = hashlib.sha256()
    for entry in entries:
        path = root / entry
        digest.update(entry.encode() + b"\0")
        if entry.endswith("/"):
            names = ["<absent>"]
            if path.is_dir():  # less caches and tools' hidden folders, which come and go
                names = sorted(
                    p.name for p in path.iterdir() if p.name[0] != "." and p.name != "__pycache__"
                )
            digest.update("\n".join(names).encode() + b"\0")
        else:
            digest.update((hashed_text(path) if path.is_file() else b"<absent>") + b"\0")
    return digest.hexdigest()[:HASH_LENGTH]


def sources_hash(key: str, root: Path = ROOT, sources: tuple | None = None) -> str:
    """The hash of the sources the row `key` declares (or of `sources`)."""
    return files_hash(source_files(key, root, sources), root)


def hashed_text(path: Path) -> bytes:
    """What of a source file its outputs can depend on: for Python, its tokens without the
    comments (a listing's region markers, a reworded comment, change nothing a program does,
    so they make no output stale); for any other file, its bytes. A file that does not parse
    as Python is taken whole."""
    data = path.read_bytes()
    if path.name == "numbers.json":
        return numbers_without_records(data)
    if path.suffix != ".py":
        return data
    try:
        tokens = tokenize.tokenize(io.BytesIO(data).readline)
        kept = [
            f"{token.type} {token.string}"
            for token in tokens
            if token.type not in (tokenize.COMMENT, tokenize.NL)
        ]
    except (tokenize.TokenError, SyntaxError):
        return data
    return "\n".join(kept).encode()


def numbers_without_records(data: bytes) -> bytes:
    """The merged numbers less RECORD_NUMBERS; a file that is not a JSON object, whole."""
    try:
        numbers = json.loads(data)
    except ValueError:
        return data
    if not isinstance(numbers, dict):
        return data
    kept = {key: value for key, value in numbers.items() if key not in RECORD_NUMBERS}
    return json.dumps(kept, sort_keys=True).encode()


def header(key: str, root: Path = ROOT) -> str:
    """The `# sources:` line of the output `key` (book/protocol.py)."""
    return header_line(sources_hash(key, root))
