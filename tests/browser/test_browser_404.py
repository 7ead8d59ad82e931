"""The 404 page (docs/hooks/site404.py): styled from file:// and at any depth over http, search
works there, its link home works, and no request fails nor the console shows an error."""

import re
from pathlib import Path

import pytest

from .reader import finds, styled

# 404.html opened from disk, and missing pages one and three folders deep, as a host serves them
PLACES = {"file": None, "one-deep": "part1/no-such-page/", "three-deep": "a/b/c/missing.html"}


def url_404(site, place: str) -> str:
    return site.url("404.html", "file") if PLACES[place] is None else site.url(PLACES[place])


def test_404_links_nothing_from_the_server_s_root(site):
    text = (site.path / "404.html").read_text(encoding="utf-8")
    assert not re.findall(r'(?:href|src)="/(?!/)[^"]*"', text)


@pytest.mark.parametrize("place", PLACES)
def test_404_is_styled(tab, site, place):
    assert styled(tab.visit(url_404(site, place)).page)


@pytest.mark.parametrize("place", PLACES)
def test_404_search_works_with_no_failed_request_or_error(tab, site, step, step_term, place):
    assert finds(tab.visit(url_404(site, place)).page, step_term, Path(step).name)
    assert not tab.noise


def test_404_links_home_from_a_missing_page(tab, site):
    page = tab.visit(site.url(PLACES["one-deep"])).page
    page.click("article a[href='index.html']")
    assert page.url.rstrip("/").endswith(("index.html", site.base.rstrip("/")))
