"""Is every saved output and excerpt what the current code makes? Fails (exit 1) when not.

    python scripts/check_stale.py [--committed] [--keep DIR]

The outputs that come out the same on every run are made again (`run_all.sh
--deterministic-into`, in a temporary folder) and compared byte for byte, less what depends on
the machine (book/protocol.py: MACHINE_MARK; in a numbers file, the keys whose meaning ends in
it). The slow ones (producers.SOURCES) are judged by their `# sources:` hash against the files
their last run used, as they are now (book/used.py); their blocks, numbers and companions
belong to them, and the run records are copied, never checked. Every block must be text of its
whole output, and no temporary file of a cut write may be left: that is what a set swapped in
by halves looks like. With --committed (as in .ci/run), out/ and excerpts/ must also be what is
committed. docs/CONTRIBUTING.md says what each catches.
"""

import argparse
import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from book import used
from book.files import ROOT, stamp_problem
from book.producers import COMPANIONS, RUN_RECORDS, SOURCES, sources_hash
from book.protocol import MACHINE_MARK, NUMBERS_STAMP, is_machine_block, read_header

SHOWN_DIFF = 30  # lines of diff shown per stale file
NUMBERS_SUFFIX = ".numbers.json"  # out/KIND/STEM.numbers.json: the numbers a program states
# A companion that carries a hash of its own, over the files its program names (bench.json:
# demos/bench.py's SOURCES, which tests/test_bench.py checks against this).
COMPANION_SOURCES = {
    "bench/bench.json": (
        "uopc/**/*.py",
        "demos/bench*.py",
        "demos/tinygrad_demo.py",
        "verify/generators.py",
        "book/protocol.py",
    ),
}


def hashed_outputs(out: Path) -> list[Path]:
    """The hash-checked files under out/ (relative): each output, its blocks, the numbers it
    states, its companions; and the run records, which are not checked but copied like them."""
    found = []
    for key in SOURCES:
        for whole in (out / f"{key}.txt", out / f"{key}{NUMBERS_SUFFIX}"):
            if whole.exists():
                found.append(whole.relative_to(out))
        if (out / key).is_dir():
            found += [path.relative_to(out) for path in (out / key).rglob("*") if path.is_file()]
    return found + [Path(name) for name in (*COMPANIONS, *RUN_RECORDS) if (out / name).exists()]


def check_hashes(out: Path, root: Path) -> list[str]:
    problems = []
    for key in SOURCES:
        path = out / f"{key}.txt"
        now, files = used.current(key, out, root)
        if not path.exists():
            problems.append(f"out/{key}.txt: missing (made by the full ./run_all.sh)")
        elif (saved := read_header(path)) != now:
            problems.append(
                f"out/{key}.txt: made from other sources ({saved}, now {now}): "
                f"rerun it (./run_all.sh); its sources: {' '.join(files)}"
            )
    for name, key in COMPANIONS.items():
        path = out / name
        saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        hashed = sources_hash(key, root, COMPANION_SOURCES.get(name))  # the start of its own
        if not str(saved.get("sources_hash", "")).startswith(hashed):
            problems.append(f"out/{name}: its sources_hash is not that of the current sources")
    return problems


def masked(path: Path) -> str:
    """The text of an output without what depends on the machine: a line that ends in the
    mark, a block whose first line does (and its text in the whole output)."""
    text = path.read_text(encoding="utf-8")
    if path.parent.with_suffix(".txt").is_file():  # a block: out/KIND/STEM/NAME.txt
        if is_machine_block(text):
            return "<a block that depends on the machine>\n"
    elif path.with_suffix("").is_dir():  # a whole output with blocks
        for block in sorted(path.with_suffix("").glob("*.txt")):
            block_text = block.read_text(encoding="utf-8")
            if is_machine_block(block_text):
                text = text.replace(block_text, f"<block {block.stem}: this machine>\n", 1)
    lines = text.splitlines(keepends=True)
    return "".join("<this machine>\n" if MACHINE_MARK in line else line for line in lines)


def machine_keys(made: Path) -> set[str]:
    """The keys of machine measurements: those whose meaning, in a numbers file a program
    stated (KIND/STEM.numbers.json under made), ends in the machine mark; and the stamp, which
    follows the machine's lines (block_problems checks it)."""
    keys = {NUMBERS_STAMP}
    for path in made.glob("*/*.numbers.json"):
        for key, entry in json.loads(path.read_text(encoding="utf-8")).items():
            meaning = entry.get("meaning", "") if isinstance(entry, dict) else ""
            if str(meaning).rstrip().endswith(MACHINE_MARK):
                keys.add(key)
    return keys


def same_numbers(old: Path, new: Path, skipped: set[str]) -> bool:
    """A numbers file (numbers.json or a program's), less the keys skipped."""

    def kept(path):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return None  # not JSON: only the same bytes are the same
        return {key: entry for key, entry in data.items() if key not in skipped}

    first = kept(old)
    return first is not None and first == kept(new)


