"""The built site in a real browser: headless Chromium, driven by Playwright, fully offline.

    python scripts/check_browser.py [SITE_DIR] [--shots DIR]     (default: site/, build/browser/)

Serves the site from a local web server and opens it in Debian's chromium (Playwright's own
browser is never downloaded), with a fresh profile and every request to another host blocked
and counted. It checks, as a reader would see them:
  1. a step of the short path renders: its title, and an output block with a caption;
  2. the copy button of a code block puts the code on the clipboard;
  3. the light/dark toggle changes the palette (a screenshot of the step in each mode);
  4. a figure of the book loads (a page with an <img> of figures/);
  5. search finds a word of a step's title and links to that step;
  6. the same search works from file://, with no server (the offline plugin and its shim);
  7. at 1280 and 390 px wide, on every page: no code block or table is wider than the
     window, and none holds content wider than its box unless it scrolls sideways; at 1280 px
     no code block needs a sideways scroll at all (the site's code blocks wrap their long
     lines, docs/stylesheets/extra.css); appendix B's tables scroll sideways at 390 px;
  8. at both widths, the copy button of a code block covers no character of its first line;
  9. figures: no figure has a white or black backdrop, no figure of the short path is taller
     than the window, and every figure stands in a <figure> with a caption;
 10. a power written 2^31^ in the prose is a superscript, and no 2^31 is left in a page's text
     outside code;
 11. 404.html, opened from file://, is styled (its links are relative, docs/hooks/site404.py),
     and a missing page deep in the site, served as a host does, is styled, finds, links home;
 12. the glossary under the pointer (appendix F, docs/hooks/glossary.py): no term is marked
     inside code or a heading on any page, though code holds marked words, and none twice on
     a page; from the keyboard alone Tab reaches a term on a chapter, its definition shows,
     and Enter opens its entry in appendix F; at 1280 px with a mouse and at
     390 px with a touch screen, light and dark, a term's definition shows on hover and on tap
     on three pages, one term inside an admonition: the tooltip holds the definition, fits the
     window and its text differs in colour from its background (a screenshot of each goes to
     SHOTS); search finds appendix F under each spelling of GLOSSARY_SPELLINGS;
 13. figures open (mkdocs-glightbox, docs/stylesheets/generated.css): every figure, clicked at
     1280 px and tapped on a touch screen at 390 px, opens at its own size or, wider than the
     window, fitted to its width (never a sideways pan); its smallest text (read from the SVG,
     scaled as shown) is at least MIN_TEXT_PX (11) high; and its caption shows under it, the
     same words as the page's figcaption (docs/hooks/lightbox.py);
 14. the one-page edition (book.html, docs/hooks/onepage.py) loads, holds every page of the
     book but the Source section, each once with its title, and its table of contents links
     to each page and section; every link inside it to a place in it resolves; it is ready
     within BOOK_READY_S from file://, a chapter's printer icon opens it at that chapter, and
     the site's uopc-book.pdf has the page count the front page quotes next to its link;
 15. listings link to their lines (docs/hooks/source.py): on a page with listings, each title
     links to a line anchor of a Source page whose line is the listing's first line; at
     1280 and 390 px, a click on a title shows that line below the header; every Source page
     has its line anchors;
 16. 404.html, from file:// and at a missing path one and three folders deep over http: search
     works, no request fails and the console shows no error (but the page's own 404 status);
 17. the site ships one form of the search index (search_index.js), no search script for
     another language and no source map (docs/hooks/shipped.py);
 18. Material's reader features: the back-to-top button shows on scrolling up and takes the page
     to its top; the longest page has a "Last update" date from git, and breadcrumbs when it
     is inside a section (a chapter); on the first page with content tabs, a click on the
     second tab shows it and hides the first;
 19. no request went to another host.
Screenshots of the pages of SHOTS at 1280 and 390 px, light and dark, go to --shots (default
build/browser/), for a person to look at. Prints one line per check and exits 1 when one
fails. A few minutes: every page is visited at both widths.
"""

import argparse
import functools
import json
import re
import shutil
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from figure_checks import MIN_TEXT_PX, smallest_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
TIMEOUT_MS = 15_000
# Material's copy button (its class changed between releases)
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

# Every code block and table of the page that is wider than the window, or whose content is
# wider than its box while neither it nor a box around it scrolls sideways; and the number of
# tables that do scroll sideways (appendix B's, on a phone).
CLIPPED_JS = r"""(strict) => {
  const article = document.querySelector('article');
  if (!article) return [[], 0];
  const edge = document.documentElement.clientWidth + 1;
  const found = [];
  let scrolling = 0;
  // a box scrolls sideways when its overflow says so, unless it is laid out as a table
  const scrollsX = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) &&
                        getComputedStyle(e).display !== 'table';
  for (const box of article.querySelectorAll('pre > code, table')) {
    // the innermost box, this one or one around it, that scrolls and fits in the window
    let scroller = box;
    while (scroller && !(scrollsX(scroller) && scroller.getBoundingClientRect().right <= edge)) {
      scroller = scroller === article ? null : scroller.parentElement;
    }
    const what = (box.tagName + ' ' + box.textContent.trim().slice(0, 40)).replace(/\s+/g, ' ');
    const wider = box.getBoundingClientRect().right > edge;
    const overflows = box.scrollWidth > box.clientWidth + 1 && !scrollsX(box);
    if (!scroller && wider) found.push('wider than the window: ' + what);
    else if (!scroller && overflows) found.push('clipped: ' + what);
    else if (strict && box.tagName === 'CODE' && box.scrollWidth > box.clientWidth + 1) {
      found.push('needs a sideways scroll: ' + what);  // at full width every line shows
    }
    if (box.tagName === 'TABLE' && scroller && scroller.scrollWidth > scroller.clientWidth + 1) {
      scrolling += 1;
    }
  }
  return [found, scrolling];
}"""

