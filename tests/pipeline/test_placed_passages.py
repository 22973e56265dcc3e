"""The one-line verdict on where two texts lie in each other (the compare view's passage line)."""

from __future__ import annotations

import random

from ndd_desktop.pipeline.passages import compare_texts

_WORDS = ("harbour lease tenant quay wall repair rent survey clerk council ledger cargo bridge river "
          "market toll warden pier crane store").split()
_rng = random.Random(5)
DRAFT = " ".join(" ".join(_rng.choice(_WORDS) for _ in range(12)) + "." for _ in range(30))


def test_two_drafts_that_differ_in_a_word_are_nearly_the_same_text_not_one_inside_the_other():
    """Both lie nearly wholly in each other: "A lies nearly wholly in B" read as if A were
    a part of B."""
    words = DRAFT.split()
    words[200] = "zeppelin"
    edited = " ".join(words)
    _, passages, contained = compare_texts(DRAFT, edited, "txt", "txt")
    assert contained == "A and B are nearly the same text" and passages
    assert compare_texts(DRAFT, DRAFT, "txt", "txt")[2] == "A and B have the same words"
    # two words changed in a long text: nearly, never "the same" beside a highlighted difference
    long_text = " ".join([DRAFT] * 20).split()
    long_text[1000], long_text[3000] = "zeppelin", "airship"
    assert compare_texts(" ".join([DRAFT] * 20), " ".join(long_text), "txt", "txt")[2] == (
        "A and B are nearly the same text")
    part = " ".join(DRAFT.split(". ")[5:12])
    assert compare_texts(part, DRAFT, "txt", "txt")[2].startswith("A lies wholly in B at")
