"""scripts/make_numbers.py against the programs whose output it reads: producer and consumer
tested together.

A parser tested only on text typed into its test keeps passing when the program it reads
changes what it prints; the book's full run then fails at its very end (it did once, when the
planted-bug matrix renamed a line). So every collector of make_numbers.py is fed here the real
output of a small run of its program, saved by scripts/save_output.py exactly as run_all.sh
saves it, and must find every key it promises. The expensive producers (the exercise answers,
the benchmark) are parsed in the tests that run them already (test_exercises.py, test_bench.py)
through `parsed` below; the last test checks that no collector is left without such a test.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import make_numbers  # noqa: E402  (after the path set-up)

pytestmark = pytest.mark.layer("numbers")


def child_env() -> dict:
    """The environment of a producer: no counts file (a producer run here is not the suite's)."""
    return {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"}


def produce(out: Path, kind: str, stem: str, command: list[str], cwd: Path = ROOT) -> str:
    """Run command through save_output.py into out/KIND/STEM.txt, as run_all.sh does."""
    save = [sys.executable, str(ROOT / "scripts" / "save_output.py"), "--root", str(out)]
    save += ["--cwd", str(cwd), kind, stem, "--", *command]
    done = subprocess.run(save, capture_output=True, text=True, env=child_env(), timeout=600)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}"
    return (out / kind / f"{stem}.txt").read_text(encoding="utf-8")


def parsed(collector: str, out: Path) -> tuple[dict, list[str]]:
    """(the keys the collector puts, its failures) on the outputs saved under out."""
    make_numbers.NUMBERS.clear()
    make_numbers.FAILED.clear()
    getattr(make_numbers, collector)(out)
    return dict(make_numbers.NUMBERS), list(make_numbers.FAILED)


def keys_of(collector: str) -> list[str]:
    """The keys a collector's docstring promises (the words in snake_case with an underscore
    that name a key, e.g. `mutants_total`), less the families written with <...>."""
    doc = getattr(make_numbers, collector).__doc__
    return [w for w in re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", doc) if "<" not in w]


def python(*args) -> list[str]:
    return [sys.executable, *map(str, args)]


# ---------------------------------------------------------------------------------------------
# The planted bugs: the matrix and the harness, each on two mutants that the unit layer catches
# ---------------------------------------------------------------------------------------------


def test_matrix_report_is_what_the_numbers_read(tmp_path):
    """A tiny real run (two mutants, columns A and B, quick sizes): the same path as the full
    run, through the real child processes, the real formatter and the real parser."""
    command = python(ROOT / "tests" / "mutant_matrix.py", "--only", "2", "9", "--layers", "AB")
    text = produce(tmp_path, "tests", "mutant_matrix", command)
    numbers, failed = parsed("collect_matrix", tmp_path)
    assert failed == []
    assert "caught by layer: A 2, B 0" in text
    assert numbers["mutants_single_catcher"] == numbers["mutants_single_layer"] == 2
    assert numbers["mutants_matrix_total"] == numbers["mutants_matrix_rows"] == 2
    assert numbers["mutants_missed"] == 0


def test_matrix_report_with_every_column(tmp_path):
    """report_lines with the columns of a full run (A to L, M, S, P): the parser reads the line
    for the book's layers too, and checks the printed totals against the rows."""
    import mutant_matrix

    columns = [(letter, name) for letter, name, _ in mutant_matrix.BOOK_LAYERS]
    columns += [(letter, name) for letter, name, _ in mutant_matrix.EXTRA_LAYERS]
    columns.append(mutant_matrix.OTHER)
    rows = [("a bug", {"A", "P"}), ("another bug", {"J"}), ("a third bug", {"C", "D", "E"})]
    lines = mutant_matrix.report_lines(rows, columns)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "mutant_matrix.txt").write_text("\n".join(lines) + "\n")
    numbers, failed = parsed("collect_matrix", tmp_path)
    assert failed == []
    assert numbers["mutants_single_catcher"] == 1  # over every column: "another bug"
    assert numbers["mutants_single_book_layer"] == 2  # A to L alone: "a bug" too
    assert numbers["mutants_matrix_total"] == 3
    # a hand edit of a total is caught
    edited = "\n".join(lines).replace("caught by layer: A 1,", "caught by layer: A 2,")
    (tmp_path / "tests" / "mutant_matrix.txt").write_text(edited + "\n")
    assert any("per-layer totals" in f for f in parsed("collect_matrix", tmp_path)[1])


def test_mutants_line_is_what_the_numbers_read(tmp_path):
    command = python(ROOT / "tests" / "mutants.py", "--only", "2", "9")
    command += ["--files", "test_rules_unit.py"]
    produce(tmp_path, "tests", "mutants", command)
    numbers, failed = parsed("collect_mutants", tmp_path)
    assert failed == []
    assert numbers == {"mutants_total": 2, "mutants_caught": 2}


# ---------------------------------------------------------------------------------------------
# The tests' counts, pytest's last line, the proofs
# ---------------------------------------------------------------------------------------------


def test_counts_are_what_the_numbers_read(tmp_path):
    """Two layers run under pytest with UOPC_COUNTS, sorted as run_all.sh sorts them."""
    counts = tmp_path / "raw_counts.txt"
    env = dict(child_env(), UOPC_COUNTS=str(counts))
    command = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "--layer", "unit")
    command += ["--layer", "fold", ROOT / "tests" / "test_rules_unit.py"]
    command.append(ROOT / "tests" / "test_pipeline.py")
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    produce(tmp_path, "tests", "counts", ["sort", str(counts)])
    numbers, failed = parsed("collect_counts", tmp_path)
    assert failed == []
    lines = re.findall(r"^COUNT (\S+) (\S+) (\d+)$", counts.read_text(), re.M)
    assert numbers["checks_total"] == sum(int(n) for _, _, n in lines) > 0
    assert numbers["checks_pipeline_fold"] > 0 and numbers["checks_unit"] > 0


