"""The compiled loop of MinHash word sketches gives numpy's rows bit for bit, in C
(``core.native``) and in numba's version, and the scan's workers have it when their server
loaded it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core import minhash_kernel, native
from ndd_desktop.core.methods import get_method, method_names
from ndd_desktop.core.minhash_sketch import sketch_extracted, sketch_matrix
from ndd_desktop.core.normalize import normalize

# Texts made to reach every branch of the loop: no token, fewer tokens than a shingle,
# tokens of 8, 9, 16, 17 and 30 bytes (the key's pieces), repeated shingles (the distinct
# count), white space of every kind, words broken at a line's end, capitals, and texts
# beyond ASCII (accents, a script without spaces, marks, an emoji, wide spaces).
BRANCHES = [
    "",
    "   \t\n ",
    "!!! ... ???",
    "one",
    "one two",
    "one two three",
    "abcdefgh abcdefghi abcdefghijklmnop abcdefghijklmnopq " + "x" * 30,
    "the cat the cat the cat the cat sat",
    "Tabs\tand\nnew\r\nlines   and  runs     of spaces\x0bvertical\x0cfeed",
    "a docu-\nment broken at the line's end, Anglo-\nSaxon and 1990-\n1995 kept",
    "UPPER lower MiXeD under_score digits 0123456789 x1y2",
    "café crème brûlée naïve Ångström",
    "日本語のテキストは空白なしで書かれる 中文也一样",
    "e\u0301 combining marks a\u0308 and \U0001F600 an emoji",
    "wide\u2028line\u2029para\x85next\u1680ogham spaces",
    "soft\u00adhyphen and Ｆｕｌｌｗｉｄｔｈ letters",
    " ".join(f"w{k % 97}" for k in range(5000)),  # a long text (the hash table grows)
]


def _numpy_rows(monkeypatch, texts, w, t):
    with monkeypatch.context() as m:
        m.setattr(minhash_kernel, "functions", lambda n: None)
        return sketch_matrix([normalize(x) for x in texts], "words", w, t)


@pytest.fixture(scope="module", params=["c", "numba"])
def loaded(request):
    """Each test that takes it runs with the C loops and with numba's (the C ones set aside)."""
    with pytest.MonkeyPatch.context() as m:
        if request.param == "numba":
            m.setattr(native, "LOOPS", None)
            minhash_kernel.load()
            assert minhash_kernel.ready() is minhash_kernel.compiled()
        else:  # setup.py builds them wherever a C compiler is found, as on every test machine
            assert native.LOOPS is not None, "the C extension core/_native.c is not built"
            assert minhash_kernel.ready() is native.WordSketches
        yield request.param


@pytest.mark.parametrize("w,t", [(3, 128), (1, 16), (2, 1), (5, 64)])
def test_compiled_rows_are_numpys(monkeypatch, loaded, w, t):
    expected = _numpy_rows(monkeypatch, BRANCHES, w, t)
    normalised = [normalize(x) for x in BRANCHES]
    assert np.array_equal(sketch_matrix(normalised, "words", w, t), expected)
    # from the extracted texts: ASCII ones folded only, their white space not collapsed
    assert np.array_equal(sketch_extracted(BRANCHES, "words", w, t), expected)
    # one text at a time: a row does not depend on its batch
    for k, text in enumerate(BRANCHES):
        assert np.array_equal(sketch_extracted([text], "words", w, t)[0], expected[k]), text[:40]


def test_known_rows(loaded):
    """Values worked out from the definitions, not from either implementation."""
    rows = sketch_extracted(["", "one", "a b c a b c"], "words", 3, 4)
    assert rows[0].tolist() == [0xFFFFFFFF] * 4 + [0]  # no token: empty minima, no shingle
    assert rows[1][4] == 1  # fewer tokens than a shingle: one value of the whole text
    assert rows[2][4] == 3  # shingles abc, bca, cab, abc: three distinct
    # folding only: case, white space and a word broken at a line's end make no difference
    same = sketch_extracted(["A Docu-\nment  ABOUT\tcats", "a document about cats"], "words", 3, 16)
    assert np.array_equal(same[0], same[1]) and same[0][16] == 2


