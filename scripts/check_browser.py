"""The built site in a real browser: headless Chromium, driven by Playwright, fully offline.

    python scripts/check_browser.py [SITE_DIR] [--shots DIR]     (default: site/)

Serves the site from a local web server and opens it in Debian's chromium (Playwright's own
browser is never downloaded), with a fresh profile and every request to another host blocked
and counted. It checks, as a reader would see them:
  1. a step of the short path renders: its title, and an output block with a caption;
  2. the copy button of a code block puts the code on the clipboard;
  3. the light/dark toggle changes the palette (a screenshot of the step in each mode is saved,
     into a temporary folder unless --shots names one);
  4. a figure of the book loads (a page with an <img> of figures/);
  5. search finds a word of a step's title and links to that step;
  6. the same search works from file://, with no server (the offline plugin and its shim);
  7. no request went to another host.
Prints one line per check and exits 1 when one fails. About ten to twenty seconds.
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


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


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


def search_term(site: Path, page: str) -> str:
    """The longest word of the page's title in the search index: search must find that page."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    for doc in index["docs"]:
        if doc["location"] == page:
            words = re.findall(r"[A-Za-z]{5,}", doc["title"])
            if words:
                return max(words, key=len)
    raise SystemExit(f"check_browser: {page} is not in the search index")


def figure_page(site: Path) -> str | None:
    for path in sorted(site.rglob("*.html")):
        if re.search(r'<img[^>]+src="[^"]*figures/[^"]+"', path.read_text(encoding="utf-8")):
            return str(path.relative_to(site))
    return None


class Checks:
    def __init__(self):
        self.results: list[tuple[str, bool, str]] = []

    def record(self, name: str, passed: bool, detail: str = "") -> None:
        self.results.append((name, passed, detail))
        verdict = "ok  " if passed else "FAIL"
        print(f"check_browser: {verdict} {name}" + (f": {detail}" if detail else ""))

    def run(self, name: str, function) -> None:
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
    links = page.eval_on_selector_all(
        ".md-search-result__item a", "links => links.map(a => a.getAttribute('href'))"
    )
    found = any(expected in (link or "") for link in links)
    where = "among" if found else "NOT in"
    return found, f"{term!r}: {len(links)} results, {expected} {where} them"


def run_checks(site: Path, shots: Path) -> Checks:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("check_browser: no chromium on the PATH (scripts/setup.sh installs it)")
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    step, checks, external = step_page(site), Checks(), []

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

        checks.run("a step renders with its output block", renders)
        checks.run("the copy button copies the code", copies)
        checks.run("the palette toggles between light and dark", toggles)
        checks.run("a figure loads", figure)
        checks.run("search finds a step (local server)", searches_served)
        checks.run("search finds a step (file://, no server)", searches_file)
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
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").exists():
        print(f"check_browser: {site}/index.html is missing (build the site: mkdocs build)")
        return 1
    shots = args.shots or Path(tempfile.mkdtemp(prefix="check-browser-"))
    shots.mkdir(parents=True, exist_ok=True)
    checks = run_checks(site, shots)
    failed = [name for name, passed, _ in checks.results if not passed]
    if failed:
        print(f"check_browser: FAILED: {len(failed)} of {len(checks.results)} checks")
        return 1
    print(f"check_browser: all {len(checks.results)} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
