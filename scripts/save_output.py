"""Run one program with a fixed environment and save what it prints under out/.

    python scripts/save_output.py [--root DIR] [--cwd DIR] [--echo] KIND STEM -- COMMAND...

The command runs with PYTHONHASHSEED=0, LC_ALL=C.UTF-8, TZ=UTC, COLUMNS=100 and a compiled-
library cache under a temporary folder (UOPC_CACHE, unless the caller set one), so that two runs
print the same bytes. Its standard output is saved; its standard error passes through.

- A command that exits non-zero fails this script with the same status, and nothing is written
  (the output it printed is shown, the last lines of it).
- Marker lines `@@ block NAME` are stripped. The whole output goes to ROOT/KIND/STEM.txt and
  each block (from its marker to the next one or the end) to ROOT/KIND/STEM/NAME.txt. Block
  files of an earlier run that the program no longer prints are removed.
- Lines `@@ number KEY = VALUE  # MEANING` (book/protocol.state: a number the book quotes,
  stated where it is computed) are stripped too, and filed as ROOT/KIND/STEM.numbers.json,
  {KEY: {"value": VALUE, "meaning": MEANING}}; scripts/make_numbers.py merges these files.
  The program runs with BOOK_NUMBERS=1, which makes counting.state print them.
- The set is written whole or not at all: every file through a temporary name and a rename,
  the blocks into a new folder that replaces the old one; the whole output is renamed into
  place last. A run killed half-way leaves hidden temporary files that the next run removes.
- The run is recorded (book/used.py): every repository file the program and the Python
  processes it starts imported or read goes, with the hash of those files and the run's time,
  into ROOT/used.json, from which the build decides when to run it again.
- An output listed in producers.SOURCES (the slow and the machine-dependent ones) starts with
  `# sources: <hash>` of the files it came from (the record's, else its row's declared
  sources); only the whole file carries it.
- An empty output, an empty block, a repeated block name or a malformed marker is an error:
  each would silently show an empty or wrong block on a page.

ROOT defaults to out/ in the repository; --cwd defaults to the repository root.
"""

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from book import used
from book.files import ROOT, write_atomic
from book.own_tree import require_own_uopc
from book.producers import SOURCES, header
from book.protocol import (
    BLOCK_LINE,
    BLOCK_START,
    HASH_LENGTH,
    NUMBER_START,
    NUMBERS_STAMP,
    NumberLineError,
    header_line,
    parse_number_line,
)

FIXED_ENVIRONMENT = {
    "BOOK_NUMBERS": "1",
    "PYTHONHASHSEED": "0",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "COLUMNS": "100",
}
SHOWN_ON_FAILURE = 40  # lines of output shown when the command fails


class OutputError(Exception):
    pass


def split_numbers(text: str) -> tuple[str, dict[str, dict]]:
    """(the text without number lines, {key: {"value": ..., "meaning": ...}})."""
    kept, numbers = [], {}
    for line in text.splitlines(keepends=True):
        if not line.startswith(NUMBER_START):
            kept.append(line)
            continue
        try:
            key, value, meaning = parse_number_line(line)
        except NumberLineError as error:
            raise OutputError(str(error)) from None
        stated = {"value": value, "meaning": meaning}
        if numbers.get(key, stated) != stated:
            raise OutputError(f"number {key} is stated twice, as {numbers[key]} and {stated}")
        numbers[key] = stated
    return "".join(kept), dict(sorted(numbers.items()))


def split_blocks(text: str) -> tuple[str, dict[str, str]]:
    """(the text without marker lines, {block name: block text}) of a program's output."""
    whole, blocks, current = [], {}, None
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\n")
        if stripped.startswith(BLOCK_START.strip()):
            match = BLOCK_LINE.fullmatch(stripped)
            if not match:
                raise OutputError(f"malformed marker line {stripped!r} (NAME: [a-z][-_0-9a-z]*)")
            current = match.group(1)
            if current in blocks:
                raise OutputError(f"block {current!r} is printed twice")
            blocks[current] = ""
            continue
        whole.append(line)
        if current is not None:
            blocks[current] += line
    for name, block in blocks.items():
        if not block.strip():
            raise OutputError(f"block {name!r} is empty")
    return "".join(whole), blocks


