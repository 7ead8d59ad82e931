"""Importing this module puts the repository root and tests/ on sys.path.

The short programs run from inside code/short/, so `uopc` (at the root) and `common` (in
tests/) are found from this file's own location, wherever the repository was cloned.

`state(key, value, meaning)` files a number the step's page quotes: the book's build collects
it (see tests/counting.py); a program run by hand prints nothing more because of it.
"""

import sys
from pathlib import Path

_root = Path(__file__).resolve().parents[2]
for _folder in (str(_root / "tests"), str(_root)):
    if _folder not in sys.path:
        sys.path.insert(0, _folder)

from counting import state  # noqa: E402, F401  (found through the path set above)
