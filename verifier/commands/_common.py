"""What the commands share: the exit codes, the game named on the command line, the
numbers typed on it, and the writing of what a command prints."""
from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

from spec.bots import BOT_NAMES, bot_named
from spec.dsl._build import Game
from spec.errors import shown
from spec.registry import GAMES, find_game
from verifier.errors import InputError
from verifier.files import written

EXIT_OK, EXIT_VIOLATED, EXIT_ERROR, EXIT_IMPOSSIBLE, EXIT_BUG = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130
EXIT_CODES = (
    (EXIT_OK, "everything holds; the record is confirmed; the deals are found"),
    (EXIT_VIOLATED, "a property is violated; the record or a fixture is rejected"),
    (EXIT_ERROR, "unknown (the solver gave no answer); bad input; bad usage"),
    (EXIT_IMPOSSIBLE, "the deals asked for are impossible (proved by Z3)"),
    (EXIT_BUG, "an internal error: a bug in trickspec (--debug shows the traceback)"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
)

# what each command module's add_parser is given: the parser's subcommands
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def seed_range(first: int, deals: int) -> range:
    """The seeds of ``deals`` deals from ``first``, refused where the last is past the
    largest seed."""
    if first + deals - 1 > MAX_SEED:
        raise InputError(f"the seeds from {first:,} for {deals:,} deals pass the largest seed, "
                         f"{MAX_SEED:,}")
    return range(first, first + deals)


def game_named(name: str, variants: Sequence[str]) -> Game:
    """The registered game of that name, with the variants named in force."""
    game = find_game(name)
    return game.with_variants(*variants) if variants else game


# Limits of the numbers the commands take.  Every number is written with the digits 0-9:
# Python's int() and float() also take the digits of other scripts ('١٢') and underscores
# ('1_000'), and float() takes 'nan' and 'inf'.  A limit that only one command has is in
# that command's module.
MAX_DIGITS = 18  # of any whole number: seeds, counts, bounds
MAX_SEED = 10 ** MAX_DIGITS - 1
MAX_SECONDS = 1_000_000  # some 11 days; Z3 keeps a timeout in milliseconds below 2**32
MAX_RLIMIT = 2 ** 32 - 1  # Z3 keeps its resource limit in 32 bits (a larger one wraps round)
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def whole_number(text: str, *, what: str = "a whole number", least: int = 0,
                 most: int = MAX_SEED) -> int:
    """A whole number typed by the user, from ``least`` to ``most``, in ASCII digits.

    Raises:
        InputError: anything else, saying what was expected.
    """
    t = str(text).strip()
    if not _WHOLE.fullmatch(t):
        sign = "a negative number" if re.fullmatch(r"-[0-9]+", t) else None
        raise InputError(f"{what} is a whole number from {least:,} to {most:,} written with "
                         f"the digits 0-9, got {sign or shown(text)}")
    digits = t.lstrip("0")
    if len(digits) > MAX_DIGITS or int(t) > most:
        raise InputError(f"{what} is at most {most:,}, got {shown(text)}")
    if int(t) < least:
        raise InputError(f"{what} is at least {least:,}, got {shown(text)}")
    return int(t)


def arg(parse: Any, name: str) -> Any:
    """An argparse type from a parser raising InputError (argparse names the option)."""
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except InputError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    convert.__name__ = name
    return convert


def seconds(text: str) -> float:
    """A positive, finite number of seconds typed by the user, at most :data:`MAX_SECONDS`.

    Raises:
        InputError: anything else, saying what was expected.
    """
    t = text.strip()
    if t.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise InputError(f"expected a finite number of seconds, got {shown(text)}")
    if not _DECIMAL.fullmatch(t):
        raise InputError(f"expected a positive number of seconds such as 60 or 0.5, written "
                         f"with the digits 0-9, got {shown(text)}")
    v = float(t)
    if not math.isfinite(v) or v > MAX_SECONDS:
        raise InputError(f"seconds are at most {MAX_SECONDS:,}, got {shown(text)}")
    if v <= 0:
        raise InputError(f"expected a positive number of seconds, got {shown(text)}")
    return v


seconds_arg = arg(seconds, "seconds")
seed_arg = arg(lambda t: whole_number(t, what="a seed"), "seed")
rlimit_arg = arg(lambda t: whole_number(t, what="the resource limit", least=1, most=MAX_RLIMIT),
                 "rlimit")
jobs_arg = arg(lambda t: whole_number(t, what="the count of workers", least=1, most=256), "count")


def add_budget(p: argparse.ArgumentParser, rlimit: int, needs: str, timeout: float) -> None:
    """--rlimit, a budget of Z3's steps for each query (``needs``: how it was chosen), and
    --timeout, seconds behind it."""
    p.add_argument("--timeout", type=seconds_arg, default=timeout, metavar="S",
                   help="seconds Z3 may spend on one query, a backstop behind --rlimit "
                   f"(default {timeout:g}, at most {MAX_SECONDS:,})")
    p.add_argument("--rlimit", type=rlimit_arg, default=rlimit, metavar="N",
                   help="Z3's resource limit on one query, a count of its own steps: unlike "
                   f"--timeout, the same answer on any machine, however busy (default "
                   f"{rlimit:,}, {needs}; at most {MAX_RLIMIT:,})")


DEFAULT_BOT = "sensible"  # the bot of every seat where --bots names none

BOTS_HELP = ("the bots that play: sensible (bids what greedy play of its hand makes and plays "
             "greedily; milliseconds a deal; the default), random (uniform among the legal "
             "actions), modest (passes one time in two, so contracts stay low), cautious "
             "(passes seven times in eight) or thinking (draws the hidden hands from what it "
             "has seen and solves each deal double dummy; seconds a deal); one name for every "
             "seat, or one per seat separated by commas, in seat order")


def add_cluster(p: argparse.ArgumentParser, what: str) -> None:
    """``--cluster ADDRESS``: ``what`` the command does there (\"play the deals on a Dask
    cluster\"), then where the cluster is."""
    p.add_argument("--cluster", metavar="ADDRESS", default=None,
                   help=f"{what}: 'local' starts one on this machine's cores, tcp://HOST:PORT "
                   "uses a running scheduler (needs pip install 'trickspec[cluster]')")


def bots_arg(text: str) -> tuple[str, ...]:
    """``--bots``: one bot's name for every seat, or one per seat, comma-separated."""
    names = tuple(n.strip() for n in text.split(","))
    for n in names:
        if n not in BOT_NAMES:
            raise argparse.ArgumentTypeError(f"no bot {n!r} (bots: {', '.join(BOT_NAMES)})")
    return names


def add_bots(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", type=bots_arg, default=None, metavar="NAME[,NAME...]", help=BOTS_HELP)


def bots_for(game: Game, names: Sequence[str] | None) -> list[Any]:
    """The bots named, one per seat (None: :data:`DEFAULT_BOT` in every seat).

    Raises:
        InputError: a bot per seat for another number of seats.
    """
    if names is None:
        names = (DEFAULT_BOT,)
    if len(names) not in (1, game.players):
        raise InputError(f"--bots names one bot for every seat or one per seat: {game.name} has "
                         f"{game.players} seats, and {len(names)} bots were named")
    made: dict[str, Any] = {}

    def bot(name: str) -> Any:
        if name not in made:
            made[name] = bot_named(name)
        return made[name]
    return [bot(names[0] if len(names) == 1 else names[k]) for k in range(game.players)]


def emit(args: argparse.Namespace, text: str) -> int:
    """Write text and a newline to --out or standard output."""
    return emit_pieces(args, (text,))


def emit_pieces(args: argparse.Namespace, pieces: Iterable[str]) -> int:
    """Write pieces of text, each followed by a newline, to --out or standard output, each
    as soon as it is made."""
    if args.out:  # written whole or not at all: on a failure or Ctrl-C it is as it was
        with written(args.out) as f:
            for piece in pieces:
                f.write(piece + "\n")
    else:
        for piece in pieces:
            print(piece, flush=True)
    return EXIT_OK


GAME_HELP = f"the game: {', '.join(sorted(GAMES))} (see 'trickspec games')"
VARIANT_HELP = "with this variant in force (repeatable; see 'trickspec games')"


class Progress:
    """A count of work done, shown on standard error when it is a terminal, at most a few
    times a second and only once ``after`` seconds have passed; cleared when the work is
    done."""

    def __init__(self, total: int, noun: str, *, after: float = 0.0) -> None:
        self.total, self.noun, self.done = total, noun, 0
        self.shown = sys.stderr.isatty() and total > 1
        self.last = 0.0
        self.since = time.monotonic() + after

    def step(self) -> bool:
        """Count one more; True, so that it can sit in a comprehension's condition."""
        return self.reach(self.done + 1)

    def reach(self, done: int) -> bool:
        """Count ``done`` in all; True, as :meth:`step`."""
        self.done = done
        now = time.monotonic()
        if self.done >= self.total:
            self.close()
        elif self.shown and now - self.last > 0.25 and now >= self.since:
            self.last = now
            print(f"\r{self.done:,} of {self.total:,} {self.noun}", end="", file=sys.stderr,
                  flush=True)
        return True

    def close(self) -> None:
        """Clear the line shown, if any."""
        if self.shown and self.last:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        self.shown = False
