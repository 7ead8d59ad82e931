"""The book checks catch what they are for: each one passes on a small clean tree, then fails
on one planted fault. Everything happens in temporary folders, never in the real tree.

The checks are the scripts of scripts/ (save_output, make_excerpts --check, the docs lint,
check_stale's comparisons, the mkdocs hook under `mkdocs build --strict`, and the tests of
tests/browser/); they run here as the book build runs them, in a child process (the docs lint
and the HTML checks in this process: their findings are a list; `mkdocs build` through its
command's entry point in this process too, and once as the command).
"""

import contextlib
import html
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import check_stale  # scripts/, on the path by pytest's pythonpath (pyproject.toml)
import early_runs
import pytest
import test_docs_lint
from browser import test_site_html

from book import producers, protocol

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "scripts"


def run(*args, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# A small book: one source with a region, one saved output, one page using both
# ---------------------------------------------------------------------------------------------

PAGE = """\
    # Step 1 · A small page

    The program prints {{ n.lines }} lines; see [the output](#the-output).

    ```python title="uopc/mod.py: double"
    --8<-- "excerpts/uopc/mod/double.py"
    ```

    ## The output

    ```text title="python demo.py"
    --8<-- "out/short/demo.txt"
    ```

    <!-- literal: a command the reader types -->
    ```bash
    python demo.py
    ```

    <figure markdown="span">
      ![a figure](../figures/graph.svg)
      <figcaption>What the figure says.</figcaption>
    </figure>
    """


SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="9"/></svg>\n'


@pytest.fixture(scope="module")
def made_book(tmp_path_factory) -> Path:
    """The small book, made once per module: its excerpt is cut by make_excerpts.py, a child
    process that would otherwise start again for each of the many tests below."""
    return make_book(tmp_path_factory.mktemp("made_book"))


@pytest.fixture
def book(tmp_path, made_book) -> Path:
    """A tree laid out like the repository, small enough to build in a second: a copy of
    made_book in tmp_path, the test's own to change."""
    shutil.copytree(made_book, tmp_path, dirs_exist_ok=True)
    return tmp_path


def make_book(tmp_path: Path) -> Path:
    write(
        tmp_path / "uopc" / "mod.py",
        """\
        # --8<-- [start:double]
        def double(x):
            return 2 * x
        # --8<-- [end:double]
        """,
    )
    write(tmp_path / "out" / "short" / "demo.txt", "6\n")
    write(tmp_path / "out" / "figures" / "graph.svg", SVG)
    (tmp_path / "out" / "numbers.json").write_text(json.dumps({"_missing": [], "lines": 1}))
    write(tmp_path / "docs" / "index.md", "# A small book\n\nStart with [step 1](short/one.md).\n")
    write(tmp_path / "docs" / "short" / "one.md", PAGE)
    write(
        tmp_path / "scripts" / "unused_outputs.txt",
        "out/numbers.json  read by the hook\nout/figures/unused.svg  kept for a later page\n",
    )
    assert run(SCRIPTS / "make_excerpts.py", "--root", tmp_path).returncode == 0
    return tmp_path


def lint(root: Path) -> SimpleNamespace:
    """The docs lint (tests/test_docs_lint.py) on the tree at root, read as a run of a command."""
    found = test_docs_lint.problems(root)
    return SimpleNamespace(returncode=int(bool(found)), stdout="\n".join(found))


def plant(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"the fault's anchor {old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The docs lint
# ---------------------------------------------------------------------------------------------

LINT_FAULTS = [  # (what, text to replace in the page, replacement, expected in the report)
    ("typed figure", "{{ n.lines }} lines", "3,820 lines", "the number 3,820 is typed"),
    ("typed decimal", "{{ n.lines }} lines", "0.96 lines", "the number 0.96 is typed"),
    ("unmarked literal", "<!-- literal: a command the reader types -->\n", "", "not an include"),
    ("include in a sentence", "The program", 'See --8<-- "out/short/demo.txt". The', "sentence"),
    ("line range", "excerpts/uopc/mod/double.py", "uopc/mod.py:1:3", "line range"),
    ("a section", "excerpts/uopc/mod/double.py", "uopc/mod.py:double", "excerpts/uopc/mod/dou"),
    ("no title", 'python title="uopc/mod.py: double"', "python", 'needs title="..."'),
    ("value in a code span", "{{ n.lines }} lines", "`16777220.0` lines", "16777220.0 is typed"),
    ("list in a code span", "{{ n.lines }} lines", "`[10.0, 40.0]` lines", "10.0 is typed"),
    ("no caption", "<figcaption>What the figure says.</figcaption>", "", "without a <figcaption>"),
    ("empty caption", "What the figure says.", " ", "without a <figcaption>"),
    ("no <figure>", '<figure markdown="span">', "", "without a <figcaption>"),
    ("open power", "{{ n.lines }} lines", "2^31 lines", "an open power 2^31"),
    ("open power of a bracket", "{{ n.lines }} lines", "(-1)^1 lines", "an open power (-1)^1"),
]


def test_lint_passes_on_the_clean_book(book):
    done = lint(book)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("what, old, new, expected", LINT_FAULTS, ids=[f[0] for f in LINT_FAULTS])
def test_lint_catches(book, what, old, new, expected):
    plant(book / "docs" / "short" / "one.md", old, new)
    done = lint(book)
    assert done.returncode == 1 and expected in done.stdout, done.stdout


def test_lint_finds_a_figure_whose_alt_text_holds_brackets(book):
    page = book / "docs" / "short" / "one.md"
    plant(page, "![a figure]", "![a figure of out[0]]")
    assert lint(book).returncode == 0
    plant(page, "<figcaption>What the figure says.</figcaption>", "")
    done = lint(book)
    assert done.returncode == 1 and "graph.svg: a figure without a <figcaption>" in done.stdout


def test_lint_allows_a_number_its_page_allows(book):
    plant(book / "docs" / "short" / "one.md", "{{ n.lines }} lines", "1e8 lines")
    assert lint(book).returncode == 1
    page = book / "docs" / "short" / "one.md"
    page.write_text(page.read_text() + "\n<!-- typed-number 1e8: the program's input -->\n")
    assert lint(book).returncode == 0


@pytest.mark.parametrize(
    "page, lines, caught",
    [
        ("part1/01-one.md", 30, False),  # a screen: allowed
        ("part1/01-one.md", 31, True),  # chapters 1-11: one line over
        ("part3/11-eleven.md", 31, True),
        ("part4/12-twelve.md", 31, False),  # the rule covers chapters 1-11
        ("short/two.md", 31, False),
    ],
)
def test_lint_catches_a_listing_longer_than_a_screen(book, page, lines, caught):
    body = "".join(f"    x{k} = {k}\n" for k in range(lines - 2))
    source = f"# --8<-- [start:long]\ndef long():\n{body}    return 0\n# --8<-- [end:long]\n"
    (book / "uopc" / "long.py").write_text(source, encoding="utf-8")
    assert run(SCRIPTS / "make_excerpts.py", "--root", book).returncode == 0
    listing = '```python title="uopc/long.py: long"\n--8<-- "excerpts/uopc/long/long.py"\n```\n'
    write(book / "docs" / page, f"# A chapter\n\n{listing}")
    done = lint(book)
    assert (f"a listing of {lines} lines" in done.stdout) == caught, done.stdout


def test_lint_counts_every_include_of_one_listing(book):
    """Two regions in one fenced block are one listing: their lines add up."""
    body = "".join(f"    x{k} = {k}\n" for k in range(14))
    source = f"# --8<-- [start:a]\ndef a():\n{body}# --8<-- [end:a]\n"
    source += f"# --8<-- [start:b]\ndef b():\n{body}# --8<-- [end:b]\n"
    (book / "uopc" / "two.py").write_text(source, encoding="utf-8")
    assert run(SCRIPTS / "make_excerpts.py", "--root", book).returncode == 0
    both = '--8<-- "excerpts/uopc/two/a.py"\n\n--8<-- "excerpts/uopc/two/b.py"\n'
    write(book / "docs" / "part1" / "03-three.md", f'# C\n\n```python title="t"\n{both}```\n')
    assert "a listing of 31 lines" in lint(book).stdout  # 15, a blank line, 15


def test_lint_catches_a_count_typed_as_a_word_that_a_program_states(book):
    """'five rules' where a program states five rules: the count must come from its key."""
    stated = {"demo_rules": {"value": 5, "meaning": "rules of the demo's matcher"}}
    write(book / "out" / "short" / "demo.numbers.json", json.dumps(stated))
    allow = book / "scripts" / "unused_outputs.txt"
    allow.write_text(allow.read_text() + "out/short/demo.numbers.json  read by make_numbers\n")
    plant(book / "docs" / "short" / "one.md", "{{ n.lines }} lines", "five rules and two lines")
    done = lint(book)
    assert done.returncode == 1 and "the count 'five rules' is typed as a word" in done.stdout
    assert "(demo_rules)" in done.stdout and "'two lines'" not in done.stdout, done.stdout
    page = book / "docs" / "short" / "one.md"
    page.write_text(page.read_text() + "\n<!-- typed-number five: the rules named above -->\n")
    assert lint(book).returncode == 0


@pytest.mark.parametrize(
    "span", ["`add(3.4e38, 3.4e38)`", "`x = 2147483647`", "`-0.0`", "`nan`", "`x*0.0 -> 0.0`"]
)
def test_lint_leaves_code_in_a_code_span_alone(book, span):
    plant(book / "docs" / "short" / "one.md", "{{ n.lines }} lines", f"{span} lines")
    done = lint(book)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("power", ["2^31^", "2^{{ n.lines }}^", "(-1)^1^", "`x ^ y`"])
def test_lint_allows_a_closed_power_and_a_caret_in_code(book, power):
    plant(book / "docs" / "short" / "one.md", "{{ n.lines }} lines", f"{power} lines")
    done = lint(book)
    assert done.returncode == 0, done.stdout


def test_lint_catches_an_unused_output(book):
    write(book / "out" / "short" / "other.txt", "nobody shows this\n")
    done = lint(book)
    assert "out/short/other.txt: no page uses it" in done.stdout, done.stdout


NOT_VERIFIED_LIST = """\
    # Chapter 15 · A small list

    1. **The rules end.** Argued, not proved.
       { #nv-termination }

    2. **The same hands.** Said here, for the whole book.
       <!-- nv-unnamed: a limit of the whole method, stated on this page only -->
       { #nv-same-hands }
    """

NOTE = """
!!! warning "Not verified"
    That the rules end is argued only. See the list in
    [chapter 15](../part5/15-verification.md#nv-termination).
"""

NOT_VERIFIED_FAULTS = [  # (what, text to replace in the note or the list, replacement, expected)
    ("note without a link", "[chapter 15](../part5/15-verification.md#nv-termination)",
     "chapter 15", 'a "Not verified" note without a link'),
    ("link to no item", "#nv-termination)", "#nv-ending)", "#nv-ending is not an item"),
    ("item no note names", "<!-- nv-unnamed: a limit of the whole method, stated on this page"
     " only -->", "", "#nv-same-hands: no \"Not verified\" note names this item"),
]  # fmt: skip


def not_verified_book(book: Path) -> None:
    """The small book with chapter 15's list and one note that links to its first item."""
    write(book / "docs" / "part5" / "15-verification.md", NOT_VERIFIED_LIST)
    page = book / "docs" / "short" / "one.md"
    page.write_text(page.read_text(encoding="utf-8") + NOTE, encoding="utf-8")


def test_lint_passes_when_every_note_links_an_item_and_every_item_is_named(book):
    not_verified_book(book)
    done = lint(book)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    "what, old, new, expected", NOT_VERIFIED_FAULTS, ids=[f[0] for f in NOT_VERIFIED_FAULTS]
)
def test_lint_catches_a_not_verified_fault(book, what, old, new, expected):
    not_verified_book(book)
    for path in (
        book / "docs" / "short" / "one.md",
        book / "docs" / "part5" / "15-verification.md",
    ):
        if old in path.read_text(encoding="utf-8"):
            plant(path, old, new)
            break
    else:
        raise AssertionError(f"the fault's anchor {old!r} is in neither page")
    done = lint(book)
    assert done.returncode == 1 and expected in done.stdout, done.stdout


# ---------------------------------------------------------------------------------------------
# Cross-references: every "chapter N" of the prose is a link to its page
# ---------------------------------------------------------------------------------------------

READING = "\n## Where to learn more\n\n"
CROSS_REFERENCES = [  # (what, text added to the page, expected in the report; None: it passes)
    ("bare chapter", "As chapter 4 shows.", 'a bare cross-reference "chapter 4"'),
    ("linked chapter", "As [chapter 4](../part2/04-uop.md) shows.", None),
    ("linked to another page", "As [chapter 4](one.md) shows.", "chapter 4 links to one.md"),
    ("bare in a list", "Chapters [4](../part2/04-uop.md) and 4.", '"chapters 4": make it a link'),
    ("bare exercise", "Try exercise 4.2.", 'a bare cross-reference "exercise 4.2"'),
    ("linked exercise", "Try [exercise 4.2](../part2/04-uop.md#ex-4-2).", None),
    ("exercise, no anchor", "Try [exercise 4.2](../part2/04-uop.md).", "exercise 4.2 links to"),
    ("written, said coming", "As [chapter 4](../part2/04-uop.md) (coming) shows.",
     '"(coming)" after chapter 4, whose page exists'),
    ("unwritten, marked", "As chapter 9 (coming) shows.", None),
    ("unwritten, unmarked", "As chapter 9 shows.", 'chapter 9 has no page yet: mark it "(coming)"'),
    ("in a code span", "Run `python chapter 4`.", None),
    ("in a heading", "## Back to chapter 4", None),
    ("in a comment", "<!-- chapter 4 says why -->", None),
    ("another work's chapter", READING + "- *Engineering a Compiler*, chapter 4.", None),
    ("a cited work's chapter", READING + "- [cite: eac], its chapter 4.", None),
    ("ours in a reading list", READING + "- Read chapter 4 again.", '"chapter 4": make it'),
]  # fmt: skip


@pytest.mark.parametrize(
    "what, text, expected", CROSS_REFERENCES, ids=[case[0] for case in CROSS_REFERENCES]
)
def test_lint_cross_references(book, what, text, expected):
    write(book / "docs" / "part2" / "04-uop.md", "# Chapter 4 · A small chapter\n\nIts text.\n")
    page = book / "docs" / "short" / "one.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")
    done = lint(book)
    if expected is None:
        assert done.returncode == 0, done.stdout
    else:
        assert done.returncode == 1 and expected in done.stdout, done.stdout
        assert "short/one.md:" in done.stdout, done.stdout  # the page and its line


