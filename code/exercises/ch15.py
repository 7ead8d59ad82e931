"""Chapter 15 · How we know it works: the answers to exercises 15.1-15.5.

15.1 reads the saved planted-bug matrix (out/tests/mutant_matrix.txt); 15.4 and 15.5 plant a bug
in a private copy of `uopc` with the test suite's machinery (shared.py) and run the layers on it.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch15.
"""

import itertools
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import z3

from uopc import F32, I32, INT_MIN
from uopc.interp import evaluate
from uopc.semantics import same
from verify.generators import SPECIAL_INT, param

from answers import REPO, Skip, check, exercise, out, out_machine
from shared import (
    BOOK_LETTERS,
    FP32,
    LAYERS,
    RNE,
    control_run,
    disagreements,
    failures_of,
    layer_verdicts,
    model_f32,
    planted,
    z3_find,
    z3_same,
)


def read_matrix(text: str) -> dict:
    """The rows, layer names and printed totals of tests/mutant_matrix.py's saved output."""
    lines = [line for line in text.splitlines() if not line.startswith("# sources:")]
    header = next(i for i, line in enumerate(lines) if line.startswith("planted bug"))
    letters = lines[header].split()[2:-1]  # "planted bug", the letters, "n"
    rows, unreadable = [], []
    for line in itertools.takewhile(str.strip, lines[header + 1 :]):
        fields = line.split()
        marks, count = fields[-1 - len(letters) : -1], fields[-1]
        if not (set(marks) <= {"x", "."} and count.isdigit()):
            unreadable.append(line)
            continue
        caught = {letter for letter, mark in zip(letters, marks, strict=True) if mark == "x"}
        rows.append((" ".join(fields[: -1 - len(letters)]), caught, int(count)))
    check(rows and not unreadable, f"rows that do not parse: {unreadable}")
    legend = itertools.takewhile(
        lambda line: line.startswith(("columns:", " ")),
        lines[next(i for i, line in enumerate(lines) if line.startswith("columns:")) :],
    )
    names = dict(re.findall(r"\b([A-Z]) ([a-z]+)", " ".join(legend)))
    totals = next(line for line in lines if line.startswith("caught by layer:"))
    once = next(
        re.fullmatch(r"caught by exactly one layer: (\d+) of (\d+)", line)
        for line in lines
        if line.startswith("caught by exactly one layer: ")
    )
    return {
        "letters": letters,
        "names": names,
        "rows": rows,
        "printed": {k: int(v) for k, v in re.findall(r"([A-Z]) (\d+)", totals.split(":", 1)[1])},
        "once": (int(once.group(1)), int(once.group(2))),
    }


@exercise("ch15", "15.1", "the saved planted-bug matrix")
def ex_15_1():
    # The saved matrix comes from another, slower run (tests/mutant_matrix.py), so the lines
    # below change when that run does: they are marked like the machine-dependent ones.
    path = REPO / "out" / "tests" / "mutant_matrix.txt"
    if not path.exists():
        raise Skip("out/tests/mutant_matrix.txt is not there yet (tests/mutant_matrix.py)")
    matrix = read_matrix(path.read_text(encoding="utf-8"))
    letters, names, rows = matrix["letters"], matrix["names"], matrix["rows"]
    check(set(letters) == set(names) and set(BOOK_LETTERS) <= set(letters), f"{names}")
    check(all(count == len(caught) for _, caught, count in rows), "a row's n is not its marks")
    totals = {letter: sum(letter in caught for _, caught, _ in rows) for letter in letters}
    for letter in letters:
        check(totals[letter] == matrix["printed"][letter], f"layer {letter}: {totals[letter]}")
    single = [(name, next(iter(caught))) for name, caught, _ in rows if len(caught) == 1]
    check(matrix["once"] == (len(single), len(rows)), f"caught by one layer: {matrix['once']}")
    check(all(caught for _, caught, _ in rows), "a planted bug that no layer caught")
    most, fewest = max(totals.values()), min(totals.values())
    weakest = [letter for letter in letters if totals[letter] == fewest]
    out_machine(
        f"{len(rows)} planted bugs, {len(letters)} layers; per-layer totals, recomputed from the "
        "rows, equal the printed ones: " + ", ".join(f"{c} {totals[c]}" for c in letters)
    )
    out_machine(
        f"most catches: {', '.join(names[c] for c in letters if totals[c] == most)} ({most}); "
        f"fewest: {', '.join(names[c] for c in weakest)} ({fewest})"
    )
    for letter in weakest:
        alone = [name for name, only in single if only == letter]
        verdict = (
            f"could not be dropped: the only layer to catch {alone}"
            if alone
            else (
                "could be dropped as far as these bugs go: every bug it catches, another layer does"
            )
        )
        out_machine(f"{names[letter]}: {verdict}")
    out_machine(f"caught by one layer only ({len(single)}):")
    for name, letter in single:
        out_machine(f"  {name} (by {names[letter]})")


