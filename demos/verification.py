"""How we know it works: why random inputs need special values beside them (Chapter 15).

    python demos/verification.py

Quoted blocks, each after a marker line `@@ block NAME` that the book build strips:
- own-negation: the float rewrite x + (-x) -> 0.0 (a planted bug: the integer rule let loose
  on floats) checked against the contract on random finite float32 values drawn as the tests
  draw their spread values, where it always holds, and on the special floats, where it fails;
- special-only: the rows of the saved planted-bug matrix (out/tests/mutant_matrix.txt) that
  the special-value layer (D) caught and the random-program layer (C) did not, with the legend.
- overlay-off: the same planted bugs against the layers A to L, M and S (not P) at quick
  sizes, with the speed overlay of appendix G (out/tests/mutant_matrix_overlay.txt) and with
  the plain code alone (out/tests/mutant_matrix_plain.txt, `mutant_matrix.py --plain`): every
  bug a layer catches with the overlay, a layer catches without it, so the overlay neither
  catches nor hides a bug in the plain code; the rest are named.
It also checks, printing nothing, that the matrix's bugs caught by one column only are the ones
chapter 15 explains (ALONE), and states what the matrix says of the contract's planted bugs and
of column P (P catches every bug; a bug that one column alone catches is P's).
Every line is the same on every run. A printed claim that turns out false makes the program
exit with a non-zero status.
"""

from _common import ROOT, block, claim, finish, param, state

import math
import random
import re
import sys

from uopc import F32
from uopc.interp import evaluate
from uopc.semantics import same
from verify.generators import FLT_MAX, SPECIAL_FLOAT, f32

MATRIX = ROOT / "out" / "tests" / "mutant_matrix.txt"
OVERLAY_MATRIX = ROOT / "out" / "tests" / "mutant_matrix_overlay.txt"  # layers A-S, quick
PLAIN_MATRIX = ROOT / "out" / "tests" / "mutant_matrix_plain.txt"  # the same, plain code
BUG = "rule x+(-x) (int): also on floats"  # the planted bug the chapter explains
SPREAD_DRAWS = 100_000


def spread_float(r: random.Random) -> float:
    """A float drawn as rand_value draws its values that are not special: moderate ones and
    ones of any exponent (verify/generators.py), never from SPECIAL_FLOAT."""
    if r.random() < 0.5:
        return f32(r.uniform(-1000.0, 1000.0))
    magnitude = f32((1.0 + r.random()) * 2.0 ** r.randint(-149, 127))
    return math.copysign(min(magnitude, FLT_MAX), r.choice((1.0, -1.0)))


def show_own_negation():
    block("own-negation")
    x = param(0, F32)
    program = x + (-x)
    r = random.Random(15)
    drawn = [spread_float(r) for _ in range(SPREAD_DRAWS)]
    wrong_random = [v for v in drawn if not same(evaluate(program, {0: v}), 0.0)]
    print(f"x + (-x) against the rewrite's 0.0, {SPREAD_DRAWS} spread float32 values of x:")
    print(f"  differ at {len(wrong_random)} of them")
    wrong_special = [v for v in SPECIAL_FLOAT if not same(evaluate(program, {0: v}), 0.0)]
    print(f"the same on the {len(SPECIAL_FLOAT)} special float32 values:")
    print(f"  differ at {len(wrong_special)} of them: " + ", ".join(map(repr, wrong_special)))
    for v in wrong_special:
        print(f"  x = {v!r}: x + (-x) = {evaluate(program, {0: v})!r}")
    claim(not wrong_random, "x + (-x) is +0.0 at every spread value")
    claim(
        {repr(v) for v in wrong_special} == {"inf", "-inf", "nan"},
        "x + (-x) differs from 0.0 exactly at the infinities and nan",
    )
    state("ver_spread_draws", SPREAD_DRAWS, "spread float32 values x + (-x) was checked at")
    state("ver_special_floats", len(SPECIAL_FLOAT), "special float32 values (SPECIAL_FLOAT)")
    state("ver_special_wrong", len(wrong_special), "of them, where x + (-x) is not 0.0")


def matrix_rows(lines: list[str]) -> tuple[str, dict]:
    """(header line, {bug name: its line}) of the saved matrix."""
    header = next(line for line in lines if line.startswith("planted bug"))
    width = header.index(" A ")
    end = lines.index(header) + 1
    rows = {}
    for line in lines[end:]:
        if not line.strip():
            break
        rows[line[:width].rstrip()] = line
    return header, rows


