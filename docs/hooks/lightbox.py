"""mkdocs hook: every figure opens in the lightbox, with its caption under it.

Why a hook: mkdocs-glightbox (used here) skips an image that already stands in a link, and takes
a slide's words only from the image's own attributes, never from its <figure>'s caption.

A link to the very file its image shows (`[![alt](../figures/a.svg)](../figures/a.svg)`) gets
GLightbox's class, so that it opens like every other figure rather than as a bare file; each
figure's caption is copied into its opening link as GLightbox's `data-description`.
"""

import html
import re

SELF_LINK = re.compile(r'<a href="([^"]+\.svg)">(\s*<img\b[^>]*\bsrc="\1")')
FIGURE = re.compile(r"<figure\b.*?</figure>", re.DOTALL)
CAPTION = re.compile(r"<figcaption>(.*?)</figcaption>", re.DOTALL)
OPENER = re.compile(r'<a class="glightbox"(?![^>]*data-description)')


def with_caption(match: re.Match) -> str:
    """A <figure>: its lightbox link given the caption as description."""
    block = match[0]
    caption = CAPTION.search(block)
    if caption is None:
        return block
    text = " ".join(caption[1].split())
    return OPENER.sub(f'<a class="glightbox" data-description="{html.escape(text)}"', block, 1)


def on_page_content(html_text, page, config, files):
    html_text = SELF_LINK.sub(r'<a class="glightbox" data-type="image" href="\1">\2', html_text)
    return FIGURE.sub(with_caption, html_text)
