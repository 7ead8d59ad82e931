"""Each checkout runs its own code: the `uopc` and the `book` a program imports are its tree's.

Two checkouts on one machine share one editable install, which points at whichever ran
`pip install -e` last; a program of the other checkout started as a script would import that
checkout's compiler without a word, and its outputs would describe code that is not beside
them. So the build, the tests and the demos call `require_own_uopc(ROOT)` first (ROOT from the
program's own `__file__`, never book's): it finds where `uopc` would come from, without
importing it, and stops in one line naming both folders and the fix, PYTHONPATH=TREE. The one
other accepted `uopc` is a copy tested on purpose, named in UOPC_TESTED_COPY (verify/mutants.py).
"""

import importlib.util
import os
import sys
from pathlib import Path

TESTED_COPY = "UOPC_TESTED_COPY"  # the environment variable naming a copy tested on purpose


def uopc_folder() -> Path | None:
    """The folder `import uopc` would load, or None when there is none (nothing imported)."""
    module = sys.modules.get("uopc")
    if module is not None and getattr(module, "__file__", None):
        return Path(module.__file__).resolve().parent
    spec = importlib.util.find_spec("uopc")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).resolve().parent


def problem(root: Path, found: Path | None, tested_copy: str = "") -> str | None:
    """Why `found` is not the uopc a program of `root` may run (one line), or None."""
    own = Path(root).resolve() / "uopc"
    allowed = [own] + ([Path(tested_copy).resolve()] if tested_copy else [])
    if found is not None and found in allowed:
        return None
    where = f"from {found}" if found is not None else "from nowhere (it is not on the path)"
    return (
        f"uopc would be imported {where}, not from this checkout's {own}: "
        f"run with PYTHONPATH={own.parent} (or make this checkout the installed one: "
        f"pip install -e {own.parent})"
    )


def book_problem(root: Path) -> str | None:
    """Why the `book` this process imported is not root's own (one line), or None."""
    found = Path(__file__).resolve().parent
    own = Path(root).resolve() / "book"
    if found == own:
        return None
    return (
        f"book is imported from {found}, not from this checkout's {own}: "
        f"run with PYTHONPATH={own.parent}"
    )


def require_own_uopc(root: Path) -> None:
    """Stop the program (status 1, one line on stderr) unless it imports root/uopc (or the
    copy under test) and root/book."""
    said = problem(root, uopc_folder(), os.environ.get(TESTED_COPY, "")) or book_problem(root)
    if said:
        sys.exit(f"{Path(sys.argv[0]).name or 'python'}: {said}")
