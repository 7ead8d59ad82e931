"""The numbers the book quotes: stated by the programs that compute them, merged by
scripts/make_numbers.py.

A program states a number with book/protocol.state; scripts/save_output.py files the stated
lines beside the output; make_numbers.py merges the files with the values read from the code
and the run records. Here the merge is tried on files written for the test (a conflict, a bad
value, a missing program), and the cheap producers are run as the build runs them, through
save_output.py, to show that they state the keys the pages use. The expensive producers (the
exercise answers, the benchmark, the proofs, the test layers, the planted bugs) are checked the
same way in the tests that run them already (`stated` below). The last test ties the pages to
the saved numbers: every key a page uses is in out/numbers.json.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import make_numbers  # scripts/, on the path by pytest's pythonpath (pyproject.toml)
import pytest

from book.protocol import NUMBERS_STAMP, parse_number_line

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.layer("numbers")


def child_env() -> dict:
    """The environment of a producer: no counts file (a producer run here is not the suite's)."""
    return {k: v for k, v in os.environ.items() if k not in ("UOPC_COUNTS", "BOOK_NUMBERS")}


def produce(out: Path, kind: str, stem: str, command: list[str], cwd: Path = ROOT) -> str:
    """Run command through save_output.py into out/KIND/STEM.txt, as the build does."""
    save = [sys.executable, str(ROOT / "scripts" / "save_output.py"), "--root", str(out)]
    save += ["--cwd", str(cwd), kind, stem, "--", *command]
    done = subprocess.run(save, capture_output=True, text=True, env=child_env(), timeout=900)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}"
    return (out / kind / f"{stem}.txt").read_text(encoding="utf-8")


def stated(out: Path, kind: str, stem: str) -> dict:
    """{key: value} of what the program saved as out/KIND/STEM stated."""
    path = out / kind / f"{stem}.numbers.json"
    assert path.exists(), f"{kind}/{stem} stated no number"
    saved = json.loads(path.read_text()).items()
    return {key: entry["value"] for key, entry in saved if key != NUMBERS_STAMP}


def stated_in(text: str) -> dict:
    """{key: value} of the `@@ number` lines of a program's standard output."""
    lines = [line for line in text.splitlines() if line.startswith("@@ number ")]
    return {key: value for key, value, _ in map(parse_number_line, lines)}


def python(*args) -> list[str]:
    return [sys.executable, *map(str, args)]


def write_stated(out: Path, name: str, numbers: dict) -> None:
    (out / name).parent.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_text("output\n", encoding="utf-8")
    entries = {key: {"value": value, "meaning": "a test"} for key, value in numbers.items()}
    (out / f"{name}.numbers.json").write_text(json.dumps(entries), encoding="utf-8")


def make(out: Path) -> tuple[int, str, dict]:
    done = subprocess.run(
        python(ROOT / "scripts" / "make_numbers.py", "--out", out), capture_output=True, text=True
    )
    path = out / "numbers.json"
    numbers = json.loads(path.read_text()) if path.exists() and done.returncode == 0 else {}
    return done.returncode, done.stdout + done.stderr, numbers


def test_merge_of_stated_numbers_records_and_code(tmp_path):
    write_stated(tmp_path, "demos/order", {"order_programs": 600, "order_only_rules": "`x`"})
    write_stated(tmp_path, "short/s05_sharing", {"s05_nodes": 19})
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "run_all_time.json").write_text('{"seconds": 3725}\n')
    (tmp_path / "tests" / "pytest.json").write_text('{"passed": 12, "seconds": 3.5}\n')
    status, said, numbers = make(tmp_path)
    assert status == 0, said
    assert numbers["order_programs"] == 600 and numbers["s05_nodes"] == 19
    assert numbers["run_all_elapsed"] == "1 h 2 min 5 s" and numbers["tests_passed"] == 12
    assert numbers["lines_uop"] == len((ROOT / "uopc" / "uop.py").read_text().splitlines())
    # every program of the table whose output is not there is named, the two above are not
    assert "out/demos/matcher.txt" in numbers["_missing"]
    assert "out/demos/order.txt" not in numbers["_missing"]
    table = (tmp_path / "numbers-reference.md").read_text()
    assert "| `order_programs` | `600` | a test | demos/order |" in table
    assert "| `lines_uop` |" in table and "the code" in table


def test_the_proofs_groups_are_counted_from_their_keys(tmp_path):
    groups = {"claims_group_a": 3, "claims_group_b": 4, "claims_total": 7}
    write_stated(tmp_path, "proofs/proofs", groups)
    write_stated(tmp_path, "demos/order", {"claims_group_elsewhere": 1})  # not the proofs'
    status, said, numbers = make(tmp_path)
    assert status == 0 and numbers["claims_groups"] == 2, said


def test_a_key_stated_twice_fails(tmp_path):
    write_stated(tmp_path, "demos/order", {"shared_key": 1})
    write_stated(tmp_path, "demos/fold", {"shared_key": 1})
    status, said, _ = make(tmp_path)
    assert status == 1 and "shared_key is stated by demos/fold and by demos/order" in said


