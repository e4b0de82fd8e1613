"""Work split by seed ranges, run on a Dask cluster (``--cluster``).

A command that plays many deals splits them into ranges of seeds; each range is a task, a
pure function of the game, its variants, the bots and the range, so a task run twice gives
the same answer, and the answers are put together in the order of the ranges: one seed
gives one result however many workers, on one machine or many.  Dask's scheduler hands
the tasks to the workers and, when a worker is lost, gives the tasks it held to another:
each range is counted once, from the one answer the scheduler keeps for it.

``--cluster local`` starts a cluster on this machine (a worker process for each core,
one thread each: the engine is pure Python); ``--cluster tcp://HOST:8786`` uses a running
scheduler, whose workers must have trickspec installed.  Dask is the ``cluster`` extra:
``pip install 'trickspec[cluster]'``.  Dask's futures API fits the split (a task a range,
answers gathered in order, lost work redone by the scheduler), and its scheduler and
workers run the same on one machine and on many.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from verifier.errors import InputError

__all__ = ["LOCAL", "connected", "run_ranges", "run_tasks"]

LOCAL = "local"
CONNECT_SECONDS = 20  # how long to wait for a scheduler before saying it cannot be reached


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError("--cluster needs Dask: pip install 'trickspec[cluster]'") from None
    return distributed


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("trickspec")
    except metadata.PackageNotFoundError:  # a source tree not installed
        return "unknown"


def check_address(text: str) -> str:
    """``local``, or a scheduler's address ``tcp://HOST:PORT``.

    Raises:
        InputError: anything else.
    """
    if text == LOCAL or (text.startswith(("tcp://", "tls://")) and ":" in text[6:]):
        return text
    raise InputError(f"--cluster is 'local' or a scheduler's address such as "
                     f"tcp://127.0.0.1:8786, got {text!r}")


@contextmanager
def connected(address: str, workers: int | None = None) -> Iterator[Any]:
    """A Dask client of the cluster at ``address`` (``local``: one started here, with
    ``workers`` worker processes, by default one a core), closed at the end.

    Raises:
        InputError: Dask is not installed, or no scheduler answers at the address.
    """
    distributed = _distributed()
    address = check_address(address)
    if address == LOCAL:
        cluster = distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                           threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    else:
        cluster = None
        try:
            client = distributed.Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as e:
            raise InputError(f"no Dask scheduler answers at {address}: {e}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_tasks(client: Any, fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
              on_done: Callable[[int, Any], object] | None = None) -> list[Any]:
    """``fn(*call)`` for each of ``calls``, on the cluster; the answers in the order of the
    calls.  ``on_done(k, answer)`` is told of each as it comes in (in any order).  A task
    is pure, so Dask may run one again on another worker when the first is lost; its
    answer is kept once."""
    distributed = _distributed()
    from dask.base import tokenize

    # a task's key is made from trickspec's version, the function and its arguments: the
    # same work is the same task, another game's (or version's) another
    version = _version()
    futures = [client.submit(fn, *call, key=f"trickspec-{fn.__name__}-"
                             f"{tokenize(version, fn.__module__, call)}") for call in calls]
    index = {f.key: k for k, f in enumerate(futures)}
    answers: dict[int, Any] = {}
    try:
        for future in distributed.as_completed(futures):
            k = index[future.key]
            answers[k] = future.result()
            if on_done is not None:
                on_done(k, answers[k])
    except (distributed.KilledWorker, distributed.comm.CommClosedError, OSError, TimeoutError,
            ImportError) as e:  # the cluster failed (or a worker lacks trickspec), not the work
        raise InputError(f"the Dask cluster could not do the work: {type(e).__name__}: {e}") from None
    return [answers[k] for k in range(len(calls))]


def run_ranges(client: Any, fn: Callable[..., list[Any]], args: Sequence[Any],
               ranges: Sequence[range], on_done: Callable[[int, list[Any]], object] | None = None
               ) -> list[Any]:
    """``fn(*args, start, stop)`` for each range, on the cluster (see :func:`run_tasks`);
    the answers put together in the order of the ranges."""
    answers = run_tasks(client, fn, [(*args, r.start, r.stop) for r in ranges], on_done)
    return [x for part in answers for x in part]
