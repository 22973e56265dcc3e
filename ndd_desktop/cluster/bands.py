"""The band keys of a candidate search, computed on Dask workers and shuffled so that
equal keys meet.

:class:`DaskBandGrouper` is installed (``core.band_grouping``) around the method's own
pair search on the client; when that search reaches its banded group-by, the sketches
(or minhash's feature keys) go to the workers in partitions, each partition's band keys
are computed there with the core's functions (``set_lsh.band_keys``,
``lsh.feature_match_rows``), a shuffle brings every key's rows into one partition, and
each partition pairs its rows with the core's run functions (``core.band_words.band_word_codes``,
``lsh.feature_run_codes``). The pair codes come back to the client, which goes on with
the method's own verification, so the candidates, and hence the answers, are those of
the local search.

Two shuffles: up to TASK_SHUFFLE_MAX (map parts x shuffle parts) each map task cuts its
rows into one bucket per shuffle part and each reduce task fetches its bucket from every
map task (in memory, fast: 20,000 documents of q-grams in 2 s against 24 s); beyond that,
Dask's dataframe shuffle (peer to peer, spilling to disk), whose number of tasks grows
linearly with the data where the first grows with its square. The task shuffle of set
sketches below WIDE documents sends plain arrays (``set_band_buckets``): each group's packed
words sorted and cut by their top bits, which are uniform hash bits, so no hash or group
column is made or sent and each reduce task merges sorted runs (a third less work than the
frames, which the other cases still use).
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np

from ..core import lsh, set_lsh
from ..core.band_words import DOC_BITS, band_word_codes, sorted_word_codes
from ..core.oph import as_u32, size_cuts
from ..core.sketch_batches import gather, sketch_sizes
from ..core.unique import sorted_unique
from .connect import cluster_lost, is_lost, worker_count

#: Sketch values (set sketches) or key entries (minhash) per map partition.
PART_VALUES = 8_000_000
#: Rows per shuffle partition (at least two partitions per worker).
SHUFFLE_ROWS = 8_000_000
#: Largest (map parts x shuffle parts) shuffled by tasks; beyond, the dataframe shuffle.
TASK_SHUFFLE_MAX = 4096
#: Group-bys of fewer rows are left to the client (the grouper declines them): one
#: distributed shuffle has a fixed cost (the scatter, two rounds of tasks) that small
#: inputs never earn back. Measured on 2 local workers, 6.4 million minhash feature rows
#: took 4.6 s on the cluster and 0.25 s on the client; 16 million rows (128 MB of keys)
#: group on any client in about a second.
CLIENT_ROWS = 1 << 24
#: Runs of a grouping step that meets a lost worker, and the wait between them.
GROUP_ATTEMPTS = 3
GROUP_RETRY_SECONDS = 1.0


#: Collections this large compare whole band keys (``core.band_words``).
WIDE = 1 << DOC_BITS


def _cat(arrays: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype, copy=False) if arrays else np.empty(0, dtype)


def _hash32(match: np.ndarray, g: int) -> np.ndarray:
    """A 32-bit partition hash of (group, match key): rows that must meet get the same."""
    folded = match ^ (match >> np.uint64(32)) ^ np.uint64(g * 0x9E3779B1)
    return (folded & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _frame(columns: dict[str, np.ndarray]):
    import pandas as pd

    return pd.DataFrame(columns, copy=False)


def set_band_rows(part: tuple[np.ndarray, np.ndarray, np.ndarray], groups: int, r: int, bins: int, n: int):
    """On a worker: the band words of a partition of set sketches (``core.band_words``),
    with their group and a partition hash of the part of the key that must match. The
    partition is (documents, their values end to end, their lengths): one buffer to ship,
    read in place by the core's kernel, which writes the packed words itself as the local
    search does (``set_lsh.flat_band_keys``)."""
    docs, flat, lens = part
    docs = np.asarray(docs, dtype=np.int64)
    flat = np.ascontiguousarray(as_u32(flat))
    off = np.zeros(lens.shape[0] + 1, dtype=np.int64)
    np.cumsum(lens, out=off[1:])
    wide = n >= WIDE
    m = docs.shape[0] * bins
    words = np.empty(groups * m, dtype=np.uint64)
    hs = np.empty(groups * m, dtype=np.uint32)
    for g in range(groups):
        rows = words[g * m : (g + 1) * m].reshape(-1, bins)
        if wide:  # whole keys, their documents in a column of their own
            set_lsh.flat_band_keys(flat, off, g, r, bins, out=rows)
            hs[g * m : (g + 1) * m] = _hash32(rows.reshape(-1), g)
        else:  # packed: the key's top bits, the document in the low DOC_BITS
            set_lsh.flat_band_keys(flat, off, g, r, bins, docs, DOC_BITS, rows)
            hs[g * m : (g + 1) * m] = _hash32(rows.reshape(-1) >> np.uint64(DOC_BITS), g)
    cols = {"h": hs, "g": np.repeat(np.arange(groups, dtype=np.uint8), m), "word": words}
    if wide:
        cols["doc"] = np.tile(np.repeat(docs, bins), groups)
    return _frame(cols)


def set_band_buckets(part: tuple[np.ndarray, np.ndarray, np.ndarray], groups: int, r: int, bins: int, n: int,
                     bits: int) -> list[list[np.ndarray]]:
    """On a worker (the task shuffle of packed words, ``n`` below WIDE): the band words of a
    partition of set sketches, each group's sorted and cut by their top ``bits`` bits into
    2**bits buckets, as ``[bucket][group]`` arrays. The keys are uniform hashes, so their
    top bits spread the words evenly and send equal keys to one bucket: no hash column, no
    group column, no frame (they cost more than the kernel that makes the words)."""
    docs, flat, lens = part
    docs = np.asarray(docs, dtype=np.int64)
    flat = np.ascontiguousarray(as_u32(flat))
    off = np.zeros(lens.shape[0] + 1, dtype=np.int64)
    np.cumsum(lens, out=off[1:])
    tops = (np.arange(1, 1 << bits, dtype=np.uint64) << np.uint64(64 - bits)) if bits else np.empty(0, np.uint64)
    out: list[list[np.ndarray]] = [[] for _ in range(1 << bits)]
    for g in range(groups):
        words = np.empty((docs.shape[0], bins), dtype=np.uint64)
        set_lsh.flat_band_keys(flat, off, g, r, bins, docs, DOC_BITS, words)
        words = words.reshape(-1)
        words.sort()
        for j, piece in enumerate(np.split(words, np.searchsorted(words, tops))):
            out[j].append(piece)
    return out


def _reduce_words(n: int, *pieces: list[np.ndarray]) -> np.ndarray:
    """On a worker (task shuffle): the pair codes of one bucket of packed words, from its
    pieces (each map part's, per group, sorted): per group, the runs merged (a stable sort
    of sorted runs is a merge) and paired."""
    codes = []
    for g in range(len(pieces[0]) if pieces else 0):
        words = np.concatenate([p[g] for p in pieces])
        words.sort(kind="stable")
        codes.append(sorted_word_codes(words, n))
    return _cat(codes, np.int64)


def set_band_codes(df, n: int):
    """On a worker: the pair codes of one shuffle partition of set band words."""
    g = df["g"].to_numpy()
    words = df["word"].to_numpy()
    owners = df["doc"].to_numpy() if "doc" in df else None
    codes = []
    for gi in sorted_unique(g).tolist():
        sel = g == gi
        codes.append(band_word_codes(words[sel], None if owners is None else owners[sel], n))
    return _frame({"code": _cat(codes, np.int64)})


def feature_rows(part: tuple[int, np.ndarray], n: int):
    """On a worker: the (round, match key, row) entries of a block of minhash feature keys."""
    row0, keys = part
    rounds, match, rows = lsh.feature_match_rows(keys, row0, n)
    return _frame({"round": rounds, "key": match, "row": rows})


def feature_codes(df, n: int, max_bucket: int | None):
    """On a worker: the pair codes (one per shared key) of one shuffle partition of feature entries."""
    codes = lsh.feature_run_codes(df["round"].to_numpy(), df["key"].to_numpy(), df["row"].to_numpy(), n, max_bucket)
    return _frame({"code": codes})


def _buckets(make_rows, part, row_args: tuple, on: str, nparts: int) -> list:
    """On a worker (task shuffle): the rows of a part cut into ``nparts`` buckets by ``on``."""
    df = make_rows(part, *row_args)
    # bucket numbers of 16 bits: numpy's stable sort is then a radix sort, linear
    bucket = (df[on].to_numpy().astype(np.uint64, copy=False) % np.uint64(nparts)).astype(
        np.uint16 if nparts <= 1 << 16 else np.int64)
    order = np.argsort(bucket, kind="stable")
    cuts = np.searchsorted(bucket[order], np.arange(nparts + 1))
    df = df.iloc[order]
    return [df.iloc[cuts[j] : cuts[j + 1]] for j in range(nparts)]


def _bucket(buckets: list, j: int):
    return buckets[j]


def _reduce(pair_rows, pair_args: tuple, *pieces):
    """On a worker (task shuffle): the pair codes of one shuffle part, from its pieces."""
    import pandas as pd

    df = pd.concat(pieces, ignore_index=True) if len(pieces) > 1 else pieces[0]
    return pair_rows(df, *pair_args)["code"].to_numpy()


class DaskBandGrouper:
    """A :class:`core.band_grouping.BandGrouper` that runs on a Dask client's cluster;
    ``shuffle``: "auto" (see the module docstring), "tasks" or "p2p"; group-bys of fewer
    than ``client_rows`` rows are declined (None: the client's own code groups them)."""

    def __init__(self, client: Any, shuffle: str = "auto", client_rows: int = CLIENT_ROWS) -> None:
        self.client, self.shuffle, self.client_rows = client, shuffle, client_rows
        #: What the last search shipped and shuffled (for the benchmark).
        self.stats: dict[str, Any] = {}

    def set_band_codes(self, sketches: Sequence[np.ndarray], live: np.ndarray, groups: int, r: int,
                       bins: int) -> np.ndarray | None:
        """See :class:`core.band_grouping.BandGrouper`."""
        n = len(sketches)
        if live.shape[0] * bins * groups < self.client_rows:
            self.stats = {"shuffle": "client", "rows": int(live.shape[0] * bins * groups)}
            return None
        # sizes without reading the sketches, and each part's values in one read (a
        # collection's sketches may wait in the scan's spool file: core.sketch_batches)
        lens = np.asarray(sketch_sizes(sketches), dtype=np.int64)[live]
        cuts = self._cuts(np.cumsum(lens), int(lens.sum()))
        parts = []
        for a, b in zip(cuts[:-1], cuts[1:]):
            docs = live[a:b]
            parts.append((docs, gather(sketches, docs)[0], lens[a:b]))
        meta = set_band_rows((np.empty(0, np.int64), np.empty(0, np.uint32), np.empty(0, np.int64)), 0, r, bins, n)
        rows = live.shape[0] * bins * groups
        # packed words shuffled by tasks go as sorted arrays (set_band_buckets); whole keys
        # and the dataframe shuffle go as frames
        arrays = (set_band_buckets, (groups, r, bins, n), _reduce_words, (n,)) if n < WIDE else None
        codes = self._group(parts, set_band_rows, (groups, r, bins, n), meta, set_band_codes, (n,), rows, "h",
                            arrays)
        self.stats.update(values=int(lens.sum()), rows=rows, codes=int(codes.shape[0]))
        return set_lsh.sorted_unique_codes([codes])

    def feature_pairs(self, keys: np.ndarray, r: int, max_bucket: int | None) -> np.ndarray | None:
        """See :class:`core.band_grouping.BandGrouper`."""
        n, k = keys.shape
        if n * k < self.client_rows:
            self.stats = {"shuffle": "client", "rows": int(n * k)}
            return None
        cuts = self._cuts(np.arange(1, n + 1, dtype=np.int64) * k, n * k)
        parts = [(a, keys[a:b]) for a, b in zip(cuts[:-1], cuts[1:])]
        meta = _frame({"round": np.empty(0, np.int64), "key": np.empty(0, np.uint64), "row": np.empty(0, np.int64)})
        codes = self._group(parts, feature_rows, (n,), meta, feature_codes, (n, max_bucket), n * k, "key")
        self.stats.update(values=n * k, rows=n * k, codes=int(codes.shape[0]))
        return lsh.pairs_from_codes(codes, n, r)

    def _cuts(self, cum: np.ndarray, total: int) -> list[int]:
        """Cut points of items whose running size is ``cum``: at most about PART_VALUES a
        part, and at least two parts per worker when there are enough items."""
        want = max(2 * worker_count(self.client), -(-total // PART_VALUES))
        return size_cuts(cum, max(1, -(-total // want)))

    def _group(self, parts: list, make_rows, row_args: tuple, meta, pair_rows, pair_args: tuple,
               rows: int, on: str, arrays: tuple | None = None) -> np.ndarray:
        """Rows made from ``parts`` on the workers, shuffled on ``on``, paired per shuffle
        part; the pair codes of all parts (repeated as the parts give them). ``arrays``:
        (map, its arguments, reduce, its arguments) of a task shuffle over arrays, used
        instead of the frames when the shuffle is by tasks (2**bits parts, the map's last
        argument)."""
        if not parts:
            return np.empty(0, np.int64)
        nparts = max(2 * worker_count(self.client), -(-rows // SHUFFLE_ROWS))
        how = self.shuffle
        if how == "auto":
            how = "tasks" if len(parts) * nparts <= TASK_SHUFFLE_MAX else "p2p"
        if how == "tasks" and arrays is not None:
            bits = (nparts - 1).bit_length()  # the next power of two
            nparts = 1 << bits
        started = time.monotonic()
        first: BaseException | None = None
        for attempt in range(GROUP_ATTEMPTS):
            try:
                scattered = self.client.scatter(parts, hash=False)  # the same data twice: two keys
                if how == "tasks" and arrays is not None:
                    codes = self._array_shuffle(scattered, arrays, bits)
                elif how == "tasks":
                    codes = self._task_shuffle(scattered, make_rows, row_args, pair_rows, pair_args, nparts, on)
                else:
                    codes = self._frame_shuffle(scattered, make_rows, row_args, meta, pair_rows, pair_args, nparts,
                                                on)
                break
            except Exception as exc:
                # A worker killed just before: the data sent to it is lost before the
                # scheduler knows it is gone (Dask retries tasks, not a scatter). The step
                # is pure, so it runs again once the scheduler has dropped that worker; a
                # client that closed is lost for good; anything else is the work's own error.
                if not is_lost(exc, self.client):
                    raise
                if attempt + 1 == GROUP_ATTEMPTS or self.client.status != "running":
                    raise cluster_lost(first or exc) from None
                first = first or exc
                time.sleep(GROUP_RETRY_SECONDS)
        self.stats = {"shuffle": how, "arrays": how == "tasks" and arrays is not None, "map_parts": len(parts),
                      "shuffle_parts": nparts, "seconds": round(time.monotonic() - started, 2)}
        return codes

    def _task_shuffle(self, scattered, make_rows, row_args, pair_rows, pair_args, nparts, on) -> np.ndarray:
        submit = self.client.submit
        maps = [submit(_buckets, make_rows, p, row_args, on, nparts, pure=False) for p in scattered]
        reds = [submit(_reduce, pair_rows, pair_args, *[submit(_bucket, m, j, pure=False) for m in maps], pure=False)
                for j in range(nparts)]
        codes = self.client.gather(reds)
        return np.concatenate(codes).astype(np.int64, copy=False) if codes else np.empty(0, np.int64)

    def _array_shuffle(self, scattered, arrays: tuple, bits: int) -> np.ndarray:
        submit = self.client.submit
        map_fn, map_args, reduce_fn, reduce_args = arrays
        maps = [submit(map_fn, p, *map_args, bits, pure=False) for p in scattered]
        reds = [submit(reduce_fn, *reduce_args, *[submit(_bucket, m, j, pure=False) for m in maps], pure=False)
                for j in range(1 << bits)]
        codes = self.client.gather(reds)
        return np.concatenate(codes).astype(np.int64, copy=False) if codes else np.empty(0, np.int64)

    def _frame_shuffle(self, scattered, make_rows, row_args, meta, pair_rows, pair_args, nparts, on) -> np.ndarray:
        import dask.dataframe as dd

        frames = [self.client.submit(make_rows, p, *row_args, pure=False) for p in scattered]
        df = dd.from_delayed(frames, meta=meta, verify_meta=False)
        out = df.shuffle(on=on, npartitions=nparts).map_partitions(
            pair_rows, *pair_args, meta=_frame({"code": np.empty(0, np.int64)}))
        return self.client.compute(out).result()["code"].to_numpy(dtype=np.int64)
