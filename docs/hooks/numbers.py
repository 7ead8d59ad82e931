"""mkdocs hook: generated numbers in the prose, and the generated figures in the site.

Why a hook: mkdocs-macros-plugin is the maintained way to put values in a page, but it reads the
whole page as a template: it catches a mistyped key only when made strict, and then every `{{`
or `{#` in prose about a compiler is a template error. Here only `{{ n.KEY }}` is read.

`{{ n.KEY }}` or `{{ n.KEY:SPEC }}` (a Python format spec) becomes the value of KEY in
out/numbers.json, on the page's own markdown, before the includes are expanded. A value is a
number or a one-line string; a string goes into the prose as literal text (what Markdown, the
extensions or HTML would read as markup becomes a character reference) and into a code span or
fenced block as it is. An unknown key, a malformed value, a spec that does not apply, or a
`{{ n.` left after the replacement stops the build with one message naming the page and the key.
Every file of out/figures/ is published as figures/NAME in the site.
"""

import json
import math
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from book.files import FENCE

PLACEHOLDER = re.compile(r"\{\{\s*n\.([A-Za-z0-9_]+)\s*(?::([^}]*?))?\s*\}\}")
LEFTOVER = re.compile(r"\{\{\s*n\.")
CODE_SPAN = re.compile(r"(`+).+?\1")
# In the prose, the characters that may start markup anywhere in a line, as character references:
# Markdown (\ ` * _ [ ] < > &), attr_list and the placeholders ({ }), tables (|), pymdownx.caret
# and the powers hook (^), pymdownx.tilde should it be added (~), headings (#).
ESCAPES = {char: f"&#{ord(char)};" for char in "\\`*_[]{}|^~#"}
ESCAPES.update({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
# ... and those that start markup only at the start of a line: a list item (- + *, "1." "1)"),
# a setext heading's underline (= -), a blockquote (>).
LINE_START = re.compile(r"[-+=]|\d+[.)](?=\s|$)")
# What may stand before a placeholder that still starts a line: indentation and list or quote
# markers ("- - x" is a list in a list).
BLOCK_START = re.compile(r"\s*(?:(?:[-*+>]|\d+[.)])\s+)*")
STATE = {}


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_config(config):
    path = _root(config) / "out" / "numbers.json"
    if not path.exists():
        raise PluginError(f"{path} is missing: run ./run_all.sh (or scripts/make_numbers.py)")
    try:
        numbers = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:  # UnicodeDecodeError too: it is a ValueError
        raise PluginError(f"{path} is not JSON: {error}") from None
    except RecursionError:  # json reads nesting by recursion: [[[[... 100,000 deep
        raise PluginError(f"{path} is nested too deeply to be a JSON object of numbers") from None
    if not isinstance(numbers, dict):
        raise PluginError(f"{path} is not a JSON object of numbers")
    missing = numbers.pop("_missing", [])
    # the names are joined into a message: a number there would stop the build with a TypeError
    if not isinstance(missing, list) or not all(isinstance(name, str) for name in missing):
        raise PluginError(f"{path}: _missing is {missing!r:.60}, not a list of output names")
    STATE["missing"], STATE["numbers"] = missing, numbers
    return config


def malformed(value) -> str | None:
    """What is wrong with a value a page cannot show, or None for a number or a plain string."""
    if value is None:
        return "is null"
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return f"is {type(value).__name__} {value!r}, not a number or a string"
    if isinstance(value, float) and not math.isfinite(value):
        return f"is {value!r}, not a finite number"
    if isinstance(value, str) and any(ord(char) < 32 or ord(char) == 127 for char in value):
        return f"is {value!r}: a string with a line break or a control character"
    return None


def escape(text: str, at_line_start: bool) -> str:
    """text as literal prose: what could be read as markup becomes a character reference."""
    text = "".join(ESCAPES.get(char, char) for char in text)
    start = LINE_START.match(text) if at_line_start else None
    if start:  # "-" -> "&#45;", "1." -> "1&#46;"
        end = start.end() - 1
        text = f"{text[:end]}&#{ord(text[end])};{text[end + 1 :]}"
    return text


def _value(match: re.Match, where: str, code: bool, at_line_start: bool) -> str:
    key, spec = match.group(1), match.group(2)
    numbers = STATE["numbers"]
    if key not in numbers:
        hint = ""
        if STATE["missing"]:
            hint = f" (outputs not made yet: {', '.join(STATE['missing'])})"
        raise PluginError(f"{where}: unknown number {{{{ n.{key} }}}} in out/numbers.json{hint}")
    value = numbers[key]
    problem = malformed(value)
    if problem:
        raise PluginError(f"{where}: number {key} in out/numbers.json {problem}")
    try:
        text = format(value, spec.strip() if spec else "")
    except (ValueError, TypeError) as error:
        raise PluginError(f"{where}: {{{{ n.{key}:{spec} }}}} on {value!r}: {error}") from None
    if not isinstance(value, str):
        return text
    if code:
        if "`" in text:
            raise PluginError(f"{where}: number {key} = {value!r} has a backtick, in code")
        return text
    return escape(text, at_line_start)


def _code_spans(line: str) -> list[tuple[int, int]]:
    return [span.span() for span in CODE_SPAN.finditer(line)]


def replace(markdown: str, where: str) -> str:
    """The page with every placeholder replaced: raw in fenced blocks and code spans (literal
    there already), escaped in the prose."""
    lines, fence = [], None
    for line in markdown.split("\n"):
        opened = FENCE.match(line)
        in_code = fence is not None or opened is not None  # a fence line's title is not prose
        if opened and (fence is None or opened.group(2).startswith(fence)):
            fence = opened.group(2)[:3] if fence is None else None
        spans = [] if in_code else _code_spans(line)

        def put(match: re.Match, line=line, spans=spans, in_code=in_code) -> str:
            code = in_code or any(start < match.start() < end for start, end in spans)
            at_start = BLOCK_START.fullmatch(line[: match.start()]) is not None
            return _value(match, where, code, at_start)

        lines.append(PLACEHOLDER.sub(put, line))
    return "\n".join(lines)


def on_page_markdown(markdown, page, config, files):
    where = page.file.src_uri
    text = replace(markdown, where)
    leftover = LEFTOVER.search(text)
    if leftover:
        line = text.count("\n", 0, leftover.start()) + 1
        raise PluginError(f"{where}:{line}: a '{{{{ n.' placeholder that does not parse")
    return text


def on_files(files, config):
    folder = _root(config) / "out" / "figures"
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        uri = f"figures/{path.name}"
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"docs/{uri} would hide the generated out/figures/{path.name}")
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files
