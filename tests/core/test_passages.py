"""Passages two texts share, their places, and the differences between them."""

from ndd_desktop.core.passages import common_runs, differences, shared_passages, words_of
from ndd_desktop.core.places import Places

LETTER = "Dear Sir, we regret to inform you that the shipment of ten crates was lost at sea near Lisbon."
_VOCAB = ("harbour ledger crate vessel captain cargo tariff wharf clerk barrel anchor tide pier rope "
          "manifest duty inspector bale voyage warehouse quay lantern custom merchant").split()
# twelve paragraphs with no five words in a row in common
FILLER = [" ".join(_VOCAB[(k * 7 + n * (k + 2)) % len(_VOCAB)] + str(k) for n in range(14)) + "." for k in range(1, 13)]


def test_quoted_letter_is_contained_with_its_page():
    pages = ["\n\n".join(FILLER[:4]), "\n\n".join(FILLER[4:8] + [LETTER]), "\n\n".join(FILLER[8:])]
    report = "\n\f".join(pages)
    a, b = words_of(LETTER), words_of(report)
    shared = shared_passages(a, b)
    assert shared.a_in_b and not shared.b_in_a
    assert shared.share_a == 1.0
    assert len(shared.passages) == 1
    p = shared.passages[0]
    assert (p.a0, p.a1) == (0, 19)
    start, end = b.chars(p.b0, p.b1)
    assert report[start:end] == LETTER[:-1]  # the words, without the full stop
    assert Places(report, "pdf").span(start, end) == "p. 2"
    assert Places(report, "txt").span(start, end) == "¶ 9"


def test_runs_are_maximal_and_short_matches_ignored():
    a = "one two three four five six seven eight nine ten".split()
    b = "zero one two three four five six seven nine ten eleven".split()
    import numpy as np

    ha = words_of(" ".join(a)).hashes
    hb = words_of(" ".join(b)).hashes
    runs, done = common_runs(ha, hb)
    assert done
    assert runs == [(0, 1, 7)]  # "nine ten" is only two words: not shared text
    assert np.array_equal(ha[0:7], hb[1:8])


def test_differences_kinds_and_places_of_a_sheet():
    ref = "Budget\nitem\tcost\nrent\t100\nheating\t40 per month in the old building\nwater\t12\n\nNotes\nall figures in pounds sterling as agreed in the meeting"
    member = ref.replace("heating\t40 per month in the old building", "heating\t55 per month in the new building") + " of March"
    a, b = words_of(ref), words_of(member)
    shared = shared_passages(a, b)
    kinds = [d.kind for d in differences(shared)]
    assert kinds == ["changed", "added"]
    d = differences(shared)[0]
    s, e = a.chars(d.a0, d.a1)
    assert "40" in ref[s:e] and "old" in ref[s:e]
    assert Places(ref, "xlsx").span(s, e) == "Budget row 3"
    s, e = b.chars(differences(shared)[1].b0, differences(shared)[1].b1)
    assert member[s:e] == "of March"
    assert Places(member, "xlsx").at(s).label() == "Notes row 1"


def test_words_keep_places_through_case_folding():
    text = "Straße GROSS Ünïcode ﬁne words here"
    w = words_of(text)
    assert [text[s:e] for s, e in zip(w.starts, w.ends)] == ["Straße", "GROSS", "Ünïcode", "ﬁne", "words", "here"]
    assert words_of("strasse gross ünïcode fine words here").hashes.tolist() == w.hashes.tolist()


def test_deadline_returns_partial():
    text = " ".join(f"w{k}" for k in range(5000))
    shared = shared_passages(words_of(text), words_of(text), budget=0.0)
    assert not shared.complete
    assert shared_passages(words_of(text), words_of(text)).complete


def test_removed_paragraph_and_empty_texts():
    ref = "\n\n".join(FILLER[:5])
    member = "\n\n".join(FILLER[:2] + FILLER[3:5])
    shared = shared_passages(words_of(ref), words_of(member))
    diffs = differences(shared)
    assert [d.kind for d in diffs] == ["removed"]
    a = words_of(ref)
    s, e = a.chars(diffs[0].a0, diffs[0].a1)
    assert Places(ref, "docx").span(s, e) == "¶ 3"
    empty = shared_passages(words_of(""), words_of(ref))
    assert empty.passages == [] and empty.share_a == 0.0
