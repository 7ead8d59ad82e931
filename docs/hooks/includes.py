"""mkdocs hook: an included file that is missing, not UTF-8 or empty stops the build.

Why a hook: pymdownx.snippets (check_paths) does the including, but stops on a missing file with
a traceback, on a file that is not UTF-8 with an error naming the page and not the file, and puts
in an empty file as nothing at all. This hook reads every one-line include of a page before
snippets does, where snippets reads it (base_path), and stops the build with one message naming
the page, the line and the file. Where an include stands and what it names: the docs lint.
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
