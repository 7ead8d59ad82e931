"""Every figure opens whole (mkdocs-glightbox, docs/stylesheets/generated.css, lightbox.py):
clicked at 1280 px and tapped on a touch screen at 390 px, it shows at its own size or fitted to
the window's width, never panned sideways, its smallest text at least MIN_TEXT_PX high, and
its caption under it, the same words as on the page. One test per figure and width."""

import pytest
from test_figures import MIN_TEXT_PX, smallest_text  # tests/, on the path (no __init__.py)

from .probes import CAPTION_JS, PAGE_CAPTION_JS
from .site_facts import WIDTHS

OPENED_JS = """() => { const i = document.querySelector('.glightbox-container .gslide.current img');
  return i && i.complete && i.naturalWidth > 0; }"""
PANS_JS = """i => { const box = i.closest('.gslide-media'); box.scrollLeft = 40;
  return box.scrollLeft > 0; }"""
SIZES_JS = """i => [i.naturalWidth, i.getBoundingClientRect().width,
  document.documentElement.clientWidth]"""


def open_figure(page, name: str, touch: bool):
    """Clicks (or taps) the figure on its page; the image the lightbox shows, once shown."""
    image = page.locator(f"article a.glightbox img[src$='figures/{name}']")
    assert image.count() > 0, "not in a link that opens it"
    image.first.scroll_into_view_if_needed()
    image.first.tap() if touch else image.first.click()
    shown = page.locator(".glightbox-container .gslide.current img")
    shown.wait_for(state="visible")
    page.wait_for_function(OPENED_JS)
    page.wait_for_timeout(400)  # the opening effect
    return shown


@pytest.mark.parametrize("width", WIDTHS)
def test_a_figure_opens_whole_with_its_caption(open_tab, site, shots, where_figure, width):
    where, name = where_figure
    touch = width == WIDTHS[1]
    page = open_tab(width, touch=touch).visit(site.url(where)).page
    shown = open_figure(page, name, touch)
    natural, drawn, room = shown.evaluate(SIZES_JS)
    if name == "pipeline.svg" or not (shots / f"figure-{width}.png").exists():
        page.screenshot(path=str(shots / f"figure-{width}.png"))
    assert drawn >= min(natural, room) - 1, f"shown {drawn:.0f} of {min(natural, room)} px wide"
    assert drawn <= room + 1 and not shown.evaluate(PANS_JS), "wider than the window, pans"
    if name.endswith(".svg"):
        size, view = smallest_text((site.path / "figures" / name).read_text("utf-8"))
        text_px = size * drawn / view if size and view else MIN_TEXT_PX
        assert text_px >= MIN_TEXT_PX, f"its smallest text is {text_px:.1f} px"
    caption = page.evaluate(PAGE_CAPTION_JS, name)
    assert caption and shown.evaluate(CAPTION_JS) == caption, "the lightbox shows no caption"
