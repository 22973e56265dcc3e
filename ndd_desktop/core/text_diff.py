"""Which passages of two texts differ: the one diff behind the window's compare view and
the HTML report's side-by-side pairs.

Texts are cut into word tokens (each word with the white space after it; each character of
a script written without spaces) and compared with
``difflib.SequenceMatcher`` on the words alone, so a change of line breaks or spacing is not
a difference (nor, by default, a change of case). Very long texts are compared line by line
instead, which keeps the work bounded; ``max_words`` compares only the beginning of each
text instead. The result gives character spans per side, the blocks both sides are made of,
and a map from a position in one text to the matching position in the other, for
scrolling the two sides together. Each view only renders the result (Qt text formats,
HTML marks).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .normalize import NOSPACE_RANGES

# A character of a script written without spaces (Chinese, Japanese, Thai, ...) is a token
# of its own, as the scores' tokenizer makes it (core.normalize): with white space alone a
# Chinese paragraph was one token, and two texts that differ by one word showed as wholly
# different ("0% of words shared").
_NOSPACE = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in NOSPACE_RANGES)
_WORD = re.compile(rf"[{_NOSPACE}]\s*|[^\s{_NOSPACE}]+\s*|\s+")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
#: Above this many words per side the texts are compared by lines.
MAX_WORD_TOKENS = 30000


@dataclass
class Span:
    """A run of characters ``[start, end)`` of one side and what it is (equal or changed)."""

    start: int
    end: int
    kind: str  # "equal", "delete" (only in A), "insert" (only in B), "replace"


@dataclass
class TextDiff:
    """Spans of both texts and the blocks they share."""

    text_a: str
    text_b: str
    spans_a: list[Span] = field(default_factory=list)
    spans_b: list[Span] = field(default_factory=list)
    # (a_start, b_start, a_end, b_end) character ranges of every opcode, in order
    blocks: list[tuple[int, int, int, int, str]] = field(default_factory=list)
    shared_tokens: int = 0
    tokens_a: int = 0
    tokens_b: int = 0
    by_lines: bool = False
    truncated_a: bool = False  # text_a is only the first ``max_words`` words of the text given
    truncated_b: bool = False

    @property
    def similarity(self) -> float:
        """Share of tokens the two texts have in common (0 to 1)."""
        total = self.tokens_a + self.tokens_b
        return 1.0 if total == 0 else 2.0 * self.shared_tokens / total

    def changed_a(self) -> list[Span]:
        """The passages of A that are not in B."""
        return [s for s in self.spans_a if s.kind != "equal"]

    def changed_b(self) -> list[Span]:
        """The passages of B that are not in A."""
        return [s for s in self.spans_b if s.kind != "equal"]

    def map_position(self, pos: int, from_a: bool = True) -> int:
        """The position in the other text that matches character ``pos`` of this one."""
        if not self.blocks:
            return 0
        starts = [blk[0] if from_a else blk[1] for blk in self.blocks]
        k = max(bisect.bisect_right(starts, pos) - 1, 0)
        a0, b0, a1, b1, kind = self.blocks[k]
        src0, src1, dst0, dst1 = (a0, a1, b0, b1) if from_a else (b0, b1, a0, a1)
        if kind == "equal":
            return min(dst0 + (pos - src0), dst1)
        if src1 <= src0:
            return dst0
        return dst0 + int((pos - src0) / (src1 - src0) * (dst1 - dst0))


def clean_text(text: str | None) -> str:
    """Text as the viewer shows it: one kind of line break, no NUL characters."""
    if not text:
        return ""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n").replace("\x00", "")


def _tokens(text: str, pattern: re.Pattern, ignore_case: bool) -> tuple[list[str], list[int]]:
    keys, starts = [], []
    for m in pattern.finditer(text):
        key = m.group().strip()
        keys.append(key.lower() if ignore_case else key)
        starts.append(m.start())
    return keys, starts


def first_words(text: str, max_words: int) -> tuple[str, bool]:
    """``(the first max_words words of text with their spacing, whether words were cut)``."""
    count = 0
    for m in _WORD.finditer(text):
        if not m.group().isspace():
            count += 1
            if count == max_words:
                cut = text[:m.end()]
                return cut, len(cut) < len(text) and not text[m.end():].isspace()
    return text, False


def diff_texts(text_a: str | None, text_b: str | None, *, ignore_case: bool = True,
               max_words: int | None = None) -> TextDiff:
    """Compare two texts word by word (line by line when they are very long).

    Args:
        ignore_case: a word that differs only in case is no difference (the compare view);
            the report marks it.
        max_words: compare only the first ``max_words`` words of each text (the result's
            texts are the cut ones, ``truncated_a``/``truncated_b`` say which were cut).
    """
    a, b = clean_text(text_a), clean_text(text_b)
    cut_a = cut_b = False
    if max_words is not None:
        (a, cut_a), (b, cut_b) = first_words(a, max_words), first_words(b, max_words)
    keys_a, starts_a = _tokens(a, _WORD, ignore_case)
    keys_b, starts_b = _tokens(b, _WORD, ignore_case)
    by_lines = max(len(keys_a), len(keys_b)) > MAX_WORD_TOKENS
    if by_lines:
        keys_a, starts_a = _tokens(a, _LINE, ignore_case)
        keys_b, starts_b = _tokens(b, _LINE, ignore_case)
    result = TextDiff(a, b, tokens_a=len(keys_a), tokens_b=len(keys_b), by_lines=by_lines,
                      truncated_a=cut_a, truncated_b=cut_b)
    ends_a = starts_a[1:] + [len(a)]
    ends_b = starts_b[1:] + [len(b)]

    def char_range(starts: list[int], ends: list[int], i0: int, i1: int, total: int) -> tuple[int, int]:
        if i0 >= i1:
            pos = starts[i0] if i0 < len(starts) else total
            return pos, pos
        return starts[i0], ends[i1 - 1]

    matcher = SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i0, i1, j0, j1 in matcher.get_opcodes():
        ca = char_range(starts_a, ends_a, i0, i1, len(a))
        cb = char_range(starts_b, ends_b, j0, j1, len(b))
        result.blocks.append((ca[0], cb[0], ca[1], cb[1], tag))
        if tag == "equal":
            result.shared_tokens += i1 - i0
        if ca[1] > ca[0]:
            result.spans_a.append(Span(ca[0], ca[1], tag))
        if cb[1] > cb[0]:
            result.spans_b.append(Span(cb[0], cb[1], tag))
    return result
