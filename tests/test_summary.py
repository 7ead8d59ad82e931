"""`scripts/summary.py` on synthetic outputs: the rows, the total, the numbers it states for the
book (under BOOK_NUMBERS=1), and every way it must fail."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "summary.py"
_spec = importlib.util.spec_from_file_location("summary", SCRIPT)
summary = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(summary)

COMPLETE = """\
some human-readable line that is not a count
COUNT semantics-numpy numpy 600000
COUNT semantics-c c 600000
COUNT unit cases 52
COUNT unit points 547
COUNT pipeline sound 1000
COUNT pipeline sound 28700
COUNT pipeline render 30000
COUNT memory memory 1805
COUNT reliability cli-fuzz 300
FIGURE rules_default ["x*1", "x+0", "cast to own dtype"]
FIGURE rules_fired_sound ["x*1"]
FIGURE rules_fired_render ["x+0", "x*1"]
@@ number sound_programs = 700  # a number a layer stated: not a count, skipped
"""
TOTAL = 600000 + 600000 + 52 + 547 + 28700 + 30000 + 1805 + 300  # the second `sound` replaces


@pytest.fixture
def run(tmp_path, capsys, monkeypatch):
    """run(counts text, claims line, mutants line, *flags) -> (exit code, stdout, stderr).

    Run as by hand: no BOOK_NUMBERS, and no UOPC_COUNTS, so that the numbers it states never
    reach the counts file of a test run this test is part of."""
    monkeypatch.delenv("BOOK_NUMBERS", raising=False)
    monkeypatch.delenv("UOPC_COUNTS", raising=False)

    def runner(counts, claims="CLAIMS 59 59 8", mutants="MUTANTS 19 19", *flags):
        files = {"counts.txt": counts, "proofs.txt": claims, "mutants.txt": mutants}
        for name, text in files.items():
            (tmp_path / name).write_text(text + "\n")
        code = summary.main([
            str(tmp_path / "counts.txt"), "--proofs", str(tmp_path / "proofs.txt"),
            "--mutants", str(tmp_path / "mutants.txt"), *flags,
        ])  # fmt: skip
        out = capsys.readouterr()
        return code, out.out, out.err

    return runner


pytestmark = pytest.mark.layer("summary")


def test_complete_run_passes_and_adds_up(run):
    code, out, err = run(COMPLETE)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "    600,000  semantics against NumPy"
    assert "        599  rule unit cases and point checks" in lines
    assert "     58,700  pipeline" in lines
    assert "                  28,700  sound" in lines  # the layers under the pipeline row
    assert f"{TOTAL:>11,}  total checks" in lines
    assert lines[-2] == "         59  z3 claims: 59 as expected, 8 counterexamples to wrong rules"
    assert lines[-1] == "         19  planted bugs: 19 caught"


# (what is wrong, counts text, CLAIMS line, MUTANTS line, text expected on stderr)
FAILURES = [
    ("missing group", COMPLETE.replace("COUNT semantics-c c 600000\n", ""),
     "CLAIMS 59 59 8", "MUTANTS 19 19", "missing semantics-c"),
    ("survivor mutant", COMPLETE, "CLAIMS 59 59 8", "MUTANTS 19 18", "1 of 19 planted bugs"),
    ("claim not as expected", COMPLETE, "CLAIMS 59 58 8", "MUTANTS 19 19", "1 of 59 z3 claims"),
    ("unknown group", COMPLETE + "COUNT semantic-c c 1\n", "CLAIMS 59 59 8", "MUTANTS 19 19",
     "unknown group 'semantic-c'"),
    ("no claims line", COMPLETE, "", "MUTANTS 19 19", "missing CLAIMS line"),
    ("no counts at all", "", "CLAIMS 59 59 8", "MUTANTS 19 19", "missing semantics-numpy"),
    ("no rules figures", COMPLETE.replace("FIGURE", "figure"), "CLAIMS 59 59 8", "MUTANTS 19 19",
     "missing FIGURE lines of the rules that fired"),
]  # fmt: skip


@pytest.mark.parametrize("what, counts, claims, mutants, message", FAILURES,
                         ids=[f[0] for f in FAILURES])  # fmt: skip
def test_fails(run, what, counts, claims, mutants, message):
    code, out, err = run(counts, claims, mutants)
    assert code == 1, what
    assert message in err


def test_allow_missing_only_warns(run):
    code, out, err = run(
        COMPLETE.replace("COUNT memory memory 1805\n", ""), "", "", "--allow-missing"
    )
    assert code == 0
    assert "warning: missing memory" in err and "CLAIMS" in err
    assert "    missing  memory programs" in out.splitlines()


def test_allow_missing_does_not_excuse_a_survivor(run):
    code, _, err = run(COMPLETE, "CLAIMS 59 59 8", "MUTANTS 19 17", "--allow-missing")
    assert code == 1 and "2 of 19 planted bugs survived" in err


def stated(out: str) -> dict:
    """{key: value} of the `@@ number` lines of an output."""
    numbers = {}
    for line in out.splitlines():
        if line.startswith("@@ number "):
            key, _, rest = line.removeprefix("@@ number ").partition(" = ")
            value, end = json.JSONDecoder().raw_decode(rest)
            assert rest[end:].startswith("  # ") and key not in numbers, line
            numbers[key] = value
    return numbers


def test_states_the_numbers_under_book_numbers(run, monkeypatch):
    assert stated(run(COMPLETE)[1]) == {}  # by hand: the table only
    monkeypatch.setenv("BOOK_NUMBERS", "1")
    code, out, _ = run(COMPLETE)
    numbers = stated(out)
    assert code == 0
    assert numbers["checks_total"] == TOTAL and numbers["checks_total_millions"] == 1.2
    assert numbers["checks_semantics_numpy"] == 600000 and numbers["checks_unit"] == 599
    assert numbers["checks_pipeline"] == 58700 and numbers["checks_pipeline_sound"] == 28700
    assert numbers["checks_pipeline_render"] == 30000 and numbers["checks_reliability"] == 300
    assert numbers["rules_never_fired"] == 1
    assert numbers["rules_never_fired_names"] == "cast to own dtype"
    assert "sound_programs" not in numbers  # a layer's own number is not the summary's
    shown = [line for line in out.splitlines() if not line.startswith("@@ number ")]
    assert shown[-1] == "         19  planted bugs: 19 caught"  # the table is unchanged


def test_every_rule_fired(run, monkeypatch):
    monkeypatch.setenv("BOOK_NUMBERS", "1")
    every = COMPLETE + 'FIGURE rules_fired_fold ["cast to own dtype"]\n'
    numbers = stated(run(every)[1])
    assert numbers["rules_never_fired"] == 0 and numbers["rules_never_fired_names"] == "none"


def test_runs_as_a_script(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("COUNT unit cases 5\n@@ number unit_cases = 5  # stated by a layer\n")
    env = {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"} | {"BOOK_NUMBERS": "1"}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(counts), "--allow-missing"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "          5  rule unit cases and point checks" in done.stdout
    assert stated(done.stdout) == {
        "checks_unit": 5,
        "checks_total": 5,
        "checks_total_millions": 0.0,
    }
