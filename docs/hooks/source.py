"""mkdocs hook: the source as pages, and every listing's title a link to the lines it came from.

Why a hook: mkdocstrings (used for source/api.md) shows one object's source, without the file's
own line numbers; mkdocs-gen-files could write a page per file, but nothing maintained links a
listing's title to the region it was cut from, found again by its markers on every build.

Source pages. On every build, each module of uopc/, each program of the short path
(code/short/) and every other file that a page quotes a region of (a test, a demo) gets a page
`source/<path>.html`, made from the file itself (File.generated; nothing is committed): the
whole file as it is in the repository, its region marker comments included, so that its line
numbers are the file's own; each line has the anchor `#L<number>` and its number links to it.
`source/index.html` lists the files. The pages join the navigation after the entry
`source/index.md` (a "Source" section at the end when the navigation has none); search leaves
them out (the API reference, source/api.md, is the searchable view of the names).

Links. A fenced block with a title whose only line includes a listing, an excerpt
(`--8<-- "excerpts/uopc/uop/toposort.py"`, which scripts/make_excerpts.py cut from region
toposort of uopc/uop.py), a region (`uopc/uop.py:toposort`) or a whole source file, gets its
title turned into a link to the first line of that region on the file's Source page. The region
is found again in the file by its marker lines on every build, so the link follows the file as
it changes; an include whose region the file no longer has stops the build.

The source text goes into its page after every other hook has seen the page (this hook is the
last in mkdocs.yml), so the numbers hook never reads a file's `{{` and snippets is kept from
reading its marker lines (each marker gets snippets' escape `;`, which snippets removes).
"""

import ast
import html
import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

SECTIONS = (  # (nav label, the folder, glob) of the files that always have a page
    ("uopc/", "uopc", "*.py"),
    ("code/short/", "code/short", "*.py"),
)
QUOTED_LABEL = "Quoted from tests and demos"
QUOTED_DIRS = ("uopc", "tests", "demos", "code", "scripts")  # scripts/book_common.REGION_DIRS
LANGUAGES = {".py": "python", ".c": "c", ".h": "c", ".sh": "bash"}
PREFIX = "source/"
INDEX = "source/index.md"
API = "source/api.md"  # the API reference, a page of its own (mkdocstrings), when there is one
MARKER = re.compile(r"(?:#|//)\s*--8<-- \[(start|end):([a-z][-_0-9a-z]*)\]")
SNIPPET_MARK = re.compile(r"-+8<-+")  # where snippets would read its notation
INCLUDE = re.compile(r"""\s*-+8<-+\s+(["'])(.+?)\1\s*""")  # the whole line
FENCE = re.compile(r"\s*(`{3,}|~{3,})(.*)")
TITLE = re.compile(r"""\btitle=(["'])(.*?)\1""")
FILENAME = re.compile(r'<span class="filename">(.*?)</span>', re.S)
LINE_SPAN = re.compile(r'<span id="__span-0-(\d+)">')
LINE_NUMBER = re.compile(r'<span class="linenos" data-linenos="(\s*)(\d+) "></span>')
NUMBER_LINK = r'<a class="linenos" data-linenos="\1\2 " href="#L\2"></a>'  # the number: a link
STATE: dict = {}


