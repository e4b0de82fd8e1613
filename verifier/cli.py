"""The ``trickspec`` command: check, play, replay and solve games; write and read PBN deals.

This module builds the parser, runs the command asked for and turns what goes wrong into
an exit code; each command is a module of :mod:`verifier.commands`.  Every bad input is
answered with one line on standard error, ``trickspec: error: ...``, and exit code 2; the
command never shows a traceback unless asked to with ``--debug``.  The exit codes are the
table :data:`EXIT_CODES` (also in ``trickspec --help``).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import traceback
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn

from spec.dsl._visitor import UnsupportedNodeError
from spec.errors import SpecError
from spec.records import RecordError
from verifier.commands import (
    check,
    deals,
    fixtures,
    games,
    mutate,
    pbn,
    play,
    replay,
    rules,
    solve,
    stats,
)
from verifier.commands._common import (  # every exit code: main()'s callers compare with them
    EXIT_BUG,
    EXIT_CODES,
    EXIT_ERROR,
    EXIT_IMPOSSIBLE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_VIOLATED,
)
from verifier.errors import InputError, SolverUnknownError
from verifier.interrupts import interrupted, obeyed

# the commands, in the order ``trickspec --help`` lists them
COMMANDS = (check, play, pbn, deals, fixtures, replay, solve, mutate, rules, games, stats)
_MESSAGE_CHARS = 1000  # the longest error message; longer ones are cut
_WORD_CHARS = 80  # the longest run of text without a space that a message repeats


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _say(f"error: {message} (see '{self.prog} --help')")
        self.exit(EXIT_ERROR)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """As argparse's, and a file or folder named by an empty text is refused (it would
        read as not given)."""
        ns, rest = super().parse_known_args(args, namespace)
        for action in self._actions:
            if action.metavar in ("FILE", "DIR") and getattr(ns, action.dest, None) == "":
                name = "/".join(action.option_strings) or action.dest
                what = "file" if action.metavar == "FILE" else "folder"
                self.error(f"argument {name}: an empty {what} name")
        return ns, rest


def _one_line(message: str) -> str:
    """A message as one short line: no line breaks or control characters, and no long
    stretch of what the user gave repeated whole (a 100,000-character name, a file)."""
    text = re.sub(r"[\x00-\x1f\x7f]+", " ", message).strip()
    text = re.sub(rf"\S{{{_WORD_CHARS + 1},}}", lambda m: m.group()[:_WORD_CHARS - 1] + "…", text)
    return text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS - 1] + "…"


def _say(message: str) -> None:
    """One line on standard error: ``trickspec: <message>``."""
    print(f"trickspec: {_one_line(message)}", file=sys.stderr, flush=True)


def _version() -> str:
    try:
        return metadata.version("trickspec")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "(version unknown: not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``trickspec`` and of each of its commands (each command's module adds
    its own), every one of which takes ``--debug``."""
    p = _Parser(prog="trickspec", description="Formal, machine-checked rules for trick-taking "
                "card games: prove properties, play and replay deals.",
                epilog=_EXAMPLES + "\n" + _exit_codes_text(),
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"trickspec {_version()}")
    # --debug is taken before the command or after it
    debug = argparse.ArgumentParser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="on an internal error, show the traceback")
    p.add_argument("--debug", action="store_true", default=False,
                   help="on an internal error (exit 4), show the traceback")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add = sub.add_parser

    def add_parser(name: str, **kw: Any) -> argparse.ArgumentParser:
        return _add(name, parents=[debug], **kw)

    sub.add_parser = add_parser  # type: ignore[method-assign]  # every command takes --debug
    for command in COMMANDS:
        command.add_parser(sub)
    return p


_EXAMPLES = """examples:
  trickspec games                         the games, and what each variant does
  trickspec check                         prove every property of every game
  trickspec check GAME --list             what check proves for GAME, proving none
  trickspec rules GAME [ID]               the rules in force, or one whole
  trickspec play GAME --seed 7            a deal played by bots, readable
  trickspec play GAME --json --out d.json then: trickspec replay d.json
  trickspec deals GAME --where 'count(SEAT, aces) == 4'   deals where a condition holds
  trickspec fixtures GAME --check         replay the shipped fixtures
  trickspec COMMAND --help                a command's arguments
"""


def _exit_codes_text() -> str:
    return "exit codes:\n" + "\n".join(f"  {code:<4} {what}" for code, what in EXIT_CODES)


class _OutputError(Exception):
    """Standard output cannot be written (a full disk, say); not a broken pipe."""


class _Output:
    """Standard output, whose failures are told apart from those of anything else: a write
    that fails raises :class:`_OutputError` (a reader gone away: ``BrokenPipeError``)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    @staticmethod
    def _do(action: Any, *args: Any) -> Any:
        try:
            return action(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(e.strerror or str(e)) from None

    def write(self, text: str) -> int:
        return int(self._do(self.stream.write, text))

    def flush(self) -> None:
        self._do(self.stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _drop_output(stream: Any) -> None:
    """Send what is left of standard output nowhere: Python would otherwise try to write it
    again on exit, and complain."""
    if stream is not sys.__stdout__ or stream is None:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit code is one of :data:`EXIT_CODES`.  Ctrl-C stops it at
    once (exit 130), Z3's checks included (:mod:`verifier.interrupts`)."""
    stdout = sys.stdout
    with obeyed():
        sys.stdout = _Output(stdout) if stdout is not None else stdout
        try:
            return _run(argv)
        finally:
            sys.stdout = stdout


def _run(argv: Sequence[str] | None) -> int:
    debug = "--debug" in (sys.argv[1:] if argv is None else argv)
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:  # --help, --version, or bad usage, already said
            code = e.code if isinstance(e.code, int) else EXIT_ERROR if e.code else EXIT_OK
        else:
            debug = bool(getattr(args, "debug", False))
            code = int(args.fn(args))
        sys.stdout.flush()  # a full disk is told now, while it can be
        return code
    except (InputError, RecordError, SpecError, UnsupportedNodeError) as e:
        _say(f"error: {e}")
        return EXIT_ERROR
    except SolverUnknownError as e:
        _say(f"unknown: {e.reason} (raise --timeout or --rlimit to let the solver look further)")
        return EXIT_ERROR
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except _OutputError as e:
        _drop_output(getattr(sys.stdout, "stream", sys.stdout))
        _say(f"error: cannot write standard output: {e}")
        return EXIT_ERROR
    except BrokenPipeError:  # the reader went away (``| head``): nothing left to say
        _drop_output(getattr(sys.stdout, "stream", sys.stdout))
        return EXIT_OK
    except Exception as e:  # noqa: BLE001  # the CLI boundary: anything else is a bug (AssertionError, RecursionError, MemoryError, ReplayMismatchError, ...)
        if interrupted():  # a failure Ctrl-C caused (a worker ended, say): interrupted
            _say("interrupted")
            return EXIT_INTERRUPTED
        if debug:
            traceback.print_exc()
        kind = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        _say(f"internal error: {kind}; this is a bug in trickspec: please report it "
             "(rerun with --debug to see the traceback)")
        return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
