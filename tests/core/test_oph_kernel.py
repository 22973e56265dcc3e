"""The compiled one-permutation rounds and band keys (core.oph_kernel) against a plain
numpy formulation of the same definition (the code they replaced), bit for bit."""

import numpy as np
import pytest

from ndd_desktop.core.hashing import mix64
from ndd_desktop.core.oph import SCREEN_ROUND, flat_batch, flat_round, oph_signatures, round_seed
from ndd_desktop.core.oph_kernel import densify_rows
from ndd_desktop.core.set_lsh import band_keys

_U32 = np.uint32(0xFFFFFFFF)
_GOLDEN32 = np.uint32(0x9E3779B1)


def fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finaliser, written out."""
    h = h.copy()
    with np.errstate(over="ignore"):
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    return h


def reference_densify(vals: np.ndarray) -> np.ndarray:
    """Each empty bin (2^32 - 1) takes fmix32(v + d * golden) of the first filled bin at
    distance d after it, circularly; rows with no filled bin unchanged. One bin at a time."""
    out = vals.copy()
    rows, bins = vals.shape
    for r in range(rows):
        filled = vals[r] != _U32
        if not filled.any():
            continue
        for c in np.flatnonzero(~filled):
            d = next(d for d in range(1, bins) if filled[(c + d) % bins])
            with np.errstate(over="ignore"):
                out[r, c] = fmix32(np.array([vals[r, (c + d) % bins] + np.uint32(d) * _GOLDEN32], np.uint32))[0]
    return out


def reference_round(sets: list[np.ndarray], k: int, bins: int) -> np.ndarray:
    """Round k by numpy: permute by the round's multiplier, scattered minimum per bin."""
    lens = np.array([s.shape[0] for s in sets], dtype=np.int64)
    flat = np.concatenate(sets).astype(np.uint32) if sets else np.empty(0, np.uint32)
    with np.errstate(over="ignore"):
        h = flat * round_seed(k)
    slot = (h >> np.uint32(32 - int(np.log2(bins)))).astype(np.int64) + np.repeat(np.arange(len(sets)) * bins, lens)
    vals = np.full(len(sets) * bins, _U32, dtype=np.uint32)
    np.minimum.at(vals, slot, h)
    return reference_densify(vals.reshape(len(sets), bins))


def reference_band_keys(sets: list[np.ndarray], g: int, r: int, bins: int) -> np.ndarray:
    keys = np.zeros((len(sets), bins), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(r):
            keys *= np.uint64(0x100000001B3)
            keys += reference_round(sets, g * r + k, bins)
    return mix64(keys ^ np.arange(bins, dtype=np.uint64)[None, :], 0x5E7 + 2 + g)


def random_sets(seed: int, sizes) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [np.unique(rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32)) for size in sizes]


def value_permuted_to(target: int, k: int) -> np.uint32:
    """The value that round k permutes to ``target``."""
    return np.uint32(target * pow(int(round_seed(k)), -1, 1 << 32) % (1 << 32))


