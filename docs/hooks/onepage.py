"""mkdocs hook: the whole book on one page (book.html), to read in one scroll or print to PDF.

Why a hook: mkdocs-print-site-plugin (2.9, tried on this site in December 2026) keeps each
page's ids as they are and renames them in the browser with a script of its own: as built, its
page holds 1,952 ids used more than once and 334 links to anchors that do not exist, which
scripts/check_html.py refuses, and it takes the Source pages too (4.9 MB against 2.4 MB) unless
each is excluded. This hook rewrites the ids when it builds, so the page is right without a
script.

The page is made on every build from the other pages (nothing is committed): every page of the
navigation in its order, except the Source section (source/..., the files and the API
reference, which are reference rather than reading) and this page itself, each in a <section>
whose id is the page's path ("part1-03-ops"), after a table of contents of the pages and their
sections. Each page comes as the site shows it, after every hook and plugin (this hook takes
its HTML last), so numbers, listings, figures and glossary marks are all there. In each page:
- every id becomes "<page>--<id>", so that ids of different pages never clash;
- a link to a place in a page of the book becomes a link into this page ("#part1-03-ops--ex-3-4");
- any other local link or image (a figure, a Source page) is rewritten relative to book.html.
The page joins the navigation where mkdocs.yml puts `book.md` (at the end when it does not).
Search leaves it out: every word of it is already found on its own page.
"""

import html
import posixpath
import re
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.structure.toc import AnchorLink, TableOfContents

PAGE = "book.md"
TITLE = "The whole book on one page"
LEFT_OUT = ("source/",)  # pages under these paths are not part of the reading edition
STUB = f"""---
search:
  exclude: true
---

# {TITLE}

Every page of the book, in the order of the navigation, on one page: to read in one scroll, to
search with the browser's find, or to print (your browser's print to PDF makes a book of it;
the collapsed answers open for printing). The Source section, the files whole and the API
reference, is left out; links to it still work.
"""
ID = re.compile(r'(\s(?:id|name|for)=")([^"]*)(")')  # an id, and what names one (tabs)
URL = re.compile(r'(\s(?:href|src)=")([^"]*)(")')
STATE: dict = {}


def key(url: str) -> str:
    """part1/03-ops.html -> part1-03-ops: the id of a page's section on the one page."""
    return url.removesuffix(".html").replace("/", "-") or "index"


def on_files(files, config):
    files.append(File.generated(config, PAGE, content=STUB))
    nav = config.nav
    if nav is not None and not _in_nav(nav):
        nav.append(PAGE)
    STATE.update(html={}, pages=[])
    return files


def _in_nav(items) -> bool:
    for item in items:
        if item == PAGE or (isinstance(item, dict) and PAGE in item.values()):
            return True
        if isinstance(item, dict):
            children = next(iter(item.values()))
            if isinstance(children, list) and _in_nav(children):
                return True
    return False


def included(page) -> bool:
    return page.file.src_uri != PAGE and not page.file.src_uri.startswith(LEFT_OUT)


def on_nav(nav, config, files):
    STATE["pages"] = [page for page in nav.pages if included(page)]
    STATE["nav"] = nav
    return nav


@event_priority(-100)  # after every other hook and plugin: the page as the site shows it
def on_page_content(text, page, config, files):
    if included(page):
        STATE["html"][page.url] = text
    return text


def rewrite(text: str, page_url: str, urls: set[str]) -> str:
    """One page's HTML as a part of book.html (at the top of the site)."""
    own = key(page_url)
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
