"""The code point table filled in as code points are met (core.code_point_classes) gives,
for every code point and in whatever order they are asked, what the tokenizer's rules say:
a word character is alphanumeric, "_" or a combining mark; scripts written without spaces
are their blocks; a mark is Unicode category M*."""

import subprocess
import sys
import unicodedata

import numpy as np

from ndd_desktop.core.code_point_classes import KNOWN, MARK, NOSPACE, WORD


def _expected(cp: int) -> int:
    ch = chr(cp)
    mark = unicodedata.category(ch).startswith("M")
    word = ch.isalnum() or ch == "_" or mark
    nospace = word and any(lo <= cp <= hi for lo, hi in (
        (0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x3040, 0x30FF),
        (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xAC00, 0xD7AF)))
    return KNOWN | (WORD if word else 0) | (NOSPACE if nospace else 0) | (MARK if mark else 0)


def test_known_characters():
    from ndd_desktop.core.code_point_classes import classes, is_word

    cps = np.array([ord(c) for c in "a_1 .\u0301\u4e2d\u0e01\uac00\u00e9\u2014\U0001d400"], dtype=np.uint32)
    flags = classes(cps)
    assert [bool(f & WORD) for f in flags] == [True, True, True, False, False, True, True, True, True, True, False, True]
    assert [bool(f & NOSPACE) for f in flags] == [False] * 6 + [True, True, True] + [False] * 3
    assert [bool(f & MARK) for f in flags] == [False] * 5 + [True] + [False] * 6
    assert is_word(cps).tolist() == [bool(f & WORD) for f in flags]
    assert is_word(np.array([ord("a"), ord("-"), 0xE9], dtype=np.uint8)).tolist() == [True, False, True]


def test_every_code_point_in_random_batches():
    """Run in a fresh process, so that no other test has filled the table in first."""
    script = """
import numpy as np
from ndd_desktop.core.code_point_classes import classes
rng = np.random.default_rng(7)
order = rng.permutation(0x110000)
out = np.zeros(0x110000, dtype=np.uint8)
lo = 0
while lo < order.shape[0]:
    hi = lo + int(rng.integers(1, 200_000))
    batch = order[lo:hi]
    batch = np.concatenate((batch, order[: int(rng.integers(0, 50))]))  # some asked again
    out[batch] = classes(batch.astype(np.uint32))
    lo = hi
import sys
sys.stdout.buffer.write(out.tobytes())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, timeout=120)
    got = np.frombuffer(done.stdout, dtype=np.uint8)
    expected = np.fromiter((_expected(c) for c in range(0x110000)), dtype=np.uint8, count=0x110000)
    wrong = np.flatnonzero(got != expected)
    assert wrong.shape[0] == 0, [hex(int(c)) for c in wrong[:10]]
