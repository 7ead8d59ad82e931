"""Simplifying integers: index expressions, the divisible-terms split and its guards (Chapter 11).

    python demos/integers.py

Quoted blocks, each after a marker line `@@ block NAME` that the book build strips:
- kernels: index expressions of small kernels (flatten, reshape, tiles, an image's channels, a
  ring buffer, padding), each before and after `simplify`, each checked on every input;
- split-steps: the split worked through on one expression, then every rewrite simplify makes;
- guards: the two inputs at which the split, without one of its guards, gives a wrong value;
- matrix: the rows of the saved planted-bug matrix (out/tests/mutant_matrix.txt) that concern
  the integer rules and ranges, with its legend;
- layers: the sizes of the exhaustive and overflow layers, read from verify/layers.py;
- never-fired: the default rules that fired in none of the saved test layers
  (the FIGURE lines of out/tests/counts.txt), and why.
Every line is the same on every run. A printed claim that turns out false makes the program
exit with a non-zero status.
"""

from _common import ROOT, block, claim, finish, param, state

import itertools
import json
import random
import sys

from uopc import I32, INT_MAX, INT_MIN, Ops, UOp
from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.symbolic import SYM, add_terms, default, quotient, simplify, split
from uopc.textfmt import infix
from verify import generators as common
from verify import layers

MATRIX = ROOT / "out" / "tests" / "mutant_matrix.txt"
COUNTS = ROOT / "out" / "tests" / "counts.txt"


def size(root: UOp) -> int:
    return len(root.toposort())


def points(params: list[UOp]) -> list[dict]:
    """Every input the declared ranges allow."""
    spans = [range(p.arg.vmin, p.arg.vmax + 1) for p in params]
    slots = [p.arg.slot for p in params]
    return [dict(zip(slots, values, strict=True)) for values in itertools.product(*spans)]


def agrees(before: UOp, after: UOp, params: list[UOp]) -> int:
    """The number of inputs on which before and after were compared; 0 if one differs."""
    envs = points(params)
    same = all(evaluate(before, env) == evaluate(after, env) for env in envs)
    return len(envs) if same else 0


# ---------------------------------------------------------------------------------------------
# Block 1: index expressions of small kernels
# ---------------------------------------------------------------------------------------------


