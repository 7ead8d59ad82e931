"""A step of the short path as a reader meets it, and every page surveyed at both widths: no
block clipped, no copy button over a line, figures captioned, powers raised, nothing failing."""

import json
from pathlib import Path

import pytest

from .reader import finds
from .site_facts import COPY_BUTTON, WIDTHS, figure_page, has_background

ORIGINS = ("http", "file")


@pytest.mark.parametrize("origin", ORIGINS)
def test_a_step_renders_with_its_output_block(tab, site, step, origin):
    page = tab.visit(site.url(step, origin)).page
    heading = page.locator("article h1").first.inner_text().rstrip("¶").strip()
    assert heading and heading in page.title()
    assert page.locator(".highlight .filename").count() > 0  # a captioned block
    assert page.locator(".highlight code").first.inner_text().strip()


def test_the_copy_button_copies_the_code(tab, site, step):
    block = tab.visit(site.url(step)).page.locator(".highlight").first
    expected = block.locator("code").inner_text().strip()
    block.hover()
    block.locator(COPY_BUTTON).first.click()
    assert tab.page.evaluate("navigator.clipboard.readText()").strip() == expected


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_palette_toggles(open_tab, site, step, shots, scheme):
    page = open_tab(scheme=scheme).visit(site.url(step)).page
    palette = "document.body.getAttribute('data-md-color-scheme')"
    before = page.evaluate(palette)
    assert before == ("slate" if scheme == "dark" else "default")  # it follows the system's
    page.screenshot(path=str(shots / f"step-{scheme}.png"))
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    page.wait_for_function(f"{palette} !== {json.dumps(before)}")


@pytest.mark.parametrize("origin", ORIGINS)
def test_a_figure_loads(tab, site, origin):
    where = figure_page(site.path)
    assert where, "no page shows a figure"
    image = tab.visit(site.url(where, origin)).page.locator("article img[src*='figures/']").first
    image.scroll_into_view_if_needed()
    image.evaluate("img => img.decode()")
    assert image.evaluate("img => img.naturalWidth") > 0


@pytest.mark.parametrize("origin", ORIGINS)
def test_search_finds_a_step(tab, site, step, step_term, origin):
    assert finds(tab.visit(site.url("index.html", origin)).page, step_term, Path(step).name)


# --- every page at both widths (the survey visits each once per width) ---------------------


def said(survey: dict, key: str) -> list[str]:
    return [f"{where}: {problem}" for where, found in survey.items() for problem in found[key]]


# every page over http at both widths, and from file:// (no server) at a phone's width
VISITS = [(WIDTHS[0], "http"), (WIDTHS[1], "http"), (WIDTHS[1], "file")]
VISIT_IDS = [f"{width}-{origin}" for width, origin in VISITS]


@pytest.mark.parametrize("width, origin", VISITS, ids=VISIT_IDS)
def test_no_page_requests_another_host(survey, width, origin):
    assert not said(survey(width, origin), "external")


@pytest.mark.parametrize("width, origin", VISITS, ids=VISIT_IDS)
def test_no_page_has_a_console_error_or_failed_request(survey, width, origin):
    assert not said(survey(width, origin), "noise")


@pytest.mark.parametrize("width", WIDTHS)
def test_no_code_block_or_table_is_clipped(survey, width):
    """No block wider than the window or clipped; at 1280 px no code block scrolls sideways."""
    assert not [f"{where}: {p}" for where, f in survey(width).items() for p in f["clipped"][0]]


def test_appendix_b_tables_scroll_sideways_on_a_phone(survey):
    """(A small book has no appendix B: tests/test_book_checks.py leaves this test out.)"""
    assert "back/b-ops.html" in survey(WIDTHS[1]), "no appendix B"
    assert survey(WIDTHS[1])["back/b-ops.html"]["clipped"][1] > 0


@pytest.mark.parametrize("width", WIDTHS)
def test_the_copy_button_leaves_the_first_line_clear(survey, width):
    assert not said(survey(width), "covered")


@pytest.mark.parametrize("width", WIDTHS)
def test_every_figure_stands_in_a_figure_with_its_caption(survey, width):
    bare = [f"{where}: {src}" for where, found in survey(width).items()
            for src, in_figure, captioned, _ in found["figures"]
            if not (in_figure and captioned)]  # fmt: skip
    assert not bare


def test_no_figure_of_the_short_path_is_taller_than_the_window(survey):
    tall = [f"{where}: {src} {height:.0f} px" for where, found in survey(WIDTHS[0]).items()
            for src, _, _, height in found["figures"]
            if where.startswith("short/") and height > 900]  # fmt: skip
    assert not tall


def test_no_figure_has_a_white_or_black_backdrop(site):
    figures = sorted((site.path / "figures").glob("*.svg"))
    assert not [f.name for f in figures if has_background(f.read_text(encoding="utf-8"))]


def test_powers_are_superscripts(survey):
    """A power written 2^31^ is raised, and no 2^31 is left in the prose of any page."""
    pages = survey(WIDTHS[0])
    assert not [f"{where}: {text}" for where, f in pages.items() for text in f["carets"][0]]
    assert sum(found["carets"][1] for found in pages.values()) > 0
