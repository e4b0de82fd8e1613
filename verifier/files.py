"""The files a user hands the tool, read and written in one place: a clear error for every
way a path can fail, a cap on how much a file may hold, no wait on a pipe nobody writes
to, and no file left half written.

Every file the command line or the fixtures checker reads goes through :func:`read_text`
(and :func:`read_json` for JSON), and every file written through :func:`written` (a folder
of files through :func:`write_folder`).  A path
that is no readable file (missing, a folder, a path through a file, a name too long, no
permission, a device that never ends) is an :class:`~verifier.errors.InputError` whose
message names the file and says what is wrong with it.  Pipes and devices are read, up to
the cap: ``trickspec replay <(...)`` works; a FIFO with no writer reads as empty at once
instead of waiting for one; ``/dev/zero`` stops at the cap.

A file is written whole or not at all: the text goes to a new file beside it, under a
temporary name, which is renamed to the file's name only once all of it is written
(:func:`os.replace`, which puts the new file in place of the old one at one stroke).  A
failure (a full disk) or Ctrl-C before that leaves the file as it was and removes the
temporary one; two commands writing the same file at once each write their own, and the
file is then the whole of one of them, never a mix.  A device or a pipe (``/dev/stdout``)
is written directly: there is no file to keep.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

from verifier.errors import InputError
from verifier.interrupts import held

__all__ = ["MAX_FILE_BYTES", "MAX_JSON_DEPTH", "read_text", "read_json", "written",
           "write_folder", "made_folder", "shown_path"]

MAX_FILE_BYTES = 64 * 2 ** 20  # records, deals, fixtures and PBN files are far smaller
MAX_JSON_DEPTH = 64  # the files of trickspec nest some 8 levels deep
_PATH_CHARS = 80


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as a message shows it: cut to 80 characters with '…' when longer."""
    text = os.fspath(path)
    return text if len(text) <= _PATH_CHARS else text[:_PATH_CHARS - 1] + "…"


def _why(path: str, e: OSError | ValueError, doing: str) -> str:
    """What is wrong with a path, from the error the system gave."""
    name = shown_path(path)
    if isinstance(e, ValueError):  # open() refuses a NUL character
        return f"{name!r} is not a file name (it holds a NUL character)"
    code = e.errno
    if code == errno.ENOENT:
        return f"no such file: {name}" if doing == "read" else f"cannot {doing} {name}: no such folder"
    if code == errno.EISDIR:
        return f"{name} is a folder, not a file"
    if code == errno.ENOTDIR:
        return (f"{'no such file: ' if doing == 'read' else f'cannot {doing} '}{name} (a part of "
                "the path before the last is a file, not a folder)")
    if code == errno.ENAMETOOLONG:
        return f"cannot {doing} {name}: the file name is too long"
    if code in (errno.EACCES, errno.EPERM):
        return f"cannot {doing} {name}: permission denied"
    return f"cannot {doing} {name}: {e.strerror or e}"


def _too_big(name: str) -> str:
    return f"{name} holds more than {MAX_FILE_BYTES // 2 ** 20} MiB; no file trickspec reads is that large"


def _read_bytes(path: str) -> bytes:
    # O_NONBLOCK: opening a FIFO that nobody writes to would otherwise wait for a writer
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:
        raise InputError(_why(path, e, "read")) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{shown_path(path)} is a folder, not a file")
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_FILE_BYTES:
            raise InputError(_too_big(shown_path(path)))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a pipe with a writer is read to its end
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_FILE_BYTES:
            raise InputError(_too_big(shown_path(path)))
        return b"".join(chunks)
    except OSError as e:
        raise InputError(_why(path, e, "read")) from None
    finally:
        os.close(fd)


def read_text(path: str, *, errors: str = "strict") -> str:
    """The text of a file, or of standard input when ``path`` is ``-``, as UTF-8 (a byte
    order mark is dropped).  ``errors="replace"`` reads other encodings' letters as '�'.

    Raises:
        InputError: the file cannot be read, holds more than :data:`MAX_FILE_BYTES`, or is
            not UTF-8 text (with ``errors="strict"``).
    """
    if path == "-":
        name = "standard input"
        try:
            stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
            data = (stream.read(MAX_FILE_BYTES + 1) if stream is not None
                    else sys.stdin.read(MAX_FILE_BYTES + 1).encode("utf-8", "surrogateescape"))
        except OSError as e:
            raise InputError(f"cannot read standard input: {e.strerror or e}") from None
        if len(data) > MAX_FILE_BYTES:
            raise InputError(_too_big(name))
    else:
        name = shown_path(path)
        data = _read_bytes(path)
    try:
        return data.decode("utf-8-sig", errors)
    except UnicodeDecodeError as e:
        raise InputError(f"{name} is not UTF-8 text (byte {e.start + 1} is {data[e.start]:#04x})") from None


class _Constant(ValueError):
    pass


