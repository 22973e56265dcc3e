"""The one diff behind the compare view and the report's side-by-side pairs."""

from __future__ import annotations

import re

import pytest

from ndd_desktop.core.text_diff import diff_texts, first_words
from ndd_desktop.export.report_html import side_by_side


def test_diff_marks_only_the_changed_words():
    d = diff_texts("The mill was built in 1820 by the river.\n", "The mill was rebuilt in 1820 by the river and canal.")
    changed_a = [d.text_a[s.start:s.end].strip() for s in d.changed_a()]
    changed_b = [d.text_b[s.start:s.end].strip() for s in d.changed_b()]
    assert changed_a == ["built", "river."]
    assert changed_b == ["rebuilt", "river and canal."]
    # 9 words against 11; 7 shared (The mill was in 1820 by the): 2 * 7 / (9 + 11) = 0.7
    assert (d.shared_tokens, d.tokens_a, d.tokens_b) == (7, 9, 11)
    assert d.similarity == pytest.approx(0.7)
    assert d.map_position(d.text_a.index("1820")) == d.text_b.index("1820")


def marked(html: str, kind: str) -> list[str]:
    return [m.strip() for m in re.findall(rf'<mark class="{kind}">(.*?)</mark>', html, flags=re.S)]


def test_the_report_marks_what_the_compare_view_marks():
    a = "The mill was built in 1820 by the river.\r\nIt burnt down in 1901."
    b = "The mill was rebuilt in 1820 by the river and canal.\nIt burnt down in 1911."
    left, right = side_by_side(a, b)
    assert marked(left, "del") == ["built", "river.", "1901."]
    assert marked(right, "ins") == ["rebuilt", "river and canal.", "1911."]
    assert "\r" not in left  # the same clean text as the window shows


def test_case_counts_in_the_report_only():
    assert diff_texts("Old Mill", "old mill").changed_a() == []
    assert [(s.start, s.end) for s in diff_texts("Old Mill", "old mill", ignore_case=False).changed_a()] == [(0, 8)]


def test_only_the_first_words_are_compared_when_asked():
    text = " ".join(f"w{i}" for i in range(10))
    assert first_words(text, 3) == ("w0 w1 w2 ", True)
    assert first_words(text, 10) == (text, False)
    assert first_words(text + "  \n", 10) == (text + "  \n", False)
    d = diff_texts(text, text.replace("w8", "x8"), max_words=5)
    assert d.changed_a() == [] and d.truncated_a and d.truncated_b and d.text_a == "w0 w1 w2 w3 w4 "
    left, right = side_by_side(text, text.replace("w8", "x8"))
    assert marked(left, "del") == ["w8"] and "&hellip;" not in left  # 10 words: under the report's limit


def test_a_chinese_text_differs_by_the_characters_changed():
    # without spaces a paragraph was one token: one changed word made the whole text differ
    a = "教区档案馆关于洗礼登记册移交的信函，一九六二年三月十四日。登记册的状况良好。"
    b = a.replace("状况良好", "状况很差")
    d = diff_texts(a, b)
    changed = "".join(a[s.start:s.end] for s in d.changed_a())
    assert changed.strip() in ("良好", "良好。")
    assert d.similarity > 0.9
    mixed = diff_texts("Report 報告 2024", "Report 報告 2025")  # Latin words stay words
    assert "".join(mixed.text_a[s.start:s.end] for s in mixed.changed_a()).strip() == "2024"
