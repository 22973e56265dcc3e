"""The interface every detection method implements, and the arrays that pass between layers.

A method turns normalised text into a sketch (a 1-D numpy array that stores as bytes),
scores two sketches in [0, 1], and finds every pair above a floor score without comparing
all N^2 pairs. Batch functions take and return arrays so they can later run per partition.
"""

from __future__ import annotations

import hashlib

from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np

from .normalize import NORMALIZATION, normalize
from .params import ParamInfo, describe_params, make_params, params_hash
from .text_share import DEFAULT_CONTAINED_SHARE, DEFAULT_SHARE

#: Name of the optional parameter that picks what ``score`` means for set-based methods.
MEASURES = ("resemblance", "containment")


@dataclass(frozen=True)
class PairScores:
    """Scored document pairs, as parallel arrays (indices into the sketch list, i < j).

    ``score`` is the method's score in [0, 1] (what the threshold applies to);
    ``cont_ij`` is the share of document i found in document j and ``cont_ji`` the reverse,
    NaN where the method has no notion of containment. ``extra`` holds method-specific
    columns of the same length (``hamming`` for ``fingerprint``).

    ``complete_from``: None when the search looked for every pair down to the floor (exactly,
    or with the method's designed recall); otherwise the score from which it did, pairs
    below it being found only by chance (the banded search of a large collection is
    designed for the default threshold). 1.0 means no score is covered (a containment
    search through bands designed for resemblance).
    """

    i: np.ndarray
    j: np.ndarray
    score: np.ndarray
    cont_ij: np.ndarray
    cont_ji: np.ndarray
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    complete_from: float | None = None

    def __len__(self) -> int:
        return int(self.i.shape[0])

    @classmethod
    def empty(cls) -> "PairScores":
        """No pairs."""
        e = np.empty(0, dtype=np.int64)
        f = np.empty(0, dtype=np.float64)
        return cls(e, e.copy(), f, f.copy(), f.copy())

    def select(self, mask: np.ndarray) -> "PairScores":
        """The pairs where ``mask`` is true."""
        return PairScores(
            self.i[mask],
            self.j[mask],
            self.score[mask],
            self.cont_ij[mask],
            self.cont_ji[mask],
            {k: v[mask] for k, v in self.extra.items()},
            self.complete_from,
        )