def _no_constant(word: str) -> Any:
    raise _Constant(word)


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in a JSON value (without recursion)."""
    most, todo = 0, [(value, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, (dict, list)):
            most = max(most, d)
            if d <= MAX_JSON_DEPTH:
                todo.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return most


def read_json(path: str, *, what: str) -> Any:
    """The JSON value of a file (``-``: standard input) that should hold ``what``.

    Only JSON itself is taken: no ``NaN`` or ``Infinity``, no nesting deeper than
    :data:`MAX_JSON_DEPTH` levels, no number of more digits than Python converts (4,300).

    Raises:
        InputError: the file cannot be read or is not such JSON; the message names it.
    """
    text = read_text(path)
    name = "standard input" if path == "-" else shown_path(path)
    if not text.strip():
        raise InputError(f"{name} is empty; expected {what}")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise InputError(f"{name} is not JSON ({e.msg} at line {e.lineno}, column {e.colno}); "
                         f"expected {what}") from None
    except _Constant as e:
        raise InputError(f"{name} is not JSON: {e} is not a JSON number; expected {what}") from None
    except RecursionError:
        raise InputError(f"{name} nests deeper than {MAX_JSON_DEPTH} levels; expected {what}") from None
    except ValueError:  # Python's limit on the digits of an int
        raise InputError(f"{name} holds a number with more digits than Python reads "
                         f"({sys.get_int_max_str_digits():,}); expected {what}") from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise InputError(f"{name} nests deeper than {MAX_JSON_DEPTH} levels; expected {what}")
    return value


def _temporary_beside(path: str, like: os.stat_result | None) -> tuple[int, str]:
    """A new file, open for writing, in the folder of ``path`` under a name of its own
    (``.<name>.<random>.tmp``); with the permissions of the file ``like`` when given.
    Called with Ctrl-C held back, so that the caller knows of every file it makes."""
    folder, name = os.path.split(path)
    while True:
        temp = os.path.join(folder, f".{name[:200]}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o666)
        except FileExistsError:
            continue
        if like is not None:
            try:
                os.chmod(fd, stat.S_IMODE(like.st_mode))
            except OSError:  # not the owner: the new file keeps the usual permissions
                pass
        return fd, temp


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _target(path: str) -> tuple[str, os.stat_result | None]:
    """Where writing ``path`` puts the text (the file a link points to), and that file's
    status when it exists.

    Raises:
        InputError: ``path`` is a folder.
    """
    real = os.path.realpath(path) if os.path.islink(path) else path
    try:
        info = os.stat(real)
    except (OSError, ValueError):
        return real, None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{shown_path(path)} is a folder, not a file")
    return real, info


@contextlib.contextmanager
def written(path: str) -> Iterator[TextIO]:
    """A file for UTF-8 text that takes the place of ``path`` when the block ends without
    an exception, all of it at once; on an exception (Ctrl-C included) ``path`` is left as
    it was (see the module's text).

    Raises:
        InputError: the file cannot be written, or a write to it failed (the message names
            it and says why).
    """
    target, info = _target(path)
    if info is not None and not stat.S_ISREG(info.st_mode):  # a device, a pipe
        try:
            f = open(path, "w", encoding="utf-8")
        except (OSError, ValueError) as e:
            raise InputError(_why(path, e, "write")) from None
        try:
            with f:
                yield f
        except OSError as e:
            raise InputError(_why(path, e, "write")) from None
        return
    temp = ""
    try:
        with held():
            fd, temp = _temporary_beside(target, info)
    except (OSError, ValueError) as e:
        raise InputError(_why(path, e, "write")) from None
    except KeyboardInterrupt:  # pressed while the file was made
        if temp:
            _remove(temp)
        raise
    try:
        with open(fd, "w", encoding="utf-8") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except OSError as e:
        _remove(temp)
        raise InputError(_why(path, e, "write")) from None
    except BaseException:
        _remove(temp)
        raise


@contextlib.contextmanager
def made_folder(path: str) -> Iterator[Path]:
    """The folder ``path``, made (with the folders above it) when it does not exist, and
    removed again (those made, when empty) when the block ends by an exception.

    Raises:
        InputError: the folder cannot be made, or ``path`` is a file.
    """
    folder = Path(path)
    if os.path.lexists(folder) and not folder.is_dir():
        raise InputError(f"{shown_path(path)} is a file, not a folder")
    made = [p for p in (folder, *folder.parents) if not os.path.lexists(p)]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder {shown_path(path)}: {e.strerror or e}") from None
    try:
        yield folder
    except BaseException:
        for p in made:  # the deepest first
            with contextlib.suppress(OSError):
                p.rmdir()
        raise


def write_folder(folder: Path, texts: Mapping[str, str], remove: Iterable[str] = ()) -> None:
    """Put files in a folder all together, or change nothing: each of ``texts`` (a file
    name and its UTF-8 text) is first written in full beside its place under a temporary
    name, and only when all are written are the files of ``remove`` removed and the new
    ones renamed into place, one after another with Ctrl-C held back meanwhile.  A failure
    or Ctrl-C while they are written leaves the folder as it was, with no temporary file.

    Raises:
        InputError: a file cannot be written (the message names it and says why).
    """
    remove = tuple(remove)
    temps: dict[str, str] = {}
    name = ""
    try:
        for name, text in texts.items():
            target, info = _target(str(folder / name))
            with held():
                fd, temps[target] = _temporary_beside(target, info)
            with open(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        name = ""
        with held():
            for gone in remove:
                name = gone
                (folder / gone).unlink(missing_ok=True)
            for target, temp in list(temps.items()):
                name = os.path.basename(target)
                os.replace(temp, target)
                del temps[target]
    except (OSError, ValueError) as e:
        doing = "remove" if name in remove else "write"
        raise InputError(_why(str(folder / name), e, doing)) from None
    finally:
        for temp in temps.values():
            _remove(temp)
