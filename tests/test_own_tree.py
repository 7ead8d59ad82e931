"""Each checkout runs its own code (book/own_tree.py): the build, the tests and the demos stop
in one line when the `uopc` or the `book` they would import is not the one of their tree."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from book import own_tree

ROOT = Path(__file__).resolve().parents[1]


def test_the_tree_s_own_uopc_passes_and_any_other_is_named_with_the_fix(tmp_path):
    own = ROOT / "uopc"
    assert own_tree.problem(ROOT, own) is None
    said = own_tree.problem(ROOT, tmp_path / "uopc")
    assert said.startswith(f"uopc would be imported from {tmp_path / 'uopc'}, not from"), said
    assert f"this checkout's {own}: run with PYTHONPATH={ROOT} " in said, said
    assert "\n" not in said
    assert "from nowhere" in own_tree.problem(ROOT, None)
    # a copy named as the one under test (the planted-bug harness) is allowed, no other
    assert own_tree.problem(ROOT, tmp_path / "uopc", str(tmp_path / "uopc")) is None
    assert own_tree.problem(ROOT, tmp_path / "uopc", str(tmp_path / "other")) is not None


def test_the_tree_s_own_book_passes_and_another_is_named(tmp_path):
    assert own_tree.book_problem(ROOT) is None
    said = own_tree.book_problem(tmp_path)
    assert said == (
        f"book is imported from {ROOT / 'book'}, not from this checkout's {tmp_path / 'book'}: "
        f"run with PYTHONPATH={tmp_path}"
    )


@pytest.fixture
def foreign(tmp_path) -> Path:
    """Another checkout: its uopc, which `import uopc` finds first through PYTHONPATH, and its
    book (the same code as this one's), so that what it says does not depend on what is
    installed."""
    (tmp_path / "other" / "uopc").mkdir(parents=True)
    (tmp_path / "other" / "uopc" / "__init__.py").write_text("print('the other uopc')\n")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "book", tmp_path / "other" / "book", ignore=ignore)
    return tmp_path / "other"


def run(args, pythonpath: Path | str, cwd: Path, **extra) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", own_tree.TESTED_COPY)}
    env.update(PYTHONPATH=str(pythonpath), **extra)
    command = [sys.executable, *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


ENTRY_POINTS = {  # the program, then its arguments, started as a user starts it
    "build": [ROOT / "scripts" / "build_book.py", "--only", "no-such-program"],
    "save_output": [ROOT / "scripts" / "save_output.py", "demos", "x", "--", "true"],
    "demo": [ROOT / "demos" / "matcher.py"],
    "exercises": [ROOT / "code" / "exercises" / "solutions.py", "ch01"],
    "tests": ["-m", "pytest", "-q", "-p", "no:cacheprovider", ROOT / "tests" / "test_ops.py"],
}


@pytest.mark.parametrize("what", ENTRY_POINTS)
def test_an_entry_point_refuses_another_checkout_s_uopc_in_one_line(foreign, tmp_path, what):
    done = run(ENTRY_POINTS[what], foreign, cwd=tmp_path)
    assert done.returncode != 0, done.stdout + done.stderr
    said = (done.stderr + done.stdout).strip()
    expected = f"{foreign / 'uopc'}, not from this checkout's {ROOT / 'uopc'}: run with PYTHONPATH="
    assert expected in said and said.count("\n") == 0, said
    assert "the other uopc" not in said  # stopped before importing it


def test_the_tests_run_a_copy_named_as_under_test(tmp_path):
    """The planted-bug harness runs the suite on a changed copy: UOPC_TESTED_COPY allows it."""
    shutil.copytree(ROOT / "uopc", tmp_path / "copy" / "uopc")
    test = ["-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider"]
    test.append(ROOT / "tests" / "test_ops.py")
    named = {own_tree.TESTED_COPY: str(tmp_path / "copy" / "uopc")}
    # as verify/mutants.py runs it: the copy first, this checkout last (for `book`)
    path = os.pathsep.join([str(tmp_path / "copy"), str(ROOT)])
    done = run(test, path, cwd=tmp_path, **named)
    assert done.returncode == 0, done.stdout + done.stderr
