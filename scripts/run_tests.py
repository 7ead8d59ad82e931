"""The test suite as a program of the book: its counts are the output, its log a run record.

    python scripts/run_tests.py [--full | --quick] [--records DIR]

Runs `pytest -n 2` over the package's tests, less producers.BOOK_TESTS (they run the book's
programs again; the quick suite runs them). Every layer appends its COUNT, FIGURE and
`@@ number` lines to one file (UOPC_COUNTS), which this prints sorted, so that two runs print
the same bytes. pytest's log goes to standard error and DIR/pytest.txt, with DIR/pytest.json
({"passed": N, "seconds": S}): records of the run, not book numbers, so a new test makes
nothing stale. Exits with pytest's status when it fails.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from book.files import ROOT, write_atomic
from book.producers import BOOK_TESTS

SUMMARY = re.compile(r"^=+ (?:.*?\b)?(\d+) passed\b.* in ([\d.]+)s", re.MULTILINE)


def pytest_command(full: bool) -> list[str]:
    command = [sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider"]
    command += ["--full"] if full else []
    command += [f"--ignore=tests/{name}" for name in BOOK_TESTS]
    return command


def run(full: bool, records: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="uopc-counts-") as folder:
        counts = Path(folder) / "counts.txt"
        counts.touch()
        env = dict(os.environ, UOPC_COUNTS=str(counts))
        env.pop("BOOK_NUMBERS", None)  # the layers write their numbers to the counts file
        log = []
        with subprocess.Popen(
            pytest_command(full), cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        ) as child:
            for line in child.stdout:
                log.append(line)
                sys.stderr.write(line)
        text = "".join(log)
        write_atomic(records / "pytest.txt", text)
        match = SUMMARY.search(text)
        if child.returncode != 0 or not match:
            print(f"run_tests: pytest exited {child.returncode}", file=sys.stderr)
            return child.returncode or 1
        record = {"passed": int(match[1]), "seconds": float(match[2])}
        write_atomic(records / "pytest.json", json.dumps(record) + "\n")
        sys.stdout.write("".join(sorted(counts.read_text(encoding="utf-8").splitlines(True))))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help="the book's sizes")
    size.add_argument("--quick", action="store_true", help="quick sizes (the default)")
    parser.add_argument("--records", type=Path, default=ROOT / "out" / "tests")
    args = parser.parse_args(argv)
    return run(args.full, args.records)


if __name__ == "__main__":
    sys.exit(main())
