"""HTML and XHTML: the main text of a page (default), or all its visible text.

A page saved from a site carries the site's menus, header, sidebars and footer. They are
the same on every page of the site, so two different articles of one site look alike and
one article saved from two sites does not. By default (``ExtractOptions.html == "main"``)
a page is read by its main content, which trafilatura finds (link density, the page's
structure, known boilerplate), as lines of text (a table row is one line, its cells
between "|"). A page with nothing of a site's furniture on it (a report or letter saved as
HTML: no navigation, header, sidebar, footer, form, table, no class names of such parts,
no blocks of links; see ``document_text``) is all main text, and is read whole without
trafilatura, which costs ten times as much and drops such a page's lists and subheadings.
A page keeps all its visible text when trafilatura finds no main content
(a short page, a fragment) or fails, and when it is too big for main-text detection to
finish well within the pool's time limit per file: larger than ``MAIN_TEXT_MAX_CHARS``
(trafilatura's time grows faster than the page: about 1 s at 1 MB, 2.5 s at 2 MB, 12 s at
4 MB), made of more than ``MAIN_TEXT_MAX_ELEMENTS`` elements (25,000 took 2 to 7 s,
depending on their nesting, on a busy 2-core machine), or nested deeper than
``MAIN_TEXT_MAX_DEPTH`` (lxml keeps at most 256 levels; a deeper page would lose text).
Those cases are noted on the document. With ``html == "all"`` every page is read whole.

The whole-page reader (the DDD paper's tag removal): lxml's HTML parser (libxml2, which
neither loads DTDs nor fetches anything) feeding a parser target that keeps the visible
text as the tags go by, so no tree is built (about ten times faster than the
BeautifulSoup tree it replaced, with no limit on nesting depth). ``script``, ``style``,
``noscript``, ``template`` and the ``head`` (title, meta) are dropped with comments and
processing instructions; white space collapses as a browser collapses it (except in
``pre``); block elements and ``br`` become line breaks. A declared encoding is decoded
with BeautifulSoup's ``UnicodeDammit``.
"""

from __future__ import annotations

import logging
import re

from bs4 import UnicodeDammit
from bs4.dammit import EncodingDetector
from lxml import etree

from ndd_desktop.ingest.formats.base import Context, Extraction
from ndd_desktop.ingest.formats.txt import decode_text
from ndd_desktop.ingest.limits import MB, mb

#: Pages with more characters of markup than this are read whole (see the module docstring).
MAIN_TEXT_MAX_CHARS = 2 * MB
#: Pages of more elements than this are read whole (see the module docstring).
MAIN_TEXT_MAX_ELEMENTS = 30_000
#: Pages nested deeper than this are read whole (lxml's tree stops at 256 levels).
MAIN_TEXT_MAX_DEPTH = 200
#: A heading longer than this is not a headline (see ``_headline``).
_HEADLINE_MAX_CHARS = 300

DROP = ("script", "style", "noscript", "template", "head", "object", "embed", "svg", "math")
_DROP = frozenset(DROP)
BLOCK = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frame h1 h2 h3 h4 h5 h6 header hr html iframe "
    "legend li main menu nav ol p pre section summary table tbody td tfoot th thead tr ul".split()
)
_WS = re.compile(r"[ \t\n\r\f\v]+")


