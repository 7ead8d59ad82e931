"""The docs lint: what mkdocs and snippets let through silently, checked on the page sources.

    python scripts/lint_docs.py [--root DIR]

For every page under docs/ (less what mkdocs.yml's exclude_docs leaves out):

- fences: a fenced block holds only include lines (`--8<-- "path"`), and has a title, unless the
  line just before it is `<!-- literal: reason -->` (a command the reader types, say);
- includes: each is alone on its line, inside a fence (a whole .md file may stand alone); its
  file is under out/, excerpts/ or code/ (that it exists and is not empty, the build checks:
  docs/hooks/includes.py); it is a whole file: a line range (`path:3:9`) drifts when the source
  changes, and a region is quoted by its excerpt (excerpts/..., which make_excerpts.py cuts
  and checks) rather than as a section of the source (`path:name`);
- listings a screen long: in chapters 1 to 11 (docs/partK/NN-*.md, NN <= 11), a fenced block
  that includes from excerpts/ shows at most LONG_LISTING lines, every include expanded and the
  blank lines between them counted; a longer region is split, with prose between the parts;
- typed numbers: a number in the prose (outside code spans, includes, placeholders, links and
  HTML) that has a thousands separator, a decimal point or an exponent, or is 10 or more, is
  taken for a measured figure typed by hand, unless it is a step, chapter, exercise or part
  number, a power of two or one off it, a power written 2^31^, one of the constants of ALLOWED
  below, or allowed on its page by `<!-- typed-number TOKEN: reason -->`. A code span is code,
  whose numbers are its own (`x + 0.0`, `add(3.4e38, 3.4e38)`), unless it holds nothing but a
  value: a number, `nan`, `inf` or a list of them (`16777220.0`, `[10.0, 40.0, 90.0]`). Such a
  span quotes a result, and its numbers are held to the same rule as the prose's;
- powers: a caret of the prose (outside code spans, comments and placeholders) is closed by a
  second one, 2^31^, which pymdownx.caret sets raised; an open 2^31 would print its caret;
- usage: every excerpt and every file under out/ is included or shown by some page, read by
  scripts/make_numbers.py, or listed in scripts/unused_outputs.txt with a reason;
- "Not verified": every `!!! warning "Not verified"` note links to an item of the list of what
  is not verified in chapter 15 (NOT_VERIFIED_PAGE), `15-verification.md#nv-NAME`, and that
  item exists: a list item ending in the anchor `{ #nv-NAME }`. Every item of that list is named
  by at least one note, unless the item itself says why not, with
  `<!-- nv-unnamed: reason -->` inside it;
- cross-references: every "step N", "chapter N", "appendix X" and "exercise N.M" of the prose
  (plurals and lists too: "chapters 10 and 11", each number on its own) is the text of a
  relative link to its page: `short/NN-*.md`, `partK/NN-*.md`, `back/x-*.md`, and for an
  exercise its chapter's anchor `#ex-N-M` or its answer `a-answers.md#a-N-M`. A mention in a
  link to another page is reported too. Not prose, so not checked: fenced blocks and includes,
  headings (a page's own title names it), admonition titles, code spans, comments, tags,
  placeholders and image alt texts. The one allowance (XREF_ELSEWHERE): in a reading list, a
  "Where to learn more" section or appendix E's page, a list item that has named a work in
  italics or quotes may cite that work's chapters ("*Hacker's Delight*, chapter 10").

Prints `page:line: problem` for each finding and exits 1 when there is any.
"""

import argparse
import json
import posixpath
import re
import sys
from pathlib import Path
from typing import NamedTuple

import pathspec
import yaml
from make_numbers import INPUTS

from book.files import (
    FENCE,
    INCLUDE,
    INCLUDE_LINE,
    ROOT,
    allowed_unused,
    read_unused,
    split_include,
)

