"""mkdocs hook: an included file that is missing, not UTF-8 or empty stops the build.

Why a hook: pymdownx.snippets (with check_paths) is the maintained tool and does the
including; it has no option to refuse an empty file or to name the page and line of a bad one.
It stops the build for a missing file with a traceback, for a file that is not UTF-8 with an
error naming the page and not the file, and puts an empty file in as nothing at all (an empty
listing or output block, without a word).

This hook reads every one-line include of a page (`--8<-- "path"`; a section `path:name` or a
line range `path:1:3` names the same file), before snippets expands it, where snippets reads
it (its base_path), and stops the build with one message naming the page, the line and the
file. This is the one check that an included file is there and holds text: scripts/lint_docs.py
checks the rest of an include (where it stands, its folder, its section) and refuses the block
form of snippets, which this hook therefore does not read.
"""

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

INCLUDE_LINE = re.compile(r"""\s*-{1,}8<-{1,}\s+(["'])(.+?)\1\s*""")  # the whole line


def base_paths(config) -> list[Path]:
    """Where pymdownx.snippets looks for an included path, as configured in mkdocs.yml."""
    root = Path(config.config_file_path).resolve().parent
    bases = config.get("mdx_configs", {}).get("pymdownx.snippets", {}).get("base_path", ["."])
    bases = [bases] if isinstance(bases, str | Path) else list(bases)
    return [(root / str(base)).resolve() for base in bases] or [root]


def includes(markdown: str):
    """(line number, file) of every one-line include of a page, a section or range cut off."""
    for number, line in enumerate(markdown.split("\n"), 1):
        match = INCLUDE_LINE.fullmatch(line)
        if match and "://" not in match.group(2):  # a URL: url_download is off, snippets refuses
            yield number, re.sub(r"(?::[^:/\\]*)+$", "", match.group(2))


def on_page_markdown(markdown, page, config, files):
    bases = base_paths(config)
    for number, name in includes(markdown):
        what = f"{page.file.src_uri}:{number}: the included file {name}"
        found = [base / name for base in bases if (base / name).is_file()]
        if not found:  # snippets would stop the build too, but with a traceback
            raise PluginError(f"{what} is missing (make it again: ./run_all.sh, or fix the path)")
        check_text(found[0], what)
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
