"""The references hook (docs/hooks/references.py): every work of docs/references.yml as one
citation, and the build refused on a printed book or paper without its year (a book also without
its publisher), or on an edition or a year that is not a number. The whole site is built with
the hook by test_book_checks.py."""

import importlib.util
import re
from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("references", ROOT / "docs/hooks/references.py")
references = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(references)


def load(tmp_path, **work):
    path = tmp_path / "references.yml"
    path.write_text(yaml.safe_dump({"key": {"short": "S", "title": "T", **work}}), "utf-8")
    return references.load(path)


def test_every_work_of_the_book_loads_and_every_printed_one_is_dated():
    works = references.load()
    printed = [w for w in works.values() if w["kind"] in references.PRINTED]
    assert len(printed) >= 30
    assert all(w.get("year") for w in printed)
    assert all(w.get("venue") for w in printed if w["kind"] == "book")
    online = [key for key, w in works.items() if "read" in w]
    assert {"langref", "clang", "gcc", "pyref", "tg", "z3guide", "hypothesis"} <= set(online)


@pytest.mark.parametrize(
    "work, message",
    [
        ({"kind": "book", "venue": "MIT Press"}, "a printed book needs its year"),
        ({"kind": "book", "year": 2002}, "a printed book needs its venue"),
        ({"kind": "paper", "venue": "POPL"}, "a printed paper needs its year"),
        ({"kind": "book", "venue": "P", "year": 1, "edition": "3rd"}, "edition must be a number"),
        ({"kind": "work", "read": "2026"}, "read must be a number"),
        ({"kind": "work", "publisher": "P"}, "unknown field(s) ['publisher']"),
    ],
)
def test_a_printed_work_without_its_year_or_publisher_stops_the_build(tmp_path, work, message):
    with pytest.raises(PluginError, match=re.escape(message)):
        load(tmp_path, **work)


def test_a_work_that_is_online_only_needs_no_year(tmp_path):
    assert load(tmp_path, kind="work", read=2026)["key"]["read"] == 2026
    assert load(tmp_path, kind="raw")["key"]["kind"] == "raw"


def test_a_book_is_cited_with_its_edition_publisher_and_year():
    book = {"authors": "A and B", "title": "Engineering  a\nCompiler", "kind": "book"}
    book |= {"edition": 3, "venue": "Morgan Kaufmann", "year": 2022}
    book |= {"also": "free online", "url": "https://example.org/book/"}
    assert references.citation(book) == (
        "A and B, *Engineering a Compiler*, 3rd edition, Morgan Kaufmann, 2022, free online, "
        "[example.org/book](https://example.org/book/)"
    )


def test_an_online_work_is_cited_with_the_year_it_was_read():
    work = {"title": "LangRef", "kind": "work", "venue": "the LLVM Project", "read": 2026}
    assert references.citation(work) == "*LangRef*, the LLVM Project, read online in 2026"


@pytest.mark.parametrize(
    "n, text", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                (13, "13th"), (21, "21st"), (22, "22nd"), (111, "111th")],
)  # fmt: skip
def test_ordinal(n, text):
    assert references.ordinal(n) == text
