"""Ctrl-C, obeyed at once: inside :func:`obeyed`, the first Ctrl-C raises
``KeyboardInterrupt`` in the main thread within a fraction of a second, whatever it is
doing, Z3 solving included.

Python runs its handler of a signal only between two steps of Python code, never while Z3
solves (a call into C that may last minutes), and Z3 itself, when it catches Ctrl-C during
a check, answers ``unknown`` and swallows it.  So, inside :func:`obeyed`:

* Z3 is told not to catch Ctrl-C (:func:`verifier._z3.solver.set_z3_catches_ctrl_c`);
* Python's own low-level handler, which runs at once in any thread, writes the signal's
  number to a socket (:func:`signal.set_wakeup_fd`), and a watching thread, woken by it,
  stops every solver of the process (:func:`verifier._z3.solver.stop_solvers`): the check
  under way returns at once and raises ``KeyboardInterrupt``, and so does any begun later;
* the handler then raises ``KeyboardInterrupt`` in the main thread, except where it would
  be lost or do harm: in a ``__del__`` (Python only prints "Exception ignored"), or in
  Z3's own Python code (ctypes turns it into an ``ArgumentError``, and a Z3 object left
  half made fails again when it is freed); there it is raised as soon as the code has
  left that place.  Ctrl-C pressed again within a second is the same Ctrl-C: one
  ``KeyboardInterrupt``, one message.

Python shows the handler the frame of the caller when a function has not yet begun, so
``KeyboardInterrupt`` can still stop a Z3 object half made (raised as Z3's ``__init__``
begins); freed later, such an object fails in its ``__del__``.  Once Ctrl-C has been
pressed, Python's reports of an exception it cannot raise ("Exception ignored in ...")
are therefore not shown.

Worker processes (:func:`worker_pool`) ignore Ctrl-C, which a terminal sends to every
process of the command: the parent obeys it, and ends them.
"""
from __future__ import annotations

import _thread
import concurrent.futures
import contextlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import z3

from verifier._z3.solver import (
    restart_solvers,
    set_z3_catches_ctrl_c,
    solvers_stopped,
    stop_solvers,
)

__all__ = ["obeyed", "held", "worker_pool", "interrupted"]

_AGAIN = 0.1  # seconds between two stops of the solvers once Ctrl-C has been pressed
_SAME_PRESS = 1.0  # seconds after a KeyboardInterrupt in which Ctrl-C raises no other
_Z3_CODE = os.path.dirname(z3.__file__) + os.sep
_raised = [float("-inf")]  # when the handler last raised KeyboardInterrupt
_hook = [sys.__unraisablehook__]  # the report of an unraisable exception outside obeyed()


def interrupted() -> bool:
    """Whether Ctrl-C has been pressed inside the current :func:`obeyed`."""
    return solvers_stopped()


def _not_here(frame: FrameType | None) -> bool:
    """Whether an exception raised in ``frame`` would be lost or do harm: in Z3's Python
    code, or in a ``__del__`` (called by the garbage collector)."""
    if frame is not None and frame.f_code.co_filename.startswith(_Z3_CODE):
        return True
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _on_ctrl_c(_signum: int, frame: FrameType | None) -> None:
    stop_solvers()
    if _not_here(frame):
        _thread.interrupt_main(signal.SIGINT)  # this handler runs again at the next step
        return
    now = time.monotonic()
    if now - _raised[0] >= _SAME_PRESS:
        _raised[0] = now
        raise KeyboardInterrupt


def _unraisable(report: Any) -> None:
    """Python's report of an exception it could not raise: none once Ctrl-C was pressed."""
    if not solvers_stopped():
        _hook[0](report)


def _watch(wakeup: socket.socket) -> None:
    """Stop the solvers as soon as Ctrl-C is pressed (a check under way is not stopped by
    Python's handler), and again every tenth of a second after it: a check begun between
    two stops is stopped by the next.  Ends when the other end of ``wakeup`` is closed."""
    while True:
        try:
            data = wakeup.recv(256)
        except TimeoutError:
            data = b""
        except OSError:
            return
        else:
            if not data:
                return
        if signal.SIGINT in data or solvers_stopped():
            stop_solvers()
            wakeup.settimeout(_AGAIN)


@contextlib.contextmanager
def obeyed() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` in the main thread at once, Z3's checks included,
    until the block ends (when entered in the main thread, and unless Ctrl-C is ignored,
    as in a command started in the background)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN):
        yield
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    before_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    before = signal.signal(signal.SIGINT, _on_ctrl_c)
    _hook[0], sys.unraisablehook = sys.unraisablehook, _unraisable
    set_z3_catches_ctrl_c(False)
    watcher = threading.Thread(target=_watch, args=(reader,), name="ctrl-c", daemon=True)
    watcher.start()
    _raised[0] = float("-inf")
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        signal.set_wakeup_fd(before_fd)
        sys.unraisablehook = _hook[0]
        set_z3_catches_ctrl_c(True)
        writer.close()
        watcher.join()
        reader.close()
        restart_solvers()


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold Ctrl-C back while the block runs (a few renames that belong together, say),
    and obey it when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, _frame: pressed.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if pressed and before is not signal.SIG_IGN:
        raise KeyboardInterrupt


def _start_worker(initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    """A worker process ignores Ctrl-C (the parent, which the terminal sends it too, ends
    the workers), and its solvers leave it to the parent as well."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.set_wakeup_fd(-1)  # a forked worker would wake the parent's watcher
    set_z3_catches_ctrl_c(False)
    if initializer is not None:
        initializer(*initargs)


def _end_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    end = getattr(pool, "terminate_workers", None)  # Python 3.14
    if end is not None:
        end()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


@contextlib.contextmanager
def worker_pool(workers: int, initializer: Callable[..., object] | None = None,
                initargs: tuple[Any, ...] = ()
                ) -> Iterator[concurrent.futures.ProcessPoolExecutor]:
    """A pool of ``workers`` processes (each first runs ``initializer(*initargs)``) that
    ignore Ctrl-C.  When the block ends normally the pool waits for the work given to it;
    when it ends by an exception (Ctrl-C, say) the workers are ended at once, what they
    were doing lost."""
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(initializer, initargs))
    try:
        yield pool
    except BaseException:
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
