"""Fixtures of the browser tests: the built site, one local web server and one headless Chromium
for the whole run, and a fresh tab per test.

    python -m pytest tests/browser --site site -v        (screenshots: --shots, build/browser/)

The browser is Debian's chromium driven by Playwright (Playwright's own browser is never
downloaded), fully offline: every request to another host is blocked and noted, and a test whose
tab made one fails. The quick suite does not collect this folder (tests/conftest.py collects it
only when it is named); named without --site every test here skips, saying why; with --site a
skip is a failure, so that a run in CI never passes by skipping.
"""

import functools
import re
import shutil
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from . import site_facts
from .probes import CARETS_JS, CLIPPED_JS, COVERED_JS, FIGURES_JS, GLOSSARY_JS

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
TIMEOUT_MS = 15_000
NO_SITE = (
    "no --site: the browser tests need a built site (python -m pytest tests/browser --site site)"
)


def pytest_addoption(parser):
    """Read when this folder is named on the command line (python -m pytest tests/browser):
    the quick suite, run from the root, never gives a site."""
    parser.addoption("--site", help="the built site the browser tests check")
    parser.addoption("--shots", help="where the browser tests save screenshots for review")


def given_site(config) -> Path | None:
    named = config.getoption("--site", default=None)
    return Path(named).resolve() if named else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With --site given, a browser test that skips has not checked anything: it fails."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and given_site(item.config) and HERE in Path(item.path).parents:
        report.outcome = "failed"
        report.longrepr = f"skipped although --site was given: {report.longrepr}"


def pytest_generate_tests(metafunc):
    """Tests that take `where_figure` run once per figure of the site, named by it."""
    if "where_figure" not in metafunc.fixturenames:
        return
    site = given_site(metafunc.config)
    pages = site_facts.figure_pages(site) if site and (site / "index.html").exists() else {}
    pairs = [(where, name) for where, names in sorted(pages.items()) for name in names]
    metafunc.parametrize("where_figure", pairs or [None], ids=[name for _, name in pairs] or None)


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


@dataclass
class Site:
    path: Path  # the built site
    base: str  # its address on the local server, ending in /

    def url(self, where: str, origin: str = "http") -> str:
        """A page's address over http, or as a file (file://, no server)."""
        return self.base + where if origin == "http" else (self.path / where).as_uri()


@pytest.fixture(scope="session")
def site(request) -> Site:
    path = given_site(request.config)
    if path is None:
        pytest.skip(NO_SITE)
    if not (path / "index.html").exists():
        pytest.fail(f"{path}/index.html is missing (build the site: mkdocs build)")
    handler = functools.partial(QuietHandler, directory=str(path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Site(path, f"http://127.0.0.1:{server.server_address[1]}/")
    server.shutdown()


@pytest.fixture(scope="session")
def shots(request) -> Path:
    folder = Path(request.config.getoption("--shots", default=None) or ROOT / "build" / "browser")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def browser(site):
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("no chromium on the PATH (scripts/setup.sh installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=LAUNCH_ARGS
        )
        yield launched
        launched.close()


@dataclass
class Tab:
    """A page of a fresh browser context, and what went wrong while it was open."""

    page: object
    external: list = field(default_factory=list)  # requests to another host (blocked)
    noise: list = field(default_factory=list)  # console errors, failed requests, page errors
    at: str = ""  # the address last visited

    def visit(self, url: str) -> "Tab":
        self.at = url
        self.page.goto(url)
        return self


def watch(tab: Tab, site: Site) -> None:
    """Blocks and notes every request that leaves the machine; notes every console error,
    uncaught error and failed request. The 404 status of a missing page is what a host sends:
    that page's own status, and the browser's line about it, are left aside; so is a request
    cut short because the reader went on to the next page (net::ERR_ABORTED)."""
    local = (site.base, "file:", "data:", "blob:")
    # The browser routes to this process only what matches: a request to anywhere else. (A
    # route of every request costs a round trip to Python for each file of every page.)
    elsewhere = re.compile("^(?!" + "|".join(map(re.escape, local)) + ")")

    def route(route):
        tab.external.append(route.request.url)
        route.abort()

    def console(message):
        own = message.location.get("url") == tab.at and "status of 404" in message.text
        if message.type == "error" and not own:
            tab.noise.append(f"console: {message.text[:100]}")

    def response(answer):
        if answer.status >= 400 and answer.url != tab.at:
            tab.noise.append(f"{answer.status} {answer.url}")

    tab.page.context.route(elsewhere, route)
    tab.page.on("console", console)
    tab.page.on("response", response)
    tab.page.on("pageerror", lambda error: tab.noise.append(f"error: {str(error)[:100]}"))
    tab.page.on(
        "requestfailed", lambda r: failed(r) and tab.noise.append(f"failed {r.url} {r.failure}")
    )

    def failed(request) -> bool:
        return request.url.startswith(local) and "ERR_ABORTED" not in (request.failure or "")


@pytest.fixture
def open_tab(browser, site):
    """open_tab(width=1280, scheme="light", touch=False): a fresh tab; closed after the test,
    which fails if the tab sent a request to another host."""
    opened: list[Tab] = []

    def open_one(width: int = 1280, scheme: str = "light", touch: bool = False) -> Tab:
        context = browser.new_context(
            viewport={"width": width, "height": 900 if not touch else 844},
            color_scheme=scheme,
            has_touch=touch,
            is_mobile=touch,
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.base[:-1])
        tab = Tab(context.new_page())
        watch(tab, site)
        opened.append(tab)
        return tab

    yield open_one
    for tab in opened:
        tab.page.context.close()
    assert not [url for tab in opened for url in tab.external], "a request left the machine"


@pytest.fixture
def tab(open_tab) -> Tab:
    """A tab 1280 px wide, light palette, with a mouse."""
    return open_tab()


@pytest.fixture(scope="session")
def survey(browser, site):
    """survey(width, origin="http"): every page visited once at that width (cached for the run),
    and what each showed: clipped blocks, covered first lines, figures, powers, glossary marks,
    and the requests and errors of its visit."""
    found: dict[tuple, dict] = {}

    def at(width: int, origin: str = "http") -> dict:
        if (width, origin) not in found:
            context = browser.new_context(viewport={"width": width, "height": 900})
            context.set_default_timeout(TIMEOUT_MS)
            tab = Tab(context.new_page())
            watch(tab, site)
            found[width, origin] = {where: read_page(tab, site.url(where, origin), width)
                                    for where in site_facts.all_pages(site.path)}  # fmt: skip
            context.close()
        return found[width, origin]

    return at


def read_page(tab: Tab, url: str, width: int) -> dict:
    tab.noise.clear()
    tab.external.clear()
    page = tab.visit(url).page
    return {
        "clipped": page.evaluate(CLIPPED_JS, width == site_facts.WIDTHS[0]),
        "covered": page.evaluate(COVERED_JS, site_facts.COPY_BUTTON),
        "blocks": page.locator("article pre").count(),
        "figures": page.evaluate(FIGURES_JS),
        "carets": page.evaluate(CARETS_JS),
        "glossary": page.evaluate(GLOSSARY_JS),
        "noise": list(tab.noise),
        "external": list(tab.external),
    }


@pytest.fixture(scope="session")
def step(site) -> str:
    """The first step of the short path, and the word of its title search must find it by."""
    return site_facts.step_page(site.path)


@pytest.fixture(scope="session")
def step_term(site, step) -> str:
    return site_facts.search_term(site.path, step)
