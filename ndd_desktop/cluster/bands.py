"""The band keys of a candidate search, computed on Dask workers and shuffled so that
equal keys meet.

:class:`DaskBandGrouper` is installed (``core.band_grouping``) around the method's own
pair search on the client; when that search reaches its banded group-by, the sketches
(or minhash's feature keys) go to the workers in partitions, each partition's band keys
are computed there with the core's functions (``set_lsh.band_keys``,
``lsh.feature_match_rows``), a Dask dataframe shuffle brings every key's rows into one
partition, and each partition pairs its rows with the core's run functions
(``set_lsh.band_run_codes``, ``lsh.feature_run_codes``). The pair codes come back to the
client, which goes on with the method's own verification, so the candidates, and hence
the answers, are those of the local search.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..core import lsh, set_lsh
from .connect import cluster_lost, lost_errors, worker_count

#: Sketch values (set sketches) or key entries (minhash) per map partition.
PART_VALUES = 8_000_000
#: Rows per shuffle partition (at least two partitions per worker).
SHUFFLE_ROWS = 8_000_000


def _frame(columns: dict[str, np.ndarray]):
    import pandas as pd

    return pd.DataFrame(columns, copy=False)


def set_band_rows(part: tuple[np.ndarray, list[np.ndarray]], groups: int, r: int, bins: int, n: int):
    """On a worker: the (group, match key, document) rows of a partition of set sketches."""
    docs, sketches = part
    gs, keys, ds = [], [], []
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
    for g in range(groups):
        for c0, c1 in set_lsh.band_key_batches(lens, bins):
            k = set_lsh.band_match_keys(set_lsh.band_keys(sketches[c0:c1], g, r, bins), n)
            keys.append(k.reshape(-1))
            ds.append(np.repeat(docs[c0:c1], bins))
            gs.append(np.full(k.size, g, dtype=np.int64))
    empty = np.empty(0, np.int64)
    return _frame({
        "g": np.concatenate(gs) if gs else empty,
        "key": np.concatenate(keys) if keys else empty.astype(np.uint64),
        "doc": np.concatenate(ds) if ds else empty,
    })


def set_band_codes(df, n: int):
    """On a worker: the pair codes of one shuffle partition of set band rows."""
    codes = set_lsh.band_run_codes(df["g"].to_numpy(), df["key"].to_numpy(), df["doc"].to_numpy(), n)
    return _frame({"code": codes})


def feature_rows(part: tuple[int, np.ndarray], n: int):
    """On a worker: the (round, match key, row) entries of a block of minhash feature keys."""
    row0, keys = part
    rounds, match, rows = lsh.feature_match_rows(keys, row0, n)
    return _frame({"round": rounds, "key": match, "row": rows})


def feature_codes(df, n: int, max_bucket: int | None):
    """On a worker: the pair codes (one per shared key) of one shuffle partition of feature entries."""
    codes = lsh.feature_run_codes(df["round"].to_numpy(), df["key"].to_numpy(), df["row"].to_numpy(), n, max_bucket)
    return _frame({"code": codes})


class DaskBandGrouper:
    """A :class:`core.band_grouping.BandGrouper` that runs on a Dask client's cluster."""

    def __init__(self, client: Any) -> None:
        self.client = client
        #: What the last search shipped and shuffled (for ``--verbose`` and the benchmark).
        self.stats: dict[str, int] = {}

    def set_band_codes(self, sketches: Sequence[np.ndarray], live: np.ndarray, groups: int, r: int,
                       bins: int) -> np.ndarray:
        """See :class:`core.band_grouping.BandGrouper`."""
        n = len(sketches)
        lens = np.fromiter((sketches[d].shape[0] for d in live.tolist()), dtype=np.int64, count=live.shape[0])
        cuts = self._cuts(np.cumsum(lens), int(lens.sum()))
        parts = [(live[a:b], [sketches[d] for d in live[a:b].tolist()]) for a, b in zip(cuts[:-1], cuts[1:])]
        meta = _frame({"g": np.empty(0, np.int64), "key": np.empty(0, np.uint64), "doc": np.empty(0, np.int64)})
        rows = live.shape[0] * bins * groups
        codes = self._shuffle(parts, set_band_rows, (groups, r, bins, n), meta, set_band_codes, (n,), rows)
        self.stats = {"values": int(lens.sum()), "rows": rows, "codes": int(codes.shape[0])}
        return set_lsh.sorted_unique_codes([codes])

    def feature_pairs(self, keys: np.ndarray, r: int, max_bucket: int | None) -> np.ndarray:
        """See :class:`core.band_grouping.BandGrouper`."""
        n, k = keys.shape
        cuts = self._cuts(np.arange(1, n + 1, dtype=np.int64) * k, n * k)
        parts = [(a, keys[a:b]) for a, b in zip(cuts[:-1], cuts[1:])]
        meta = _frame({"round": np.empty(0, np.int64), "key": np.empty(0, np.uint64), "row": np.empty(0, np.int64)})
        codes = self._shuffle(parts, feature_rows, (n,), meta, feature_codes, (n, max_bucket), n * k)
        self.stats = {"values": n * k, "rows": n * k, "codes": int(codes.shape[0])}
        return lsh.pairs_from_codes(codes, n, r)

    def _cuts(self, cum: np.ndarray, total: int) -> list[int]:
        """Cut points of items whose running size is ``cum``: at most about PART_VALUES a
        part, and at least two parts per worker when there are enough items."""
        want = max(2 * worker_count(self.client), -(-total // PART_VALUES))
        step = max(1, -(-total // want))
        cuts = [0]
        while cuts[-1] < cum.shape[0]:
            base = cum[cuts[-1] - 1] if cuts[-1] else 0
            nxt = int(np.searchsorted(cum, base + step, side="right"))
            cuts.append(min(max(nxt, cuts[-1] + 1), cum.shape[0]))
        return cuts

    def _shuffle(self, parts: list, make_rows, row_args: tuple, meta, pair_rows, pair_args: tuple,
                 rows: int) -> np.ndarray:
        """Rows made from ``parts`` on the workers, shuffled on their key, paired per
        partition; the pair codes of all partitions (repeated as the partitions give them)."""
        import dask.dataframe as dd

        if not parts:
            return np.empty(0, np.int64)
        try:
            scattered = self.client.scatter(parts)
            frames = [self.client.submit(make_rows, p, *row_args, pure=False) for p in scattered]
            df = dd.from_delayed(frames, meta=meta, verify_meta=False)
            nparts = max(2 * worker_count(self.client), -(-rows // SHUFFLE_ROWS))
            out = df.shuffle(on="key", npartitions=nparts).map_partitions(
                pair_rows, *pair_args, meta=_frame({"code": np.empty(0, np.int64)}))
            result = self.client.compute(out).result()
        except lost_errors() as exc:
            raise cluster_lost(exc) from None
        return result["code"].to_numpy(dtype=np.int64)
