"""What each program of the book actually used, recorded when it runs: exact dependencies.

save_output.py runs every program with `recording(...)`: book/record/ last on PYTHONPATH (its
sitecustomize.py notes, in every Python process of the run, the repository files read and the
folders globbed) and BOOK_USED naming the file they append to; `save` then files the record in
out/used.json, {"demos/order": {"files": [...], "hash": "...", "seconds": 9.6}, ...}, where
`hash` is producers.files_hash of the files when the run ended. Not recorded: a folder merely
listed (the import system lists every folder on the path; a new module there matters only once
something imports it).
"""

import fcntl
import json
import os
from pathlib import Path

from book.files import write_atomic
from book.producers import RUN_RECORDS, files_hash, source_files

used_hash = files_hash  # the hash a record carries
RECORD_DIR = Path(__file__).resolve().parent / "record"  # holds sitecustomize.py
USED = "used.json"  # in the out/ folder of the run (out/, or build/quick/out/)
RECORD_ENV, ROOT_ENV, MODE_ENV = "BOOK_USED", "BOOK_USED_ROOT", "BOOK_USED_MODE"
# Read by a program but never a reason to run it again: the records of a run (the matrix reads
# its last hints, which every run rewrites).
NOT_SOURCES = frozenset(f"out/{name}" for name in RUN_RECORDS)


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


def read_record(record: Path, root: Path) -> list[str]:
    """The sorted entries of a record file that still exist under root (a file the program
    wrote and removed again is no source), less the run records (NOT_SOURCES). A folder counts
    only if it was scanned ("DIR/"): one merely opened, as pytest opens its root, is no source."""
    if not record.exists():
        return []
    entries = set(record.read_text(encoding="utf-8").split()) - NOT_SOURCES
    return sorted(
        e for e in entries if (root / e).is_dir() == e.endswith("/") and (root / e).exists()
    )


def load(out: Path) -> dict:
    path = out / USED
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def current(name: str, out: Path, root: Path, declared: tuple | None = None) -> tuple[str, list]:
    """(hash, files) of what the program `name` depends on now: the files its last run used
    (its record in out/used.json), or with no record yet the sources its row declares (or
    `declared`)."""
    record = load(out).get(name)
    files = record["files"] if record else source_files(name, root, declared)
    return used_hash(files, root), files


def save(out: Path, name: str, entries: list[str], digest: str, seconds: float) -> None:
    """File one program's record in out/used.json (the others' entries kept). Two programs
    that the build runs at once each read the file, add their record and write it: a lock on
    the folder makes them take turns, or the second to write would drop the first's record."""
    folder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        records = load(out)
        records[name] = {"files": entries, "hash": digest, "seconds": round(seconds, 1)}
        write_atomic(out / USED, json.dumps(dict(sorted(records.items())), indent=1) + "\n")
    finally:
        os.close(folder)  # and the lock with it
