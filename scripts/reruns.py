"""Which programs of the book run again after a change to one file, and how long they take.

    python scripts/reruns.py [OUT]

For each case of CASES, the programs whose record in OUT/used.json (book/used.py) names the
file, or with no record yet whose declared sources do, with the sum of their last run times;
appendix C quotes it. Left out: what runs every time (figures, listings, numbers, the summary)
and the book's PDF, a print of the site whose appendix C shows this table (with its time in the
sums, each print would make the other stale).
"""

import sys
from pathlib import Path

from book import used
from book.files import ROOT
from book.producers import PRODUCERS, source_files
from book.protocol import MACHINE_MARK, block, state

# (key, the file changed, what the change is)
CASES = (
    ("render", "uopc/render.py", "one function of uopc/render.py"),
    ("runtime", "uopc/runtime.py", "one function of uopc/runtime.py"),
    ("symbolic", "uopc/symbolic.py", "one function of uopc/symbolic.py"),
    ("textfmt", "uopc/textfmt.py", "one function of uopc/textfmt.py"),
    ("page", "docs/part3/08-engine.md", "chapter 8's page only"),
)


def reruns(changed: str, records: dict) -> tuple[list[str], list[str], float]:
    """(rows rerun by their record, rows rerun by their declared sources, the seconds their
    records say they last took)."""
    exact, declared, seconds = [], [], 0.0
    for name, row in PRODUCERS.items():
        record = records.get(name)
        files = record["files"] if record else source_files(name)
        if row.always or row.from_site or changed not in files:
            continue
        (exact if record else declared).append(name)
        seconds += record["seconds"] if record else 0.0
    return exact, declared, seconds


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "out"
    records = used.load(out)
    rows = [name for name, row in PRODUCERS.items() if not (row.always or row.from_site)]
    block("reruns")
    print(f"after a change to ...  programs run again, their last run times  {MACHINE_MARK}")
    for key, changed, what in CASES:
        exact, declared, seconds = reruns(changed, records)
        count = len(exact) + len(declared)
        print(f"{what}: {count} of {len(rows)} programs, {seconds:.0f} s")
        names = [*exact, *(f"{name} (declared sources: no record yet)" for name in declared)]
        for name in names:
            print(f"    {name}")
        mark = f"after a change to {what} {MACHINE_MARK}"
        state(f"reruns_{key}", count, f"programs ./run_all.sh runs again {mark}")
        state(f"reruns_{key}_s", round(seconds), f"seconds those programs last took {mark}")
    untimed = [name for name in rows if name not in records]
    print(f"programs with no record yet (judged by their declared sources): {len(untimed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