# ---------------------------------------------------------------------------------------------
# Excerpts
# ---------------------------------------------------------------------------------------------


def excerpts_check(root: Path) -> subprocess.CompletedProcess:
    return run(SCRIPTS / "make_excerpts.py", "--check", "--root", root)


def test_excerpts_check_passes_then_catches_a_stale_excerpt(book):
    assert excerpts_check(book).returncode == 0
    plant(book / "uopc" / "mod.py", "2 * x", "x + x")
    done = excerpts_check(book)
    assert done.returncode == 1 and "stale" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("# --8<-- [end:double]\n", "", "has no end"),
        ("def double", "# --8<-- [start:double]\ndef double", "starts a second time"),
        ("# --8<-- [end:double]", "# --8<-- [end:double]\n# --8<-- [end:half]", "without a start"),
        ("# --8<-- [end:double]", "# --8<-- [ end:double]", "malformed marker"),
    ],
    ids=["unbalanced", "duplicated", "end without start", "malformed"],
)
def test_excerpts_check_catches_bad_markers(book, old, new, expected):
    plant(book / "uopc" / "mod.py", old, new)
    done = excerpts_check(book)
    assert done.returncode == 1 and expected in done.stderr, done.stderr


def test_lint_catches_an_excerpt_no_page_uses(book):
    half = "# --8<-- [start:half]\ndef half(x):\n    return x // 2\n# --8<-- [end:half]"
    plant(book / "uopc" / "mod.py", "# --8<-- [end:double]", f"# --8<-- [end:double]\n\n{half}")
    assert run(SCRIPTS / "make_excerpts.py", "--root", book).returncode == 0
    done = lint(book)
    assert done.returncode == 1 and "excerpts/uopc/mod/half.py: no page" in done.stdout