INCLUDE_ROOTS = ("out/", "excerpts/", "code/")
# A listing a reader takes in at once (issue 27): in chapters 1 to 11, a fenced block that quotes
# source from excerpts/ shows at most this many lines; a longer region is split, with prose between.
LONG_LISTING = 30
LISTING_CHAPTERS = range(1, 12)
CHAPTER_PAGE = re.compile(r"docs/part\d/(\d\d)-[^/]*\.md")
LITERAL = re.compile(r"\s*<!--\s*literal:\s*\S.*-->\s*")
TYPED_NUMBER = re.compile(r"<!--\s*typed-number\s+(\S+?):\s*(\S.*?)\s*-->")
# The list of what is not verified, its items, and the notes that must link to them.
NOT_VERIFIED_PAGE = "docs/part5/15-verification.md"
NV_NOTE = re.compile(r'^(\s*)(?:!!!|\?\?\?\+?) warning "Not verified"')
NV_LINK = re.compile(r"\]\((?:[^)#\s]*/)?15-verification\.md#(nv-[-a-z0-9]+)\)")
NV_ITEM = re.compile(r"^\s*\{\s*#(nv-[-a-z0-9]+)\s*\}\s*$")
NV_UNNAMED = re.compile(r"<!--\s*nv-unnamed:\s*\S.*?-->")
# Cross-references: "step 3", "chapters 10 and 11", "exercise 8.4", "appendices A and C",
# with each number possibly a link's text already ("chapters [4](...) and [5](...)").
_XREF_ITEM = r"(?:\d+\.\d+|\d+|(?-i:[A-F])\b)"
_XREF_LINKED = rf"\[?{_XREF_ITEM}\]?\s*"
XREF = re.compile(
    r"\b(steps?|chapters?|appendix|appendices|exercises?)\s+\[?"
    rf"({_XREF_LINKED}(?:\s*(?:,|and|or|to|-|–|—)\s*(?:and\s+)?{_XREF_LINKED})*)",
    re.I,
)
XREF_NUMBER = re.compile(_XREF_ITEM)
MD_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\](?:\(([^)]*)\)|\[[^\]]*\])")
HEADING = re.compile(r"\s{0,3}#{1,6}\s")
ADMONITION_TITLE = re.compile(r"\s*(?:!!!|\?\?\?\+?)\s")
LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+\.)\s")
# The one allowance: a reading list cites the chapters of other works. On these pages, and under
# a heading that starts with this text, a list item that has named a work (in italics or in
# quotes) before the mention may say "chapter 5" of that work without a link.
XREF_ELSEWHERE_PAGES = ("docs/back/e-reading.md",)
XREF_ELSEWHERE_HEADING = "Where to learn more"
NAMED_WORK = re.compile(
    r"(?<![*\w])\*[^*\s][^*]*\*(?![*\w])|\"[^\"]+\"|“[^”]+”"  # *Title*, "Title"
    r"|\[(?:cite|entry): *[a-z0-9-]+\]"  # a citation marker of docs/hooks/references.py
)

