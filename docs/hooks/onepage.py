"""mkdocs hook: the whole book on one page (book.html), to read in one scroll or print to PDF.

Why a hook: mkdocs-print-site-plugin (2.9, tried on this site in December 2026) keeps each
page's ids as they are and renames them in the browser with a script of its own: as built, its
page holds 1,952 ids used more than once and 334 links to anchors that do not exist, which the
HTML check refuses; under the offline plugin's file URLs it loses every figure (23 failed
requests from file://); no page can link to it in a strict build (it is not a page of the
docs); and it keeps every tooltip. This hook rewrites the ids when it builds, so the page is
right without a script.

Every page of the navigation but the Source section comes as the site shows it (this hook takes
its HTML last), in a <section> whose id is the page's path ("part1-03-ops"): each id becomes
"<page>--<id>", links into the book become links into this page, other local links are made
relative to book.html. Permanent-link marks and glossary tooltips go (a thousand tooltips made
the page slow to open), and so does the `data-md-component="content"` mark, so that the theme's
scripts do not mount their components on its some 40,000 elements. Search leaves it out. Every
other page carries a printer icon that opens this page at its own section.

`mkdocs build` then prints the page to a PDF with headless Chromium (Debian's `chromium`,
driven by Playwright), every collapsed answer opened, the outline made from the headings;
`mkdocs serve`, or UOPC_NO_PDF=1, leaves an empty file in its place.
"""

import html
import os
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import material
from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import File
from mkdocs.structure.toc import AnchorLink, TableOfContents

PAGE = "book.md"
TITLE = "The whole book on one page"
PDF = "uopc-book.pdf"  # the one page printed, at the site's root
LEFT_OUT = ("source/",)  # pages under these paths are not part of the reading edition
PRINTER = Path(material.__file__).parent / "templates/.icons/material/printer-outline.svg"
STUB = f"""---
search:
  exclude: true
---

# {TITLE}

Every page of the book, in the order of the navigation, on one page: to read in one scroll, to
search with the browser's find, or to print (your browser's print to PDF makes a book of it;
the collapsed answers open for printing), or to take away as [a PDF]({PDF}) that the build
prints from it. The Source section, the files whole and the API reference, is left out; links
to it still work.
"""
ID = re.compile(r'(\s(?:id|name|for)=")([^"]*)(")')  # an id, and what names one (tabs)
URL = re.compile(r'(\s(?:href|src)=")([^"]*)(")')
PRINT_ICON = re.compile(r'<a class="md-content__button md-icon onepage-print"[^>]*>.*?</a>', re.S)
HEADERLINK = re.compile(r'<a class="headerlink" [^>]*>[^<]*</a>')
GLOSSARY_TITLE = re.compile(r'(<a class="glossary-term" href="[^"]*") title="[^"]*"')
STATE: dict = {}


def key(url: str) -> str:
    """part1/03-ops.html -> part1-03-ops: the id of a page's section on the one page."""
    return url.removesuffix(".html").replace("/", "-") or "index"


def on_startup(command, dirty):
    STATE["print"] = command == "build" and not os.environ.get("UOPC_NO_PDF")


def on_files(files, config):
    files.append(File.generated(config, PAGE, content=STUB))
    files.append(File.generated(config, PDF, content=b""))  # printed after the build
    STATE.update(html={}, pages=[])
    return files


def included(page) -> bool:
    return page.file.src_uri != PAGE and not page.file.src_uri.startswith(LEFT_OUT)


def on_nav(nav, config, files):
    STATE["pages"] = [page for page in nav.pages if included(page)]
    return nav


def print_icon(page_url: str) -> str:
    """The printer icon at a page's top right: the one-page edition at this page's section."""
    href = posixpath.relpath(PAGE.replace(".md", ".html"), posixpath.dirname(page_url) or ".")
    return (
        f'<a class="md-content__button md-icon onepage-print" href="{href}#{key(page_url)}" '
        f'title="This page in the whole book on one page, to print or read in one scroll">'
        f"{PRINTER.read_text(encoding='utf-8')}</a>"
    )