# ---------------------------------------------------------------------------------------------
# Saving outputs
# ---------------------------------------------------------------------------------------------

PROGRAM = """\
    print("title")
    print("@@ block first")
    print("one")
    print("@@ block second-part")
    print("two")
    """


def save(tmp_path, source, kind="demos", stem="prog"):
    program = write(tmp_path / "prog.py", source)
    return run(
        SCRIPTS / "save_output.py", "--root", tmp_path / "out", kind, stem, "--",
        sys.executable, program,
    )  # fmt: skip


def test_save_output_splits_blocks_and_strips_markers(tmp_path):
    assert save(tmp_path, PROGRAM).returncode == 0
    out = tmp_path / "out" / "demos"
    assert (out / "prog.txt").read_text() == "title\none\ntwo\n"
    assert (out / "prog" / "first.txt").read_text() == "one\n"
    assert (out / "prog" / "second-part.txt").read_text() == "two\n"
    # a block the program no longer prints leaves with the next run
    assert save(tmp_path, PROGRAM.replace('"@@ block second-part"', '"---"')).returncode == 0
    assert not (out / "prog" / "second-part.txt").exists()


@pytest.mark.parametrize(
    "source, expected",
    [
        ('print("@@ block a")\nprint("x")\nprint("@@ block a")\nprint("y")\n', "printed twice"),
        ('print("@@ block Bad")\nprint("x")\n', "malformed marker"),
        ('print("@@ block a")\nprint("@@ block b")\nprint("y")\n', "block 'a' is empty"),
        ("pass\n", "printed nothing"),
        ('print("half")\nraise SystemExit(3)\n', "exited 3"),
    ],
    ids=["repeated block", "bad name", "empty block", "no output", "failing program"],
)
def test_save_output_refuses(tmp_path, source, expected):
    done = save(tmp_path, source)
    assert done.returncode != 0 and expected in done.stderr, done.stderr
    assert not (tmp_path / "out" / "demos" / "prog.txt").exists()


def test_save_output_stamps_the_sources_of_a_machine_output(tmp_path):
    program = f'print("3 ns {protocol.MACHINE_MARK}")\n'
    assert save(tmp_path, program, "bench", "machine_info").returncode == 0
    saved = tmp_path / "out" / "bench" / "machine_info.txt"
    assert protocol.read_header(saved) == producers.sources_hash("bench/machine_info")
    # an output of out/bench/ whose sources nobody declared is refused
    assert "needs its sources" in save(tmp_path, 'print("1")\n', "bench", "unknown").stderr


# ---------------------------------------------------------------------------------------------
# Staleness: the comparison that tolerates the machine, and the sources hashes
# ---------------------------------------------------------------------------------------------


def saved_output(root: Path, whole: str, blocks: dict[str, str]) -> Path:
    write(root / "demos" / "prog.txt", whole)
    for name, text in blocks.items():
        write(root / "demos" / "prog" / f"{name}.txt", text)
    return root


