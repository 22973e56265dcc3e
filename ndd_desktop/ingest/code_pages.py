"""Choosing the 8-bit code page of a Latin-script text by the letters it gives.

A text saved in a Windows code page carries no mark of which one. The Latin-script pages
(cp1252 Western, cp1250 Central European, cp1257 Baltic, cp1254 Turkish) agree on ASCII and
differ only in the bytes of accented letters, so any of them decodes any such text without
an error, and the statistical guess (charset-normalizer) often ties them or picks the wrong
one: Polish read as cp1252 becomes "Protoko³y", Lithuanian "archyvà", Turkish "yýl", and
those copies no longer match their UTF-8 twins.

What tells them apart is that a real text is written in one language, and one language
uses a small set of accented letters. Each candidate page is decoded; its accented letters
(and any other non-ASCII sign joined to a word, like the "³" of "Protoko³y") are counted; the
page whose letters one language's alphabet covers best wins. Ties (a text whose accented
bytes read the same in every page, or none at all) go to the order given, cp1252 first:
archives hold far more Western text than any other.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

#: The Latin-script Windows code pages, most common in archives first.
LATIN_PAGES = ("cp1252", "cp1250", "cp1257", "cp1254")
#: The pages of the office machines before Windows: classic Mac OS (Mac Roman) and DOS
#: (cp850 Western Europe, cp437 United States). Tried after the Windows pages, which win
#: every tie: a text in one of these has its common accented letters in bytes 0x80-0x9F,
#: where the Windows pages hold punctuation and rare letters, so it fits one language
#: better only in its own page ("Müller" read "Mźller" in cp1250, "réunion" "rāunion").
OLDER_PAGES = ("mac_roman", "cp850", "cp437")

#: Accented letters (lower case) of languages written in those pages (and in ISO 8859,
#: DOS and Mac pages of the same languages).
ALPHABETS = {
    "French": "àâæçéèêëîïôœùûüÿ",
    "German": "äöüß",
    "Spanish": "áéíñóúü",
    "Portuguese": "àáâãçéêíóôõú",
    "Italian": "àèéìíîòóù",
    "Catalan": "àçèéíïòóúü·",
    "Dutch": "áäéëíïóöúü",
    "Swedish": "åäöé",
    "Danish and Norwegian": "æøåé",
    "Finnish": "äöåšž",
    "Icelandic": "áðéíóúýþæö",
    "Albanian": "çë",
    "Polish": "ąćęłńóśźż",
    "Czech": "áčďéěíňóřšťúůýž",
    "Slovak": "áäčďéíĺľňóôŕšťúýž",
    "Hungarian": "áéíóöőúüű",
    "Croatian, Bosnian, Serbian": "čćđšž",
    "Slovene": "čšž",
    "Romanian": "ăâîşţșț",
    "Lithuanian": "ąčęėįšųūž",
    "Latvian": "āčēģīķļņšūž",
    "Estonian": "äõöüšž",
    "Turkish": "çğıöşüâîûİ",  # "İ" lowers to two characters (i and a dot): kept as it is
}
_SETS = {name: frozenset(letters) for name, letters in ALPHABETS.items()}
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# quotes and dashes read alike in every page and say nothing of the language
_NEUTRAL = frozenset(("Pi", "Pf", "Pd", "Zs", "Sc"))


def letter_fit(text: str) -> float:
    """The share of ``text``'s accented letters (and other non-ASCII signs joined to words)
    that one language's alphabet covers, for the language covering most; 1.0 when there
    are none."""
    seen: Counter[str] = Counter()
    for m in _NON_ASCII.finditer(text):
        c = m.group()
        i = m.start()
        if c.isalpha():
            lowered = c.lower()
            seen[lowered if len(lowered) == 1 else c] += 1
        elif unicodedata.category(c) not in _NEUTRAL and _touches_word(text, i):
            seen[c] += 1
    total = sum(seen.values())
    if not total:
        return 1.0
    return max(sum(n for c, n in seen.items() if c in letters) for letters in _SETS.values()) / total


def _touches_word(text: str, i: int) -> bool:
    return (i > 0 and text[i - 1].isalpha()) or (i + 1 < len(text) and text[i + 1].isalpha())


def is_latin(text: str) -> bool:
    """Whether most of the non-ASCII letters of ``text`` are Latin (or there are none)."""
    latin = other = 0
    for m in _NON_ASCII.finditer(text):
        c = m.group()
        if c.isalpha():
            if unicodedata.name(c, "").startswith("LATIN"):
                latin += 1
            else:
                other += 1
    return latin >= other


def best_page(data: bytes, first: str | None = None, sample: int = 65536) -> tuple[str, str] | None:
    """``(code page, text)`` of the candidate whose letters fit one language best:
    ``first`` (the statistical guess, tried first among equals after cp1252),
    :data:`LATIN_PAGES`, then :data:`OLDER_PAGES`; None when none of them decodes ``data``."""
    order = [*LATIN_PAGES, *OLDER_PAGES]
    if first and first not in order:
        order.insert(1, first)
    elif first:
        order.remove(first)
        order.insert(0 if first == "cp1252" else 1, first)
    best: tuple[float, str, str] | None = None
    head = data[:sample]
    for page in order:
        try:
            head_text = head.decode(page)
        except (UnicodeDecodeError, LookupError):
            if len(head) == len(data):
                continue
            try:  # a cut through a multi-byte character at the sample's end
                head_text = head.decode(page, errors="ignore")
            except LookupError:
                continue
        fit = letter_fit(head_text)
        if best is None or fit > best[0]:
            try:
                best = (fit, page, data.decode(page))
            except UnicodeDecodeError:
                continue
    return None if best is None else (best[1], best[2])
