"""The glossary hook (docs/hooks/glossary.py): appendix F read as entries, and the build refused
on an entry out of order, without its id or its second paragraph, or on a form two terms claim.
The tooltips themselves are checked in Chromium by tests/browser/."""

import importlib.util
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("glossary", ROOT / "docs/hooks/glossary.py")
glossary = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(glossary)


def entry(term, definition="A plain definition.", where="Defined in step 1.", attrs=""):
    return f"### {term} {{ #{term.lower().replace(' ', '-')}{attrs} }}\n\n{definition}\n\n{where}\n"


def test_the_page_has_every_term_with_a_definition():
    page = (ROOT / "docs" / glossary.PAGE).read_text(encoding="utf-8")
    entries = glossary.entries(page)
    titles = glossary.abbreviations(entries)
    assert len(entries) >= 55
    assert all(e["definition"] and "`" not in e["definition"] for e in entries)
    assert titles["wraparound"] == titles["wrap-around"] == titles["wrap"]
    assert titles["hash-consing"] == titles["Hash consing"] == titles["hash consing"]
    assert "node" not in titles  # .unmarked


@pytest.mark.parametrize(
    "markdown, shown",
    [("modulo 2^32^ back", "modulo 2^32 back"), ("*the* `x` [wrap](a.md)", "the x wrap")],
)
def test_a_definition_reads_plain_in_its_title(markdown, shown):
    assert glossary.plain(markdown) == shown  # a closed power as it is typed, not 2^32^


@pytest.mark.parametrize(
    "term, attrs, where, forms",
    [
        ("hash consing", "", "Also written *hash-consing*.", ["hash consing", "hash-consing",
                                                            "Hash consing", "Hash-consing"]),
        ("NaN", ' data-forms="NaNs"', "Defined.", ["NaN", "NaNs"]),
        ("node", " .unmarked", "Defined.", ["node", "Node"]),
    ],
)  # fmt: skip
def test_forms(term, attrs, where, forms):
    (parsed,) = glossary.entries(entry(term, where=where, attrs=attrs))
    assert parsed["forms"] == forms
    assert parsed["marked"] == (attrs != " .unmarked")


@pytest.mark.parametrize(
    "page, message",
    [
        (entry("zeta") + entry("alpha"), "alphabetical"),
        ("### alpha\n\nNo id.\n\nWhere.\n", "needs an id"),
        ("### alpha { #alpha }\n\nOnly a definition.\n", "needs a definition"),
        (entry("alpha", where="Also written *beta*.") + entry("beta"), "claimed by"),
    ],
)
def test_refused(page, message):
    with pytest.raises(PluginError, match=message):
        glossary.abbreviations(glossary.entries(page))


def test_first_use_outside_headings_and_links_becomes_a_link(monkeypatch):
    monkeypatch.setattr(glossary, "FORM_IDS", {"wrap": "wraparound", "wraparound": "wraparound",
                                               "NaN": "nan"})  # fmt: skip
    mark = '<abbr title="{0} means it">{0}</abbr>'.format
    page = (
        f"<h2>Why {mark('NaN')}</h2><p>A {mark('NaN')} and a {mark('NaN')}.</p>"
        f'<p><a href="x.html">see {mark("wrap")}</a>, then {mark("wraparound")} and '
        f"{mark('wrap')}; <code>{mark('wrap')}</code></p>"
    )
    linked = glossary.link_first_uses(page, "../back/f-glossary.html")
    assert "<abbr" not in linked
    assert linked.count('class="glossary-term"') == 2  # one NaN, one wraparound
    assert "<h2>Why NaN</h2>" in linked  # never in a heading
    assert '<a href="x.html">see wrap</a>' in linked  # never inside a link
    assert (
        '<p>A <a class="glossary-term" href="../back/f-glossary.html#nan" '
        'title="NaN means it">NaN</a> and a NaN.</p>'
    ) in linked
    assert (
        'href="../back/f-glossary.html#wraparound" title="wraparound means it">wraparound</a>'
        in linked
    )