def test_stale_comparison_ignores_only_what_depends_on_the_machine(tmp_path):
    def output(root, timing, value):
        machine = f"timing  {protocol.MACHINE_MARK}\n{timing} ns\n"
        return saved_output(
            tmp_path / root, f"head\n{machine}value {value}\n", {"t": machine, "v": f"{value}\n"}
        )

    saved, same, stale = output("a", 3, 7), output("b", 5, 7), output("c", 3, 8)
    assert check_stale.compare("out", saved, same, set()) == []
    problems = check_stale.compare("out", saved, stale, set())
    assert any("demos/prog.txt: stale" in p for p in problems), problems
    assert any("demos/prog/v.txt: stale" in p for p in problems), problems
    assert not any("demos/prog/t.txt" in p for p in problems), problems


def test_stale_comparison_catches_missing_and_orphan_outputs(tmp_path):
    saved = saved_output(tmp_path / "a", "x\n", {})
    made = saved_output(tmp_path / "b", "x\n", {})
    write(saved / "demos" / "old.txt", "no program makes this\n")
    write(made / "demos" / "new.txt", "not saved\n")
    problems = check_stale.compare("out", saved, made, set())
    assert any("old.txt: no program makes it" in p for p in problems), problems
    assert any("new.txt: missing" in p for p in problems), problems


def test_hash_check_catches_an_output_older_than_its_sources(tmp_path):
    out = tmp_path / "out"
    for key in producers.SOURCES:
        write(out / f"{key}.txt", producers.header(key, tmp_path) + "figures\n")
    for name, key in producers.COMPANIONS.items():
        saved = producers.sources_hash(key, tmp_path, check_stale.COMPANION_SOURCES.get(name))
        write(out / name, json.dumps({"sources_hash": saved}))
    assert check_stale.check_hashes(out, tmp_path) == []
    write(tmp_path / "demos" / "bench.py", "print('a faster benchmark')\n")  # a source changes
    problems = check_stale.check_hashes(out, tmp_path)
    assert any(p.startswith("out/bench/bench.txt: made from other sources") for p in problems)
    assert any(p.startswith("out/bench/bench.json:") for p in problems), problems


def test_block_check_catches_a_block_not_in_its_whole_output(tmp_path):
    """A half-swapped set: blocks of one run beside the whole output of another."""
    out = saved_output(tmp_path / "out", "title\none\ntwo\n", {"first": "one\n", "second": "two\n"})
    assert check_stale.block_problems(out) == []
    write(out / "demos" / "prog" / "second.txt", "two, from a newer run\n")
    problems = check_stale.block_problems(out)
    assert problems == [
        "out/demos/prog/second.txt: its text is not in its whole output out/demos/prog.txt "
        "(the two come from different runs: rerun the program)"
    ], problems
    (out / "demos" / "prog.txt").unlink()
    problems = check_stale.block_problems(out)
    assert any(
        "first.txt: a block whose whole output out/demos/prog.txt is gone" in p for p in problems
    )


def test_block_check_catches_a_temporary_file_left_by_a_killed_write(tmp_path):
    out = saved_output(tmp_path / "out", "title\none\n", {"first": "one\n"})
    write(out / "demos" / ".prog.txt.k3j9x2.part", "tit")
    write(out / "demos" / ".prog.new" / "first.txt", "one, from a newer run\n")
    problems = check_stale.block_problems(out)
    assert problems == [
        "out/demos/.prog.new: the temporary file of a cut write",
        "out/demos/prog/: its blocks were being swapped when a run was cut",
        "out/demos/.prog.txt.k3j9x2.part: the temporary file of a cut write",
    ], problems


def test_a_slow_output_keeps_its_numbers_and_blocks_and_the_run_records_are_copied(tmp_path):
    out = tmp_path / "out"
    slow = next(iter(producers.SOURCES))  # e.g. proofs/proofs: hash-checked, never made again
    write(out / f"{slow}.txt", "x\n")
    write(out / f"{slow}.numbers.json", "{}\n")
    write(out / slow / "block.txt", "x\n")
    write(out / "demos" / "prog.numbers.json", "{}\n")  # made again and compared: not here
    for record in producers.RUN_RECORDS:
        write(out / record, "{}\n")
    found = {path.as_posix() for path in check_stale.hashed_outputs(out)}
    assert {f"{slow}.txt", f"{slow}.numbers.json", f"{slow}/block.txt"} <= found
    assert set(producers.RUN_RECORDS) <= found
    assert "demos/prog.numbers.json" not in found


def numbers_file(root: Path, numbers: dict) -> Path:
    write(root / "demos" / "prog.txt", "x\n")
    stated = {
        key: {"value": value, "meaning": meaning} for key, (value, meaning) in numbers.items()
    }
    write(root / "demos" / "prog.numbers.json", json.dumps(stated, indent=1) + "\n")
    return root


def test_stale_comparison_of_stated_numbers_ignores_only_machine_measurements(tmp_path):
    def made(root, seconds, count):
        timing = (seconds, f"seconds to build the chain {protocol.MACHINE_MARK}")
        return numbers_file(tmp_path / root, {"build_s": timing, "nodes": (count, "its nodes")})

    saved, same, stale = made("a", 2.9, 7), made("b", 3.4, 7), made("c", 2.9, 8)
    assert check_stale.compare("out", saved, same, set()) == []
    problems = check_stale.compare("out", saved, stale, set())
    assert any("demos/prog.numbers.json: stale" in p for p in problems), problems


def test_stale_comparison_of_the_numbers_reference_ignores_machine_lines(tmp_path):
    mark = protocol.MACHINE_MARK

    def reference(root, seconds, nodes):
        return write(
            tmp_path / root / "numbers-reference.md",
            "| key | value | meaning | stated by |\n|---|---|---|---|\n"
            f"| `build_s` | `{seconds}` | seconds to build {mark} | demos/errors |\n"
            f"| `nodes` | `{nodes}` | its nodes | demos/errors |\n",
        ).parent

    saved, same, stale = reference("a", 2.9, 7), reference("b", 3.4, 7), reference("c", 2.9, 8)
    assert check_stale.compare("out", saved, same, set()) == []
    problems = check_stale.compare("out", saved, stale, set())
    assert any("numbers-reference.md: stale" in p for p in problems), problems


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_committed_check_catches_uncommitted_outputs(tmp_path):
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    write(tmp_path / "out" / "a.txt", "one\n")
    write(tmp_path / "excerpts" / "b.py", "x = 1\n")
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "outputs")
    assert check_stale.git_problems(tmp_path) == []
    write(tmp_path / "out" / "a.txt", "two\n")
    write(tmp_path / "excerpts" / "new.py", "y = 2\n")
    problems = check_stale.git_problems(tmp_path)
    assert any("differ from the last commit" in p and "out/a.txt" in p for p in problems)
    assert "excerpts/new.py: not committed (untracked)" in problems, problems


