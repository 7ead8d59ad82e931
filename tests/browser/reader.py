"""What a reader does in a tab, for the browser tests (tests/browser/): search, wait for a
tooltip, look at the header. Each returns what the reader would see."""

TIMEOUT_MS = 15_000
STYLED_JS = """() => { const h = document.querySelector('.md-header');
  return !!h && getComputedStyle(h).position === 'sticky'; }"""
TOOLTIP_SHOWN_JS = """() => { const t = document.querySelector('.md-tooltip2--active');
  return t && getComputedStyle(t).opacity === '1'; }"""


def search(page, term: str) -> list[str]:
    """The links search lists for term, once the list holds still."""
    box = page.locator("input.md-search__input")
    box.click()  # the search worker loads its index now; what is typed before it is ready is lost
    page.wait_for_function(
        "() => { const m = document.querySelector('.md-search-result__meta');"
        " return m && m.textContent.trim() && !/initiali/i.test(m.textContent); }"
    )
    box.press_sequentially(term, delay=20)
    page.wait_for_selector(".md-search-result__item", timeout=TIMEOUT_MS)
    # The worker answers each keystroke in turn, so the first results shown may be those of a
    # prefix ("hash-c"): read the list until it holds still for half a second.
    read = "links => links.map(a => a.getAttribute('href') || '')"
    links, previous = None, page.eval_on_selector_all(".md-search-result__item a", read)
    for _ in range(TIMEOUT_MS // 500):
        page.wait_for_timeout(500)
        links = page.eval_on_selector_all(".md-search-result__item a", read)
        if links == previous:
            break
        previous = links
    return links


def finds(page, term: str, expected: str) -> bool:
    return any(expected in link for link in search(page, term))


def styled(page) -> bool:
    """The site's style applies: Material's header sticks to the top."""
    return page.evaluate(STYLED_JS)


def tooltip_shown(page) -> None:
    page.wait_for_function(TOOLTIP_SHOWN_JS)