# Numbers that may be typed anywhere, each with its reason.
ALLOWED = {
    "754": "IEEE 754, the name of the floating-point standard",
    "0.0": "the float zero, a constant the text is about",
    "-0.0": "the negative float zero",
    "1.0": "the float one",
    "0.5": "one half",
    "2.0": "the float two",
    "100": "per cent",
    "23": "the bits float32 stores of its significand (a field width)",
    "24": "the bits of float32's significand, the hidden one included (a field width)",
}
# Words after which a number names a place in the book, not a figure: "step 12", "chapters
# 10 and 11", "exercise 4.2", "steps 1-14".
PLACE = re.compile(
    r"(?i)\b(?:steps?|chapters?|exercises?|parts?|demos?|weeks?|modules?|sections?|§)\s+"
    r"\d+(?:\.\d+)?(?:\s*(?:-|–|—|,|and|or|to)\s*\d+(?:\.\d+)?)*"
)
POWER = re.compile(r"\b\d+\s*(?:\^|\*\*)\s*\(?[-\d]+\)?")
# A power in the prose is written closed, 2^31^, which pymdownx.caret sets raised; a caret left
# open (2^31, (-1)^1) would be printed as it is. A closed one holds no space (caret's own rule).
CLOSED_POWER = re.compile(r"\^[^\s^]+\^")
OPEN_POWER = re.compile(r"\S*\^\S*")
NUMBER = re.compile(r"(?<![\w.])(?<!\w-)(\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w])")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# A code span that is only a value: a number (signed, with separators or an exponent), nan or
# inf, or a bracketed list of them. Anything else in a span (a name, an operator) makes it code.
_VALUE = r"[-+]?(?:\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?|nan|inf)"
VALUE_SPAN = re.compile(rf"\s*[\[(]?\s*{_VALUE}(?:\s*,\s*{_VALUE})*\s*[\])]?\s*")
# What is not prose: code spans, placeholders, comments, tags, link targets, attribute lists.
NOT_PROSE = [
    re.compile(r"\[\d+(?:\.\d+)?\]\((?![a-z]+:)[^)]*\)"),  # "steps [1](...) to [13](...)": places
    re.compile(r"(`+).+?\1"),
    re.compile(r"\{\{.*?\}\}"),
    re.compile(r"<!--.*?-->"),
    re.compile(r"<[^>]+>"),
    re.compile(r"\]\([^)]*\)"),
    re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$"),
    re.compile(r"\{\s*[#.:][^}]*\}"),
    re.compile(r"https?://\S+"),
]


def powers_of_two() -> set[str]:
    """2^k and 2^k - 1 and 2^k + 1 for k up to 64: field widths and the limits they give."""
    found = set()
    for k in range(65):
        for value in (2**k - 1, 2**k, 2**k + 1):
            found |= {str(value), f"{value:,}", f"-{value}", f"-{value:,}"}
    return found


POWERS = powers_of_two()
# an image of figures/; its alt text may hold brackets ("the load of out[0]")
FIGURE_IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*figures/([^)]+)\)")
FIGCAPTION = re.compile(r"<figcaption>(.*?)</figcaption>", re.DOTALL)


