"""Add up the checks of a test run from its saved output, and say whether anything is missing.

Reads only machine-readable lines, so that no figure is ever typed by hand:
  COUNT <group> <layer> <n>                  printed by every test layer (book/protocol.py)
  FIGURE rules_default <names as JSON>       the default matcher's rules, and the rules that
  FIGURE rules_fired_<layer> <names>         fired in each pipeline layer (tests/test_pipeline.py)
  CLAIMS <total> <as-expected> <refuted>     the last line of tests/proofs.py
  MUTANTS <total> <caught>                   the last line of the planted bugs' output
Other lines, the `@@ number` lines of a test run's counts file among them, are skipped.

Where the COUNT lines come from: the files named on the command line; with none, the file
`out/tests/counts.txt` when it exists (pytest appends to it when UOPC_COUNTS names it), else
every `out/tests/*.txt` that holds COUNT lines (the saved outputs of the test scripts). When a
layer reports more than once (a run repeated into the same file), its last line counts: a
rerun replaces a count, it never adds to it. The CLAIMS line is read from out/proofs/proofs.txt
and the MUTANTS line from out/tests/mutant_matrix.txt (or out/tests/mutants.txt when there is
no matrix), or from the files given with --proofs and --mutants; the last such line of a file
counts.

Prints one row per group, the count right-aligned with thousands separators, the pipeline's
layers below it, the total, then the z3 claims and the planted bugs. Exits 1 when a group, the
claims or the mutants are missing (with --allow-missing, for quick runs, it only warns), when a
claim is not as expected, when a mutant survived, or when a line names an unknown group. With
--json it prints the same figures as one JSON object.

The numbers the book quotes from the test run are stated here, with book/protocol.state (under
BOOK_NUMBERS=1, as the build runs it, they are printed as `@@ number` lines, which the build
files beside the output): checks_<group>, checks_pipeline_<layer>, checks_total,
checks_total_millions, and rules_never_fired and rules_never_fired_names, the default rules that
fired in none of the pipeline layers.

Usage: python scripts/summary.py [COUNTS_FILE ...] [--proofs F] [--mutants F]
                                 [--allow-missing] [--json]
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

from book import protocol

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_COUNTS = ROOT / "out" / "tests" / "counts.txt"
DEFAULT_PROOFS = ROOT / "out" / "proofs" / "proofs.txt"
MUTANT_FILES = [ROOT / "out" / "tests" / name for name in ("mutant_matrix.txt", "mutants.txt")]
DEFAULT_MUTANTS = next((path for path in MUTANT_FILES if path.exists()), MUTANT_FILES[0])

# group -> row label, in the order of the rows (the groups of book/protocol.py)
GROUPS = {
    "semantics-numpy": "semantics against NumPy",
    "semantics-c": "semantics against C",
    "unit": "rule unit cases and point checks",
    "pipeline": "pipeline",
    "memory": "memory programs",
    "reliability": "reliability: fuzzed command lines, call names, numeric fuzz",
}
BROKEN_DOWN = ("pipeline", "reliability")  # groups whose layers are listed under their row
WIDTH = 11  # the count column: room for "999,999,999"

COUNT = re.compile(r"COUNT (\S+) (\S+) (\d+)")
FIGURE = re.compile(r"FIGURE (rules_default|rules_fired_\S+) (.*)")
CLAIMS = re.compile(r"CLAIMS (\d+) (\d+) (\d+)")
MUTANTS = re.compile(r"MUTANTS (\d+) (\d+)")


def count_files(given: list[str]) -> list[Path]:
    """The files to read COUNT lines from (see the module docstring for the default)."""
    if given:
        return [Path(name) for name in given]
    if DEFAULT_COUNTS.exists():
        return [DEFAULT_COUNTS]
    folder = DEFAULT_COUNTS.parent
    candidates = sorted(folder.glob("*.txt")) if folder.is_dir() else []
    return [path for path in candidates if any(map(COUNT.fullmatch, _lines(path)))]


def _lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]


def read_counts(paths: list[Path], problems: list[str], figures: dict | None = None) -> dict:
    """{group: {layer: n}} from the COUNT lines, the last line of a layer winning; the FIGURE
    lines of the rules go into figures (key -> list of names), the last line winning too."""
    layers: dict[str, dict[str, int]] = {}
    for path in paths:
        if not path.exists():
            problems.append(f"{path}: no such file")
            continue
        for line in _lines(path):
            figure = FIGURE.fullmatch(line)
            if figure and figures is not None:
                figures[figure[1]] = json.loads(figure[2])
            match = COUNT.fullmatch(line)
            if not match:
                continue
            group, layer, n = match.group(1), match.group(2), int(match.group(3))
            if group not in GROUPS:
                problems.append(f"{path}: unknown group {group!r} in {line!r}")
                continue
            layers.setdefault(group, {})[layer] = n
    return layers


def read_last(path: Path, pattern: re.Pattern):
    """The numbers of the last line of path matching pattern, or None."""
    if not path.exists():
        return None
    found = [m for m in map(pattern.fullmatch, _lines(path)) if m]
    return tuple(int(x) for x in found[-1].groups()) if found else None


def _named(names: tuple, numbers):
    return None if numbers is None else dict(zip(names, numbers, strict=True))


def summarise(options) -> dict:
    """Every figure of the summary, plus what is missing and what failed."""
    problems: list[str] = []
    files = count_files(options.counts)
    figures: dict[str, list] = {}
    layers = read_counts(files, problems, figures)
    groups = {group: sum(layers[group].values()) for group in GROUPS if group in layers}
    missing = [group for group in GROUPS if group not in layers]
    never = never_fired(figures)
    if never is None:
        missing.append("FIGURE lines of the rules that fired")
    claims = read_last(Path(options.proofs), CLAIMS)
    mutants = read_last(Path(options.mutants), MUTANTS)
    if claims is None:
        missing.append(f"CLAIMS line ({options.proofs})")
    elif claims[1] != claims[0]:
        problems.append(f"{claims[0] - claims[1]} of {claims[0]} z3 claims are not as expected")
    if mutants is None:
        missing.append(f"MUTANTS line ({options.mutants})")
    elif mutants[1] != mutants[0]:
        problems.append(f"{mutants[0] - mutants[1]} of {mutants[0]} planted bugs survived")
    total = sum(groups.values())  # each row is the sum of its layers, so this is every count
    return {
        "files": [str(path) for path in files],
        "groups": groups,
        "layers": layers,
        "total": total,
        "never_fired": never,
        "claims": _named(("total", "as_expected", "refuted"), claims),
        "mutants": _named(("total", "caught"), mutants),
        "missing": missing,
        "problems": problems,
    }


def never_fired(figures: dict) -> list[str] | None:
    """The default matcher's rules that fired in none of the pipeline layers, in the matcher's
    order; None without the FIGURE lines (rules_default and one rules_fired_<layer> at least)."""
    fired = [set(names) for key, names in figures.items() if key.startswith("rules_fired_")]
    if "rules_default" not in figures or not fired:
        return None
    return [name for name in figures["rules_default"] if not any(name in f for f in fired)]


def book_numbers(summary: dict) -> list[tuple]:
    """(key, value, meaning) of every number the book quotes from the test run."""
    numbers = []
    for group, total in summary["groups"].items():
        meaning = f"checks of the test run in the group {group}: {GROUPS[group]}"
        numbers.append(("checks_" + group.replace("-", "_"), total, meaning))
    for layer, n in summary["layers"].get("pipeline", {}).items():
        key = "checks_pipeline_" + layer.replace("-", "_")
        numbers.append((key, n, f"checks of the test run in the pipeline layer {layer}"))
    total = summary["total"]
    numbers.append(("checks_total", total, "checks of the test run, every group"))
    millions = math.floor(total / 100_000) / 10
    numbers.append(("checks_total_millions", millions, "checks_total in millions, rounded down"))
    never = summary["never_fired"]
    if never is not None:
        meaning = "default rules that fired in none of the pipeline layers"
        numbers.append(("rules_never_fired", len(never), meaning))
        names = ", ".join(never) if never else "none"
        meaning = "their names (the default rules that fired in no pipeline layer), or none"
        numbers.append(("rules_never_fired_names", names, meaning))
    return numbers


def rows(summary: dict) -> list[str]:
    """The printed table: count column first, then the description."""
    lines = []
    for group, label in GROUPS.items():
        if group not in summary["groups"]:
            lines.append(f"{'missing':>{WIDTH}}  {label}")
            continue
        lines.append(f"{summary['groups'][group]:>{WIDTH},}  {label}")
        if group in BROKEN_DOWN:
            for layer, n in summary["layers"][group].items():
                lines.append(f"{'':>{WIDTH}}  {n:>{WIDTH},}  {layer}")
    lines.append(f"{summary['total']:>{WIDTH},}  total checks")
    if summary["claims"]:
        c = summary["claims"]
        lines.append(
            f"{c['total']:>{WIDTH},}  z3 claims: {c['as_expected']:,} as expected, "
            f"{c['refuted']:,} counterexamples to wrong rules"
        )
    if summary["mutants"]:
        m = summary["mutants"]
        lines.append(f"{m['total']:>{WIDTH},}  planted bugs: {m['caught']:,} caught")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("counts", nargs="*", help="files with COUNT lines (default: see above)")
    parser.add_argument("--proofs", default=str(DEFAULT_PROOFS), help="file with the CLAIMS line")
    parser.add_argument("--mutants", default=str(DEFAULT_MUTANTS), help="file with MUTANTS")
    parser.add_argument("--allow-missing", action="store_true", help="warn about missing parts")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)
    summary = summarise(options)
    if options.json:
        print(json.dumps(summary, indent=2))
    else:
        print("\n".join(rows(summary)))
        for key, value, meaning in book_numbers(summary):
            protocol.state(key, value, meaning)
    failed = bool(summary["problems"])
    for problem in summary["problems"]:
        print(f"summary: FAILED: {problem}", file=sys.stderr)
    if summary["missing"]:
        word = "warning" if options.allow_missing else "FAILED"
        print(f"summary: {word}: missing {', '.join(summary['missing'])}", file=sys.stderr)
        failed = failed or not options.allow_missing
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