@exercise("ch15", "15.2", "z3: max(x,y) == max(y,x) with the ternary max")
def ex_15_2():
    bx, by = z3.BitVec("x", 32), z3.BitVec("y", 32)
    check(z3_find(z3.If(bx > by, bx, by) != z3.If(by > bx, by, bx)) is None, "int32 refuted")
    x, y = param(0, I32), param(1, I32)
    checked, bad = disagreements(x.max(y), y.max(x), [x, y], seed=152)
    check(not bad, f"int max does not commute at {bad[:3]}")
    out(f"int32: proved; {checked} inputs agree")
    fx, fy = z3.FP("x", FP32), z3.FP("y", FP32)
    model = z3_find(z3.Not(z3_same(z3.If(z3.fpGT(fx, fy), fx, fy), z3.If(z3.fpGT(fy, fx), fy, fx))))
    check(model is not None, "float32 max proved commutative")
    a, b = model_f32(model, fx), model_f32(model, fy)
    f, g = param(0, F32), param(1, F32)
    values = (evaluate(f.max(g), {0: a, 1: b}), evaluate(g.max(f), {0: a, 1: b}))
    check(not same(*values), f"the contract agrees at ({a}, {b})")
    check(any(math.isnan(v) for v in (a, b)) or a == b == 0.0, "neither nan nor two zeros")
    out_machine(
        f"float32: false at x = {a!r}, y = {b!r}: max(x,y) = {values[0]}, max(y,x) = {values[1]}"
    )


@exercise("ch15", "15.3", "z3: -(x-y) -> y-x for int32, and a float32 counterexample")
def ex_15_3():
    bx, by = z3.BitVec("x", 32), z3.BitVec("y", 32)
    claim = -(bx + -by) == by + -bx
    check(z3_find(z3.Not(claim)) is None, "int32 refuted")
    check(z3_find(bx == INT_MIN, z3.Not(claim)) is None, "int32 with x = INT_MIN refuted")
    x, y = param(0, I32), param(1, I32)
    checked, bad = disagreements(-(x - y), y - x, [x, y], seed=153)
    check(not bad, f"-(x-y) != y-x at {bad[:3]}")
    at_min = [
        evaluate(-(x - y), {0: INT_MIN, 1: v}) == evaluate(y - x, {0: INT_MIN, 1: v})
        for v in SPECIAL_INT
    ]
    check(all(at_min), "differs at x = INT_MIN")
    out(f"int32: proved, also with x = INT_MIN; {checked + len(at_min)} inputs agree")
    fx, fy = z3.FP("x", FP32), z3.FP("y", FP32)
    lhs, rhs = z3.fpNeg(z3.fpAdd(RNE, fx, z3.fpNeg(fy))), z3.fpAdd(RNE, fy, z3.fpNeg(fx))
    # asked with x == y, where the zero's sign shows: the open search can take z3 minutes
    model = z3_find(fx == fy, z3.Not(z3_same(lhs, rhs)))
    check(model is not None, "no float counterexample")
    a, b = model_f32(model, fx), model_f32(model, fy)
    f, g = param(0, F32), param(1, F32)
    values = (evaluate(-(f - g), {0: a, 1: b}), evaluate(g - f, {0: a, 1: b}))
    check(not same(*values), f"the contract agrees at ({a}, {b})")
    fa, fb = np.float32(a), np.float32(b)
    check(same(values[0], float(-(fa + -fb))) and same(values[1], float(fb + -fa)), "NumPy")
    out_machine(
        f"float32 (z3, asked with x == y): x = y = {a!r}: -(x-y) = {values[0]}, y-x = {values[1]}"
    )


