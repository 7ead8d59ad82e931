"""The output protocol: what a program of the book prints for the build, and how it is read.

Written here and read here, nowhere else (docs/CONTRIBUTING.md explains the conventions): the
block markers (`block`), the stated numbers (`state`, filed by save_output.py through
`parse_output`), the check counts and figures of a test run (`report`, `figure`, added up by
scripts/summary.py), the sizes (`size`), MACHINE_MARK and the `# sources:` header of a
hash-checked output. In a test run (UOPC_COUNTS names a file) counts, figures and numbers go
to that file too, since pytest captures standard output; a program run by hand prints no
number lines (only BOOK_NUMBERS=1, set by the build, does).
"""

import hashlib
import json
import math
import os
import re

MACHINE_MARK = "(this machine)"
BLOCK_START = "@@ block "
BLOCK_LINE = re.compile(r"@@ block ([a-z][-_0-9a-z]*)")  # the whole line, nothing else
NUMBER_START = "@@ number "
NUMBER_KEY = re.compile(r"[a-z][a-z0-9_]*")
# The entry of a numbers file that names the whole output it came with: the first HASH_LENGTH
# hex digits of the SHA-256 of that output's text (a numbers file from another run is stale).
NUMBERS_STAMP = "_output"
HASH_LENGTH = 12
HEADER = re.compile(r"# sources: ([0-9a-f]{12})\n")


def block_line(name: str) -> str:
    """The marker line of block `name` (without its line break), for a program that writes its
    output through a function of its own; `block` prints it."""
    line = BLOCK_START + name
    if not BLOCK_LINE.fullmatch(line):
        raise ValueError(f"block name {name!r} does not match [a-z][-_0-9a-z]*")
    return line


def block(name: str) -> None:
    """Start a quoted block: the book build cuts the output at these lines and drops them."""
    print(block_line(name), flush=True)


def header_line(sources_hash: str) -> str:
    """The first line of a hash-checked output."""
    return f"# sources: {sources_hash}\n"


def read_header(path) -> str | None:
    """The hash on the first line of a saved output, or None."""
    with open(path, encoding="utf-8") as file:
        match = HEADER.fullmatch(file.readline())
    return match.group(1) if match else None


def is_machine_block(text: str) -> bool:
    """A block depends on the machine when its first line ends with the machine mark."""
    first = text.split("\n", 1)[0]
    return first.rstrip().endswith(MACHINE_MARK)


def full() -> bool:
    """True under `pytest --full` or `UOPC_FULL=1`: the book's sizes."""
    return os.environ.get("UOPC_FULL") == "1"


def size(quick, full_size):
    return full_size if full() else quick


# The groups a test layer's count belongs to, with the label of their row in scripts/summary.py.
GROUPS = {
    "semantics-numpy": "semantics against NumPy",
    "semantics-c": "semantics against C",
    "unit": "rule unit cases and point checks",
    "pipeline": "pipeline",
    "memory": "memory programs",
    "reliability": "reliability: fuzzed command lines, call names, numeric fuzz",
}


def report(group: str, layer: str, checks: int) -> str:
    """Print and record one count line; a layer with no checks is a broken layer."""
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}; expected one of {tuple(GROUPS)}")
    if checks <= 0:
        raise AssertionError(f"layer {layer} made no checks")
    return _record(f"COUNT {group} {layer} {checks}")


def figure(key: str, value) -> str:
    """Print and record one figure (a number, a string or a list of strings) under key."""
    if not key.replace("_", "").isalnum() or not key.islower():
        raise ValueError(f"figure key {key!r} is not snake_case")
    return _record(f"FIGURE {key} {json.dumps(value, ensure_ascii=False)}")


