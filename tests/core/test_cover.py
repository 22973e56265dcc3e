"""core.cover: the keepers a group needs so that every member left out duplicates a keeper."""

from ndd_desktop.core.cover import choose_keepers


def _links(*edges):
    out: dict[int, dict[int, float | None]] = {}
    for a, b, v in edges:
        out.setdefault(a, {})[b] = v
        out.setdefault(b, {})[a] = v
    return out


def test_a_chain_kept_from_one_end_keeps_the_other_end():
    cover = choose_keepers([1, 2, 3], _links((1, 2, 0.8), (2, 3, 0.8)))
    assert cover.keepers == (1, 3)
    assert cover.covered_by == {2: (1, 0.8)}


def test_a_chain_kept_from_the_middle_needs_one_keeper():
    cover = choose_keepers([2, 1, 3], _links((1, 2, 0.8), (2, 3, 0.75)))
    assert cover.keepers == (2,)
    assert cover.covered_by == {1: (2, 0.8), 3: (2, 0.75)}


def test_a_member_covered_twice_names_the_keeper_it_is_closest_to():
    # 1 - 2 - 3 - 4 - 5 in a line: keep 1, then 3 (first uncovered), then 5
    links = _links((1, 2, 0.71), (2, 3, 0.93), (3, 4, 0.8), (4, 5, 0.9))
    cover = choose_keepers([1, 2, 3, 4, 5], links)
    assert cover.keepers == (1, 3, 5)
    assert cover.covered_by == {2: (3, 0.93), 4: (5, 0.9)}


def test_fixed_keepers_are_kept_even_when_covered():
    cover = choose_keepers([1, 2, 3], _links((1, 2, 0.9), (2, 3, 0.9), (1, 3, 0.9)), fixed=[3, 1])
    assert cover.keepers == (1, 3)
    assert cover.covered_by == {2: (1, 0.9)}


def test_a_link_without_a_score_covers_but_a_scored_one_is_named_first():
    cover = choose_keepers([1, 2, 3], _links((1, 3, None), (2, 3, 0.6), (1, 2, 0.7)))
    assert cover.keepers == (1,)
    assert cover.covered_by == {2: (1, 0.7), 3: (1, None)}


def test_a_member_with_no_links_is_its_own_keeper():
    cover = choose_keepers([5, 6], {})
    assert cover.keepers == (5, 6) and cover.covered_by == {}
