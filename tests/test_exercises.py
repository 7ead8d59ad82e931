"""The exercise answers (code/exercises/: one file per chapter, run by solutions.py) run clean
and make their checks.

The runner is run as it is run for the book, in a child process from the repository root, so
it finds `uopc` the way a reader's run does. It must exit 0, and its last line must report at
least as many checks as the book's run made (385): fewer would mean answers that stopped
checking. The program itself exits non-zero, naming the exercise, on the first failed check.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_numbers import produce, stated, stated_in

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "code" / "exercises" / "solutions.py"
BOOK_CHECKS = 385  # verification.md §11: the book's run made 385 asserts

pytestmark = [pytest.mark.slow, pytest.mark.needs_clang, pytest.mark.needs_z3]


# Every answer once, and chapter 8's demo: the slowest program the quick run made. The quick
# run leaves it to .ci/run, whose check_stale.py runs solutions.py and compares what it prints,
# count line included, with out/exercises/solutions.txt.
@pytest.mark.full_only("check_stale.py reruns code/exercises/solutions.py")
def test_solutions_run_clean_and_check_enough(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "UOPC_COUNTS"}
    env["BOOK_NUMBERS"] = "1"  # as the build runs it: the numbers it states are printed
    done = subprocess.run(
        [sys.executable, str(SOLUTIONS)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1800,
        env=env,
    )
    tail = "\n".join(done.stdout.splitlines()[-15:]) + "\n" + done.stderr[-2000:]
    assert done.returncode == 0, f"solutions.py exited {done.returncode}:\n{tail}"
    found = re.search(r"^(\d+) exercises; (\d+) checks passed$", done.stdout, re.M)
    assert found, f"no count line in the output:\n{tail}"
    exercises, checks = int(found.group(1)), int(found.group(2))
    assert exercises == 79, f"{exercises} exercises answered, not 79"
    assert checks >= BOOK_CHECKS, f"only {checks} checks, the book's run made {BOOK_CHECKS}"
    labels = re.findall(r"^(\d+\.\d+) ", done.stdout, re.M)
    assert len(labels) == len(set(labels)) == 79, "an exercise label is missing or repeated"
    # the numbers it states for the book (tests/test_numbers.py)
    numbers = stated_in(done.stdout)
    assert numbers["exercises_total"] == 79 and numbers["exercise_checks"] == checks
    assert "(x+c1)*c2" in numbers["order_only_rules"].split(", ")
    # chapter 8's order experiment: the demo states its own counts
    produce(tmp_path, "demos", "order", [sys.executable, str(ROOT / "demos" / "order.py")])
    numbers = stated(tmp_path, "demos", "order")
    assert numbers["order_same"] + numbers["order_different"] == numbers["order_programs"]
