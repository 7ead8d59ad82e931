"""How an answer is checked and printed, and the table of answers the runner walks.

`check` counts one claim and stops the run, naming the exercise, when it does not hold; `out`
prints one answer line and `out_machine` one that depends on the machine (it ends in
`(this machine)`); `exercise` registers an answer function under its section and label. The
chapter files (ch01.py ... ch16.py) and try_it.py register their answers here when imported;
solutions.py runs them in the book's order. `Skip` is raised by an answer that needs something
absent (tinygrad, a saved output of another program).
"""

import collections
from pathlib import Path

from book.own_tree import require_own_uopc
from book.protocol import MACHINE_MARK as MACHINE  # ends a line that depends on the machine

REPO = Path(__file__).resolve().parents[2]
require_own_uopc(REPO)  # this tree's uopc, or one line saying how to get it


class ExerciseFailure(AssertionError):
    """A check failed: the message names the exercise and what was wrong."""


class Skip(Exception):
    """An answer needs something this machine or this checkout does not have."""


STATE = {"label": "", "checks": 0}
PER_SECTION: collections.Counter = collections.Counter()
SKIPPED: list[str] = []


def check(condition, what: str) -> None:
    """Count one check; stop the run, naming the exercise, when it does not hold."""
    if not condition:
        raise ExerciseFailure(f"{STATE['label']}: {what}")
    STATE["checks"] += 1
    PER_SECTION[STATE["section"]] += 1


def out(text="") -> None:
    """One answer line, indented under the exercise's label."""
    print(f"    {text}")


def out_machine(text) -> None:
    """One answer line that depends on the machine, a tool's version or the clock."""
    print(f"    {text}  {MACHINE}")


EXERCISES: dict[str, list] = collections.defaultdict(list)  # section -> [(label, title, fn)]


def exercise(section: str, label: str, title: str):
    """Register an answer function under its section (`try-it`, `ch01`, ...) and label."""

    def register(fn):
        EXERCISES[section].append((label, title, fn))
        return fn

    return register
