"""What every demo shares: the path set-up, the block marker, printed claims and the exit status.

    from _common import MACHINE, block, claim, finish, param

Importing this module first stops the demo in one line when the `uopc` it would import is not
its own tree's (book/own_tree.py). `uopc` and `book` come from the editable install or from
PYTHONPATH (./run_all.sh sets it to the checkout). The demos run as scripts from any folder:
Python puts `demos/` itself on the path, so this file is found beside them.

- `block(name)` (book/protocol.py) prints the marker at which the book build cuts the output
  into quoted blocks (and drops the marker).
- `claim(holds, what)` records a claim the demo prints; `finish()`, the last call of every
  `main`, makes the run fail (exit status 1, the false claims on stderr) if any was false, after
  everything has been printed.
- `param(slot, dtype, vmin, vmax)` is verify/generators.py's, the one helper for a PARAM node.
- `state(key, value, meaning)` is book/protocol.py's: it files a number the book quotes.
- `MACHINE` ends every printed line that depends on the machine, a tool's version or the clock.
"""

import sys
from pathlib import Path

from book.own_tree import require_own_uopc

ROOT = Path(__file__).resolve().parents[1]
require_own_uopc(ROOT)  # this tree's uopc, or one line saying how to get it

from book.protocol import MACHINE_MARK as MACHINE  # noqa: E402
from book.protocol import block, state  # noqa: E402
from verify.generators import param  # noqa: E402  (after the check: it imports uopc)

__all__ = ["MACHINE", "ROOT", "block", "claim", "finish", "param", "state"]

FAILED: list[str] = []


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