NEW_CHECK = """
import uopc
from uopc import I32, Ops, ParamArg, UOp
from uopc.symbolic import simplify
x = UOp(Ops.PARAM, (), ParamArg(0, I32, 5, 9))
print("NEWCHECK", simplify(x.max(5)) is x, uopc.__file__)
"""


def new_check(mutant) -> bool:
    """The check `simplify(x.max(5)) is x` for x in [5, 9], in a child on a copy of uopc."""
    from verify import mutants

    with tempfile.TemporaryDirectory(prefix="uopc-exercise-") as folder:
        copy = mutants.make_copy(mutant, Path(folder))
        done = subprocess.run(
            [sys.executable, "-c", NEW_CHECK],
            capture_output=True,
            text=True,
            cwd=folder,
            env=mutants.child_env(Path(folder), False),
            timeout=300,
        )
        found = re.search(r"^NEWCHECK (True|False) (.*)$", done.stdout, re.M)
        check(found is not None, f"the new check did not run: {done.stderr[-300:]}")
        check(found.group(2) == str(copy / "__init__.py"), "the child imported another uopc")
    return found.group(1) == "True"


@exercise("ch15", "15.4", "max by range with a strict >")
def ex_15_4():
    mutant = planted(
        "max by range needs a strict >",
        "symbolic.py",
        "    if a.vmin >= b.vmax:\n        return a\n    return b if b.vmin >= a.vmax else None",
        "    if a.vmin > b.vmax:\n        return a\n    return b if b.vmin > a.vmax else None",
    )
    check(not any(caught for caught, _ in control_run().values()), "the unmutated copy fails")
    verdicts = layer_verdicts(mutant)
    caught = [letter for letter, (failed, _) in verdicts.items() if failed]
    # this project's unit layer already holds the book's new check (verification.md §9.5)
    check(caught == ["A"], f"layers that fail on the copy: {caught}")
    failures = failures_of(verdicts["A"][1])
    check(failures == ["max(m,5), m in [5,9]: got max(p0, 5), wanted p0"], f"{failures}")
    check(new_check(None), "the new check fails on the unmutated code")
    check(not new_check(mutant), "the new check passes on the copy")
    out("on the copy every pipeline layer (B-K) and the memory layer (L) pass")
    out(f"the unit layer (A) fails, on its one case for this rule: {failures[0]}")
    out("the new check, simplify(x.max(5)) is x for x in [5, 9]: passes on uopc, fails on the copy")


@exercise("ch15", "15.5", "x*1 that also fires for the constant 2")
def ex_15_5():
    mutant = planted(
        "x*1 also fires for 2",
        "symbolic.py",
        "return x if c.arg == 1 else None  # x*1 -> x",
        "return x if c.arg in (1, 2) else None  # x*1 -> x",
    )
    check(not any(caught for caught, _ in control_run().values()), "the unmutated copy fails")
    verdicts = layer_verdicts(mutant)
    names = dict(LAYERS)
    caught = [letter for letter, (failed, _) in verdicts.items() if failed]
    check(caught, "no layer catches x*2 -> x")
    # the answer's reading: the layers that compare no values before and after simplify, or
    # compare C with the interpreter on one body, pass; A, E and F fail; of the three guessed
    # (C, D, L) C fails and D and L pass. A new run that differs makes the answer be rewritten.
    check(caught == ["A", "C", "E", "F"], f"the answer reads A, C, E and F failing: {caught}")
    out("layers that fail on the copy: " + ", ".join(f"{c} {names[c]}" for c in caught))
    out("layers that pass: " + ", ".join(f"{c} {names[c]}" for c in names if c not in caught))
