"""The table of the book's programs (book/producers.py) and the build that reads it
(scripts/build_book.py): every row names real files, and a program runs again only when its
sources change."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import build_book  # scripts/, on the path by pytest's pythonpath (pyproject.toml)
import pytest

from book import used
from book.producers import (
    FIGURES,
    PRODUCERS,
    Producer,
    one_core_problems,
    source_files,
    sources_hash,
)

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


def test_one_core_rows_are_untimed_and_read_no_output_made_beside_them():
    assert one_core_problems(list(PRODUCERS.values())) == []
    writer = Producer("demos/w", ("{py}", "w.py"), ("w.py",), one_core=True)
    reader = Producer("demos/r", ("{py}", "r.py", "{out}/demos/w.txt"), ("r.py",), one_core=True)
    timed = Producer("demos/t", ("{py}", "t.py"), ("t.py",), one_core=True, timed=True)
    assert one_core_problems([writer, reader, timed]) == [
        "demos/r: reads out/demos/w.txt, which demos/w writes beside it",
        "demos/t: timed, so it must run alone",
    ]
    alone = dataclasses.replace(writer, one_core=False)  # it ends before the reader starts
    assert one_core_problems([alone, reader]) == []


BESIDE = """\
import sys, time
with open(sys.argv[1], "a") as log:
    log.write(f"{sys.argv[2]} start {time.time()}\\n")
time.sleep(0.5)
with open(sys.argv[1], "a") as log:
    log.write(f"{sys.argv[2]} end {time.time()}\\n")
print(f"@@ block one\\n{sys.argv[2]}")
sys.exit(int(sys.argv[3]))
"""


def beside_rows(tmp_path: Path, fails: str = "") -> tuple[build_book.Build, list, Path]:
    """Three one_core rows a, b, c of a program that logs when it starts and ends, sleeps
    half a second, prints its name, and exits 1 if it is `fails`."""
    build, _ = small_build(tmp_path)
    (build.repo / "beside.py").write_text(BESIDE)
    log = tmp_path / "log.txt"
    rows = [
        Producer(f"demos/{name}", ("{py}", "beside.py", str(log), name, str(int(name == fails))),
                 ("beside.py",), one_core=True)
        for name in "abc"
    ]  # fmt: skip
    return build, rows, log


def test_one_core_rows_run_two_at_a_time_their_lines_whole_and_in_order(tmp_path, capsys):
    build, rows, log = beside_rows(tmp_path)
    build.steps(rows, force=False)
    assert build.ran == ["demos/a", "demos/b", "demos/c"]
    times = {
        tuple(line.split()[:2]): float(line.split()[2])
        for line in log.read_text().split("\n")
        if line
    }
    assert times["b", "start"] < times["a", "end"]  # a and b at once
    assert times["c", "start"] >= min(times["a", "end"], times["b", "end"])  # never three
    shown = capsys.readouterr().out
    heads = [shown.index(f"== demos/{name}: ") for name in "abc"]
    saved = [shown.index(f"/demos/{name}.txt (") for name in "abc"]  # save_output: "saved ..."
    assert heads[0] < saved[0] < heads[1] < saved[1] < heads[2] < saved[2], shown
    build.steps(rows, force=False)  # nothing changed: none runs again
    assert build.reused == ["demos/a", "demos/b", "demos/c"]


def test_the_longest_one_core_row_starts_first_its_lines_still_in_order(tmp_path, capsys):
    build, rows, log = beside_rows(tmp_path)
    build.steps(rows, force=False)
    out = tmp_path / "out"
    for name in "abc":  # as if c had taken longest last time
        used.save(out, f"demos/{name}", ["beside.py"], "0" * 12, 9.0 if name == "c" else 1.0)
    log.unlink()
    capsys.readouterr()
    build.steps(rows, force=True)
    starts = [line.split()[0] for line in log.read_text().split("\n") if "start" in line]
    assert starts[2] == "b", starts  # c and a first, b when one of them has ended
    shown = capsys.readouterr().out
    assert shown.index("== demos/a") < shown.index("== demos/b") < shown.index("== demos/c")


def test_a_failing_one_core_row_stops_the_build_naming_it(tmp_path, capsys):
    build, rows, _ = beside_rows(tmp_path, fails="a")
    with pytest.raises(SystemExit, match="demos/a failed"):
        build.steps(rows, force=False)
    assert build.ran == []
    assert "demos/b" not in capsys.readouterr().out  # the build stops at the first failure


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


def test_the_numbers_of_the_run_records_make_no_output_stale(tmp_path):
    """A whole run writes its time (and a test run its count) after the PDF has printed the
    site: out/numbers.json is hashed without the numbers taken from those records, and with
    every other number. RECORD_NUMBERS is exactly what make_numbers takes from the records."""
    import make_numbers  # scripts/, on pytest's pythonpath

    from book.producers import RECORD_NUMBERS, hashed_text

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "run_all_time.json").write_text('{"seconds": 535}\n')
    record = {"passed": 4319, "seconds": 101.5}
    (tmp_path / "tests" / "pytest.json").write_text(json.dumps(record))
    assert sorted(make_numbers.record_numbers(tmp_path)) == sorted(RECORD_NUMBERS)

    path = tmp_path / "numbers.json"
    numbers = {"alu_ops": 13, "run_all_elapsed": "8 min 55 s", "tests_passed": 4319}
    path.write_text(json.dumps(numbers, indent=1))
    before = hashed_text(path)
    path.write_text(json.dumps({**numbers, "run_all_elapsed": "9 min 2 s", "tests_passed": 4320}))
    assert hashed_text(path) == before
    path.write_text(json.dumps({**numbers, "alu_ops": 14}))
    assert hashed_text(path) != before
    path.write_text("not json")
    assert hashed_text(path) == b"not json"  # taken whole


def test_every_figure_row_names_a_drawing_function_and_a_file_of_its_own():
    """The one table holds the figures too: each row names a function that exists, and no
    two rows write the same file."""
    import make_figures  # scripts/, on pytest's pythonpath

    names = [figure.name for figure in FIGURES]
    assert len(names) == len(set(names)), names
    assert all(callable(make_figures.drawer(figure.draw)) for figure in FIGURES)
    with pytest.raises(KeyError):
        make_figures.drawer("make_figures.no_such_figure")


# ---------------------------------------------------------------------------------------------
# Exact dependencies: what a run used (book/used.py), and the build's choice from it
# ---------------------------------------------------------------------------------------------

USING = """\
import subprocess
import sys

