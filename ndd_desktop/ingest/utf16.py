"""UTF-16 without a byte-order mark, told from its bytes (the file reader and the format
detection ask the same question, so they ask it here).

Text of the Latin script has a zero byte on one side of most byte pairs, which is the first
test. Text of other scripts has few or none: Cyrillic in UTF-16 LE is pairs of a letter
byte and 0x04, Chinese has no zero byte at all, and both were taken for binary content (a
control byte in every pair). For them the sample is decoded both ways: the reading that
gives text (no unassigned, private or control characters beyond one in a hundred) and
spaces, line ends or CJK punctuation at least once in a hundred characters is the one, and
when both would do, the one with more of those marks (Cyrillic read the wrong way round is
CJK letters with no space between them).
"""

from __future__ import annotations

import unicodedata

#: How much of a file is looked at (bytes).
SAMPLE = 8192
#: The characters whose presence tells a reading of text from a reading of its bytes the
#: wrong way round: white space, and the spaces, commas and full stops of CJK text.
_MARKS = " \n\r\t\u3000\u3001\u3002\uff0c\uff0e"
_BAD_CATEGORIES = ("Cc", "Cn", "Co", "Cs")
_WHITE_CONTROLS = "\t\n\r\x0b\x0c"


def utf16_without_bom(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" when the start of ``data`` is UTF-16 text without a
    byte-order mark, else None."""
    sample = data[: min(len(data), SAMPLE) // 2 * 2]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    z_even, z_odd = even.count(0) / len(even), odd.count(0) / len(odd)
    if z_odd > 0.3 and z_even < 0.05:
        return _decodes(data, "utf-16-le")
    if z_even > 0.3 and z_odd < 0.05:
        return _decodes(data, "utf-16-be")
    found = [(marks, enc) for enc in ("utf-16-le", "utf-16-be")
             if (marks := _text_marks(sample, enc, len(sample) < len(data))) is not None]
    if len(found) == 2:
        (m_le, le), (m_be, be) = found
        if max(m_le, m_be) < 2 * min(m_le, m_be):
            return None  # both read as text alike: nothing to choose by
        return le if m_le > m_be else be
    return found[0][1] if found else None


def _decodes(data: bytes, enc: str) -> str | None:
    """``enc`` when the first :data:`SAMPLE` bytes of ``data`` decode in it."""
    sample = data[: min(len(data), SAMPLE) // 2 * 2]
    try:
        sample.decode(enc)
    except UnicodeDecodeError as exc:
        if exc.start < len(sample) - 2 or len(sample) == len(data):  # not a pair cut by the sample's end
            return None
    return enc


def _text_marks(sample: bytes, enc: str, cut: bool) -> int | None:
    """How many of :data:`_MARKS` the sample holds read as ``enc``, or None when it does not
    read as text (``cut``: the sample ends inside the file, maybe inside a surrogate pair)."""
    try:
        text = sample.decode(enc)
    except UnicodeDecodeError as exc:
        if not cut or exc.start < len(sample) - 2:
            return None
        text = sample[: exc.start].decode(enc)
    if not text:
        return None
    category = unicodedata.category
    bad = sum(1 for ch in text if category(ch) in _BAD_CATEGORIES and ch not in _WHITE_CONTROLS)
    marks = sum(text.count(ch) for ch in _MARKS)
    if bad * 100 > len(text) or marks * 100 < len(text):
        return None
    return marks