@pytest.mark.parametrize("value", [[1, 2], None, True, {"a": 1}])
def test_a_value_that_is_not_a_number_or_a_string_fails(tmp_path, value):
    write_stated(tmp_path, "demos/fold", {"odd_key": value})
    status, said, _ = make(tmp_path)
    assert status == 1 and "odd_key (demos/fold)" in said and "not a number or a string" in said


def test_code_numbers_are_read_from_the_code():
    code = {key: value for key, (value, _) in make_numbers.code_numbers().items()}
    assert code["runtime_cflags"].startswith("-O2")
    assert code["uopc_files"] == len(list((ROOT / "uopc").glob("*.py"))) - 1  # less __main__
    assert code["short_programs"] == 13 and code["pin_tinygrad"] == "0.14.0"
    assert code["ops_value"] < code["ops_total"] and code["alu_ops"] < code["ops_total"]
    assert code["rewrite_base_limit"] > 0 and code["rewrite_limit_per_node"] > 0
    # the limits, read from the syntax trees, against the modules imported
    from uopc import further, render, textfmt, typecheck

    assert 2 ** code["max_elements_log2"] == textfmt.MAX_ELEMENTS
    assert 2 ** code["max_text_bytes_log2"] == textfmt.MAX_TEXT_BYTES
    assert 2 ** code["max_scratch_elements_log2"] == typecheck.MAX_SCRATCH_ELEMENTS
    assert code["stack_scratch_kib"] * 1024 == render.STACK_SCRATCH_BYTES
    assert code["further_max_terms"] == further.MAX_TERMS


@pytest.mark.parametrize(
    "source, problem",
    [("X = 3 * 2**4", "not a power of two"), ("X = len('ab')", "not integer arithmetic"),
     ("X = 1 / 2", "not an integer")],
)  # fmt: skip
def test_a_limit_that_is_not_a_power_of_two_fails(source, problem):
    with pytest.raises(make_numbers.NumbersError, match=problem):
        tree = make_numbers.ast.parse(source)
        make_numbers.exponent(make_numbers.constant(tree, "X"), "X")


# The cheap producers, run as the build runs them: each states the keys its pages quote.
SHORT = {
    "s05_sharing": {"s05_doublings": 18, "s05_nodes": 19, "s05_tree_nodes": 2**19 - 1},
    "s06_simplify": {"s06_nodes_before": 9, "s06_nodes_after": 3},
    "s09_index": {"s09_wrap_first": 2**29, "s09_wrap_inputs": 2**29 + 1},
    "s10_buffers": {"s10_text_lines_shown": 15, "s10_text_lines": None},
    "s13_prove": {"s13_counterexample": None},
}


@pytest.mark.parametrize("stem", sorted(SHORT))
def test_short_path_states_its_numbers(tmp_path, stem):
    shown = produce(tmp_path, "short", stem, python(f"{stem}.py"), cwd=ROOT / "code" / "short")
    assert "@@ number" not in shown
    numbers = stated(tmp_path, "short", stem)
    assert set(numbers) == set(SHORT[stem])
    assert all(SHORT[stem][k] in (None, v) for k, v in numbers.items()), numbers
    # run by hand (no BOOK_NUMBERS), the program prints no number line
    by_hand = subprocess.run(
        python(f"{stem}.py"), cwd=ROOT / "code" / "short", env=child_env(), capture_output=True
    )
    assert b"@@ number" not in by_hand.stdout


DEMOS = {
    "matcher": ["matcher_rules", "matcher_by_op_most", "matcher_index_saving_about"],
    "fold": ["fold_known_nodes", "fold_zero_nodes", "fold_zero_muls", "fold_g_value"],
    "run_demos": ["loop_limit", "loop_distribute", "loop_factor"],
}


@pytest.mark.needs_clang
@pytest.mark.parametrize("stem", sorted(DEMOS))
def test_demos_state_their_numbers(tmp_path, stem):
    produce(tmp_path, "demos", stem, python(ROOT / "demos" / f"{stem}.py"))
    numbers = stated(tmp_path, "demos", stem)
    assert set(DEMOS[stem]) <= set(numbers), set(DEMOS[stem]) - set(numbers)


def test_machine_info_states_the_versions(tmp_path):
    produce(tmp_path, "bench", "machine_info", python(ROOT / "scripts" / "machine_info.py"))
    numbers = stated(tmp_path, "bench", "machine_info")
    assert numbers["machine_cores"] == os.cpu_count()
    assert re.fullmatch(r"3\.\d+\.\d+", numbers["python_version"])


def test_every_key_a_page_uses_is_in_the_saved_numbers():
    """The saved out/numbers.json holds every key the pages use: a key no program states any
    more (renamed, or its line deleted) is found here, before the site's build stops on it."""
    saved = json.loads((ROOT / "out" / "numbers.json").read_text(encoding="utf-8"))
    used = set()
    for page in (ROOT / "docs").rglob("*.md"):
        used |= set(re.findall(r"\{\{\s*n\.([a-z0-9_]+)", page.read_text(encoding="utf-8")))
    assert used, "no page uses a number?"
    assert sorted(used - set(saved)) == []
