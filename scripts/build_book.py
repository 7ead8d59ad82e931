"""The book's build: run every program of book/producers.py whose sources changed, then draw
the figures, cut the listings and merge the numbers. ./run_all.sh calls it after the set-up.

    python scripts/build_book.py [--quick [--with-mutants]] [--force] [--only NAME ...]
    python scripts/build_book.py --deterministic-into DIR

- A program runs again only when the hash of the files its last run used (its record in
  out/used.json, book/used.py: every module it and its children imported, every file they
  read) differs from the hash saved with its output (the `# sources:` first line of a slow
  output, out/sources.json for the others), or its output is missing; a program with no
  record yet is judged by the sources its row declares. `--force` runs every one. A row marked
  `always` (the summary, made from other outputs) runs every time; so do the figures, the
  listings and the numbers, which take seconds.
- `--quick`: quick sizes; the sized outputs go to build/quick/out/, never to out/; the planted
  bugs are left out unless --with-mutants.
- `--deterministic-into DIR`: only the outputs that must come out byte for byte the same, all
  of them, written under DIR (scripts/check_stale.py compares them with out/).
- `--only NAME ...`: those rows (by name, "demos/order", or a part of it), forced, and then the
  figures, listings and numbers.
- A row marked `from_site` (the book's PDF) prints the built site: it runs after the figures,
  listings and numbers, in full runs only; then the numbers are merged again (its page count
  joins them).
Each program runs through scripts/save_output.py (fixed environment, blocks, numbers, atomic
writes). A program that fails stops the build with its status. A whole full run (every row
made, none reused) records its elapsed time in out/tests/run_all_time.json for appendix C;
RUN_ALL_STARTED (set by run_all.sh) makes that time include the set-up.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from book import used
from book.files import ROOT, stamp_problem, write_atomic
from book.own_tree import require_own_uopc
from book.producers import MANIFEST, PRODUCERS, Producer, sources_hash
from book.protocol import read_header


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
        return load_manifest(root).get(row.name)

    def hash_of(self, row: Producer) -> str:
        """The hash of what the row depends on now: the files its last run used (its record in
        used.json, book/used.py), or the sources it declares when it has no record yet."""
        record = used.load(self.root_of(row)).get(row.name)
        if record:
            return used.used_hash(record["files"], self.repo)
        return sources_hash(row.name, self.repo, row.sources)

    def run(self, row: Producer) -> None:
        root = self.root_of(row)
        now = self.hash_of(row)  # before the run: a source edited meanwhile reruns it
        command = [self.python, str(ROOT / "scripts" / "save_output.py"), "--root", str(root)]
        command += ["--cwd", str(self.repo / row.cwd), "--tree", str(self.repo)]
        command += ["--echo"] if row.echo else []
        command += ["--timed"] if row.timed else []  # no audit hook in what it measures
        command += [row.kind, row.name.split("/", 1)[1], "--"]
        command += row.argv(self.python, self.quick, root)
        say(f"{row.name}: {' '.join(row.argv('python', self.quick, root))}")
        status = subprocess.run(command, cwd=ROOT).returncode
        if status != 0:
            raise SystemExit(f"build_book: {row.name} failed (exit {status}); nothing saved")
        manifest = load_manifest(root)
        record = used.load(root).get(row.name)
        manifest[row.name] = record["hash"] if record else now  # what the next build compares
        write_atomic(root / MANIFEST, json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
        self.ran.append(row.name)

    def step(self, row: Producer, force: bool) -> None:
        if force or row.always or self.saved_hash(row) != self.hash_of(row):
            self.run(row)
        else:
            self.reused.append(row.name)

    def finish(self, deterministic: bool) -> None:
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


def load_manifest(root: Path) -> dict:
    path = root / MANIFEST
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


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
        for row in rows:
            if row.full_only:
                print(f"build_book: {row.name} is left out of a quick run (--with-mutants)")
        rows = [row for row in rows if not row.full_only]
    if options.only:
        wanted = [row for row in rows if any(part in row.name for part in options.only)]
        if not wanted:
            raise SystemExit(f"build_book: no program matches {options.only}")
        rows = wanted  # the rows made from other outputs (the summary) run in a whole build
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick sizes (build/quick/out)")
    parser.add_argument("--with-mutants", action="store_true", help="planted bugs in --quick")
    parser.add_argument("--force", action="store_true", help="run every program")
    parser.add_argument("--only", nargs="+", help="only these programs (forced)")
    parser.add_argument("--deterministic-into", type=Path, help="the same-bytes outputs, into DIR")
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
        for row in rows:
            if not row.from_site:
                build.step(row, force)
    build.finish(bool(options.deterministic_into))
    if not (options.quick or options.deterministic_into):
        printed = len(build.ran)
        for row in rows:
            if row.from_site:
                build.step(row, force)
        if len(build.ran) > printed:  # its numbers join the others
            check([python, "scripts/make_numbers.py", "--out", str(out)])
    elapsed = round(time.time() - started)
    whole = not (options.quick or options.only or options.deterministic_into or build.reused)
    if whole:  # every program made again: the time of a whole full run, for appendix C
        write_atomic(
            ROOT / "out" / "tests" / "run_all_time.json", json.dumps({"seconds": elapsed}) + "\n"
        )
        check([python, "scripts/make_numbers.py", "--out", str(out)])
    if build.reused:
        print(f"\nunchanged, not run again: {', '.join(build.reused)}")
    print(f"run again: {', '.join(build.ran) or 'nothing'}")
    mode = "quick" if options.quick else "deterministic" if options.deterministic_into else "full"
    print(f"\nrun_all.sh ({mode}): done in {elapsed // 60}m{elapsed % 60:02d}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
