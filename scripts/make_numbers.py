"""Every number the prose states, in one file: out/numbers.json, and its reference list.

    python scripts/make_numbers.py [--out DIR]

Nothing is parsed here: each number is stated by the program that computes it
(book/protocol.state) and filed by save_output.py as out/KIND/STEM.numbers.json. This merges
those files with the few values read from the code itself (code_numbers), the records of the
last run and the count of the proofs' claim groups, into out/numbers.json ({key: value}, with
"_missing": the programs whose output is not there yet, which the hook names when a page asks
for their keys) and out/numbers-reference.md (each key's meaning, producer and value). A key
stated twice, or a value that is not a number or a string, fails it; the checks a number must
pass are made by its producer.
"""

import argparse
import ast
import json
import math
import re
import sys
import tomllib
from pathlib import Path

from book.files import ROOT, stamp_problem, stop_on_sigterm, write_atomic
from book.producers import PRODUCERS, RUN_RECORDS
from book.protocol import NUMBERS_STAMP, about  # about: the rounding every producer uses


class NumbersError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Read from the code itself (read as text or syntax trees, never imported)
# ---------------------------------------------------------------------------------------------


def module_tree(name: str) -> ast.Module:
    return ast.parse((ROOT / "uopc" / name).read_text(encoding="utf-8"))


def assigned(tree: ast.Module, name: str) -> ast.expr:
    """The value of the module-level assignment `name = ...`."""
    (value,) = (
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == name
    )
    return value


def constant(tree: ast.Module, name: str) -> int:
    """The value of the module-level `name = <int arithmetic>`, such as `2**24` or `64 * 1024`."""
    value = assigned(tree, name)
    allowed = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop)
    if not all(isinstance(node, allowed) for node in ast.walk(value)):
        raise NumbersError(f"{name} = {ast.unparse(value)} is not integer arithmetic")
    number = eval(compile(ast.Expression(value), name, "eval"), {"__builtins__": {}})
    if not isinstance(number, int):
        raise NumbersError(f"{name} = {ast.unparse(value)} is not an integer")
    return number


def exponent(number: int, name: str) -> int:
    """k for number == 2**k; the prose writes such a limit as a power."""
    if number <= 0 or number & (number - 1):
        raise NumbersError(f"{name} = {number} is not a power of two")
    return number.bit_length() - 1