def test_figures_are_what_the_numbers_read(tmp_path):
    """The FIGURE lines the layers write beside their counts (UOPC_COUNTS): every key of
    collect_figures from a real quick run of the layers that write them."""
    counts = tmp_path / "raw_counts.txt"
    env = dict(child_env(), UOPC_COUNTS=str(counts))
    command = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2")
    for layer in ("special", "exhaustive", "fast", "ranges", "zerodiv", "semantics"):
        command += ["--layer", layer]
    command += [ROOT / "tests" / "test_pipeline.py", ROOT / "tests" / "test_semantics.py"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    produce(tmp_path, "tests", "counts", ["sort", str(counts)])
    numbers, failed = parsed("collect_figures", tmp_path)
    assert failed == []
    assert set(keys_of("collect_figures")) <= set(numbers)
    assert numbers["special_programs_changed"] <= numbers["special_programs_built"]
    assert numbers["range_checks_safe"] <= numbers["range_checks"]
    assert numbers["fast_counterexamples"] > 0
    assert numbers["fast_first_counterexample"].startswith("seed ")
    # five layers ran: the rules that fired in none of them
    assert numbers["rules_never_fired"] == len(numbers["rules_never_fired_names"].split(", "))


def test_pytest_line_is_what_the_numbers_read(tmp_path):
    """pytest's last line, with the options run_all.sh gives it (-n 2, no -q)."""
    command = python("-m", "pytest", "-n", "2", "-p", "no:cacheprovider")
    produce(tmp_path, "tests", "pytest", [*command, str(ROOT / "tests" / "test_ops.py")])
    numbers, failed = parsed("collect_pytest", tmp_path)
    assert failed == [] and numbers["tests_passed"] > 0 and numbers["tests_seconds"] > 0


@pytest.mark.needs_z3
def test_proofs_lines_are_what_the_numbers_read(tmp_path):
    produce(tmp_path, "proofs", "proofs", python(ROOT / "tests" / "proofs.py", "--only", "x*1"))
    numbers, failed = parsed("collect_proofs", tmp_path)
    assert failed == []
    assert numbers["claims_total"] == numbers["claims_as_expected"] == 2


@pytest.mark.needs_z3
def test_split_counterexample_is_what_the_numbers_read(tmp_path):
    claim = "(a*4+b)//4 -> a*1 + b//4, no guard"
    produce(tmp_path, "proofs", "proofs", python(ROOT / "tests" / "proofs.py", "--only", claim))
    numbers, failed = parsed("collect_split", tmp_path)
    assert failed == []  # the two sides differ there, and a*4 + b leaves int32
    assert set(keys_of("collect_split")) <= set(numbers)


def test_chain_lines_are_what_the_numbers_read(tmp_path):
    produce(tmp_path, "demos", "errors", python(ROOT / "demos" / "errors.py"))
    numbers, failed = parsed("collect_chain", tmp_path)
    assert failed == []  # the wrapped sum, kept by simplify, one ADD and one CONST per step
    assert set(keys_of("collect_chain")) <= set(numbers)
    assert numbers["chain_nodes"] == 2 * numbers["chain_adds"] + 1


# ---------------------------------------------------------------------------------------------
# The short path, the machine, the code, the full run's time
# ---------------------------------------------------------------------------------------------

# the short-path outputs the numbers read, as make_numbers.py lists them
SHORT = [Path(name).stem for name in make_numbers.INPUTS if name.startswith("out/short/")]


@pytest.mark.needs_z3
@pytest.mark.needs_clang
def test_short_path_lines_are_what_the_numbers_read(tmp_path):
    for stem in SHORT:
        produce(tmp_path, "short", stem, python(f"{stem}.py"), cwd=ROOT / "code" / "short")
    numbers, failed = parsed("collect_short", tmp_path)
    assert failed == []
    assert set(keys_of("collect_short")) <= set(numbers)


def test_machine_info_is_what_the_numbers_read(tmp_path):
    produce(tmp_path, "bench", "machine_info", python(ROOT / "scripts" / "machine_info.py"))
    numbers, failed = parsed("collect_machine", tmp_path)
    assert failed == []
    assert numbers["machine_cores"] > 0 and re.fullmatch(r"[\d.]+", numbers["python_version"])


def test_code_numbers_are_read_from_the_code(tmp_path):
    numbers, failed = parsed("collect_code", tmp_path)
    assert failed == [] and numbers["uopc_files"] > 10
    assert numbers["ops_total"] >= numbers["alu_ops"] > 0


def test_run_time_is_what_the_numbers_read(tmp_path):
    """run_all.sh writes its elapsed time with the function below; the parser reads it."""
    script = (
        f"source <(sed -n '/^save_elapsed() {{/,/^}}/p' {ROOT / 'run_all.sh'}); "
        f"save_elapsed {tmp_path} 2472"
    )
    subprocess.run(["bash", "-c", script], check=True, cwd=ROOT)
    numbers, failed = parsed("collect_run_time", tmp_path)
    assert failed == []
    assert numbers == {"run_all_seconds": 2472, "run_all_elapsed": "41 min 12 s"}


# ---------------------------------------------------------------------------------------------
# The demos and the proofs that the chapters of Part 3 interpret
# ---------------------------------------------------------------------------------------------


def test_matcher_counts_are_what_the_numbers_read(tmp_path):
    produce(tmp_path, "demos", "matcher", python(ROOT / "demos" / "matcher.py"))
    numbers, failed = parsed("collect_matcher", tmp_path)
    assert failed == []  # the lists add up, the demo agrees with the spec, no op sees every rule
    assert set(keys_of("collect_matcher")) <= set(numbers)
    assert numbers["matcher_by_op_most"] == numbers["matcher_by_op_mul"] > 0


@pytest.mark.needs_z3
def test_rule_coverage_line_is_what_the_numbers_read(tmp_path):
    """The claims of one rule only: the line is read, and the collector's check that every rule
    has its claim fails, as it must on a partial run."""
    produce(tmp_path, "proofs", "proofs", python(ROOT / "tests" / "proofs.py", "--only", "x*1"))
    numbers, failed = parsed("collect_rule_proofs", tmp_path)
    assert set(keys_of("collect_rule_proofs")) <= set(numbers)
    assert 0 < numbers["rules_strict_proved"] < numbers["rules_strict"]
    assert "proofs: a strict rule has no proved claim" in failed


@pytest.mark.needs_z3
def test_float_tables_are_what_the_numbers_read(tmp_path):
    """Every claim, as the book's run makes them (about twenty seconds; --quick leaves out a
    row of the float table): each row of chapter 10's two tables is found in its group, as
    expected, and every rule has its claim."""
    produce(tmp_path, "proofs", "proofs", python(ROOT / "tests" / "proofs.py"))
    numbers, failed = parsed("collect_proofs", tmp_path)
    assert failed == []
    rows = [f"float_claim_{row}" for row in make_numbers.FLOAT_ROWS]
    rows += [f"fast_claim_{row}" for row in make_numbers.FAST_ROWS]
    assert set(rows) <= set(numbers)
    assert all(numbers[key] == "proved" or numbers[key].startswith("refuted at ") for key in rows)
    assert all(numbers[f"fast_claim_{row}"].startswith("refuted") for row in make_numbers.FAST_ROWS)
    numbers, failed = parsed("collect_rule_proofs", tmp_path)
    assert failed == [] and numbers["rules_strict_proved"] == numbers["rules_strict"]


def test_engine_numbers_are_what_the_numbers_read(tmp_path):
    """The sound layer's count at quick sizes, demo 2's RewriteLimit line, the limit's code."""
    counts = tmp_path / "raw_counts.txt"
    env = dict(child_env(), UOPC_COUNTS=str(counts))
    command = python("-m", "pytest", "-q", "-p", "no:cacheprovider", "--layer", "sound")
    command.append(ROOT / "tests" / "test_pipeline.py")
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    produce(tmp_path, "tests", "counts", ["sort", str(counts)])
    produce(tmp_path, "demos", "run_demos", python(ROOT / "demos" / "run_demos.py"))
    numbers, failed = parsed("collect_engine", tmp_path)
    assert failed == []  # the count fits the quick sizes; the two rules alternate under the limit
    keys = ("rewrite_base_limit", "rewrite_limit_per_node", "sound_programs", "sound_inputs")
    keys += ("loop_limit", "loop_distribute", "loop_factor")
    assert sorted(numbers) == sorted(keys)


def test_fold_demo_is_what_the_numbers_read(tmp_path):
    produce(tmp_path, "demos", "fold", python(ROOT / "demos" / "fold.py"))
    numbers, failed = parsed("collect_fold_demo", tmp_path)
    assert failed == []
    assert set(keys_of("collect_fold_demo")) <= set(numbers)
    assert numbers["fold_zero_nodes"] < numbers["fold_known_nodes"]


def test_every_collector_is_fed_its_producer():
    """Each collector of make_numbers.py is called through `parsed` by some test."""
    tests = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "tests").glob("test_*.py"))
    called = set(re.findall(r"parsed\(\s*\"(collect_\w+)\"", tests))
    names = {collector.__name__ for collector in make_numbers.COLLECTORS}
    assert names - called == set(), "collectors that no test feeds a real output"


def test_numbers_json_lists_what_is_missing(tmp_path):
    """A missing output adds no keys and is named under _missing (the hook quotes it)."""
    code = make_numbers.main(["--out", str(tmp_path)])
    data = json.loads((tmp_path / "numbers.json").read_text())
    assert "out/tests/mutant_matrix.txt" in data["_missing"] and code == 0