# The code blocks whose copy button overlaps a character of the first line.
COVERED_JS = r"""(selector) => {
  const found = [];
  for (const pre of document.querySelectorAll('article pre')) {
    const code = pre.querySelector('code');
    const button = pre.parentElement.querySelector(selector) || pre.querySelector(selector);
    if (!code || !button) continue;
    const b = button.getBoundingClientRect();
    if (b.width === 0) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let node, covered = false;
    outer: while ((node = walker.nextNode())) {
      for (let i = 0; i < node.length; i++) {
        if (node.data[i] === '\n') break outer;
        if (node.data[i] === ' ') continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        for (const r of range.getClientRects()) {
          if (r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom) {
            covered = true;
            break outer;
          }
        }
      }
    }
    if (covered) found.push(code.textContent.split('\n')[0].slice(0, 60));
  }
  return found;
}"""

# Powers left as 2^31 in the text of the article, outside code.
CARETS_JS = r"""() => {
  const article = document.querySelector('article');
  if (!article) return [[], 0];
  const copy = article.cloneNode(true);
  copy.querySelectorAll('code, pre, script').forEach(e => e.remove());
  return [copy.textContent.match(/\d\^\(?\d+/g) || [], article.querySelectorAll('sup').length];
}"""

# Every figure image: its src, whether it sits in a <figure> with a caption, its height.
FIGURES_JS = """() => Array.from(document.querySelectorAll('article img[src*="figures/"]')).map(
  img => [img.getAttribute('src'), !!img.closest('figure'),
          !!(img.closest('figure') && img.closest('figure').querySelector('figcaption')),
          img.getBoundingClientRect().height])"""

# The caption the lightbox shows under the opened figure (GLightbox's description), and the
# caption of the figure on the page; both as plain text, white space collapsed.
CAPTION_JS = """i => { const d = i.closest('.gslide').querySelector('.gslide-desc');
  return d && d.offsetHeight > 0 ? d.textContent.replace(/\\s+/g, ' ').trim() : null; }"""
PAGE_CAPTION_JS = """name => {
  const i = document.querySelector(`article img[src$="figures/${name}"]`);
  const c = i && i.closest('figure') && i.closest('figure').querySelector('figcaption');
  return c ? c.textContent.replace(/\\s+/g, ' ').trim() : null; }"""

# The glossary's marks on a page (links to appendix F with the definition as their title,
# docs/hooks/glossary.py): how many, how many in an admonition, the text of those inside code or
# a heading (there must be none), the terms marked more than once (none: only a first use is
# marked), and how many code elements hold a marked word all the same (so that "none inside
# code" is a finding, not an accident of the page).
GLOSSARY_JS = r"""() => {
  const marks = Array.from(document.querySelectorAll('article a.glossary-term[title]'));
  const words = [...new Set(marks.map(e => e.textContent))];
  const escape = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const word = words.length ? new RegExp('\\b(?:' + words.map(escape).join('|') + ')\\b') : null;
  const codes = Array.from(document.querySelectorAll('article code'));
  const targets = marks.map(e => e.getAttribute('href'));
  return {
    marked: marks.length,
    admonition: marks.filter(e => e.closest('.admonition')).length,
    in_code: marks.filter(e => e.closest('code, pre, kbd, samp, h1, h2, h3, h4, h5, h6'))
      .map(e => e.textContent),
    repeated: targets.filter((t, i) => targets.indexOf(t) !== i),
    code_with_word: word ? codes.filter(c => word.test(c.textContent)).length : 0,
  };
}"""

# Marks one glossary term for the pointer: in the prose or in an admonition, never in a heading
# or a link. Returns its word and its definition (Material removes the title while it shows).
PROBE_JS = r"""(inAdmonition) => {
  const mark = Array.from(document.querySelectorAll('article a.glossary-term[title]')).find(e =>
    !!e.closest('.admonition') === inAdmonition);
  if (!mark) return null;
  mark.id = 'glossary-probe';
  mark.scrollIntoView({block: 'center'});
  return [mark.textContent, mark.title];
}"""

