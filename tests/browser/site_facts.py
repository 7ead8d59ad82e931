"""What the browser tests read from the built files themselves (tests/browser/): which pages,
figures and terms to visit. No browser here."""

import json
import re
from pathlib import Path

COPY_BUTTON = "button.md-clipboard, button.md-code__button[data-md-type='copy']"
WIDTHS = (1280, 390)
BOOK = "book.html"  # the whole book on one page (docs/hooks/onepage.py)
PDF = "uopc-book.pdf"  # the one page printed by mkdocs build (docs/hooks/onepage.py)
BOOK_READY_S = 3  # the one page must be ready (DOMContentLoaded) within this, from file://
SOURCE = "source/"  # the Source pages (docs/hooks/source.py)
GLOSSARY = "back/f-glossary.html"  # appendix F, where every definition is written
# Spellings of one term each that search must lead to appendix F from (its "Also written").
GLOSSARY_SPELLINGS = ("wraparound", "wrap-around", "hash consing", "hash-consing")
# Pages screenshot for review (those present in the site): the ones with wide blocks, tables
# and figures.
SHOTS = (
    "index.html",
    "short/05-sharing.html",
    "short/09-index-ranges.html",
    "short/12-test.html",
    "short/14-real-one.html",
    "back/b-ops.html",
    "back/d-measurements.html",
    "404.html",
)


def step_page(site: Path) -> str:
    """The first step of the short path (relative URL), found from the built files."""
    steps = sorted(p for p in (site / "short").glob("*.html") if p.name != "index.html")
    if not steps:
        raise LookupError("no page under short/ in the site")
    return str(steps[0].relative_to(site))


def search_index(site: Path) -> dict:
    """The search index, from the one form the site ships (docs/hooks/shipped.py)."""
    text = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("var __index = "))


def search_term(site: Path, page: str) -> str:
    """The longest word of the page's title in the search index: search must find that page."""
    index = search_index(site)
    for doc in index["docs"]:
        if doc["location"] == page:
            words = re.findall(r"[A-Za-z]{5,}", doc["title"])
            if words:
                return max(words, key=len)
    raise LookupError(f"{page} is not in the search index")


def all_pages(site: Path) -> list[str]:
    """Every page to survey. Left out: the one-page edition, whose parts are each a page, and
    the pages of the Source files but the longest: one template makes them all, and they differ
    only in their code (the Source index and the API reference are surveyed)."""
    files = sorted((site / SOURCE).rglob("*.*.html"), key=lambda p: (-p.stat().st_size, p))
    sample = {files[0]} if files else set()
    return sorted(
        str(p.relative_to(site))
        for p in site.rglob("*.html")
        if "assets" not in p.parts
        and p.relative_to(site).as_posix() != BOOK
        and (p in sample or p not in files)
    )


def figure_pages(site: Path) -> dict[str, list[str]]:
    """{page: the figures it shows (file names)}, each figure on the first page that shows it."""
    found, seen = {}, set()
    for path in sorted(site.rglob("*.html")):
        where = str(path.relative_to(site))
        if where == BOOK or where.startswith(SOURCE):
            continue
        text = path.read_text(encoding="utf-8")
        names = re.findall(r'<img[^>]+src="[^"]*figures/([^"/]+)"', text)
        names = [name for name in dict.fromkeys(names) if name not in seen]
        seen.update(names)
        if names:
            found[where] = names
    return found


def page_key(where: str) -> str:
    """part1/03-ops.html -> part1-03-ops: a page's section id in the one-page edition."""
    return where.removesuffix(".html").replace("/", "-") or "index"


MARKER_LINE = re.compile(r"\s*(?:#|//)\s*--8<-- \[(?:start|end):")


def has_background(svg: str) -> bool:
    """A white or black backdrop: Graphviz's white polygon, matplotlib's white patch."""
    lowered = svg.lower()
    return 'fill="white"' in lowered or "#ffffff" in lowered or 'fill="black"' in lowered


def figure_page(site: Path) -> str | None:
    for path in sorted(site.rglob("*.html")):
        if re.search(r'<img[^>]+src="[^"]*figures/[^"]+"', path.read_text(encoding="utf-8")):
            return str(path.relative_to(site))
    return None


def tooltip_pages(marks: dict[str, dict]) -> list[tuple[str, bool]]:
    """Three pages to point at glossary terms on, each (page, inside an admonition): a page
    with a term in an admonition (the short path has most), then a chapter and an appendix, or
    failing those any other pages with a term; appendix F itself is left out."""
    pages = [where for where in sorted(marks) if where != GLOSSARY]
    admonition = sorted(
        (where for where in pages if marks[where]["admonition"]),
        key=lambda where: not where.startswith("short/"),
    )
    chosen = [(admonition[0], True)] if admonition else []
    prose = [where for where in pages if marks[where]["marked"] > marks[where]["admonition"]]
    for prefix in ("part", "back/", ""):
        for where in prose:
            if where.startswith(prefix) and all(where != other for other, _ in chosen):
                chosen.append((where, False))
                break
    return chosen[:3]


DEEP_404 = ("part1/no-such-page/", "a/b/c/missing.html")  # missing pages one and three deep
LANGUAGE_SCRIPTS = "assets/javascripts/lunr"  # Material's search scripts for other languages


def long_page(site: Path) -> str:
    """The longest page the reader reads (a chapter in the book), Source pages and book.html
    left out: the back-to-top button needs a page to scroll, the breadcrumbs a nested page."""
    pages = [p for p in site.rglob("*.html") if p.relative_to(site).as_posix() != BOOK]
    pages = [p for p in pages if not p.relative_to(site).as_posix().startswith(SOURCE)]
    return str(max(pages, key=lambda p: (p.stat().st_size, p)).relative_to(site))