def catchers(header: str, line: str) -> set[str]:
    letters = header.split()[2:-1]  # after "planted bug", before "n"
    marks = line[header.index(" A ") + 1 :].split()[:-1]
    return {letter for letter, mark in zip(letters, marks, strict=True) if mark == "x"}


def show_special_only():
    block("special-only")
    lines = MATRIX.read_text(encoding="utf-8").splitlines()
    header, rows = matrix_rows(lines)
    caught = {name: catchers(header, line) for name, line in rows.items()}
    chosen = [name for name in rows if "D" in caught[name] and "C" not in caught[name]]
    print(header)
    for name in chosen:
        print(rows[name])
    legend = lines.index(next(line for line in lines if line.startswith("columns:")))
    print("\n".join(lines[legend : legend + 3]))
    claim(BUG in chosen, f"{BUG}: caught by special (D), missed by sound (C)")
    claim(all(caught.values()), "every planted bug caught by some column")
    meaning = "planted bugs the special layer (D) caught and the sound layer (C) missed"
    state("ver_special_not_sound", len(chosen), meaning)
    state("ver_matrix_bugs", len(rows), "planted bugs in the saved matrix (its rows)")
    others = sorted(caught[BUG] - {"D"})
    state("ver_bug_other_layers", ", ".join(others), f"the other columns that caught {BUG}")


# The bugs the chapter names as caught by one column only; the run fails if the saved matrix
# says otherwise, so that the page is rewritten from the new matrix.
ALONE = (
    "C: INT_MIN literal without brackets",
    "runtime: cache key ignores the flags",
    "interp: call body sees the caller's env",
    "speed: rebuild keeps dtype over new dtypes",
)
# and every bug planted in the further rules (chapter 11), which no layer but P switches on
FURTHER = "further "
SPEED = "speed: "  # the bugs planted in the speed overlay's twins (appendix G)
CONTRACT = "contract: "  # the bugs planted in the contract itself (semantics.py)


def check_alone():
    """No block: the single-catcher list of the saved matrix is the one the chapter explains."""
    text = MATRIX.read_text(encoding="utf-8")
    listed = text.split("\ncaught by exactly one layer:\n", 1)[1].split("\ncaught by no layer:")[0]
    names = re.findall(r"^  (\S.*) \(by \w+\)$", listed, re.M)
    _, rows = matrix_rows(text.splitlines())
    further = tuple(name for name in rows if name.startswith(FURTHER))
    claim(further != (), "the matrix has bugs planted in the further rules")
    claim(tuple(names) == ALONE + further, f"the bugs caught by one column only are {names}")
    alone = ALONE + further
    claim(all(f"{name} (by P)" in listed for name in alone), "each caught by the other tests")


def whole_matrix() -> dict:
    """{bug: (header, its line)} of the whole saved matrix (the book's sizes, P included)."""
    header, rows = matrix_rows(MATRIX.read_text(encoding="utf-8").splitlines())
    return {name: (header, line) for name, line in rows.items()}


def show_overlay_off():
    block("overlay-off")
    header, rows = matrix_rows(OVERLAY_MATRIX.read_text(encoding="utf-8").splitlines())
    plain_header, plain_rows = matrix_rows(PLAIN_MATRIX.read_text(encoding="utf-8").splitlines())
    claim(list(plain_rows) == list(rows), "the two matrices have the same planted bugs")
    overlay = {name: catchers(header, line) for name, line in rows.items()}
    plain = {name: catchers(plain_header, line) for name, line in plain_rows.items()}
    twins = [name for name in rows if name.startswith(SPEED)]  # bugs in the overlay itself
    whole = {name: catchers(*pair) for name, pair in whole_matrix().items()}  # P included
    reached = [name for name in rows if overlay[name] and name not in twins]
    lost = [name for name in reached if not plain[name]]
    only_p = [name for name in rows if not overlay[name] and name not in twins]
    caught = [name for name in rows if plain[name]]
    print(f"{len(rows)} planted bugs; the layers A to L, M and S, the plain code alone:")
    print(f"  caught: {len(caught)}")
    print(f"  caught by a layer with the overlay, missed without it: {len(lost)}")
    print("  caught by no layer at these sizes with the overlay either; in the whole matrix by:")
    for name in only_p:
        print(f"    {name}: {', '.join(sorted(whole[name]))}")
    changed = [
        (n, overlay[n] ^ plain[n]) for n in rows if n not in twins and overlay[n] != plain[n]
    ]
    print(f"  bugs whose row of marks differs between the two runs: {len(changed)}")
    for name, letters in changed:
        print(f"    {name}: {', '.join(sorted(letters))}")
    print("  planted in the overlay itself, so absent from the plain code:")
    print("\n".join(f"    {name}" for name in twins))
    claim(not lost, "every bug a layer catches with the overlay, a layer catches without it")
    claim(twins != [] and not any(plain[name] for name in twins), "the overlay's bugs stay out")
    claim(all(whole[name] for name in only_p), "the whole matrix catches each of those")
    state("ver_plain_caught", len(caught), "planted bugs the layers catch with the plain code")
    state("ver_plain_lost", len(lost), "bugs a layer catches with the overlay but not without")
    state("ver_plain_rows_changed", len(changed), "bugs whose marks differ with and without it")
    state(
        "ver_no_quick_layer",
        len(only_p),
        "planted bugs (not the overlay's) no layer catches at quick sizes",
    )


