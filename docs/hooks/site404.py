"""mkdocs hook: the 404 page works when the site is opened from the file system.

mkdocs writes 404.html with links from the server's root (`/assets/...`), since a server shows
that page at any depth. Opened from file://, such a link points at the root of the disk, and the
page comes out without its style, scripts or working links. 404.html sits at the top of the
site, so the same links written relative to it (`assets/...`) work from file:// and from a
server that shows the page at the top level. scripts/check_browser.py opens it both ways.
"""

import re
from pathlib import Path

ROOT_LINK = re.compile(r'\b(href|src)="/(?!/)')


def on_post_build(config):
    page = Path(config.site_dir) / "404.html"
    if page.exists():
        text = page.read_text(encoding="utf-8")
        page.write_text(ROOT_LINK.sub(r'\1="', text), encoding="utf-8")