# The tooltip on show: its text, its box, its text and background colours, its opacity.
TOOLTIP_JS = r"""() => {
  const tip = document.querySelector('.md-tooltip2--active');
  if (!tip) return null;
  const inner = tip.querySelector('.md-tooltip2__inner') || tip;
  const box = inner.getBoundingClientRect();
  const style = getComputedStyle(inner);
  return {text: inner.innerText.trim(), left: box.left, right: box.right, height: box.height,
          color: style.color, background: style.backgroundColor,
          opacity: getComputedStyle(tip).opacity,
          scheme: document.body.getAttribute('data-md-color-scheme')};
}"""


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves the site as a host does: a missing path gets 404.html, at that path."""

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.exists():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def serve(site: Path) -> ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def step_page(site: Path) -> str:
    """The first step of the short path (relative URL), found from the built files."""
    steps = sorted(p for p in (site / "short").glob("*.html") if p.name != "index.html")
    if not steps:
        raise SystemExit("check_browser: no page under short/ in the site")
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
    raise SystemExit(f"check_browser: {page} is not in the search index")


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


# The one-page edition as the browser has it: its sections, the targets of its contents, and
# every in-page link whose target is missing.
BOOK_JS = r"""() => {
  const ids = new Set(Array.from(document.querySelectorAll('[id]')).map(e => e.id));
  const sections = Array.from(document.querySelectorAll('article section.onepage-page'));
  const toc = Array.from(document.querySelectorAll('article nav.onepage-toc a'))
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)));
  const top = Array.from(document.querySelectorAll('article nav.onepage-toc > ol > li > a'))
    .map(a => a.getAttribute('href').slice(1));
  const broken = Array.from(document.querySelectorAll('article a[href^="#"]'))
    .map(a => decodeURIComponent(a.getAttribute('href').slice(1)))
    .filter(id => id && !ids.has(id));
  return {sections: sections.map(s => s.id),
          titled: sections.filter(s => s.querySelector('h1')).length, toc: toc.length,
          top: top, missing: toc.filter(id => !ids.has(id)), broken: broken};
}"""

# Each listing title that links to a Source page: its link and its block's first line.
LISTINGS_JS = r"""() => Array.from(
  document.querySelectorAll('article .highlight .filename a[href*="source/"]')).map(a => [
    a.getAttribute('href'), a.textContent.trim(),
    a.closest('.highlight').querySelector('code').textContent.split('\n')[0]])"""

# The line a Source page's address points at: whether it exists, where it stands, its text and
# the text of the lines after it (a region may open with a nested region's marker).
TARGET_JS = r"""() => {
  const id = decodeURIComponent(location.hash.slice(1));
  const line = document.getElementById(id);
  if (!line) return null;
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const box = line.getBoundingClientRect();
  const lines = [];
  for (let e = line; e && lines.length < 4; e = e.nextElementSibling) lines.push(e.textContent);
  return {id: id, top: box.top, bottom: box.bottom, header: header, height: innerHeight,
          lines: lines};
}"""
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


class Checks:
    def __init__(self, skip: tuple[str, ...] = ()):
        self.results: list[tuple[str, bool, str]] = []
        self.skip = skip  # words of check names not run (--skip): said, never counted as passed
        self.skipped: list[str] = []

    def record(self, name: str, passed: bool, detail: str = "") -> None:
        self.results.append((name, passed, detail))
        verdict = "ok  " if passed else "FAIL"
        print(f"check_browser: {verdict} {name}" + (f": {detail}" if detail else ""))

    def run(self, name: str, function) -> None:
        if any(word in name for word in self.skip):
            self.skipped.append(name)
            print(f"check_browser: skip {name} (--skip)")
            return
        try:
            passed, detail = function()
        except Exception as error:  # a timeout or a missing element is a failed check
            passed, detail = False, f"{type(error).__name__}: {str(error).splitlines()[0]}"
        self.record(name, passed, detail)


def search(page, term: str, expected: str) -> tuple[bool, str]:
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
    read = "links => links.map(a => a.getAttribute('href'))"
    links, previous = None, page.eval_on_selector_all(".md-search-result__item a", read)
    for _ in range(TIMEOUT_MS // 500):
        page.wait_for_timeout(500)
        links = page.eval_on_selector_all(".md-search-result__item a", read)
        if links == previous:
            break
        previous = links
    found = any(expected in (link or "") for link in links)
    where = "among" if found else "NOT in"
    return found, f"{term!r}: {len(links)} results, {expected} {where} them"


# ---------------------------------------------------------------------------------------------
# What the site ships and the reader's features of Material (docs/hooks/shipped.py, site404.py)
# ---------------------------------------------------------------------------------------------

DEEP_404 = ("part1/no-such-page/", "a/b/c/missing.html")  # missing pages one and three deep
LANGUAGE_SCRIPTS = "assets/javascripts/lunr"  # Material's search scripts for other languages


def noisy_visit(page, url: str, act) -> list[str]:
    """The failed requests and console errors of one visit to url while act(page) runs. The
    page's own status (404 for a missing page, as a host answers) is what a host must send, and
    the browser's line about it is left aside; every other failure counts."""
    noise: list[str] = []

    def console(message):
        own = message.location.get("url") == url and "status of 404" in message.text
        if message.type == "error" and not own:
            noise.append(f"console: {message.text[:80]}")

    def response(answer):
        if answer.status >= 400 and answer.url != url:
            noise.append(f"{answer.status} {answer.url}")

    listeners = {
        "console": console,
        "response": response,
        "requestfailed": lambda r: noise.append(f"failed {r.url} {r.failure}"),
        "pageerror": lambda error: noise.append(f"error: {str(error)[:80]}"),
    }
    for event, listener in listeners.items():
        page.on(event, listener)
    try:
        page.goto(url)
        act(page)
    finally:
        for event, listener in listeners.items():
            page.remove_listener(event, listener)
    return noise


def quiet_404(page, site: Path, base: str, term: str, expected: str) -> tuple[bool, str]:
    """404.html from file:// and at two depths over http: search works, nothing fails."""
    said, noise = [], []
    found: list[bool] = []

    def searches(visited) -> None:
        try:
            found.append(search(visited, term, expected)[0])
        except Exception:  # a search that never gets ready times out: it failed, go on
            found.append(False)

    for url in [(site / "404.html").as_uri()] + [base + where for where in DEEP_404]:
        noise += noisy_visit(page, url, searches)
        said.append(f"{url.removeprefix(base)}: search {'works' if found[-1] else 'FAILS'}")
    failures = f"; {len(noise)} failed requests and errors: {'; '.join(noise[:3])}" if noise else ""
    return not noise and all(found), "; ".join(said) + failures


def ships_what_it_uses(site: Path) -> tuple[bool, str]:
    """One form of the search index, no search scripts for other languages, no source maps."""
    index = sorted(p.name for p in (site / "search").glob("search_index.*"))
    maps = sorted(str(p.relative_to(site)) for p in site.rglob("*.map"))
    languages = (site / LANGUAGE_SCRIPTS).exists()
    problems = [f"{len(index)} forms of the search index: {index}"] if len(index) != 1 else []
    problems += [f"{LANGUAGE_SCRIPTS}/ is shipped"] if languages else []
    problems += [f"{len(maps)} source maps: {maps[:2]}"] if maps else []
    return not problems, "; ".join(problems) or f"search/{index[0]}, no language script or map"