import a  # beside it: imported by the program itself

subprocess.run([sys.executable, "-c", "import b"], check=True)  # b only in a child process
print("@@ block one")
print(open("data.txt").read().strip(), a.VALUE)
"""


def using_build(tmp_path: Path) -> tuple[build_book.Build, Producer]:
    """A program that imports a.py, starts a child that imports b.py, reads data.txt, and
    never touches c.py; its row declares every file of its tree."""
    build, _ = small_build(tmp_path)
    files = {"p.py": USING, "a.py": "VALUE = 1\n", "b.py": "", "c.py": "", "data.txt": "data\n"}
    for name, text in files.items():
        (build.repo / name).write_text(text)
    return build, Producer("demos/p", ("{py}", "p.py"), ("*.py", "*.txt"))


def test_a_program_runs_again_only_when_a_file_it_used_changes(tmp_path):
    build, row = using_build(tmp_path)
    build.step(row, force=False)
    record = used.load(tmp_path / "out")["demos/p"]
    assert record["files"] == ["a.py", "b.py", "data.txt", "p.py"], record
    assert record["seconds"] > 0
    (build.repo / "c.py").write_text("x = 2\n")  # declared, never used: no rerun
    build.step(row, force=False)
    assert build.ran == ["demos/p"] and build.reused == ["demos/p"]
    for name in ("b.py", "data.txt"):  # used by the child, read as data: each reruns it
        (build.repo / name).write_text("VALUE = 3\n")
        build.step(row, force=False)
    assert build.ran == ["demos/p"] * 3


def test_a_run_record_read_by_a_program_is_no_source_of_it(tmp_path):
    """The matrix reads the hints its last run wrote: that must not make it run every time."""
    for name in ("a.py", "out/tests/mutant_hints.json", "out/used.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}\n")
    record = tmp_path / "record.txt"
    entries = ("a.py", "out/tests/mutant_hints.json", "out/used.json", "gone.py", "out", "out/")
    record.write_text("".join(f"{entry}\n" for entry in entries))
    assert used.read_record(record, tmp_path) == ["a.py", "out/"]  # "out": opened, not scanned


def test_a_timed_program_is_recorded_by_its_imports_without_an_audit_hook(tmp_path):
    """A program that measures time runs without the hook (it is called on every ctypes call):
    the modules it and its children imported are recorded at their exit, data files not."""
    build, row = using_build(tmp_path)
    build.step(dataclasses.replace(row, timed=True), force=False)
    assert used.load(tmp_path / "out")["demos/p"]["files"] == ["a.py", "b.py", "p.py"]


def test_a_program_without_a_record_runs_again_a_slow_one_by_its_declared_sources(tmp_path):
    """A program whose record is lost runs again; a slow output with no record is judged by
    the sources its row declares (its `# sources:` line), as check_stale judges it."""
    build, row = using_build(tmp_path)
    build.step(row, force=False)
    out = tmp_path / "out"
    (out / used.USED).unlink()
    build.step(row, force=False)
    assert build.ran == ["demos/p"] * 2 and build.reused == []
    slow = dataclasses.replace(row, slow=True)
    (out / used.USED).unlink()
    declared = sources_hash(row.name, build.repo, row.sources)
    (out / "demos" / "p.txt").write_text(f"# sources: {declared}\nhello\n")
    build.step(slow, force=False)
    assert build.reused == ["demos/p"]
    (build.repo / "c.py").write_text("x = 2\n")  # declared: reruns it, and now it has a record
    build.step(slow, force=False)
    assert build.ran == ["demos/p"] * 3 and "c.py" not in used.load(out)["demos/p"]["files"]


def test_the_proofs_do_not_use_the_renderer(tmp_path):
    """After a change to uopc/render.py the proofs are not run again: neither the record of
    their last run (when there is one) nor a fresh record of their imports names it."""
    command = [sys.executable, str(ROOT / "scripts" / "save_output.py"), "--root", str(tmp_path)]
    command += ["proofs", "imports", "--", sys.executable, "tests/proofs.py", "--help"]
    assert subprocess.run(command, cwd=ROOT, capture_output=True).returncode == 0
    fresh = used.load(tmp_path)["proofs/imports"]["files"]
    assert {"tests/proofs.py", "uopc/symbolic.py", "book/protocol.py"} <= set(fresh), fresh
    records = [fresh]
    saved = used.load(ROOT / "out").get("proofs/proofs")
    records += [saved["files"]] if saved else []
    for files in records:
        assert "uopc/render.py" not in files and "uopc/runtime.py" not in files


def test_the_rerun_table_reads_the_records_and_falls_back_to_the_rows():
    import reruns

    records = {"proofs/proofs": {"files": ["uopc/symbolic.py"], "seconds": 60.0}}
    records["demos/order"] = {"files": ["uopc/render.py"], "seconds": 2.5}
    exact, declared, seconds = reruns.reruns("uopc/render.py", records)
    assert "demos/order" in exact and "proofs/proofs" not in exact + declared
    assert "tests/counts" in declared  # no record: its row declares uopc/**
    assert seconds == 2.5  # only recorded times count
    exact, _, seconds = reruns.reruns("uopc/symbolic.py", records)
    assert "proofs/proofs" in exact and seconds == 60.0


def test_check_stale_judges_a_recorded_slow_output_by_the_files_it_used(tmp_path):
    """A slow output made with a record carries the record's hash; check_stale compares it
    with the hash of the recorded files now, not with the sources the row declares."""
    import check_stale

    key = "proofs/proofs"
    (tmp_path / "uopc").mkdir()
    (tmp_path / "uopc" / "symbolic.py").write_text("RULES = 1\n")
    (tmp_path / "uopc" / "render.py").write_text("C = 1\n")
    out = tmp_path / "out"
    files = ["uopc/symbolic.py"]
    digest = used.used_hash(files, tmp_path)
    (out / "proofs").mkdir(parents=True)
    (out / f"{key}.txt").write_text(f"# sources: {digest}\nproved\n")
    used.save(out, key, files, digest, 1.0)

    def problems():
        return [p for p in check_stale.check_hashes(out, tmp_path) if p.startswith(f"out/{key}")]

    assert problems() == []
    (tmp_path / "uopc" / "render.py").write_text("C = 2\n")  # declared, not used
    assert problems() == []
    (tmp_path / "uopc" / "symbolic.py").write_text("RULES = 2\n")
    assert len(problems()) == 1 and "uopc/symbolic.py" in problems()[0]


def test_a_scanned_folder_s_hash_sees_its_files_not_caches(tmp_path):
    """A folder in a record (a program globbed it) counts its names, less the caches and hidden
    folders that runs leave behind: a fresh clone and a used checkout agree."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("x = 1\n")
    before = used.used_hash(["tests/"], tmp_path)
    for cache in ("__pycache__", ".pytest_cache", ".benchmarks"):
        (tmp_path / "tests" / cache).mkdir()
    assert used.used_hash(["tests/"], tmp_path) == before
    (tmp_path / "tests" / "test_b.py").write_text("y = 2\n")
    assert used.used_hash(["tests/"], tmp_path) != before


SAVES = """\
import sys
from pathlib import Path
from book import used
for k in range(40):
    used.save(Path(sys.argv[1]), f"demos/{sys.argv[2]}{k}", ["p.py"], "0" * 12, 1.0)
"""


def test_rows_that_run_at_once_keep_each_other_s_records(tmp_path):
    """used.save reads, adds and writes out/used.json: two programs saving at once take turns."""
    command = [sys.executable, "-c", SAVES, str(tmp_path)]
    runs = [subprocess.Popen([*command, name], cwd=ROOT) for name in "ab"]
    assert [run.wait() for run in runs] == [0, 0]
    assert len(used.load(tmp_path)) == 80
