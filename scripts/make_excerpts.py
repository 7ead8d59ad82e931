"""Cut every named region of the sources into excerpts/, the listings the pages include.

    python scripts/make_excerpts.py [--check] [--root DIR] [--out DIR]

docs/CONTRIBUTING.md ("Listings") says how a region is marked and cut. Errors: a start without
its end or the reverse, a name started twice in one file, an empty region, a marker comment
that does not parse. Without --check, excerpts/ is made to match the regions exactly, each file
written whole (book/files.write_atomic) and the files of gone regions removed only after every
new one is in place, so an interrupted run leaves each excerpt old or new, never cut. With
--check nothing is written, and a stale, missing or orphan excerpt, or the temporary file of a
killed run, fails too (that a page includes each excerpt, tests/test_docs_lint.py checks).
"""

import argparse
import re
import sys
import textwrap
from pathlib import Path

from book.files import LEFTOVER, REGION_DIRS, ROOT, remove_leftovers, stop_on_sigterm, write_atomic

MARKER = re.compile(r"\s*(?:#|//)\s*--8<-- \[(start|end):([a-z][-_0-9a-z]*)\]\s*")
MARKER_LIKE = re.compile(r"\s*(?:#|//)\s*-+8<-+")  # a comment that means to be a marker
SUFFIXES = (".py", ".c", ".h", ".sh")
LONG_REGION = 60  # lines; style.md: a listing fits on one screen


def source_files(root: Path) -> list[Path]:
    files = []
    for folder in REGION_DIRS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                files.append(path)
    return files


def regions(path: Path, problems: list[str]) -> dict[str, str]:
    """{name: excerpt text} of one file; every problem found is appended to problems."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    open_at: dict[str, int] = {}
    done: dict[str, tuple[int, int]] = {}
    markers = set()
    for number, line in enumerate(lines):
        match = MARKER.fullmatch(line.rstrip("\n"))
        if not match:
            if MARKER_LIKE.match(line):
                problems.append(f"{path}:{number + 1}: malformed marker: {line.strip()}")
            continue
        markers.add(number)
        kind, name = match.groups()
        where = f"{path}:{number + 1}"
        if kind == "start":
            if name in open_at or name in done:
                problems.append(f"{where}: region {name!r} starts a second time")
            else:
                open_at[name] = number
        elif name not in open_at:
            problems.append(f"{where}: region {name!r} ends without a start")
        else:
            done[name] = (open_at.pop(name), number)
    for name, number in open_at.items():
        problems.append(f"{path}:{number + 1}: region {name!r} has no end")
    cut = {}
    for name, (start, end) in done.items():
        body = [lines[i] for i in range(start + 1, end) if i not in markers]
        text = textwrap.dedent("".join(body))
        if not text.strip():
            problems.append(f"{path}:{start + 1}: region {name!r} is empty")
            continue
        if len(body) > LONG_REGION:
            print(f"make_excerpts: note: {path}: region {name!r} has {len(body)} lines")
        cut[name] = text if text.endswith("\n") else text + "\n"
    return cut


def all_excerpts(root: Path, problems: list[str]) -> dict[Path, str]:
    """{path under excerpts/: text}: region toposort of uopc/uop.py is uopc/uop/toposort.py."""
    excerpts = {}
    for source in source_files(root):
        for name, text in regions(source, problems).items():
            excerpts[source.relative_to(root).with_suffix("") / f"{name}{source.suffix}"] = text
    return excerpts


def on_disk(out: Path) -> set[Path]:
    """The excerpts under out (relative), less the temporary files of a killed run."""
    files = (path for path in out.rglob("*") if path.is_file())
    return {path.relative_to(out) for path in files if not LEFTOVER.fullmatch(path.name)}


def write(out: Path, excerpts: dict[Path, str]) -> None:
    """Make out/ hold exactly the excerpts: the new and changed files first, each whole (written
    to a temporary name and renamed), then the removals, so that no moment of the run has a
    region's excerpt missing or cut."""
    remove_leftovers(out)
    for relative, text in sorted(excerpts.items()):
        target = out / relative
        if not target.is_file() or target.read_bytes() != text.encode("utf-8"):
            write_atomic(target, text)
    for relative in sorted(on_disk(out) - set(excerpts)):
        (out / relative).unlink()
    for folder in sorted((p for p in out.rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()


def check(out: Path, excerpts: dict[Path, str], problems: list[str]) -> None:
    present = on_disk(out)
    for path in sorted(out.rglob(".*.part")):
        if LEFTOVER.fullmatch(path.name):
            problems.append(
                f"excerpts/{path.relative_to(out)}: a temporary file of an interrupted run "
                "(run scripts/make_excerpts.py)"
            )
    for relative in sorted(present - set(excerpts)):
        problems.append(f"excerpts/{relative}: no region makes it (stale: run make_excerpts.py)")
    for relative, text in sorted(excerpts.items()):
        target = out / relative
        if relative not in present:
            problems.append(f"excerpts/{relative}: missing (run scripts/make_excerpts.py)")
        elif target.read_text(encoding="utf-8") != text:
            problems.append(f"excerpts/{relative}: stale, differs from its region")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when stale")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository")
    parser.add_argument("--out", type=Path, help="where the excerpts go (default ROOT/excerpts)")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    root = args.root.resolve()
    out = args.out or root / "excerpts"
    problems: list[str] = []
    excerpts = all_excerpts(root, problems)
    if args.check:
        check(out, excerpts, problems)
    elif not problems:
        write(out, excerpts)
    for problem in problems:
        print(f"make_excerpts: {problem}", file=sys.stderr)
    if problems:
        return 1
    verb = "checked" if args.check else "wrote"
    print(f"make_excerpts: {verb} {len(excerpts)} excerpts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
