"""Listings link to their lines (docs/hooks/source.py): each listing title of a page links to a
line anchor of a Source page whose line is the listing's first; a click shows that line below
the header at both widths; every Source page has its line anchors."""

import re
from urllib.parse import urlsplit

import pytest

from .probes import LISTINGS_JS, TARGET_JS
from .site_facts import MARKER_LINE, SOURCE, WIDTHS, all_pages

TITLE = "article .highlight .filename a[href*='source/']"


@pytest.fixture(scope="session")
def listing_page(site) -> str:
    """The first page whose listing titles link to a Source page."""
    link = re.compile(r'class="filename"><a href="[^"]*source/')
    where = next((p for p in all_pages(site.path) if not p.startswith(SOURCE)
                  and link.search((site.path / p).read_text("utf-8"))), None)  # fmt: skip
    assert where, "no listing title links to a Source page"
    return where


def test_each_listing_title_links_to_its_first_line(tab, site, listing_page):
    page = tab.visit(site.url(listing_page)).page
    wrong = []
    for href, title, first in page.evaluate(LISTINGS_JS):
        page.goto(site.url(listing_page).rsplit("/", 1)[0] + "/" + href)
        line = page.evaluate(TARGET_JS)
        code = [t for t in (line or {}).get("lines", []) if not MARKER_LINE.match(t)]
        if not re.fullmatch(r"L\d+", urlsplit(href).fragment):
            wrong.append(f"{title!r}: {href} names no line")
        elif line is None:
            wrong.append(f"{title!r}: {href}: no such line")
        elif not code or code[0].strip() != first.strip():
            wrong.append(f"{title!r}: {href} is not the listing's first line")
    assert not wrong


@pytest.mark.parametrize("width", WIDTHS)
def test_a_clicked_listing_title_shows_its_line_below_the_header(
    open_tab, site, shots, listing_page, width
):
    page = open_tab(width).visit(site.url(listing_page)).page
    page.locator(TITLE).first.click()
    page.wait_for_load_state()
    line = page.evaluate(TARGET_JS)
    page.screenshot(path=str(shots / f"source-line-{width}.png"))
    assert line and line["header"] <= line["top"] < line["height"]


def test_every_source_page_has_its_line_anchors(site):
    pages = sorted((site.path / SOURCE).rglob("*.html"))
    assert pages, "no Source page"
    assert not [str(p.relative_to(site.path)) for p in pages
                if p.name not in ("index.html", "api.html")
                and 'id="L1"' not in p.read_text(encoding="utf-8")]  # fmt: skip