class _PrintSiteOrder(logging.Filter):
    """mkdocs-print-site warns that it is not the last plugin when hooks are configured as a
    list (it counts them as plugins after it), though it is the last of `plugins:`; under
    --strict that one warning would stop the build. This drops that message and no other."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "'print-site' should be defined as the *last* plugin" not in record.getMessage()


logging.getLogger("mkdocs.plugins").addFilter(_PrintSiteOrder())


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def page_uri(source: str) -> str:
    """uopc/uop.py -> source/uopc/uop.py.md (its page: source/uopc/uop.py.html)."""
    return f"{PREFIX}{source}.md"


def regions(path: Path) -> dict[str, tuple[int, int]]:
    """{name: (first, last)}: the lines (1-based) between the markers of each region of a file.
    make_excerpts.py --check refuses malformed markers; here a region is only looked up."""
    opened, found = {}, {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = MARKER.fullmatch(line.strip())
        if match and match.group(1) == "start":
            opened[match.group(2)] = number
        elif match and match.group(2) in opened:
            found[match.group(2)] = (opened.pop(match.group(2)) + 1, number - 1)
    return found


def listing_target(root: Path, target: str) -> tuple[str, str | None] | None:
    """(source file, region or None for the whole file) of an include, or None when the include
    is not a listing (an output of out/, or a file without a page)."""
    if target.startswith("excerpts/"):
        excerpt = Path(target).relative_to("excerpts")
        source = excerpt.parent.with_suffix(excerpt.suffix).as_posix()
        return (source, excerpt.stem) if (root / source).is_file() else None
    path, _, region = target.partition(":")
    if Path(path).suffix not in LANGUAGES or path.split("/")[0] not in QUOTED_DIRS:
        return None
    if not (root / path).is_file() or (region and not re.fullmatch(r"[a-z][-_0-9a-z]*", region)):
        return None  # a missing file or a line range: snippets and the docs lint report those
    return path, region or None


def quoted_files(root: Path, pages) -> set[str]:
    """The source files that the pages include a listing of."""
    found = set()
    for page in pages:
        if page.src_uri.startswith(PREFIX) or not page.abs_src_path:
            continue
        for line in Path(page.abs_src_path).read_text(encoding="utf-8").splitlines():
            match = INCLUDE.fullmatch(line)
            listing = match and listing_target(root, match.group(2))
            if listing:
                found.add(listing[0])
    return found


def first_docstring_line(path: Path) -> str:
    if path.suffix != ".py":
        return ""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except SyntaxError:
        return ""
    return doc.strip().split("\n")[0]


def add_to_nav(config, groups: list[tuple[str, list[str]]]) -> None:
    """The groups of source pages go at the end of the navigation's section that holds
    `source/index.md`; without such a section, a "Source" section goes at the end."""
    entries = [{label: [{Path(s).name: page_uri(s)} for s in files]} for label, files in groups]

    def insert(items) -> bool:
        for item in items:
            children = next(iter(item.values())) if isinstance(item, dict) else None
            if not isinstance(children, list):
                continue
            if any(c == INDEX or (isinstance(c, dict) and INDEX in c.values()) for c in children):
                children.extend(entries)  # at the end of the section that holds the index
                return True
            if insert(children):
                return True
        return False

    nav = config.nav
    if nav is None:
        return  # no nav: mkdocs lists every page itself
    if not insert(nav):
        nav.append({"Source": [INDEX, *entries]})


def on_files(files, config):
    root = _root(config)
    groups, seen = [], set()
    for label, folder, pattern in SECTIONS:
        paths = sorted(
            p.relative_to(root).as_posix() for p in (root / folder).glob(pattern) if p.is_file()
        )
        if paths:
            groups.append((label, paths))
            seen.update(paths)
    quoted = sorted(quoted_files(root, files.documentation_pages()) - seen)
    if quoted:
        groups.append((QUOTED_LABEL, quoted))
    api = files.get_file_from_path(API) is not None
    STATE.update(root=root, groups=groups, titles={}, pages=set(), api=api)
    if not groups:
        return files
    stub = "---\nsearch:\n  exclude: true\n---\n\n# Source\n"
    for uri in [INDEX] + [page_uri(s) for _, paths in groups for s in paths]:
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"docs/{uri} would hide the generated source page {uri}")
        files.append(File.generated(config, uri, content=stub))
        STATE["pages"].add(uri)
    add_to_nav(config, groups)
    return files


# ---------------------------------------------------------------------------------------------
# The pages of the Source section
# ---------------------------------------------------------------------------------------------


def escape_snippets(line: str) -> str:
    """The line with snippets' escape before its notation: snippets takes the `;` out again and
    leaves the line as it is in the file (a marker line would otherwise be dropped)."""
    mark = SNIPPET_MARK.search(line)
    return line if mark is None else f"{line[: mark.start()]};{line[mark.start() :]}"


def fence_for(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    return "`" * max(3, longest + 1)


def source_markdown(root: Path, source: str) -> str:
    path = root / source
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    fence = fence_for(text)
    found = regions(path)
    names = ", ".join(  # raw links: mkdocs checks anchors before the lines get theirs
        f'<a href="#L{first}">`{name}`</a> ({first}–{last})'
        for name, (first, last) in sorted(found.items(), key=lambda item: item[1])
    )
    parts = [  # the front matter was read from the page's stub
        f"# {source}\n",
        f"The whole file as it is in the repository, {len(lines)} lines; each line has its own "
        "address (click its number). [All the files](" + "../" * source.count("/") + "index.md).",
        "",
    ]
    if names:
        parts += [
            f"Its regions, the listings the book cuts from it (first, last line): {names}.",
            "",
        ]
    body = "\n".join(escape_snippets(line) for line in lines)
    parts += [f'{fence}{LANGUAGES.get(path.suffix, "text")} linenums="1"', body, fence, ""]
    return "\n".join(parts)


def index_markdown(root: Path, groups) -> str:
    api = " The names a program imports from `uopc` are described in the [API reference](api.md)."
    parts = [
        "# Source",
        "",
        "Every module of `uopc`, every program of the short path, and every other file the book "
        "shows a listing from, each whole, as it is in the repository, with its line numbers. A "
        "listing's title in the book links to the lines it was cut from."
        + (api if STATE.get("api") else ""),
        "",
    ]
    for label, paths in groups:
        parts += [f"## {label}", "", "| file | lines | what it holds |", "|---|---|---|"]
        for source in paths:
            path = root / source
            count = len(path.read_text(encoding="utf-8").splitlines())
            what = html.escape(first_docstring_line(path)).replace("|", "&#124;")
            link = page_uri(source).removeprefix(PREFIX)
            parts.append(f"| [`{source}`]({link}) | {count} | {what} |")
        parts.append("")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Every page: the titles of its listings
# ---------------------------------------------------------------------------------------------


def titled_listings(markdown: str) -> list[tuple[str, str]]:
    """(title, include target) of each fenced block that has a title and holds only includes
    (several regions in one block: the title links to the first)."""
    found, lines = [], markdown.split("\n")
    for number, line in enumerate(lines):
        opened = FENCE.fullmatch(line)
        title = opened and TITLE.search(opened.group(2))
        if not title:
            continue
        targets = []
        for inside in lines[number + 1 :]:
            closing = FENCE.fullmatch(inside)
            if closing and closing.group(1).startswith(opened.group(1)):
                break  # a closing fence (an opening one has a title, and is no include)
            include = INCLUDE.fullmatch(inside)
            if include:
                targets.append(include.group(2))
            elif inside.strip():
                targets = []  # a block with lines of its own is not a listing
                break
        if targets:
            found.append((title.group(2), targets[0]))
    return found


def on_page_markdown(markdown, page, config, files):
    root, where = STATE["root"], page.file.src_uri
    if where == INDEX:
        return index_markdown(root, STATE["groups"])
    if where in STATE["pages"]:
        return source_markdown(root, where.removeprefix(PREFIX).removesuffix(".md"))
    links = {}
    for title, target in titled_listings(markdown):
        listing = listing_target(root, target)
        if listing is None:
            continue
        source, region = listing
        anchor = ""
        if region:
            found = regions(root / source)
            if region not in found:
                raise PluginError(
                    f"{where}: the listing {target!r} has no region {region!r} in {source} "
                    "(run scripts/make_excerpts.py)"
                )
            anchor = f"#L{found[region][0]}"
        url = get_relative_url(page_uri(source).removesuffix(".md") + ".html", page.url)
        links.setdefault(title, []).append(url + anchor)
    STATE["titles"][where] = links
    return markdown


def on_page_content(html_text, page, config, files):
    where = page.file.src_uri
    if where in STATE["pages"] and where != INDEX:
        html_text = LINE_SPAN.sub(r'<span id="L\1">', html_text)
        return LINE_NUMBER.sub(NUMBER_LINK, html_text)
    links = STATE["titles"].get(where)
    if not links:
        return html_text
    waiting = {title: list(urls) for title, urls in links.items()}

    def link(match: re.Match) -> str:
        urls = waiting.get(html.unescape(match.group(1)))
        if not urls:
            return match.group(0)
        return f'<span class="filename"><a href="{urls.pop(0)}">{match.group(1)}</a></span>'

    return FILENAME.sub(link, html_text)
