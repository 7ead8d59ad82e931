"""mkdocs hook: no sitemap.

mkdocs writes sitemap.xml (and its .gz) for search engines, listing each page by its address
under `site_url`. This site has no fixed address: it is read from a local server or straight
from the file system, so the sitemap would hold paths without a host. Rather than publish a
file that tells nothing, the hook removes both after the build; scripts/check_html.py checks
that neither is there.
"""

from pathlib import Path

SITEMAPS = ("sitemap.xml", "sitemap.xml.gz")


def on_post_build(config):
    for name in SITEMAPS:
        (Path(config.site_dir) / name).unlink(missing_ok=True)
