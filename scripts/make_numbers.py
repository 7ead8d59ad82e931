"""Every number the prose states, parsed from the saved outputs and the code: out/numbers.json.

    python scripts/make_numbers.py [--out DIR] [--list]

Pages write `{{ n.KEY }}` (or `{{ n.KEY:, }}` with a Python format spec) and the hook
docs/hooks/numbers.py puts in the value from out/numbers.json; an unknown key fails the build.
No number is typed here: each one is read from a saved output (out/...) or measured on the code
(line counts, flags, versions). The keys are listed below, collector by collector; `--list`
prints them with their values.

A collector whose output file is missing (a program not run yet) adds no keys; the file is
named under "_missing" in numbers.json, which the hook quotes when a page asks for one of its
keys. A claim the book relies on that the outputs contradict (a total that is not the sum of
its rows, a z3 claim not as expected, a planted bug not caught) fails this script (exit 1).

Keys ending in `_about` are strings rounded to two significant digits with thousands
separators ("3,800"), for sentences that say "about". Where a key is text with a given number
of digits, the collector's docstring says so; plain counts are integers, and a page adds
thousands separators with the format spec `:,`.
"""

import argparse
import ast
import json
import math
import re
import sys
import tomllib
from pathlib import Path

from book_common import HEADER, ROOT

NUMBERS: dict = {}
FAILED: list[str] = []
MISSING: list[str] = []
# Keys whose value is a measurement of this machine (a line marked `(this machine)` in an output
# that check_stale.py makes again, or a run record): they may change between two runs without
# the book being stale. Declared here rather than gathered by the collectors, because
# check_stale.py imports this set without running any collector.
CHAIN_STEPS = ("build", "toposort", "evaluate", "simplify")
MACHINE_KEYS = frozenset(
    {"tests_seconds", "run_all_seconds", "run_all_elapsed", *(f"chain_{s}_s" for s in CHAIN_STEPS)}
)
# Every output file a collector reads (the docs lint counts them as used).
INPUTS = [
    "out/short/s05_sharing.txt",
    "out/short/s06_simplify.txt",
    "out/short/s09_index.txt",
    "out/short/s10_buffers.txt",
    "out/short/s12_test_it.txt",
    "out/short/s13_prove.txt",
    "out/demos/errors/chain.txt",
    "out/demos/errors/chain-times.txt",
    "out/demos/matcher/rule-counts.txt",
    "out/demos/run_demos/demo2.txt",
    "out/demos/order.txt",
    "out/tests/counts.txt",
    "out/tests/pytest.txt",
    "out/proofs/proofs.txt",
    "out/tests/mutants.txt",
    "out/tests/mutant_matrix.txt",
    "out/exercises/solutions.txt",
    "out/bench/bench.json",
    "out/bench/machine_info.txt",
    "out/tests/run_all_time.json",
    "out/demos/fold.txt",
]


class Missing(Exception):
    pass


def put(key: str, value) -> None:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
        raise ValueError(f"key {key!r} is not snake_case")
    if key in NUMBERS and NUMBERS[key] != value:
        raise ValueError(f"key {key!r} set twice, to {NUMBERS[key]!r} and {value!r}")
    NUMBERS[key] = value


def expect(holds: bool, what: str) -> None:
    if not holds:
        FAILED.append(what)


def significant(value: float, digits: int) -> str:
    """value to `digits` significant digits, with thousands separators: 3821.7, 3 -> '3,820'."""
    if value == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, places)
    places = digits - 1 - math.floor(math.log10(abs(rounded)))  # 9.996 rounds up to 10
    return f"{rounded:,.0f}" if places <= 0 else f"{rounded:,.{places}f}"


def about(value: float) -> str:
    """Two significant digits, thousands separators: 3821.7 -> '3,800', 0.957 -> '0.96'."""
    return significant(value, 2)


def read(out: Path, relative: str) -> str:
    """The text of out/<relative> without its sources line; Missing when absent."""
    path = out / relative
    if not path.exists():
        raise Missing(f"out/{relative}")
    text = path.read_text(encoding="utf-8")
    match = HEADER.match(text)
    return text[match.end() :] if match else text


def search(pattern: str, text: str, where: str) -> re.Match:
    match = re.search(pattern, text, re.MULTILINE)
    if not match:
        raise ValueError(f"{where}: no line matches {pattern!r}")
    return match


def integer(text: str) -> int:
    return int(text.replace(",", ""))


# ---------------------------------------------------------------------------------------------
# From the code
# ---------------------------------------------------------------------------------------------


def collect_code(out: Path) -> None:
    """uopc_lines, uopc_files: the compiler proper (uopc/ less the command line __main__.py);
    uopc_lines_about; lines_<module> for each module (lines_main for __main__.py) and
    textfmt_lines; ops_total (members of Ops) and alu_ops (length of ALU), from uopc/ops.py;
    runtime_cflags: the runtime's CFLAGS joined by spaces; short_programs: the step programs in
    code/short/; float_special_percent: the share of float inputs that rand_value of
    tests/common.py draws from the special values, in per cent; python_min: the Python version
    pyproject.toml requires; pin_<name>: each pinned requirement's version; the fold layer's
    sizes (fold_layer_sizes)."""
    modules = sorted((ROOT / "uopc").glob("*.py"))
    counts = {path.stem: len(path.read_text(encoding="utf-8").splitlines()) for path in modules}
    for stem, lines in counts.items():
        put("lines_main" if stem == "__main__" else f"lines_{stem.strip('_')}", lines)
    put("textfmt_lines", counts["textfmt"])
    compiler = {stem: n for stem, n in counts.items() if stem != "__main__"}
    put("uopc_lines", sum(compiler.values()))
    put("uopc_lines_about", about(sum(compiler.values())))
    put("uopc_files", len(compiler))
    ops = module_tree("ops.py")
    (members,) = (n for n in ops.body if isinstance(n, ast.ClassDef) and n.name == "Ops")
    put("ops_total", sum("enum.auto()" in ast.unparse(node) for node in members.body))
    put("alu_ops", len(assigned(ops, "ALU").elts))
    collect_contract_size(members)
    _, programs, _, inputs, share, per = fold_layer_sizes()
    put("fold_layer_programs", programs)
    put("fold_layer_inputs", inputs)
    put("fold_layer_special_percent", round(share * 100))
    put("fold_layer_checks_per_input", per)
    put("runtime_cflags", " ".join(ast.literal_eval(assigned(module_tree("runtime.py"), "CFLAGS"))))
    put("short_programs", len(list((ROOT / "code" / "short").glob("s[0-9][0-9]_*.py"))))
    common = (ROOT / "tests" / "common.py").read_text(encoding="utf-8")
    share = search(r"^ *if u < (0\.\d+):\n *return r\.choice\(SPECIAL_FLOAT\)", common, "common")
    put("float_special_percent", round(float(share[1]) * 100))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    put("python_min", search(r"([\d.]+)", project["project"]["requires-python"], "pyproject")[1])
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        match = re.match(r"([A-Za-z0-9_.\-]+)==([\w.]+)", line)
        if match:
            put("pin_" + re.sub(r"[^a-z0-9]+", "_", match[1].lower()), match[2])