def state(key: str, value, meaning: str) -> str:
    """State a number the book quotes: key (snake_case), value (int, float or str) and one
    line saying what it is (what it counts, and out of what)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise TypeError(f"number {key}: {value!r} is not an int, a float or a str")
    if not key.replace("_", "").isalnum() or not key.islower() or not key[0].isalpha():
        raise ValueError(f"number key {key!r} is not snake_case")
    if not meaning.strip() or "\n" in meaning:
        raise ValueError(f"number {key}: its meaning must be one line of words")
    line = f"{NUMBER_START}{key} = {json.dumps(value, ensure_ascii=False)}  # {meaning.strip()}"
    if os.environ.get("UOPC_COUNTS"):
        return _record(line)
    if os.environ.get("BOOK_NUMBERS") == "1":
        print(line, flush=True)
    return line


def _record(line: str) -> str:
    if "\n" in line:
        raise ValueError(f"a count or figure line holds a line break: {line!r}")
    print(line)
    path = os.environ.get("UOPC_COUNTS")
    if path:
        # one short write in append mode: lines from parallel workers never interleave
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
    return line


def significant(value: float, digits: int) -> str:
    """value to `digits` significant digits, with thousands separators: 3821.7, 3 -> '3,820'."""
    if value == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, places)
    places = digits - 1 - math.floor(math.log10(abs(rounded)))  # 9.996 rounds up to 10
    return f"{rounded:,.0f}" if places <= 0 else f"{rounded:,.{places}f}"


def about(value: float) -> str:
    """Two significant digits, for a sentence that says "about": 3821.7 -> '3,800'."""
    return significant(value, 2)


class ProtocolError(ValueError):
    """A malformed marker or number line, an empty or repeated block, a number stated twice."""


def output_stamp(data: bytes) -> str:
    """The stamp a numbers file carries of the whole output it came with (NUMBERS_STAMP)."""
    return hashlib.sha256(data).hexdigest()[:HASH_LENGTH]


def parse_output(text: str) -> tuple[str, dict[str, str], dict[str, dict]]:
    """(the text without marker and number lines, {block name: its text}, {key: {"value": ...,
    "meaning": ...}}) of a program's output; a block runs to the next marker or the end. An
    empty or repeated block would show an empty or wrong block on a page: both are errors."""
    whole, blocks, numbers, current = [], {}, {}, None
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\n")
        if line.startswith(NUMBER_START):
            key, value, meaning = parse_number_line(line)
            stated = {"value": value, "meaning": meaning}
            if numbers.setdefault(key, stated) != stated:
                raise ProtocolError(f"number {key} is stated twice, as {numbers[key]} and {stated}")
        elif stripped.startswith(BLOCK_START.strip()):
            match = BLOCK_LINE.fullmatch(stripped)
            if not match:
                raise ProtocolError(f"malformed marker line {stripped!r} (NAME: [a-z][-_0-9a-z]*)")
            current = match.group(1)
            if current in blocks:
                raise ProtocolError(f"block {current!r} is printed twice")
            blocks[current] = ""
        else:
            whole.append(line)
            if current is not None:
                blocks[current] += line
    for name, block in blocks.items():
        if not block.strip():
            raise ProtocolError(f"block {name!r} is empty")
    return "".join(whole), blocks, dict(sorted(numbers.items()))


def parse_number_line(line: str) -> tuple[str, int | float | str, str]:
    """(key, value, meaning) of one `@@ number` line; ProtocolError names what is wrong."""
    rest = line.rstrip("\n")[len(NUMBER_START) :]
    key, equals, text = rest.partition(" = ")
    if not NUMBER_KEY.fullmatch(key) or not equals:
        raise ProtocolError(
            f"malformed number line {line.strip()!r} (@@ number KEY = VALUE  # ...)"
        )
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as error:
        raise ProtocolError(f"number {key}: the value is not JSON ({error})") from None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ProtocolError(f"number {key}: {value!r} is not a number or a string")
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        raise ProtocolError(f"number {key}: {value!r} is not a finite number")
    meaning = re.fullmatch(r"\s+#\s+(\S.*)", text[end:])
    if not meaning:
        raise ProtocolError(f"number {key}: no meaning after the value (  # what it counts)")
    return key, value, meaning.group(1).strip()
