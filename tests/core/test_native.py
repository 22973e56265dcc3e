"""The C loops of ``core/_native.c`` give what numba's versions of the same loops give, bit
for bit, and refuse arrays that do not fit together with an error instead of reading
beyond them. (The word sketches' C loop is compared with numpy's rows in
tests/core/test_minhash_kernel.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core import native, share_kernel


@pytest.fixture(scope="module")
def both():
    """The C loops (built wherever a C compiler is found, as on every test machine) and
    numba's compiled versions of the verification's."""
    assert native.LOOPS is not None, "the C extension core/_native.c is not built"
    share_kernel.load()
    return share_kernel.compiled()


def _batch(rng: np.random.Generator, sizes: list[int], vocabulary: int):
    counts = np.array(sizes, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    tokens = rng.integers(0, vocabulary, size=int(counts.sum()), dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    return tokens, starts, counts


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 160), min_size=1, max_size=8), st.integers(2, 40), st.integers(1, 6),
       st.integers(0, 2**32))
def test_sorted_runs_and_covered_words_are_numbas(both, sizes, vocabulary, w, seed):
    """Documents of 0 to 160 words (sorted by insertion below 48 runs, by radix from there),
    from a small vocabulary (many equal runs, whose order must be kept as numba's)."""
    rng = np.random.default_rng(seed)
    tokens, starts, counts = _batch(rng, sizes, vocabulary)
    srt, pos, off = native.sorted_runs(tokens, starts, counts, w)
    want = both._sorted_runs(tokens, starts, counts, w)
    for got, expected in zip((srt, pos, off), want):
        assert got.dtype == expected.dtype and np.array_equal(got, expected)
    n = len(sizes)
    pi = rng.integers(0, n, size=30).astype(np.int64)
    pj = rng.integers(0, n, size=30).astype(np.int64)
    ci, cj = native.covered_batch(srt, pos, off, pi, pj, w)
    want_i, want_j = both._covered_batch(srt, pos, off, pi, pj, w)
    assert np.array_equal(ci, want_i) and np.array_equal(cj, want_j)


def test_worked_covered_words(both):
    """Worked by hand: runs of two words; document 0's runs 10, 20, 30 at 0, 1, 2 and
    document 1's runs 20, 30, 40 at 0, 1, 2 share 20 and 30, which cover words 1..3 of
    document 0 and 0..2 of document 1; a document against itself covers all its words."""
    srt = np.array([10, 20, 30, 20, 30, 40], dtype=np.uint64)
    pos = np.array([0, 1, 2, 0, 1, 2], dtype=np.int64)
    off = np.array([0, 3, 6], dtype=np.int64)
    ci, cj = native.covered_batch(srt, pos, off, np.array([0, 1]), np.array([1, 1]), 2)
    assert ci.tolist() == [3, 4] and cj.tolist() == [3, 4]


def _sketch_args():
    words = np.zeros(3, dtype=np.uint64)  # 8 bytes of text and the word of zeros after it
    starts, lens = np.array([0, 4], dtype=np.int64), np.array([3, 4], dtype=np.int64)
    first, counts = np.array([0], dtype=np.int64), np.array([2], dtype=np.int64)
    mult = np.array([1, 3, 5], dtype=np.uint32)
    return words, starts, lens, first, counts, 3, mult, np.empty((1, 4), dtype=np.uint32)


def test_arrays_that_do_not_fit_are_refused():
    args = _sketch_args()
    native.LOOPS.sketch_spans(*args)  # as given, they fit
    assert args[7][0, 3] == 1  # two tokens, fewer than a shingle: one value
    words, starts, lens, first, counts, w, mult, out = args
    beyond = [
        (words[:1], starts, lens, first, counts, w, mult, out),  # no word after the text
        (words, starts, np.array([3, 40], dtype=np.int64), first, counts, w, mult, out),  # a token past the end
        (words, np.array([0, -1], dtype=np.int64), lens, first, counts, w, mult, out),
        (words, starts, lens, first, np.array([3], dtype=np.int64), w, mult, out),  # more tokens than there are
        (words, starts, lens, first, counts, w, mult, np.empty((1, 3), dtype=np.uint32)),  # a row too short
        (words, starts, lens, first, counts, 0, mult, out),  # no shingle width
    ]
    for bad in beyond:
        with pytest.raises(ValueError):
            native.LOOPS.sketch_spans(*bad)
    with pytest.raises(ValueError):
        native.LOOPS.token_keys(words[:1], starts, lens, np.empty(2, dtype=np.uint64))
    with pytest.raises(ValueError):
        native.LOOPS.token_keys(words, starts, lens, np.empty(7, dtype=np.uint8))  # not whole 8-byte items
    srt, pos, off = np.zeros(3, dtype=np.uint64), np.array([0, 1, 2], dtype=np.int64), np.array([0, 3], dtype=np.int64)
    ci, cj = np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64)
    with pytest.raises(IndexError):  # a pair names a document that is not there
        native.LOOPS.covered_batch(srt, pos, off, np.array([0]), np.array([1]), 2, ci, cj)
    with pytest.raises(ValueError):  # a run placed beyond its document
        native.LOOPS.covered_batch(srt, np.array([0, 1, 3], dtype=np.int64), off, np.array([0]), np.array([0]),
                                   2, ci, cj)
    with pytest.raises(ValueError):  # runs that do not match the counts
        native.LOOPS.sorted_runs(np.zeros(4, dtype=np.uint64), np.array([0], dtype=np.int64),
                                 np.array([4], dtype=np.int64), 2, np.array([0, 2], dtype=np.int64),
                                 np.empty(2, dtype=np.uint64), np.empty(2, dtype=np.int64))
    with pytest.raises(TypeError):  # an array the loop would write is read-only
        ro = np.empty((1, 4), dtype=np.uint32)
        ro.flags.writeable = False
        native.LOOPS.sketch_spans(*args[:7], ro)