def add_print_icon(text, page, config, files):
    return print_icon(page.url) + text if included(page) else text


@event_priority(-100)  # after every other hook and plugin: the page as the site shows it
def capture(text, page, config, files):
    if included(page):
        STATE["html"][page.url] = text
    return text


on_page_content = CombinedEvent(add_print_icon, capture)


def rewrite(text: str, page_url: str, urls: set[str]) -> str:
    """One page's HTML as a part of book.html (at the top of the site)."""
    own = key(page_url)
    text = GLOSSARY_TITLE.sub(r"\1", HEADERLINK.sub("", PRINT_ICON.sub("", text)))
    text = ID.sub(lambda m: f"{m.group(1)}{own}--{m.group(2)}{m.group(3)}", text)

    def link(match: re.Match) -> str:
        url = html.unescape(match.group(2))
        parts = urlsplit(url)
        if not url or parts.scheme or url.startswith("//"):
            return match.group(0)
        if not parts.path:  # a place on the same page
            target = f"#{own}--{parts.fragment}" if parts.fragment else f"#{own}"
        else:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(page_url), parts.path))
            if path in urls:
                target = f"#{key(path)}" + (f"--{parts.fragment}" if parts.fragment else "")
            else:
                target = path + (f"#{parts.fragment}" if parts.fragment else "")
        return f"{match.group(1)}{html.escape(target)}{match.group(3)}"

    return URL.sub(link, text)


def text(title: str) -> str:
    """A title as HTML text (mkdocs may hand it over with its entities already written)."""
    return html.escape(html.unescape(title))


def contents(pages) -> tuple[str, TableOfContents]:
    """The table of contents: each page, and under it its sections (the h2 of its toc)."""
    items, links = ['<nav class="onepage-toc" aria-label="Contents"><h2>Contents</h2><ol>'], []
    for page in pages:
        own = key(page.url)
        entry = AnchorLink(page.title, own, 1)
        items.append(f'<li><a href="#{own}">{text(page.title)}</a>')
        sections = [child for top in page.toc.items for child in top.children]
        if sections:
            items.append("<ol>")
            for section in sections:
                anchor = f"{own}--{section.id}"
                items.append(f'<li><a href="#{anchor}">{text(section.title)}</a></li>')
                entry.children.append(AnchorLink(section.title, anchor, 2))
            items.append("</ol>")
        items.append("</li>")
        links.append(entry)
    items.append("</ol></nav>")
    return "\n".join(items), TableOfContents(links)


def on_page_context(context, page, config, nav):
    if page.file.src_uri != PAGE:
        return context
    pages = [p for p in STATE["pages"] if p.url in STATE["html"]]
    urls = {p.url for p in pages}
    table, toc = contents(pages)
    body = [page.content, table]
    for part in pages:
        own = key(part.url)
        body.append(f'<section class="onepage-page" id="{own}">')
        body.append(rewrite(STATE["html"][part.url], part.url, urls))
        body.append("</section>")
    page.content = "\n".join(body)
    # Material shows the children of a page's first heading when the page has an h1: the
    # pages of the book go under this page's own title
    own = next(iter(page.toc.items), None)
    if own is not None:
        own.children = toc.items
    else:
        page.toc = toc
    return context


def on_post_page(output, page, config):
    if page.file.src_uri == PAGE:  # plain HTML for the theme's scripts: see the top
        output = output.replace(' data-md-component="content"', "", 1)
    return output


def on_post_build(config):
    if STATE.get("print"):
        print_pdf(Path(config.site_dir) / PAGE.replace(".md", ".html"), Path(config.site_dir) / PDF)


def print_pdf(page: Path, pdf: Path) -> None:
    """book.html printed to pdf by headless Chromium, answers open, outline from headings."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise PluginError("onepage: the PDF needs Debian's chromium (scripts/setup.sh installs it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        tab = browser.new_page()
        tab.goto(page.resolve().as_uri(), wait_until="load")
        tab.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        tab.emulate_media(media="print")
        tab.pdf(path=str(pdf), format="A4", print_background=True, outline=True)
        browser.close()
