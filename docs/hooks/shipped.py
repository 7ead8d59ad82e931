"""mkdocs hook: the site ships only what a reader's browser uses.

Why a hook: mkdocs and Material copy every file of the theme and write every form of the search
index, and no maintained plugin leaves out files of the theme (mkdocs' `exclude_docs` applies
only to docs/). Left out here:

- sitemap.xml and its .gz: they list pages under `site_url`, and this site has no fixed address;
- Material's search scripts for languages other than English (assets/javascripts/lunr/, 0.9
  MB), which the worker never loads while the search plugin's `lang` is English alone (checked);
- the source maps of Material's scripts and styles (1.3 MB), and the comments naming them;
- search_index.json: the offline plugin writes the same index as search_index.js, which a
  <script> loads from file:// and over http alike, so the one line of Material's script that
  chooses between them is set to always take the .js (the build stops if that line is not
  found exactly once: a new Material would have changed it).
"""

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

SITEMAPS = ("sitemap.xml", "sitemap.xml.gz")
LUNR = "assets/javascripts/lunr/"
MAP_COMMENT = re.compile(r"\n?(?://|/\*)# sourceMappingURL=\S+\.map(?: \*/)?\s*$")
# In Material's bundle: `location.protocol==="file:"?load(search_index.js):fetch(...json)`.
INDEX_CHOICE = re.compile(
    r'location\.protocol==="file:"\?(?=\w+\(`\$\{new URL\("search/search_index\.js")'
)


def search_languages(config) -> list[str]:
    search = config.plugins.get("material/search") or config.plugins.get("search")
    languages = (search.config.get("lang") if search else None) or [config.theme["language"]]
    return [languages] if isinstance(languages, str) else list(languages)


def on_files(files, config):
    if search_languages(config) != ["en"]:
        raise PluginError("docs/hooks/shipped.py leaves out the search scripts of other languages")
    for file in [f for f in files if f.src_uri.startswith(LUNR) or f.src_uri.endswith(".map")]:
        files.remove(file)
    return files


def drop_map_comments(site: Path) -> None:
    for path in [*site.glob("assets/**/*.js"), *site.glob("assets/**/*.css")]:
        text = path.read_text(encoding="utf-8")
        if MAP_COMMENT.search(text):
            path.write_text(MAP_COMMENT.sub("\n", text), encoding="utf-8")


def one_index_form(site: Path) -> None:
    bundles = list(site.glob("assets/javascripts/bundle.*.min.js"))
    found = [(path, INDEX_CHOICE.findall(path.read_text(encoding="utf-8"))) for path in bundles]
    if len(found) != 1 or len(found[0][1]) != 1:
        raise PluginError("docs/hooks/shipped.py: Material's choice of search index not found")
    path = found[0][0]
    path.write_text(INDEX_CHOICE.sub("true?", path.read_text(encoding="utf-8")), encoding="utf-8")
    if not (site / "search" / "search_index.js").is_file():
        raise PluginError("docs/hooks/shipped.py: no search/search_index.js (the offline plugin)")
    (site / "search" / "search_index.json").unlink()


@event_priority(-200)  # after the offline plugin (-100) has written search_index.js
def on_post_build(config):
    site = Path(config.site_dir)
    for name in SITEMAPS:
        (site / name).unlink(missing_ok=True)
    drop_map_comments(site)
    one_index_form(site)
