"""Records what a run of the book's build uses (book/used.py puts this folder on PYTHONPATH).

Python imports `sitecustomize` at start-up, so every process of a recorded run, children
included, loads this file; it does nothing unless BOOK_USED names a file. An audit hook then
appends to it each file under BOOK_USED_ROOT the process opens for reading and each folder it
scans (one line per new path, written at once: a forked child leaves with os._exit). A program
that measures time (BOOK_USED_MODE=modules: the hook would run on every ctypes call) gets no
hook; the modules it imported are written at its exit instead.
"""

import os
import sys


def _relative(path, root):
    """The path relative to root, with a cached module mapped to its source; None outside."""
    if isinstance(path, int):
        return None
    full = os.path.abspath(os.fsdecode(path))
    if not full.startswith(root):
        return None
    parts = full[len(root) :].split(os.sep)
    if parts[0] in (".git", "build", "site") or parts[-1].endswith(".part"):
        return None
    if parts[:2] == ["book", "record"]:  # the recorder itself
        return None
    if len(parts) > 1 and parts[-2] == "__pycache__":  # uopc/__pycache__/x.cpython-311.pyc
        parts = [*parts[:-2], parts[-1].split(".")[0] + ".py"]
    return "/".join(parts)


def _reads(mode, flags) -> bool:
    if isinstance(mode, str):
        return not any(letter in mode for letter in "wax+")
    return isinstance(flags, int) and flags & os.O_ACCMODE == os.O_RDONLY


def _install(record: str, root: str) -> None:
    root = os.path.abspath(root) + os.sep
    seen, state = set(), {"busy": False, "fd": None}

    def note(entry: str) -> None:
        if entry in seen:
            return
        seen.add(entry)
        state["busy"] = True  # our own open and write raise events too
        try:
            if state["fd"] is None:
                state["fd"] = os.open(record, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.write(state["fd"], (entry + "\n").encode())
        finally:
            state["busy"] = False

    def hook(event, args):
        if state["busy"] or event not in ("open", "os.scandir"):
            return
        try:
            if event == "open" and not _reads(args[1], args[2]):
                return
            relative = _relative(args[0], root)
            if relative:
                note(relative + ("/" if event == "os.scandir" else ""))
        except Exception:  # never let the record break the program it watches
            pass

    sys.addaudithook(hook)


def _at_exit(record: str, root: str) -> None:
    root = os.path.abspath(root) + os.sep
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else None

    def write() -> None:
        files = [getattr(module, "__file__", None) for module in list(sys.modules.values())]
        files.append(script)  # __main__ has lost its __file__ by the time atexit runs
        names = {_relative(file, root) for file in files if file}
        lines = "".join(f"{name}\n" for name in sorted(filter(None, names)))
        with open(record, "a", encoding="utf-8") as file:
            file.write(lines)

    import atexit

    atexit.register(write)


if os.environ.get("BOOK_USED") and os.environ.get("BOOK_USED_ROOT"):
    if os.environ.get("BOOK_USED_MODE") == "modules":
        _at_exit(os.environ["BOOK_USED"], os.environ["BOOK_USED_ROOT"])
    else:
        _install(os.environ["BOOK_USED"], os.environ["BOOK_USED_ROOT"])
