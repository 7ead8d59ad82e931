"""The docs lint: what mkdocs and snippets let through silently, checked on the page sources.

    python -m pytest tests/test_docs_lint.py        (one test per rule and page)

Every page under docs/ (less mkdocs.yml's exclude_docs) is held to each rule of PAGE_RULES,
and the book as a whole to two more: every output and excerpt is used, and chapter 15's list of
what is not verified matches its notes. docs/CONTRIBUTING.md says what each rule asks of a page
and how to allow an exception; a rule's docstring says what it looks at. A finding reads
`page:line: problem`. `problems(root)` runs every rule on another tree: tests/test_book_checks.py
plants a fault in a small book and reads the finding.
"""

import json
import posixpath
import re
from pathlib import Path
from typing import NamedTuple

import pathspec
import pytest
import yaml
from make_numbers import INPUTS  # scripts/, on the path by pytest's pythonpath (pyproject.toml)

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


# 2^k and 2^k - 1 and 2^k + 1 for k up to 64: field widths and the limits they give
POWERS = {
    form
    for value in {2**k + d for k in range(65) for d in (-1, 0, 1)}
    for form in (str(value), f"{value:,}", f"-{value}", f"-{value:,}")
}
# an image of figures/; its alt text may hold brackets ("the load of out[0]")
FIGURE_IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*figures/([^)]+)\)")
FIGCAPTION = re.compile(r"<figcaption>(.*?)</figcaption>", re.DOTALL)


class Page(NamedTuple):
    """A page: its name from the root and from docs/, its text, each line outside fenced blocks,
    each fenced block (first line, info, body, marked literal), the first line of one unclosed."""

    root: Path
    name: str
    docs_name: str
    text: str
    lines: list[str]
    prose: list[tuple[int, str]]
    fences: list[tuple[int, str, list[tuple[int, str]], bool]]
    unclosed: int | None


