"""The planted bugs under pytest: their targets (always run) and their catching (opt-in).

The fast tests read the working tree's sources (never `uopc.__file__`, which is a mutated copy
during a planted-bug run): every mutant's original text occurs exactly once, so a refactor that
moves a target fails here at once instead of leaving a mutant that silently tests nothing; and
the list is as long as verification.md §9 and the brief ask: the 19 of the book, one more for
every strict rule that none of the 19 edits, and at least five beyond the rules (renderer,
runtime, builder, text format, interpreter). The slow test, marked `mutation` (deselected
unless `-m` is given), runs `tests/mutant_matrix.py` and requires every mutant to be caught.

The matrix's own machinery is checked on tiny runs (two planted bugs, the two cheapest columns,
a second or two each) in a copy of the tree: the printed report and the numbers it states, the
saved cells used again, a changed test file rerunning its column only, a changed module of the
package rerunning everything.
"""

import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from book import protocol
from verify import mutant_matrix, mutants

SYMBOLIC = mutants.PACKAGE / "symbolic.py"
OWN_FILES = ("render.py", "runtime.py", "builder.py", "textfmt.py", "interp.py")


def strict_rule_spans() -> dict[str, tuple[int, int]]:
    """Rule name -> (first, last) line of its decorator and function, for every rule
    registered in SYM, read from the source with `ast` (no import)."""
    spans = {}
    for node in ast.walk(ast.parse(SYMBOLIC.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and getattr(decorator.func, "id", None) == "rule"
                and getattr(decorator.args[-1], "id", None) == "SYM"
            ):
                first = min(d.lineno for d in node.decorator_list)
                spans[decorator.args[0].value] = (first, node.end_lineno)
    return spans


def edited_lines(mutant) -> tuple[int, int]:
    """(first, last) line of the mutant's original text in the working tree's file."""
    text = (mutants.PACKAGE / mutant.file).read_text(encoding="utf-8")
    start = text.index(mutant.original)
    first = text.count("\n", 0, start) + 1
    return first, first + mutant.original.rstrip("\n").count("\n")


def rules_broken(mutant, spans) -> set[str]:
    """The strict rules whose decorator or function the mutant edits."""
    if mutant.file != "symbolic.py":
        return set()
    first, last = edited_lines(mutant)
    return {name for name, (lo, hi) in spans.items() if first <= hi and lo <= last}


@pytest.mark.parametrize(
    "mutant", [*mutants.MUTANTS, mutants.CONTROL], ids=lambda m: m.name.replace(" ", "_")
)
def test_mutant_target_occurs_once(mutant):
    problem = mutants.target_problem(mutant)
    assert problem is None, f"{mutant.name}: {problem}"


def test_mutant_list_covers_the_book_every_strict_rule_and_more():
    from uopc.symbolic import SYM

    spans = strict_rule_spans()
    assert set(spans) == {r.name for r in SYM}, "every SYM rule must be found in the source"
    book = [m for m in mutants.MUTANTS if m.group == "book"]
    assert len(book) == 19
    by_book = set().union(*(rules_broken(m, spans) for m in book))
    not_by_book = set(spans) - by_book
    # one rule mutant per rule the book leaves alone, each editing the rule it is named after
    for mutant in (m for m in mutants.MUTANTS if m.group == "rule"):
        named = mutant.name.removeprefix("rule ").rsplit(":", 1)[0]
        assert rules_broken(mutant, spans) == {named}, f"{mutant.name} edits another rule"
    covered = set().union(*(rules_broken(m, spans) for m in mutants.MUTANTS))
    assert covered == set(spans), f"strict rules no mutant breaks: {set(spans) - covered}"
    own = [m for m in mutants.MUTANTS if m.group == "own"]
    assert {m.file for m in own} >= set(OWN_FILES)
    assert len(own) >= 5
    assert len(mutants.MUTANTS) >= 19 + len(not_by_book) + 5


def test_mutant_names_fit_the_matrix():
    names = [m.name for m in mutants.MUTANTS]
    assert len(set(names)) == len(names), "mutant names must be unique"
    too_long = [n for n in names if len(n) > 42]
    assert not too_long, f"names longer than the matrix's 43-character column allows: {too_long}"


def test_copy_is_separate_and_mutated(tmp_path):
    """make_copy edits a copy and leaves the working tree alone."""
    mutant = mutants.MUTANTS[0]
    before = (mutants.PACKAGE / mutant.file).read_text(encoding="utf-8")
    copy = mutants.make_copy(mutant, tmp_path)
    edited = (copy / mutant.file).read_text(encoding="utf-8")
    assert mutant.replacement in edited and mutant.original not in edited
    assert (mutants.PACKAGE / mutant.file).read_text(encoding="utf-8") == before


@pytest.mark.mutation
@pytest.mark.slow
@pytest.mark.needs_clang
def test_every_mutant_is_caught(tmp_path):
    """The whole matrix in a fresh process (its saved cells used where they are current):
    every mutant caught, the control not."""
    size = ["--full"] if protocol.full() else []
    command = [sys.executable, str(Path(mutant_matrix.__file__)), *size]
    env = {k: v for k, v in os.environ.items() if k not in ("UOPC_COUNTS", "BOOK_NUMBERS")}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    lines = done.stdout.splitlines()
    not_caught = [line for line in lines if line[4:12].strip() == "survived"]
    assert not not_caught, "\n".join(["mutants not caught:", *not_caught])
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"MUTANTS {len(mutants.MUTANTS)} {len(mutants.MUTANTS)}" in lines


@pytest.mark.slow
@pytest.mark.parametrize("script", ["mutant_matrix.py", "mutants.py"])
def test_a_killed_run_leaves_no_copy_behind(tmp_path, script):
    """SIGTERM to the harness while its workers run: it exits 143, every private copy of uopc
    is removed, and the working tree's sources are as they were."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"}
    env.update(TMPDIR=str(temporary), UOPC_CACHE=str(tmp_path / "cache"))
    before = {path: path.read_bytes() for path in mutants.PACKAGE.glob("*.py")}
    small = {
        "mutant_matrix.py": ["--layers", "CP", "--cells", str(tmp_path / "cells")],
        "mutants.py": ["--files", "test_dtypes.py"],  # a small file: its baseline runs first
    }
    start = {"mutant_matrix.py": [str(mutants.TESTS / script)]}
    start["mutants.py"] = ["-m", "verify.mutants"]
    command = [sys.executable, *start[script], "--only", "2", "11", *small[script]]
    run = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL)
    copies = lambda: [p for p in temporary.iterdir() if p.name.startswith("uopc-m")]  # noqa: E731
    deadline = time.monotonic() + 60
    while len(copies()) < 2 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.1)
    assert copies(), "the harness made no private copy within a minute"
    run.send_signal(signal.SIGTERM)
    assert run.wait(timeout=120) == 128 + signal.SIGTERM
    assert copies() == [], [(p, sorted(x.name for x in p.iterdir())) for p in copies()]
    assert {path: path.read_bytes() for path in mutants.PACKAGE.glob("*.py")} == before


def test_single_catcher_reasons_name_real_mutants():
    from verify import mutant_matrix

    names = {m.name for m in mutants.MUTANTS}
    assert set(mutant_matrix.SINGLE_REASONS) <= names, set(mutant_matrix.SINGLE_REASONS) - names


# ---------------------------------------------------------------------------------------------
# The matrix's machinery, on tiny runs in a copy of the tree
# ---------------------------------------------------------------------------------------------

TINY = ["--only", "2", "17", "--layers", "AI"]  # unit catches 2, text catches 17: a second each


@pytest.fixture
def tree(tmp_path):
    """A copy of the package, the tests and the book's machinery: files the tests may edit."""
    root = tmp_path / "tree"
    shutil.copytree(mutants.PACKAGE, root / "uopc", ignore=shutil.ignore_patterns("__pycache__"))
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache")
    shutil.copytree(mutants.TESTS, root / "tests", ignore=ignore)
    for package in ("book", "verify"):
        shutil.copytree(mutants.REPO / package, root / package, ignore=ignore)
    return root


def run_matrix(tree, *extra, numbers=False):
    """tests/mutant_matrix.py of the copied tree on the tiny run: (exit status, stdout)."""
    env = {k: v for k, v in os.environ.items() if k not in ("UOPC_COUNTS", "BOOK_NUMBERS")}
    env["BOOK_NUMBERS"] = "1" if numbers else "0"
    env["UOPC_CACHE"] = str(tree.parent / "c-cache")
    env["PYTHONPATH"] = str(tree)  # the copied tree's harness and package, not this checkout's
    command = [sys.executable, str(tree / "tests" / "mutant_matrix.py"), *TINY, *extra]
    command += ["--cells", str(tree.parent / "cells")]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout


def cells_run(output: str) -> tuple[int, int]:
    found = re.search(r"cells run (\d+), reused (\d+) ", output)
    return int(found[1]), int(found[2])


def cells_skipped(output: str) -> int:
    return int(re.search(r"skipped (\d+) \(never reached\)", output)[1])


def verdicts(output: str) -> list[str]:
    """The output less the lines of this machine."""
    return [line for line in output.splitlines() if not line.endswith(protocol.MACHINE_MARK)]


@pytest.mark.needs_clang
def test_tiny_run_prints_matrix_list_and_numbers(tree):
    status, output = run_matrix(tree, numbers=True)
    assert status == 0, output
    lines = output.splitlines()
    shown = [line for line in lines if not line.startswith("@@ number ")]
    assert shown[:3] == [
        f"{'planted bug':<43}A I  n",
        f"{'split remainder may overflow':<43}x .  1",
        f"{'text format drops min/max bounds':<43}. x  1",
    ]
    for line in (
        "caught by layer: A 1, I 1",
        "caught by exactly one layer: 2 of 2",
        "  split remainder may overflow (by A)",
        "caught by no layer: none",
        "caught by none of A to L: none",
        f"control ({mutants.CONTROL.name}): caught by no layer, as it must",
        "sizes: quick; 2 mutants",
    ):
        assert line in shown, line
    # the list of the old mutants.py: the first column that caught each bug, its first check
    listed = [line for line in shown if re.match(r"^ *\d+ (caught|survived) ", line)]
    assert listed[0].startswith(f"  2 caught   {'split remainder may overflow':<42} A: ")
    assert "unit failures:" in listed[0]
    assert listed[1].startswith(f" 17 caught   {'text format drops min/max bounds':<42} I: ")
    # MUTANTS after the verdicts; only lines of this machine after it, each marked so
    after = shown[shown.index("MUTANTS 2 2") + 1 :]
    assert len(after) == 2 and all(line.endswith(protocol.MACHINE_MARK) for line in after), after
    numbers = dict(re.findall(r"^@@ number (\w+) = (\S+)  # .+$", output, re.M))
    assert numbers == {
        "mutants_total": "2",
        "mutants_caught": "2",
        "mutants_single_catcher": "2",
        "mutants_matrix_total": "2",
        "mutants_single_layer": "2",
        "mutants_single_book_layer": "2",
        "mutants_matrix_rows": "2",
        "mutants_missed": "0",
    }
    # the children's bytecode stays in the tree's build/ for the next run, but not a copy's
    cache = tree / "build" / "mutant-pycache"
    assert any(cache.rglob("test_rules_unit*.pyc")), "no bytecode kept for the next run"
    left = list(mutants.mirror(Path(tempfile.gettempdir()), str(cache)).glob("uopc-*"))
    assert not left, f"a copy's bytecode outlived the copy: {left}"


@pytest.mark.slow  # five runs of the tiny matrix
@pytest.mark.needs_clang
def test_cells_are_reused_and_rerun_where_their_sources_changed(tree):
    """Every cell run (--no-skip): the counts of cells run and reused are those of the rows."""
    status, first = run_matrix(tree, "--no-skip")
    assert status == 0 and "@@ number" not in first, first  # by hand: no numbers printed
    assert cells_run(first) == (8, 0)  # baseline, control and two bugs, two columns each
    saved = [p for p in (tree.parent / "cells").glob("*.json")]
    assert len(saved) == 8 and not list((tree.parent / "cells").glob(".*")), "temporary left"
    status, again = run_matrix(tree, "--no-skip")
    assert status == 0 and cells_run(again) == (0, 8)
    assert verdicts(again) == verdicts(first)
    # a test file changed: its column runs again, the other is reused
    with open(tree / "tests" / "test_rules_unit.py", "a", encoding="utf-8") as out:
        out.write("\n# edited by test_mutants\n")
    status, unit_changed = run_matrix(tree, "--no-skip")
    assert status == 0 and cells_run(unit_changed) == (4, 4)
    assert verdicts(unit_changed) == verdicts(first)
    # any file of the package changed: every cell runs again (a catch may depend on any module)
    with open(tree / "uopc" / "dtypes.py", "a", encoding="utf-8") as out:
        out.write("\n# edited by test_mutants\n")
    status, package_changed = run_matrix(tree, "--no-skip")
    assert status == 0 and cells_run(package_changed) == (8, 0)
    status, fresh = run_matrix(tree, "--no-skip", "--fresh")
    assert status == 0 and cells_run(fresh) == (8, 0)
    assert verdicts(fresh) == verdicts(first)


@pytest.mark.needs_clang
def test_cells_a_column_cannot_reach_are_skipped_with_the_same_verdicts(tree):
    """A cell whose column never ran the lines its bug edits is not run and prints as not
    caught, as its run does; the unmutated copy's lines are saved and used again."""
    status, first = run_matrix(tree, "--details", str(tree.parent / "details.txt"))
    skipped = cells_skipped(first)
    assert status == 0 and skipped >= 1 and cells_run(first) == (8 - skipped, 0), first
    details = (tree.parent / "details.txt").read_text(encoding="utf-8")
    assert details.count(" | not run: none of lines ") == skipped, details
    status, again = run_matrix(tree)
    assert status == 0 and cells_run(again) == (0, 8 - skipped) and cells_skipped(again) == skipped
    assert verdicts(again) == verdicts(first)
    # the skipped cells run: not one of them catches its bug
    status, every = run_matrix(tree, "--no-skip")
    assert status == 0 and cells_skipped(every) == 0 and cells_run(every) == (skipped, 8 - skipped)
    assert verdicts(every) == verdicts(first)


def test_cell_keys_follow_their_sources():
    """A column's key changes with its own test file, a helper, the package, the mutant and the
    size; not with another column's file."""
    others = mutant_matrix.other_files()
    mutant, package = mutants.MUTANTS[0], mutant_matrix.package_digest()

    def keys(files=None, **change):
        given = {"mutant": mutant, "size": "quick", "package": package, **change}
        return mutant_matrix.cell_keys(
            given["mutant"], "AIP", given["size"], given["package"], others, dict(files or {})
        )

    base = keys()
    unit = keys({mutants.TESTS / "test_rules_unit.py": "edited"})
    assert unit["A"] != base["A"] and unit["I"] == base["I"] and unit["P"] == base["P"]
    helper = keys({mutants.REPO / "verify" / "generators.py": "edited"})
    assert all(helper[letter] != base[letter] for letter in "AIP")
    other = keys({mutants.TESTS / "test_render.py": "edited"})
    assert other["P"] != base["P"] and other["A"] == base["A"]
    for change in ({"package": "edited"}, {"size": "full"}, {"mutant": mutants.MUTANTS[1]}):
        assert all(v != base[k] for k, v in keys(**change).items()), change


def test_other_tests_leave_out_the_book_production():
    names = {Path(f).name for f in mutant_matrix.other_files()}
    assert not names & set(mutants.book_tests())
    assert not names & set(mutant_matrix.LAYER_FILES)
    assert "test_render.py" in names and not hasattr(mutants, "BOOK_FILES")


def test_other_tests_order_puts_likely_catchers_first():
    """Last catches first, then the edited module's quick tests, other quick tests, slow ones."""
    nodes = ["tests/test_a.py::slow", "tests/test_a.py::quick", "tests/test_b.py::quick",
             "tests/test_b.py::caught", "tests/test_b.py::slow"]  # fmt: skip
    items = [type("Item", (), {"nodeid": node})() for node in nodes]
    order = {
        "first": ["tests/test_b.py::caught"],
        "own": "tests/test_b.py",
        "slow": ["tests/test_a.py::slow", "tests/test_b.py::slow"],
    }
    assert [item.nodeid for item in mutants.ordered(items, order)] == [
        "tests/test_b.py::caught", "tests/test_b.py::quick", "tests/test_a.py::quick",
        "tests/test_b.py::slow", "tests/test_a.py::slow",
    ]  # fmt: skip
    assert mutants.ordered(items, {}) == items


def test_p_runs_the_last_catches_alone_first(monkeypatch):
    """A P cell runs the tests that caught its bug last time alone first; when none of them
    fails (a stale hint), the whole run follows and gives the verdict it gives without hints."""
    bug = next(m for m in mutants.MUTANTS if m.name == "C: INT_MIN literal without brackets")
    files = [str(mutants.TESTS / "test_render.py")]
    caught = "tests/test_render.py::test_literal[(-2147483647 - 1)]"
    stale = "tests/test_render.py::test_literal_refuses_anything_but_a_const[None]"
    # only tests of the files run, less the skipped ones, by their full paths
    hints = {"first": [stale, "tests/test_cli.py::test_check", caught]}
    assert mutants.first_nodes(hints, files, [stale]) == [files[0] + caught.split(".py", 1)[1]]
    runs, run_pytest = [], mutants.run_pytest

    def counted(root, copy, tests, *rest):
        runs.append(tests)
        return run_pytest(root, copy, tests, *rest)

    monkeypatch.setattr(mutants, "run_pytest", counted)
    details = []
    for hint in ([caught], [stale], []):
        result = mutants.run_suite(bug, files, False, [], True, {"first": hint})
        details.append((result["verdict"], result["detail"], len(runs)))
    assert details == [("caught", caught, 1), ("caught", caught, 3), ("caught", caught, 4)]


def test_first_check_names_the_first_failure():
    why = "AssertionError: 2 unit failures: | x*-1: got x, wanted -x | x*1: rule fired"
    assert mutant_matrix.first_check("A", why) == (
        "A: AssertionError: 2 unit failures: x*-1: got x, wanted -x"
    )
    assert mutant_matrix.first_check("P", "tests/test_x.py::test_y") == "P: tests/test_x.py::test_y"
    assert len(mutant_matrix.first_check("E", "E" * 500)) == 100


def test_saved_cells_are_written_whole(tmp_path):
    mutant_matrix.write_json(tmp_path / "cell.json", {"caught": True, "seconds": 1.0, "why": ""})
    assert json.loads((tmp_path / "cell.json").read_text()) == {
        "caught": True, "seconds": 1.0, "why": "",
    }  # fmt: skip
    assert [p.name for p in tmp_path.iterdir()] == ["cell.json"]
    assert mutant_matrix.load_cell(tmp_path, "cell") == (True, 1.0, "")
    (tmp_path / "cut.json").write_text('{"caught": tr', encoding="utf-8")
    assert mutant_matrix.load_cell(tmp_path, "cut") is None


def test_the_copy_stays_first_on_the_childrens_path_while_a_run_is_recorded(monkeypatch, tmp_path):
    """The build records what the harness's children import (book/used.py): the recorder goes
    last, the checkout before it, the mutated copy always first."""
    from book import used

    monkeypatch.setenv(used.RECORD_ENV, str(tmp_path / "record.txt"))
    path = mutants.child_env(tmp_path, False)["PYTHONPATH"].split(os.pathsep)
    assert path == [str(tmp_path), str(mutants.TESTS), str(mutants.REPO), str(used.RECORD_DIR)]
    monkeypatch.delenv(used.RECORD_ENV)
    assert mutants.child_env(tmp_path, False)["PYTHONPATH"].split(os.pathsep)[0] == str(tmp_path)