def collect_contract_size(members: ast.ClassDef) -> None:
    """ops_value: the ops of chapter 3's table (every member of Ops but the memory ops, which
    start at BUFFER); ops_exact: those held to identical bits, i.e. less INEXACT of
    tests/test_semantics.py; semantics_cases and semantics_inputs_per_case: the test's case
    count (its `len(CASES) == N` assertion) and full-size random inputs per case."""
    names = [ast.unparse(node.targets[0]) for node in members.body if isinstance(node, ast.Assign)]
    names = [name for name in names if name != "__hash__"]
    value_ops = names[: names.index("BUFFER")]
    put("ops_value", len(value_ops))
    test = (ROOT / "tests" / "test_semantics.py").read_text(encoding="utf-8")
    inexact = search(r"^INEXACT = \(([^)]*)\)", test, "tests/test_semantics.py INEXACT")[1]
    put("ops_exact", len(value_ops) - len(re.findall(r"Ops\.\w+", inexact)))
    put("semantics_cases", int(search(r"len\(CASES\) == (\d+)", test, "test_semantics")[1]))
    size = search(r"counting\.size\(([\d_]+), ([\d_]+)\)", test, "test_semantics case_size")
    put("semantics_inputs_per_case", int(size[2].replace("_", "")))


def pipeline_sizes(layer: str) -> tuple[int, int, int, int]:
    """(quick programs, full programs, quick inputs, full inputs) of one pipeline layer, read
    from the SIZES table of tests/test_pipeline.py."""
    test = (ROOT / "tests" / "test_pipeline.py").read_text(encoding="utf-8")
    size = rf'^ *"{layer}": \{{"programs": \((\d+), (\d+)\), "inputs": \((\d+), (\d+)\)\}},$'
    return tuple(
        int(n) for n in search(size, test, f"tests/test_pipeline.py SIZES {layer}").groups()
    )


def fold_layer_sizes() -> tuple:
    """The fold layer of tests/test_pipeline.py, read from its source: (quick programs, full
    programs, quick inputs, full inputs, the share of argument values drawn from the special
    lists, checks per input). collect_code puts fold_layer_programs, fold_layer_inputs (the
    full sizes), fold_layer_special_percent and fold_layer_checks_per_input."""
    test = (ROOT / "tests" / "test_pipeline.py").read_text(encoding="utf-8")
    sizes = pipeline_sizes("fold")
    share = r"^def fold_value\(.*\n(?:.*\n)*? +if r\.random\(\) < ([\d.]+):"
    per = r"^def layer_fold\((?:.*\n)*? +checks \+= (\d+)"
    return (
        *sizes,
        float(search(share, test, "tests/test_pipeline.py fold_value")[1]),
        int(search(per, test, "tests/test_pipeline.py layer_fold")[1]),
    )


def module_tree(name: str) -> ast.Module:
    """The syntax tree of a module of uopc: read, never imported (no path set-up, no side
    effects, and the numbers describe the file as it is)."""
    return ast.parse((ROOT / "uopc" / name).read_text(encoding="utf-8"))


def assigned(tree: ast.Module, name: str) -> ast.expr:
    """The value of the module-level assignment `name = ...`."""
    (value,) = (
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == name
    )
    return value


# ---------------------------------------------------------------------------------------------
# From the short path
# ---------------------------------------------------------------------------------------------


def collect_short(out: Path) -> None:
    """s05_nodes, s05_doublings, s05_tree_nodes; s06_nodes_before, s06_nodes_after;
    s09_wrap_inputs, s09_wrap_first (the values of big at which big*4 wraps, and the first);
    s10_text_lines_shown, s10_text_lines; s12_programs, s12_fast_seed, s12_inputs (text);
    s13_counterexample (the x z3 found for (x/2)*2 == x)."""
    text = read(out, "short/s05_sharing.txt")
    match = search(r"^p = p \+ p, (\d+) times: nodes in the graph (\d+)$", text, "s05")
    put("s05_doublings", int(match[1]))
    put("s05_nodes", int(match[2]))
    put("s05_tree_nodes", int(search(r"^as a tree it would have .* = (\d+)$", text, "s05")[1]))

    text = read(out, "short/s06_simplify.txt")
    put("s06_nodes_before", int(search(r"^nodes before: *(\d+)$", text, "s06")[1]))
    put("s06_nodes_after", int(search(r"^nodes after: *(\d+)$", text, "s06")[1]))

    text = read(out, "short/s09_index.txt")
    match = search(r"^inputs at which big\*4 wraps: (\d+) \(big from (\d+) to \d+\)$", text, "s09")
    put("s09_wrap_inputs", int(match[1]))
    put("s09_wrap_first", int(match[2]))

    text = read(out, "short/s10_buffers.txt")
    shown = len(re.findall(r"^%\d+ = ", text, re.MULTILINE)) + 1  # the nodes and the header
    more = int(search(r"^\.\.\. (\d+) more lines$", text, "s10")[1])
    put("s10_text_lines_shown", shown)
    put("s10_text_lines", shown + more)

    text = read(out, "short/s12_test_it.txt")
    put("s12_programs", int(search(r"^strict: no difference in (\d+) programs$", text, "s12")[1]))
    match = search(r"^fast math: first difference at seed (\d+), at (.*)$", text, "s12")
    put("s12_fast_seed", int(match[1]))
    put("s12_inputs", match[2])

    text = read(out, "short/s13_prove.txt")
    put("s13_counterexample", int(search(r"^\(x/2\)\*2 == x +false: x = (\d+)$", text, "s13")[1]))


