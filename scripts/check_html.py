"""Check the built site: links, anchors, nothing from another host, no leftover placeholder.

    python scripts/check_html.py [SITE_DIR]        (default: site/)

For every .html file of the site:
- every local link (href, src, srcset, ...) names a file of the site, and its #anchor an id
  (or name) in that file: this also covers links written as raw HTML, which mkdocs does not;
- nothing is loaded from another host: a src, a stylesheet, a script, an image or any other
  reference to http(s):// or // fails; a plain <a href> to another host is allowed only for the
  hosts in LINK_HOSTS, those of the works the book cites (the `url`s of docs/references.yml),
  since following it is the reader's choice and it loads nothing by itself;
- no text the build should have replaced is left: an include line (--8<--), a number
  placeholder ({{ n.), a block marker (@@ block); on a page of the Source section
  (source/..., docs/hooks/source.py), which shows a file whole, the code block is left out of
  this search: the file's own region markers and strings are its text.
A path from the root of the host ("/assets/...") fails on every page, 404.html included: it
breaks the site opened from file://. (mkdocs writes such paths into 404.html, for a server that
shows it at any depth; the hook docs/hooks/site404.py makes them relative.)
This catches what the generator misses whatever generator builds the site. Exit 1 on a finding.
"""

import argparse
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[1]
LEFTOVERS = ("--8<--", "--8&lt;--", "{{ n.", "{{n.", "@@ block")
URL_ATTRIBUTES = {"href", "src", "srcset", "data", "poster", "action", "xlink:href", "formaction"}
HARMLESS_SCHEMES = ("data:", "mailto:", "blob:", "about:")
SOURCE_PAGES = "source/"  # the generated pages that show a source file whole
CODE_BLOCK = re.compile(r"<pre\b.*?</pre>", re.S)


def reference_hosts() -> set[str]:
    """The hosts of the links in docs/references.yml, the only hosts a plain <a href> may name."""
    works = yaml.safe_load((ROOT / "docs" / "references.yml").read_text(encoding="utf-8"))
    found = set()
    for work in works.values():
        links = work.get("url", [])
        for url in [links] if isinstance(links, str) else links:
            found.add(urlsplit(url).hostname)
    return found


LINK_HOSTS = reference_hosts()  # hosts a plain <a href> may point to


class Page(HTMLParser):
    """The ids of a page and every URL it refers to, with the tag that refers to it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.urls: list[tuple[str, str, str, int]] = []  # (tag, attribute, url, line)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in URL_ATTRIBUTES:
                urls = [value]
                if name == "srcset":  # "a.png 1x, b.png 2x"
                    urls = [part.split()[0] for part in value.split(",") if part.strip()]
                for url in urls:
                    self.urls.append((tag, name, url.strip(), self.getpos()[0]))

    handle_startendtag = handle_starttag


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def check_site(site: Path) -> list[str]:
    problems = []
    pages = {path: parse(path) for path in sorted(site.rglob("*.html"))}
    if not pages:
        return [f"{site}: no HTML pages (build the site first: mkdocs build)"]
    for path, page in pages.items():
        name = path.relative_to(site)
        text = path.read_text(encoding="utf-8")
        if name.as_posix().startswith(SOURCE_PAGES):  # blank the code, keep the line numbers
            text = CODE_BLOCK.sub(lambda block: "\n" * block.group(0).count("\n"), text)
        for leftover in LEFTOVERS:
            if leftover in text:
                line = text[: text.index(leftover)].count("\n") + 1
                problems.append(f"{name}:{line}: leftover {leftover!r} (a build step did not run)")
        for tag, attribute, url, line in page.urls:
            problem = check_url(site, path, pages, tag, url)
            if problem:
                problems.append(f"{name}:{line}: <{tag} {attribute}={url!r}>: {problem}")
    for name in ("sitemap.xml", "sitemap.xml.gz"):  # docs/hooks/shipped.py removes them
        if (site / name).exists():
            problems.append(f"{name}: a sitemap without the site's address (it lists nothing)")
    return problems


def check_url(site: Path, path: Path, pages: dict, tag: str, url: str) -> str | None:
    if not url or url.startswith(HARMLESS_SCHEMES):
        return None
    parts = urlsplit(url)
    if parts.scheme or url.startswith("//"):
        if parts.scheme in ("http", "https") or url.startswith("//"):
            if tag == "a" and parts.hostname in LINK_HOSTS:
                return None
            if tag == "a":
                return "a link to another host that is not in LINK_HOSTS"
            return "loaded from another host"
        return f"unexpected scheme {parts.scheme!r}"
    if parts.path.startswith("/"):
        return "a path from the root of the host: it breaks the site opened from file://"
    if parts.path:
        target = (path.parent / unquote(parts.path)).resolve()
    else:
        target = path
    if target.is_dir():
        target = target / "index.html"
    if not target.is_relative_to(site.resolve()) and target != path:
        return "points outside the site"
    if not target.exists():
        return "no such file in the site"
    if parts.fragment:
        ids = pages[target].ids if target in pages else None
        if ids is None:
            return "an anchor into a file that is not a page"
        if unquote(parts.fragment) not in ids:
            return f"no anchor #{parts.fragment} in {target.relative_to(site.resolve())}"
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", nargs="?", type=Path, default=ROOT / "site")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    problems = check_site(site)
    for problem in problems:
        print(f"check_html: {problem}")
    if problems:
        print(f"check_html: FAILED: {len(problems)} problems")
        return 1
    count = len(list(site.rglob("*.html")))
    print(f"check_html: {count} pages, every link and anchor resolves, nothing from another host")
    return 0


if __name__ == "__main__":
    sys.exit(main())
