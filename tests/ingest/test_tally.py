"""Failures counted by reason: per-file details dropped, kinds kept, extensions counted."""

from __future__ import annotations

from ndd_desktop.ingest.tally import group_reasons, reason_group


def test_details_are_dropped_and_kinds_kept():
    assert reason_group("corrupt or truncated PDF: EOF marker not found") == "corrupt or truncated PDF"
    assert reason_group("zip bomb protection: 'a.txt' expands 900:1 (limit 200:1)") == "zip bomb protection"
    assert reason_group("extractor failed: RuntimeError: library bug: x") == "extractor failed: RuntimeError"
    assert reason_group("tesseract failed (exit 1): libpng error") == "tesseract failed (exit 1)"
    assert reason_group("unsupported format: gz") == "unsupported format: gz"
    assert reason_group("needs antiword: legacy Word document (.doc) (install the 'antiword' package)") == \
        "needs antiword: legacy Word document (.doc) (install the 'antiword' package)"
    assert reason_group("timed out after 60 s") == "timed out after 60 s"
    assert reason_group("") == "(no reason given)"


def test_groups_largest_first_with_their_extensions():
    items = [("skipped", "unsupported format: gz", f"man/x{i}.1.gz") for i in range(3867)]
    items += [("error", "corrupt PDF: bad xref", "a.pdf"), ("error", "corrupt PDF: no pages", "box.zip!b.PDF"),
              ("skipped", "no text (empty document)", "c.odt"), ("skipped", "no text (empty document)", "README"),
              ("skipped", "no text (empty document)", "d.odt")]
    assert [g.label() for g in group_reasons(items)] == [
        "3,867 skipped: unsupported format: gz (.gz)",
        "3 skipped: no text (empty document) (.odt 2, (no extension) 1)",
        "2 error: corrupt PDF (.pdf)",
    ]
    many = [("error", "corrupt", f"f.{ext}") for ext in ("a", "b", "c", "d", "e")]
    assert group_reasons(many)[0].describe() == "error: corrupt (.a 1, .b 1, .c 1, +2 more)"
