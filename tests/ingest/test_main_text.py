"""Web pages read by their main text (trafilatura), or whole (ExtractOptions(html="all"))."""

import pytest
from site_pages import (
    ARTICLE_HARBOUR, ARTICLE_LIBRARY, COMMENTS_C, HARBOUR_TABLE, RECENT_C, REPORT, document_page, page_blog,
    page_council, page_site_a, page_site_b,
)

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


def test_a_document_page_is_read_whole():
    # no site around the text: every line of it is main text, the lists, subheadings,
    # definitions and caption too (trafilatura, finding no article container, dropped the
    # first subheading and the caption of this page)
    expected = [
        "Annual report of the harbour trust",
        "The year in brief",
        "The trust met eleven times during the year and received reports from the harbour master at every meeting. "
        "Income from berthing fees rose for the third year running.",
        "Eleven meetings of the full trust", "Two public consultations on the harbour wall", "One new trustee elected",
        "Works",
        "The eastern wall was breached in February. The trust asked the county council to fund the repairs and "
        "offered the stones it keeps in the yard.",
        "Emergency closure of the damaged berths", "Survey by the county engineers", "Repairs approved in March",
        "Terms used in this report",
        "Apron", "A concrete slab at the foot of a wall that breaks the force of the waves.",
        "Berth", "A place where a boat is moored.",
        "The eastern wall after the storm of the fourteenth of February",
        "The full accounts can be read at the trust's office on weekday mornings, or see the accounts online.",
    ]
    page = document_page(*REPORT)
    assert text_of(page).split("\n") == expected
    assert text_of(page, ALL).split("\n") == expected


@pytest.mark.parametrize("furniture", [
    '<nav><a href="/">Home</a> <a href="/about">About the trust</a></nav>',
    '<header><p>Harbour Trust</p></header>',
    '<footer><p>Registered charity</p></footer>',
    '<aside><p>Dates for your diary: the open day is in June.</p></aside>',
    '<form><input name="q"></form>',
    '<div class="sidebar"><p>Dates for your diary: the open day is in June.</p></div>',
    '<div id="site-footer"><p>Registered charity</p></div>',
    '<div role="navigation"><p>Start</p></div>',
    '<div class="cookie-notice"><p>We use cookies on this site.</p></div>',
    '<ol class="comment-list"><li><p>Great report, thanks.</p></li></ol>',
    '<p hidden>Hidden words</p>',
    '<p><a href="/">Home</a> | <a href="/news">News</a> | <a href="/contact">Contact</a></p>',  # a line of links
    '<ul><li><a href="/minutes">Minutes of the trust</a></li><li><a href="/accounts">Accounts</a></li></ul>',
    '<div><h4>Menu</h4><a href="/a">Home</a><br><a href="/b">Our history</a><br><a href="/c">Trustees</a></div>',
    '<table><tr><td>1901</td><td>12 berths</td></tr></table>',  # trafilatura writes a row as a line
])
def test_a_page_with_site_furniture_goes_to_main_text_detection(furniture):
    page = document_page(*REPORT)
    assert html.document_text(page) is not None
    assert html.document_text(page.replace("<h1>", furniture + "<h1>")) is None


def test_a_page_mostly_of_links_goes_to_main_text_detection():
    links = " ".join(f'<a href="/{k}">see the minutes of meeting number {k}</a>' for k in range(8))
    assert html.document_text(f"<html><body><p>The minutes of the trust, with notes. {links}</p></body></html>") is None


def test_a_blog_post_is_its_article_without_comments_sidebar_or_footer():
    title, paragraphs = ARTICLE_HARBOUR
    assert text_of(page_blog(title, paragraphs)).split("\n") == [title, *paragraphs]
    whole = text_of(page_blog(title, paragraphs), ALL)
    for furniture in ("Quayside Voices", "Posted on", "Share this", "Leave a Reply", COMMENTS_C[0][1], RECENT_C[0],
                      "Proudly powered"):
        assert furniture in whole


def test_a_council_page_keeps_its_table_and_leaves_out_the_furniture():
    title, paragraphs = ARTICLE_HARBOUR
    lines = text_of(page_council(title, paragraphs, HARBOUR_TABLE)).split("\n")
    assert lines[:len(paragraphs) + 1] == [title, *paragraphs]
    assert lines[len(paragraphs) + 1:] == [
        "Timetable of the works", "| Phase | When |", "|---|---|",
        *(f"| {a} | {b} |" for a, b in HARBOUR_TABLE), "Last updated: 14 March"]


def test_articles_of_the_blog_and_council_sites_pair_by_their_text():
    blog = [text_of(page_blog(*article)) for article in (ARTICLE_HARBOUR, ARTICLE_LIBRARY)]
    council = [text_of(page_council(*article, HARBOUR_TABLE)) for article in (ARTICLE_HARBOUR, ARTICLE_LIBRARY)]
    assert qgram_score(blog[0], blog[1]) < QGRAM.default_threshold
    assert qgram_score(council[0], council[1]) < QGRAM.default_threshold
    for k, article in enumerate((ARTICLE_HARBOUR, ARTICLE_LIBRARY)):
        assert qgram_score(blog[k], council[k]) >= QGRAM.default_threshold
        assert qgram_score(blog[k], text_of(page_site_a(*article))) >= QGRAM.default_threshold


def test_white_space_folds_as_a_browser_folds_it_and_other_spaces_stay():
    import random
    import re

    # the definition: runs of HTML white space become one space; written out here
    browser = re.compile(r"[ \t\n\r\f\v]+")
    rng = random.Random(3)
    pieces = ["a", "word", " ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\xa0", "\u2003", "\u3000", "\x1c", "é", ""]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 8)))
        assert html.collapse_white_space(text) == browser.sub(" ", text), repr(text)
    assert html.collapse_white_space("\n\n  ") == " " and html.collapse_white_space("") == ""
    assert html.collapse_white_space("a\xa0\xa0b") == "a\xa0\xa0b"  # no-break spaces are text
    page = "<p>one\n two\t\tthree</p><pre>keep\nthis  as\tis</pre>"
    assert html.html_to_text(page) == "one two three\nkeep\nthis  as\tis"
