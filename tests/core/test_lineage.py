"""Version order from content: hand-made histories whose true order is known."""

from __future__ import annotations

import datetime
import random

import numpy as np
import pytest

from ndd_desktop.core.lineage import level_of, order_versions, version_chain
from ndd_desktop.core.seriation import (chain_fit, kendall_tau, path_cost, shingle_distances, shingle_sets,
                                        shortest_path)
from ndd_desktop.core.shared_edits import order_groups
from ndd_desktop.core.version_clues import name_clue, text_clues

WORDS = ("archive record letter council minute budget harbour school river bridge market tax road "
         "church mill farm court clerk deed lease survey map plan rent wage fund loan grant").split()


def sentence(rng: random.Random, n: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)) + "."


def growing_history(n: int, seed: int = 0) -> list[str]:
    """n versions, each the previous one with one sentence added and one word changed."""
    rng = random.Random(seed)
    sentences = [sentence(rng) for _ in range(30)]
    out = []
    for _ in range(n):
        out.append("\n".join(sentences))
        sentences.insert(rng.randrange(len(sentences) + 1), sentence(rng))
        k = rng.randrange(len(sentences))
        words = sentences[k].split()
        words[rng.randrange(len(words))] = f"word{rng.randrange(10**6)}"
        sentences[k] = " ".join(words)
    return out


def shuffled(items: list, seed: int = 1) -> tuple[list, list[int]]:
    """The items in a random order and, for each, its true place (0 = oldest)."""
    idx = list(range(len(items)))
    random.Random(seed).shuffle(idx)
    return [items[i] for i in idx], idx


@pytest.mark.parametrize("n", [3, 7, 12, 40])
def test_a_growing_history_comes_back_in_order(n):
    texts, truth = shuffled(growing_history(n, seed=n))
    result = order_versions(texts)
    assert [truth[k] for k in result.order] == list(range(n))
    assert truth[result.latest] == n - 1
    assert result.votes["length"] > 0.9


def test_dates_in_the_text_win_over_shrinking_length():
    # each version drops a sentence (shorter) but carries a later effective date
    rng = random.Random(5)
    sentences = [sentence(rng) for _ in range(25)]
    versions = []
    for k in range(6):
        day = datetime.date(2018 + k, 3, 1).strftime("%B %-d, %Y")
        versions.append(f"Effective date: {day}\n\n" + "\n".join(sentences))
        del sentences[rng.randrange(len(sentences))]
    texts, truth = shuffled(versions, seed=3)
    result = order_versions(texts)
    assert [truth[k] for k in result.order] == list(range(6))
    assert result.votes["stamp"] == pytest.approx(1.0)
    assert result.votes["length"] < 0  # length pointed the other way and was outvoted


def test_version_numbers_in_the_text_decide_and_order():
    base = growing_history(5, seed=9)[::-1]  # shrinking texts: length points backwards
    versions = [f"Handbook, Version 1.{k}\n\n{t}" for k, t in enumerate([8, 9, 10, 11, 12])]
    versions = [v.split("\n\n")[0] + "\n\n" + b for v, b in zip(versions, base)]
    texts, truth = shuffled(versions, seed=4)
    result = order_versions(texts)
    assert [truth[k] for k in result.order] == list(range(5))
    assert result.votes["version"] == pytest.approx(1.0)


def test_file_dates_that_agree_order_identical_texts():
    # three identical copies and two edits: the content cannot order the copies, the file dates can
    history = growing_history(3, seed=2)
    texts = [history[0], history[0], history[0], history[1], history[2]]
    dates = [100.0, 200.0, 300.0, 400.0, 500.0]
    order = [4, 0, 3, 2, 1]
    result = order_versions([texts[k] for k in order], dates=[dates[k] for k in order])
    assert [order[k] for k in result.order] == [0, 1, 2, 3, 4]
    assert result.refined_by == "file_date"


