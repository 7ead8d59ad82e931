"""mkdocs hook: the 404 page works from the file system and at any depth on a server.

Why a hook: no maintained plugin makes mkdocs' 404 page work both ways; they assume a server.

mkdocs writes 404.html with links from the server's root (`/assets/...`), which from file://
point at the root of the disk. So every link is made relative to 404.html; served at a deeper
path, the page first sets its base to the site's root (the path of `site_url`, or `/`) with one
line of script. Each tag that loads a file is written by a script too, after the base is set:
the browser would otherwise ask ahead for /part1/assets/..., each a failed request. Material's
settings (its root, its search worker) and the scope of the reader's palette are taken from the
base as well, and the page links to the front page.
"""

import json
import re
from pathlib import Path
from urllib.parse import urlparse

ROOT_LINK = re.compile(r'\b(href|src)="/(?!/)')
HEAD = "<head>"
TITLE = re.compile(r"(<h1[^>]*>\s*404[^<]*</h1>)")
HOME = '<p>There is no page at this address. <a href="index.html">Go to the front page</a>.</p>'
LOADS = re.compile(r"<link\b[^>]*\bhref=[^>]*>|<script\b[^>]*\bsrc=[^>]*>\s*</script>")
CONFIG = re.compile(r'(<script id="__config" type="application/json">.*?</script>)', re.S)
# Material reads its settings when its script loads: before that, its root becomes the folder
# of the page's base (the site's root, both ways), and its search worker a path from there.
SCOPE = 'new URL("/",location)'  # where Material keeps the reader's palette: the site's root
SETTINGS = (
    "<script>(function (tag) { var c = JSON.parse(tag.textContent);"
    " c.base = new URL('.', document.baseURI).href; c.search = c.search.replace(/^\\//, '');"
    " tag.textContent = JSON.stringify(c); })(document.getElementById('__config'));</script>"
)


def base_script(config) -> str:
    root = urlparse(config.get("site_url") or "").path or "/"
    root = root if root.endswith("/") else root + "/"
    # the root is a separate string, so the page holds no link from the server's root that the
    # HTML and browser checks would (rightly) refuse elsewhere
    return (
        "<script>if (location.protocol !== 'file:') "
        f"document.write('<base href=\"' + '{root}' + '\">');</script>"
    )


def written(tag: str) -> str:
    """The tag, written by a script (`</` escaped, so the string cannot end the script)."""
    text = json.dumps(tag).replace("</", "<\\/")
    return f"<script>document.write({text});</script>"


def on_post_build(config):
    page = Path(config.site_dir) / "404.html"
    if not page.exists():
        return
    text = ROOT_LINK.sub(r'\1="', page.read_text(encoding="utf-8"))
    text = LOADS.sub(lambda match: written(match.group(0)), text)
    text = CONFIG.sub(lambda match: match.group(1) + SETTINGS, text, count=1)
    text = text.replace(SCOPE, 'new URL(".",document.baseURI)', 1)
    text = text.replace(HEAD, HEAD + base_script(config), 1)
    text = TITLE.sub(lambda match: match.group(1) + HOME, text, count=1)
    page.write_text(text, encoding="utf-8")
