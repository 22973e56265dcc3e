"""How stored texts are compressed: zstd frames with the collection's own dictionary.

A document of a few KB is too short for a compressor to learn its language from it alone
(zlib level 1 and zstd level 3 both keep about 52 % of English-like text). A dictionary
trained once on the collection's first texts holds the common words and their
neighbourhoods, so every later text is coded against it: about 41 % at the same speed.
The dictionary is kept in the collection (table ``text_dictionaries``, one row per
dictionary, never changed), and every frame names its dictionary by id, so a text stays
readable whatever dictionary is current. A collection whose first writes are too small to
train on writes frames without one until a batch is large enough.

Texts written before (schema 0006 and earlier) are zlib streams; they are told apart by
zstd's magic number and read as before until the migration to 0007 recompresses them.
Every frame carries a checksum, so a damaged text fails to decompress (StoreDamaged)
instead of reading as other words.
"""

from __future__ import annotations

import bisect
import itertools
import threading
import time
import zlib
from typing import Callable, Sequence

import zstandard

#: zstd level of stored texts: higher levels gain a few percent at several times the time.
LEVEL = 3
#: Largest size of a trained dictionary (zstd's default); at most a quarter of the
#: texts it is trained on.
DICT_SIZE = 112_640
#: Texts needed (in one write) to train a dictionary; fewer give a poor one.
TRAIN_MIN_TEXTS = 100
TRAIN_MIN_BYTES = 128 * 1024
#: Texts a dictionary is trained on at most, and their bytes at most (100 times the
#: dictionary, zstd's advice).
TRAIN_MAX_TEXTS = 1000
TRAIN_MAX_BYTES = 100 * DICT_SIZE
#: zstd's fastCover trainer with its segment and d-mer sizes fixed (k=200, d=8) and one
#: step instead of searching 40 pairs of them: 0.2 s instead of 0.9-1.6 s for 1,000
#: texts, within 2 % of the searched dictionary's ratio on English, German and Spanish
#: collections (0.415 both on bench_scan's corpus; docs/performance.md).
TRAIN_OPTIONS = {"k": 200, "d": 8, "steps": 1}
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"

#: A damaged stored text raises one of these.
TEXT_ERRORS = (zlib.error, zstandard.ZstdError)


class TextCodec:
    """Compression of one collection's texts, with its dictionaries cached (they never
    change once written). Safe to share between threads: decompressors are kept per
    thread, a compressor is made per write."""

    def __init__(self) -> None:
        self._dicts: dict[int, zstandard.ZstdCompressionDict] = {}
        self._lock = threading.Lock()
        # decompressors by dictionary id, per thread (one is not safe to share, and making
        # one loads its dictionary: 0.1 ms, more than decompressing a text)
        self._local = threading.local()

    def remember(self, dict_id: int, data: bytes) -> zstandard.ZstdCompressionDict:
        """The dictionary of a ``text_dictionaries`` row, cached."""
        with self._lock:
            d = self._dicts.get(dict_id)
            if d is None:
                d = self._dicts[dict_id] = zstandard.ZstdCompressionDict(data)
            return d

    def decoder(self, fetch: Callable[[int], bytes | None]) -> Callable[[bytes], str]:
        """A function from a stored blob to its text; ``fetch(dict_id)`` reads a dictionary
        row that is not cached yet (None when missing: the text counts as damaged)."""
        by_dict = self._local.__dict__.setdefault("by_dict", {})

        def decode(blob: bytes) -> str:
            blob = bytes(blob)
            if not blob.startswith(ZSTD_MAGIC):
                return zlib.decompress(blob).decode("utf-8", "surrogatepass")
            dict_id = zstandard.get_frame_parameters(blob).dict_id
            dctx = by_dict.get(dict_id)
            if dctx is None:
                if dict_id == 0:
                    dctx = zstandard.ZstdDecompressor()
                else:
                    d = self._dicts.get(dict_id)
                    if d is None:
                        data = fetch(dict_id)
                        if data is None:
                            raise zstandard.ZstdError(f"the text's dictionary {dict_id} is missing")
                        d = self.remember(dict_id, data)
                    dctx = zstandard.ZstdDecompressor(dict_data=d)
                by_dict[dict_id] = dctx
            return dctx.decompress(blob).decode("utf-8", "surrogatepass")

        return decode


