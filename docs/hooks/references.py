"""mkdocs hook: every citation of the book, written once in docs/references.yml.

Why not mkdocs-bibtex: without pandoc it formats with pybtex's plain style, which sets titles
in lower case unless each one is braced and refuses a book without a publisher and a year; its
`@key` syntax is looked for in the whole page, code included, so a Python decorator in a listing
would stop the strict build; and it has no link from a citation to a reading list. Its pandoc
mode needs a pandoc binary and a CSL file.

`[cite: KEY]` in a page becomes the full citation and a link to the work's entry in appendix E
(docs/back/e-reading.md), where `[entry: KEY]`, alone on a line, becomes a heading with the
anchor `ref-KEY`, then the citation. A printed work (`kind: book` or `paper`) gives its year,
a book its publisher (`venue`); a living online work has no year but `read: 2026`. The build
stops on an unknown key, field or kind, a printed work without its year (a book without its
publisher), an edition or year that is not a number, a malformed marker, and when appendix E
leaves a work out or lists it twice. The HTML check reads the same file: its `url`s name the
only hosts a page may link to.
"""

import posixpath
import re
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError

DATA = Path(__file__).resolve().parents[1] / "references.yml"
APPENDIX = "back/e-reading.md"
CITE = re.compile(r"\[cite: *([a-z0-9-]+)\]")
ENTRY = re.compile(r"^\[entry: *([a-z0-9-]+)\][ \t]*$", re.M)
ITEM_START = re.compile(r"\s*(?:(?:[-*+]|\d+\.)\s+)?")  # what may stand before an opening marker
LOOSE = re.compile(r"\[(?:cite|entry):")  # what is left of a marker neither pattern took
FIELDS = {"short", "authors", "title", "kind", "edition", "venue", "year", "read", "also", "url"}
# book: a printed book; paper: a paper, a chapter or a note; work: a manual, a site, a repository
# or online notes; raw: the title as written in the data file (Markdown allowed).
KINDS = {"book": "*{}*", "paper": '"{}"', "work": "*{}*", "raw": "{}"}
PRINTED = {"book": ("year", "venue"), "paper": ("year",)}  # what a printed work must give

_works: dict[str, dict] = {}


def load(path: Path = DATA) -> dict[str, dict]:
    """The works of the data file, each checked: known fields, a short name, a title, a kind.
    A book without the file has no works (a page that cites one then stops the build)."""
    if not path.exists():
        return {}
    works = yaml.safe_load(path.read_text(encoding="utf-8"))
    for key, work in works.items():
        unknown = set(work) - FIELDS
        if unknown:
            raise PluginError(f"references.yml: {key}: unknown field(s) {sorted(unknown)}")
        for field in ("short", "title", "kind"):
            if not work.get(field):
                raise PluginError(f"references.yml: {key}: no {field}")
        if work["kind"] not in KINDS:
            raise PluginError(f"references.yml: {key}: kind must be one of {sorted(KINDS)}")
        for field in PRINTED.get(work["kind"], ()):
            if not work.get(field):
                kind = work["kind"]
                raise PluginError(f"references.yml: {key}: a printed {kind} needs its {field}")
        for field in ("edition", "year", "read"):
            if field in work and not (type(work[field]) is int and work[field] > 0):
                raise PluginError(f"references.yml: {key}: {field} must be a number")
    return works


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def urls(work: dict) -> list[str]:
    found = work.get("url", [])
    return [found] if isinstance(found, str) else list(found)


def citation(work: dict) -> str:
    """One work as Markdown: authors, title, edition, venue, year, what else, when it was read
    online, then its links."""
    parts = [work.get("authors"), KINDS[work["kind"]].format(" ".join(work["title"].split()))]
    parts.append(f"{ordinal(work['edition'])} edition" if "edition" in work else None)
    parts += [work.get("venue"), str(work["year"]) if "year" in work else None, work.get("also")]
    parts.append(f"read online in {work['read']}" if "read" in work else None)
    text = ", ".join(part for part in parts if part)
    links = [f"[{url.split('://', 1)[1].rstrip('/')}]({url})" for url in urls(work)]
    return text + (", " + " and ".join(links) if links else "")


def appendix_link(page_uri: str, key: str) -> str:
    if page_uri == APPENDIX:
        return f"#ref-{key}"
    return posixpath.relpath(APPENDIX, posixpath.dirname(page_uri) or ".") + f"#ref-{key}"


def work_of(key: str, page_uri: str) -> dict:
    if key not in _works:
        raise PluginError(f"{page_uri}: no work '{key}' in docs/references.yml")
    return _works[key]


def on_config(config):
    _works.clear()
    _works.update(load())
    return config


def on_page_markdown(markdown, page, config, files):
    uri = page.file.src_uri
    if uri == APPENDIX:
        markdown = entries(markdown, uri)

    def cite(match: re.Match) -> str:
        key = match.group(1)
        text = citation(work_of(key, uri))
        before = match.string[match.string.rfind("\n", 0, match.start()) + 1 : match.start()]
        if ITEM_START.fullmatch(before):
            text = text[0].upper() + text[1:]  # "the Z3 guide" opening a list item
        if uri == APPENDIX:
            return text
        return f"{text} ([in appendix E]({appendix_link(uri, key)}))"

    markdown = CITE.sub(cite, markdown)
    loose = LOOSE.search(markdown)
    if loose:
        line = markdown[: loose.start()].count("\n") + 1
        raise PluginError(f"{uri}:{line}: a citation marker is malformed: [cite: key]")
    return markdown


def entries(markdown: str, uri: str) -> str:
    """Appendix E: each [entry: KEY] becomes a heading with its anchor, then the citation."""
    listed = ENTRY.findall(markdown)
    twice = sorted({key for key in listed if listed.count(key) > 1})
    missing = [key for key in _works if key not in listed]
    if twice or missing:
        raise PluginError(f"{uri}: works listed twice {twice}, works left out {missing}")

    def entry(match: re.Match) -> str:
        key = match.group(1)
        work = work_of(key, uri)
        return f"### {work['short']} {{ #ref-{key} }}\n\n{citation(work)}."

    return ENTRY.sub(entry, markdown)
