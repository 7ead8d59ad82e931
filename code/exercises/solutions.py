"""Answers to every exercise of the book, each worked out by running code, then checked.

    python code/exercises/solutions.py [--strict] [SECTION ...]

This file is the runner: the answers live one file per chapter beside it (ch01.py ... ch16.py,
and try_it.py for the short path's "Try it" questions), each registering its answer functions
with `answers.exercise`; the helpers several chapters use are in shared.py. The runner imports
them all and runs them in the book's order. Every claim about an answer goes through
`answers.check`, which counts it; the last line says how many checks ran. The first failed check
stops the program with the exercise's label and what was wrong (exit 1).

Output: a title, then a section for the short path's "Try it" answers (programs.md §3.14),
then one section per chapter. Marker lines `@@ block NAME` cut the output into blocks for the
book (the build strips them): `try-sN` (the answer to step N's Try it), `chNN` (the
chapter's header line), `ex-N-M` (one exercise's answer, for Appendix A's anchors; 12.4, 13.3
and 13.5 are the ones it embeds) and `total` (the check counts). A line that depends on the
machine, a tool's version, the clock or another program's saved output ends in `(this machine)`;
every other line is the same on every run. An answer that needs something not present
(tinygrad, a saved output of another program) prints `skipped:` with the reason; `--strict`
turns any skip into a failure. SECTION names (`try-it`, `ch01` ... `ch16`) run those sections
only, to work on one chapter; the book's run is the whole one, which alone states the counts.

Searches are deterministic (enumeration or fixed seeds). Exercises that change the compiler
(5.5, 15.4, 15.5) use the test suite's planted-bug machinery (verify/mutants.py and
verify/mutant_matrix.py): a private copy of `uopc` with one edit, the layers run on it in a child
process. 13.4 patches a dtype's C name at run time and restores it. 13.1 and 13.2 use a fresh,
empty cache folder.
"""

import gc
import importlib
import sys
import traceback

from book.protocol import block, state

from answers import (
    EXERCISES,
    MACHINE,
    PER_SECTION,
    SKIPPED,
    STATE,
    ExerciseFailure,
    Skip,
    out_machine,
)

# Each section's answers are in the file of the same name (try-it in try_it.py), in this order.
SECTIONS = {
    "try-it": "Try it: the short path's questions",
    "ch01": "Chapter 1 · What we are building",
    "ch02": "Chapter 2 · The numbers a machine really has",
    "ch03": "Chapter 3 · What every op means",
    "ch04": "Chapter 4 · The UOp",
    "ch05": "Chapter 5 · Hash consing",
    "ch06": "Chapter 6 · Types, shapes, address spaces and ranges",
    "ch07": "Chapter 7 · Patterns and rules",
    "ch08": "Chapter 8 · The rewrite engine",
    "ch09": "Chapter 9 · Running programs by folding",
    "ch10": "Chapter 10 · Simplifying floats",
    "ch11": "Chapter 11 · Simplifying integers",
    "ch12": "Chapter 12 · Rendering C",
    "ch13": "Chapter 13 · Compiling and running",
    "ch14": "Chapter 14 · Memory",
    "ch15": "Chapter 15 · How we know it works",
    "ch16": "Chapter 16 · The same ideas in tinygrad (needs tinygrad)",
}


def load_answers() -> None:
    """Import every section's file: importing it registers its answers with `exercise`."""
    for section in SECTIONS:
        importlib.import_module(section.replace("-", "_"))


def run_one(section: str, label: str, title: str, fn) -> None:
    STATE["label"], STATE["section"] = label, section
    # Nodes left by earlier answers (a Builder and its Mems form a reference cycle) are freed
    # first, so that every answer builds fresh nodes and the "id" order is creation order.
    gc.collect()
    if section == "try-it":  # S12 -> try-s12, quoted by step 12's answer
        block(f"try-{label.lower()}")
    else:
        block(f"ex-{label.replace('.', '-')}")
    print(f"{label} {title}")
    try:
        fn()
    except Skip as reason:
        SKIPPED.append(f"{label} ({reason})")
        out_machine(f"skipped: {reason}")


def main(argv) -> int:
    strict = "--strict" in argv
    named = [arg for arg in argv if not arg.startswith("--")]
    unknown = [name for name in named if name not in SECTIONS]
    if unknown:
        print(f"unknown sections {unknown}; the sections are {', '.join(SECTIONS)}")
        return 2
    chosen = [section for section in SECTIONS if section in named or not named]
    load_answers()
    print("Answers to the exercises, each worked out by running code and checked")
    try:
        for section in chosen:
            if section != "try-it":
                block(section)
            print(SECTIONS[section])
            for label, title, fn in EXERCISES[section]:
                run_one(section, label, title, fn)
    except ExerciseFailure as failure:
        print(f"FAILED {failure}")
        return 1
    except Exception as error:
        traceback.print_exc()
        print(f"FAILED {STATE['label']}: {type(error).__name__}: {error}")
        return 1
    count = sum(len(EXERCISES[section]) for section in chosen if section != "try-it")
    block("total")
    print("checks per section: " + ", ".join(f"{s} {PER_SECTION[s]}" for s in chosen))
    if SKIPPED:
        print(f"skipped: {'; '.join(SKIPPED)}  {MACHINE}")
    print(f"{count} exercises; {STATE['checks']} checks passed")
    if not named:  # the book quotes the whole run's counts only
        state("exercises_total", count, "exercises answered by running code")
        state("exercise_checks", STATE["checks"], "checks those answers made, every one passed")
    if strict and SKIPPED:
        print("FAILED: --strict and some answers were skipped")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
