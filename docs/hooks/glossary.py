"""mkdocs hook: the glossary's definitions shown under the pointer on every page.

Why a hook: Python-Markdown's `abbr` extension (with Material's `content.tooltips`) does the
marking, but its usual source, a file of `*[term]: definition` lines, would be a second copy of
appendix F; and it marks every use, in headings too, links nowhere and cannot be focused. No
maintained plugin reads the definitions from a page of the book itself.

Appendix F (docs/back/f-glossary.md) is the only place a definition is written; this hook hands
its entries to `abbr` as its `glossary` option. After conversion it keeps, on each page, only
the first mark of each term outside headings and links, made a link to the entry with the
definition as its title (docs/javascripts/glossary.js: a first tap shows it); every other mark
becomes plain text again. An entry of the page is:

    ### term { #id }                    .unmarked: never marked in the text;
                                         data-forms="a|b": more marked forms (plurals, say)
    The definition: one paragraph, the text of the tooltip.

    Where the book defines it. Also written *x*, *y*.

The marked forms are the term, its "Also written" spellings and its data-forms, each also with
a capital first letter. The build stops, naming the entry, on a missing id, definition or second
paragraph, on entries out of alphabetical order, and on two terms claiming one form.
"""

import html
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

PAGE = "back/f-glossary.md"
COMMENT = re.compile(r"<!--.*?-->", re.S)
ENTRY = re.compile(r"### (?P<term>.+?) \{ #(?P<id>[a-z0-9-]+)(?P<attrs>[^}]*)\}\s*")
FORMS = re.compile(r'data-forms="([^"]*)"')
ALSO = re.compile(r"Also written (.+?)\.\s*$")
EMPHASIS = re.compile(r"\*([^*]+)\*")
LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
POWER = re.compile(r"\^([^\s^]+)\^")  # 2^32^, raised on the page; 2^32 in a plain title
MARK = re.compile(r'<abbr title="(?P<title>[^"]*)">(?P<text>.*?)</abbr>', re.S)
TAG = re.compile(r"<(/?)(a|h[1-6]|pre|code)\b[^>]*>", re.I)
NO_MARK = ("a", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "code")  # inside these: plain text
FORM_IDS: dict[str, str] = {}  # each marked form -> the id of its term's entry


def plain(markdown: str) -> str:
    """The text a reader sees of one paragraph: links, code marks and emphasis dropped."""
    text = LINK.sub(r"\1", " ".join(markdown.split()))
    return POWER.sub(r"^\1", EMPHASIS.sub(r"\1", text.replace("`", "")))


def sort_key(term: str) -> str:
    return re.sub(r"[^a-z0-9 ]", "", term.lower())


def entries(markdown: str) -> list[dict]:
    """Each entry of the glossary page: term, id, definition, forms, marked."""
    found, current = [], None
    for line in COMMENT.sub("", markdown).split("\n"):
        if line.startswith("#"):
            current = None
            if line.startswith("### "):
                match = ENTRY.fullmatch(line)
                if not match:
                    raise PluginError(f"glossary: '{line}' needs an id: ### term {{ #id }}")
                current = {**match.groupdict(), "lines": []}
                found.append(current)
        elif current is not None:
            current["lines"].append(line)
    return [parse(entry) for entry in found]


def parse(entry: dict) -> dict:
    term, attrs = entry["term"].replace("`", ""), entry["attrs"]
    paragraphs = [p for p in "\n".join(entry["lines"]).split("\n\n") if p.strip()]
    if len(paragraphs) < 2:
        raise PluginError(
            f"glossary: '{term}' needs a definition and, after it, where it is defined"
        )
    where = " ".join(paragraphs[1].split())
    also = ALSO.search(where)
    spellings = EMPHASIS.findall(also.group(1)) if also else []
    extra = FORMS.search(attrs)
    forms = [term, *spellings, *(extra.group(1).split("|") if extra else [])]
    forms += [form[0].upper() + form[1:] for form in forms if form[0].islower()]
    return {
        "term": term,
        "id": entry["id"],
        "definition": plain(paragraphs[0]),
        "marked": ".unmarked" not in attrs,
        "forms": list(dict.fromkeys(form for form in forms if form.strip())),
    }


def abbreviations(glossary: list[dict]) -> dict[str, str]:
    """Every marked form with the definition of its term, checking order and clashes."""
    terms = [entry["term"] for entry in glossary]
    expected = sorted(terms, key=sort_key)
    if terms != expected:
        wrong = next(a for a, b in zip(terms, expected, strict=True) if a != b)
        raise PluginError(f"glossary: the entries are not in alphabetical order (at '{wrong}')")
    owner, titles = {}, {}
    for entry in glossary:
        for form in entry["forms"] if entry["marked"] else []:
            if owner.setdefault(form, entry["term"]) != entry["term"]:
                raise PluginError(
                    f"glossary: '{form}' is claimed by '{owner[form]}' and '{entry['term']}'"
                )
            titles[form] = entry["definition"]
    return titles


def on_config(config):
    if "abbr" not in config.markdown_extensions:
        raise PluginError("glossary: mkdocs.yml must list the abbr extension")
    page = Path(config.docs_dir) / PAGE
    if not page.exists():  # a book without a glossary page marks no term
        return config
    glossary = entries(page.read_text(encoding="utf-8"))
    config.mdx_configs.setdefault("abbr", {})["glossary"] = abbreviations(glossary)
    FORM_IDS.clear()
    FORM_IDS.update(
        {form: entry["id"] for entry in glossary if entry["marked"] for form in entry["forms"]}
    )
    return config


def link_first_uses(text: str, glossary_url: str) -> str:
    """The page's HTML with each term's first mark outside headings and links made a link to
    its entry (glossary_url, relative to the page) and every other mark back to plain text."""
    out, depth, seen, at = [], dict.fromkeys(NO_MARK, 0), set(), 0
    for mark in MARK.finditer(text):
        before = text[at : mark.start()]
        for tag in TAG.finditer(before):
            name = tag.group(2).lower()
            depth[name] = max(0, depth[name] + (-1 if tag.group(1) else 1))
        out.append(before)
        at = mark.end()
        term = FORM_IDS.get(html.unescape(mark["text"]))
        if term is None or term in seen or any(depth.values()):
            out.append(mark["text"])
            continue
        seen.add(term)
        out.append(
            f'<a class="glossary-term" href="{glossary_url}#{term}" title="{mark["title"]}">'
            f"{mark['text']}</a>"
        )
    out.append(text[at:])
    return "".join(out)


def on_page_content(text, page, config, files):
    if not FORM_IDS:
        return text
    return link_first_uses(text, get_relative_url(PAGE.replace(".md", ".html"), page.url))
