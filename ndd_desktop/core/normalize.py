"""Shared text normalisation and tokenisation.

Every method sketches ``normalize(text)``: Unicode NFKC, case folding, runs of white
space collapsed to one space. Tokenisation splits on anything that is not a letter, a
digit or a combining mark; scripts written without spaces (CJK, Thai, ...) fall back to
single characters, each with the combining marks that follow it, so that word shingles still
work (a shingle of w characters is a character w-gram there).

Combining marks (Unicode categories Mn, Mc, Me: the vowel signs and viramas of Devanagari,
Bengali, Tamil, the vowel and tone marks of Thai, accents NFKC cannot compose) are part of
the letter before them. Python's ``\\w`` does not match them, so the character classes are
built here from the Unicode database; ``core.hashing`` uses the same table.

Soft hyphens (U+00AD, HTML's ``&shy;``: invisible break points that web pages and word
processors put inside long words) are removed: NFKC keeps them, and the tokenizer split
"Rat\u00adhaus" into two words, so a web page with them and the same text without shared a
tenth of its words. The accents of the Latin, Greek and Cyrillic alphabets, Hebrew points
and Arabic vowel marks are removed too (:data:`FOLDED_MARKS`): copies differ by them (a
text typed without accents, a vocalised and a plain edition) and shared nothing where a
word with a mark met the same word without. The vowel signs of the Indic and South-East
Asian scripts stay: they tell words apart there ("किताब", "कुतुब"). Letters that copies
write in two ways without a mark between them (:data:`LETTER_FOLDS`: Turkish dotless i,
the stroked l, o and d, Persian and Arabic yeh and kaf, the tatweel, zero-width characters)
are folded to one, and a word broken by a hyphen at the end of a line is joined again.
:data:`NORMALIZATION` names this version of the rules; the methods' sketch keys carry it,
so a change sketches every document again.

What is not the text can be left out before sketching (``ignore``, the scan's ``--ignore``):
links, e-mail addresses and numbers. Two tweets that differ only by their shortened links,
or two form letters that differ only by their amounts and dates, then compare by their words;
the stored text is never changed, only what is sketched.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from typing import Sequence

#: The version of these rules (1: NFKC, case folding, white space; 2: soft hyphens, and
#: the marks of :data:`FOLDED_MARKS`, removed; 3: :data:`LETTER_FOLDS`, and a word broken
#: at the end of a line joined).
NORMALIZATION = 3
#: The soft hyphen, removed from every text before it is sketched or compared.
SOFT_HYPHEN = "\u00ad"
#: Where the combining marks removed after a canonical decomposition lie: the accents of
#: Latin, Greek and Cyrillic (U+0300-U+036F), Hebrew points and cantillation (U+0591-U+05C7),
#: Arabic vowel marks and Quranic signs (U+0610-U+061A, U+064B-U+065F, U+0670,
#: U+06D6-U+06ED); only the nonspacing marks (category Mn) of these ranges.
FOLDED_RANGES = ((0x0300, 0x036F), (0x0591, 0x05C7), (0x0610, 0x061A), (0x064B, 0x065F), (0x0670, 0x0670),
                 (0x06D6, 0x06ED))
#: What else copies write in two ways, folded to one (after case folding):
#: letters that no decomposition relates to the letter a text typed without them has
#: (Turkish dotless i, Polish l, Danish and Norwegian o, Croatian and Vietnamese d, Maltese
#: h with a stroke; the ligatures ae and oe; Icelandic eth and thorn), the Arabic letters
#: that Persian and Arabic keyboards give in two forms (Persian yeh and keheh, alef
#: maksura, teh marbuta), the Arabic tatweel (a stretch of a justified line), and the
#: invisible characters inside words (zero-width space and joiner, word joiner, a byte-order
#: mark within a text). A Persian text typed with the Arabic yeh and kaf shared a fifth of
#: its words with itself; a Turkish text in capitals, likewise.
LETTER_FOLDS = {
    "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t",
    "æ": "ae", "œ": "oe", "ð": "d", "þ": "th",
    "ی": "ي", "ى": "ي", "ک": "ك", "ة": "ه", "ـ": "",
    "​": "", "‍": "", "⁠": "", "﻿": "",
}
FOLDED_MARKS = re.compile("[" + "".join(chr(c) for lo, hi in FOLDED_RANGES for c in range(lo, hi + 1)
                                        if unicodedata.category(chr(c)) == "Mn") + "]+")

# Scripts written without spaces between words: Han, Hiragana, Katakana, Hangul syllables
# are spaced in modern Korean but mixed text is common, so they are split too; Thai, Lao,
# Khmer and Myanmar have no spaces. Inclusive code point ranges.
NOSPACE_RANGES = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),  # CJK ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
)
#: A character of a script written without spaces.
NOSPACE_CHAR = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in NOSPACE_RANGES) + "]")


@functools.cache
def combining_mark_ranges() -> tuple[tuple[int, int], ...]:
    """Inclusive code point ranges of the combining marks (categories Mn, Mc, Me).

    Built once from the Unicode database. Only planes 0, 1 and 14 are asked: planes 2 and
    3 hold CJK ideographs, 15 and 16 private use, the rest nothing, and no mark at all (a
    fifth of the time of asking all 1.1 million code points, which every process of a scan
    paid at its start).
    """
    ranges: list[tuple[int, int]] = []
    category = unicodedata.category
    for lo, hi in ((0, 0x20000), (0xE0000, 0xF0000)):
        for c in range(lo, min(hi, sys.maxunicode + 1)):
            if category(chr(c))[0] == "M":
                if ranges and ranges[-1][1] == c - 1:
                    ranges[-1] = (ranges[-1][0], c)
                else:
                    ranges.append((c, c))
    return tuple(ranges)


@functools.cache
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    """(a run of word characters, a run of non-word characters): word characters are
    ``\\w`` (letters, digits, "_") and combining marks."""
    marks = "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in combining_mark_ranges())
    return re.compile(rf"[\w{marks}]+"), re.compile(rf"[^\w{marks}]+")


# ASCII text holds no combining mark and no character of a script without spaces: the
# plain classes give the same result there, several times faster than the mark-aware ones.
_ASCII_WORD = re.compile(r"\w+")
_ASCII_STRIP = re.compile(r"[\W_]+")


def is_mark(ch: str) -> bool:
    """Whether a character is a combining mark (Unicode category M*)."""
    return unicodedata.category(ch)[0] == "M"


#: What ``normalize`` can leave out of a text, in the order it is removed (a link holds
#: digits and may hold an "@", so links go first).
IGNORABLE = ("urls", "emails", "numbers")

# The last character of a link is not punctuation that ends the sentence around it.
_LINK_END = r"[^\s<>\"'.,;:!?)\]}]"
_LINK_BODY = r"[^\s<>\"']*"
# The bare domain and the e-mail address start only where a run of their characters starts
# (the look-behinds) and never give back what they matched (possessive ``++``): a text of
# "a.a.a.a..." or "a-b.c-d..." is then read once, not once per starting point (40 KB of
# "a." took 37 s with backtracking patterns).
_IGNORE_PATTERNS = {
    # a scheme (http, https, ftp) or "www." starts a link; a bare domain counts when a path
    # follows it ("bit.ly/abc", "example.org/page"), so "Node.js" or "e.g." never do
    "urls": re.compile(
        rf"(?:\b(?:https?|ftp)://|\bwww\d{{0,3}}\.){_LINK_BODY}{_LINK_END}"
        rf"|\b(?<![\w.@/-])(?:[a-z0-9-]{{1,63}}+\.)++[a-z]{{2,24}}+/(?:{_LINK_BODY}{_LINK_END})?",
        re.IGNORECASE,
    ),
    "emails": re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++", re.IGNORECASE),
    # a run of digits, with decimal and thousands separators inside it ("1,234.50", "3.14")
    "numbers": re.compile(r"\d+(?:[.,]\d+)*"),
}


def ignore_items(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """The items of an ``ignore`` value ("urls,numbers", or a list), checked, without
    repeats, in the order of :data:`IGNORABLE`; () for none.

    Raises:
        ValueError: an item that is not one of :data:`IGNORABLE`, naming the valid ones.
    """
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    wanted = {str(item).strip().lower() for item in items} - {""}
    unknown = sorted(wanted - set(IGNORABLE))
    if unknown:
        raise ValueError(f"cannot ignore {unknown[0]!r} (choose from {', '.join(IGNORABLE)})")
    return tuple(item for item in IGNORABLE if item in wanted)


def remove_ignored(text: str, ignore: str | Sequence[str] | None) -> str:
    """``text`` with the links, e-mail addresses and/or numbers named in ``ignore`` replaced
    by a space each (so the words around them stay apart)."""
    for item in ignore_items(ignore):
        text = _IGNORE_PATTERNS[item].sub(" ", text)
    return text


def normalize(text: str, ignore: str | Sequence[str] | None = None) -> str:
    """NFKC, case-folded, soft hyphens and the accents of :data:`FOLDED_MARKS` removed, the
    ``ignore`` items removed (see :func:`remove_ignored`), white space collapsed and
    trimmed."""
    if text.isascii():
        raw = ascii_folded(text)
        if ignore:
            raw = remove_ignored(raw.decode("ascii"), ignore).encode("ascii")
        return _collapse_spaces(raw).decode("ascii")
    text = unicodedata.normalize("NFKC", text)
    if not ignore:
        raw = _folded_beyond_ascii(text)
        if raw is not None:
            return _collapse_spaces(raw).decode("utf-8", "surrogatepass")
    text = fold_marks(join_broken_words(text).casefold())
    if ignore:
        text = remove_ignored(text, ignore)
    if any(ch in text for ch in _WIDE_SPACES):
        # str.split() splits where the regular expression \s+ matches (both ask
        # Py_UNICODE_ISSPACE), in one pass instead of one substitution per space
        return " ".join(text.split())
    # the only white space left is ASCII (a byte of it never occurs inside the UTF-8 of
    # another character), and casefold left no capital letter for the table to change
    raw = text.encode("utf-8", "surrogatepass").translate(_ASCII_FOLD)
    return _collapse_spaces(raw).decode("utf-8", "surrogatepass")


#: The bytes of ASCII characters (what a text's UTF-8 keeps of its other characters without them).
_ASCII_BYTES = bytes(range(128))


def chars_beyond_ascii(raw: bytes) -> str:
    """The characters beyond ASCII of a text given as its UTF-8 (``surrogatepass``), in
    order: its bytes without the ASCII ones, none of which is part of another character's
    encoding. Most texts beyond ASCII hold a few of them, which a pass can then look at
    instead of the whole text."""
    return raw.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")


def _folded_beyond_ascii(text: str) -> bytes | None:
    """The UTF-8 of an NFKC text case-folded, its marks folded, its broken words joined and
    its white space made spaces (runs kept), as :func:`normalize` makes it; None for a text
    with white space beyond ASCII (normalize's other path).

    Case folding and :func:`fold_marks` map each character by itself, and leave ASCII
    ASCII, so they are asked of the text's other characters alone (taken from its UTF-8,
    in which no byte of theirs is an ASCII byte): most texts beyond ASCII hold a few
    signs or accents in ASCII words, and neither pass over the whole text is needed (each
    took 15-17 us of a 58 us text of 4 KB); the table lowers the ASCII letters."""
    raw = text.encode("utf-8", "surrogatepass")
    if _LINE_END_HYPHEN_ASCII.search(raw) or b"\xe2\x80\x90" in raw:  # "-\n" or "\u2010": perhaps a broken word
        text = join_broken_words(text)
        raw = text.encode("utf-8", "surrogatepass")
    beyond = chars_beyond_ascii(raw)
    if any(ch in beyond for ch in _WIDE_SPACES):
        return None
    if beyond.casefold() != beyond:
        text = text.casefold()
        beyond = beyond.casefold()
        raw = None
    pattern, _ = _folding()
    if pattern.search(beyond):
        text = fold_marks(text)
        raw = None
    if raw is None:
        raw = text.encode("utf-8", "surrogatepass")
    return raw.translate(_ASCII_FOLD)


def ascii_folded(text: str) -> bytes:
    """An ASCII text as :func:`normalize` makes it (without ``ignore``), but for its white
    space: every white space character is a space, runs of them are kept. Its words are
    those of ``normalize(text)``, which is what a sketch of words reads (the runs cost a
    third of normalising a text, and a decoding and encoding more)."""
    # NFKC leaves ASCII as it is and case folding is lower(): in the bytes, one translate
    # lowers the letters and makes every white space character a space
    raw = text.encode("ascii")
    if _LINE_END_HYPHEN_ASCII.search(raw):  # (a regular expression: a third of two `in` tests)
        raw = _BROKEN_ASCII.sub(rb"\1", raw)
    return raw.translate(_ASCII_FOLD)


# A word broken at the end of a line by a hyphen ("docu-\nment", as typeset text and the
# text of a PDF keep it): the hyphen and the line break go where a small letter goes on (a
# capital or a digit after the break is a compound or a range: "Anglo-\nSaxon", "1990-\n1995").
_BROKEN = re.compile(r"(?<=\w)[-\u2010]\r?\n[ \t]*(\w)")
_BROKEN_ASCII = re.compile(rb"(?<=[0-9A-Za-z_])-\r?\n[ \t]*([a-z])")
# what ASCII bytes must hold for it to change them (searched first: a pattern that starts
# with a look-behind is tried at every position, one that starts with a character is not)
_LINE_END_HYPHEN_ASCII = re.compile(rb"-\r?\n")


def join_broken_words(text: str) -> str:
    """``text`` with the words broken at a line's end by a hyphen joined (see ``_BROKEN``);
    the text itself where it has none."""
    # (str searches: on a text of 4-byte characters, one emoji in it, the regular expression
    # took 16 us and these 7; on ASCII bytes it is the other way round, see normalize)
    if "-\n" not in text and "-\r\n" not in text and "\u2010" not in text:
        return text
    return _BROKEN.sub(lambda m: m.group(1) if m.group(1).islower() else m.group(0), text)


#: Where the precomposed letters whose decomposition holds such a mark lie (Latin, Greek,
#: Cyrillic, Hebrew presentation forms); the marks themselves are folded wherever they are.
_PRECOMPOSED_RANGES = ((0x00C0, 0x024F), (0x0370, 0x04FF), (0x0600, 0x06FF), (0x1E00, 0x1FFF), (0xFB1D, 0xFB4F))


@functools.cache
def _folding() -> tuple[re.Pattern, dict[str, str]]:
    """The characters :func:`fold_marks` changes, as a pattern, and what each becomes (built
    on first use: a process that meets no such text never builds it)."""
    table: dict[str, str] = {SOFT_HYPHEN: "", **LETTER_FOLDS}
    for lo, hi in (*_PRECOMPOSED_RANGES, *FOLDED_RANGES):
        for c in range(lo, hi + 1):
            ch = chr(c)
            decomposed = unicodedata.normalize("NFD", ch)
            folded = unicodedata.normalize("NFC", FOLDED_MARKS.sub("", decomposed))
            if folded != ch:
                table[ch] = folded
    return re.compile("[" + "".join(re.escape(ch) for ch in sorted(table)) + "]"), table


def fold_marks(text: str) -> str:
    """``text`` (NFKC) without soft hyphens and the marks of :data:`FOLDED_MARKS`: a
    precomposed letter becomes its letter without them, a lone mark or soft hyphen goes (one
    lookup per changed character, not a decomposition of the whole text)."""
    pattern, table = _folding()
    if not pattern.search(text):
        return text
    return pattern.sub(lambda m: table[m.group()], text)


# The ASCII characters str.split() splits at (str.isspace: also \x1c-\x1f), each to a
# space, and the capital letters to small ones (what casefold does to ASCII).
_WHITE = bytes(c for c in range(128) if chr(c).isspace())
_ASCII_FOLD = bytes.maketrans(_WHITE + b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                              b" " * len(_WHITE) + b"abcdefghijklmnopqrstuvwxyz")


# The white space characters beyond ASCII that NFKC and case folding keep (the others,
# such as no-break and ideographic spaces, become a plain space).
_WIDE_SPACES = ("\x85", "\u1680", "\u2028", "\u2029")


def _collapse_spaces(raw: bytes) -> bytes:
    """Runs of spaces as one, none at either end: what " ".join(text.split()) gives once
    every white space character is a space, without a string object per word. Most texts
    hold no double space, and a search for one is a memory scan; each replacement halves
    every run, so a run of n spaces takes log2(n) passes (a regular expression's
    substitution scanned the text at a third of the speed)."""
    while b"  " in raw:
        raw = raw.replace(b"  ", b" ")
    return raw.strip(b" ")


# The characters strip_to_letters removes from a text of code points below 256 (no
# combining mark lives there), as a bytes.translate table: one pass in C instead of one
# regular-expression substitution per word (a tenth of the time).
_LATIN1_DROP = bytes(c for c in range(256) if _ASCII_STRIP.fullmatch(chr(c)))


def strip_to_letters(text: str) -> str:
    """The text with white space and punctuation removed (the q-gram paper's Tw): letters,
    digits and combining marks remain."""
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        return _patterns()[1].sub("", text.replace("_", " "))
    return raw.translate(None, _LATIN1_DROP).decode("latin-1")


def tokens(text: str) -> list[str]:
    """Words of a normalised text; characters of scripts written without spaces.

    A character of such a script, or the character after one, starts a new token unless it
    is a combining mark: a mark stays with the character it modifies.
    """
    if text.isascii():
        return _ASCII_WORD.findall(text)
    out: list[str] = []
    for word in _patterns()[0].findall(text):
        if not NOSPACE_CHAR.search(word):
            out.append(word)
            continue
        start = 0
        for k in range(1, len(word)):
            if (NOSPACE_CHAR.match(word[k]) or NOSPACE_CHAR.match(word[k - 1])) and not is_mark(word[k]):
                out.append(word[start:k])
                start = k
        out.append(word[start:])
    return out
