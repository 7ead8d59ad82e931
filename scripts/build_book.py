"""Make the book's outputs: every program whose sources changed, then the figures, the
listings and the numbers. A whole rebuild (--force) records its time for appendix C. --quick:
the sized and timed outputs go to build/quick/out/, never to out/, and the planted bugs are left
out. --deterministic-into DIR: only the outputs that must come out the same bytes, all of them,
into DIR (scripts/check_stale.py compares them with out/). A failing program stops the build.
Rows marked one_core in book/producers.py run two at a time; every other row runs alone.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from book import used
from book.files import ROOT, stamp_problem, write_atomic
from book.own_tree import require_own_uopc
from book.producers import PRODUCERS, Producer
from book.protocol import read_header

BESIDE = 2  # one_core rows run at once: one on each of the two cores of the book's machine


class Build:
    """One run of the build: where its outputs go, and which rows it ran or reused. `repo` is
    the tree whose sources are hashed and where the programs run (the repository; a test
    gives a small tree of its own)."""

    def __init__(self, out: Path, slow_out: Path, excerpts: Path, quick: bool, python: str):
        self.out, self.slow_out, self.excerpts = out, slow_out, excerpts
        self.quick, self.python, self.repo = quick, python, ROOT
        self.ran: list[str] = []
        self.reused: list[str] = []

    def root_of(self, row: Producer) -> Path:
        return self.slow_out if row.slow or row.sized else self.out

    def saved_hash(self, row: Producer) -> str | None:
        """The hash saved with the output; None when there is none or the output is not whole
        (a run cut half-way left a hidden temporary file, or numbers from another run)."""
        root = self.root_of(row)
        path = root / f"{row.name}.txt"
        numbers = root / f"{row.name}.numbers.json"
        if not path.exists() or any(path.parent.glob(f".{path.stem}*")):
            return None
        if numbers.exists() and stamp_problem(numbers):
            return None
        if row.slow:
            return read_header(path)
        return used.load(root).get(row.name, {}).get("hash")

    def hash_of(self, row: Producer) -> str:
        return used.current(row.name, self.root_of(row), self.repo, row.sources)[0]

    def command(self, row: Producer) -> list[str]:
        root = self.root_of(row)
        command = [self.python, str(ROOT / "scripts" / "save_output.py"), "--root", str(root)]
        command += ["--cwd", str(self.repo / row.cwd), "--tree", str(self.repo)]
        command += ["--echo"] if row.echo else []
        command += ["--timed"] if row.timed else []  # no audit hook in what it measures
        command += [row.kind, row.name.split("/", 1)[1], "--"]
        return command + row.argv(self.python, self.quick, root)

    def title(self, row: Producer) -> str:
        return f"{row.name}: {' '.join(row.argv('python', self.quick, self.root_of(row)))}"

    def run(self, row: Producer) -> None:
        say(self.title(row))
        status = subprocess.run(self.command(row), cwd=ROOT).returncode
        if status != 0:
            raise SystemExit(failed(row, status))
        self.ran.append(row.name)

    def due(self, row: Producer, force: bool) -> bool:
        """Whether the row runs: when forced, when it is made every time (`always`: from other
        saved outputs, cheaply), or when the hash of the files its last run used (book/used.py)
        differs from the one saved with its output or its output is missing or not whole."""
        return force or row.always or self.saved_hash(row) != self.hash_of(row)

    def step(self, row: Producer, force: bool) -> None:
        if self.due(row, force):
            self.run(row)
        else:
            self.reused.append(row.name)

    def steps(self, rows: list[Producer], force: bool) -> None:
        """Every row in the table's order, each stretch of one_core rows two at a time."""
        stretch: list[Producer] = []
        for row in rows:
            if row.one_core:
                stretch.append(row)
                continue
            self.beside(stretch, force)
            stretch = []
            self.step(row, force)  # alone: what ran before it has ended
        self.beside(stretch, force)

    def beside(self, rows: list[Producer], force: bool) -> None:
        """Run the rows that are due, BESIDE at a time. None reads what another writes
        (producers.one_core_problems), so the order they start and end in does not matter:
        the longest start first (by their last run's time), the short ones fill in beside
        them. Each row's lines are held and shown whole, in the table's order, so that two
        rows' lines never mix; a failure stops the build when the rows started have ended."""
        due = [row for row in rows if self.due(row, force)]
        self.reused += [row.name for row in rows if row not in due]
        if len(due) < 2:
            for row in due:
                self.run(row)  # as it runs, echo and all
            return
        with ThreadPoolExecutor(BESIDE) as pool:
            longest = sorted(due, key=self.last_seconds, reverse=True)
            started = {row.name: pool.submit(self.held, row) for row in longest}
            for row in due:
                status, lines = started[row.name].result()
                print(lines, end="", flush=True)
                if status != 0:
                    pool.shutdown(cancel_futures=True)  # the rows not yet started never start
                    raise SystemExit(failed(row, status))
                self.ran.append(row.name)

    def last_seconds(self, row: Producer) -> float:
        """The seconds its last run took (book/used.py), 0 when there is no record."""
        return used.load(self.root_of(row)).get(row.name, {}).get("seconds", 0.0)

    def held(self, row: Producer) -> tuple[int, str]:
        """Run the row with its lines (the program's own when it echoes, save_output's) held."""
        done = subprocess.run(
            self.command(row), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        return done.returncode, f"\n== {self.title(row)}\n" + done.stdout.decode("utf-8")

    def finish(self) -> None:
        """The figures, the listings and the numbers: made every time, from what is saved."""
        figures = [self.python, "scripts/make_figures.py", "--out", str(self.out / "figures")]
        data = self.out / "bench" / "bench.json"
        figures += ["--data", str(data)] if data.exists() else []
        say("the figures (scripts/make_figures.py)")
        check(figures)
        say("the listings (scripts/make_excerpts.py)")
        check([self.python, "scripts/make_excerpts.py", "--out", str(self.excerpts)])
        say("the numbers (scripts/make_numbers.py)")
        check([self.python, "scripts/make_numbers.py", "--out", str(self.out)])


def failed(row: Producer, status: int) -> str:
    return f"build_book: {row.name} failed (exit {status}); nothing saved"


def say(text: str) -> None:
    print(f"\n== {text}", flush=True)


def check(command: list[str]) -> None:
    status = subprocess.run(command, cwd=ROOT).returncode
    if status != 0:
        raise SystemExit(f"build_book: {' '.join(command)} failed (exit {status})")


def chosen_rows(options) -> list[Producer]:
    rows = list(PRODUCERS.values())
    if options.deterministic_into:
        return [row for row in rows if not row.slow]
    if options.quick and not options.with_mutants:
        left = ", ".join(row.name for row in rows if row.full_only)
        print(f"build_book: left out of a quick run (--with-mutants puts them back): {left}")
        rows = [row for row in rows if not row.full_only]
    if options.only:
        wanted = [row for row in rows if any(part in row.name for part in options.only)]
        if not wanted:
            raise SystemExit(f"build_book: no program matches {options.only}")
        rows = wanted  # the rows made from other outputs (the summary) run in a whole build
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="./run_all.sh", description=__doc__)
    option = parser.add_argument
    option("--quick", action="store_true", help="quick sizes, into build/quick/out/ (see above)")
    option("--with-mutants", action="store_true", help="the planted bugs in a quick run too")
    option("--force", action="store_true", help="every program again: a whole rebuild")
    option("--only", nargs="+", metavar="NAME", help="only these programs (demos/order), forced")
    option("--deterministic-into", type=Path, metavar="DIR", help="see above")
    options = parser.parse_args(argv)
    # every program below imports the uopc this one would
    require_own_uopc(Path(__file__).resolve().parents[1])  # its own tree, not book's
    started = float(os.environ.get("RUN_ALL_STARTED") or time.time())
    python = os.environ.get("PYTHON") or sys.executable
    out = slow_out = ROOT / "out"
    excerpts = ROOT / "excerpts"
    if options.quick:
        slow_out = ROOT / "build" / "quick" / "out"
    if options.deterministic_into:
        out = slow_out = options.deterministic_into.resolve()
        excerpts = out / "excerpts"
        out.mkdir(parents=True, exist_ok=True)
    build = Build(out, slow_out, excerpts, options.quick, python)
    force = options.force or bool(options.only) or bool(options.deterministic_into)
    with tempfile.TemporaryDirectory(prefix="uopc-build-cache-") as cache:
        os.environ["UOPC_CACHE"] = cache  # one cache of compiled libraries for the whole run
        rows = chosen_rows(options)
        build.steps([row for row in rows if not row.from_site], force)
    build.finish()
    printed = len(build.ran)
    if not (options.quick or options.deterministic_into):  # the PDF prints the site just made
        for row in rows:
            if row.from_site:
                build.step(row, force)
    elapsed = round(time.time() - started)
    whole = not (options.quick or options.only or options.deterministic_into or build.reused)
    if whole:  # every program made again: the time of a whole full run, for appendix C
        record = json.dumps({"seconds": elapsed}) + "\n"
        write_atomic(ROOT / "out" / "tests" / "run_all_time.json", record)
    if whole or len(build.ran) > printed:  # the PDF's numbers or the time join the others
        check([python, "scripts/make_numbers.py", "--out", str(out)])
    if build.reused:
        print(f"\nunchanged, not run again: {', '.join(build.reused)}")
    print(f"run again: {', '.join(build.ran) or 'nothing'}")
    mode = "quick" if options.quick else "deterministic" if options.deterministic_into else "full"
    print(f"\nrun_all.sh ({mode}): done in {elapsed // 60}m{elapsed % 60:02d}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