class Lint:
    def __init__(self, root: Path):
        self.root = root
        self.problems: list[str] = []
        self.used: set[str] = set()
        self.nv_named: dict[str, list[tuple[Path, int]]] = {}  # item -> the notes linking it
        self.counts = stated_counts(root / "out")  # counts a page must not type as words

    def report(self, page: Path, line: int, message: str) -> None:
        self.problems.append(f"{page.relative_to(self.root)}:{line}: {message}")

    # --- pages --------------------------------------------------------------------------------

    def pages(self) -> list[Path]:
        docs = self.root / "docs"
        spec = excluded(self.root / "mkdocs.yml")
        pages = sorted(docs.rglob("*.md"))
        return [page for page in pages if not spec.match_file(page.relative_to(docs).as_posix())]

    def page(self, page: Path) -> None:
        lines = page.read_text(encoding="utf-8").splitlines()
        self.captions(page, "\n".join(lines))
        allowed = dict(TYPED_NUMBER.findall("\n".join(lines)))
        fence = None  # (indent, marker, first line) while inside a fenced block
        for number, line in enumerate(lines, 1):
            if fence is None:
                opened = FENCE.fullmatch(line)
                if opened:
                    fence = (opened.group(1), opened.group(2), number, opened.group(3), [])
                    continue
                self.prose_line(page, number, line, allowed)
                continue
            indent, marker, start, info, body = fence
            closing = FENCE.fullmatch(line)
            if closing and closing.group(2).startswith(marker) and not closing.group(3).strip():
                self.fenced(page, lines, start, info, body)
                fence = None
            else:
                body.append((number, line))
        if fence is not None:
            self.report(page, fence[2], "a fenced block that is never closed")

    def captions(self, page: Path, text: str) -> None:
        """Every figure stands in a <figure> with a caption of its own (the lightbox shows it too,
        docs/hooks/lightbox.py): a reader who opens a figure alone still learns what it says."""
        for image in FIGURE_IMAGE.finditer(text):
            start, end = (
                text.rfind("<figure", 0, image.start()),
                text.find("</figure>", image.end()),
            )
            if start < text.rfind("</figure>", 0, image.start()) or start < 0 or end < 0:
                block = ""  # the image is in no <figure>
            else:
                block = text[start:end]
            caption = FIGCAPTION.search(block)
            if caption is None or not re.sub(r"<[^>]+>", "", caption.group(1)).strip():
                line = text.count("\n", 0, image.start()) + 1
                self.report(page, line, f"{image.group(1)}: a figure without a <figcaption>")

    def fenced(self, page: Path, lines: list[str], start: int, info: str, body) -> None:
        literal = start >= 2 and LITERAL.fullmatch(lines[start - 2])
        content = [(number, line) for number, line in body if line.strip()]
        includes = [(n, INCLUDE_LINE.fullmatch(line)) for n, line in content]
        if literal:
            return
        if not content or not all(match for _, match in includes):
            self.report(
                page,
                start,
                "a fenced block that is not an include: include a generated file, or mark a "
                "deliberate literal with <!-- literal: reason --> on the line before",
            )
            return
        if "title=" not in info:
            self.report(page, start, 'an included listing or output needs title="..."')
        for number, match in includes:
            self.include(page, number, match.group(2))
        self.listing_length(page, start, body)

    def listing_length(self, page: Path, start: int, body) -> None:
        """A listing of chapters 1-11 (a block that includes from excerpts/) fits on a screen:
        its lines as the reader sees them, every include expanded, at most LONG_LISTING."""
        chapter = CHAPTER_PAGE.fullmatch(str(page.relative_to(self.root)))
        if not chapter or int(chapter.group(1)) not in LISTING_CHAPTERS:
            return
        targets = [INCLUDE_LINE.fullmatch(line) for _, line in body]
        if not any(t and t.group(2).startswith("excerpts/") for t in targets):
            return
        shown = []
        for (_, line), target in zip(body, targets, strict=True):
            shown += self.included_lines(target.group(2)) if target else [line]
        while shown and not shown[-1].strip():
            shown.pop()
        while shown and not shown[0].strip():
            shown.pop(0)
        if len(shown) > LONG_LISTING:
            self.report(
                page,
                start,
                f"a listing of {len(shown)} lines (more than {LONG_LISTING}): split its region "
                "into parts a reader takes in at once, with prose between them",
            )

    def included_lines(self, target: str) -> list[str]:
        """The lines an include of a whole file puts on the page (a section is refused)."""
        path, section = split_include(target)
        file = self.root / path
        if section is not None or not file.is_file():
            return []  # reported by include(), or by the build (docs/hooks/includes.py)
        return file.read_text(encoding="utf-8").splitlines()

    def prose_line(self, page: Path, number: int, line: str, allowed: dict) -> None:
        whole = INCLUDE_LINE.fullmatch(line)
        if whole:
            if whole.group(2).endswith(".md"):
                self.include(page, number, whole.group(2))
            else:
                self.report(page, number, "an include outside a fenced block (it would be text)")
            return
        if INCLUDE.search(line):
            self.report(page, number, "an include inside a sentence (snippets prints it as is)")
            return
        for words, token, key in word_counts(line, self.counts):
            if token not in allowed:
                self.report(
                    page,
                    number,
                    f"the count '{words}' is typed as a word, and a program states a count "
                    f"of that many of them ({key}): use its placeholder if it counts the same "
                    f"thing, or allow it with <!-- typed-number {token}: reason -->",
                )
        for power in open_powers(line):
            self.report(page, number, f"an open power {power}: close it, {power}^ (pymdownx.caret)")
        for token in typed_numbers(line) + span_numbers(line):
            if token not in allowed:
                self.report(
                    page,
                    number,
                    f"the number {token} is typed: use a {{{{ n.KEY }}}} placeholder, or allow "
                    f"it with <!-- typed-number {token}: reason -->",
                )

    # --- includes -----------------------------------------------------------------------------

    def include(self, page: Path, number: int, target: str) -> None:
        path, section = split_include(target)
        self.used.add(path)
        if not path.startswith(INCLUDE_ROOTS) and not path.endswith(".md"):
            self.report(page, number, f"{path}: include from out/, excerpts/ or code/ only")
        if section is not None and re.fullmatch(r"[\d:,-]+", section):
            self.report(page, number, f"{target}: a line range drifts; cut by a named region")
        elif section is not None:  # one way to quote a region: its excerpt, checked when cut
            excerpt = Path("excerpts", path).with_suffix("") / f"{section}{Path(path).suffix}"
            self.report(page, number, f"{target}: include the region's excerpt, {excerpt}")

    # --- "Not verified" notes and chapter 15's list ----------------------------------------

    def not_verified_notes(self, page: Path) -> None:
        """Each note's body (its indented lines) must link to an item of the list."""
        lines = page.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            note = NV_NOTE.match(line)
            if not note:
                continue
            body = []
            for text in lines[number:]:
                if text.strip() and len(text) - len(text.lstrip()) <= len(note.group(1)):
                    break
                body.append(text)
            items = NV_LINK.findall(" ".join(body))
            if not items:
                self.report(
                    page,
                    number,
                    'a "Not verified" note without a link to its item of chapter 15\'s list '
                    "(../part5/15-verification.md#nv-NAME)",
                )
            for item in items:
                self.nv_named.setdefault(item, []).append((page, number))

    def not_verified_list(self) -> None:
        """Every link names an item; every item is named, or says why not."""
        page = self.root / NOT_VERIFIED_PAGE
        if not page.is_file():
            for item, notes in sorted(self.nv_named.items()):
                for note_page, number in notes:
                    self.report(note_page, number, f"#{item}: no page {NOT_VERIFIED_PAGE}")
            return
        lines = page.read_text(encoding="utf-8").splitlines()
        items, start = {}, 0  # an item: from its "N. " line down to its anchor
        for number, line in enumerate(lines, 1):
            if re.match(r"\d+\.\s", line):
                start = number - 1
            anchor = NV_ITEM.match(line)
            if anchor:
                items[anchor.group(1)] = (number, "\n".join(lines[start:number]))
        for item, notes in sorted(self.nv_named.items()):
            if item not in items:
                for note_page, number in notes:
                    self.report(note_page, number, f"#{item} is not an item of the list")
        for item, (number, text) in items.items():
            if item not in self.nv_named and not NV_UNNAMED.search(text):
                self.report(
                    page,
                    number,
                    f'#{item}: no "Not verified" note names this item; link one to it, or '
                    "say why none does with <!-- nv-unnamed: reason --> in the item",
                )

    # --- cross-references ---------------------------------------------------------------------

    def cross_references(self, page: Path) -> None:
        """Each step, chapter, appendix or exercise the prose names is a link to its page; a page
        not written yet is marked "(coming)", and a page that exists is not."""
        lines = page.read_text(encoding="utf-8").splitlines()
        elsewhere = str(page.relative_to(self.root)) in XREF_ELSEWHERE_PAGES
        fence, comment, reading_list, named = None, False, elsewhere, False
        for number, line in enumerate(lines, 1):
            if fence is not None:
                closing = FENCE.fullmatch(line)
                if closing and closing.group(2).startswith(fence) and not closing.group(3).strip():
                    fence = None
                continue
            opened = FENCE.fullmatch(line)
            if opened:
                fence = opened.group(2)
                continue
            line, comment = without_comments(line, comment)
            if HEADING.match(line):
                title = line.strip().lstrip("#").strip()
                reading_list = elsewhere or title.startswith(XREF_ELSEWHERE_HEADING)
                named = False
                continue
            if ADMONITION_TITLE.match(line) or INCLUDE_LINE.fullmatch(line):
                continue
            if LIST_ITEM.match(line):
                named = False  # a new item of a reading list cites a new work
            text, links = prose_and_links(line)
            following = lines[number] if number < len(lines) else ""
            self.mentions(page, number, text, links, reading_list, named, following)
            named = named or (reading_list and bool(NAMED_WORK.search(text)))

    def mentions(self, page, number, text, links, reading_list, named, following) -> None:
        last = None  # the last mention of the line: a "(coming)" after it is about its page
        for match in XREF.finditer(text):
            word = match.group(1).lower()
            for found in XREF_NUMBER.finditer(match.group(2)):
                where, name = match.start(2) + found.start(), found.group(0)
                target = xref_page(self.root / "docs", word, name)
                if target is None:
                    continue  # "chapter 8.4", "exercise 8": not a place in this book
                last = (f"{word} {name}", target)
                link = next((t for start, end, t in links if start <= where < end), False)
                if link is not False:
                    self.linked_mention(page, number, f"{word} {name}", target, link)
                elif reading_list and (named or NAMED_WORK.search(text[: match.start()])):
                    continue  # a reading list citing a chapter of the work it names
                elif not target.exists:
                    if "(coming)" not in text[match.end() :] + " " + following:
                        message = f'{word} {name} has no page yet: mark it "(coming)"'
                        self.report(page, number, message)
                else:
                    self.report(page, number, self.bare(page, word, name, target))
        if last is not None and last[1].exists and "(coming)" in text:
            self.report(page, number, f'"(coming)" after {last[0]}, whose page exists')

    def bare(self, page: Path, word: str, name: str, target: "XrefTarget") -> str:
        """The message for a bare mention, with the link to write."""
        to = posixpath.relpath(target.path, posixpath.dirname(self.docs_path(page)))
        text = f"[{word} {name}]" if not word.endswith("s") else f"{word} [{name}]"
        link = f"{text}({to}{target.anchor})"
        return f'a bare cross-reference "{word} {name}": make it a link, {link}'

    def linked_mention(self, page, number, mention, target, link) -> None:
        """A mention that is a link's text links to the page it names (an exercise to its
        anchor in its chapter, or to its answer)."""
        if link is None or re.match(r"[a-z]+:", link) or not target.exists:
            return  # a reference-style link, another site's chapter, or a page not written yet
        path, _, anchor = link.strip().split(" ")[0].partition("#")
        here = self.docs_path(page)
        file = posixpath.normpath(posixpath.join(posixpath.dirname(here), path)) if path else here
        right = file == target.path and (not target.anchor or anchor == target.anchor[1:])
        if not right and not target.answer(file, anchor):
            self.report(page, number, f"{mention} links to {link}, not to {target.path}"
                        f"{target.anchor}")  # fmt: skip

    def docs_path(self, page: Path) -> str:
        return page.relative_to(self.root / "docs").as_posix()

    # --- usage --------------------------------------------------------------------------------

    def figures(self, page: Path) -> None:
        for name in re.findall(r"figures/([\w.-]+\.svg)", page.read_text(encoding="utf-8")):
            self.used.add(f"out/figures/{name}")

    def usage(self) -> None:
        used = self.used | set(INPUTS)
        allowed = read_unused(self.root / "scripts" / "unused_outputs.txt")
        candidates = []
        for folder in ("out", "excerpts"):
            base = self.root / folder
            if base.is_dir():
                candidates += [p for p in sorted(base.rglob("*")) if p.is_file()]
        for path in candidates:
            name = str(path.relative_to(self.root))
            if name in used or allowed_unused(name, allowed):
                continue
            whole = str(path.parent.relative_to(self.root)) + ".txt"  # a block's whole output
            blocks = name.removesuffix(".txt") + "/"  # a whole output's blocks
            if whole in used or any(other.startswith(blocks) for other in used):
                continue
            self.problems.append(
                f"{name}: no page uses it (include it, or list it in "
                "scripts/unused_outputs.txt with the reason)"
            )


