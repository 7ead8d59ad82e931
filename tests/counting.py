"""Sizes and check counts shared by every test layer.

A layer asks `size(quick, full)` for its size and calls `report(group, layer, n)` once with
the number of checks it made. `report` prints the machine-readable line
`COUNT <group> <layer> <n>` and, when `UOPC_COUNTS` names a file, appends the same line
there, because pytest captures standard output; `scripts/summary.py` adds up those lines,
so no count is ever typed by hand.

A figure the chapters quote that is not a check count (programs changed, the largest ulp gap,
the first fast-math counterexample) goes the same way through `figure(key, value)`: the line
`FIGURE <key> <value as JSON>`, in the same file, which scripts/summary.py reads.

A number the book quotes is stated where it is computed, with `state(key, value, meaning)`:
the line `@@ number KEY = VALUE  # MEANING`. In a test run it goes to the same file as the
counts; in a program run by the book's build (which sets BOOK_NUMBERS=1) it is printed, and
scripts/save_output.py files it beside the output and strips it from what the page shows. A
program run by hand prints nothing extra. Every program of the book (code/short, demos, the
exercises) finds this module, since each puts tests/ on its path.
"""

import json
import math
import os

GROUPS = ("semantics-numpy", "semantics-c", "unit", "pipeline", "memory", "reliability")


def full() -> bool:
    """True under `pytest --full` or `UOPC_FULL=1`: the book's sizes."""
    return os.environ.get("UOPC_FULL") == "1"


def size(quick, full_size):
    return full_size if full() else quick


def report(group: str, layer: str, checks: int) -> str:
    """Print and record one count line; a layer with no checks is a broken layer."""
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}; expected one of {GROUPS}")
    if checks <= 0:
        raise AssertionError(f"layer {layer} made no checks")
    return _record(f"COUNT {group} {layer} {checks}")


def figure(key: str, value) -> str:
    """Print and record one figure (a number, a string or a list of strings) under key."""
    if not key.replace("_", "").isalnum() or not key.islower():
        raise ValueError(f"figure key {key!r} is not snake_case")
    return _record(f"FIGURE {key} {json.dumps(value, ensure_ascii=False)}")


def state(key: str, value, meaning: str) -> str:
    """State a number the book quotes: key (snake_case), value (int, float or str) and one
    line saying what it is (what it counts, and out of what)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise TypeError(f"number {key}: {value!r} is not an int, a float or a str")
    if not key.replace("_", "").isalnum() or not key.islower() or not key[0].isalpha():
        raise ValueError(f"number key {key!r} is not snake_case")
    if not meaning.strip() or "\n" in meaning:
        raise ValueError(f"number {key}: its meaning must be one line of words")
    line = f"@@ number {key} = {json.dumps(value, ensure_ascii=False)}  # {meaning.strip()}"
    if os.environ.get("UOPC_COUNTS"):
        return _record(line)
    if os.environ.get("BOOK_NUMBERS") == "1":
        print(line, flush=True)
    return line


def _record(line: str) -> str:
    if "\n" in line:
        raise ValueError(f"a count or figure line holds a line break: {line!r}")
    print(line)
    path = os.environ.get("UOPC_COUNTS")
    if path:
        # one short write in append mode: lines from parallel workers never interleave
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
    return line


def significant(value: float, digits: int) -> str:
    """value to `digits` significant digits, with thousands separators: 3821.7, 3 -> '3,820'."""
    if value == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, places)
    places = digits - 1 - math.floor(math.log10(abs(rounded)))  # 9.996 rounds up to 10
    return f"{rounded:,.0f}" if places <= 0 else f"{rounded:,.{places}f}"


def about(value: float) -> str:
    """Two significant digits, for a sentence that says "about": 3821.7 -> '3,800'."""
    return significant(value, 2)
