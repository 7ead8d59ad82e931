"""Importing this module puts tests/ and, if needed, the repository root on sys.path.

The answers run as `python code/exercises/solutions.py` from anywhere, so `common` and
`counting` (in tests/) and `uopc` (at the root) are found from this file's own location.
Both are appended, not put first: a copy of `uopc` placed first on the path (by a caller that
tests a changed compiler, and names it in UOPC_TESTED_COPY) still wins over the working
tree's. Any other `uopc` than this tree's stops the answers in one line (tests/own_tree.py).
"""

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "tests") not in sys.path:
    sys.path.append(str(REPO / "tests"))  # for `common` and `counting`
if importlib.util.find_spec("uopc") is None:
    sys.path.append(str(REPO))

from own_tree import require_own_uopc  # noqa: E402  (tests/own_tree.py)

require_own_uopc(REPO)  # this tree's uopc, or one line saying how to get it
