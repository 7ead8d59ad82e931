"""mkdocs hook: every figure opens in the lightbox, with its caption under it.

Why a hook: mkdocs-glightbox (0.5, maintained, used here) does the opening, but skips an image
that already stands in a link, and takes a slide's words only from the image's own attributes
(`data-description`, or the alt text with auto_caption), never from its <figure>'s caption.

mkdocs-glightbox wraps every image of a page in a link that opens it full size in a lightbox,
but leaves alone an image that is already inside a link: a page that writes
`[![alt](../figures/bump.svg)](../figures/bump.svg)` would open that figure as a bare file
instead, shrunk to the window on a phone. Such a link, to the very file its image shows, gets
GLightbox's class here, so that every figure opens the same way (docs/stylesheets/generated.css
shows it at its own size, or fitted to a phone's width).

The lightbox shows only the image, so the figure's caption is copied into the link that opens
it, as GLightbox's description (`data-description`, shown under the opened figure). Every
figure has a caption (scripts/lint_docs.py); tests/browser/ opens every figure and
reads the caption in the lightbox.
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