# ---------------------------------------------------------------------------------------------
# The site: mkdocs --strict with the hook, the HTML check, the browser
# ---------------------------------------------------------------------------------------------


def site_project(book: Path) -> Path:
    """The book's own mkdocs.yml and hook, with a navigation for the small book."""
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = "\nnav:\n  - index.md\n  - short/one.md\n  - book.md\n  - Source: [source/index.md]\n"
    config = config[: config.index("\nnav:")] + nav
    (book / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copytree(REPO / "docs" / "hooks", book / "docs" / "hooks")
    shutil.copytree(REPO / "docs" / "assets", book / "docs" / "assets")
    shutil.copytree(REPO / "docs" / "stylesheets", book / "docs" / "stylesheets")
    shutil.copytree(REPO / "docs" / "javascripts", book / "docs" / "javascripts")
    (book / "code").mkdir(exist_ok=True)  # mkdocs.yml watches it
    return book


def build_command(book: Path) -> subprocess.CompletedProcess:
    """`mkdocs build` of the small book as the build runs it, in a child process (no PDF)."""
    env = {**os.environ, "UOPC_NO_PDF": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-f", str(book / "mkdocs.yml")]
    return subprocess.run(command, cwd=book, capture_output=True, text=True, timeout=600, env=env)


def build(book: Path) -> SimpleNamespace:
    """`mkdocs build` of the small book, without printing its PDF (docs/hooks/onepage.py): the
    printed PDF is checked on the real book, by tests/browser/ in .ci/run. The command's own
    entry point is called in this process, from the book's folder (a child process for each
    build would import mkdocs and its theme again): its exit status and what it printed. What
    the command leaves on mkdocs's build logger (a filter that drops a message already logged,
    in this process) is taken off after each build, as a new process would start without it.
    test_mkdocs_strict_build_with_the_hook_then_a_broken_anchor runs the command itself."""
    from mkdocs.__main__ import cli
    from mkdocs.commands import build as building

    printed, said, status = io.StringIO(), io.StringIO(), 0
    filters = list(building.log.filters)
    folder, pdf = os.getcwd(), os.environ.get("UOPC_NO_PDF")
    os.environ["UOPC_NO_PDF"] = "1"
    os.chdir(book)
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said):
            cli.main(["build", "-f", str(book / "mkdocs.yml")], prog_name="mkdocs")
    except SystemExit as stop:  # as the command ends: click's exit with the status
        status = stop.code if isinstance(stop.code, int) else 1
    finally:
        building.log.filters[:] = filters
        os.chdir(folder)
        if pdf is None:
            del os.environ["UOPC_NO_PDF"]
        else:
            os.environ["UOPC_NO_PDF"] = pdf
    return SimpleNamespace(returncode=status, stdout=printed.getvalue(), stderr=said.getvalue())


@pytest.mark.slow
def test_mkdocs_strict_build_with_the_hook_then_a_broken_anchor(book):
    site_project(book)
    done = build_command(book)
    assert done.returncode == 0, done.stderr
    html = (book / "site" / "short" / "one.html").read_text(encoding="utf-8")
    assert "The program prints 1 lines" in html and "double" in html and "--8&lt;--" not in html
    assert (book / "site" / "figures" / "graph.svg").exists()  # published by the hook
    assert html_check(book / "site").returncode == 0
    plant(book / "docs" / "short" / "one.md", "(#the-output)", "(#no-such-part)")
    done = build_command(book)
    assert done.returncode != 0 and "no-such-part" in done.stderr, done.stderr
    said = build(book)  # the call in this process fails alike
    assert said.returncode == done.returncode and "no-such-part" in said.stderr, said.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("{{ n.lines }}", "{{ n.lenes }}", "unknown number"),
        ("{{ n.lines }}", "{{ n.lines }", "does not parse"),
        ("{{ n.lines }}", "{{ n.lines:%x }}", "n.lines:%x"),
    ],
    ids=["unknown key", "broken placeholder", "bad format"],
)
def test_mkdocs_build_fails_on_a_bad_number(book, old, new, expected):
    site_project(book)
    plant(book / "docs" / "short" / "one.md", old, new)
    done = build(book)
    assert done.returncode != 0 and expected in done.stderr, done.stderr


