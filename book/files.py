"""Where the book's files are, and how the build writes and reads them: ROOT, the folders that
may carry listing regions, the pages' includes, the allow-list of unused outputs, and how a
generator writes a folder so that an interrupted run leaves no cut file (`write_atomic`,
`remove_leftovers`, `stop_on_sigterm`)."""

import contextlib
import fnmatch
import json
import os
import re
import signal
import tempfile
from pathlib import Path

from book.protocol import NUMBERS_STAMP, output_stamp

ROOT = Path(__file__).resolve().parents[1]


# The folders whose files may carry listing regions (start and end marker comments).
REGION_DIRS = ("uopc", "book", "verify", "tests", "demos", "code", "scripts")
# The allow-list of outputs and excerpts that no page includes, each with a reason.
UNUSED_LIST = ROOT / "scripts" / "unused_outputs.txt"


def stamp_problem(numbers_file: Path) -> str | None:
    """Why a numbers file out/KIND/STEM.numbers.json does not belong to out/KIND/STEM.txt, or
    None when it does (or carries no stamp)."""
    stamp = json.loads(numbers_file.read_text(encoding="utf-8")).get(NUMBERS_STAMP)
    whole = numbers_file.with_name(numbers_file.name.removesuffix(".numbers.json") + ".txt")
    if stamp is None:
        return None
    if not whole.is_file():
        return f"its output {whole.name} is gone"
    if output_stamp(whole.read_bytes()) != stamp:
        return f"it comes from another run than {whole.name} (rerun the program)"
    return None


def write_atomic(path: Path, text: str) -> None:
    """Write text to path through a temporary file in the same folder and a rename, so that an
    interrupted or failed run leaves the old file or the whole new one, and no temporary file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


LEFTOVER = re.compile(r"\..+\..+\.part")  # write_atomic's temporary names


def remove_leftovers(folder: Path) -> None:
    """Remove the temporary files that a killed run (SIGKILL) of write_atomic left in folder."""
    for path in sorted(folder.rglob(".*.part")) if folder.is_dir() else []:
        if LEFTOVER.fullmatch(path.name) and path.is_file():
            path.unlink()


def stop_on_sigterm() -> None:
    """SIGTERM stops the run as SIGINT does: the exception unwinds through write_atomic, which
    removes its temporary file, and the exit status says which signal it was."""

    def stop(number, frame):
        raise SystemExit(128 + number)

    signal.signal(signal.SIGTERM, stop)


# ---------------------------------------------------------------------------------------------
# Pages and their includes
# ---------------------------------------------------------------------------------------------

INCLUDE = re.compile(r"--8<--")
INCLUDE_LINE = re.compile(r'(\s*)--8<-- "([^"]+)"\s*')  # the whole line
FENCE = re.compile(r"(\s*)(`{3,}|~{3,})(.*)")


def split_include(target: str) -> tuple[str, str | None]:
    """("path", "section" or None) of a snippet target; a line range keeps its ':' part."""
    path, colon, rest = target.partition(":")
    return path, (rest if colon else None)


def read_unused(path: Path = UNUSED_LIST) -> list[tuple[str, str]]:
    """(glob, reason) pairs of the allow-list; a line without a reason is an error."""
    entries = []
    if not path.exists():
        return entries
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        if len(parts) != 2 or not parts[1].strip():
            raise SystemExit(f"{path}:{number}: an entry needs a path, two spaces and a reason")
        entries.append((parts[0], parts[1]))
    return entries


def allowed_unused(relative: str, entries: list[tuple[str, str]]) -> str | None:
    """The reason a path may go unused, or None."""
    for pattern, reason in entries:
        if fnmatch.fnmatchcase(relative, pattern) or (
            pattern.endswith("/**") and relative.startswith(pattern[:-2])
        ):
            return reason
    return None
