"""Leaving links, e-mail addresses and numbers out of what is sketched (the ``ignore``
parameter every method has; core.normalize.remove_ignored)."""

import time

import pytest

from ndd_desktop.core.methods import get_method, method_names
from ndd_desktop.core.normalize import IGNORABLE, ignore_items, normalize, remove_ignored
from ndd_desktop.core.params import describe_params

# The worked example of the bottom-k source (seed 001, after the LingPipe blog): a real
# near-duplicate whose two copies carry different shortened links, and a templated
# look-alike that shares its words, its time and most of its link.
OBAMA = (
    "Vet, 77, Busted For Obama Death Threat | The Smoking Gun http://t.co/MrTUwxv via @",
    "Vet, 77, Busted For Obama Death Threat http://tinyurl.com/25zyxgp #tcot #tlot #sgp",
)
SHOW = (
    "Playing a show in Chicago, IL at 9:00 PM today at LE PASSAGE http://artistdata.com/a/32on",
    "Playing a show in Cape Girardeau, MO at 9:00 PM today at The Venue http://artistdata.com/a/32ow",
)


def pair_score(name: str, pair: tuple[str, str], ignore: str = "") -> float:
    """Score of two texts as a scan computes it: normalise (leaving out ``ignore``), sketch."""
    method = get_method(name)
    params = method.params({"ignore": ignore})
    a, b = (method.sketch(normalize(text, params.ignore), params) for text in pair)
    return method.score(a, b, params)


@pytest.mark.parametrize("name", ["qgram", "bottomk"])
def test_links_and_numbers_rank_the_look_alike_above_the_real_duplicate(name):
    assert pair_score(name, SHOW) > pair_score(name, OBAMA)


@pytest.mark.parametrize("name", ["qgram", "bottomk"])
def test_without_links_and_numbers_the_real_duplicate_ranks_first(name):
    assert pair_score(name, OBAMA, "urls,numbers") > pair_score(name, SHOW, "urls,numbers")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("see http://t.co/MrTUwxv now", "see now"),
        ("see https://example.org/a/b?x=1&y=2#top.", "see ."),
        ("(ftp://files.example.net/pub/x.zip)", "( )"),
        ("visit www.example.com/news, then", "visit , then"),
        ("visit WWW.Example.COM today", "visit today"),
        ("short bit.ly/3xYz and t.co/abc!", "short and !"),
        ("a path: archive.example.org/fonds/12/", "a path:"),
    ],
)
def test_links_are_removed_with_their_paths_but_not_the_punctuation_after_them(text, expected):
    assert " ".join(remove_ignored(text, "urls").split()) == expected


@pytest.mark.parametrize("text", ["Node.js and e.g. this", "version 2.5/10 marks", "and/or", "file.txt"])
def test_words_with_dots_are_not_links(text):
    assert remove_ignored(text, "urls") == text


def test_email_addresses_are_removed():
    text = "Write to Jane.Doe+archive@mail.example.co.uk or it@uni.edu."
    assert " ".join(remove_ignored(text, "emails").split()) == "Write to or ."
    assert remove_ignored("the @ sign and user@localhost", "emails") == "the @ sign and user@localhost"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Vet, 77, busted", "Vet, , busted"),
        ("paid 1,234.50 on 3.14", "paid on"),
        ("at 9:00 PM", "at : PM"),
        ("invoice 000123 of 2024", "invoice of"),
        ("Ｆ１２", "Ｆ"),  # full-width digits are digits too
    ],
)
def test_numbers_are_digit_runs_with_their_separators(text, expected):
    assert " ".join(remove_ignored(text, "numbers").split()) == expected


def test_normalize_removes_after_folding_and_collapses_the_gap():
    assert normalize("Call   ＷＷＷ.EXAMPLE.COM/Page  now", "urls") == "call now"
    assert normalize("Text 12 and http://x.org/y", "") == "text 12 and http://x.org/y"
    assert normalize("mail a@b.org, 42 at www.c.org", "urls,emails,numbers") == "mail , at"


def test_items_are_checked_and_put_in_one_order():
    assert ignore_items(" numbers, URLS ,,urls") == ("urls", "numbers")
    assert ignore_items("") == () and ignore_items(None) == ()
    with pytest.raises(ValueError, match="'links'.*urls, emails, numbers"):
        ignore_items("urls,links")


def test_every_method_has_the_ignore_parameter_and_it_changes_the_sketch_key():
    for method in map(get_method, method_names()):
        info = {i.name: i for i in describe_params(method.Params)}["ignore"]
        assert info.multiple and info.affects_sketch and info.choices == IGNORABLE and info.default == ""
        default = method.params()
        ignoring = method.params({"ignore": "numbers,urls"})
        assert ignoring.ignore == "urls,numbers"  # one spelling, so one key for one choice
        assert method.params({"ignore": ["urls", "numbers"]}) == ignoring
        assert method.sketch_key(ignoring) != method.sketch_key(default)
        assert method.pairs_key(ignoring) != method.pairs_key(default)


def test_nothing_ignored_keeps_the_keys_collections_were_scanned_with():
    # computed by the release before the parameter existed: stored sketches and pair sets
    # (and the thresholds saved per pair set) stay valid
    qgram = get_method("qgram")
    # version 4 (sketch_from_text), then normalization 2, changed it on purpose
    assert qgram.sketch_key(qgram.params()) == "e0b36c692a7246d4"
    assert qgram.pairs_key(qgram.params()) == "24380de7fee27928"
    bottomk = get_method("bottomk")
    assert bottomk.sketch_key(bottomk.params({"ignore": ""})) == "e8360a4c0bc49e0d"  # normalization 2


def test_an_unknown_item_is_refused_with_the_choices():
    with pytest.raises(ValueError, match=r"ignore: unknown item 'phone' \(choose any of urls, emails, numbers"):
        get_method("qgram").params({"ignore": "urls,phone"})


@pytest.mark.parametrize("item", IGNORABLE)
@pytest.mark.parametrize("text", ["a." * 20_000, "ab.cd-" * 10_000, "a.b@" * 10_000, "x@" * 20_000,
                                  "1.2," * 10_000, "http://" + "x." * 20_000])
def test_odd_runs_of_dots_and_signs_take_linear_time(text, item):
    # patterns that backtrack took 37 s on 40 KB of "a."; each of these now takes milliseconds
    started = time.perf_counter()
    remove_ignored(text, item)
    assert time.perf_counter() - started < 0.5