_INTERNAL_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[.*?\]\s*>", re.I | re.S)


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text of an HTML or XHTML document (bytes; the encoding is detected): its main text
    or all its visible text, as ``ctx.options.html`` says.

    A declared encoding (BOM, ``<meta charset>``, XML declaration) is honoured; without
    one the bytes are decoded like plain text (UTF-8 first, then charset-normalizer).
    """
    head = data[:1 << 20]
    cut = _INTERNAL_SUBSET.search(head)
    if cut:  # an internal DTD subset is never rendered; the HTML parser would show it
        data = data[: cut.start()] + data[cut.end():]
    declared = EncodingDetector.find_declared_encoding(data[:65536], is_html=True)
    if declared or data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        markup: bytes | str = data
        notes: list[str] = []
    else:
        markup, notes = decode_text(data, ctx)
    if ctx.options.html == "main":
        text, why_whole = read_main(markup)
        return Extraction(text=text, notes=notes + ([why_whole] if why_whole else []))
    return Extraction(text=html_to_text(markup), notes=notes)


def read_main(markup: bytes | str) -> tuple[str, str]:
    """(text, note): the main text of a page, or its whole visible text when there is no
    main content or it cannot be looked for; the note says why in the second case (empty
    when the page simply has no main content, which is common for short pages)."""
    if isinstance(markup, bytes):  # a declared encoding or a BOM: honour it
        markup = UnicodeDammit(markup, is_html=True).unicode_markup or ""
    if len(markup) > MAIN_TEXT_MAX_CHARS:
        return html_to_text(markup), f"whole page read: larger than {mb(MAIN_TEXT_MAX_CHARS)} for main-text detection"
    text = document_text(markup)
    if text is not None:  # no site furniture around the text: all of it is the main text
        return text, ""
    try:
        text = main_text(markup)
    except TooBigForMainText as exc:
        return html_to_text(markup), f"whole page read: {exc} for main-text detection"
    except (Exception, RecursionError):  # a page trafilatura cannot handle still has its text
        text = None
    return (text, "") if text else (html_to_text(markup), "")


def document_text(markup: str) -> str | None:
    """The visible text of a page that is a document rather than a page of a site, or None
    when it is not known to be one.

    A document (a report, letter or manual saved as HTML, an export of a word processor or
    of a mail program) has no menus, header, sidebar or footer to leave out, so its main
    text is its whole visible text, which the whole-page reader gives at a tenth of
    trafilatura's cost. A page counts as a document only when nothing on it looks like a
    site's furniture: no ``FURNITURE`` element (``nav``, ``header``, ``footer``, ``aside``,
    ``form``, frames, ...), no ``class``, ``id`` or ``role`` naming furniture
    (``_FURNITURE_NAMES``: navigation, menus, sidebars, sharing, comments, cookies,
    advertisements, ...), no hidden element, no block element (paragraph, list item,
    division, heading) that is mostly links (a menu, a list or line of links), and at most
    ``DOCUMENT_MAX_LINK_SHARE`` of its text inside links. Pages with tables go to
    trafilatura as well, which writes a table row as one line. So do pages too big for
    main-text detection (``MAIN_TEXT_MAX_ELEMENTS``, ``MAIN_TEXT_MAX_DEPTH``), which
    ``read_main`` reads whole with a note.

    On such a page trafilatura gives the same lines, or fewer: when it finds no article
    container it recovers paragraphs but drops the list items, subheadings (``h2`` to
    ``h6``), definition lists and captions of the document, which this reading keeps.
    """
    if _FURNITURE_TAG.search(markup):  # most sites' pages: no need to parse them to know
        return None
    collector = _VisibleText(judge=True)
    parser = etree.HTMLParser(target=collector, no_network=True, remove_comments=True, remove_pis=True)
    markup = _XML_DECLARATION.sub("", markup, count=1)  # lxml refuses one in a decoded string
    try:
        # a small first piece: a site's page shows its furniture early, and the parser goes on
        # to the end of the piece it was fed after the target gave up
        parser.feed(markup[:_FIRST_FEED_CHARS])
        for start in range(_FIRST_FEED_CHARS, len(markup), _FEED_CHARS):
            parser.feed(markup[start:start + _FEED_CHARS])
        parser.close()
    except _NotADocument:
        return None
    except etree.LxmlError:  # nothing parseable: the usual path decides
        return None
    if collector.link_chars > DOCUMENT_MAX_LINK_SHARE * collector.chars:
        return None
    return _tidy("".join(collector.out))


class TooBigForMainText(Exception):
    """The page has too many elements or is nested too deep for main-text detection (the
    message says which)."""


def main_text(markup: str) -> str | None:
    """The main content of a page as lines of text, or None when trafilatura finds none.

    Raises:
        TooBigForMainText: more than ``MAIN_TEXT_MAX_ELEMENTS`` elements, or nested deeper
            than ``MAIN_TEXT_MAX_DEPTH``.
    """
    trafilatura = _trafilatura()
    # an XML declaration naming an encoding is refused by lxml for a decoded string
    tree = trafilatura.load_html(_XML_DECLARATION.sub("", markup, count=1))
    if tree is None:
        return None
    elements, depth = _shape(tree)
    if depth > MAIN_TEXT_MAX_DEPTH:
        raise TooBigForMainText(f"nested deeper than {MAIN_TEXT_MAX_DEPTH}")
    if elements > MAIN_TEXT_MAX_ELEMENTS:
        raise TooBigForMainText(f"more than {MAIN_TEXT_MAX_ELEMENTS:,} elements")
    headline = _headline(tree)
    # what the whole-page reader never shows is no part of the main text either
    etree.strip_elements(tree, *DROP, with_tail=False)
    main = trafilatura.extract(
        tree, output_format="txt", include_comments=False, include_tables=True, include_images=False,
        include_links=False, include_formatting=False, deduplicate=False, with_metadata=False,
    )
    text = _tidy(main) if main else ""
    if not text:
        return None
    # trafilatura sometimes leaves the page's one <h1> out (when no article element holds
    # it); the headline is part of the article and tells two articles of one site apart
    if headline and headline not in text:
        text = f"{headline}\n{text}"
    return text


_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def _trafilatura():
    """trafilatura, imported on first use (a quarter of a second), its log kept quiet: a
    page it cannot read is read whole, which needs no message on the terminal."""
    import trafilatura

    logging.getLogger("trafilatura").setLevel(logging.CRITICAL + 1)
    return trafilatura


def _shape(tree) -> tuple[int, int]:
    """(elements, depth) of an element tree, in one pass without recursion."""
    elements = depth = deepest = 0
    for event, _ in etree.iterwalk(tree, events=("start", "end")):
        if event == "start":
            elements += 1
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return elements, deepest


def _headline(tree) -> str:
    """The text of the page's only ``h1`` ("" when it has none or several, or a long one)."""
    found = tree.xpath("//h1")
    if len(found) != 1:
        return ""
    text = _WS.sub(" ", found[0].text_content()).strip()
    return text if len(text) <= _HEADLINE_MAX_CHARS else ""


