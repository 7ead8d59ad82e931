"""The planted bugs under pytest: their targets (always run) and their catching (opt-in).

The fast tests read the working tree's sources (never `uopc.__file__`, which is a mutated copy
during a planted-bug run): every mutant's original text occurs exactly once, so a refactor that
moves a target fails here at once instead of leaving a mutant that silently tests nothing; and
the list is as long as verification.md §9 and the brief ask: the 19 of the book, one more for
every strict rule that none of the 19 edits, and at least five beyond the rules (renderer,
runtime, builder, text format, interpreter). The slow test, marked `mutation` (deselected
unless `-m` is given), runs `tests/mutants.py` and requires every mutant to be caught.
"""

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import counting
import mutants
import pytest

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
    """The whole harness in a fresh process: every mutant caught, the control not."""
    size = ["--full"] if counting.full() else []
    command = [sys.executable, str(Path(mutants.__file__)), *size]
    env = {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"}
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    lines = done.stdout.splitlines()
    not_caught = [line for line in lines if line[4:12].strip() in ("survived", "ERROR")]
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
    small = {"mutant_matrix.py": ["--layers", "CP"], "mutants.py": ["--files", "test_pipeline.py"]}
    command = [sys.executable, str(mutants.TESTS / script), "--only", "2", "11", *small[script]]
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
    import mutant_matrix

    names = {m.name for m in mutants.MUTANTS}
    assert set(mutant_matrix.SINGLE_REASONS) <= names, set(mutant_matrix.SINGLE_REASONS) - names
