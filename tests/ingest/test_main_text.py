"""Web pages read by their main text (trafilatura), or whole (ExtractOptions(html="all"))."""

import pytest
from site_pages import ARTICLE_HARBOUR, ARTICLE_LIBRARY, page_site_a, page_site_b

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.normalize import normalize
from ndd_desktop.ingest import ExtractOptions, extract_bytes
from ndd_desktop.ingest.formats import html

MAIN, ALL = ExtractOptions(), ExtractOptions(html="all")
QGRAM = get_method("qgram")


def text_of(page: str, options: ExtractOptions = MAIN, name: str = "page.html") -> str:
    [doc] = extract_bytes(page.encode("utf-8"), name, options=options)
    assert doc.status == "ok", doc.reason
    return doc.text


def qgram_score(a: str, b: str) -> float:
    params = QGRAM.params()
    return QGRAM.score(QGRAM.sketch(normalize(a), params), QGRAM.sketch(normalize(b), params), params)


def test_two_articles_of_one_site_are_not_near_duplicates():
    harbour, library = page_site_a(*ARTICLE_HARBOUR), page_site_a(*ARTICLE_LIBRARY)
    # read whole, the site's menus, sidebar and footer make them look alike
    assert qgram_score(text_of(harbour, ALL), text_of(library, ALL)) >= QGRAM.default_threshold
    assert qgram_score(text_of(harbour), text_of(library)) < QGRAM.default_threshold
    harbour, library = page_site_b(*ARTICLE_HARBOUR), page_site_b(*ARTICLE_LIBRARY)
    assert qgram_score(text_of(harbour), text_of(library)) < QGRAM.default_threshold


def test_one_article_saved_from_two_sites_is_a_near_duplicate():
    for article in (ARTICLE_HARBOUR, ARTICLE_LIBRARY):
        on_a, on_b = page_site_a(*article), page_site_b(*article)
        assert qgram_score(text_of(on_a, ALL), text_of(on_b, ALL)) < QGRAM.default_threshold
        assert qgram_score(text_of(on_a), text_of(on_b)) >= QGRAM.default_threshold


def test_main_text_is_the_article_with_its_headline():
    title, paragraphs = ARTICLE_HARBOUR
    for page in (page_site_a(title, paragraphs), page_site_b(title, paragraphs)):
        text = text_of(page)
        assert text.split("\n")[0] == title
        for paragraph in paragraphs:
            assert paragraph in text
        for boilerplate in ("Subscribe from one pound", "Most read this week", "Ferry timetable", "cookies",
                            "Registered in England", "Dates for your diary", "Meetings and minutes",
                            "Website maintained by volunteers", "window.dataLayer"):
            assert boilerplate not in text


def test_all_keeps_every_visible_word():
    text = text_of(page_site_a(*ARTICLE_HARBOUR), ALL)
    for kept in ("Subscribe from one pound a week", "Most read this week", "Registered in England", ARTICLE_HARBOUR[0]):
        assert kept in text
    assert "window.dataLayer" not in text


@pytest.mark.parametrize(
    "page, expected",
    [
        ("<p>third</p>", "third"),  # a fragment
        ("just some words", "just some words"),
        ("<html><body><ul><li><a href='/a'>Minutes 1901</a></li><li><a href='/b'>Minutes 1902</a></li>"
         "</ul></body></html>", "Minutes 1901\nMinutes 1902"),  # an index page: its links are its content
    ],
)
def test_a_page_without_main_content_keeps_its_whole_text(page, expected):
    assert text_of(page) == expected


def test_a_page_trafilatura_cannot_read_keeps_its_whole_text(monkeypatch):
    class Broken:
        @staticmethod
        def load_html(markup):
            raise RuntimeError("library bug")

    monkeypatch.setattr(html, "_trafilatura", lambda: Broken)
    assert text_of(page_site_a(*ARTICLE_HARBOUR)) == text_of(page_site_a(*ARTICLE_HARBOUR), ALL)


def test_a_large_page_is_read_whole_and_says_so(monkeypatch):
    page = page_site_a(*ARTICLE_HARBOUR)
    assert len(page) < html.MAIN_TEXT_MAX_CHARS and text_of(page) != text_of(page, ALL)
    monkeypatch.setattr(html, "MAIN_TEXT_MAX_CHARS", len(page) - 1)  # a page of 2 MB is slow to read twice
    [doc] = extract_bytes(page.encode(), "big.html")
    assert doc.text == text_of(page, ALL)
    assert doc.reason.startswith("whole page read: larger than") and doc.reason.endswith("for main-text detection")


def test_a_deeply_nested_page_is_read_whole_and_says_so():
    deep = "<html><body>" + "<div>" * (html.MAIN_TEXT_MAX_DEPTH + 10) + "".join(
        f"<p>{p}</p>" for p in ARTICLE_HARBOUR[1]) + "</div>" * (html.MAIN_TEXT_MAX_DEPTH + 10) + "</body></html>"
    [doc] = extract_bytes(deep.encode(), "deep.html")
    assert doc.status == "ok"
    assert doc.reason == f"whole page read: nested deeper than {html.MAIN_TEXT_MAX_DEPTH} for main-text detection"
    assert doc.text == "\n".join(ARTICLE_HARBOUR[1])


def test_a_page_of_too_many_elements_is_read_whole_and_says_so(monkeypatch):
    assert html.MAIN_TEXT_MAX_ELEMENTS == 30_000
    monkeypatch.setattr(html, "MAIN_TEXT_MAX_ELEMENTS", 300)  # 30,000 elements: slow to read twice
    rows = "".join(f"<tr><td>{k}</td><td>entry {k}</td></tr>" for k in range(101))
    page = f"<html><body><h1>Register</h1><table>{rows}</table></body></html>"
    [doc] = extract_bytes(page.encode(), "register.html")
    assert doc.reason == "whole page read: more than 300 elements for main-text detection"
    assert doc.text == text_of(page, ALL)


def test_a_declared_encoding_is_honoured_in_main_text():
    title, paragraphs = ARTICLE_LIBRARY
    page = page_site_b(title + " à la café", paragraphs).replace("<head>", '<head><meta charset="iso-8859-1">')
    [doc] = extract_bytes(page.encode("iso-8859-1"), "latin.html")
    assert doc.text.split("\n")[0] == title + " à la café"


def test_an_unknown_reading_is_refused():
    with pytest.raises(ValueError, match="html: 'some' is not one of main, all"):
        ExtractOptions(html="some")
