"""The one-page edition (book.html, docs/hooks/onepage.py): every page of the book but the
Source section, once, titled, in order, with contents whose links land; ready fast from
file://; every chapter's printer icon opens it there; the PDF the front page quotes."""

import re
from urllib.parse import urlsplit

import pytest

from .probes import BOOK_JS
from .site_facts import BOOK, BOOK_READY_S, PDF, SOURCE, all_pages, page_key


@pytest.fixture(scope="session")
def book(browser, site) -> dict:
    """What book.html holds, as the browser has it."""
    assert (site.path / BOOK).exists(), f"no {BOOK} in the site"
    context = browser.new_context()
    page = context.new_page()
    page.goto(site.url(BOOK))
    found = page.evaluate(BOOK_JS)
    context.close()
    return found


def test_the_one_page_edition_holds_every_page_once_in_order(site, book):
    expected = [page_key(where) for where in all_pages(site.path)
                if where != "404.html" and not where.startswith(SOURCE)]  # fmt: skip
    assert sorted(book["sections"]) == sorted(expected)
    assert len(set(book["sections"])) == len(book["sections"])
    assert book["top"] == book["sections"], "the contents do not list the pages in their order"


def test_every_page_of_the_one_page_edition_has_its_title(book):
    assert book["titled"] == len(book["sections"])


def test_every_link_inside_the_one_page_edition_lands(book):
    assert not book["missing"], "contents links to nowhere"
    assert not book["broken"], "in-page links to nowhere"


def test_the_one_page_edition_is_ready_fast_from_file(tab, site):
    tab.page.goto(site.url(BOOK, "file"), wait_until="domcontentloaded")
    ready = tab.page.evaluate(
        "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
    )
    assert ready <= BOOK_READY_S * 1000, f"ready after {ready / 1000:.1f} s"


def test_a_chapter_s_printer_icon_opens_the_one_page_edition_there(tab, site):
    """A chapter of part 2 (a small book's first page but the front page, when it has none)."""
    pages = [w for w in all_pages(site.path) if w not in ("index.html", "404.html")
             and not w.startswith(SOURCE)]  # fmt: skip
    chapter = min(pages, key=lambda where: not where.startswith("part2/"))
    page = tab.visit(site.url(chapter)).page
    with page.expect_navigation():
        page.click("a.onepage-print")
    landed = urlsplit(page.url)
    assert landed.path.endswith(BOOK) and landed.fragment == page_key(chapter)


def test_the_pdf_has_the_page_count_the_front_page_quotes(site):
    data = (site.path / PDF).read_bytes() if (site.path / PDF).exists() else b""
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    front = (site.path / "index.html").read_text(encoding="utf-8")
    quoted = re.search(rf'href="{PDF}">PDF</a> of ([\d,]+) A4 pages', front)
    assert quoted, f"the front page quotes no page count for {PDF}"
    assert pages == int(quoted.group(1).replace(",", "")), f"{PDF} has {pages} pages"