def excluded(config: Path) -> pathspec.GitIgnoreSpec:
    """mkdocs.yml's exclude_docs, read as mkdocs reads it (gitignore patterns, pathspec)."""

    class Loader(yaml.SafeLoader):  # mkdocs.yml's tags (!relative) are not needed here
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    text = config.read_text(encoding="utf-8") if config.exists() else ""
    spec = (yaml.load(text, Loader) or {}).get("exclude_docs", "")
    return pathspec.GitIgnoreSpec.from_lines(spec.splitlines())


class XrefTarget(NamedTuple):
    """The page a mention names (its path under docs/), the anchor an exercise adds, and
    whether the page exists."""

    path: str
    anchor: str
    exists: bool

    def answer(self, file: str, anchor: str) -> bool:
        """An exercise may link to its answer in appendix A instead."""
        return bool(self.anchor) and file == ANSWERS_PAGE and anchor == "a-" + self.anchor[4:]


ANSWERS_PAGE = "back/a-answers.md"


def xref_page(docs: Path, word: str, name: str) -> XrefTarget | None:
    """The page of "step 3", "chapter 11", "appendix C" or "exercise 8.4", written or not."""
    if word.startswith("append"):
        if not name.isalpha():
            return None
        folder, stem, anchor = "back", name.lower(), ""
    elif "." in name:
        if not word.startswith("exercise"):
            return None
        chapter, exercise = name.split(".")
        folder, stem, anchor = "part*", f"{int(chapter):02d}", f"#ex-{chapter}-{exercise}"
    elif name.isdigit() and not word.startswith("exercise"):
        folder = "short" if word.startswith("step") else "part*"
        stem, anchor = f"{int(name):02d}", ""
    else:
        return None
    found = sorted(docs.glob(f"{folder}/{stem}-*.md"))
    if found:
        return XrefTarget(found[0].relative_to(docs).as_posix(), anchor, True)
    return XrefTarget(f"{folder}/{stem}-….md", anchor, False)


