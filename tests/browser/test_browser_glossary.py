"""The glossary under the pointer (appendix F, docs/hooks/glossary.py): terms marked once per
page and never in code or a heading; the definition on hover, on tap and on focus, readable in
both palettes; Enter opens the entry; search finds a term by each of its spellings."""

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .probes import PROBE_JS, TOOLTIP_JS
from .reader import finds, tooltip_shown
from .site_facts import GLOSSARY, GLOSSARY_SPELLINGS, WIDTHS, tooltip_pages

# a term in an admonition (the short path has most), then one on a chapter and an appendix
KINDS = ("admonition", "chapter", "appendix")
POINTERS = {"mouse": (WIDTHS[0], False), "touch": (WIDTHS[1], True)}


@pytest.fixture(scope="session")
def marks(survey) -> dict:
    """{page: its glossary marks}, read at full width."""
    return {where: found["glossary"] for where, found in survey(WIDTHS[0]).items()}


def test_no_glossary_term_is_marked_inside_code_or_a_heading_or_twice(marks):
    misplaced = [f"{where}: {word!r}" for where, m in marks.items() for word in m["in_code"]]
    twice = [f"{where}: {target}" for where, m in marks.items() for target in m["repeated"]]
    assert not misplaced and not twice
    assert sum(m["marked"] for m in marks.values()) > 0
    # code does hold marked words: "none inside code" is a finding, not an accident
    assert sum(m["code_with_word"] for m in marks.values()) > 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("pointer", POINTERS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_term_shows_its_definition(open_tab, site, marks, shots, kind, pointer, scheme):
    """Hover with a mouse at 1280 px, tap on a touch screen at 390 px: the tooltip holds the
    definition, fits the window, and its text differs in colour from its background."""
    chosen = tooltip_pages(marks)
    assert len(chosen) == len(KINDS), f"three pages with glossary terms needed, found {chosen}"
    where, in_admonition = chosen[KINDS.index(kind)]
    width, touch = POINTERS[pointer]
    page = open_tab(width, scheme, touch).visit(site.url(where)).page
    word, definition = page.evaluate(PROBE_JS, in_admonition)
    mark = page.locator("#glossary-probe")
    mark.tap() if touch else mark.hover()
    tooltip_shown(page)
    tip = page.evaluate(TOOLTIP_JS)
    if in_admonition:
        page.screenshot(path=str(shots / f"tooltip-{width}-{scheme}.png"))
    assert tip["text"] == " ".join(definition.split()), f"{where}: {word!r}"
    assert 0 <= tip["left"] and tip["right"] <= width and tip["height"] > 0
    assert tip["color"] != tip["background"]
    assert tip["scheme"] == ("slate" if scheme == "dark" else "default")


def test_the_keyboard_reaches_a_term_shows_it_and_opens_its_entry(tab, site, marks):
    where = next((w for w in sorted(marks) if w.startswith("part") and marks[w]["marked"]), None)
    assert where, "no chapter marks a glossary term"
    page = tab.visit(site.url(where)).page
    for _ in range(400):
        if page.evaluate("() => document.activeElement.matches('a.glossary-term')"):
            break
        page.keyboard.press("Tab")
    else:
        pytest.fail(f"{where}: 400 presses of Tab never reach a glossary term")
    tooltip_shown(page)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    target = urlsplit(page.url)
    assert target.path.endswith(GLOSSARY)
    assert page.evaluate("(id) => !!document.getElementById(id)", target.fragment)


@pytest.mark.parametrize("spelling", GLOSSARY_SPELLINGS)
def test_search_finds_a_term_by_its_other_spellings(tab, site, spelling):
    assert finds(tab.visit(site.url("index.html")).page, spelling, Path(GLOSSARY).name)
