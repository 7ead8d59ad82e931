"""Is every saved output and excerpt what the current code makes? Fails (exit 1) when not.

    python scripts/check_stale.py [--committed] [--keep DIR]

1. The outputs that come out the same on every run (the short path, the demos, the exercise
   answers, the summary, the figures, the excerpts, the numbers each of them states,
   out/KIND/STEM.numbers.json, out/numbers.json and its reference list) are made again by
   `run_all.sh --deterministic-into` in a temporary folder (the tree is not touched) and
   compared with out/ and excerpts/ byte for byte, except what depends on the machine: a line
   ending in `(this machine)`, a block whose first line does (its text is left out of the
   whole file too), and in a numbers file the keys make_numbers.MACHINE_KEYS names or whose
   meaning ends in `(this machine)`. A file that differs, is missing, or that no program makes
   any more fails.
2. The outputs too slow to make again here (book/producers.py marks them slow: the test
   run's counts, the proofs, the planted bugs, the benchmark and the machine it ran on) are
   checked by the `# sources:` line they start with: it must be the hash of the files their
   last run used, as they are now (out/used.json, book/used.py), or for an output with no
   record, of the sources its row declares (book/producers.py). Their blocks and their
   numbers file belong to them and are not made again; bench.json carries the same hash.
   The run records (producers.RUN_RECORDS: the run's time, the test run's log) are copied
   for the programs that read them and never checked, and out/sources.json (the build's
   manifest of the sources each output was made from) is not compared.
3. Every block of a saved output, out/KIND/STEM/NAME.txt, is text of its whole output
   out/KIND/STEM.txt: a block that is not (or whose whole output is gone) is what an output
   swapped in by halves looks like. A hidden file or folder that an interrupted write left
   behind (`.NAME.*.part`, `.STEM.new`) fails too.
4. With --committed (as in .ci/run): `git diff --exit-code HEAD -- out excerpts` and no
   untracked file there, so that what was checked is what is committed.

A stale output is fixed by running ./run_all.sh (the full run: the committed out/ comes from
it), or the one program concerned through scripts/save_output.py.
"""

import argparse
import difflib
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from book import used
from book.files import ROOT, stamp_problem
from book.producers import (
    COMPANIONS,
    MANIFEST,
    RUN_RECORDS,
    SOURCES,
    hashed_text,
    source_files,
    sources_hash,
)
from book.protocol import MACHINE_MARK, NUMBERS_STAMP, is_machine_block, read_header

SHOWN_DIFF = 30  # lines of diff shown per stale file
NUMBERS_SUFFIX = ".numbers.json"  # out/KIND/STEM.numbers.json: the numbers a program states


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
    found += [Path(name) for name in COMPANIONS if (out / name).exists()]
    found += [Path(name) for name in RUN_RECORDS if (out / name).exists()]  # copied, not checked
    return found


def check_hashes(out: Path, root: Path) -> list[str]:
    problems = []
    for key in SOURCES:
        path = out / f"{key}.txt"
        if not path.exists():
            problems.append(f"out/{key}.txt: missing (made by the full ./run_all.sh)")
            continue
        record = used.load(out).get(key)  # what its last run used, else what its row declares
        files = record["files"] if record else source_files(key, root)
        now = used.used_hash(files, root) if record else sources_hash(key, root)
        saved = read_header(path)
        if saved is None:
            problems.append(f"out/{key}.txt: no '# sources:' first line")
        elif saved != now:
            problems.append(
                f"out/{key}.txt: made from other sources ({saved}, now {now}): "
                f"rerun it (./run_all.sh); its sources: {' '.join(files)}"
            )
    for name, key in COMPANIONS.items():
        path = out / name
        if not path.exists():
            problems.append(f"out/{name}: missing (made with out/{key}.txt)")
            continue
        try:
            saved = json.loads(path.read_text(encoding="utf-8")).get("sources_hash", "")
        except ValueError:
            saved = ""
        if not saved.startswith(companion_hash(name, key, root)):
            problems.append(f"out/{name}: its sources_hash is not that of the current sources")
    return problems


