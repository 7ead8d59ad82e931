"""The table of the book's programs (book/producers.py) and the build that reads it
(scripts/build_book.py): every row names real files, and a program runs again only when its
sources change."""

import re
import subprocess
import sys
from pathlib import Path

import build_book  # scripts/, on the path by pytest's pythonpath (pyproject.toml)
import pytest

from book.producers import FIGURES, PRODUCERS, Producer, source_files

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.layer("numbers")


@pytest.mark.parametrize("name", sorted(PRODUCERS))
def test_every_row_names_a_program_and_its_sources(name):
    row = PRODUCERS[name]
    assert row.kind in {"short", "demos", "tests", "proofs", "exercises", "bench", "book"}
    script = next(part for part in row.command if part.endswith(".py"))
    assert (ROOT / row.cwd / script).is_file(), f"{name}: no program {script}"
    files = source_files(name)
    assert files, f"{name}: its sources match no file"
    assert str(Path(row.cwd, script)).removeprefix("./") in files or row.always, name
    assert not (row.sized or row.timed) or row.slow or row.always, f"{name}: sized, not slow"


def test_every_saved_output_has_a_row():
    """An output no row makes any more would never be made again."""
    out = ROOT / "out"
    saved = {
        str(path.relative_to(out).with_suffix(""))
        for kind in ("short", "demos", "tests", "proofs", "exercises", "bench")
        for path in (out / kind).glob("*.txt")
    }
    records = {"tests/pytest"}
    assert sorted(saved - set(PRODUCERS) - records) == []


def small_build(tmp_path: Path) -> tuple[build_book.Build, Producer]:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "p.py").write_text('print("@@ block one")\nprint("hello")\n')
    out = tmp_path / "out"
    build = build_book.Build(out, out, tmp_path / "excerpts", quick=False, python=sys.executable)
    build.repo = repo
    return build, Producer("demos/p", ("{py}", "p.py"), ("p.py",))


def test_a_program_runs_again_only_when_its_sources_change(tmp_path):
    build, row = small_build(tmp_path)
    build.step(row, force=False)
    assert build.ran == ["demos/p"]
    assert (tmp_path / "out" / "demos" / "p" / "one.txt").read_text() == "hello\n"
    build.step(row, force=False)  # nothing changed: reused
    assert build.ran == ["demos/p"] and build.reused == ["demos/p"]
    (build.repo / "p.py").write_text('print("@@ block one")\nprint("hello again")\n')
    build.step(row, force=False)  # its source changed: run again
    assert build.ran == ["demos/p", "demos/p"]
    assert (tmp_path / "out" / "demos" / "p" / "one.txt").read_text() == "hello again\n"
    build.step(row, force=True)  # --force
    assert len(build.ran) == 3


def test_a_missing_output_is_made_again(tmp_path):
    build, row = small_build(tmp_path)
    build.step(row, force=False)
    (tmp_path / "out" / "demos" / "p.txt").unlink()
    build.step(row, force=False)
    assert build.ran == ["demos/p", "demos/p"]


def test_a_failing_program_stops_the_build_and_keeps_the_old_output(tmp_path):
    build, row = small_build(tmp_path)
    build.step(row, force=False)
    (build.repo / "p.py").write_text('print("half")\nraise SystemExit(3)\n')
    with pytest.raises(SystemExit, match="demos/p failed"):
        build.step(row, force=False)
    assert (tmp_path / "out" / "demos" / "p.txt").read_text() == "hello\n"


def test_run_all_help_names_the_variants():
    done = subprocess.run([str(ROOT / "run_all.sh"), "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for option in ("--force", "--quick", "--only", "--with-mutants", "--deterministic-into"):
        assert option in done.stdout


def test_a_comment_makes_no_output_stale(tmp_path):
    """A listing's region markers and reworded comments change nothing a program does: the
    sources hash ignores them, and sees every change of code, docstrings included."""
    from book.producers import hashed_text

    path = tmp_path / "m.py"
    path.write_text('"""Doc."""\nx = 1  # one\ny = 2\n')
    before = hashed_text(path)
    path.write_text('"""Doc."""\n# --8<-- [start:x]\nx = 1  # uno\n\n# --8<-- [end:x]\ny = 2\n')
    assert hashed_text(path) == before
    for changed in ('"""Doc!"""\nx = 1\ny = 2\n', '"""Doc."""\nx = 1\ny = 3\n', "x = 1\n"):
        path.write_text(changed)
        assert hashed_text(path) != before, changed
    other = tmp_path / "ref.c"
    other.write_text("int x; /* a */\n")
    first = hashed_text(other)
    other.write_text("int x; /* b */\n")
    assert hashed_text(other) != first  # C is hashed as it is


def figure_functions(module: str) -> set[str]:
    source = (ROOT / "scripts" / f"{module}.py").read_text(encoding="utf-8")
    return set(re.findall(r"^def (\w+)\(", source, re.MULTILINE))


def test_every_figure_row_names_a_drawing_function_and_a_file_of_its_own():
    """The one table holds the figures too: each row names a function that exists, and no
    two rows write the same file."""
    names = [figure.name for figure in FIGURES]
    assert len(names) == len(set(names)), names
    missing = [
        figure.draw
        for figure in FIGURES
        if figure.draw.split(".")[1] not in figure_functions(figure.draw.split(".")[0])
    ]
    assert missing == [], missing
    assert figure_functions("make_figures") >= {"drawer"}