def code_numbers() -> dict[str, tuple[object, str]]:
    """{key: (value, meaning)} of the values read from the code."""
    found = {}

    def put(key, value, meaning):
        found[key] = (value, meaning)

    counts = {
        path.stem: len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted((ROOT / "uopc").glob("*.py"))
    }
    for stem, lines in counts.items():
        key = "lines_main" if stem == "__main__" else f"lines_{stem.strip('_')}"
        put(key, lines, f"lines of uopc/{stem}.py")
    put("textfmt_lines", counts["textfmt"], "lines of uopc/textfmt.py")
    compiler = {stem: n for stem, n in counts.items() if stem != "__main__"}
    put("uopc_lines", sum(compiler.values()), "lines of the compiler (uopc/ less __main__.py)")
    put("uopc_lines_about", about(sum(compiler.values())), "the same, two digits")
    put("uopc_files", len(compiler), "files of the compiler (uopc/ less __main__.py)")
    overlay = sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted((ROOT / "uopc" / "speed").glob("*.py"))
    )
    put("lines_speed", overlay, "lines of the speed overlay, uopc/speed/ (appendix G)")
    ops = module_tree("ops.py")
    (members,) = (n for n in ops.body if isinstance(n, ast.ClassDef) and n.name == "Ops")
    put("ops_total", sum("enum.auto()" in ast.unparse(n) for n in members.body), "members of Ops")
    put("alu_ops", len(assigned(ops, "ALU").elts), "ops in ALU, those that compute values")
    names = [ast.unparse(n.targets[0]) for n in members.body if isinstance(n, ast.Assign)]
    names = [name for name in names if name != "__hash__"]
    put("ops_value", names.index("BUFFER"), "ops of chapter 3's table: those before BUFFER")
    flags = " ".join(ast.literal_eval(assigned(module_tree("runtime.py"), "CFLAGS")))
    put("runtime_cflags", flags, "the flags the runtime compiles with")
    rewrite = module_tree("rewrite.py")
    base = ast.literal_eval(assigned(rewrite, "BASE_LIMIT"))
    put("rewrite_base_limit", base, "rewrite steps every graph may take")
    per_node = ast.literal_eval(assigned(rewrite, "LIMIT_PER_NODE"))
    put("rewrite_limit_per_node", per_node, "rewrite steps added per node of the graph")
    limits = (  # key, module, constant: the limits the prose writes as 2^k
        ("max_elements_log2", "textfmt.py", "MAX_ELEMENTS"),
        ("max_text_bytes_log2", "textfmt.py", "MAX_TEXT_BYTES"),
        ("max_scratch_elements_log2", "typecheck.py", "MAX_SCRATCH_ELEMENTS"),
    )
    for key, module, name in limits:
        power = exponent(constant(module_tree(module), name), name)
        put(key, power, f"k of {name} = 2^k in uopc/{module}")
    stack = constant(module_tree("render.py"), "STACK_SCRATCH_BYTES")
    if stack % 1024:
        raise NumbersError(f"STACK_SCRATCH_BYTES = {stack} is not a whole number of KiB")
    put("stack_scratch_kib", stack // 1024, "STACK_SCRATCH_BYTES of uopc/render.py, in KiB")
    max_terms = constant(module_tree("further.py"), "MAX_TERMS")
    put("further_max_terms", max_terms, "MAX_TERMS of uopc/further.py: terms a sum may have")
    steps = len(list((ROOT / "code" / "short").glob("s[0-9][0-9]_*.py")))
    put("short_programs", steps, "programs of the short path in code/short/")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    python = re.search(r"([\d.]+)", project["project"]["requires-python"])[1]
    put("python_min", python, "the Python version pyproject.toml requires")
    pins = [ROOT / name for name in ("requirements.txt", "requirements-site.txt")]
    lines = [line for path in pins if path.exists() for line in path.read_text().splitlines()]
    for line in lines:
        match = re.match(r"([A-Za-z0-9_.\-]+)==([\w.]+)", line)
        if match:
            key = "pin_" + re.sub(r"[^a-z0-9]+", "_", match[1].lower())
            put(key, match[2], f"the version of {match[1]} requirements.txt pins")
    return found


# ---------------------------------------------------------------------------------------------
# The records of the last run
# ---------------------------------------------------------------------------------------------


def record_numbers(out: Path) -> dict[str, tuple[object, str]]:
    found = {}
    path = out / "tests" / "run_all_time.json"
    if path.exists():
        seconds = json.loads(path.read_text(encoding="utf-8"))["seconds"]
        hours, minutes = divmod(seconds // 60, 60)
        text = f"{minutes} min {seconds % 60} s"
        found["run_all_seconds"] = (seconds, "seconds of the last whole ./run_all.sh (record)")
        found["run_all_elapsed"] = (f"{hours} h {text}" if hours else text, "the same, as text")
    path = out / "tests" / "pytest.json"
    if path.exists():
        record = json.loads(path.read_text(encoding="utf-8"))
        found["tests_passed"] = (record["passed"], "tests passed in the last full test run")
        found["tests_seconds"] = (record["seconds"], "its seconds, as pytest reports (record)")
    return found


# ---------------------------------------------------------------------------------------------
# The merge
# ---------------------------------------------------------------------------------------------


def stated_files(out: Path) -> list[tuple[str, Path]]:
    """(producer name, its numbers file) for every program of the table that stated numbers."""
    paths = ((name, out / f"{name}.numbers.json") for name in PRODUCERS)
    return [(name, path) for name, path in paths if path.exists()]


def well_typed(value) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    return not isinstance(value, float) or math.isfinite(value)


def merge(out: Path) -> tuple[dict, list[str]]:
    """({key: (value, meaning, producer)}, missing producers); NumbersError on a conflict."""
    merged: dict[str, tuple] = {}

    def add(key, value, meaning, producer):
        if key in merged and merged[key][2] != producer:
            raise NumbersError(f"{key} is stated by {merged[key][2]} and by {producer}")
        if not well_typed(value):
            raise NumbersError(f"{key} ({producer}): {value!r} is not a number or a string")
        merged[key] = (value, meaning, producer)

    for key, (value, meaning) in code_numbers().items():
        add(key, value, meaning, "the code")
    for name, path in stated_files(out):
        problem = stamp_problem(path)
        if problem:
            raise NumbersError(f"out/{name}.numbers.json: {problem}")
        for key, stated in json.loads(path.read_text(encoding="utf-8")).items():
            if key != NUMBERS_STAMP:
                add(key, stated["value"], stated["meaning"], name)
    for key, (value, meaning) in record_numbers(out).items():
        add(key, value, meaning, "the run records")
    groups = [key for key, entry in merged.items() if entry[2] == "proofs/proofs"]
    groups = [key for key in groups if key.startswith("claims_group_")]
    if groups:  # step 13 lists the groups, one key each: their count is counted from those keys
        meaning = "groups of z3 claims: the claims_group_ keys tests/proofs.py stated"
        add("claims_groups", len(groups), meaning, "the merge")
    missing = [f"out/{name}.txt" for name in PRODUCERS if not (out / f"{name}.txt").exists()]
    return dict(sorted(merged.items())), missing


def reference(merged: dict) -> str:
    """The reference list of keys, as a markdown table (generated: never edit it)."""
    lines = [
        "# The numbers the book quotes",
        "",
        "Generated by scripts/make_numbers.py from what each program states; do not edit.",
        "",
        "| key | value | meaning | stated by |",
        "|---|---|---|---|",
    ]
    for key, (value, meaning, producer) in merged.items():
        shown = json.dumps(value, ensure_ascii=False).replace("|", "\\|")
        lines.append(f"| `{key}` | `{shown}` | {meaning.replace('|', '/')} | {producer} |")
    return "\n".join(lines) + "\n"


# Every output a page does not include but whose numbers it quotes counts as used (the docs
# lint reads this): the outputs of the programs that state numbers, and the run records.
INPUTS = sorted(
    [f"out/{name}.txt" for name, _ in stated_files(ROOT / "out")]
    + [f"out/{name}.numbers.json" for name, _ in stated_files(ROOT / "out")]
    + [f"out/{name}" for name in RUN_RECORDS]
)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "out", help="the saved outputs")
    args = parser.parse_args(argv)
    stop_on_sigterm()  # write_atomic removes its temporary file on the way out
    for name in ("numbers.json", "numbers-reference.md"):  # what a killed run left
        for leftover in args.out.glob(f".{name}.*.part"):
            leftover.unlink(missing_ok=True)
    try:
        merged, missing = merge(args.out)
    except NumbersError as error:
        print(f"make_numbers: FAILED: {error}", file=sys.stderr)
        return 1
    numbers = {"_missing": missing, **{key: entry[0] for key, entry in merged.items()}}
    text = json.dumps(numbers, indent=1, ensure_ascii=False) + "\n"
    write_atomic(args.out / "numbers.json", text)
    write_atomic(args.out / "numbers-reference.md", reference(merged))
    for name in missing:
        print(f"make_numbers: warning: {name} is missing: its numbers are left out")
    print(f"make_numbers: wrote {len(merged)} numbers to {args.out / 'numbers.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