# A companion that carries a hash of its own: the files it names, hashed as its program does
# (their text without comments, as every output's hash). bench.json: demos/bench.py's SOURCES, which
# tests/test_bench.py checks against this.
COMPANION_SOURCES = {
    "bench/bench.json": (
        "uopc/**/*.py",
        "demos/bench*.py",
        "demos/tinygrad_demo.py",
        "verify/generators.py",
        "book/protocol.py",
    ),
}


def companion_hash(name: str, key: str, root: Path) -> str:
    """The hash a companion must carry: its program's own (raw bytes of COMPANION_SOURCES), or
    for one without its own list, the sources hash of the output it comes with."""
    if name not in COMPANION_SOURCES:
        return sources_hash(key, root)
    files = sorted(
        {
            str(p.relative_to(root))
            for pattern in COMPANION_SOURCES[name]
            for p in root.glob(pattern)
        }
    )
    digest = hashlib.sha256()
    for relative in files:
        digest.update(relative.encode() + b"\0" + hashed_text(root / relative) + b"\0")
    return digest.hexdigest()


def masked(path: Path) -> str:
    """The text of an output without what depends on the machine (see the module docstring)."""
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


def machine_keys() -> frozenset:
    """The keys whose value is a measurement of this machine (make_numbers.MACHINE_KEYS)."""
    try:
        from make_numbers import MACHINE_KEYS
    except ImportError:  # not declared there: only the meanings marked `(this machine)` count
        return frozenset()
    return frozenset(MACHINE_KEYS)


def is_numbers_file(relative: Path) -> bool:
    return relative.name == "numbers.json" or relative.name.endswith(NUMBERS_SUFFIX)


def same_numbers(old: Path, new: Path) -> bool:
    """A numbers file (numbers.json or a program's KIND/STEM.numbers.json), ignoring the keys of
    machine measurements: those of MACHINE_KEYS and those whose meaning ends in the machine
    mark (a key stated as {"value": ..., "meaning": "... (this machine)"})."""
    skipped = machine_keys()

    def by_machine(key, entry) -> bool:
        if key in skipped or key == NUMBERS_STAMP:  # the stamp follows the machine's lines;
            return True  # block_problems checks it against its own output
        meaning = entry.get("meaning", "") if isinstance(entry, dict) else ""
        return isinstance(meaning, str) and meaning.rstrip().endswith(MACHINE_MARK)

    def load(path):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return None  # not JSON: only the same bytes are the same
        if not isinstance(data, dict):
            return data
        return {key: entry for key, entry in data.items() if not by_machine(key, entry)}

    first = load(old)
    return first is not None and first == load(new)


def block_problems(out: Path) -> list[str]:
    """Every block out/KIND/STEM/NAME.txt must be text of its whole output out/KIND/STEM.txt
    (blocks and whole are swapped in together; a block that is not there is a half-swapped
    set); and no temporary file or folder of an interrupted write (a hidden name: `.NAME.*.part`
    of files.write_atomic, `.STEM.new` of save_output) may be left under out/."""
    problems = []
    if not out.is_dir():
        return problems
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
    if not folder.is_dir():
        return set()
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
        if is_numbers_file(relative) and label == "out":
            if same_numbers(old, new):
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
    problems = []
    diff = subprocess.run(
        ["git", "diff", "--stat", "--exit-code", "HEAD", "--", "out", "excerpts"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    if diff.returncode != 0:
        problems.append("out/ or excerpts/ differ from the last commit:\n" + diff.stdout)
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--", "out", "excerpts"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    untracked = [line[3:] for line in status.stdout.splitlines() if line.startswith("??")]
    problems += [f"{name}: not committed (untracked)" for name in untracked]
    return problems


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
        # not compared: the hashed outputs, the manifest, the run records (present or not)
        skip = {*hashed_outputs(root / "out"), Path(MANIFEST), *map(Path, RUN_RECORDS)}
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
        print(f"check_stale: {problem}" if not problem.startswith("    ") else problem)
    if problems:
        print("check_stale: FAILED (fix: ./run_all.sh, then commit out/ and excerpts/)")
        return 1
    print("check_stale: out/ and excerpts/ are what the code makes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