def check_contract():
    """No block: the bugs planted in the contract (semantics.py) are caught, and by which
    columns; chapter 15 states the counts. Everything that computes a value in uopc follows the
    contract, so only a column that compares with another source can see such a bug."""
    header, rows = matrix_rows(MATRIX.read_text(encoding="utf-8").splitlines())
    contract = {
        name: catchers(header, line) for name, line in rows.items() if name.startswith(CONTRACT)
    }
    claim(len(contract) > 0, "the matrix has bugs planted in the contract")
    claim(all(contract.values()), "every bug planted in the contract is caught")
    by_m = [name for name, caught in contract.items() if "M" in caught]
    state("ver_contract_bugs", len(contract), "planted bugs that edit the contract, semantics.py")
    state("ver_contract_by_m", len(by_m), "of them, caught by column M (NumPy and the C reference)")
    others = sorted(set().union(*contract.values()) - {"M", "P"})
    state("ver_contract_columns", ", ".join(others), "the layers besides M and P that catch one")


BOOK_COLUMNS = set("ABCDEFGHIJKL")  # the original book's layers; M, S and P are this project's
WIDE_BUG = "const fold reverses operands"
NARROW_BUG = "AFTER dropped from the renderer's order"


def check_p():
    """No block: what the saved matrix says of column P, the package's other tests, which
    chapter 15 states as counts. The sentences there hold only if every bug that one column
    alone catches is caught by P alone, and P catches every bug; the run fails otherwise."""
    header, rows = matrix_rows(MATRIX.read_text(encoding="utf-8").splitlines())
    caught = {name: catchers(header, line) for name, line in rows.items()}
    by_p = [name for name, columns in caught.items() if "P" in columns]
    only_p = [name for name, columns in caught.items() if columns == {"P"}]
    single = [name for name, columns in caught.items() if len(columns) == 1]
    book_single = [name for name, columns in caught.items() if len(columns & BOOK_COLUMNS) == 1]
    book_single_with_p = [name for name in book_single if "P" in caught[name]]
    claim(len(by_p) == len(rows), "column P catches every planted bug")
    claim(single == only_p, f"every bug one column alone catches is P's: {single} vs {only_p}")
    state("ver_p_caught", len(by_p), "planted bugs column P (the other test files) catches")
    state("ver_only_p", len(only_p), "planted bugs that P catches and no other column does")
    meaning = "bugs caught by exactly one of the columns A to L that P catches as well"
    state("ver_book_single_with_p", len(book_single_with_p), meaning)
    # the columns do different work: one bug most of them see, one only the memory layer does
    wide, narrow = caught[WIDE_BUG], caught[NARROW_BUG]
    claim(len(wide) > len(BOOK_COLUMNS) // 2, f"{WIDE_BUG}: caught by {sorted(wide)}")
    claim(narrow & BOOK_COLUMNS == {"L"}, f"{NARROW_BUG}: caught by {sorted(narrow)}")
    state("ver_wide_bug_columns", len(wide), f"columns that catch the bug '{WIDE_BUG}'")
    state("ver_narrow_bug_columns", ", ".join(sorted(narrow)), f"columns catching '{NARROW_BUG}'")


def main() -> int:
    show_own_negation()
    show_special_only()
    show_overlay_off()
    check_alone()
    check_contract()
    check_p()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