def with_numbers(book: Path, **numbers) -> None:
    path = book / "out" / "numbers.json"
    stated = json.loads(path.read_text(encoding="utf-8"))
    stated.update(numbers)
    path.write_text(json.dumps(stated), encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize(
    "value, expected",
    [
        (None, "is null"),
        ([1, 2], "is list [1, 2], not a number or a string"),
        ({"value": 1}, "is dict {'value': 1}"),
        (True, "is bool True"),
        (float("nan"), "is nan, not a finite number"),
        ("two\nlines", "is 'two\\nlines': a string with a line break"),
    ],
    ids=["null", "list", "dict", "bool", "NaN", "line break"],
)
def test_mkdocs_build_fails_on_a_malformed_number(book, value, expected):
    site_project(book)
    with_numbers(book, lines=value)
    done = build(book)
    assert done.returncode != 0, done.stderr
    message = f"short/one.md: number lines in out/numbers.json {expected}"  # page and key
    assert message in done.stderr, done.stderr


@pytest.mark.slow
def test_mkdocs_build_names_the_page_of_a_missing_number(book):
    site_project(book)
    numbers = book / "out" / "numbers.json"
    numbers.write_text(json.dumps({"_missing": []}), encoding="utf-8")  # no key `lines`
    done = build(book)
    assert done.returncode != 0
    assert "short/one.md: unknown number {{ n.lines }}" in done.stderr, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("text", ["", "  \n\n\t\n"], ids=["empty", "whitespace"])
def test_mkdocs_build_fails_on_an_empty_included_file(book, text):
    site_project(book)
    (book / "out" / "short" / "demo.txt").write_text(text, encoding="utf-8")
    done = build(book)
    assert done.returncode != 0, done.stderr
    expected = "short/one.md:12: the included file out/short/demo.txt is empty"
    assert expected in done.stderr, done.stderr


# The hooks on damaged inputs (issue 31), called as mkdocs calls them, without a build: each
# fault is one PluginError naming the file and what is wrong, never a Python traceback.
def load_hook(name: str):
    spec = importlib.util.spec_from_file_location(
        f"hook_{name}", REPO / "docs/hooks" / f"{name}.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class HookConfig(dict):
    """What the hooks read of mkdocs' config: its file's path, and the snippets base path."""

    def __init__(self, root: Path):
        super().__init__(mdx_configs={"pymdownx.snippets": {"base_path": [str(root)]}})
        self.config_file_path = str(root / "mkdocs.yml")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[" * 100_000 + "]" * 100_000, "is nested too deeply to be a JSON object of numbers"),
        ('{"_missing": 7, "lines": 1}', ": _missing is 7, not a list of output names"),
        ('{"_missing": ["a", 3], "lines": 1}', ": _missing is ['a', 3], not a list of output"),
        (b"{\xff}", "is not JSON: "),
    ],
    ids=["deep", "missing number", "missing list of a number", "not UTF-8"],
)
def test_numbers_hook_refuses_a_damaged_numbers_file_in_one_message(tmp_path, text, expected):
    from mkdocs.exceptions import PluginError

    path = tmp_path / "out" / "numbers.json"
    path.parent.mkdir()
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(PluginError) as caught:
        load_hook("numbers").on_config(HookConfig(tmp_path))
    assert str(caught.value).startswith(str(path)) and expected in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "content, expected",
    [
        (None, "short/one.md:3: the included file out/x.txt is missing"),
        (b"ok \xff\xfe\n", "short/one.md:3: the included file out/x.txt is not UTF-8 text: byte"),
        (b" \n", "short/one.md:3: the included file out/x.txt is empty"),
    ],
    ids=["missing", "not UTF-8", "empty"],
)
def test_includes_hook_names_the_page_and_the_file(tmp_path, content, expected):
    from mkdocs.exceptions import PluginError

    (tmp_path / "out").mkdir()
    if content is not None:
        (tmp_path / "out" / "x.txt").write_bytes(content)
    page = SimpleNamespace(file=SimpleNamespace(src_uri="short/one.md"))
    markdown = '# One\n\n--8<-- "out/x.txt"\n'
    with pytest.raises(PluginError, match=re.escape(expected)):
        load_hook("includes").on_page_markdown(markdown, page, HookConfig(tmp_path), None)
    (tmp_path / "out" / "x.txt").write_text("fine\n", encoding="utf-8")
    hook = load_hook("includes")
    assert hook.on_page_markdown(markdown, page, HookConfig(tmp_path), None) == markdown


@pytest.mark.slow
@pytest.mark.parametrize(
    "content, expected",
    [(None, "is missing"), (b"\xff\n", "is not UTF-8 text")],
    ids=["missing", "not UTF-8"],
)
def test_mkdocs_build_names_a_bad_included_file_in_one_line(book, content, expected):
    site_project(book)
    demo = book / "out" / "short" / "demo.txt"
    demo.unlink()
    if content is not None:
        demo.write_bytes(content)
    done = build(book)
    assert done.returncode != 0, done.stderr
    assert f"short/one.md:12: the included file out/short/demo.txt {expected}" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr


MARKUP = "<b>bold</b> & *star* _under_ `tick` [link](x.html) 2^3 a|b {: .c} \\ #5 {{ n.lines }}"
MARKUP_PAGE = """\
    # Marks

    Prose: {{ n.markup }} end.

    {{ n.dash }} at the start of a paragraph, and {{ n.ordinal }}

    {{ n.ordinal }}

    | value | next |
    |-------|------|
    | {{ n.markup }} | cell |

    In code: `{{ n.flags }}`.
    """


def text_of(fragment: str) -> str:
    """The text a reader sees in an HTML fragment that holds no tag."""
    assert "<" not in fragment, f"markup in {fragment!r}"
    return html.unescape(fragment)


@pytest.mark.slow
def test_mkdocs_build_puts_a_string_in_as_literal_text(book):
    site_project(book)
    marks = {"markup": MARKUP, "dash": "- not a list", "ordinal": "1. not a list"}
    with_numbers(book, **marks, flags="-O2 -x*y_z <a>")
    write(book / "docs" / "short" / "one.md", MARKUP_PAGE)
    done = build(book)
    assert done.returncode == 0, done.stderr
    page = (book / "site" / "short" / "one.html").read_text(encoding="utf-8")
    article = page[page.index("<h1") : page.index("</article>")]
    assert text_of(re.search(r"<p>Prose: (.*?) end\.</p>", article).group(1)) == MARKUP
    cell = re.search(r"<td>(.*?)</td>\s*<td>cell</td>", article).group(1)
    assert text_of(cell) == MARKUP  # the | did not split the cell
    paragraphs = [text_of(p) for p in re.findall(r"<p>([^<]*)</p>", article)]
    assert f"{marks['dash']} at the start of a paragraph, and {marks['ordinal']}" in paragraphs
    assert marks["ordinal"] in paragraphs
    for tag in ("<b>", "<em>", "<strong>", "<ul>", "<ol>", "<sup>", '<a href="x.html'):
        assert tag not in article, tag
    assert article.count("<code>") == 1  # the span of the page; none from a value
    assert "<code>-O2 -x*y_z &lt;a&gt;</code>" in article  # in a code span, as it is


@pytest.mark.slow
def test_mkdocs_build_refuses_a_backtick_inside_a_code_span(book):
    site_project(book)
    with_numbers(book, flags="a`b")
    write(book / "docs" / "short" / "one.md", "# Flags\n\nIn code: `{{ n.flags }}`.\n")
    done = build(book)
    assert done.returncode != 0 and "short/one.md: number flags = 'a`b' has a backtick" in (
        done.stderr
    ), done.stderr


def html_check(site: Path) -> SimpleNamespace:
    """The HTML checks (tests/browser/test_site_html.py) on a site, read as a run of a command."""
    found = test_site_html.problems(site)
    return SimpleNamespace(returncode=int(bool(found)), stdout="\n".join(found))


def small_site(tmp_path: Path) -> Path:
    """A built page and its neighbour, written by hand: what the HTML checks read."""
    site = tmp_path / "site"
    write(site / "index.html", '<a href="two.html#part">two</a><img src="img/a.svg">')
    write(site / "two.html", '<h2 id="part">Part</h2><a href="#part">here</a>')
    write(site / "img" / "a.svg", "<svg/>")
    return site