def test_file_dates_that_disagree_with_the_content_are_ignored():
    texts, truth = shuffled(growing_history(8, seed=6))
    rng = random.Random(0)
    dates = [float(rng.randrange(10**6)) for _ in texts]
    result = order_versions(texts, dates=dates)
    tau = kendall_tau(np.array(truth, float), np.array(dates))
    assert abs(tau) < 0.6  # the dates of this seed are unrelated to the chain: no vote
    assert "file_date" not in result.votes
    assert [truth[k] for k in result.order] == list(range(8))


def test_names_with_version_marks_vote_random_names_do_not():
    texts, truth = shuffled(growing_history(4, seed=8)[::-1])  # shrinking: length says backwards
    named = order_versions(texts, names=[f"minutes_v{t + 1}.docx" for t in truth])
    assert [truth[k] for k in named.order] == [0, 1, 2, 3]
    assert named.votes["name"] == pytest.approx(1.0)
    assert name_clue("a8f3e21c9d.md") is None and name_clue("1f2e3d4c.txt") is None
    unnamed = order_versions(texts, names=["x9k2.md", "q7p1.md", "zz3a.md", "b4c5.md"])
    assert "name" not in unnamed.votes


def test_text_clues_read_dates_versions_and_labels():
    c = text_clues("Policy\nLast updated: 2 March 2021\nSee the 2019 report. Version 2.10 replaces version 2.9.")
    assert c.stamp == datetime.date(2021, 3, 2).toordinal()
    assert c.latest_year == 2021
    assert c.version == (2, 10)
    c = text_clues("Gültig ab 1. März 2019. Stand: 2020-07-15")
    assert c.stamp == datetime.date(2020, 7, 15).toordinal()
    assert c.latest_date == datetime.date(2020, 7, 15).toordinal()
    c = text_clues("draft-ietf-foo-bar-07\nExpires: June 3, 2016")
    assert c.version == (7,) and c.latest_date == datetime.date(2016, 6, 3).toordinal()
    assert c.stamp is None  # "Expires" does not date the text
    assert text_clues('__version__ = "3.12.1"').version == (3, 12, 1)
    empty = text_clues("no dates here, room 1234, 12 apples")
    assert (empty.stamp, empty.latest_date, empty.latest_year, empty.version) == (None, None, None, None)


def test_name_clue_reads_versions_dates_and_copies():
    assert name_clue("report_v2.docx") == (0, (2,))
    assert name_clue("report_v2.docx") < name_clue("report_v10.docx")
    assert name_clue("policy-2020-03-01.pdf")[0] == datetime.date(2020, 3, 1).toordinal()
    assert name_clue("minutes (3).txt") == (0, (3,))
    assert name_clue("dir/plan rev4.odt") == (0, (4,))


def test_shortest_path_recovers_a_line():
    rng = np.random.default_rng(0)
    x = np.cumsum(rng.uniform(0.1, 1.0, 60))
    perm = rng.permutation(60)
    d = np.abs(x[perm][:, None] - x[perm][None, :])
    path = shortest_path(d)
    true = list(np.argsort(x[perm]))
    assert path in (true, true[::-1])
    assert chain_fit(d, path) == pytest.approx(1.0)
    assert path_cost(d, path) == pytest.approx(x.max() - x.min())


def test_sampled_distances_stay_close_to_exact():
    texts = growing_history(12, seed=11)
    sets = shingle_sets(texts)
    exact = shingle_distances(sets)
    sampled = shingle_distances(sets, max_features=60)
    assert np.abs(exact - sampled).max() < 0.1
    assert shortest_path(sampled) in (list(range(12)), list(range(12))[::-1])


def test_shared_edits_give_direction_to_a_group_without_clues():
    # every document of the collection lost the same heading; dated groups show when
    rng = random.Random(12)
    heading = "Topics: policy, legal, governance and the archive board"
    chains, truths = [], []
    for g in range(4):
        body = [sentence(rng) for _ in range(20)]
        versions = []
        for k in range(4):
            head = heading + "\n" if k < 2 else ""
            stamp = f"Effective date: {2015 + k}-01-0{g + 1}\n" if g < 3 else ""
            versions.append(stamp + head + "\n".join(body))
            body.append(sentence(rng)) if g < 3 else body.pop(0)  # the undated group shrinks
        texts, truth = shuffled(versions, seed=g)
        chains.append(version_chain(texts, keep_edits=True))
        truths.append(truth)
    orders = order_groups(chains)
    undated = orders[3]
    assert [truths[3][k] for k in undated.order] == [0, 1, 2, 3]
    assert undated.votes["shared_edits"] > 0 and undated.votes["length"] < 0


