"""mkdocs hook: the glossary's definitions shown under the pointer on every page.

Why a hook: Python-Markdown's own `abbr` extension (maintained, with Material's tooltips) does
the marking; no plugin reads the definitions out of a page of the book. Its usual source, a file
of `*[term]: definition` lines appended by pymdownx.snippets, would be a second copy of appendix
F to keep in step; this hook makes appendix F that file.

Appendix F (docs/back/f-glossary.md) is the only place a definition is written. Before any
page is converted, this hook reads its entries and hands them to Python-Markdown's `abbr`
extension as its `glossary` option: every page then marks each listed form of a term in its
prose as <abbr title="definition">, and Material's `content.tooltips` shows that title as a
tooltip on hover, focus and tap. `abbr` leaves code blocks and code spans alone (their text is
never searched). Nothing is generated on disk, so nothing can go stale.

An entry of the page is:

    ### term { #id }                    .unmarked: never marked in the text;
                                         data-forms="a|b": more marked forms (plurals, say)
    The definition: one paragraph, the text of the tooltip.

    Where the book defines it. Also written *x*, *y*.

The marked forms of a term are the term, its "Also written" spellings and its data-forms,
each also with a capital first letter. The build stops, naming the entry, when an entry lacks
its id, its definition or the paragraph after it, when the entries are not in alphabetical
order, or when two terms claim one form. scripts/check_browser.py checks the tooltips in
Chromium; tests/test_glossary.py checks this parser.
"""

import re
from pathlib import Path

from mkdocs.exceptions import PluginError

PAGE = "back/f-glossary.md"
COMMENT = re.compile(r"<!--.*?-->", re.S)
ENTRY = re.compile(r"### (?P<term>.+?) \{ #(?P<id>[a-z0-9-]+)(?P<attrs>[^}]*)\}\s*")
FORMS = re.compile(r'data-forms="([^"]*)"')
ALSO = re.compile(r"Also written (.+?)\.\s*$")
EMPHASIS = re.compile(r"\*([^*]+)\*")
LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def plain(markdown: str) -> str:
    """The text a reader sees of one paragraph: links, code marks and emphasis dropped."""
    text = LINK.sub(r"\1", " ".join(markdown.split()))
    return EMPHASIS.sub(r"\1", text.replace("`", ""))


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
    return config