def test_html_check_catches_a_rooted_path_in_the_404_page(tmp_path):
    site = small_site(tmp_path)
    (site / "404.html").write_text('<html><link rel="stylesheet" href="/assets/x.css"></html>')
    done = html_check(site)
    assert done.returncode == 1 and "path from the root of the host" in done.stdout, done.stdout


@pytest.mark.parametrize(
    "fault, expected",
    [
        ('<a href="two.html#gone">x</a>', "no anchor #gone"),
        ('<a href="three.html">x</a>', "no such file"),
        ('<script src="https://cdn.example.com/x.js"></script>', "loaded from another host"),
        ('<link rel="stylesheet" href="//fonts.example.com/css">', "loaded from another host"),
        ('<a href="https://example.com/">x</a>', "not in LINK_HOSTS"),
        ("<p>{{ n.checks_total }}</p>", "leftover"),
        ('<code>--8&lt;-- "out/x.txt"</code>', "leftover"),
        ("<pre>@@ block relu</pre>", "leftover"),
    ],
    ids=["anchor", "file", "script", "stylesheet", "link", "number", "include", "marker"],
)
def test_html_check_catches(tmp_path, fault, expected):
    site = small_site(tmp_path)
    assert html_check(site).returncode == 0
    page = site / "two.html"
    page.write_text(page.read_text() + fault)
    done = html_check(site)
    assert done.returncode == 1 and expected in done.stdout, done.stdout


# ---------------------------------------------------------------------------------------------
# What the build makes beside the pages: the Source pages with listing titles linked to their
# lines (docs/hooks/source.py), the one-page edition (docs/hooks/onepage.py), figures that open
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_mkdocs_build_makes_source_pages_and_links_listing_titles(book):
    site_project(book)
    done = build(book)
    assert done.returncode == 0, done.stderr
    site = book / "site"
    source = (site / "source" / "uopc" / "mod.py.html").read_text(encoding="utf-8")
    # the whole file, markers included, each line its anchor and its number a link to it
    assert '<span id="L1">' in source and 'href="#L3"' in source and "[start:double]" in source
    page = (site / "short" / "one.html").read_text(encoding="utf-8")
    assert '<a href="../source/uopc/mod.py.html#L2">uopc/mod.py: double</a>' in page
    one = (site / "book.html").read_text(encoding="utf-8")
    assert 'id="short-one"' in one and 'href="#short-one--the-output"' in one
    assert 'href="#index"' in one and 'src="figures/graph.svg"' in one
    assert html_check(site).returncode == 0


@pytest.mark.slow
def test_mkdocs_build_fails_on_a_listing_whose_region_is_gone(book):
    """A stale excerpt still on disk, its region renamed in the source: the title's link would
    point nowhere, and the build says which listing and which region."""
    site_project(book)
    plant(book / "uopc" / "mod.py", "[start:double]", "[start:twice]")
    plant(book / "uopc" / "mod.py", "[end:double]", "[end:twice]")
    done = build(book)
    assert done.returncode != 0
    expected = "the listing 'excerpts/uopc/mod/double.py' has no region 'double' in uopc/mod.py"
    assert expected in done.stderr, done.stderr


def test_html_check_reads_a_source_page_s_code_as_the_file_s_text(tmp_path):
    site = small_site(tmp_path)
    write(site / "source" / "x.py.html", "<pre><code># --8&lt;-- [start:a]\n{{ n.x }}</code></pre>")
    assert html_check(site).returncode == 0
    page = site / "source" / "x.py.html"
    page.write_text(page.read_text() + "<p>--8&lt;-- &quot;out/x.txt&quot;</p>")
    done = html_check(site)
    assert done.returncode == 1 and "source/x.py.html:2: leftover" in done.stdout, done.stdout


TALL_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300pt" height="3000pt" viewBox="0 0 300 3000">'
    '<text x="10" y="30" font-size="12.00" fill="#1a237e">a tall figure</text></svg>\n'
)
WIDE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="800pt" height="60pt" viewBox="0 0 800 60">'
    '<text x="10" y="30" font-size="12.00" fill="#1a237e">a label of twelve units</text></svg>\n'
)


# ---------------------------------------------------------------------------------------------
# The browser tests (tests/browser/): one small book, then two runs of them side by side, each in
# a child process with a browser of its own: the clean site passes, and a copy with one planted
# fault per test fails each of those tests, by name. Started as the session starts
# (tests/early_runs.py), read by the two tests at the end.
# ---------------------------------------------------------------------------------------------

# the small book has no appendix F, no appendix B, no content tabs and no printed PDF (build()
# leaves it out); its screenshots would only be looked at on the real book
CLEAN_RUN = "not glossary and not appendix_b and not tabs and not pdf and not screenshots"
# on the faulty copy, only the tests a planted fault reaches (the clean run has run the rest),
# and of those only the cases BROWSER_FAILURES names (not the page survey at 390 px over http,
# nor the tall figure on a phone)
FAULT_RUN = (
    "(host or powers or 404_links or opens_whole or listing_title_links or holds_every)"
    " and not 390-http and not tall.svg-390"
)


def make_browser_book(folder: Path) -> Path:
    """The small book with two powers in its prose, built for the browser tests. Its figure,
    graph.svg, is captioned and narrow; the figures a phone cannot read are planted in the
    faulty copy (a figure too wide, below)."""
    book = site_project(make_book(folder))
    page = book / "docs" / "short" / "one.md"
    plant(page, "## The output", "It doubles 2^3^ times, then 2^5^ times.\n\n## The output")
    done = build(book)
    assert done.returncode == 0, done.stderr
    return book


def start_browser_tests(site: Path, shots: Path, chosen: str) -> subprocess.Popen:
    """Starts tests/browser on the site (those whose names match `chosen`, pytest's -k) in a
    child process, its report read whole when it ends."""
    command = [sys.executable, "-m", "pytest", REPO / "tests" / "browser", "--site", site,
               "--shots", shots, "-k", chosen, "-p", "no:cacheprovider", "-vv", "--tb=no",
               "-rfE"]  # fmt: skip
    output = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    return subprocess.Popen(list(map(str, command)), cwd=REPO, **output)