def test_ignored_items_are_left_out_as_normalize_leaves_them(monkeypatch, loaded):
    texts = ["see https://example.org/x and mail a@b.org about 42 items", "see and mail about items"]
    expected = _numpy_rows(monkeypatch, [normalize(x, "urls,emails,numbers") for x in texts], 3, 32)
    got = sketch_extracted(texts, "words", 3, 32, "urls,emails,numbers")
    assert np.array_equal(got, expected)
    assert np.array_equal(got[0], got[1])


_CHARS = st.sampled_from(list("abcXYZ019_ -\n\t.,;'é日\u0301\u00ad\u2028"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(_CHARS, max_size=80), min_size=1, max_size=6))
def test_random_texts(loaded, texts):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(minhash_kernel, "functions", lambda n: None)
        expected = sketch_matrix([normalize(x) for x in texts], "words", 3, 8)
    assert np.array_equal(sketch_extracted(texts, "words", 3, 8), expected)


def test_the_method_sketches_extracted_texts_as_it_sketches_normalised_ones(loaded):
    method = get_method("minhash")
    params = method.params({"t": 32})
    got = method.sketch_extracted(BRANCHES, params)
    want = method.sketch_many([normalize(x) for x in BRANCHES], params)
    assert all(np.array_equal(a, b) for a, b in zip(got, want))


def test_the_preloaded_methods_are_those_with_compiled_sketching():
    """``pipeline.kernel_preload`` names the methods without importing them; it must name
    exactly those that have compiled code to load."""
    from ndd_desktop.core.method import Method
    from ndd_desktop.pipeline.kernel_preload import METHODS, MODULE, modules_for

    own = {n for n in method_names() if type(get_method(n)).load_sketch_kernels is not Method.load_sketch_kernels}
    completed = {n for n in method_names() if get_method(n).partial_search}  # pipeline.completion's word sketches
    assert own == {"minhash"}
    assert set(METHODS) == own | completed == {"minhash", "qgram", "bottomk", "fingerprint"}
    assert modules_for("minhash") == modules_for("qgram") == (MODULE,)
    assert modules_for("hybrid") == modules_for("exact") == modules_for(None) == ()


@pytest.mark.parametrize("c_loops", ["1", "0"])
def test_a_server_preloaded_for_minhash_holds_both_kernels(c_loops):
    """What the workers' server of a minhash scan imports makes the sketch loop and the
    verification's kernel ready, so that the workers and helpers forked from it have both:
    the C ones without importing numba, or numba's where the C ones are turned off."""
    from fresh_python import fresh_python

    from ndd_desktop.cli.scan_start import SCAN_EXTRACTOR_MODULE
    from ndd_desktop.ingest.pool_server import server_preload
    from ndd_desktop.pipeline.kernel_preload import modules_for

    modules = server_preload(SCAN_EXTRACTOR_MODULE, ("ndd_desktop.ingest.formats.txt",), modules_for("minhash"))
    script = (
        "import importlib, os, sys\n"
        f"os.environ['NDD_NATIVE_KERNELS'] = {c_loops!r}\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "from ndd_desktop.core import minhash_kernel, share_kernel\n"
        "print(minhash_kernel.loaded(), share_kernel.is_loaded(), 'sqlalchemy' in sys.modules, 'numba' in sys.modules)\n"
    )
    numba = "False" if c_loops == "1" else "True"
    assert fresh_python(script).split() == ["True", "True", "False", numba]


def test_compiled_token_keys_are_numpys(monkeypatch, loaded):
    from ndd_desktop.core.batch_hashing import word_spans

    spans = word_spans([normalize(x) for x in BRANCHES])
    compiled = spans.keys()
    monkeypatch.setattr(minhash_kernel, "ready", lambda: None)
    assert np.array_equal(compiled, spans.keys())


@pytest.mark.parametrize("kernel", [True, False])
def test_the_verification_reads_the_words_of_extracted_texts_as_of_normalised_ones(monkeypatch, loaded, kernel):
    """The runs the verification compares, made from extracted texts (ASCII ones folded
    only), hold the tokens of the normalised texts, in order, with or without the kernel."""
    from ndd_desktop.core.text_share import runs_many, runs_of_extracted

    if not kernel:
        monkeypatch.setattr(minhash_kernel, "ready", lambda: None)
    want = runs_many([normalize(x) for x in BRANCHES])
    got = runs_of_extracted(BRANCHES)
    assert [r.tokens.tolist() for r in got] == [r.tokens.tolist() for r in want]
    assert got[0].words == 0 and got[5].words == 3  # "" and "one two three"
