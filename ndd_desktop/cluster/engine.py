"""``DaskEngine``: a scan whose files are read and whose band keys are grouped on a Dask
cluster, with the answers of the local engine.

The client (the machine running ``ndd scan``) walks the folders, plans what to read
(``pipeline.plan``: an unchanged rescan reads nothing, on the cluster or anywhere),
writes documents and pairs through the store code of the local engine, and forms groups
when the collection is opened. The workers read and sketch partitions of files
(:mod:`.extract`) and compute and shuffle band keys (:mod:`.bands`). Methods whose
candidate search is banded are supported; the others are refused before anything is
written.
"""

from __future__ import annotations

from typing import Any

from ..core.band_grouping import band_grouping
from ..core.method import Method
from ..pipeline.config import ScanError
from ..pipeline.pair_stage import compute_pairs
from .bands import CLIENT_ROWS, DaskBandGrouper
from .connect import open_client
from .extract import PART_FILES, DaskExtractStage, warm_up, worker_view

#: Methods whose candidate search has a banded form the cluster runs (qgram: banded
#: one-permutation MinHash on large collections, its exact joins on smaller ones;
#: minhash: Broder's features).
SUPPORTED_METHODS = ("qgram", "minhash")
#: Methods that share qgram's banded search and would run, but have not been tried against the
#: local engine (docs/scale-out.md).
UNTRIED_METHODS = ("bottomk", "hybrid")


class DaskEngine:
    """The scan's reading and band grouping on a Dask cluster: a ``LocalCluster`` of
    ``workers`` processes, or the running scheduler at ``scheduler`` (``tcp://HOST:PORT``).
    Use it as a context manager (or call :meth:`start` and :meth:`close`)."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 part_files: int = PART_FILES, client_rows: int = CLIENT_ROWS) -> None:
        self.scheduler, self.workers, self.part_files = scheduler, workers, part_files
        #: group-bys of fewer rows run on the client (``bands.CLIENT_ROWS``)
        self.client_rows = client_rows
        #: Files the scans of this engine handed to the workers.
        self.files_sent = 0
        self.client: Any = None
        self.cluster: Any = None
        self.grouper: DaskBandGrouper | None = None

    def start(self) -> "DaskEngine":
        """Connect (or start the local cluster); ClusterError when that fails."""
        if self.client is None:
            self.client, self.cluster = open_client(self.scheduler, self.workers)
            self.grouper = DaskBandGrouper(self.client, client_rows=self.client_rows)
            try:
                self.client.run(warm_up)
            except Exception:  # a worker that cannot warm up still reads (more slowly at first)
                pass
        return self

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this engine started one."""
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()

    def __enter__(self) -> "DaskEngine":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def check(self, method: Method, params: Any) -> None:
        """Refuse a method without a banded search to distribute (ScanError names those
        supported); the cluster is reached when the first stage needs it."""
        if method.name not in SUPPORTED_METHODS:
            why = (f"{method.name} shares qgram's banded search but has not been tried on a cluster"
                   if method.name in UNTRIED_METHODS else f"{method.name} has no banded candidate search to distribute")
            raise ScanError(f"the Dask engine runs the methods {', '.join(SUPPORTED_METHODS)}; {why} "
                            "(scan with --engine local, or choose one of those)")

    def check_workers(self, roots: list[str]) -> None:
        """Refuse (ScanError) a cluster whose workers cannot read the scan's files as this
        machine would: a folder a worker cannot see, another ndd-desktop version, a reader
        whose library a worker lacks (:func:`.extract.worker_view`, on every worker)."""
        from .. import __version__

        views = self.client.run(worker_view, roots)
        problems = []
        for worker, view in sorted(views.items()):
            if view["missing"]:
                problems.append(f"{worker} cannot see {', '.join(view['missing'])}")
            if view["version"] != __version__:
                problems.append(f"{worker} runs ndd-desktop {view['version']}, this machine {__version__}")
            if view["broken"]:
                problems.append(f"{worker} cannot load the readers {'; '.join(view['broken'])}")
        if problems:
            raise ScanError("the Dask workers cannot read these files as this machine does: "
                            + "; ".join(problems) + ". Every worker needs the scanned folders at the same paths "
                            "(a shared disk mounted alike) and the same ndd-desktop environment (docs/scale-out.md)")

    def extract_stage(self, store, method, params, sketch_key, plan, meter, cancel, on_error) -> DaskExtractStage:
        """The extract stage reading on the workers (see :mod:`.extract`), once every worker
        has been checked (:meth:`check_workers`)."""
        self.start()
        self.check_workers([r.path for r in store.documents.roots()])
        return DaskExtractStage(self.client, self.part_files, self._sent, store, method, params, sketch_key, plan,
                                meter, cancel, on_error)

    def _sent(self, files: int) -> None:
        self.files_sent += files

    def compute_pairs(self, store, method, params, params_dict, floor, meter, cancel, reading: str = "") -> int:
        """The local pair stage with its banded group-by on the cluster (see :mod:`.bands`)."""
        self.start()
        with band_grouping(self.grouper):
            return compute_pairs(store, method, params, params_dict, floor, meter, cancel, reading=reading)