def kernel_cases():
    """(what it computes, names, expression, the result the rules must reach)."""
    r, c = param(0, I32, 0, 3), param(1, I32, 0, 7)  # an element of a 4 x 8 array
    r2, c2 = param(0, I32, 0, 1), param(1, I32, 0, 15)  # the same array seen as 2 x 16
    y, x, ch = param(0, I32, 0, 7), param(1, I32, 0, 7), param(2, I32, 0, 2)  # 8 x 8 RGB
    t, lane = param(0, I32, 0, 3), param(1, I32, 0, 15)  # 64 elements in tiles of 16
    p = param(0, I32, 0, 6)  # a ring buffer of 8, never at its last slot
    o, k = param(0, I32, 1, 6), param(1, I32, 0, 2)  # a 3-wide window, padded by 1
    flat = r * 8 + c
    pixel = y * 24 + x * 3 + ch
    return [
        ("row of r*8+c", "rc", flat // 8, r),
        ("column of r*8+c", "rc", flat % 8, c),
        ("in bounds of 32", "rc", flat.lt(32), UOp.const(True)),
        ("2x16 view: row", "rc", (r2 * 16 + c2) // 8, r2 * 2 + c2 // 8),
        ("2x16 view: column", "rc", (r2 * 16 + c2) % 8, c2 % 8),
        ("pixel of an RGB byte", "yxc", pixel // 3, x + y * 8),
        ("channel of it", "yxc", pixel % 3, ch),
        ("tile, in two steps", "tl", ((t * 16 + lane) // 4) // 4, t),
        ("next slot of a ring", "p", (p + 1) % 8, p + 1),
        ("clamped window start", "ok", (o + k + -1).max(0), o + k + -1),
    ]


NAMES = {"rc": "rc", "yxc": ("y", "x", "ch"), "tl": ("t", "lane"), "p": ("p",), "ok": "ok"}


def names_of(key: str) -> dict:
    return dict(enumerate(NAMES[key]))


def show_kernels():
    block("kernels")
    print(f"{'what it computes':<22}{'before':<36}{'nodes':>8}  after")
    singles = 0
    cases = kernel_cases()
    for label, key, before, wanted in cases:
        after = simplify(before)
        names = names_of(key)
        checked = agrees(before, after, common.used_params(before))
        claim(after is wanted, f"{label}: {infix(after, names)}")
        claim(checked > 0, f"{label}: a value changed")
        singles += size(after) == 1
        if label == "2x16 view: row":  # the page: rewritten, but no smaller (no cost model)
            claim(size(after) == size(before) and after is not before, "2x16 row: same size")
        counts = f"{size(before):>2} -> {size(after):<2}"
        print(f"{label:<22}{infix(before, names):<36}{counts:>8}  {infix(after, names)}")
    print(f"each row compared with its original on every input its ranges allow: {len(cases)} rows")
    state("int_kernel_rows", len(cases), "rows of the table of kernel index expressions")
    state("int_kernel_single", singles, "of those rows, the ones simplify takes to a single node")


# ---------------------------------------------------------------------------------------------
# Block 2: the split worked through on one expression
# ---------------------------------------------------------------------------------------------


class TracingMatcher(PatternMatcher):
    """A matcher that records every rewrite it makes: (before, after, rule name)."""

    def __init__(self, rules):
        super().__init__(rules)
        self.steps: list[tuple[UOp, UOp, str]] = []

    def rewrite(self, u, ctx=None):
        before = self.fired.copy()
        result = super().rewrite(u, ctx)
        if result is not None:
            (name,) = (self.fired - before).keys()
            self.steps.append((u, result, name))
        return result


def range_text(u: UOp) -> str:
    return f"[{u.vmin}, {u.vmax}], safe={u.safe}"


def show_split_steps():
    block("split-steps")
    y, x, ch = param(0, I32, 0, 7), param(1, I32, 0, 7), param(2, I32, 0, 2)
    names = {0: "y", 1: "x", 2: "ch"}
    start = (y * 24 + x * 3 + ch) // 3
    print(f"expression: {infix(start, names)}, y and x in [0, 7], ch in [0, 2]")
    dividend = simplify(start.src[0])  # what the rule sees: its sources are rewritten first
    print(f"dividend as the split sees it: {infix(dividend, names)}  {range_text(dividend)}")
    for term in add_terms(dividend):
        q = quotient(term, 3)
        shown = "left over" if q is None else f"a multiple of 3, quotient {infix(q, names)}"
        print(f"  term {infix(term, names):<10} {shown}")
    q, r = split(dividend, 3)
    print(f"q = {infix(q, names)}, r = {infix(r, names)}  r in {range_text(r)}")
    print(f"the rule returns q + r//3 = {infix(q + r // 3, names)}")
    matcher = TracingMatcher(default.rules)
    result = graph_rewrite(start, matcher)
    print("every rewrite simplify makes, in order:")
    for number, (before, after, name) in enumerate(matcher.steps, 1):
        print(f"  {number}. {infix(before, names)} -> {infix(after, names)}   [{name}]")
    checked = agrees(start, result, [y, x, ch])
    print(f"result: {infix(result, names)}, {size(start)} nodes -> {size(result)}")
    print(f"equal to the original on all {checked} inputs")
    rules = [name for _, _, name in matcher.steps]
    claim(result is x + y * 8, "the pixel index simplifies to x + y*8")
    claim(rules.count("(a*c1+b)//c2") == 1 and "range is a point" in rules, "split, then ranges")
    claim(checked == 8 * 8 * 3, "all inputs compared")
    remainder = simplify((y * 24 + x * 3 + ch) % 3)
    print(f"the same dividend % 3: {infix(remainder, names)}")
    claim(remainder is ch, "the channel is ch")
    state("int_split_inputs", checked, "inputs of the worked split example, all of them compared")
    state("int_split_nodes_before", size(start), "nodes of the worked split example before")
    state("int_split_nodes_after", size(result), "nodes of the worked split example after")
    state("int_split_steps", len(rules), "rewrites simplify makes on the worked split example")


# ---------------------------------------------------------------------------------------------
# Block 3: what each guard of the split refuses
# ---------------------------------------------------------------------------------------------


def declines(whole: UOp, names: dict) -> bool:
    """Prints what simplify makes of whole; True when the split rule did not fire on it."""
    before = default.fired["(a*c1+b)//c2"]
    result = simplify(whole)
    fired = default.fired["(a*c1+b)//c2"] > before
    print(f"  simplify gives {infix(result, names)}; the split fired: {fired}")
    return not fired and result.op is Ops.FLOORDIV


def show_guards():
    block("guards")
    a, b = param(0, I32), param(1, I32)  # no declared range: every i32 value is possible
    whole = (a * 4 + b) // 4
    unguarded = a + b // 4  # what the split would return without `not d.safe`
    env = {0: 2**30, 1: INT_MIN}
    left, right = evaluate(whole, env), evaluate(unguarded, env)
    print(f"(a*4 + b)//4, a and b any i32: dividend safe={whole.src[0].safe}")
    print(f"  at a = {env[0]}, b = {env[1]}: a*4 wraps to {evaluate(a * 4, env)}")
    print(f"  (a*4 + b)//4 = {left}, but a + b//4 = {right}")
    kept = declines(whole, {0: "a", 1: "b"})
    claim(not whole.src[0].safe and left != right and kept, "the unsafe dividend")
    claim(left == -(2**29) and right == 2**29, "the unsafe dividend's two values")
    state("int_guard_left", left, "(a*4+b)//4 at a = 2**30, b = INT_MIN: the wrapped value")
    state("int_guard_right", right, "a + b//4 at the same input: what the unguarded split gives")

    lo, hi = -(INT_MAX // 3), -(2**30 // 3) - 1  # a*3 in [-(2**31 - 2), -(2**30 + 2)]
    a3, b3, e3 = param(0, I32, lo, hi), param(1, I32, 0, 2**30), param(2, I32, 0, 2**30)
    whole = (a3 * 3 + b3 + e3) // 3
    rest = b3 + e3
    unguarded = a3 + rest // 3  # the split without its second guard, `r.safe`
    env = {0: lo, 1: 2**30, 2: 2**30}
    left, right = evaluate(whole, env), evaluate(unguarded, env)
    print(f"(a*3 + b + e)//3, a in [{lo}, {hi}], b and e in [0, 2**30]:")
    print(f"  dividend {range_text(whole.src[0])}")
    print(f"  left-over b + e {range_text(rest)}")
    print(f"  at a = {lo}, b = e = 2**30: b + e wraps to {evaluate(rest, env)}")
    print(f"  (a*3 + b + e)//3 = {left}, but a + (b + e)//3 = {right}")
    kept = declines(whole, {0: "a", 1: "b", 2: "e"})
    claim(whole.src[0].safe and not rest.safe and left != right and kept, "the unsafe rest")
    state("int_rest_left", left, "(a*3+b+e)//3 at the second guard's input: its true value")
    state("int_rest_right", right, "a + (b+e)//3 there: what the split without r.safe gives")


# ---------------------------------------------------------------------------------------------
# Block 4: the planted bugs in the integer rules and ranges, from the saved matrix
# ---------------------------------------------------------------------------------------------

INTEGER_BUGS = (
    "division split ignores overflow",
    "split remainder may overflow",
    "rule (a*c1+b)//c2: r//c dropped",
    "rule (a*c1+b)%c2: r%c taken as r",
    "mod bucket off by one",
    "(x//c1)//c2 as x//(c1+c2)",
    "rule (x%c1)%c2: divisibility reversed",
    "rule x//c trivial: x//0 gives x",
    "rule x%c trivial: x%0 gives 0",
    "rule (x+c1)+c2: sum not wrapped",
    "rule (x*c1)*c2: constants added",
    "rule (x+c1)*c2: c1 not scaled",
    "rule range is a point: bool becomes int",
    "rule max by range: compares the tops",
    "ADD range one too small",
    "FLOORMOD range one too small",
    "MUL range ignores overflow",
)
LAYER_NAMES = {"A": "unit", "E": "exhaustive", "F": "overflow", "P": "the other tests"}


def matrix_rows(lines: list[str]) -> tuple[str, dict]:
    """(header line, {bug name: its line}) of the saved matrix."""
    header = next(line for line in lines if line.startswith("planted bug"))
    width = header.index(" A ")
    rows = {line[:width].rstrip(): line for line in lines if line[:width].rstrip()}
    return header, rows


def catchers(header: str, line: str) -> list[str]:
    letters = header.split()[2:-1]  # after "planted bug", before "n"
    marks = line[header.index(" A ") + 1 :].split()[:-1]
    return [letter for letter, mark in zip(letters, marks, strict=True) if mark == "x"]


def show_matrix():
    block("matrix")
    lines = MATRIX.read_text(encoding="utf-8").splitlines()
    header, rows = matrix_rows(lines)
    print(header)
    for name in INTEGER_BUGS:
        print(rows[name])
    legend = lines.index(next(line for line in lines if line.startswith("columns:")))
    print("\n".join(lines[legend : legend + 3]))
    caught = {name: catchers(header, rows[name]) for name in INTEGER_BUGS}
    guard = caught["division split ignores overflow"]
    claim("F" in guard and "E" not in guard, "the split's guard: overflow yes, exhaustive no")
    claim(all(caught[name] for name in INTEGER_BUGS), "every integer planted bug caught")
    only_overflow = [n for n in INTEGER_BUGS if "F" in caught[n] and "E" not in caught[n]]
    words = [LAYER_NAMES.get(letter, letter) for letter in guard]
    caught_by = ", ".join(words[:-1]) + " and " + words[-1]
    by_exhaustive = sum("E" in c for c in caught.values())
    by_overflow = sum("F" in c for c in caught.values())
    state("int_guard_caught_by", caught_by, "the layers that caught the deleted split guard")
    state("int_bugs", len(INTEGER_BUGS), "planted bugs in the integer rules and ranges, shown")
    state("int_bugs_exhaustive", by_exhaustive, "of those bugs, the exhaustive layer's catches")
    state("int_bugs_overflow", by_overflow, "of those bugs, the overflow layer's catches")
    meaning = "of those bugs, caught by the overflow layer and not by the exhaustive"
    state("int_bugs_only_overflow", len(only_overflow), meaning)


# ---------------------------------------------------------------------------------------------
# Block 5: the sizes of the exhaustive and overflow layers
# ---------------------------------------------------------------------------------------------


def show_layers():
    block("layers")
    programs = layers.SIZES["exhaustive"]["programs"][1]
    spans = " x ".join(f"[{lo}, {hi}]" for lo, hi in layers.EXHAUSTIVE_RANGES)
    count = len(layers.EXHAUSTIVE_POINTS)
    print(f"exhaustive: {programs} index programs over i, j, k in {spans}")
    print(f"  every one of the {count} inputs, for every program")
    wide = layers.BOUNDARY
    print(f"overflow: {layers.SIZES['overflow']['programs'][1]} programs, ranges drawn from")
    for lo, hi in layers.WIDE_RANGES:
        print(f"  [{lo}, {hi}]")
    print(f"  inputs: every combination of {len(wide)} boundary values, clamped to the ranges,")
    print(f"  then random ones up to {layers.POINTS[1]} inputs per program")
    product = 1
    for lo, hi in layers.EXHAUSTIVE_RANGES:
        product *= hi - lo + 1
    claim(count == product, "the exhaustive inputs are the whole product of the ranges")
    state("int_exhaustive_points", count, "inputs per program of the exhaustive layer: all")
    state("int_exhaustive_programs", programs, "index programs of the exhaustive layer, full size")
    overflow_programs = layers.SIZES["overflow"]["programs"][1]
    state("int_overflow_programs", overflow_programs, "index programs of the overflow layer")
    state("int_overflow_boundary", len(wide), "boundary values the overflow layer combines")
    state("int_overflow_points", layers.POINTS[1], "inputs per overflow program at least")


# ---------------------------------------------------------------------------------------------
# Block 6: the rules that never fired in the saved test run
# ---------------------------------------------------------------------------------------------


def saved_figures() -> dict:
    figures = {}
    for line in COUNTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("FIGURE rules_"):
            _, key, value = line.split(" ", 2)
            figures[key] = json.loads(value)
    return figures


def casts_to_own_dtype(programs: int) -> int:
    """CAST nodes whose source already has the target dtype, in the first random programs."""
    found = 0
    for seed in range(programs):
        root, _ = common.gen_program(random.Random(seed))
        found += sum(u.op is Ops.CAST and u.src[0].dtype is u.dtype for u in root.toposort())
    return found


def show_never_fired():
    block("never-fired")
    figures = saved_figures()
    fired = [set(v) for k, v in figures.items() if k.startswith("rules_fired_")]
    never = [name for name in figures["rules_default"] if not any(name in f for f in fired)]
    print(f"default rules that fired in none of the {len(fired)} saved pipeline layers: {never}")
    integer = [r.name for r in SYM if r.pat.dtype is not None and I32 in r.pat.dtype]
    silent = [name for name in integer if name in never]
    print(f"of the {len(integer)} strict rules whose pattern names i32: {silent or 'none'}")
    claim(not silent, "every integer rule fired in some layer")
    claim(set(never) <= {"cast to own dtype"}, f"an unexplained rule never fired: {never}")
    if "cast to own dtype" in never:
        found = casts_to_own_dtype(700)
        print(f"casts to their own dtype in the first 700 random programs: {found}")
        claim(found == 0, "the generator casts only to another dtype")
    state("int_rules_i32", len(integer), "strict rules whose pattern names i32")
    state("int_rules_strict", len(SYM), "strict rules in all (SYM)")


def main() -> int:
    show_kernels()
    show_split_steps()
    show_guards()
    show_matrix()
    show_layers()
    show_never_fired()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
