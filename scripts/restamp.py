"""Carry a hash-checked output over to a new definition of its sources, without rerunning it.

    python scripts/restamp.py --at COMMIT KEY [KEY ...]      (KEY as in producers.SOURCES)

A saved output such as out/tests/mutant_matrix.txt starts with `# sources: <hash>`, the hash of
the files it came from (book/producers.py, SOURCES). When SOURCES changes which files those
are, but none of the files the program reads has changed, the output is still what the program
makes; only its first line no longer matches. The planted-bug programs take an hour, so rather
than running them again this script proves the point and rewrites that one line. For each KEY:

1. at COMMIT, the saved output was current by that commit's own rules: its header equals the
   hash that the commit's book/producers.py computes over the commit's files;
2. the saved output is byte for byte the same now as at COMMIT;
3. under today's definition, the sources at COMMIT and today are the same files with the same
   bytes (the same hash).

Only then is the header replaced by today's hash. Otherwise it refuses, says which step failed,
and leaves that output as it was (exit 1).
"""

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

from book import producers
from book.files import ROOT
from book.protocol import HEADER


def checkout(commit: str, into: Path) -> None:
    """The tree of commit, written under into (git archive: no second worktree to clean up)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def module_at(tree: Path):
    """The sources hashing as it was in tree (book/producers.py, or scripts/book_common.py
    before the book package), computing over that tree's files."""
    path = tree / "book" / "producers.py"
    if not path.is_file():
        path = tree / "scripts" / "book_common.py"
    spec = importlib.util.spec_from_file_location("sources_then", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def restamp(key: str, commit: str, then: Path, old) -> str | None:
    """The problem that stops key from being restamped, or None once it is done."""
    now_file, then_file = ROOT / "out" / f"{key}.txt", then / "out" / f"{key}.txt"
    if not then_file.is_file() or not now_file.is_file():
        return f"out/{key}.txt is missing now or at {commit}"
    saved = then_file.read_text(encoding="utf-8")
    match = HEADER.match(saved)
    if not match or match[1] != old.sources_hash(key, then):
        return f"out/{key}.txt was already stale at {commit}"
    if now_file.read_bytes() != then_file.read_bytes():
        return f"out/{key}.txt has changed since {commit}"
    new_hash = producers.sources_hash(key, ROOT)
    if producers.sources_hash(key, then) != new_hash:
        changed = [
            name
            for name in producers.source_files(key, ROOT)
            if not (then / name).is_file()
            or (then / name).read_bytes() != (ROOT / name).read_bytes()
        ]
        changed = ", ".join(changed) or "a file was removed"
        return f"out/{key}.txt: its sources changed since {commit}: {changed}"
    now_file.write_text(f"# sources: {new_hash}\n" + saved[match.end() :], encoding="utf-8")
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--at", required=True, help="the commit whose saved outputs were current")
    parser.add_argument("keys", nargs="+", help="outputs, as in SOURCES (tests/mutants, ...)")
    options = parser.parse_args(argv)
    unknown = [key for key in options.keys if key not in producers.SOURCES]
    if unknown:
        print(f"restamp: not hash-checked outputs: {', '.join(unknown)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="restamp-") as folder:
        then = Path(folder)
        checkout(options.at, then)
        old = module_at(then)
        problems = [p for p in (restamp(k, options.at, then, old) for k in options.keys) if p]
    for problem in problems:
        print(f"restamp: refused: {problem}", file=sys.stderr)
    if not problems:
        print(f"restamp: {', '.join(options.keys)}: carried over from {options.at}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