def long_page(site: Path) -> str:
    """The longest page the reader reads (a chapter in the book), Source pages and book.html
    left out: the back-to-top button needs a page to scroll, the breadcrumbs a nested page."""
    pages = [p for p in site.rglob("*.html") if p.relative_to(site).as_posix() != BOOK]
    pages = [p for p in pages if not p.relative_to(site).as_posix().startswith(SOURCE)]
    return str(max(pages, key=lambda p: (p.stat().st_size, p)).relative_to(site))


def back_to_top(page, base: str, where: str) -> tuple[bool, str]:
    """Material's back-to-top button: shown when the reader scrolls back up, and it works.
    A low window (300 px) makes even a short page scroll."""
    page.set_viewport_size({"width": 1280, "height": 300})
    try:
        page.goto(base + where)
        button = page.locator(".md-top")
        page.mouse.wheel(0, 4000)
        page.wait_for_timeout(300)
        page.mouse.wheel(0, -100)  # the button shows while the reader scrolls upwards
        button.wait_for(state="visible")
        button.click()
        page.wait_for_function("() => window.scrollY === 0")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    return True, f"{where}: shown on scrolling up, takes the page to its top"


def reader_features(page, base: str, where: str) -> tuple[bool, str]:
    """A page shows its date of last update from git and, when it sits two sections deep in the
    navigation, its breadcrumbs (a chapter: Deep book > Part 2). A page of a top-level section
    alone (an appendix under Back matter) has none: the tab above it already says where it is,
    and Material draws the path only from two levels."""
    page.goto(base + where)
    nested = page.locator(".md-nav--primary .md-nav__item--active.md-nav__item--nested").count()
    crumbs = page.locator(".md-path__item").all_inner_texts()
    updated = page.locator(".git-revision-date-localized-plugin").all_inner_texts()
    passed = (bool(crumbs) or nested < 2) and bool(updated) and all(t.strip() for t in updated)
    path = " > ".join(crumb.strip() for crumb in crumbs) or "none"
    return passed, f"{where}: breadcrumbs {path} ({nested} open sections); last update {updated}"


def tabs_switch(page, base: str, site: Path) -> tuple[bool, str]:
    """Content tabs: a click on a page's second tab shows its block and hides the first. A site
    without tabs (a small book) has nothing to check here."""
    pages = [p for p in sorted(site.rglob("*.html")) if "tabbed-set" in p.read_text("utf-8")]
    pages = [p for p in pages if p.relative_to(site).as_posix() != BOOK]
    if not pages:
        return True, "no page has content tabs"
    where = str(pages[0].relative_to(site))
    page.goto(base + where)
    tabs = page.locator(".tabbed-set").first
    blocks = tabs.locator(".tabbed-block")
    tabs.locator(".tabbed-labels > label").nth(1).click()
    shown = [blocks.nth(i).is_visible() for i in range(2)]
    return shown == [False, True], f"{where}: after a click on the second tab, shown {shown}"