def encoder(dictionary: zstandard.ZstdCompressionDict | None) -> Callable[[str], bytes]:
    """A function from a text to its stored blob, coded against ``dictionary`` (or none)."""
    cctx = zstandard.ZstdCompressor(level=LEVEL, dict_data=dictionary, write_checksum=True,
                                    write_content_size=True, write_dict_id=True)
    return lambda text: cctx.compress(text.encode("utf-8", "surrogatepass"))


def train(samples: Sequence[bytes]) -> zstandard.ZstdCompressionDict | None:
    """A dictionary trained on these texts (UTF-8), or None when they are too few or too
    small to train one on."""
    samples = [s for s in samples if s][:TRAIN_MAX_TEXTS]
    ends = list(itertools.accumulate(map(len, samples)))
    samples = samples[: max(TRAIN_MIN_TEXTS, bisect.bisect_right(ends, TRAIN_MAX_BYTES))]
    total = sum(map(len, samples))
    if len(samples) < TRAIN_MIN_TEXTS or total < TRAIN_MIN_BYTES:
        return None
    try:
        return zstandard.train_dictionary(min(DICT_SIZE, total // 4), samples, level=LEVEL, **TRAIN_OPTIONS)
    except zstandard.ZstdError:  # zstd found nothing worth a dictionary
        return None


def current_dictionary(cur, codec: TextCodec) -> zstandard.ZstdCompressionDict | None:
    """The collection's newest dictionary, read with a raw sqlite3 cursor (None: none yet)."""
    row = cur.execute("SELECT id, data FROM text_dictionaries ORDER BY created DESC, id DESC LIMIT 1").fetchone()
    return None if row is None else codec.remember(int(row[0]), bytes(row[1]))


def dictionary_for(cur, codec: TextCodec, texts: Sequence[str]) -> zstandard.ZstdCompressionDict | None:
    """The collection's dictionary, inside a write transaction (a raw sqlite3 cursor):
    trained on ``texts`` and stored first when the collection has none and they are
    enough to train on (None otherwise)."""
    dictionary = current_dictionary(cur, codec)
    if dictionary is None and len(texts) >= TRAIN_MIN_TEXTS:
        raw = [t.encode("utf-8", "surrogatepass") for t in texts[:TRAIN_MAX_TEXTS]]
        dictionary = train(raw)
        if dictionary is not None:
            dict_id = dictionary.dict_id()
            cur.execute("INSERT OR IGNORE INTO text_dictionaries (id, created, data) VALUES (?, ?, ?)",
                        (dict_id, time.time(), dictionary.as_bytes()))
            dictionary = codec.remember(dict_id, dictionary.as_bytes())
    return dictionary


def encode_texts(cur, codec: TextCodec, texts: Sequence[str]) -> list[bytes]:
    """The blobs to store for ``texts``, inside a write transaction (a raw sqlite3 cursor):
    with the collection's dictionary (see :func:`dictionary_for`)."""
    encode = encoder(dictionary_for(cur, codec, texts))
    return [encode(t) for t in texts]


def encoder_of(data: bytes | None) -> Callable[[str], bytes]:
    """:func:`encoder` for a dictionary's stored bytes (None: no dictionary); for a process
    that holds no store, such as an extraction worker. Its frames are what
    :func:`encode_texts` writes with that dictionary."""
    return encoder(None if data is None else zstandard.ZstdCompressionDict(data))


def dictionary_fetcher(cur) -> Callable[[int], bytes | None]:
    """``fetch`` for :meth:`TextCodec.decoder` over a raw sqlite3 cursor or SQLAlchemy
    connection (``exec_driver_sql``)."""
    run = getattr(cur, "exec_driver_sql", None) or cur.execute

    def fetch(dict_id: int) -> bytes | None:
        row = run("SELECT data FROM text_dictionaries WHERE id = ?", (int(dict_id),)).fetchone()
        return None if row is None else bytes(row[0])

    return fetch
