"""What each program of the book actually used, recorded when it runs: exact dependencies.

scripts/save_output.py runs every program with `recording(env, record, root)`: the folder
book/record/ last on PYTHONPATH (its sitecustomize.py installs an audit hook in every Python
process of the run, children included) and BOOK_USED naming a file where each process appends
the repository files it read and the folders it scanned. After the run, `save` files the
record in out/used.json (beside the outputs, one entry per program):

    {"demos/order": {"files": ["verify/generators.py", ..., "uopc/uop.py"], "hash": "...",
                     "seconds": 9.6}, ...}

`hash` is `used_hash` of those files when the run ended; the build reruns a program when the
hash of its recorded files differs (a program with no record yet falls back to the sources
its row declares, book/producers.py). A folder it scanned (a glob) is recorded with a
trailing "/" and hashed by the names in it, so a new test file reruns the harness that globs
for test files. Not recorded: a folder listed with os.listdir (the import system lists every
folder on the path; a new module there matters only once something imports it).
"""

import hashlib
import json
import os
from pathlib import Path

from book.files import write_atomic
from book.producers import MANIFEST, RUN_RECORDS, hashed_text
from book.protocol import HASH_LENGTH

RECORD_DIR = Path(__file__).resolve().parent / "record"  # holds sitecustomize.py
USED = "used.json"  # in the out/ folder of the run (out/, or build/quick/out/)
RECORD_ENV, ROOT_ENV, MODE_ENV = "BOOK_USED", "BOOK_USED_ROOT", "BOOK_USED_MODE"


def recording(env: dict, record: Path, root: Path, modules_only: bool = False) -> dict:
    """env for a recorded run: the recorder last on PYTHONPATH (after a tested copy and the
    checkout, so it shadows nothing), and where to write. modules_only: no audit hook (a
    program that measures time), only the modules imported, written at exit."""
    path = [part for part in env.get("PYTHONPATH", "").split(os.pathsep) if part]
    return {
        **env,
        "PYTHONPATH": os.pathsep.join([*path, str(RECORD_DIR)]),
        RECORD_ENV: str(record),
        ROOT_ENV: str(root),
        MODE_ENV: "modules" if modules_only else "all",
    }


def keep_recording(path_entries: list[str]) -> list[str]:
    """A PYTHONPATH a program builds for its own children (verify/mutants.py), with the recorder
    added last while a run is recorded, so that the children are recorded too."""
    if os.environ.get(RECORD_ENV):
        return [*path_entries, str(RECORD_DIR)]
    return path_entries


# Read by a program but never a reason to run it again: the records of a run (the matrix reads
# its last hints, which every run rewrites) and the build's own manifest and records.
NOT_SOURCES = frozenset(f"out/{name}" for name in (*RUN_RECORDS, MANIFEST))


def read_record(record: Path, root: Path) -> list[str]:
    """The sorted entries of a record file that still exist under root (a file the program
    wrote and removed again is no source), less the run records (NOT_SOURCES)."""
    if not record.exists():
        return []
    entries = set(record.read_text(encoding="utf-8").split()) - NOT_SOURCES
    return sorted(entry for entry in entries if still_there(root / entry, entry.endswith("/")))


def still_there(path: Path, scanned: bool) -> bool:
    """A file that exists, or a folder that was scanned (a folder merely opened, as pytest
    opens its root, is no source)."""
    return path.is_dir() if scanned else path.is_file()


def kept_name(name: str) -> bool:
    """A name a folder's hash counts: not a cache or a tool's hidden folder (__pycache__,
    .pytest_cache, .benchmarks), which come and go with runs and differ between checkouts."""
    return not name.startswith(".") and name != "__pycache__"


def used_hash(entries: list[str], root: Path) -> str:
    """The first HASH_LENGTH hex digits of the SHA-256 over each entry's name and what the
    program can depend on: a file's tokens or bytes (book.producers.hashed_text), a folder's
    names. A missing entry is hashed as absent."""
    digest = hashlib.sha256()
    for entry in entries:
        path = root / entry
        digest.update(entry.encode() + b"\0")
        if entry.endswith("/"):
            names = ["<absent>"]
            if path.is_dir():
                names = sorted(p.name for p in path.iterdir() if kept_name(p.name))
            digest.update("\n".join(names).encode() + b"\0")
        else:
            digest.update((hashed_text(path) if path.is_file() else b"<absent>") + b"\0")
    return digest.hexdigest()[:HASH_LENGTH]


def load(out: Path) -> dict:
    path = out / USED
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def save(out: Path, name: str, entries: list[str], digest: str, seconds: float) -> None:
    """File one program's record in out/used.json (the others' entries kept)."""
    records = load(out)
    records[name] = {"files": entries, "hash": digest, "seconds": round(seconds, 1)}
    write_atomic(out / USED, json.dumps(dict(sorted(records.items())), indent=1) + "\n")