def run_browser_tests(folder: Path) -> None:
    """The two runs of tests/browser, side by side (each waits on its browser more than it
    computes): on the small book, and on a copy with the faults planted (planted_site). Each
    run's report goes to folder/NAME.txt when it ends, whole (a rename). A program of its own,
    started as the session starts (tests/early_runs.py), so that the runs overlap the other
    tests."""
    book = make_browser_book(folder / "book")
    sites = {"clean": book / "site", "faulty": planted_site(book, folder)}
    chosen = {"clean": CLEAN_RUN, "faulty": FAULT_RUN}
    runs = {name: start_browser_tests(site, folder / f"shots-{name}", chosen[name])
            for name, site in sites.items()}  # fmt: skip
    for name, child in runs.items():
        report = child.communicate()[0]
        (folder / f"{name}.part").write_text(report, encoding="utf-8")
        (folder / f"{name}.part").replace(folder / f"{name}.txt")


def browser_report(folder: Path, name: str) -> tuple[str, dict[str, str]]:
    """The report of the run NAME ("clean" or "faulty"), waited for, and {failed test id: its
    message}."""
    report = early_runs.wait_for(folder, name)
    failed: dict[str, str] = {}
    for test, said in re.findall(r"^(?:FAILED|ERROR) tests/browser/(\S+)(?: - (.*))?$",
                                 report, re.M):  # fmt: skip
        failed.setdefault(test, said)  # -rfE: a test's failure first, then its teardown's error
    return report, failed


@pytest.fixture
def browser_runs(request) -> Path:
    """The folder of the two runs, started as the session started (tests/early_runs.py), or
    here if they were not."""
    if shutil.which("chromium") is None:
        pytest.skip("no chromium (scripts/setup.sh)")
    return early_runs.folder_of_runs(request.config)


# Both tests read what the runs printed, so they wait for them: they come last (tests/conftest.py:
# the marker `late`), by when the runs, started as the session started, are done or nearly.
@pytest.mark.late
def test_browser_tests_pass_on_the_small_book(browser_runs):
    report, failed = browser_report(browser_runs, "clean")
    html = (browser_runs / "book" / "site" / "short" / "one.html").read_text(encoding="utf-8")
    assert "2<sup>3</sup>" in html and "2<sup>5</sup>" in html  # pymdownx.caret
    assert not failed and re.search(r"= \d+ passed, \d+ deselected in ", report), report
    assert (browser_runs / "shots-clean" / "step-dark.png").exists()


BROWSER_FAULTS = [  # (file of the site, text, its replacement): one fault for each test below
    ("short/one.html", "</head>", '<script src="https://cdn.example.com/x.js"></script></head>'),
    ("short/one.html", "</article>", "<p>then 2^4 again</p></article>"),
    ("404.html", "</head>", '<link rel="stylesheet" href="/assets/gone.css"></head>'),
    ("short/one.html", 'class="glightbox"', 'class="not-a-lightbox"'),  # graph.svg
    ("short/one.html", "mod.py.html#L2", "mod.py.html#L4"),  # a title links to the wrong line
]
BROWSER_FAILURES = {  # each test the faulty copy must fail, and a word of what it must say
    "test_browser_pages.py::test_no_page_requests_another_host[1280-http]": "cdn.example.com/x.js",
    "test_browser_pages.py::test_no_page_requests_another_host[390-file]": "cdn.example.com/x.js",
    "test_browser_pages.py::test_powers_are_superscripts": "short/one.html: 2^4",
    "test_browser_404.py::test_404_links_nothing_from_the_server_s_root": "/assets/gone.css",
    "test_browser_figures.py::test_a_figure_opens_whole_with_its_caption[graph.svg-1280]":
        "not in a link that opens it",
    "test_browser_figures.py::test_a_figure_opens_whole_with_its_caption[graph.svg-390]":
        "not in a link that opens it",
    "test_browser_source.py::test_each_listing_title_links_to_its_first_line":
        "mod.py.html#L4 is not the listing's first line",
    "test_browser_onepage.py::test_the_one_page_edition_holds_every_page_once_in_order":
        "short-one",
    # a figure drawn 800 units wide, fitted to a phone: its 12-unit text comes out near 6 px
    "test_browser_figures.py::test_a_figure_opens_whole_with_its_caption[wide.svg-390]":
        "its smallest text is ",
    "test_browser_figures.py::test_a_figure_opens_whole_with_its_caption[wide.svg-1280]":
        "the lightbox shows no caption",
    # without the site's style, GLightbox fits a tall figure to the window's height too
    "test_browser_figures.py::test_a_figure_opens_whole_with_its_caption[tall.svg-1280]":
        "of 400 px wide",
}  # fmt: skip


@pytest.mark.late
def test_browser_tests_catch_each_planted_fault(browser_runs):
    """One fault per test, all in one copy of the site and one run: each test fails on its own
    fault, by name."""
    report, failed = browser_report(browser_runs, "faulty")
    for test, said in BROWSER_FAILURES.items():
        assert test in failed, f"{test} did not fail:\n{report}"
        assert said in (failed[test] or ""), f"{test} said {failed[test]!r}"


def planted_site(book: Path, folder: Path) -> Path:
    """A copy of the small book's site with BROWSER_FAULTS planted; besides them, the one-page
    edition loses a page, a figure too wide for a phone comes without its caption in the
    lightbox, and a tall one loses the site's style for opened figures."""
    site = Path(shutil.copytree(book / "site", folder / "site"))
    add_figure(site, "wide.svg", WIDE_SVG, caption_in_lightbox=False)
    add_figure(site, "tall.svg", TALL_SVG)
    for name, old, new in BROWSER_FAULTS:
        plant(site / name, old, new)
    text = (site / "book.html").read_text(encoding="utf-8")
    start = text.index('<section class="onepage-page" id="short-one">')
    end = text.index("</section>", start) + len("</section>")
    (site / "book.html").write_text(text[:start] + text[end:], encoding="utf-8")
    (site / "stylesheets" / "generated.css").write_text("", encoding="utf-8")
    return site


def add_figure(site: Path, name: str, svg: str, caption_in_lightbox: bool = True) -> None:
    """figures/NAME on the small book's page, after its figure of graph.svg and written as the
    build writes that one (caption under it, and handed to the lightbox unless told not to)."""
    write(site / "figures" / name, svg)
    page = site / "short" / "one.html"
    text = page.read_text(encoding="utf-8")
    block = re.search(r"<figure\b.*?</figure>", text, re.S).group(0)
    assert "graph.svg" in block, block
    copy = block.replace("graph.svg", name)
    if not caption_in_lightbox:
        copy = copy.replace("data-description=", "data-said=", 1)
    page.write_text(text.replace(block, f"{block}\n{copy}", 1), encoding="utf-8")
