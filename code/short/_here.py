"""Importing this module puts the repository root and tests/ on sys.path.

The short programs run from inside code/short/, so `uopc` (at the root) and `common` (in
tests/) are found from this file's own location, wherever the repository was cloned.
"""

import sys
from pathlib import Path

_root = Path(__file__).resolve().parents[2]
for _folder in (str(_root / "tests"), str(_root)):
    if _folder not in sys.path:
        sys.path.insert(0, _folder)