def run_checks(site: Path, shots: Path, skip: tuple[str, ...] = ()) -> Checks:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("check_browser: no chromium on the PATH (scripts/setup.sh installs it)")
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    step, checks, external = step_page(site), Checks(skip), []

    def route(route):
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("file", "data", "blob") or url.startswith(base):
            route.continue_()
        else:
            route.abort()  # counted by the request listener below, like every request

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            headless=True,
            args=LAUNCH_ARGS,
            color_scheme="light",
            viewport={"width": 1280, "height": 900},
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.route("**/*", route)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base[:-1])
        page = context.pages[0] if context.pages else context.new_page()
        page.on("request", lambda r: None if r.url.startswith((base, "file:", "data:", "blob:"))
                else external.append(r.url))  # fmt: skip

        def renders():
            page.goto(base + step)
            heading = page.locator("article h1").first.inner_text().rstrip("¶").strip()
            title = page.title()
            captions = page.locator(".highlight .filename").all_inner_texts()
            code = page.locator(".highlight code").first.inner_text()
            passed = bool(heading) and heading in title and bool(captions) and bool(code.strip())
            return passed, f"{step}: {heading!r}, {len(captions)} captioned blocks"

        def copies():
            page.goto(base + step)
            block = page.locator(".highlight").first
            expected = block.locator("code").inner_text().strip()
            block.hover()
            block.locator(COPY_BUTTON).first.click()
            copied = page.evaluate("navigator.clipboard.readText()").strip()
            return copied == expected, f"{len(copied)} characters copied from the first block"

        def toggles():
            page.goto(base + step)
            scheme = "document.body.getAttribute('data-md-color-scheme')"
            before = page.evaluate(scheme)
            page.screenshot(path=str(shots / "step-light.png"))
            page.locator("form[data-md-component='palette'] label:visible").first.click()
            page.wait_for_function(f"{scheme} !== {json.dumps(before)}")
            after = page.evaluate(scheme)
            page.screenshot(path=str(shots / "step-dark.png"))
            page.locator("form[data-md-component='palette'] label:visible").first.click()
            return before != after, f"{before} -> {after}; screenshots in {shots}"

        def figure():
            where = figure_page(site)
            if where is None:
                return False, "no page shows a figure"
            page.goto(base + where)
            image = page.locator("article img[src*='figures/']").first
            image.scroll_into_view_if_needed()
            image.evaluate("img => img.decode()")
            width = image.evaluate("img => img.naturalWidth")
            return width > 0, f"{where}: {image.get_attribute('src')}, {width} px wide"

        term = search_term(site, step)

        def searches_served():
            page.goto(base + "index.html")
            return search(page, term, Path(step).name)

        def searches_file():
            page.goto((site / "index.html").as_uri())
            return search(page, term, Path(step).name)

        survey: dict = {}

        def surveyed() -> dict:
            """Every page visited once at each width; the layout checks read what was found."""
            if not survey:
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 900})
                    for where in all_pages(site):
                        page.goto(base + where)
                        survey[where, width] = {
                            "clipped": page.evaluate(CLIPPED_JS, width == WIDTHS[0]),
                            "covered": page.evaluate(COVERED_JS, COPY_BUTTON),
                            "blocks": page.locator("article pre").count(),
                            "figures": page.evaluate(FIGURES_JS),
                            "carets": page.evaluate(CARETS_JS),
                            "glossary": page.evaluate(GLOSSARY_JS),
                        }
                page.set_viewport_size({"width": 1280, "height": 900})
            return survey

        def clipping():
            problems = [
                f"{where} at {width} px: {problem}"
                for (where, width), found in surveyed().items()
                for problem in found["clipped"][0]
            ]
            scrolling = sum(found["clipped"][1] for found in survey.values())
            detail = f"{len(survey)} page views, {scrolling} tables scroll sideways"
            return not problems, "; ".join(problems[:4]) or detail

        def copy_button_clear():
            problems = [
                f"{where} at {width} px: {line!r}"
                for (where, width), found in surveyed().items()
                for line in found["covered"]
            ]
            blocks = sum(found["blocks"] for found in survey.values())
            return not problems, "; ".join(problems[:3]) or f"{blocks} blocks, first lines clear"

        def figures_read():
            problems, seen = [], 0
            for name in sorted((site / "figures").glob("*.svg")):
                if has_background(name.read_text(encoding="utf-8")):
                    problems.append(f"figures/{name.name} has a white or black backdrop")
            for (where, width), found in surveyed().items():
                for src, in_figure, captioned, height in found["figures"]:
                    seen += width == WIDTHS[0]
                    if not (in_figure and captioned):
                        problems.append(f"{where}: {src} without a <figure> and its caption")
                    if where.startswith("short/") and width == WIDTHS[0] and height > 900:
                        problems.append(f"{where}: {src} is {height:.0f} px high")
            return not problems, "; ".join(problems[:4]) or f"{seen} figures on the pages"

        def superscripts():
            left, sups = [], 0
            for (where, width), found in surveyed().items():
                if width == WIDTHS[0]:
                    carets, count = found["carets"]
                    sups += count
                    left += [f"{where}: {text}" for text in carets]
            return not left, "; ".join(left[:4]) or f"{sups} superscripts, no caret left in prose"

        def page_404():
            text = (site / "404.html").read_text(encoding="utf-8")
            rooted = re.findall(r'(?:href|src)="/(?!/)[^"]*"', text)
            page.goto((site / "404.html").as_uri())
            styled = page.evaluate(
                "() => { const h = document.querySelector('.md-header');"
                " return !!h && getComputedStyle(h).position === 'sticky'; }"
            )
            detail = f"{len(rooted)} links from the server's root; styled from file://: {styled}"
            return styled and not rooted, detail

        def page_404_served():
            """A missing page deep in the site: styled, searchable, and a link home that works."""
            page.goto(base + "part1/no-such-page/")
            styled = page.evaluate(
                "() => { const h = document.querySelector('.md-header');"
                " return !!h && getComputedStyle(h).position === 'sticky'; }"
            )
            found, said = search(page, term, Path(step).name)
            page.goto(base + "part1/no-such-page/")
            page.click("article a[href='index.html']")
            home = page.url.rstrip("/").endswith(("index.html", base.rstrip("/")))
            detail = f"styled at a deeper path: {styled}; search {said}; home link: {page.url}"
            return styled and found and home, detail

        def glossary_not_in_code():
            marked, pages, in_code, holding = 0, 0, [], 0
            for (where, width), found in surveyed().items():
                if width == WIDTHS[0]:
                    marks = found["glossary"]
                    marked += marks["marked"]
                    pages += marks["marked"] > 0
                    in_code += [f"{where}: {word!r}" for word in marks["in_code"]]
                    in_code += [f"{where}: {t} marked twice" for t in marks["repeated"][:1]]
                    holding += marks["code_with_word"]
            detail = (f"{marked} marked terms on {pages} pages, each once, none inside code or a "
                      f"heading, though "
                      f"{holding} code blocks and spans hold a marked word")  # fmt: skip
            passed = marked > 0 and holding > 0 and not in_code
            return passed, "; ".join(in_code[:4]) or detail

        def glossary_tooltips():
            """Hover with a mouse at 1280 px, tap on a touch screen at 390 px, light and dark."""
            chosen = tooltip_pages({where: found["glossary"] for (where, width), found
                                    in surveyed().items() if width == WIDTHS[0]})  # fmt: skip
            if len(chosen) < 3:
                return False, f"three pages with glossary terms needed, found {chosen}"
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=LAUNCH_ARGS
            )
            problems, shown = [], 0
            for width, touch in ((WIDTHS[0], False), (WIDTHS[1], True)):
                for scheme in ("light", "dark"):
                    context = browser.new_context(
                        viewport={"width": width, "height": 844},
                        has_touch=touch,
                        is_mobile=touch,
                        color_scheme=scheme,
                    )
                    context.set_default_timeout(TIMEOUT_MS)
                    context.route("**/*", route)
                    context.on("request", lambda r: None if r.url.startswith(
                        (base, "file:", "data:", "blob:")) else external.append(r.url))  # fmt: skip
                    tab = context.new_page()
                    for where, in_admonition in chosen:
                        case = f"{where} at {width} px, {scheme}"
                        tab.goto(base + where)
                        probe = tab.evaluate(PROBE_JS, in_admonition)
                        if probe is None:
                            problems.append(f"{case}: no term to point at")
                            continue
                        word, definition = probe
                        mark = tab.locator("#glossary-probe")
                        mark.tap() if touch else mark.hover()
                        tab.wait_for_function(
                            "() => { const t = document.querySelector('.md-tooltip2--active');"
                            " return t && getComputedStyle(t).opacity === '1'; }"
                        )
                        tip = tab.evaluate(TOOLTIP_JS)
                        expected = "slate" if scheme == "dark" else "default"
                        if tip["text"] != " ".join(definition.split()):
                            problems.append(f"{case}: {word!r} shows {tip['text'][:40]!r}")
                        elif tip["left"] < 0 or tip["right"] > width or tip["height"] <= 0:
                            problems.append(f"{case}: {word!r}'s tooltip leaves the window")
                        elif tip["color"] == tip["background"] or tip["scheme"] != expected:
                            problems.append(f"{case}: {word!r}'s tooltip is unreadable")
                        else:
                            shown += 1
                        if in_admonition:
                            name = f"tooltip-{width}-{scheme}.png"
                            tab.screenshot(path=str(shots / name))
                    context.close()
            browser.close()
            pages = ", ".join(f"{where}{' (admonition)' * a}" for where, a in chosen)
            detail = f"{shown} of {4 * len(chosen)} tooltips shown, on {pages}"
            return not problems and shown > 0, "; ".join(problems[:4]) or detail

        def glossary_keyboard():
            """From the keyboard alone, on a chapter: Tab reaches a glossary term, its
            definition shows while it has the focus, and Enter opens its entry in appendix F."""
            where = next((w for (w, width), found in sorted(surveyed().items()) if
                          w.startswith("part") and found["glossary"]["marked"]), None)  # fmt: skip
            if where is None:
                return False, "no chapter marks a glossary term"
            page.goto(base + where)
            presses = 0
            while not page.evaluate("() => document.activeElement.matches('a.glossary-term')"):
                if presses == 400:
                    return False, f"{where}: 400 presses of Tab never reach a glossary term"
                page.keyboard.press("Tab")
                presses += 1
            word = page.evaluate("() => document.activeElement.textContent")
            page.wait_for_function(
                "() => { const t = document.querySelector('.md-tooltip2--active');"
                " return t && getComputedStyle(t).opacity === '1'; }"
            )
            with page.expect_navigation():
                page.keyboard.press("Enter")
            target = urlsplit(page.url)
            found = target.path.endswith(GLOSSARY) and page.evaluate(
                "(id) => !!document.getElementById(id)", target.fragment
            )
            detail = (f"{where}: Tab x{presses} focuses {word!r}, its tooltip shows, Enter "
                      f"opens {Path(target.path).name}#{target.fragment}")  # fmt: skip
            return bool(found), detail

        def glossary_spellings():
            """Search finds a term's entry in appendix F under each of its common spellings."""
            said = []
            for spelling in GLOSSARY_SPELLINGS:
                page.goto(base + "index.html")
                found, detail = search(page, spelling, Path(GLOSSARY).name)
                if not found:
                    return False, detail
                said.append(detail.split(":")[0])
            return True, f"{', '.join(said)} each find {GLOSSARY}"

        def figures_open():
            """Each figure, clicked at 1280 px and tapped on a touch screen at 390 px, opens in
            the lightbox at its own size or fitted to the window's width, never panned
            sideways, its smallest text at least MIN_TEXT_PX high and its caption under it."""
            pages = figure_pages(site)
            if not pages:
                return False, "no page shows a figure"
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=LAUNCH_ARGS
            )
            problems, opened, smallest = [], 0, {}
            for width, touch in ((WIDTHS[0], False), (WIDTHS[1], True)):
                context = browser.new_context(
                    viewport={"width": width, "height": 844}, has_touch=touch, is_mobile=touch
                )
                context.set_default_timeout(TIMEOUT_MS)
                context.route("**/*", route)
                context.on("request", lambda r: None if r.url.startswith(
                    (base, "file:", "data:", "blob:")) else external.append(r.url))  # fmt: skip
                tab = context.new_page()
                for where, names in sorted(pages.items()):
                    tab.goto(base + where)
                    for name in names:
                        case = f"{name} on {where} at {width} px"
                        image = tab.locator(f"article a.glightbox img[src$='figures/{name}']")
                        if image.count() == 0:
                            problems.append(f"{case}: not in a link that opens it")
                            continue
                        image.first.scroll_into_view_if_needed()
                        image.first.tap() if touch else image.first.click()
                        shown = tab.locator(".glightbox-container .gslide.current img")
                        shown.wait_for(state="visible")
                        tab.wait_for_function(
                            "() => { const i = document.querySelector("
                            "'.glightbox-container .gslide.current img');"
                            " return i && i.complete && i.naturalWidth > 0; }"
                        )
                        tab.wait_for_timeout(400)  # the opening effect
                        natural, drawn, room = shown.evaluate(
                            "i => [i.naturalWidth, i.getBoundingClientRect().width,"
                            " document.documentElement.clientWidth]"
                        )
                        svg = (site / "figures" / name).read_text(encoding="utf-8")
                        size, view = smallest_text(svg) if name.endswith(".svg") else (0, 0)
                        text_px = size * drawn / view if size and view else None
                        if text_px is not None:
                            smallest[width] = min(smallest.get(width, text_px), text_px)
                        pans = shown.evaluate(
                            "i => { const box = i.closest('.gslide-media');"
                            " box.scrollLeft = 40; return box.scrollLeft > 0; }"
                        )
                        said = shown.evaluate(CAPTION_JS)
                        caption = tab.evaluate(PAGE_CAPTION_JS, name)
                        fit = min(natural, room)  # its own size, or the window's width
                        if drawn < fit - 1:
                            problems.append(f"{case}: shown {drawn:.0f} of {fit} px wide")
                        elif drawn > room + 1 or pans:
                            problems.append(f"{case}: wider than the window, pans sideways")
                        elif text_px is not None and text_px < MIN_TEXT_PX:
                            problems.append(f"{case}: its smallest text is {text_px:.1f} px")
                        elif not caption or said != caption:
                            problems.append(f"{case}: caption {said!r} in the lightbox")
                        else:
                            opened += 1
                        if name == "pipeline.svg" or not (shots / f"figure-{width}.png").exists():
                            tab.screenshot(path=str(shots / f"figure-{width}.png"))
                        tab.keyboard.press("Escape")
                        tab.locator(".glightbox-container").wait_for(state="detached")
                context.close()
            browser.close()
            sizes = ", ".join(f"{px:.1f} px at {w} px" for w, px in sorted(smallest.items()))
            detail = (
                f"{opened} figure views opened whole, each with its caption; smallest text {sizes}"
            )
            return not problems, "; ".join(problems[:8]) or detail  # two widths, a few figures

        def one_page():
            """book.html: every page of the book but the Source section, once, titled, with a
            table of contents whose links all land, and no in-page link that goes nowhere."""
            if not (site / BOOK).exists():
                return False, f"no {BOOK} in the site"
            expected = [
                page_key(where)
                for where in all_pages(site)
                if where != "404.html" and not where.startswith(SOURCE)
            ]
            page.goto(base + BOOK)
            found = page.evaluate(BOOK_JS)
            problems = []
            if sorted(found["sections"]) != sorted(expected):
                missing = sorted(set(expected) - set(found["sections"]))
                extra = sorted(set(found["sections"]) - set(expected))
                problems.append(f"pages missing {missing[:3]}, not expected {extra[:3]}")
            if len(set(found["sections"])) != len(found["sections"]):
                problems.append("a page appears twice")
            if found["titled"] != len(found["sections"]):
                problems.append(f"{len(found['sections']) - found['titled']} pages without a title")
            if found["top"] != found["sections"]:
                problems.append("the contents do not list the pages in their order")
            problems += [f"a contents link to nowhere: #{id}" for id in found["missing"][:3]]
            problems += [f"a link to nowhere: #{id}" for id in found["broken"][:3]]
            detail = (f"{len(found['sections'])} pages, {found['toc']} contents links, "
                      f"{len(found['broken'])} broken in-page links")  # fmt: skip
            return not problems, "; ".join(problems[:4]) or detail

        def one_page_fast_and_printed():
            """book.html is ready (DOMContentLoaded) within BOOK_READY_S from file://; the
            printer icon of a chapter opens it at that chapter; the PDF the build printed is in
            the site with the page count the front page quotes."""
            problems = []
            page.goto((site / BOOK).as_uri(), wait_until="domcontentloaded")
            ready = page.evaluate(
                "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"
            )
            if ready > BOOK_READY_S * 1000:
                problems.append(f"{BOOK} ready after {ready / 1000:.1f} s")
            chapter = next(w for w in all_pages(site) if w.startswith("part2/"))
            page.goto(base + chapter)
            with page.expect_navigation():
                page.click("a.onepage-print")
            landed = urlsplit(page.url)
            if not (landed.path.endswith(BOOK) and landed.fragment == page_key(chapter)):
                problems.append(f"{chapter}'s printer icon opens {page.url}")
            pdf = site / PDF
            data = pdf.read_bytes() if pdf.exists() else b""
            pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
            front = (site / "index.html").read_text(encoding="utf-8")
            quoted = re.search(rf'href="{PDF}">PDF</a> of ([\d,]+) A4 pages', front)
            if quoted is None:
                problems.append(f"the front page quotes no page count for {PDF}")
            elif pages != int(quoted.group(1).replace(",", "")):
                problems.append(f"{PDF} has {pages} pages, the front page says {quoted.group(1)}")
            detail = (f"{BOOK} ready in {ready / 1000:.1f} s; {chapter}'s icon lands on its "
                      f"section; {PDF} has {pages} pages, as the front page says")  # fmt: skip
            return not problems, "; ".join(problems) or detail

        def listings_link():
            """The listing titles of one page link to the first line of their region on a
            Source page; at both widths a click on a title shows that line below the header."""
            where = next(
                (p for p in all_pages(site) if not p.startswith(SOURCE) and re.search(
                    r'class="filename"><a href="[^"]*source/', (site / p).read_text("utf-8"))),
                None,
            )  # fmt: skip
            if where is None:
                return False, "no listing title links to a Source page"
            problems, followed = [], 0
            page.goto(base + where)
            listings = page.evaluate(LISTINGS_JS)
            for href, title, first in listings:
                target = urlsplit(href)
                page.goto(base + where)
                page.goto(page.url.rsplit("/", 1)[0] + "/" + href)
                line = page.evaluate(TARGET_JS)
                code = [t for t in (line or {}).get("lines", []) if not MARKER_LINE.match(t)]
                if not re.fullmatch(r"L\d+", target.fragment):
                    problems.append(f"{title!r}: {href} names no line")
                elif line is None:
                    problems.append(f"{title!r}: {href} has no such line")
                elif not code or code[0].strip() != first.strip():
                    problems.append(f"{title!r}: line {target.fragment} is not the listing's first")
                else:
                    followed += 1
            for width in WIDTHS:  # the click, as a reader does it
                page.set_viewport_size({"width": width, "height": 900})
                page.goto(base + where)
                page.locator("article .highlight .filename a[href*='source/']").first.click()
                page.wait_for_load_state()
                line = page.evaluate(TARGET_JS)
                if line is None or not (line["header"] <= line["top"] < line["height"]):
                    problems.append(f"at {width} px the clicked title's line is not in view")
                page.screenshot(path=str(shots / f"source-line-{width}.png"))
            page.set_viewport_size({"width": 1280, "height": 900})
            sources = sorted((site / SOURCE).rglob("*.html"))
            anchorless = [
                str(p.relative_to(site)) for p in sources
                if p.name not in ("index.html", "api.html")
                and 'id="L1"' not in p.read_text(encoding="utf-8")
            ]  # fmt: skip
            problems += [f"{name} has no line anchors" for name in anchorless[:3]]
            detail = (f"{where}: {followed} of {len(listings)} listing titles land on their "
                      f"first line; {len(sources)} Source pages")  # fmt: skip
            return not problems and followed > 0, "; ".join(problems[:4]) or detail

        def screenshots():
            taken = 0
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 900})
                    for where in SHOTS:
                        if not (site / where).exists():
                            continue
                        page.goto(base + where)
                        page.evaluate("localStorage.clear()")  # the palette follows the scheme
                        page.reload()
                        name = where.removesuffix(".html").replace("/", "-")
                        page.screenshot(path=str(shots / f"{name}-{width}-{scheme}.png"),
                                        full_page=True)  # fmt: skip
                        taken += 1
            page.emulate_media(color_scheme="light")
            page.set_viewport_size({"width": 1280, "height": 900})
            return taken > 0, f"{taken} screenshots in {shots}"

        checks.run("a step renders with its output block", renders)
        checks.run("the copy button copies the code", copies)
        checks.run("the palette toggles between light and dark", toggles)
        checks.run("a figure loads", figure)
        checks.run("search finds a step (local server)", searches_served)
        checks.run("search finds a step (file://, no server)", searches_file)
        checks.run("no code block or table is clipped (1280 and 390 px)", clipping)
        checks.run("the copy button leaves the first line clear", copy_button_clear)
        checks.run("figures: no white backdrop, short, each captioned", figures_read)
        checks.run("powers are superscripts", superscripts)
        checks.run("404.html is styled from file://", page_404)
        checks.run(
            "a missing page deep in the site is styled, searchable, links home", page_404_served
        )
        checks.run("no glossary term is marked inside code", glossary_not_in_code)
        checks.run(
            "a glossary term's definition shows on hover and on tap, light and dark",
            glossary_tooltips,
        )
        checks.run(
            "the keyboard reaches a glossary term, shows it and opens its entry", glossary_keyboard
        )
        checks.run("search finds a glossary term by its other spellings", glossary_spellings)
        checks.run(
            "every figure opens whole with its caption, text >= 11 px (1280, 390 px)", figures_open
        )
        checks.run("the one-page edition loads with its contents", one_page)
        checks.run(
            "the one-page edition opens fast, from every page's icon, and is printed to PDF",
            one_page_fast_and_printed,
        )
        checks.run("listing titles link to their lines on the Source pages", listings_link)
        checks.run(
            "404.html from file:// and at depth: search works, 0 failed requests and errors",
            lambda: quiet_404(page, site, base, term, Path(step).name),
        )
        checks.run("the site ships one search index form and no unused script",
                   lambda: ships_what_it_uses(site))  # fmt: skip
        checks.run("the back-to-top button shows and works",
                   lambda: back_to_top(page, base, long_page(site)))  # fmt: skip

        def features_of_two_pages():
            """The longest page, and the first chapter two sections deep when there is one."""
            chapter = next((w for w in all_pages(site) if w.startswith("part")), None)
            found = [reader_features(page, base, w) for w in {long_page(site), chapter} if w]
            return all(ok for ok, _ in found), "; ".join(said for _, said in found)

        checks.run("breadcrumbs where a page is two sections deep, and a last update date",
                   features_of_two_pages)  # fmt: skip
        checks.run("content tabs switch", lambda: tabs_switch(page, base, site))
        checks.run("screenshots for review", screenshots)
        context.close()
    server.shutdown()
    urls = sorted(set(external))
    detail = f"{len(external)} requests blocked, to {len(urls)} URLs {' '.join(urls[:5])}"
    checks.record("no request to another host", not external, detail.rstrip())
    return checks


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", nargs="?", type=Path, default=ROOT / "site")
    parser.add_argument("--shots", type=Path, help="where the screenshots go")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        help="leave out the checks whose name holds this word (a small site without a "
        "glossary, say); each is named as skipped, and the run says how many",
    )
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").exists():
        print(f"check_browser: {site}/index.html is missing (build the site: mkdocs build)")
        return 1
    shots = args.shots or ROOT / "build" / "browser"
    shots.mkdir(parents=True, exist_ok=True)
    checks = run_checks(site, shots, tuple(args.skip))
    failed = [name for name, passed, _ in checks.results if not passed]
    skipped = f", {len(checks.skipped)} skipped (--skip)" if checks.skipped else ""
    if failed:
        print(f"check_browser: FAILED: {len(failed)} of {len(checks.results)} checks{skipped}")
        return 1
    print(f"check_browser: all {len(checks.results)} checks passed{skipped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
