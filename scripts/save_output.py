"""Run one program with a fixed environment and save what it prints under out/.

    python scripts/save_output.py [--root DIR] [--cwd DIR] [--echo] KIND STEM -- COMMAND...

docs/CONTRIBUTING.md ("Outputs") says what is written: ROOT/KIND/STEM.txt, its blocks, the
numbers it stated (book/protocol.parse_output) and, for a row of producers.SOURCES, the
`# sources:` first line; the run's record of what it used goes to ROOT/used.json
(book/used.py). Why the care in writing: the set is swapped in whole (blocks into a new folder
renamed over the old one, every file through a rename, the whole output last), so a run cut
anywhere leaves the old set or the new one or a mix the staleness check names, and the next
run of this script undoes it. A failing command writes nothing and fails with its status.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from book import used
from book.files import ROOT, stop_on_sigterm, write_atomic
from book.own_tree import require_own_uopc
from book.producers import SOURCES, header
from book.protocol import NUMBERS_STAMP, ProtocolError, header_line, output_stamp, parse_output

FIXED_ENVIRONMENT = {
    "BOOK_NUMBERS": "1",
    "PYTHONHASHSEED": "0",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "COLUMNS": "100",
}
SHOWN_ON_FAILURE = 40  # lines of output shown when the command fails


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


def write_set(root: Path, kind: str, stem: str, whole: str, blocks: dict, numbers: dict) -> None:
    """Write the blocks, the numbers and, last, the whole output."""
    folder = root / kind
    folder.mkdir(parents=True, exist_ok=True)
    remove_leftovers(folder, stem)
    final, new, old = folder / stem, folder / f".{stem}.new", folder / f".{stem}.old"
    numbers_path = folder / f"{stem}.numbers.json"
    try:
        if blocks:
            new.mkdir()
            for name, block in blocks.items():
                (new / f"{name}.txt").write_text(block, encoding="utf-8")
        if final.is_dir():
            final.rename(old)
        if blocks:
            new.rename(final)
        shutil.rmtree(old, ignore_errors=True)
        if numbers:
            stamped = {NUMBERS_STAMP: output_stamp(whole.encode("utf-8")), **numbers}
            text = json.dumps(stamped, indent=1, ensure_ascii=False) + "\n"
            write_atomic(numbers_path, text)
        else:
            numbers_path.unlink(missing_ok=True)
        write_atomic(folder / f"{stem}.txt", whole)
    except BaseException:
        remove_leftovers(folder, stem)
        raise


def save(root: Path, kind: str, stem: str, output: str, used: str | None = None) -> int:
    """Write the whole output, its blocks and its numbers; return how many blocks. A slow
    output's `# sources:` line carries `used`, the hash of the files the run used, or without a
    record the hash of the sources its row declares."""
    whole, blocks, numbers = parse_output(output)
    if not whole.strip():
        raise ProtocolError("the program printed nothing")
    key = f"{kind}/{stem}"
    if key in SOURCES:
        whole = (header_line(used) if used else header(key)) + whole
    elif kind == "bench":
        raise ProtocolError(f"{key}: an output in out/bench/ needs its sources in producers.py")
    write_set(root, kind, stem, whole, blocks, numbers)
    return len(blocks)


def run(command: list[str], cwd: Path, echo: bool, env: dict) -> tuple[int, str]:
    """(exit status, standard output) of the command; with echo, the output is also shown."""
    lines = []
    with subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE) as child:
        try:
            for raw in child.stdout:
                lines.append(raw.decode("utf-8"))
                if echo:
                    sys.stderr.write(lines[-1])
                    sys.stderr.flush()
        except BaseException as stop:
            # Ctrl-C reached the program too (one process group); a `kill` of this run or an
            # error here did not, and leaving the closing `with` would wait for its whole run
            if not isinstance(stop, KeyboardInterrupt):
                child.terminate()
            raise
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
    split = argv.index("--") if "--" in argv else len(argv)
    args, command = parser.parse_args(argv[:split]), argv[split + 1 :]
    if not command:
        parser.error("no command given (put it after --)")
    # the program it runs imports the uopc this one would
    require_own_uopc(Path(__file__).resolve().parents[1])  # its own tree, not book's
    name, tree = f"{args.kind}/{args.stem}", args.tree.resolve()
    stop_on_sigterm()  # a stop while the set is written: the finally clauses clean up
    started = time.monotonic()
    env = dict(os.environ, **FIXED_ENVIRONMENT)
    with tempfile.TemporaryDirectory(prefix="book-used-") as folder:
        env["UOPC_CACHE"] = env.get("UOPC_CACHE") or str(Path(folder) / "cache")
        record = Path(folder) / "used.txt"
        env = used.recording(env, record, tree, args.timed)
        status, output = run(command, args.cwd, args.echo, env)
        seconds = time.monotonic() - started
        entries = used.read_record(record, tree)
    digest = used.used_hash(entries, tree) if entries else None
    if status != 0:
        if not args.echo:
            sys.stderr.write("".join(output.splitlines(True)[-SHOWN_ON_FAILURE:]))
        print(f"save_output: {name}: FAILED ({' '.join(command)} exited {status})", file=sys.stderr)
        return status
    try:
        blocks = save(args.root, args.kind, args.stem, output, digest)
    except ProtocolError as error:
        print(f"save_output: {name}: {error}", file=sys.stderr)
        return 1
    if entries:  # what it used, for the next build's choice (book/used.py)
        used.save(args.root, name, entries, digest, seconds)
    shown = (args.root / args.kind / f"{args.stem}.txt").resolve()
    shown = shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else shown
    print(f"saved {shown} ({output.count(chr(10))} lines, {blocks} blocks, {seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
