"""mkdocs hook: the 404 page works from the file system and at any depth on a server.

Why a hook: no maintained plugin makes mkdocs' 404 page work both ways; they assume a server.

mkdocs writes 404.html with links from the server's root (`/assets/...`), since a server shows
that page at any depth. Opened from file://, such a link points at the root of the disk. So:
- every link of the page is written relative to 404.html (`assets/...`), which is right from
  file:// (the page is opened where it lies, at the site's root) and at the top of a server;
- served at a deeper path (/part1/missing, say), the page first sets its base to the site's root
  (the path of `site_url` in mkdocs.yml, or `/`) with one line of script, so the same relative
  links find the site's files there too;
- the browser looks ahead in a page for the files it will need and asks for them before any
  script has run, so it would ask for /part1/assets/... before the base is set (each a failed
  request and an error in the console). Each tag that loads a file (a style sheet, a script,
  the icon) is therefore written by a line of script, which runs after the base is set;
- Material's settings in the page name the site's root as `/` and the search worker from there,
  and it keeps the reader's palette under `/`; all three are taken from the page's base instead,
  so that search and the palette work both ways.
The page also links to the front page. tests/browser/ opens it from file:// and at a
deep path over http, and counts failed requests and console errors.
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