def test_small_and_degenerate_groups():
    assert order_versions([]).order == []
    one = order_versions(["only"])
    assert one.order == [0] and one.level == "high"
    two = order_versions(["short text", "short text with more words added at the end"])
    assert two.order == [0, 1]
    blank = order_versions(["", "", "some words here"])
    assert sorted(blank.order) == [0, 1, 2]
    assert level_of(0.7) == "high" and level_of(0.4) == "medium" and level_of(0.1) == "low"


def test_corrected_typos_point_forward():
    from ndd_desktop.core.typo_fixes import step_votes, typo_vote

    assert step_votes({"we", "recieve", "letters"}, {"we", "receive", "letters"}) == 1
    assert step_votes({"we", "receive"}, {"we", "recieve"}) == -1  # a typo introduced
    assert step_votes({"user"}, {"users"}) == 0  # both are words: no judgement
    # each version fixes one typo and loses a line: length says backwards, the fixes forwards
    rng = random.Random(21)
    lines = [sentence(rng) for _ in range(20)]
    typos = [("recieve", "receive"), ("goverment", "government"), ("occured", "occurred")]
    text = "\n".join(lines) + "\nwe " + " and ".join(t for t, _ in typos) + " it."
    versions = [text]
    for k, (typo, fix) in enumerate(typos):
        text = text.replace(typo, fix)
        text = text.replace(lines[k] + "\n", "", 1)
        versions.append(text)
    texts, truth = shuffled(versions, seed=2)
    result = order_versions(texts)
    assert [truth[k] for k in result.order] == [0, 1, 2, 3]
    assert result.votes["typo_fixes"] == pytest.approx(1.0) and result.votes["length"] < 0
    assert typo_vote(["same words", "same words"], [0, 1]) is None


def test_a_branched_history_starts_at_its_root():
    # one document copied into two editions, each then edited on its own: time runs from
    # the root (inside the shortest path) out along both arms
    rng = random.Random(31)
    root = [sentence(rng) for _ in range(30)]
    versions, labels = ["Effective date: 2014-01-01\n" + "\n".join(root)], [("root", 0)]
    for arm in ("a", "b"):
        body = list(root)
        for k in range(1, 5):
            body.insert(rng.randrange(len(body)), sentence(rng))
            versions.append(f"Effective date: {2014 + k}-0{k}-1{'ab'.index(arm)}\n" + "\n".join(body))
            labels.append((arm, k))
    texts, truth = shuffled(versions, seed=5)
    result = order_versions(texts)
    found = [labels[truth[k]] for k in result.order]
    assert found[0] == ("root", 0) and result.refined_by == "fork"
    for arm in ("a", "b"):
        assert [k for a, k in found if a == arm] == [1, 2, 3, 4]
    assert result.votes["stamp"] > 0.7  # the arms interleave by amount of change, not exactly by date


def test_length_alone_never_decides_beyond_low():
    # a policy trimmed rule by rule, no dates or version numbers: length points backwards
    # and nothing outvotes it; the order came out reversed at 0.5, "medium"
    rng = random.Random(11)
    sentences = [sentence(rng) for _ in range(25)]
    versions = []
    for _ in range(5):
        versions.append("\n".join(sentences))
        del sentences[rng.randrange(len(sentences))]
    result = order_versions(versions)
    assert result.votes["length"] > 0 and all(v == 0 for k, v in result.votes.items() if k != "length")
    assert result.order[-1] == 0  # reversed: the longest, the first written, taken as the latest
    assert result.level == "low" and result.confidence < 0.3