def remove_leftovers(folder: Path, stem: str) -> None:
    """Undo what a run killed half-way left: the old blocks put back if the new ones never
    arrived, then every hidden temporary file and folder of stem removed."""
    if not folder.is_dir():
        return
    final, old = folder / stem, folder / f".{stem}.old"
    if old.is_dir() and not final.exists():
        old.rename(final)
    for path in folder.glob(f".{stem}*"):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def output_stamp(whole: str) -> str:
    """The stamp a numbers file carries of the whole output it came with (book/protocol.py)."""
    return hashlib.sha256(whole.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def write_set(root: Path, kind: str, stem: str, whole: str, blocks: dict, numbers: dict):
    """Write the blocks, the numbers and, last, the whole output; return the paths. A run cut
    anywhere leaves the old set, the new one, or a mix the staleness check finds (a block not
    in its whole output, a numbers file whose stamp is not its output's, a hidden leftover),
    and the next run of this script undoes it."""
    folder = root / kind
    folder.mkdir(parents=True, exist_ok=True)
    remove_leftovers(folder, stem)
    final, new, old = folder / stem, folder / f".{stem}.new", folder / f".{stem}.old"
    written = [folder / f"{stem}.txt"]
    numbers_path = folder / f"{stem}.numbers.json"
    try:
        if blocks:
            new.mkdir()
            for name, block in blocks.items():
                (new / f"{name}.txt").write_text(block, encoding="utf-8")
                written.append(final / f"{name}.txt")
        if final.is_dir():
            final.rename(old)
        if blocks:
            new.rename(final)
        shutil.rmtree(old, ignore_errors=True)
        if numbers:
            stamped = {NUMBERS_STAMP: output_stamp(whole), **numbers}
            text = json.dumps(stamped, indent=1, ensure_ascii=False) + "\n"
            write_atomic(numbers_path, text)
            written.append(numbers_path)
        else:
            numbers_path.unlink(missing_ok=True)
        write_atomic(written[0], whole)
    except BaseException:
        remove_leftovers(folder, stem)
        raise
    return written


def save(root: Path, kind: str, stem: str, output: str, used: str | None = None) -> list[Path]:
    """Write the whole output, its blocks and its numbers; return the paths written. A slow
    output's `# sources:` line carries `used`, the hash of the files the run used (book/used.py),
    or without a record the hash of the sources its row declares."""
    output, numbers = split_numbers(output)
    whole, blocks = split_blocks(output)
    if not whole.strip():
        raise OutputError("the program printed nothing")
    key = f"{kind}/{stem}"
    if key in SOURCES:
        whole = (header_line(used) if used else header(key)) + whole
    elif kind == "bench":
        raise OutputError(f"{key}: an output in out/bench/ needs its sources in producers.py")
    return write_set(root, kind, stem, whole, blocks, numbers)


def _stop(signum, frame):
    # a stop while the set is written is a normal exit: the finally clauses clean up
    raise SystemExit(128 + signum)


def environment() -> dict:
    env = dict(os.environ, **FIXED_ENVIRONMENT)
    if not env.get("UOPC_CACHE"):
        env["UOPC_CACHE"] = tempfile.mkdtemp(prefix="uopc-cache-")
    return env


def run(command: list[str], cwd: Path, echo: bool, env: dict) -> tuple[int, str]:
    """(exit status, standard output) of the command; with echo, the output is also shown."""
    if not echo:
        done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE)
        return done.returncode, done.stdout.decode("utf-8")
    lines = []
    with subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE) as child:
        for raw in child.stdout:
            line = raw.decode("utf-8")
            lines.append(line)
            sys.stderr.write(line)
            sys.stderr.flush()
    return child.returncode, "".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT / "out", help="the out/ folder")
    parser.add_argument("--cwd", type=Path, default=ROOT, help="where the command runs")
    parser.add_argument("--echo", action="store_true", help="show the output while it runs")
    parser.add_argument("--tree", type=Path, default=ROOT, help="whose files the record names")
    parser.add_argument("--timed", action="store_true", help="record imports only, no hook")
    parser.add_argument("kind")
    parser.add_argument("stem")
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        parser.error("no command given (put it after --)")
    split = argv.index("--")
    args, command = parser.parse_args(argv[:split]), argv[split + 1 :]
    if not command:
        parser.error("no command given (put it after --)")
    # the program it runs imports the uopc this one would
    require_own_uopc(Path(__file__).resolve().parents[1])  # its own tree, not book's
    name = f"{args.kind}/{args.stem}"
    signal.signal(signal.SIGTERM, _stop)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="book-used-") as folder:
        record = Path(folder) / "used.txt"
        env = used.recording(environment(), record, args.tree.resolve(), args.timed)
        status, output = run(command, args.cwd, args.echo, env)
        seconds = time.monotonic() - started
        entries = used.read_record(record, args.tree.resolve())
    digest = used.used_hash(entries, args.tree.resolve()) if entries else None
    if status != 0:
        if not args.echo:
            shown = output.splitlines()[-SHOWN_ON_FAILURE:]
            sys.stderr.write("".join(line + "\n" for line in shown))
        print(f"save_output: {name}: FAILED ({' '.join(command)} exited {status})", file=sys.stderr)
        return status
    try:
        written = save(args.root, args.kind, args.stem, output, digest)
    except OutputError as error:
        print(f"save_output: {name}: {error}", file=sys.stderr)
        return 1
    if entries:  # what it used, for the next build's choice (book/used.py)
        used.save(args.root, name, entries, digest, seconds)
    blocks = sum(path.parent.name == args.stem for path in written)
    numbers = sum(path.name.endswith(".numbers.json") for path in written)
    blocks = f", {blocks} blocks" if blocks else ""
    blocks += f", {len(json.loads(written[-1].read_text())) - 1} numbers" if numbers else ""
    shown = written[0].resolve()
    shown = shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else shown
    print(f"saved {shown} ({output.count(chr(10))} lines{blocks}, {seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