# ---------------------------------------------------------------------------------------------
# From the tests, the proofs and the planted bugs
# ---------------------------------------------------------------------------------------------


def collect_counts(out: Path) -> None:
    """checks_<group> (semantics_numpy, semantics_c, unit, pipeline, memory), checks_total,
    checks_total_millions (the total in millions, rounded down to one decimal, for "more than
    N million"), checks_pipeline_<layer> for each pipeline layer."""
    text = read(out, "tests/counts.txt")
    layers: dict[str, dict[str, int]] = {}
    for group, layer, n in re.findall(r"^COUNT (\S+) (\S+) (\d+)$", text, re.MULTILINE):
        layers.setdefault(group, {})[layer] = int(n)  # the last line of a layer wins
    groups = {group: sum(by_layer.values()) for group, by_layer in layers.items()}
    for group, total in groups.items():
        put("checks_" + group.replace("-", "_"), total)
    for layer, n in layers.get("pipeline", {}).items():
        put("checks_pipeline_" + layer.replace("-", "_"), n)
    total = sum(groups.values())
    put("checks_total", total)
    put("checks_total_millions", math.floor(total / 100_000) / 10)
    if "fold" in layers.get("pipeline", {}):  # programs x inputs x checks, quick or full size
        quick, full, quick_inputs, full_inputs, _, per = fold_layer_sizes()
        sized = {quick * quick_inputs * per, full * full_inputs * per}
        expect(layers["pipeline"]["fold"] in sized, "fold layer: count is not programs x inputs")
    summary = out / "tests" / "summary.txt"
    if summary.exists():  # the summary's own total must be the sum of the same rows
        match = search(r"^ *([\d,]+)  total checks$", summary.read_text(encoding="utf-8"), "sum")
        expect(integer(match[1]) == total, "out/tests/summary.txt: total differs from counts.txt")


# The figures the layers record with counting.figure, taken as they are.
FIGURES = (
    "ulp_max_exp2_numpy", "ulp_max_exp2_c", "ulp_max_log2_numpy", "ulp_max_log2_c",
    "special_programs_changed", "special_programs_built",
    "exhaustive_programs_changed", "exhaustive_programs_built",
    "range_checks", "range_checks_safe",
    "fast_counterexamples", "fast_first_counterexample", "zerodiv_divisions",
)  # fmt: skip


def collect_figures(out: Path) -> None:
    """The FIGURE lines of out/tests/counts.txt (tests/counting.py): ulp_max_exp2_numpy,
    ulp_max_exp2_c, ulp_max_log2_numpy, ulp_max_log2_c (the largest ulp gap of EXP2 and LOG2
    against NumPy and against the C reference); special_programs_changed and
    special_programs_built, exhaustive_programs_changed and exhaustive_programs_built (programs
    that simplify changed, of those built); range_checks and range_checks_safe (of them, the
    checks on nodes marked safe); fast_counterexamples and fast_first_counterexample (text: the
    seed, the inputs and both values); zerodiv_divisions; rules_never_fired and
    rules_never_fired_names (text: the default matcher's rules that fired in none of the
    pipeline layers, joined by ", ", or "none")."""
    text = read(out, "tests/counts.txt")
    figures = {}
    for key, value in re.findall(r"^FIGURE (\S+) (.*)$", text, re.MULTILINE):
        figures[key] = json.loads(value)
    for key in FIGURES:
        if key in figures:
            put(key, figures[key])
    absent = [key for key in FIGURES if key not in figures]
    expect(not absent, f"out/tests/counts.txt: no FIGURE line for {', '.join(absent)}")
    fired = [set(v) for k, v in figures.items() if k.startswith("rules_fired_")]
    if "rules_default" not in figures or not fired:
        raise ValueError("out/tests/counts.txt: no FIGURE lines for the rules that fired")
    never = [name for name in figures["rules_default"] if not any(name in f for f in fired)]
    put("rules_never_fired", len(never))
    put("rules_never_fired_names", ", ".join(never) if never else "none")


def collect_pytest(out: Path) -> None:
    """tests_passed, tests_seconds (the full test run's wall time, as pytest reports it)."""
    text = read(out, "tests/pytest.txt")
    match = search(r"^=*\s*(\d+) passed.* in ([\d.]+)s", text, "pytest")
    put("tests_passed", int(match[1]))
    put("tests_seconds", float(match[2]))


