"""The built site read as files, without a browser: links, anchors, other hosts, leftovers.

Every local link (href, src, srcset, ...) of every page names a file of the site, and its
#anchor an id (or name) in that file: links written as raw HTML too, which mkdocs does not
check. A path from the root of the host ("/assets/...") fails on every page, 404.html included:
it breaks the site opened from file:// (docs/hooks/site404.py makes 404.html's relative).
Nothing is loaded from another host; a plain <a href> may name only the hosts of the works the
book cites (the `url`s of docs/references.yml), since following it is the reader's choice. No
text the build should have replaced is left; a Source page's code block is the file's own text.
"""

import functools
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
LEFTOVERS = ("--8<--", "--8&lt;--", "{{ n.", "{{n.", "@@ block")
URL_ATTRIBUTES = {"href", "src", "srcset", "data", "poster", "action", "xlink:href", "formaction"}
HARMLESS_SCHEMES = ("data:", "mailto:", "blob:", "about:")
SOURCE_PAGES = "source/"  # the generated pages that show a source file whole
CODE_BLOCK = re.compile(r"<pre\b.*?</pre>", re.S)
WORKS = yaml.safe_load((ROOT / "docs" / "references.yml").read_text(encoding="utf-8"))
LINK_HOSTS = {  # the only hosts a plain <a href> may point to
    urlsplit(url).hostname
    for work in WORKS.values()
    for url in ([work["url"]] if isinstance(work.get("url"), str) else work.get("url", []))
}


class Page(HTMLParser):
    """The ids of a page and every URL it refers to, with the tag that refers to it."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.urls: list[tuple[str, str, str, int]] = []  # (tag, attribute, url, line)
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        for name, value in [(name, value) for name, value in attrs if value is not None]:
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in URL_ATTRIBUTES:  # a srcset: "a.png 1x, b.png 2x"
                urls = (
                    [p.split()[0] for p in value.split(",") if p.strip()]
                    if name == "srcset"
                    else [value]
                )
                self.urls += [(tag, name, url.strip(), self.getpos()[0]) for url in urls]

    handle_startendtag = handle_starttag


@functools.cache
def pages(site: Path) -> dict[Path, Page]:
    return {path: Page(path.read_text(encoding="utf-8")) for path in sorted(site.rglob("*.html"))}


def link_problems(site: Path) -> list[str]:
    found = []
    for path, page in pages(site).items():
        for tag, attribute, url, line in page.urls:
            problem = check_url(site, path, tag, url)
            if problem:
                found.append(
                    f"{path.relative_to(site)}:{line}: <{tag} {attribute}={url!r}>: {problem}"
                )
    return found


def check_url(site: Path, path: Path, tag: str, url: str) -> str | None:
    parts = urlsplit(url)
    if not url or url.startswith(HARMLESS_SCHEMES):
        return None
    if url.startswith("//") or parts.scheme in ("http", "https"):
        if tag == "a":
            return (
                None
                if parts.hostname in LINK_HOSTS
                else "a link to another host that is not in LINK_HOSTS"
            )
        return "loaded from another host"
    if parts.scheme:
        return f"unexpected scheme {parts.scheme!r}"
    if parts.path.startswith("/"):
        return "a path from the root of the host: it breaks the site opened from file://"
    target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
    target = target / "index.html" if target.is_dir() else target
    if not target.is_relative_to(site) and target != path:
        return "points outside the site"
    if not target.exists():
        return "no such file in the site"
    if not parts.fragment:
        return None
    if target not in pages(site):
        return "an anchor into a file that is not a page"
    if unquote(parts.fragment) not in pages(site)[target].ids:
        return f"no anchor #{parts.fragment} in {target.relative_to(site)}"
    return None


def leftovers(site: Path) -> list[str]:
    found = []
    for path in pages(site):
        name, text = path.relative_to(site), path.read_text(encoding="utf-8")
        if name.as_posix().startswith(SOURCE_PAGES):  # blank the code, keep the line numbers
            text = CODE_BLOCK.sub(lambda block: "\n" * block.group(0).count("\n"), text)
        for leftover in [leftover for leftover in LEFTOVERS if leftover in text]:
            line = text[: text.index(leftover)].count("\n") + 1
            found.append(f"{name}:{line}: leftover {leftover!r} (a build step did not run)")
    return found


def sitemaps(site: Path) -> list[str]:  # docs/hooks/shipped.py removes them
    names = [name for name in ("sitemap.xml", "sitemap.xml.gz") if (site / name).exists()]
    return [f"{name}: a sitemap without the site's address (it lists nothing)" for name in names]


def problems(site: Path) -> list[str]:
    """Every finding on the site built at `site` (tests/test_book_checks.py plants faults)."""
    site = site.resolve()
    pages.cache_clear()
    return link_problems(site) + leftovers(site) + sitemaps(site)


def test_every_local_link_and_anchor_resolves_and_nothing_comes_from_another_host(site):
    found = link_problems(site.path.resolve())
    assert not found, "\n".join(found)


def test_no_placeholder_include_or_block_marker_is_left(site):
    found = leftovers(site.path.resolve())
    assert not found, "\n".join(found)


def test_no_sitemap_is_shipped(site):
    assert not sitemaps(site.path.resolve())
