"""What every demo shares: the path set-up, the block marker, printed claims and the exit status.

    from _common import MACHINE, block, claim, finish, param

Importing this module first makes `uopc` importable from a plain clone (without the editable
install; a copy already on the path, such as the one under test, wins) and puts `tests/` on the
path for `common`, the generators and node helpers the tests use too. The demos run as scripts
from any folder: Python puts `demos/` itself on the path, so this file is found beside them.

- `block(name)` prints the marker `@@ block NAME` at which the book build cuts the output into
  quoted blocks (and drops the marker).
- `claim(holds, what)` records a claim the demo prints; `finish()`, the last call of every
  `main`, makes the run fail (exit status 1, the false claims on stderr) if any was false, after
  everything has been printed.
- `param(slot, dtype, vmin, vmax)` is tests/common.py's, the one helper for a PARAM node.
- `state(key, value, meaning)` is tests/counting.py's: it files a number the book quotes.
- `MACHINE` ends every printed line that depends on the machine, a tool's version or the clock.
"""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if importlib.util.find_spec("uopc") is None:  # a plain clone without the editable install
    sys.path.append(str(ROOT))
if str(ROOT / "tests") not in sys.path:  # tests/common.py, the shared generators and helpers
    sys.path.append(str(ROOT / "tests"))

from own_tree import require_own_uopc  # noqa: E402  (tests/own_tree.py)

require_own_uopc(ROOT)  # this tree's uopc, or one line saying how to get it

from common import param  # noqa: E402  (found through the path set above)
from counting import state  # noqa: E402  (the numbers the book quotes, see tests/counting.py)

__all__ = ["MACHINE", "ROOT", "block", "claim", "finish", "param", "state"]

MACHINE = "(this machine)"
FAILED: list[str] = []


def block(name: str) -> None:
    """Start a quoted block: the book build cuts the output at these lines and drops them."""
    print(f"@@ block {name}")


def claim(holds: bool, what: str) -> bool:
    """Record a printed claim; a false one fails the run at the end."""
    if not holds:
        FAILED.append(what)
    return holds


def finish() -> int:
    """The exit status of a demo: 1, with the false claims on stderr, if any claim was false."""
    sys.stdout.flush()
    if FAILED:
        print("failed claims: " + "; ".join(FAILED), file=sys.stderr)
        return 1
    return 0