def collect_proofs(out: Path) -> None:
    """Over every claim (the CLAIMS line that scripts/summary.py reads, and the "all claims"
    line): claims_total, claims_as_expected, claims_proved, claims_refuted, claims_unsettled.
    Over the book's claims (the "book claims" line): book_claims_total, book_claims_as_expected,
    book_claims_proved, book_claims_refuted, book_claims_unsettled; among them claims_int and
    claims_float (by the group headers: a header naming float32 holds float claims) and
    claims_unbounded (groups posed over mathematical integers: "(integers" in the header).
    claims_group_<slug>: the claims of each group, the slug made from its header. The verdicts
    of chapter 10's tables, float_claim_<row> and fast_claim_<row>: see float_rows."""
    text = read(out, "proofs/proofs.txt")
    pattern = r"^{}: (\d+), as expected (\d+), proved (\d+), refuted (\d+), unsettled (\d+)$"
    names = ("total", "as_expected", "proved", "refuted", "unsettled")
    for label, prefix in (("book claims", "book_claims"), ("all claims", "claims")):
        values = [int(x) for x in search(pattern.format(label), text, "proofs").groups()]
        for name, value in zip(names, values, strict=True):
            put(f"{prefix}_{name}", value)
        expect(values[1] == values[0], f"proofs: {label}: {values[0] - values[1]} not as expected")
    last = re.findall(r"^CLAIMS (\d+) (\d+) (\d+)$", text, re.MULTILINE)
    expect(bool(last), "proofs: no CLAIMS line")
    if last:
        total, as_expected, refuted = (int(x) for x in last[-1])
        expect(
            (total, as_expected, refuted)
            == (NUMBERS["claims_total"], NUMBERS["claims_as_expected"], NUMBERS["claims_refuted"]),
            "proofs: the CLAIMS line and the 'all claims' line differ",
        )
    groups: dict[str, list] = {}
    current = None
    for line in text.splitlines():
        header = re.fullmatch(r"--- (.*) ---", line)
        if header:
            current = header[1]
            groups[current] = []
        elif current and re.search(r"\bexpected (proved|refuted)\b", line):
            groups[current].append(line)
    counted, book = 0, []
    for title, lines in groups.items():
        put("claims_group_" + re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_"), len(lines))
        if counted < NUMBERS["book_claims_total"]:  # the book's groups come first
            book.append(title)
            counted += len(lines)
    expect(counted == NUMBERS["book_claims_total"], "proofs: the book's groups do not add up")
    floats = [title for title in book if "float" in title]
    put("claims_float", sum(len(groups[title]) for title in floats))
    put("claims_int", sum(len(groups[title]) for title in book if title not in floats))
    put("claims_unbounded", sum(len(groups[t]) for t in book if "(integers" in t))
    float_rows(groups)


# The rows of chapter 10's two tables: key suffix -> the claim's title in proofs.txt, in the
# float32 group (float_claim_*) and in the fast-math group (fast_claim_*).
FLOAT_ROWS = {
    "mul_one": "x*1.0 -> x",
    "add_neg_zero": "x+(-0.0) -> x",
    "add_zero": "x+0.0 -> x",
    "mul_zero": "x*0.0 -> 0.0",
    "regroup_add": "(x+y)+z -> x+(y+z)",
    "mul_recip": "x*(1/x) -> 1.0",
    "add_own_negation": "x+(-x) -> 0.0",
    "neg_neg": "-(-x) -> x",
    "mul_minus_one": "x*-1.0 -> -x",
    "neg_mul": "-(x*y) -> x*(-y)",
    "max_self": "max(x,x) -> x",
    "max_swap": "max(x,y) -> max(y,x)",
    "add_swap": "x+y == y+x",
    "mul_swap": "x*y == y*x",
}
FAST_ROWS = {
    "mul_zero": "x*0.0: x*0.0 -> 0.0",
    "add_zero": "x+0.0 (float): x+0.0 -> x",
    "regroup_mul": "(x*c1)*c2 (float): (x*3.0)*5.0 -> x*15.0, x in [1, 2)",
    "mul_recip": "x*recip(x): x*recip(x) -> 1.0, x in [1, 2)",
    "add_own_negation": "x+(-x) (float): x+(-x) -> 0.0",
}


def float_rows(groups: dict[str, list[str]]) -> None:
    """float_claim_<row> for each row of FLOAT_ROWS, fast_claim_<row> for each of FAST_ROWS
    (text: "proved", or "refuted at" and z3's counterexample, "x = -0.0"), read from the claim
    of that title in its group; each claim must be there, marked ok, and verdict as expected
    (tests/proofs.py confirms a counterexample with eval_op before it marks it ok). A run of a
    few claims (proofs.py --only) that leaves a group out adds none of its keys."""
    verdict = r"^(\S+) +{} +expected (\w+) +(\w+) +\[[\d.]+s\](?: COUNTEREXAMPLE (.*))?$"
    for prefix, group, rows in (
        ("float_claim", "float32 rules", FLOAT_ROWS),
        ("fast_claim", "fast-math rules", FAST_ROWS),
    ):
        titles = [title for title in groups if title.startswith(group)]
        if not titles:
            continue
        lines = "\n".join(groups[titles[0]])
        for key, claim in rows.items():
            match = search(verdict.format(re.escape(claim)), lines, f"proofs {group}")
            mark, expected, got, example = match.groups()
            expect(mark == "ok" and expected == got, f"proofs: {claim}: {got}, not as expected")
            if got == "refuted":
                pairs = [part.split("=", 1) for part in (example or "").split(", ")]
                shown = ", ".join(f"{name} = {value}" for name, value in pairs)
                put(f"{prefix}_{key}", f"refuted at {shown}")
            else:
                put(f"{prefix}_{key}", got)


def collect_mutants(out: Path) -> None:
    """mutants_total, mutants_caught (the MUTANTS line of tests/mutants.py)."""
    text = read(out, "tests/mutants.txt")
    matches = re.findall(r"^MUTANTS (\d+) (\d+)$", text, re.MULTILINE)
    if not matches:
        raise ValueError("out/tests/mutants.txt: no MUTANTS line")
    total, caught = (int(x) for x in matches[-1])
    put("mutants_total", total)
    put("mutants_caught", caught)
    expect(caught == total, f"mutants: {total - caught} of {total} planted bugs not caught")


def collect_matrix(out: Path) -> None:
    """The lines of tests/mutant_matrix.py's report_lines(): mutants_single_catcher and
    mutants_matrix_total (K and N of "caught by exactly one layer: K of N", over every column
    printed), mutants_single_layer (the same K, counted from the list of those bugs),
    mutants_single_book_layer (caught by exactly one of the book's layers A to L),
    mutants_matrix_rows (the planted bugs in the matrix), mutants_missed (caught by no layer: 0
    in a good run). The per-layer totals printed must be those of the rows."""
    text = read(out, "tests/mutant_matrix.txt")
    match = search(r"^caught by exactly one layer: (\d+) of (\d+)$", text, "matrix")
    put("mutants_single_catcher", int(match[1]))
    put("mutants_matrix_total", int(match[2]))
    after = text.split("\ncaught by exactly one layer:\n", 1)
    if len(after) != 2:
        raise ValueError("out/tests/mutant_matrix.txt: no 'caught by exactly one layer:' list")
    listed = len(re.findall(r"^  \S.* \(by \w+\)$", after[1], re.MULTILINE))
    put("mutants_single_layer", listed)
    expect(listed == int(match[1]), "mutant matrix: the single-catcher list and count differ")
    book = re.search(r"^caught by exactly one of the layers A to L: (\d+) of (\d+)$", text, re.M)
    put("mutants_single_book_layer", int(book[1]) if book else int(match[1]))
    rows = matrix_rows(text)
    put("mutants_matrix_rows", len(rows))
    expect(len(rows) == int(match[2]), "mutant matrix: the rows and the total differ")
    letters = search(r"^planted bug +([A-Z](?: [A-Z])*)  n$", text, "matrix")[1].split()
    totals = ", ".join(f"{c} {sum(row[i] == 'x' for row in rows)}" for i, c in enumerate(letters))
    printed = search(r"^caught by layer: (.*)$", text, "matrix")[1]
    expect(printed == totals, f"mutant matrix: per-layer totals {printed}, rows give {totals}")
    missed = search(r"^caught by no layer: (.*)$", text, "matrix")[1]
    put("mutants_missed", 0 if missed == "none" else len(missed.split(", ")))
    expect(missed == "none", f"mutant matrix: caught by no layer: {missed}")


def matrix_rows(text: str) -> list[list[str]]:
    """The marks of each row of the matrix ('x' or '.' per column)."""
    rows = re.findall(r"^.{43}((?:[x.] )*[x.])  \d+$", text, re.MULTILINE)
    return [row.split() for row in rows]


def collect_exercises(out: Path) -> None:
    """exercises_total, exercise_checks (the last line of code/exercises/solutions.py)."""
    text = read(out, "exercises/solutions.txt")
    match = search(r"^(\d+) exercises; (\d+) checks passed$", text, "solutions")
    put("exercises_total", int(match[1]))
    put("exercise_checks", int(match[2]))


# ---------------------------------------------------------------------------------------------
# From the benchmark and the machine
# ---------------------------------------------------------------------------------------------


def collect_bench(out: Path) -> None:
    """From out/bench/bench.json; every time is cpu time (process time, with clang's own in the
    compile block). relu(x*y+1) three ways: bench_interp_ns_per_element and
    bench_ctypes_ns_per_call (text, 3 significant digits: "3,820", "584"),
    bench_loop_ns_per_element and bench_loop_plain_ns_per_element (text, 2 significant digits:
    "0.96"), bench_ratio_interp_loop and bench_ratio_ctypes_loop (text, whole numbers: "3,966"),
    bench_ratio_loop_plain (text, 2 decimals). Compile times (text, 3 decimals):
    bench_compile_largest_statements and bench_compile_before_statements (the largest two
    sizes), bench_compile_largest_o0_s and _o2_s, bench_compile_empty_o0_s and _o2_s (an empty
    file: clang's start-up), bench_compile_net_o0_s and _o2_s (the largest less the empty
    file), bench_compile_growth_o0 and _o2 (text, 1 decimal: net time of the largest over the
    one before it), bench_compile_shape_o0 and _o2 (text: "more than linearly", "about
    linearly" or "less than linearly", that growth against the growth in size, 20% either
    side being "about"), bench_compile_smallest_statements and bench_compile_startup_share_o2
    (the empty file's time as a whole percentage of the smallest function's, at -O2).
    Graphs: bench_expressions, bench_graph_nodes_total, bench_graph_nodes_distinct,
    bench_graph_kib, bench_bytes_per_node, bench_simplify_ms, bench_simplify_nodes_per_s,
    bench_graph_nodes_after (whole numbers), bench_doublings, bench_doubling_nodes,
    bench_doubling_tree. Targets, uopc/tinygrad (text, 2 decimals): bench_target_nodes_per_s,
    bench_target_chain, bench_target_bytes. bench_quick is true when the data come from a
    quick run, and bench_busy when wall and cpu time disagreed in a run made with --busy
    (either fails here)."""
    data = json.loads(read(out, "bench/bench.json"))
    put("bench_quick", bool(data.get("quick")))
    expect(not data.get("quick"), "out/bench/bench.json comes from a quick run")
    busy = data["busy"]
    put("bench_busy", bool(busy))
    first = busy[0] if busy else ""
    expect(not busy, f"bench.json: wall and cpu time disagreed {len(busy)} times; first: {first}")
    relu, plain = data["relu_cpu_ns"], data["relu_plain_loop"]
    interp, ctypes_call, loop = relu["interpreter"], relu["ctypes_per_element"], relu["c_loop"]
    put("bench_interp_ns_per_element", significant(interp, 3))
    put("bench_ctypes_ns_per_call", significant(ctypes_call, 3))
    put("bench_loop_ns_per_element", significant(loop, 2))
    put("bench_loop_plain_ns_per_element", significant(plain["cpu"], 2))
    put("bench_ratio_interp_loop", f"{interp / loop:,.0f}")
    put("bench_ratio_ctypes_loop", f"{ctypes_call / loop:,.0f}")
    put("bench_ratio_loop_plain", f"{loop / plain['cpu']:.2f}")
    collect_compile(data["compile_cpu"])
    graphs = data["graphs"]
    put("bench_expressions", graphs["expressions"])
    put("bench_graph_nodes_total", graphs["nodes"])
    put("bench_graph_nodes_distinct", graphs["distinct"])
    put("bench_graph_kib", round(graphs["traced_bytes"] / 1024))
    put("bench_bytes_per_node", round(graphs["bytes_per_distinct_node"]))
    put("bench_simplify_ms", round(graphs["simplify_seconds_cpu"] * 1000))
    put("bench_simplify_nodes_per_s", round(graphs["nodes_per_second_cpu"]))
    put("bench_graph_nodes_after", graphs["nodes_after"])
    doubling = graphs["doubling"]
    put("bench_doublings", doubling["count"])
    put("bench_doubling_nodes", doubling["nodes"])
    put("bench_doubling_tree", doubling["tree"])
    figures = (data["tinygrad"].get("figures") or {}) if data["tinygrad"]["version"] else {}
    for key, figure in (
        ("bench_target_nodes_per_s", "nodes_per_second_cpu"),
        ("bench_target_chain", "chain_seconds_cpu"),
        ("bench_target_bytes", "bytes_per_distinct_node"),
    ):
        if figure in figures:
            put(key, f"{figures[figure]['uopc_over_tinygrad']:.2f}")


def collect_compile(times: dict) -> None:
    """The compile keys of collect_bench, from the cpu times of the compile block."""
    order = sorted(range(len(times["statements"])), key=lambda i: times["statements"][i])
    largest, before = order[-1], order[-2]
    statements = times["statements"]
    put("bench_compile_largest_statements", statements[largest])
    put("bench_compile_before_statements", statements[before])
    put("bench_compile_smallest_statements", statements[order[0]])
    share = times["empty"]["O2"] / times["O2"][order[0]]
    put("bench_compile_startup_share_o2", round(100 * share))
    size_growth = statements[largest] / statements[before]
    for level in ("O0", "O2"):
        empty = times["empty"][level]
        net, net_before = times[level][largest] - empty, times[level][before] - empty
        put(f"bench_compile_largest_{level.lower()}_s", f"{times[level][largest]:.3f}")
        put(f"bench_compile_empty_{level.lower()}_s", f"{empty:.3f}")
        put(f"bench_compile_net_{level.lower()}_s", f"{net:.3f}")
        growth = net / net_before
        put(f"bench_compile_growth_{level.lower()}", f"{growth:.1f}")
        put(f"bench_compile_shape_{level.lower()}", shape(growth / size_growth))


def shape(relative: float) -> str:
    """How a time grew against the size: within 20% of it is "about linearly"."""
    if relative > 1.2:
        return "more than linearly"
    if relative < 1 / 1.2:
        return "less than linearly"
    return "about linearly"


def collect_machine(out: Path) -> None:
    """From out/bench/machine_info.txt: machine_<label> for each labelled line, as text
    (machine_cpu, machine_cores, machine_memory_mib, machine_system, machine_python, ...);
    machine_cores also as a number; python_version, numpy_version, z3_version, tinygrad_version
    and clang_version (the version number alone, "14.0.6")."""
    text = read(out, "bench/machine_info.txt")
    labels = dict(re.findall(r"^ +([^:]+): +(.*)$", text, re.MULTILINE))
    for label, value in labels.items():
        key = "machine_" + re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
        put(key, int(value) if key == "machine_cores" else value.strip())
    put("python_version", search(r"^([\d.]+)", labels["Python"], "machine_info Python")[1])
    put("numpy_version", labels["NumPy"].strip())
    put("z3_version", labels["z3"].strip())
    put("tinygrad_version", labels["tinygrad"].strip())
    put("clang_version", search(r"clang version ([\d.]+)", labels["clang"], "machine_info")[1])


def collect_run_time(out: Path) -> None:
    """From out/tests/run_all_time.json, written at the end of a whole full ./run_all.sh:
    run_all_seconds, and run_all_elapsed, the same as text ("41 min 12 s", "1 h 3 min 5 s")."""
    seconds = json.loads(read(out, "tests/run_all_time.json"))["seconds"]
    put("run_all_seconds", seconds)
    hours, minutes = divmod(seconds // 60, 60)
    text = f"{minutes} min {seconds % 60} s"
    put("run_all_elapsed", f"{hours} h {text}" if hours else text)


# ---------------------------------------------------------------------------------------------
# From the demos and the proofs that chapters 4 to 6 interpret
# ---------------------------------------------------------------------------------------------


def wrap(value: int) -> int:
    """The int32 that value wraps to (as uopc.semantics.wrap32; this script imports no uopc)."""
    return (value + 2**31) % 2**32 - 2**31


def collect_chain(out: Path) -> None:
    """The chain x + 1 + 2 + ... of demos/errors.py: chain_adds, chain_nodes (both counts),
    chain_build_s, chain_toposort_s, chain_evaluate_s, chain_simplify_s (text, as printed, this
    machine), chain_value (the wrapped sum), chain_nodes_after (nodes once simplified). Asserts
    that the value is the wrapped sum 1..chain_adds and that simplifying kept it."""
    text = read(out, "demos/errors/chain-times.txt")
    pattern = r"^x \+ 1 \+ 2 \+ \.\.\. \+ ([\d,]+): ([\d,]+) nodes; build ([\d.]+) s, "
    pattern += r"toposort ([\d.]+) s, evaluate ([\d.]+) s, simplify ([\d.]+) s"
    match = search(pattern, text, "errors chain")
    adds = integer(match[1])
    put("chain_adds", adds)
    put("chain_nodes", integer(match[2]))
    for name, value in zip(CHAIN_STEPS, match.groups()[2:], strict=True):
        put(f"chain_{name}_s", value)
    text = read(out, "demos/errors/chain.txt")
    value = int(search(r"^evaluated at x = 0: (-?\d+);", text, "errors chain")[1])
    after = search(r"^simplified: (\d+) nodes, .*evaluates to (-?\d+)$", text, "errors chain")
    put("chain_value", value)
    put("chain_nodes_after", int(after[1]))
    expect(value == wrap(adds * (adds + 1) // 2), "chain: the value is not the wrapped sum")
    expect(int(after[2]) == value, "chain: the simplified graph evaluates to another value")
    expect(integer(match[2]) == 2 * adds + 1, "chain: not one ADD and one CONST per step")


def collect_fold_demo(out: Path) -> None:
    """Chapter 9, from demos/fold.py: fold_known_nodes (relu(z, 3.0) simplified),
    fold_zero_nodes and fold_zero_muls (relu(z, 0.0) simplified, and its MULs), fold_g_value
    (g(2, 1) folded to one constant)."""
    text = read(out, "demos/fold.txt")
    known = search(r"^relu\(z, 3\.0\) -> .*, (\d+) nodes:$", text, "fold")
    put("fold_known_nodes", int(known[1]))
    zero = search(r"^relu\(z, 0\.0\) -> .*, (\d+) nodes, (\d+) of them a MUL:$", text, "fold")
    put("fold_zero_nodes", int(zero[1]))
    put("fold_zero_muls", int(zero[2]))
    g = search(r"^g\(i, j\) = .* -> 1 node: CONST (-?\d+)$", text, "fold")
    put("fold_g_value", int(g[1]))


def collect_split(out: Path) -> None:
    """split_cex_a, split_cex_b: the a and b z3 found for (a*4+b)//4 -> a*1 + b//4 without its
    guard. Asserts what chapter 6 says of them: under wrapping int32 arithmetic the two sides
    differ there, and a*4 + b leaves the int32 range, so the guard would have refused it."""
    text = read(out, "proofs/proofs.txt")
    pattern = r"^ok +\(a\*4\+b\)//4 -> a\*1 \+ b//4, no guard .*"
    pattern += r"COUNTEREXAMPLE a=(-?\d+), b=(-?\d+)$"
    match = search(pattern, text, "proofs split")
    a, b = int(match[1]), int(match[2])
    put("split_cex_a", a)
    put("split_cex_b", b)
    left = wrap(a * 4 + b) // 4  # Python's // is floor division, the contract's for b != 0
    right = wrap(a + b // 4)
    expect(left != right, "split: the counterexample does not make the two sides differ")
    expect(not -(2**31) <= a * 4 + b < 2**31, "split: a*4 + b fits int32, the guard would pass")
    put("split_cex_left", left)
    put("split_cex_right", right)


def collect_matcher(out: Path) -> None:
    """The rule-counts block of demos/matcher.py: matcher_rules (rules of the default matcher),
    matcher_rules_fold, matcher_rules_inline, matcher_rules_symbolic (its three lists),
    matcher_fast_extra (rules fast math adds); matcher_by_op_<op> (rules the index lists under
    each op printed, op in lower case) and matcher_by_op_most (the most for any of them);
    matcher_index_saving_about (text: matcher_rules / matcher_by_op_most, two digits, how many
    times fewer rules the busiest op is tried against than a matcher without the index would
    try). Asserts that the three lists add up to the total, that the demo says its counts agree
    with the compiler's specification, and that no op is tried against every rule."""
    text = read(out, "demos/matcher/rule-counts.txt")
    pattern = r"^default matcher: (\d+) rules \(fold (\d+), inline (\d+), symbolic (\d+)\)$"
    match = search(pattern, text, "matcher rule counts")
    total, lists = int(match[1]), [int(value) for value in match.groups()[1:]]
    for name, value in zip(("fold", "inline", "symbolic"), lists, strict=True):
        put(f"matcher_rules_{name}", value)
    put("matcher_rules", total)
    put("matcher_fast_extra", int(search(r"^fast math adds (\d+) rules$", text, "matcher")[1]))
    by_op = {op.lower(): int(n) for op, n in re.findall(r"^  ([A-Z]+) +(\d+)$", text, re.M)}
    if not by_op:
        raise ValueError("demos/matcher.py: no line of the by_op table")
    for op, count in by_op.items():
        put(f"matcher_by_op_{op}", count)
    busiest = max(by_op.values())
    put("matcher_by_op_most", busiest)
    put("matcher_index_saving_about", about(total / busiest))
    expect(sum(lists) == total, "matcher: fold + inline + symbolic is not the total")
    expect(busiest < total, "matcher: some op is tried against every rule")
    agrees = search(r"^all of these agree with the compiler's specification: (\w+)$", text, "")
    expect(agrees[1] == "True", "matcher: the rule counts disagree with the specification")


def collect_rule_proofs(out: Path) -> None:
    """rules_strict_proved, rules_strict (strict rules with a proved z3 claim named after them,
    of all strict rules), rules_fast_refuted, rules_fast (the same for the fast-math rules and a
    refuted claim). Asserts that every rule has its claim."""
    text = read(out, "proofs/proofs.txt")
    pattern = r"^strict rules with a proved claim: (\d+) of (\d+); "
    pattern += r"fast-math rules with a refuted claim: (\d+) of (\d+)$"
    match = search(pattern, text, "proofs rules")
    values = [int(value) for value in match.groups()]
    for key, value in zip(("strict_proved", "strict", "fast_refuted", "fast"), values, strict=True):
        put(f"rules_{key}", value)
    expect(values[0] == values[1], "proofs: a strict rule has no proved claim")
    expect(values[2] == values[3], "proofs: a fast-math rule has no refuted claim")


# ---------------------------------------------------------------------------------------------
# Chapter 8: the rewrite engine
# ---------------------------------------------------------------------------------------------


def collect_engine(out: Path) -> None:
    """From the code: rewrite_base_limit and rewrite_limit_per_node (BASE_LIMIT and
    LIMIT_PER_NODE of uopc/rewrite.py); sound_programs and sound_inputs (the full sizes of the
    sound layer in tests/test_pipeline.py, which checks on every program that simplifying the
    result again gives the same node), asserted against that layer's COUNT line (one check per
    program plus one per input, at the quick or the full sizes). From demo 2 of
    demos/run_demos.py: loop_limit, loop_distribute, loop_factor (the limit and the two rules'
    firings in the RewriteLimit message); asserts that the two alternate and that their firings
    fit under the limit."""
    tree = module_tree("rewrite.py")
    put("rewrite_base_limit", ast.literal_eval(assigned(tree, "BASE_LIMIT")))
    put("rewrite_limit_per_node", ast.literal_eval(assigned(tree, "LIMIT_PER_NODE")))
    quick, programs, quick_inputs, inputs = pipeline_sizes("sound")
    put("sound_programs", programs)
    put("sound_inputs", inputs)
    counts = read(out, "tests/counts.txt")
    sound = re.findall(r"^COUNT pipeline sound (\d+)$", counts, re.MULTILINE)
    expect(bool(sound), "out/tests/counts.txt: no COUNT line for the sound layer")
    if sound:
        checks = int(sound[-1])
        sized = {quick * (1 + quick_inputs), programs * (1 + inputs)}  # a quick run, or the book's
        expect(checks in sized, f"sound: {checks} checks, neither the quick nor the full sizes")
    text = read(out, "demos/run_demos/demo2.txt")
    pattern = r"^RewriteLimit: more than (\d+) rewrite steps; busiest rules: "
    pattern += r"\[\('distribute', (\d+)\), \('factor', (\d+)\)\]$"
    match = search(pattern, text, "run_demos demo 2")
    limit, distribute, factor = (int(x) for x in match.groups())
    put("loop_limit", limit)
    put("loop_distribute", distribute)
    put("loop_factor", factor)
    expect(abs(distribute - factor) <= 1, "demo 2: the two rules do not alternate")
    expect(distribute + factor <= limit + 1, "demo 2: more firings than questions")


def collect_order(out: Path) -> None:
    """From demos/order.py: order_programs, order_inputs, order_same, order_different,
    order_default_smaller, order_reversed_smaller, order_same_size, order_total_default,
    order_total_reversed; the example: order_example_seed, order_example_nodes,
    order_example_default, order_example_reversed (node counts). From exercise 8.4:
    order_only_rules (text: the rules that fired in one order only, each in backticks).
    Asserts what chapter 8 says of them: every result correct, the counts add up, some pairs
    differ but few (a tenth at most), neither order always gives the smaller graph (each wins
    at least once), the example's two sizes differ, and (x+c1)*c2 is among the rules that
    fired in one order only."""
    text = read(out, "demos/order.txt")
    programs = int(search(r"^the rule order: (\d+) index programs", text, "order")[1])
    put("order_programs", programs)
    put("order_inputs", int(search(r"^inputs: (\d+) \(", text, "order")[1]))
    pattern = r"^both results correct on every input, for every program: (.*)$"
    verdict = search(pattern, text, "order")
    expect(verdict[1] == "yes", f"order: {verdict[1]}")
    match = search(r"^same node: (\d+), different: (\d+)$", text, "order")
    same, different = int(match[1]), int(match[2])
    put("order_same", same)
    put("order_different", different)
    expect(same + different == programs and different > 0, "order: the pairs do not add up")
    expect(10 * different <= programs, "order: more than a tenth of the pairs differ")
    default = int(search(r"from the default order (\d+) times,$", text, "order")[1])
    match = search(r"^from the reversed order (\d+) times; same size (\d+) times$", text, "order")
    reverse, same_size = int(match[1]), int(match[2])
    put("order_default_smaller", default)
    put("order_reversed_smaller", reverse)
    put("order_same_size", same_size)
    expect(default + reverse + same_size == different, "order: the sizes do not add up")
    expect(default > 0 and reverse > 0, "order: one order always gives the smaller graph")
    match = search(r"^total nodes: default ([\d,]+), reversed ([\d,]+)$", text, "order")
    put("order_total_default", integer(match[1]))
    put("order_total_reversed", integer(match[2]))
    match = search(r"^example: seed (\d+), (\d+) nodes$", text, "order")
    put("order_example_seed", int(match[1]))
    put("order_example_nodes", int(match[2]))
    sizes = [
        int(search(rf"^  {name}: +.*  \((\d+) nodes\)$", text, "order example")[1])
        for name in ("default", "reversed")
    ]
    put("order_example_default", sizes[0])
    put("order_example_reversed", sizes[1])
    expect(sizes[0] != sizes[1], "order: the example's two results have the same size")
    answers = read(out, "exercises/solutions.txt")
    match = search(r"^ +rules that fired in one order only: \[(.*)\]$", answers, "ex 8.4")
    names = re.findall(r"'([^']*)'", match[1])
    quoted = [f"`{name}`" for name in names]
    put("order_only_rules", " and ".join(quoted) if len(quoted) < 3 else ", ".join(quoted))
    expect("(x+c1)*c2" in names, "exercise 8.4: (x+c1)*c2 fired in both orders")


COLLECTORS = [
    collect_code,
    collect_short,
    collect_counts,
    collect_figures,
    collect_pytest,
    collect_proofs,
    collect_mutants,
    collect_matrix,
    collect_exercises,
    collect_bench,
    collect_machine,
    collect_run_time,
    collect_chain,
    collect_split,
    collect_matcher,
    collect_rule_proofs,
    collect_engine,
    collect_order,
    collect_fold_demo,
]


def collect(out: Path) -> dict:
    NUMBERS.clear()
    FAILED.clear()
    MISSING.clear()
    for collector in COLLECTORS:
        try:
            collector(out)
        except Missing as missing:
            MISSING.append(str(missing))
        except (ValueError, KeyError, TypeError) as error:
            FAILED.append(f"{collector.__name__}: an output is not in the expected form: {error!r}")
    return {"_missing": MISSING[:], **dict(sorted(NUMBERS.items()))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out", help="the saved outputs")
    parser.add_argument("--list", action="store_true", help="print every key and its value")
    args = parser.parse_args(argv)
    numbers = collect(args.out)
    target = args.out / "numbers.json"
    target.write_text(json.dumps(numbers, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.list:
        for key, value in numbers.items():
            print(f"{key} = {value!r}")
    for name in MISSING:
        print(f"make_numbers: warning: {name} is missing: its numbers are left out")
    for failure in FAILED:
        print(f"make_numbers: FAILED: {failure}", file=sys.stderr)
    print(f"make_numbers: wrote {len(numbers) - 1} numbers to {target}")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