def read_page(root: Path, path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    lines, prose, fences, fence = text.splitlines(), [], [], None
    for number, line in enumerate(lines, 1):
        found = FENCE.fullmatch(line)
        if fence is None and found:
            literal = number >= 2 and bool(LITERAL.fullmatch(lines[number - 2]))
            fence = (found.group(2), number, found.group(3), [], literal)
        elif fence is None:
            prose.append((number, line))
        elif found and found.group(2).startswith(fence[0]) and not found.group(3).strip():
            fences.append(fence[1:])
            fence = None
        else:
            fence[3].append((number, line))
    name = path.relative_to(root).as_posix()
    return Page(
        root, name, name.removeprefix("docs/"), text, lines, prose, fences, fence and fence[1]
    )


def pages(root: Path) -> list[Page]:
    docs, spec = root / "docs", excluded(root / "mkdocs.yml")
    found = [
        p for p in sorted(docs.rglob("*.md")) if not spec.match_file(p.relative_to(docs).as_posix())
    ]
    return [read_page(root, path) for path in found]


def listing(body) -> list[tuple[int, str]]:
    """(line, target) of each include of a fenced block that holds only includes, else []."""
    found = [(number, INCLUDE_LINE.fullmatch(line)) for number, line in body if line.strip()]
    return [(number, match.group(2)) for number, match in found] if all(m for _, m in found) else []


def includes(page: Page):
    """(line, target) of each include that puts a file on the page: the lines of a fenced block
    of includes, and a whole .md file standing alone in the prose."""
    for _, _, body, literal in page.fences:
        yield from [] if literal else listing(body)
    for number, line in page.prose:
        whole = INCLUDE_LINE.fullmatch(line)
        if whole and whole.group(2).endswith(".md"):
            yield number, whole.group(2)


# --- the rules of a page: each yields (line, problem) ----------------------------------------


def fences(page: Page):
    """A fenced block includes generated files and has a title, or is a marked literal; a listing
    of chapters 1-11 fits on a screen."""
    if page.unclosed is not None:
        yield page.unclosed, "a fenced block that is never closed"
    for start, info, body, literal in page.fences:
        if literal:
            continue
        if not listing(body):
            yield (
                start,
                (
                    "a fenced block that is not an include: include a generated file, or mark a "
                    "deliberate literal with <!-- literal: reason --> on the line before"
                ),
            )
            continue
        if "title=" not in info:
            yield start, 'an included listing or output needs title="..."'
        shown = listing_lines(page, body)
        if shown is not None and len(shown) > LONG_LISTING:
            yield (
                start,
                (
                    f"a listing of {len(shown)} lines (more than {LONG_LISTING}): split its region "
                    "into parts a reader takes in at once, with prose between them"
                ),
            )


def listing_lines(page: Page, body) -> list[str] | None:
    """The lines a listing of chapters 1-11 (a block that includes from excerpts/) shows, every
    include expanded, blank lines at either end dropped; None for any other block."""
    chapter = CHAPTER_PAGE.fullmatch(page.name)
    if not chapter or int(chapter.group(1)) not in LISTING_CHAPTERS:
        return None
    targets = [INCLUDE_LINE.fullmatch(line) for _, line in body]
    if not any(t and t.group(2).startswith("excerpts/") for t in targets):
        return None
    shown = []
    for (_, line), target in zip(body, targets, strict=True):
        shown += included_lines(page.root, target.group(2)) if target else [line]
    while shown and not shown[-1].strip():
        shown.pop()
    while shown and not shown[0].strip():
        shown.pop(0)
    return shown


def included_lines(root: Path, target: str) -> list[str]:
    """The lines an include of a whole file puts on the page (a section is refused)."""
    path, section = split_include(target)
    file = root / path
    if section is not None or not file.is_file():
        return []  # reported by include_lines, or by the build (docs/hooks/includes.py)
    return file.read_text(encoding="utf-8").splitlines()


def include_lines(page: Page):
    """An include stands alone on its line, inside a fenced block (a whole .md file may stand
    alone in the prose: snippets puts anything else in as text), and names a whole file of out/,
    excerpts/ or code/: a line range drifts, and a region is quoted by its excerpt, which
    make_excerpts.py cuts and checks."""
    for number, line in page.prose:
        whole = INCLUDE_LINE.fullmatch(line)
        if whole and not whole.group(2).endswith(".md"):
            yield number, "an include outside a fenced block (it would be text)"
        elif not whole and INCLUDE.search(line):
            yield number, "an include inside a sentence (snippets prints it as is)"
    for number, target in includes(page):
        path, section = split_include(target)
        if not path.startswith(INCLUDE_ROOTS) and not path.endswith(".md"):
            yield number, f"{path}: include from out/, excerpts/ or code/ only"
        if section is not None and re.fullmatch(r"[\d:,-]+", section):
            yield number, f"{target}: a line range drifts; cut by a named region"
        elif section is not None:
            excerpt = Path("excerpts", path).with_suffix("") / f"{section}{Path(path).suffix}"
            yield number, f"{target}: include the region's excerpt, {excerpt}"


def numbers(page: Page):
    """No measured number typed in the prose or as a code span's value, no count typed as a word
    that a program states, no open power (2^31 for 2^31^); unless the page allows it."""
    allowed = dict(TYPED_NUMBER.findall(page.text))
    counts = stated_counts(page.root / "out")
    for number, line in [(n, line) for n, line in page.prose if not INCLUDE.search(line)]:
        said = [f"an open power {p}: close it, {p}^ (pymdownx.caret)" for p in open_powers(line)]
        for words, token, key in word_counts(line, counts):
            said += [] if token in allowed else [COUNT_WORD.format(words=words, key=key, t=token)]
        for token in typed_numbers(line) + span_numbers(line):
            said += [] if token in allowed else [TYPED.format(t=token)]
        yield from ((number, problem) for problem in said)


ALLOW = "allow it with <!-- typed-number {t}: reason -->"
TYPED = "the number {t} is typed: use a {{{{ n.KEY }}}} placeholder, or " + ALLOW
COUNT_WORD = (
    "the count '{words}' is typed as a word, and a program states a count of that many of them "
    "({key}): use its placeholder if it counts the same thing, or " + ALLOW
)


def captions(page: Page):
    """Every figure stands in a <figure> with a caption of its own (the lightbox shows it too,
    docs/hooks/lightbox.py): a reader who opens a figure alone still learns what it says."""
    text = page.text
    for image in FIGURE_IMAGE.finditer(text):
        start, end = text.rfind("<figure", 0, image.start()), text.find("</figure>", image.end())
        inside = 0 <= start and end >= 0 and start >= text.rfind("</figure>", 0, image.start())
        caption = FIGCAPTION.search(text[start:end]) if inside else None
        if caption is None or not re.sub(r"<[^>]+>", "", caption.group(1)).strip():
            line = text.count("\n", 0, image.start()) + 1
            yield line, f"{image.group(1)}: a figure without a <figcaption>"


def notes(page: Page):
    """(line, the items it links) of each "Not verified" note: its body is its indented lines."""
    for number, line in enumerate(page.lines, 1):
        note = NV_NOTE.match(line)
        if not note:
            continue
        body = []
        for text in page.lines[number:]:
            if text.strip() and len(text) - len(text.lstrip()) <= len(note.group(1)):
                break
            body.append(text)
        yield number, NV_LINK.findall(" ".join(body))


def cross_references(page: Page):
    """Each step, chapter, appendix or exercise the prose names is a link to its page; a page
    not written yet is marked "(coming)", and a page that exists is not."""
    elsewhere = page.name in XREF_ELSEWHERE_PAGES
    comment, reading_list, named = False, elsewhere, False
    for number, line in page.prose:
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
        following = page.lines[number] if number < len(page.lines) else ""
        for problem in mentions(page, text, links, reading_list, named, following):
            yield number, problem
        named = named or (reading_list and bool(NAMED_WORK.search(text)))


def mentions(page: Page, text, links, reading_list, named, following):
    last = None  # the last mention of the line: a "(coming)" after it is about its page
    for match in XREF.finditer(text):
        word = match.group(1).lower()
        for found in XREF_NUMBER.finditer(match.group(2)):
            where, name = match.start(2) + found.start(), found.group(0)
            target = xref_page(page.root / "docs", word, name)
            if target is None:
                continue  # "chapter 8.4", "exercise 8": not a place in this book
            last = (f"{word} {name}", target)
            link = next((t for start, end, t in links if start <= where < end), False)
            if link is not False:
                yield from linked_mention(page, f"{word} {name}", target, link)
            elif reading_list and (named or NAMED_WORK.search(text[: match.start()])):
                continue  # a reading list citing a chapter of the work it names
            elif not target.exists:
                if "(coming)" not in text[match.end() :] + " " + following:
                    yield f'{word} {name} has no page yet: mark it "(coming)"'
            else:
                yield bare(page, word, name, target)
    if last is not None and last[1].exists and "(coming)" in text:
        yield f'"(coming)" after {last[0]}, whose page exists'


def bare(page: Page, word: str, name: str, target: "XrefTarget") -> str:
    """The message for a bare mention, with the link to write."""
    to = posixpath.relpath(target.path, posixpath.dirname(page.docs_name))
    text = f"[{word} {name}]" if not word.endswith("s") else f"{word} [{name}]"
    return f'a bare cross-reference "{word} {name}": make it a link, {text}({to}{target.anchor})'


def linked_mention(page: Page, mention: str, target: "XrefTarget", link):
    """A mention that is a link's text links to the page it names (an exercise to its anchor in
    its chapter, or to its answer)."""
    if link is None or re.match(r"[a-z]+:", link) or not target.exists:
        return  # a reference-style link, another site's chapter, or a page not written yet
    path, _, anchor = link.strip().split(" ")[0].partition("#")
    here = page.docs_name
    file = posixpath.normpath(posixpath.join(posixpath.dirname(here), path)) if path else here
    right = file == target.path and (not target.anchor or anchor == target.anchor[1:])
    if not right and not target.answer(file, anchor):
        yield f"{mention} links to {link}, not to {target.path}{target.anchor}"


PAGE_RULES = [
    fences,
    include_lines,
    numbers,
    captions,
    cross_references,
]


# --- the rules of the book --------------------------------------------------------------------


def unused(root: Path, found: list[Page]) -> list[str]:
    """Every excerpt and every file under out/ is included or shown by some page, read by
    scripts/make_numbers.py, or listed in scripts/unused_outputs.txt with a reason."""
    used = set(INPUTS)
    for page in found:
        used |= {split_include(target)[0] for _, target in includes(page)}
        used |= {f"out/figures/{name}" for name in re.findall(r"figures/([\w.-]+\.svg)", page.text)}
    allowed = read_unused(root / "scripts" / "unused_outputs.txt")
    problems = []
    for folder in ("out", "excerpts"):
        for path in sorted((root / folder).rglob("*")) if (root / folder).is_dir() else []:
            name = path.relative_to(root).as_posix()
            if not path.is_file() or name in used or allowed_unused(name, allowed):
                continue
            whole = path.parent.relative_to(root).as_posix() + ".txt"  # a block's whole output
            blocks = name.removesuffix(".txt") + "/"  # a whole output's blocks
            if whole in used or any(other.startswith(blocks) for other in used):
                continue
            problems.append(
                f"{name}: no page uses it (include it, or list it in "
                "scripts/unused_outputs.txt with the reason)"
            )
    return problems


def not_verified_list(root: Path, found: list[Page]) -> list[str]:
    """Every "Not verified" note links to an item of chapter 15's list; every item is named by a
    note, or says why not with <!-- nv-unnamed: reason --> inside it."""
    named: dict[str, list[str]] = {}  # item -> the notes linking it, as page:line
    problems = []
    for page in found:
        for number, links in notes(page):
            if not links:
                problems.append(
                    f'{page.name}:{number}: a "Not verified" note without a link to its item of '
                    "chapter 15's list (../part5/15-verification.md#nv-NAME)"
                )
            for item in links:
                named.setdefault(item, []).append(f"{page.name}:{number}")
    page = root / NOT_VERIFIED_PAGE
    if not page.is_file():
        return [
            f"{at}: #{item}: no page {NOT_VERIFIED_PAGE}" for item in named for at in named[item]
        ]
    lines = page.read_text(encoding="utf-8").splitlines()
    items, start = {}, 0  # an item: from its "N. " line down to its anchor
    for number, line in enumerate(lines, 1):
        if re.match(r"\d+\.\s", line):
            start = number - 1
        anchor = NV_ITEM.match(line)
        if anchor:
            items[anchor.group(1)] = (number, "\n".join(lines[start:number]))
    problems += [
        f"{at}: #{item} is not an item of the list"
        for item, notes_of in sorted(named.items())
        if item not in items
        for at in notes_of
    ]
    for item, (number, text) in items.items():
        if item not in named and not NV_UNNAMED.search(text):
            problems.append(
                f'{NOT_VERIFIED_PAGE}:{number}: #{item}: no "Not verified" note names this item; '
                "link one to it, or say why none does with <!-- nv-unnamed: reason --> in the item"
            )
    return problems


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


def prose_only(line: str, placeholder: str = " ") -> str:
    """The line with what is not prose blanked (NOT_PROSE), a placeholder as `placeholder`."""
    for pattern in NOT_PROSE:
        line = pattern.sub(lambda m: placeholder if m.group(0).startswith("{{") else " ", line)
    return line


def word_counts(line: str, counts: dict) -> list[tuple[str, str, str]]:
    """(the words, the number word, the key) of each count written as a word where a stated
    number of the same value counts the same thing (its meaning holds the noun)."""
    found = []
    for match in WORD_COUNT.finditer(prose_only(line)):
        value, noun = NUMBER_WORDS[match.group(1).lower()], singular(match.group(2))
        keys = [key for key, words in counts.get(value, []) if noun in words]
        if keys:
            found.append((match.group(0), match.group(1).lower(), " or ".join(keys)))
    return found


def open_powers(line: str) -> list[str]:
    """The carets of a line of prose that no closing caret pairs with."""
    return OPEN_POWER.findall(CLOSED_POWER.sub("", prose_only(line, "N")))


def typed_numbers(line: str) -> list[str]:
    """The numbers of a line of prose that look like measured figures."""
    return measured_numbers(POWER.sub(" ", PLACE.sub(" ", prose_only(line))))


def span_numbers(line: str) -> list[str]:
    """The measured-looking numbers of the code spans of a line that hold only a value."""
    spans = [span.group(2) for span in CODE_SPAN.finditer(line)]
    return [n for span in spans if VALUE_SPAN.fullmatch(span) for n in measured_numbers(span)]


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


# --- the tests --------------------------------------------------------------------------------

PAGES = pages(ROOT)


@pytest.mark.parametrize("rule", PAGE_RULES, ids=lambda rule: rule.__name__)
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.docs_name)
def test_page(page, rule):
    found = [f"{page.name}:{number}: {problem}" for number, problem in rule(page)]
    assert not found, "\n".join(found)


def test_every_output_and_excerpt_is_used():
    found = unused(ROOT, PAGES)
    assert not found, "\n".join(found)


def test_every_not_verified_note_links_an_item_and_every_item_is_named():
    found = not_verified_list(ROOT, PAGES)
    assert not found, "\n".join(found)


def problems(root: Path) -> list[str]:
    """Every finding of every rule on the tree at root."""
    found = pages(root)
    on_pages = [
        f"{p.name}:{n}: {problem}" for p in found for rule in PAGE_RULES for n, problem in rule(p)
    ]
    return on_pages + not_verified_list(root, found) + unused(root, found)