def without_comments(line: str, inside: bool) -> tuple[str, bool]:
    """A line with its HTML comments blanked, and whether a comment is still open after it."""
    if inside:
        if "-->" not in line:
            return "", True
        line = " " * (line.index("-->") + 3) + line[line.index("-->") + 3 :]
    line = re.sub(r"<!--.*?-->", lambda m: " " * len(m.group(0)), line)
    if "<!--" in line:
        return line[: line.index("<!--")], True
    return line, False


def prose_and_links(line: str) -> tuple[str, list[tuple[int, int, str | None]]]:
    """The line with what is not prose blanked (code spans, placeholders, tags, attribute
    lists, image alt texts, link targets), and the span and target of each link's text."""
    for pattern in (r"(`+).+?\1", r"\{\{.*?\}\}", r"<[^>]+>", r"\{\s*[#.:][^}]*\}"):
        line = re.sub(pattern, lambda m: " " * len(m.group(0)), line)
    links = []
    for match in MD_LINK.finditer(line):
        if match.group(1):
            line = line[: match.start()] + " " * len(match.group(0)) + line[match.end() :]
            continue
        links.append((match.start(2), match.end(2), match.group(3)))
        line = line[: match.end(2)] + " " * (match.end() - match.end(2)) + line[match.end() :]
    return line, links


NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
    if value >= 2
}
WORD_COUNT = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")[ -]([A-Za-z][a-z-]*)", re.I)


def stated_counts(out: Path) -> dict[int, list[tuple[str, set[str]]]]:
    """value -> [(key, the words of its meaning)] of every integer a program states."""
    found: dict[int, list[tuple[str, set[str]]]] = {}
    for path in sorted(out.glob("*/*.numbers.json")):
        for key, stated in json.loads(path.read_text(encoding="utf-8")).items():
            value = stated.get("value") if isinstance(stated, dict) else None
            if isinstance(value, int) and not isinstance(value, bool) and value in range(2, 21):
                found.setdefault(value, []).append((key, {head_noun(stated["meaning"])}))
    return found


LEADING = {"the", "a", "an", "of", "them", "its", "their", "those", "these", "how", "many"}


def head_noun(meaning: str) -> str:
    """The thing a stated number counts: the first word of its meaning past the articles
    ("rules of the default matcher" -> "rule"; "of them, the MULs" -> "mul")."""
    words = [w for w in re.findall(r"[a-z]+", meaning.lower()) if w not in LEADING]
    return singular(words[0]) if words else ""


def singular(word: str) -> str:
    word = word.lower()
    for ending, plain in (("ies", "y"), ("ses", "s"), ("s", "")):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)] + plain
    return word