def html_to_text(markup: bytes | str) -> str:
    """Visible text of HTML markup, one line per block element."""
    if isinstance(markup, bytes):  # a declared encoding or a BOM: honour it
        markup = UnicodeDammit(markup, is_html=True).unicode_markup or ""
    collector = _VisibleText()
    # events, not a tree: libxml2 keeps a tree to 256 levels (2,048 with huge_tree) and
    # drops what lies deeper, while a parser target sees every level, in linear time
    parser = etree.HTMLParser(target=collector, no_network=True, remove_comments=True, remove_pis=True)
    markup = _XML_DECLARATION.sub("", markup, count=1)  # lxml refuses one in a decoded string
    try:
        for start in range(0, len(markup), _FEED_CHARS):
            parser.feed(markup[start:start + _FEED_CHARS])
        parser.close()
    except etree.LxmlError:  # nothing parseable (an empty page): the text seen so far stands
        pass
    return _tidy("".join(collector.out))


_FEED_CHARS = 1 << 20
_FIRST_FEED_CHARS = 2048


class _VisibleText:
    """lxml parser target that keeps the text a browser shows: nothing inside ``DROP``
    elements, white space collapsed outside ``pre``, a line break around each block
    element and at each ``br``.

    With ``judge`` (``document_text``) it also raises ``_NotADocument`` at the first sign
    that the page is a site's page, and counts the characters of text and of link text, of
    the page and of each block element (in the same callbacks: a method call per element
    and per text is most of a parser target's cost).
    """

    def __init__(self, judge: bool = False) -> None:
        self.out: list[str] = []
        self.dropped = 0  # depth inside DROP elements
        self.in_pre = 0
        self.judge = judge
        self.elements = self.depth = 0
        self.links: list[bool] = []  # each open ``a``: has it an href (is it a link)?
        self.in_link = self.chars = self.link_chars = 0
        self.blocks: list[list[int]] = []  # [characters, characters in links] of each open block

    def start(self, tag, attrib) -> None:
        if self.judge:
            self.elements += 1
            self.depth += 1
        if self.dropped or tag in _DROP:
            self.dropped += tag in _DROP
            return
        if self.judge:
            if (tag in FURNITURE or self.depth > MAIN_TEXT_MAX_DEPTH or self.elements > MAIN_TEXT_MAX_ELEMENTS
                    or (attrib and _furniture_attributes(attrib))):
                raise _NotADocument
            if tag == "a":
                self.links.append("href" in attrib)
                self.in_link += self.links[-1]
            elif tag in _LINK_BLOCKS:
                self.blocks.append([0, 0])
        if tag == "br":
            self.out.append("\n")
        elif tag in BLOCK:
            self.out.append("\n")
            self.in_pre += tag == "pre"

    def end(self, tag) -> None:
        if self.judge:
            self.depth -= 1
        if self.dropped:
            self.dropped -= tag in _DROP
            return
        if self.judge:
            if tag == "a":
                self.in_link -= self.links.pop() if self.links else 0
            elif tag in _LINK_BLOCKS and self.blocks:
                chars, link_chars = self.blocks.pop()
                if 2 * link_chars > chars:  # a menu, its entries, a list of links, a line of links
                    raise _NotADocument
                if self.blocks:  # what a block holds is part of the block around it
                    self.blocks[-1][0] += chars
                    self.blocks[-1][1] += link_chars
        if tag in BLOCK:
            self.out.append("\n")
            self.in_pre -= tag == "pre"

    def data(self, text: str) -> None:
        if self.dropped:
            return
        if self.judge:
            size = len(text.strip())
            links = size if self.in_link else 0
            self.chars += size
            self.link_chars += links
            if self.blocks:
                self.blocks[-1][0] += size
                self.blocks[-1][1] += links
        self.out.append(text if self.in_pre else collapse_white_space(text))

    def close(self) -> None:
        return None


