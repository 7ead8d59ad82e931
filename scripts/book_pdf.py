"""The book as one PDF: build the site once into a temporary folder (`mkdocs build` prints the
one-page edition with headless Chromium, docs/hooks/onepage.py), check the PDF (a page, a link
into itself, a figure) and state its page count and size for the front page. The build runs it
after the figures, listings and numbers the site is made from; the PDF itself is not kept.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from book.protocol import state

ROOT = Path(__file__).resolve().parents[1]
PDF = "uopc-book.pdf"
PAGE = re.compile(rb"/Type\s*/Page[^s]")
INTERNAL_LINK = re.compile(rb"/Dest\b")
FIGURE = re.compile(rb"/Subtype\s*/(?:Form|Image)\b")  # a drawn SVG is a form, a bitmap an image


def printed_pdf(site: Path) -> bytes:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("UOPC_NO_PDF", None)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"book_pdf: mkdocs build failed:\n{done.stderr[-2000:]}")
    return (site / PDF).read_bytes()


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="uopc-pdf-") as folder:
        data = printed_pdf(Path(folder) / "site")
    pages = len(PAGE.findall(data))
    links, figures = len(INTERNAL_LINK.findall(data)), len(FIGURE.findall(data))
    problems = [f"no {what}" for what, n in (("page", pages), ("link into itself", links),
                                             ("figure", figures)) if n == 0]  # fmt: skip
    if problems:
        sys.exit(f"book_pdf: {PDF}: {', '.join(problems)}")
    print(f"{PDF}: {pages} pages, {len(data) / 1e6:.1f} MB, {links} links into itself, "
          f"{figures} drawn forms and images")  # fmt: skip
    print(state("book_pdf_pages", pages, "pages of the PDF of the whole book (A4)"))
    print(state("book_pdf_mb", round(len(data) / 1e6, 1), "size of the book's PDF in MB"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