@pytest.mark.parametrize("bins", [2, 16, 128, 512])
def test_round_matches_the_numpy_definition(bins):
    sizes = [0, 1, 2, 3, 7, bins // 2, bins, 5 * bins, 2500, 0, 1]
    sets = random_sets(bins, sizes)
    # a value the round permutes to 2^32 - 1, alone in its set: its bin looks empty
    sets.append(np.array([value_permuted_to(0xFFFFFFFF, 3)], np.uint32))
    for k in (0, 3, 17, SCREEN_ROUND):
        flat, off = flat_batch(sets)
        got = flat_round(flat, off, k, bins)
        assert np.array_equal(got, reference_round(sets, k, bins)), k
    assert (flat_round(*flat_batch(sets), 3, bins)[-1] == _U32).all()
    assert (got[0] == _U32).all() and (got[1] != _U32).all()


@pytest.mark.parametrize("bins,r", [(16, 1), (128, 6), (512, 8)])
def test_band_keys_match_the_numpy_definition(bins, r):
    sets = random_sets(7 + r, [1, 2, 5, 40, bins, 3000, 1, 600])
    for g in (0, 1):
        assert np.array_equal(band_keys(sets, g, r, bins), reference_band_keys(sets, g, r, bins)), g


def test_band_keys_of_a_document_do_not_depend_on_its_batch():
    sets = random_sets(3, [300, 5, 2000, 1, 70])
    whole = band_keys(sets, 1, 4, 128)
    for k, s in enumerate(sets):
        assert np.array_equal(band_keys([s], 1, 4, 128)[0], whole[k])


def test_64_bit_sets_are_folded_to_32_bits():
    rng = np.random.default_rng(5)
    wide = [np.unique(rng.integers(0, 2**63, n, dtype=np.int64).astype(np.uint64)) for n in (3, 300)]
    folded = [((s ^ (s >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32) for s in wide]
    assert np.array_equal(band_keys(wide, 0, 3, 128), reference_band_keys(folded, 0, 3, 128))


def test_signatures_of_chosen_documents_with_empty_ones():
    sets = random_sets(11, [0, 400, 3, 0, 2500, 60])
    docs = np.array([4, 0, 1, 5, 2, 3, 1])
    lens = np.array([sets[d].shape[0] for d in docs])
    got = oph_signatures(sets, docs, lens, 128)
    want = reference_round([sets[d] for d in docs], SCREEN_ROUND, 128)
    assert np.array_equal(got, want)
    assert (got[1] == _U32).all() and (got[5] == _U32).all()


def test_densify_borrows_the_next_filled_bin_circularly():
    rng = np.random.default_rng(13)
    bins = 16
    vals = rng.integers(0, 2**32 - 1, (40, bins), dtype=np.uint64).astype(np.uint32)
    filled = rng.random((40, bins)) < rng.uniform(0.0, 1.0, (40, 1))
    filled[0], filled[1], filled[2] = False, False, False
    filled[1, 0], filled[2, bins - 1] = True, True  # a lone bin at either end of the row
    vals[~filled] = _U32
    out = vals.copy()
    densify_rows(out)
    assert (out[0] == _U32).all()  # no filled bin: left alone
    for r in range(1, 40):
        for c in range(bins):
            if filled[r, c] or not filled[r].any():
                assert out[r, c] == vals[r, c]
                continue
            d = next(d for d in range(1, bins + 1) if filled[r, (c + d) % bins])
            with np.errstate(over="ignore"):
                want = fmix32(np.array([vals[r, (c + d) % bins] + np.uint32(d) * _GOLDEN32], dtype=np.uint32))
            assert out[r, c] == want[0], (r, c)


def test_bins_must_be_a_power_of_two():
    flat, off = flat_batch(random_sets(1, [10]))
    with pytest.raises(ValueError):
        flat_round(flat, off, 0, 96)


def test_packed_words_straight_from_the_kernel():
    from ndd_desktop.core.band_words import DOC_BITS, band_words
    from ndd_desktop.core.set_lsh import flat_band_keys

    sets = random_sets(17, [3, 900, 40, 1, 2000])
    docs = np.array([5, 0, (1 << DOC_BITS) - 1, 77, 123456], dtype=np.int64)
    want, _ = band_words(band_keys(sets, 1, 8, 512), docs, 1 << 20)
    got = flat_band_keys(*flat_batch(sets), 1, 8, 512, docs, DOC_BITS)
    assert np.array_equal(got.reshape(-1), want)
    out = np.empty((5, 512), dtype=np.uint64)
    flat_band_keys(*flat_batch(sets), 1, 8, 512, docs, DOC_BITS, out)
    assert np.array_equal(out, got)


def test_agreements_count_equal_bins():
    from ndd_desktop.core.oph_kernel import agreements

    rng = np.random.default_rng(4)
    sig = rng.integers(0, 4, (30, 128)).astype(np.uint32)
    a, b = rng.integers(0, 30, 500), rng.integers(0, 30, 500)
    assert agreements(sig, a, b).tolist() == [int((sig[x] == sig[y]).sum()) for x, y in zip(a, b)]


def test_the_banded_search_warms_up_without_scipy_linalg_and_once():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ndd_desktop.core import set_lsh\n"
        "set_lsh.warm()\n"
        "print('scipy.linalg' in sys.modules, 'scipy.linalg.cython_blas' in sys.modules)\n"
        "calls = []\n"
        "set_lsh.lsh_pairs = lambda *a, **k: calls.append(1)\n"  # a second warm-up runs nothing
        "set_lsh.warm()\n"
        # the stand-in that refused BLAS is gone: a later import of SciPy works as usual
        "print(len(calls), sys.modules.get('scipy.linalg.cython_blas', 'gone'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    # (where SciPy is installed, numba would have imported scipy.linalg for its BLAS)
    assert out == ["False", "False", "0", "gone"]


def test_signatures_kept_for_a_second_asker_are_the_ones_it_would_make(monkeypatch):
    """Within signature_memo.signatures_kept the first call makes every document's
    signature once; a later call (other documents, the same sketches and bins) takes its
    rows without making any. Outside the block, and for a collection over KEEP_UP_TO,
    each call makes its own."""
    from ndd_desktop.core import oph, signature_memo

    rng = np.random.default_rng(4)
    sketches = [np.unique(rng.integers(0, 2**32, int(rng.integers(0, 400)), dtype=np.uint64)).astype(np.uint32)
                for _ in range(60)]
    sketches[7] = np.empty(0, np.uint32)
    sizes = np.array([s.shape[0] for s in sketches])
    made = []
    real = oph._signatures
    monkeypatch.setattr(oph, "_signatures", lambda *a: made.append(len(a[1])) or real(*a))
    first, second = np.array([3, 7, 20]), np.arange(0, 60, 2)
    want_first, want_second = real(sketches, first, sizes[first], 64), real(sketches, second, sizes[second], 64)
    with signature_memo.signatures_kept():
        assert np.array_equal(oph_signatures(sketches, first, sizes[first], 64), want_first)
        assert np.array_equal(oph_signatures(sketches, second, sizes[second], 64), want_second)
        assert made == [60]  # every document once, then rows
        oph_signatures(list(sketches), first, sizes[first], 64)  # other sketches: made again
        assert made == [60, 60]
    assert np.array_equal(oph_signatures(sketches, first, sizes[first], 64), want_first)
    assert made == [60, 60, 3]
    monkeypatch.setattr(signature_memo, "KEEP_UP_TO", 59)
    with signature_memo.signatures_kept():
        oph_signatures(sketches, first, sizes[first], 64)
        oph_signatures(sketches, first, sizes[first], 64)
    assert made == [60, 60, 3, 3, 3]