#: Elements that only a site's pages have (navigation, page furniture, forms, frames), and
#: tables (which trafilatura writes a row to a line): a page with one goes to trafilatura.
FURNITURE = frozenset(
    "nav header footer aside menu menuitem form input button select textarea label iframe frame frameset "
    "dialog table".split()
)
#: The start tag of a ``FURNITURE`` element, anywhere in the markup (in a script or a comment
#: too, which at worst sends a document to trafilatura, as before).
_FURNITURE_TAG = re.compile(r"<(?:" + "|".join(sorted(FURNITURE)) + r")[\s/>]", re.I)
#: Words in a ``class``, ``id`` or ``role`` that name a site's furniture (a page with one goes
#: to trafilatura; a document rarely names its parts so, and then it is read as before).
_FURNITURE_NAMES = re.compile(
    r"nav|menu|head|foot|mast|banner|sidebar|side-bar|aside|widget|share|social|sociable|related|comment"
    r"|respond|reply|cookie|consent|newsletter|subscri|sign-?up|sign-?in|log-?in|account|advert|promo"
    r"|sponsor|teaser|popular|most-?read|trending|crumb|toolbar|topbar|pagination|pager|(?<![a-z])tags?(?![a-z])"
    r"|(?<![a-z])ads?(?![a-z])|byline|author|rating|modal|popup|overlay|paywall|outbrain|taboola|search|logo"
    r"|copyright|legal|sitemap|skip|hidden|complementary|contentinfo",
    re.I,
)
#: A document keeps at most this share of its text inside links (a menu is all links).
DOCUMENT_MAX_LINK_SHARE = 0.2
#: Blocks that may not be mostly links (``html`` and ``body`` have ``DOCUMENT_MAX_LINK_SHARE``).
_LINK_BLOCKS = BLOCK - {"html", "body"}


class _NotADocument(Exception):
    """Raised by a judging ``_VisibleText`` at the first sign of a site's furniture."""


def _furniture_attributes(attrib) -> bool:
    """Whether an element's attributes hide it or name it as a site's furniture."""
    return ("hidden" in attrib or attrib.get("aria-hidden") == "true" or _FURNITURE_NAMES.search(
        f"{attrib.get('class', '')} {attrib.get('id', '')} {attrib.get('role', '')}") is not None)


def collapse_white_space(text: str) -> str:
    """Runs of HTML white space (space, tab, line ends, form feed) as one space, as a browser
    shows text outside ``pre``; other spaces (no-break, em space) are text and stay.

    Most text nodes of a page are either a line of words with single spaces or the line
    breaks between two tags: both are told without the regular expression (two C loops),
    which took a quarter of the whole-page reader's time when called on every node."""
    if text.isprintable():  # no white space but the plain space: only double spaces to fold
        return _WS.sub(" ", text) if "  " in text else text
    if not text.strip(" \t\n\r\f\v"):  # white space only (or nothing)
        return " " if text else text
    return _WS.sub(" ", text)


def _tidy(text: str) -> str:
    """Strip each line, drop empty lines."""
    lines = (line.strip(" ") for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
