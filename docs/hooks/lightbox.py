"""mkdocs hook: a figure already in a link to its own file opens in the lightbox too.

mkdocs-glightbox wraps every image of a page in a link that opens it full size in a lightbox,
but leaves alone an image that is already inside a link: a page that writes
`[![alt](../figures/bump.svg)](../figures/bump.svg)` would open that figure as a bare file
instead, shrunk to the window on a phone. Such a link, to the very file its image shows, gets
GLightbox's class here, so that every figure opens the same way (docs/stylesheets/generated.css
shows it at its own size). scripts/check_browser.py opens every figure.
"""

import re

SELF_LINK = re.compile(r'<a href="([^"]+\.svg)">(\s*<img\b[^>]*\bsrc="\1")')


def on_page_content(html, page, config, files):
    return SELF_LINK.sub(r'<a class="glightbox" data-type="image" href="\1">\2', html)
