"""mkdocs hook: an included file that is missing, not UTF-8 or empty stops the build.

Why a hook: pymdownx.snippets (with check_paths) is the maintained tool and does the
including; it has no option to refuse an empty file or to name the page and line of a bad one.

pymdownx.snippets (`--8<-- "path"`, with check_paths) stops the build for a file that is not
there, but with a traceback, and for a file that is not UTF-8 with an error that names the page
and not the file; it puts an empty file in as nothing at all: the page would show an empty
listing or an empty output block without a word. This hook reads every include of a page, the
one-line form `--8<-- "path"` (a section `path:name` or a line range `path:1:3` names the same
file) and the block form (paths on the lines between two `--8<--` lines), and stops the build
with one message naming the page, the line and the file when the file is missing, is not UTF-8
text, or is empty or only whitespace. It runs on the page's own markdown, before snippets
expands it; a path is read where snippets reads it (its base_path).
scripts/lint_docs.py finds the same fault without building; this makes the build itself refuse.
"""

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

INCLUDE_LINE = re.compile(r"""\s*-{1,}8<-{1,}\s+(["'])(.+?)\1\s*""")  # the whole line
BLOCK_MARK = re.compile(r"\s*-{1,}8<-{1,}\s*")  # a line that opens or closes the block form


def base_paths(config) -> list[Path]:
    """Where pymdownx.snippets looks for an included path, as configured in mkdocs.yml."""
    root = Path(config.config_file_path).resolve().parent
    options = config.get("mdx_configs", {}).get("pymdownx.snippets", {})
    bases = options.get("base_path", ["."])
    bases = [bases] if isinstance(bases, str | Path) else list(bases)
    return [(root / str(base)).resolve() for base in bases] or [root]


def file_part(target: str) -> str:
    """The file of a snippet target: `out/x.txt`, `code/a.py:part` or `code/a.py:1:3`."""
    return re.sub(r"(?::[^:/\\]*)+$", "", target) if ":" in target else target


def includes(markdown: str):
    """(line number, path) of every include of a page, in both forms."""
    in_block = False
    for number, line in enumerate(markdown.split("\n"), 1):
        if BLOCK_MARK.fullmatch(line):
            in_block = not in_block
            continue
        if in_block:
            if line.strip() and not line.lstrip().startswith(";"):
                yield number, line.strip()
            continue
        match = INCLUDE_LINE.fullmatch(line)
        if match:
            yield number, match.group(2)


def on_page_markdown(markdown, page, config, files):
    where = page.file.src_uri
    bases = base_paths(config)
    for number, target in includes(markdown):
        if "://" in target:
            continue  # a URL: url_download is off, snippets refuses it itself
        name = file_part(target)
        found = [base / name for base in bases if (base / name).is_file()]
        if not found:  # snippets would stop the build too, but with a traceback
            raise PluginError(
                f"{where}:{number}: the included file {name} is missing "
                "(make it again: ./run_all.sh, or fix the path)"
            )
        check_text(found[0], f"{where}:{number}: the included file {name}")
    return markdown


def check_text(path: Path, what: str) -> None:
    """Stop the build when the file is not UTF-8 text or holds only whitespace."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:  # snippets' own error names the page, not the file
        raise PluginError(
            f"{what} is not UTF-8 text: byte {error.object[error.start]:#04x} at offset "
            f"{error.start} ({error.reason})"
        ) from None
    if not text.strip():
        raise PluginError(f"{what} is empty (make it again: ./run_all.sh, or fix its program)")