class Method:
    """Base class of a detection method. Subclasses set the class attributes and override.

    Subclasses must implement :meth:`sketch`, :meth:`score` and :meth:`candidate_pairs`;
    the batch functions have loop defaults that subclasses replace with vectorised ones.
    """

    name: ClassVar[str]
    description: ClassVar[str]  # one line, shown in the method list
    Params: ClassVar[type]  # frozen dataclass with fields declared by core.params.param
    #: The method's own estimate its candidate search is designed for (banded searches
    #: find pairs at or above it with their designed recall). The threshold a user applies
    #: is on the verified share of text instead (:meth:`threshold_for`, core.text_share).
    default_threshold: ClassVar[float]
    #: The same for ``measure="containment"``.
    default_containment_threshold: ClassVar[float] = 0.5
    source: ClassVar[str] = ""  # the seed document the method follows
    #: Version of the sketch values: bump it when the same parameters give other sketches,
    #: so that sketches stored by an older release are recomputed, never compared with new ones.
    sketch_version: ClassVar[int] = 1
    sketch_dtype: ClassVar[np.dtype] = np.dtype(np.uint64)
    #: The store keeps no bytes of this method's sketches, only a mark that one exists, and
    #: makes a sketch again from the stored text when it is needed: for a sketch larger than
    #: the compressed text it comes from (a q-gram set: 4 bytes per distinct q-gram of
    #: uniform hashes, which no encoding shrinks below ~3 bytes, against ~0.4 byte per
    #: character of compressed text). Sketches made during a scan are handed to its pair
    #: stage in memory (store.sketches.load), so only a later scan pays for the remaking.
    sketch_from_text: ClassVar[bool] = False
    #: Its candidate search may cover only part of the range above the floor (it then
    #: says so in ``PairScores.complete_from``): the scan completes it with a search on the
    #: words (``pipeline.completion``), whose sketches the extraction workers make beside
    #: the method's own.
    partial_search: ClassVar[bool] = False

    # -- parameters ---------------------------------------------------------------------
    def params(self, values: Mapping[str, Any] | None = None) -> Any:
        """Parameters from a mapping of overrides (validated), defaults for the rest."""
        return make_params(self.Params, values)

    def param_infos(self) -> list[ParamInfo]:
        """The parameter definitions, for forms and ``ndd methods``."""
        return describe_params(self.Params)

    def threshold_for(self, params: Any) -> float:
        """The default threshold for these parameters, on the share scale every stored score
        is on (core.text_share): the same for every method; it depends on the measure."""
        if self.measures_containment(params):
            return DEFAULT_CONTAINED_SHARE
        return DEFAULT_SHARE

    def measures_containment(self, params: Any) -> bool:
        """Whether the score asked for is containment (the larger share) rather than
        resemblance (the smaller)."""
        return getattr(params, "measure", "resemblance") == "containment"

    def sketch_key(self, params: Any) -> str:
        """Hash of the parameters that change the sketch, :attr:`sketch_version` and
        ``core.normalize.NORMALIZATION`` (sketches are stored under it: a change of either
        sketches every document again; the bare parameter hash that version 1 methods used
        names sketches of normalisation 1)."""
        key = params_hash(params, sketch_only=True)
        return hashlib.sha1(f"{key}:v{self.sketch_version}:n{NORMALIZATION}".encode("ascii")).hexdigest()[:16]

    def pairs_key(self, params: Any) -> str:
        """Hash of all parameters (pairs are stored under it)."""
        return params_hash(params)

    # -- sketches -----------------------------------------------------------------------
    def sketch(self, text: str, params: Any) -> np.ndarray:
        """Sketch one normalised text (see core.normalize.normalize)."""
        raise NotImplementedError

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketch a batch of normalised texts."""
        return [self.sketch(t, params) for t in texts]

    def sketch_extracted(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketch a batch of extracted texts: :meth:`sketch_many` of them normalised, with
        what the parameter ``ignore`` names left out (``core.normalize.normalize``). A
        method may take a shorter way to the same sketches (``minhash``)."""
        ignore = getattr(params, "ignore", "")
        return self.sketch_many([normalize(t, ignore) for t in texts], params)

    def texts_to_sketch(self, texts: Sequence[str], ignore: str = "") -> list[str]:
        """Extracted texts as :meth:`sketch_many` and the word search that completes a
        partial search take them (a scan's workers make both from one list): normalised,
        with what ``ignore`` names left out. A method whose sketch reads no white space
        may take a shorter way to texts that give the same sketches (``qgram``)."""
        return [normalize(t, ignore) for t in texts]

    def load_sketch_kernels(self, params: Any) -> None:
        """Load the compiled code :meth:`sketch_extracted` runs with these parameters, if
        it has any (``minhash``): a scan's workers ask before a large read whose server
        did not load it (``pipeline.kernel_preload``). Without it, sketches are the same."""

    #: Whether :meth:`texts_to_verify` leaves the texts as they are (the verification may
    #: then find the words of an extracted text without normalising it whole).
    verifies_as_read: ClassVar[bool] = True

    def texts_to_verify(self, texts: Sequence[str], params: Any) -> list[str]:
        """The normalised texts as the verification should read them (core.text_share):
        as they are, unless the method reads words differently (``hybrid`` corrects typos
        first, so that its pairs are verified on the words it compared)."""
        return list(texts)

    def to_bytes(self, sketch: np.ndarray) -> bytes:
        """Serialise a sketch for the store."""
        return np.ascontiguousarray(sketch, dtype=self.sketch_dtype).tobytes()

    def from_bytes(self, blob: bytes) -> np.ndarray:
        """Inverse of :meth:`to_bytes`."""
        return np.frombuffer(blob, dtype=self.sketch_dtype).copy()

    #: Whether the pair stage hands this method's stored sketches to :meth:`from_bytes_many`
    #: all at once (sketches of one size, which the search stacks into a matrix anyway)
    #: rather than to :meth:`from_bytes` one by one as they are read.
    decodes_together: ClassVar[bool] = False

    def from_bytes_many(self, blobs: Sequence[bytes]) -> Sequence[np.ndarray]:
        """:meth:`from_bytes` of every blob (a method with ``decodes_together`` may return
        one 2-D array whose rows are the sketches)."""
        return [self.from_bytes(b) for b in blobs]

    # -- comparing ----------------------------------------------------------------------
    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """Score of two sketches in [0, 1]; symmetric; 1.0 for identical sketches."""
        raise NotImplementedError

    def containment(self, a: np.ndarray, b: np.ndarray, params: Any) -> tuple[float, float]:
        """(share of a found in b, share of b found in a); NaN when not defined."""
        return (float("nan"), float("nan"))

    def pair_search_warmup(self, documents: int) -> Callable[[], None] | None:
        """A function that loads the compiled kernels the pair search of a collection of
        about ``documents`` documents will call, for a scan to run on a thread while it
        reads the files; None when there are none to load (the default)."""
        return None

    def candidate_pairs(
        self,
        sketches: Sequence[np.ndarray],
        params: Any,
        floor: float,
        dates: np.ndarray | None = None,
    ) -> np.ndarray:
        """Pairs (m, 2) int64 with i < j that may score >= floor, without all N^2 pairs.

        ``dates`` (float seconds since the epoch, NaN unknown) is used by methods with a
        time window.
        """
        raise NotImplementedError

    def score_pairs(self, sketches: Sequence[np.ndarray], pairs: np.ndarray, params: Any) -> PairScores:
        """Score the given pairs (rows of i, j)."""
        if len(pairs) == 0:
            return PairScores.empty()
        scores = np.empty(len(pairs), dtype=np.float64)
        cij = np.empty(len(pairs), dtype=np.float64)
        cji = np.empty(len(pairs), dtype=np.float64)
        for n, (i, j) in enumerate(pairs):
            a, b = sketches[i], sketches[j]
            scores[n] = self.score(a, b, params)
            cij[n], cji[n] = self.containment(a, b, params)
        return PairScores(pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64), scores, cij, cji)

    def find_pairs(
        self,
        sketches: Sequence[np.ndarray],
        params: Any,
        floor: float,
        dates: np.ndarray | None = None,
    ) -> PairScores:
        """Every pair scoring >= floor: candidates, then scores, then the floor; the result's
        ``complete_from`` is :meth:`complete_from`."""
        pairs = self.candidate_pairs(sketches, params, floor, dates)
        scored = self.score_pairs(sketches, pairs, params)
        found = scored.select(scored.score >= floor)
        complete = self.complete_from(params, floor)
        return found if complete is None else replace(found, complete_from=complete)

    def complete_from(self, params: Any, floor: float) -> float | None:
        """The score from which :meth:`find_pairs` looks for every pair (see PairScores);
        None when its candidate search covers the floor."""
        return None
