"""Reaching a Dask cluster: a ``LocalCluster`` started for the scan, or a running scheduler.

Dask is an optional extra (``ndd-desktop[cluster]``): it is imported here, on use, so the
core install and the window never need it, and its absence is a clear message.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
import time
from concurrent.futures import CancelledError
from typing import Any

#: What to install when Dask is missing.
INSTALL_HINT = "the Dask engine needs the cluster extra: pip install 'ndd-desktop[cluster]'"
#: Seconds a scheduler address may take to answer before the scan gives up on it.
CONNECT_TIMEOUT_S = 8.0  # the whole command then ends within 10 s


class ClusterError(Exception):
    """The cluster cannot be used: Dask is not installed, or the scheduler does not answer."""


def require_distributed() -> Any:
    """The ``distributed`` module, or ClusterError naming the extra to install."""
    try:
        import dask.dataframe  # noqa: F401  (the shuffle of the band keys)
        import distributed
    except ImportError as exc:
        raise ClusterError(f"{INSTALL_HINT} ({exc})") from None
    return distributed


def open_client(scheduler: str | None, workers: int | None, timeout_s: float = CONNECT_TIMEOUT_S) -> tuple[Any, Any]:
    """(client, cluster): a client of the scheduler at ``scheduler`` (cluster None), or of a
    new ``LocalCluster`` of ``workers`` single-threaded worker processes (the caller closes
    both).

    Raises:
        ClusterError: Dask missing, or no scheduler answering at ``scheduler`` within
            ``timeout_s`` seconds.
    """
    if scheduler:
        scheduler = scheduler.rstrip("/")  # tcp://HOST:8786/ was "names no port"
        deadline = time.monotonic() + timeout_s
        # a refused or unreachable address is told before Dask's imports (seconds) are paid
        probe_address(scheduler, timeout_s)
        distributed = require_distributed()
        probe_scheduler(scheduler, max(1.0, deadline - time.monotonic()))
        try:
            client = distributed.Client(scheduler, timeout=max(1.0, deadline - time.monotonic()),
                                        set_as_default=False)
        except Exception as exc:
            raise ClusterError(f"no Dask scheduler answers at {scheduler}: {_describe(exc)}") from None
        # a scheduler lost mid-scan is the scan's error to report, in one line: the client's
        # own log printed a traceback of each reconnection before it (the local cluster's
        # logs are silenced by LocalCluster itself)
        logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
        return client, None
    distributed = require_distributed()
    if workers is not None and workers < 1:
        raise ClusterError(f"--workers must be 1 or more with --engine dask, got {workers}")
    from ..ingest.pool import default_workers

    import dask

    # Dask's nanny sets MALLOC_TRIM_THRESHOLD_ for its workers, which also pins glibc's mmap
    # threshold at 128 KB: every numpy temporary of the band rounds is then mapped and
    # page-faulted afresh (3x slower here). Left unset, as in the local engine.
    # The workers' statistical profiler (a sample every 10 ms) is of no use to a scan.
    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                          "distributed.worker.profile.enabled": False}), _ctrl_c_ignored():
        cluster = distributed.LocalCluster(
            n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=logging.ERROR,
        )
    try:
        client = distributed.Client(cluster, set_as_default=False)
    except BaseException:
        cluster.close()
        raise
    return client, cluster


@contextlib.contextmanager
def _ctrl_c_ignored():
    """Ctrl-C ignored while the local cluster's worker processes start, so that they start
    ignoring it (an ignored signal stays ignored in a new program, and Python leaves it so):
    a terminal sends Ctrl-C to every process of its foreground group, and the workers died
    with KeyboardInterrupt tracebacks while the scan, which handles it, waited for them for
    ever. The local pool's workers ignore it alike (``ingest.pool_worker``). Only on the
    main thread (the window starts a cluster on a worker thread, with no terminal)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def probe_address(address: str, timeout_s: float) -> None:
    """Raise ClusterError when ``address`` (``tcp://HOST:PORT``; other schemes are left to
    Dask) refuses a TCP connection or gives none within ``timeout_s`` seconds. Needs no Dask."""
    scheme, _, loc = address.rpartition("://")
    if scheme in ("http", "https"):  # the dashboard's address, an easy mistake
        raise ClusterError(f"{address} is a web address (the scheduler's dashboard?): give the scheduler's own "
                           "address, tcp://HOST:8786 unless it was told another port")
    if scheme not in ("", "tcp"):
        return
    host, _, port = loc.rstrip("/").rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"{address} names no port: give the scheduler's address as tcp://HOST:PORT "
                           "(a Dask scheduler listens on 8786 unless told otherwise)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except (OSError, ValueError) as exc:
        raise ClusterError(f"no Dask scheduler answers at {address}: {_describe(exc)}") from None


def probe_scheduler(address: str, timeout_s: float) -> None:
    """Raise ClusterError unless a Dask scheduler answers at ``address`` within
    ``timeout_s`` seconds: the Dask handshake is tried on a bare connection (a ``Client``
    that fails half way hangs on its way out, and something that is not a scheduler can
    answer with anything)."""
    import asyncio

    from distributed.comm import connect
    from distributed.security import Security

    probe_address(address, timeout_s)
    # the security Dask is configured with (distributed.comm.tls.*), as the Client uses it:
    # a TLS scheduler was probed without it and "answered, but not in Dask's protocol"
    secure = Security().get_connection_args("client")

    async def handshake() -> None:
        comm = await connect(address, timeout=timeout_s, **secure)
        await comm.close()

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(asyncio.wait_for(handshake(), timeout_s))
    except BaseException as exc:  # a non-Dask answer can raise anything, MemoryError included
        if isinstance(exc, KeyboardInterrupt):
            raise
        if isinstance(exc, (MemoryError, ValueError, TypeError)):  # garbage read as a message
            raise ClusterError(f"no Dask scheduler answers at {address}: something answered there, but not in "
                               f"Dask's protocol ({type(exc).__name__} reading its answer)") from None
        raise ClusterError(f"no Dask scheduler answers at {address} (waited up to {timeout_s:g} s): "
                           f"{_describe(exc)}") from None
    finally:
        loop.close()


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def worker_count(client: Any) -> int:
    """Workers the scheduler knows now (at least 1, for sizing partitions)."""
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:  # the scheduler went away: the next call will say so
        return 1


def lost_errors() -> tuple[type[BaseException], ...]:
    """What the client raises when the cluster went away under a scan (the scheduler, or
    the connection to it, lost; the client closed): the work itself did not fail."""
    from distributed.client import ClosedClientError

    return (CancelledError, OSError, TimeoutError, ClosedClientError)


def is_lost(exc: BaseException, client: Any) -> bool:
    """Whether ``exc`` says the cluster went away rather than the work failing: one of
    :func:`lost_errors`, or the RuntimeError ("IOLoop is closed") of a client that closed
    while a result was awaited."""
    if isinstance(exc, lost_errors()):
        return True
    return isinstance(exc, RuntimeError) and getattr(client, "status", "running") != "running"


def cluster_lost(exc: BaseException) -> ClusterError:
    """The error of a scan whose cluster stopped answering."""
    return ClusterError(f"the Dask cluster stopped answering ({type(exc).__name__}: {exc}); the documents "
                        "written so far are kept: run the same command again to resume")
