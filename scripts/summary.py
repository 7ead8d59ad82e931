"""Add up the checks of a test run from its saved output, and say whether anything is missing.

    python scripts/summary.py [COUNTS_FILE ...] [--proofs F] [--mutants F] [--allow-missing]

Reads only machine-readable lines, so that no count is ever typed by hand: `COUNT <group>
<layer> <n>` and `FIGURE rules_default|rules_fired_<layer> <names>` (book/protocol.py), from
out/tests/counts.txt unless files are named; `CLAIMS <total> <as-expected> <refuted>`, the last
of tests/proofs.py; `MUTANTS <total> <caught>`, the last of the planted bugs' matrix. A layer
that reports twice counts once, by its last line (a rerun replaces a count, never adds to it).
Fails when a group, the claims or the mutants are missing (--allow-missing, for quick runs,
only warns), a claim is not as expected, a planted bug survived, or a group is unknown. The
numbers the book quotes from the test run are stated here (book_numbers).
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

from book import protocol
from book.protocol import GROUPS

OUT = Path(__file__).resolve().parents[1] / "out"

BROKEN_DOWN = ("pipeline", "reliability")  # groups whose layers are listed under their row
WIDTH = 11  # the count column: room for "999,999,999"

COUNT = re.compile(r"COUNT (\S+) (\S+) (\d+)")
FIGURE = re.compile(r"FIGURE (rules_default|rules_fired_\S+) (.*)")
CLAIMS = re.compile(r"CLAIMS (\d+) (\d+) (\d+)")
MUTANTS = re.compile(r"MUTANTS (\d+) (\d+)")


def lines_of(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]


def read_counts(paths: list[Path], problems: list[str], figures: dict) -> dict:
    """{group: {layer: n}} from the COUNT lines, and the FIGURE lines of the rules into figures
    (key -> list of names); the last line of a layer or a figure wins."""
    layers: dict[str, dict[str, int]] = {}
    for path in paths:
        if not path.exists():
            problems.append(f"{path}: no such file")
            continue
        for line in lines_of(path):
            figure = FIGURE.fullmatch(line)
            if figure:
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
    found = [m for m in map(pattern.fullmatch, lines_of(path)) if m] if path.exists() else []
    return tuple(int(x) for x in found[-1].groups()) if found else None


def summarise(options) -> dict:
    """Every figure of the summary, plus what is missing and what failed."""
    problems: list[str] = []
    figures: dict[str, list] = {}
    layers = read_counts([Path(name) for name in options.counts], problems, figures)
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
        "groups": groups,
        "layers": layers,
        "total": total,
        "never_fired": never,
        "claims": claims,
        "mutants": mutants,
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
        total, as_expected, refuted = summary["claims"]
        lines.append(
            f"{total:>{WIDTH},}  z3 claims: {as_expected:,} as expected, "
            f"{refuted:,} counterexamples to wrong rules"
        )
    if summary["mutants"]:
        total, caught = summary["mutants"]
        lines.append(f"{total:>{WIDTH},}  planted bugs: {caught:,} caught")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("counts", nargs="*", default=[OUT / "tests" / "counts.txt"])
    parser.add_argument("--proofs", default=OUT / "proofs" / "proofs.txt", help="CLAIMS line")
    parser.add_argument("--mutants", default=OUT / "tests" / "mutant_matrix.txt", help="MUTANTS")
    parser.add_argument("--allow-missing", action="store_true", help="warn about missing parts")
    options = parser.parse_args(argv)
    summary = summarise(options)
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