def test_turned_off_or_unconfigured():
    """``NDD_NATIVE_KERNELS=0`` leaves the C loops unused; the module itself refuses to run
    before ``core.native`` has given it the hashing constants."""
    from fresh_python import fresh_python

    off = fresh_python(
        "import os\n"
        "os.environ['NDD_NATIVE_KERNELS'] = '0'\n"
        "from ndd_desktop.core import native\n"
        "print(native.LOOPS)\n"
    )
    assert off.split() == ["None"]
    bare = fresh_python(
        "import numpy as np\n"
        "from ndd_desktop.core import _native\n"
        "try:\n"
        "    _native.token_keys(np.zeros(2, dtype=np.uint64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),"
        " np.zeros(0, dtype=np.uint64))\n"
        "except RuntimeError as exc:\n"
        "    print('refused:', exc)\n"
    )
    assert bare.startswith("refused:") and "configure" in bare


def test_the_stat_of_a_folders_entries_is_the_systems(tmp_path):
    """``stat_names`` (the walk's folders of plain files) gives what ``os.stat`` without
    following links gives, for a file, a folder, a link and a name that is not there."""
    import errno
    import os

    (tmp_path / "f.txt").write_text("four")
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "f.txt", tmp_path / "link")
    odd = os.fsdecode(b"bad-\xff.txt")
    (tmp_path / odd).write_bytes(b"12345")
    names = ["f.txt", "sub", "link", odd, "gone"]
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        modes, sizes, mtimes, errs = native.stat_names(fd, names)
    finally:
        os.close(fd)
    for k, name in enumerate(names[:4]):
        st = os.stat(tmp_path / name, follow_symlinks=False)
        assert (modes[k], sizes[k], mtimes[k], errs[k]) == (st.st_mode, st.st_size, st.st_mtime_ns, 0), name
    assert errs[4] == errno.ENOENT and modes[4] == 0
    empty = np.empty(1, dtype=np.int64)
    with pytest.raises(ValueError):  # two names for one place
        native.LOOPS.stat_names(0, b"a\0b\0", np.empty(1, dtype=np.uint32), empty, empty, np.empty(1, dtype=np.int32))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.sampled_from(list("ab cdé日😂\u0301-")), max_size=400), min_size=1, max_size=8),
       st.sampled_from([(5, 128), (2, 8), (4, 16), (12, 64)]))
def test_bottomk_sketches_are_numpys(texts, nk):
    """bottomk's C loop against its numpy definition, text by text: short texts (one
    window), texts of few distinct grams (the loop's second path), beyond the BMP."""
    from ndd_desktop.core.methods import get_method
    from ndd_desktop.core.normalize import normalize

    n, k = nk
    m = get_method("bottomk")
    params = m.params({"n": n, "k": k})
    texts = [normalize(t) for t in texts] + ["a" * 900, "ab" * 700, "x"]
    got = m.sketch_many(texts, params)
    for text, row in zip(texts, got):
        want = m.sketch(text, params)
        assert row.dtype == want.dtype == np.uint64 and np.array_equal(row, want), text[:40]


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=0, max_size=600), st.sampled_from([1, 2, 8, 64, 65]))
def test_block_checksums_are_numpys(data, size):
    """fingerprint's block checksums (the rolling C loop) against hash_bytes_windows."""
    from ndd_desktop.core.hashing import hash_bytes_windows
    from ndd_desktop.core.methods.fingerprint import window_checksums

    want = (hash_bytes_windows(data, size) >> np.uint64(32)).astype(np.uint32)
    got = window_checksums(data, size)
    assert got.dtype == np.uint32 and np.array_equal(got, want)


def test_fingerprints_are_numpys_for_short_long_and_wide_texts(monkeypatch):
    """Whole fingerprints with the C checksums and without (numpy's path): texts shorter
    than a block, beyond ASCII, and one longer than the 1 MB slices a long text is read in."""
    import random

    from ndd_desktop.core.methods import get_method

    rng = random.Random(3)
    words = ["alpha", "beta", "gamma", "délta", "😂", "x"]
    texts = ["", "a", "x" * 63, "y" * 65, " ".join(rng.choice(words) for _ in range(900)),
             " ".join(rng.choice(words) for _ in range(230_000))]  # ~1.3 MB
    m = get_method("fingerprint")
    params = m.params({})
    with_c = m.sketch_many(texts, params)
    monkeypatch.setattr(native, "LOOPS", None)
    without = m.sketch_many(texts, params)
    assert all(np.array_equal(a, b) for a, b in zip(with_c, without))
    assert len(texts[-1].encode()) > 1 << 20
