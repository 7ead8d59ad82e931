"""What the site ships (docs/hooks/shipped.py) and Material's reader features: back to top,
breadcrumbs, last update from git, content tabs; and screenshots for a person to review."""

import pytest

from .site_facts import BOOK, LANGUAGE_SCRIPTS, SHOTS, WIDTHS, all_pages, long_page


def test_the_site_ships_one_search_index_form_and_no_unused_script(site):
    assert len(list((site.path / "search").glob("search_index.*"))) == 1
    assert not (site.path / LANGUAGE_SCRIPTS).exists()
    assert not list(site.path.rglob("*.map")), "source maps are shipped"


def test_the_back_to_top_button_shows_on_scrolling_up_and_works(open_tab, site):
    page = open_tab().page
    page.set_viewport_size({"width": 1280, "height": 300})  # even a short page scrolls
    page.goto(site.url(long_page(site.path)))
    page.mouse.wheel(0, 4000)
    page.wait_for_timeout(300)
    page.mouse.wheel(0, -100)  # the button shows while the reader scrolls upwards
    page.locator(".md-top").wait_for(state="visible")
    page.locator(".md-top").click()
    page.wait_for_function("() => window.scrollY === 0")


def reader_pages(site) -> list[str]:
    """The longest page, and the first chapter (two sections deep) when there is one."""
    chapter = next((w for w in all_pages(site.path) if w.startswith("part")), None)
    return sorted({long_page(site.path), chapter} - {None})


@pytest.mark.parametrize("which", [0, -1], ids=["first", "last"])
def test_a_page_has_its_last_update_and_breadcrumbs_when_two_sections_deep(tab, site, which):
    """Material draws breadcrumbs from two levels: a chapter (Deep book > Part 2) has them, a
    page of a top-level section alone (an appendix under Back matter) has none."""
    page = tab.visit(site.url(reader_pages(site)[which])).page
    nested = page.locator(".md-nav--primary .md-nav__item--active.md-nav__item--nested").count()
    assert page.locator(".md-path__item").count() > 0 or nested < 2
    updated = page.locator(".git-revision-date-localized-plugin").all_inner_texts()
    assert updated and all(text.strip() for text in updated)


def test_content_tabs_switch(tab, site):
    pages = [p for p in sorted(site.path.rglob("*.html")) if p.name != BOOK
             and "tabbed-set" in p.read_text("utf-8")]  # fmt: skip
    assert pages, "no page has content tabs"  # (a small book has none: it leaves this test out)
    page = tab.visit(site.url(str(pages[0].relative_to(site.path)))).page
    tabs = page.locator(".tabbed-set").first
    tabs.locator(".tabbed-labels > label").nth(1).click()
    blocks = tabs.locator(".tabbed-block")
    assert [blocks.nth(0).is_visible(), blocks.nth(1).is_visible()] == [False, True]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_screenshots_for_review(open_tab, site, shots, width, scheme):
    """The pages with wide blocks, tables and figures, whole, for a person to look at after a
    change to the style (build/browser/ by default)."""
    tab = open_tab(width, scheme)
    taken = [where for where in SHOTS if (site.path / where).exists()]
    for where in taken:
        tab.visit(site.url(where))
        name = where.removesuffix(".html").replace("/", "-")
        tab.page.screenshot(path=str(shots / f"{name}-{width}-{scheme}.png"), full_page=True)
    assert taken
