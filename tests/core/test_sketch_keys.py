"""Stored sketches are found by their sketch key: a change of a method's sketch output must
change that key, or stores would mix old and new sketches.

Each method's key and the digest of its sketch of one text are pinned together as literals.
A change that alters the sketch fails here; the fix is to raise the method's
``sketch_version`` (which changes the key, so stores sketch again) and pin both new values.
"""

from __future__ import annotations

import hashlib

import pytest

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.normalize import normalize

# Common words only (the hybrid method corrects against wordfreq's list), a repeat to
# collapse, and words with combining marks (the last sketch change).
TEXT = "Gooood morning: the parish minutes of 1820 were read and approved, किताब and café."

#: method -> (sketch key of the default parameters, sha256[:16] of the sketch's bytes)
PINNED = {
    # normalization 2 (soft hyphens and accents removed: "café" is "cafe") changed them all,
    # and normalization 3 (letters written two ways, words broken at a line's end) the keys
    "exact": ("81fad3d96604731e", "e53c46307e1e8aa1"),
    "qgram": ("e0b36c692a7246d4", "30fe0620dfb932d6"),
    "minhash": ("46193a0c406f07e2", "ef6270d4ec487890"),
    "bottomk": ("e8360a4c0bc49e0d", "e463be44bce1e103"),
    "hybrid": ("89b4f173ea1b9864", "7491405c1a0f049b"),
    "fingerprint": ("be968f9978107666", "e7cbbc3ddaf348f6"),
}


def key_and_digest(name: str) -> tuple[str, str]:
    m = get_method(name)
    p = m.params()
    sketch = m.sketch(normalize(TEXT), p)
    return m.sketch_key(p), hashlib.sha256(m.to_bytes(sketch)).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_sketch_output_and_sketch_key_change_together(name):
    key, digest = key_and_digest(name)
    pinned_key, pinned_digest = PINNED[name]
    assert key == pinned_key, f"{name}: the sketch key changed (stores will sketch again): pin {key}"
    assert digest == pinned_digest, (
        f"{name}: the sketch of the same text changed ({digest}) under the same key: raise "
        f"sketch_version so stored sketches are not reused, then pin the new key and digest")


def test_a_new_sketch_version_gives_a_new_key():
    m = get_method("minhash")
    p = m.params()
    bumped = type("Bumped", (type(m),), {"sketch_version": m.sketch_version + 1})()
    assert bumped.sketch_key(p) != m.sketch_key(p)
    assert len(bumped.sketch_key(p)) == 16


def test_a_parameter_of_the_sketch_changes_the_key_and_one_of_the_search_does_not():
    m = get_method("qgram")
    p = m.params()
    assert m.sketch_key(m.params({"q": 3})) != m.sketch_key(p)
    # the threshold measure does not change what is sketched
    assert m.sketch_key(m.params({"measure": "containment"})) == m.sketch_key(p)


def test_version_one_keys_changed_with_the_normalization():
    # exact, bottomk and fingerprint never changed their sketches, and their keys were the
    # bare parameter hashes (bf21a9e8fbc5a384, 1ef63411115928b2) until normalization 2 made
    # every store sketch again (literal values; normalization 3 once more)
    assert get_method("exact").sketch_key(get_method("exact").params()) == "81fad3d96604731e"
    fp = get_method("fingerprint")
    assert fp.sketch_key(fp.params({"search_radius": 10})) == "be968f9978107666"  # not a sketch parameter