def word_counts(line: str, counts: dict) -> list[tuple[str, str, str]]:
    """(the words, the number word, the key) of each count written as a word where a stated
    number of the same value counts the same thing (its meaning holds the noun)."""
    for pattern in NOT_PROSE:
        line = pattern.sub(" ", line)
    found = []
    for match in WORD_COUNT.finditer(line):
        value, noun = NUMBER_WORDS[match.group(1).lower()], singular(match.group(2))
        keys = [key for key, words in counts.get(value, []) if noun in words]
        if keys:
            found.append((match.group(0), match.group(1).lower(), " or ".join(keys)))
    return found


def open_powers(line: str) -> list[str]:
    """The carets of a line of prose that no closing caret pairs with."""
    for pattern in NOT_PROSE:
        line = pattern.sub(lambda m: "N" if m.group(0).startswith("{{") else " ", line)
    return OPEN_POWER.findall(CLOSED_POWER.sub("", line))


def typed_numbers(line: str) -> list[str]:
    """The numbers of a line of prose that look like measured figures."""
    for pattern in NOT_PROSE:
        line = pattern.sub(" ", line)
    line = PLACE.sub(" ", line)
    line = POWER.sub(" ", line)
    return measured_numbers(line)


def span_numbers(line: str) -> list[str]:
    """The measured-looking numbers of the code spans of a line that hold only a value."""
    found = []
    for match in CODE_SPAN.finditer(line):
        if VALUE_SPAN.fullmatch(match.group(2)):
            found += measured_numbers(match.group(2))
    return found


def measured_numbers(text: str) -> list[str]:
    """The numbers of text that look measured: a separator, a point, an exponent, or >= 10,
    less the constants of ALLOWED and the powers of two (and one off them)."""
    found = []
    for match in NUMBER.finditer(text):
        token = match.group(1).rstrip(",")
        start = match.start(1)
        signed = "-" + token if start and text[start - 1] == "-" else token
        if token in ALLOWED or signed in ALLOWED or token in POWERS:
            continue
        plain = token.replace(",", "")
        if "," in token or "." in token or "e" in plain.lower() or int(plain) >= 10:
            found.append(token)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository")
    args = parser.parse_args(argv)
    lint = Lint(args.root.resolve())
    pages = lint.pages()
    for page in pages:
        lint.page(page)
        lint.figures(page)
        lint.not_verified_notes(page)
        lint.cross_references(page)
    lint.not_verified_list()
    lint.usage()
    for problem in lint.problems:
        print(f"lint_docs: {problem}")
    if lint.problems:
        print(f"lint_docs: FAILED: {len(lint.problems)} problems in {len(pages)} pages")
        return 1
    print(f"lint_docs: {len(pages)} pages clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
