"""`scripts/summary.py` on synthetic outputs: the rows, the total, and every way it must fail."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import counting
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
"""
TOTAL = 600000 + 600000 + 52 + 547 + 28700 + 30000 + 1805 + 300  # the second `sound` replaces


@pytest.fixture
def run(tmp_path, capsys):
    """run(counts text, claims line, mutants line, *flags) -> (exit code, stdout, stderr)."""

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


def test_groups_are_the_counting_groups():
    assert tuple(summary.GROUPS) == counting.GROUPS


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


def test_json(run):
    code, out, _ = run(COMPLETE, "CLAIMS 59 59 8", "MUTANTS 19 19", "--json")
    figures = json.loads(out)
    assert code == 0
    assert figures["total"] == TOTAL
    assert figures["groups"]["unit"] == 599
    assert figures["layers"]["pipeline"] == {"sound": 28700, "render": 30000}
    assert figures["claims"] == {"total": 59, "as_expected": 59, "refuted": 8}
    assert figures["mutants"] == {"total": 19, "caught": 19}


def test_runs_as_a_script(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("COUNT unit cases 5\n")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(counts), "--allow-missing"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "          5  rule unit cases and point checks" in done.stdout