def block_problems(out: Path) -> list[str]:
    """Every block out/KIND/STEM/NAME.txt must be text of its whole output, every numbers file
    stamped with its output's, and no temporary file or folder of a cut write left (a hidden
    name: `.NAME.*.part` of files.write_atomic, `.STEM.new` of save_output)."""
    problems = []
    for block in sorted(out.glob("*/*/*.txt")):
        if not block.is_file() or is_hidden(block.relative_to(out)):
            continue
        whole = block.parent.with_suffix(".txt")
        name, whole_name = f"out/{block.relative_to(out)}", f"out/{whole.relative_to(out)}"
        if not whole.is_file():
            problems.append(f"{name}: a block whose whole output {whole_name} is gone")
        elif block.read_text(encoding="utf-8") not in whole.read_text(encoding="utf-8"):
            problems.append(
                f"{name}: its text is not in its whole output {whole_name} "
                "(the two come from different runs: rerun the program)"
            )
    for numbers in sorted(out.glob("*/*.numbers.json")):
        problem = stamp_problem(numbers)
        if problem:
            problems.append(f"out/{numbers.relative_to(out)}: {problem}")
    for path in sorted(out.rglob(".*")):
        if not is_hidden(path.parent.relative_to(out)):  # the hidden entry itself, once
            problems.append(f"out/{path.relative_to(out)}: the temporary file of a cut write")
        swapped = re.fullmatch(r"\.(.+)\.(new|old)", path.name)
        if swapped and path.is_dir():  # save_output's blocks, cut between two renames
            blocks = f"out/{path.parent.relative_to(out)}/{swapped[1]}/"
            problems.append(f"{blocks}: its blocks were being swapped when a run was cut")
    return problems


def is_hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def files(folder: Path, skip: set[Path]) -> set[Path]:
    """The files under folder (relative), less those in skip and those under a skipped folder."""
    found = {path.relative_to(folder) for path in folder.rglob("*") if path.is_file()}
    return {path for path in found if not (skip & {path, *path.parents})}


def compare(label: str, saved: Path, made: Path, skip: set[Path]) -> list[str]:
    """Problems between the saved folder and the one just made (paths relative to each)."""
    problems = []
    have, want = files(saved, skip), files(made, skip)
    for relative in sorted(have - want):
        problems.append(f"{label}/{relative}: no program makes it any more (remove it)")
    for relative in sorted(want - have):
        problems.append(f"{label}/{relative}: missing (run ./run_all.sh)")
    for relative in sorted(have & want):
        old, new = saved / relative, made / relative
        if old.read_bytes() == new.read_bytes():
            continue
        numbers = relative.name == "numbers.json" or relative.name.endswith(NUMBERS_SUFFIX)
        if label == "out" and numbers:
            if same_numbers(old, new, machine_keys(made)):
                continue
        elif relative.suffix in (".txt", ".md") and masked(old) == masked(new):
            continue  # an output, or make_numbers' reference list (a line per key)
        problems.append(f"{label}/{relative}: stale, differs from what the code makes now")
        if relative.suffix in (".txt", ".json", ".md", ".py", ".c"):
            diff = difflib.unified_diff(
                old.read_text(encoding="utf-8").splitlines(),
                new.read_text(encoding="utf-8").splitlines(),
                f"{label}/{relative} (saved)",
                f"{label}/{relative} (made now)",
                lineterm="",
            )
            problems += ["    " + line for line in list(diff)[:SHOWN_DIFF]]
    return problems


def regenerate(root: Path, into: Path) -> None:
    out = root / "out"
    for relative in hashed_outputs(out):  # inputs of the summary, the figures and the numbers
        (into / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(out / relative, into / relative)
    command = [str(root / "run_all.sh"), "--deterministic-into", str(into)]
    done = subprocess.run(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        sys.stdout.write(done.stdout.decode("utf-8", "replace"))
        raise SystemExit(f"check_stale: {' '.join(command)} failed (exit {done.returncode})")


def git_problems(root: Path) -> list[str]:
    """Every file under out/ or excerpts/ that is changed, staged or untracked."""
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "out", "excerpts"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return [
        f"{line[3:]}: not committed (untracked)"
        if line.startswith("??")
        else f"out/ or excerpts/ differ from the last commit: {line[3:]}"
        for line in status.stdout.splitlines()
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--committed", action="store_true", help="also compare with git HEAD")
    parser.add_argument("--keep", type=Path, help="make the outputs here and keep them")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    into = args.keep or Path(tempfile.mkdtemp(prefix="check-stale-"))
    try:
        regenerate(root, into)
        # not compared: the hashed outputs and the run records (present or not)
        skip = {*hashed_outputs(root / "out"), *map(Path, RUN_RECORDS)}
        problems = compare("out", root / "out", into, skip | {Path("excerpts")})
        problems += compare("excerpts", root / "excerpts", into / "excerpts", set())
        problems += check_hashes(root / "out", root)
        problems += block_problems(root / "out")
        if args.committed:
            problems += git_problems(root)
    finally:
        if args.keep is None:
            shutil.rmtree(into, ignore_errors=True)
    for problem in problems:
        print(problem if problem.startswith("    ") else f"check_stale: {problem}")
    if problems:
        print("check_stale: FAILED (fix: ./run_all.sh, then commit out/ and excerpts/)")
        return 1
    print("check_stale: out/ and excerpts/ are what the code makes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
