"""``trickspec pbn``: deals written in PBN (the Portable Bridge Notation of bridge
programs), or the deals of a PBN file listed; and the PBN files ``trickspec play`` reads
and writes."""
from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.engine import Bot, new_deal, play_deal
from spec.errors import NotationError
from spec.pbn import (
    PbnDeal,
    check_pbn_auctions,
    check_pbn_game,
    iter_pbn,
    read_pbn,
    rubber_vulnerability,
    write_pbn,
)
from spec.records import hands_text
from spec.sheet import play_rubber
from verifier.commands._common import (
    GAME_HELP,
    VARIANT_HELP,
    Commands,
    Progress,
    add_bots,
    arg,
    bots_for,
    emit,
    emit_pieces,
    game_named,
    seed_arg,
    whole_number,
)
from verifier.errors import InputError
from verifier.files import read_text, shown_path

MAX_PBN_DEALS = 10_000_000  # deals written one by one (some hours at the engine's speed)
_pbn_count_arg = arg(lambda t: whole_number(t, what="the count of deals", least=1,
                                            most=MAX_PBN_DEALS), "count")


def add_parser(commands: Commands) -> None:
    """``pbn``: the deals to write, or the file to read."""
    pb = commands.add_parser("pbn", help="write deals in PBN, or check a PBN file",
                             description="Write deals of a 52-card four-hand game in PBN (the "
                             "Portable Bridge Notation of bridge programs), dealt from seeds "
                             "seed, seed+1, ... by the game's first dealer; with --played, play "
                             "them with the bots (sensible ones by default) and add the auction, "
                             "contract, declarer, result and the play, each deal scored on its "
                             "own (vulnerable: None); with --rubber, play one rubber and write "
                             "its deals, each with its dealer and the vulnerability of the score "
                             "sheet.  A game whose contracts are not bridge bids has its deals "
                             "written but cannot be played into PBN.  With --read, read a PBN "
                             "file and list its deals (exit 2 at the first error).")
    pb.add_argument("game", metavar="GAME", help=GAME_HELP)
    pb.add_argument("--seed", type=seed_arg, default=0, help="seed of the first deal (default 0)")
    pb.add_argument("-n", "--deals", type=_pbn_count_arg, default=None, metavar="N",
                    help=f"number of deals to write, each as soon as it is dealt (default 1, at "
                    f"most {MAX_PBN_DEALS:,}); progress is shown on a terminal")
    pb.add_argument("--played", action="store_true",
                    help="play each deal with the bots (sensible ones by default) and write its "
                    "play")
    pb.add_argument("--rubber", action="store_true",
                    help="play one rubber from the seed (in a game that plays rubbers) and "
                    "write its deals: the dealer moves on deal by deal, and a side that has won "
                    "a game is vulnerable")
    add_bots(pb)
    pb.add_argument("--variant", action="append", default=[], metavar="ID", help=VARIANT_HELP)
    pb.add_argument("--read", metavar="FILE", help="read FILE ('-': standard input) and list its deals")
    pb.add_argument("--json", action="store_true", help="with --read: list the deals as JSON")
    pb.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    pb.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Write the deals asked for in PBN, each as soon as it is dealt; or list a file's."""
    game = game_named(args.game, args.variant)
    try:
        check_pbn_game(game)
    except NotationError as e:
        raise InputError(str(e)) from None
    try:
        if args.played or args.rubber:
            check_pbn_auctions(game)
    except NotationError as e:
        raise InputError(f"{e} (leave out {'--played' if args.played else '--rubber'})") from None
    if args.rubber and args.played:
        raise InputError("--rubber plays the deals of one rubber; --played is for deals played "
                         "one by one: name one of them")
    if args.read and (args.played or args.rubber):
        raise InputError(f"{'--played' if args.played else '--rubber'} plays new deals; leave "
                         "it out with --read")
    if args.json and not args.read:
        raise InputError("--json lists the deals of a file read with --read; PBN is written as "
                         "text")
    if args.read:
        return _list(args, game)
    if args.bots is not None and not (args.played or args.rubber):
        raise InputError("--bots chooses who plays the deals of --played; add --played")
    bots = bots_for(game, args.bots)
    if args.rubber:
        return _rubber(args, game, bots)
    count = 1 if args.deals is None else args.deals
    progress = Progress(count, "deals")
    states = (play_deal(game, seed=args.seed + k, bots=bots) if args.played
              else new_deal(game, seed=args.seed + k) for k in range(count))
    return emit_pieces(args, (piece for k, piece in enumerate(iter_pbn(game, states))
                              if k == 0 or progress.step()))


def _rubber(args: argparse.Namespace, game: Game, bots: Sequence[Bot] | None) -> int:
    """One rubber played with the bots, its deals written with the sheet's vulnerability."""
    if args.deals is not None:
        raise InputError("--rubber writes the deals of one rubber, as many as it takes; "
                         "leave out -n")
    if not game.constructs(K.Rubber):
        raise InputError(f"{game.name} is not played in rubbers; leave out --rubber")
    record = play_rubber(game, seed=args.seed, bots=bots)
    try:
        vul = rubber_vulnerability(game, record.sides,
                                   ((g.winner, g.deal) for g in record.games), len(record.deals))
    except NotationError as e:
        raise InputError(str(e)) from None
    return emit(args, pbn_text(game, record.deals, vulnerable=vul))


def _list(args: argparse.Namespace, game: Game) -> int:
    """The deals of the file read: each board's number, dealer and (as JSON) hands."""
    deals = read_pbn_file(game, args.read)
    if not deals:
        raise InputError(f"{shown_path(args.read)} holds no deal (a PBN game starts with "
                         "tags such as [Deal \"N:...\"])")
    rows = [{"board": d.board, "dealer": None if d.dealer is None else game.table.name(d.dealer),
             "hands": hands_text(game, d.hands)} for d in deals]
    if args.json:
        return emit(args, json.dumps(rows, indent=2, ensure_ascii=False))
    lines = [f"{shown_path(args.read)}: {len(deals)} deal(s) of {game.name}"]
    for r in rows:
        lines.append(f"  board {r['board'] or '?'}, dealer {r['dealer'] or '?'}")
    return emit(args, "\n".join(lines))


def read_pbn_file(game: Game, path: str) -> list[PbnDeal]:
    """The deals of a PBN file ('-': standard input).

    Raises:
        InputError: the file cannot be read, or is not PBN of this game.
    """
    try:
        return read_pbn(game, read_text(path, errors="replace"))
    except NotationError as e:
        raise InputError(f"{shown_path(path)}: {e}") from None


def pbn_deal(game: Game, path: str, board: str | None) -> PbnDeal:
    """The deal of one board of a PBN file (the first when no board is named)."""
    deals = read_pbn_file(game, path)
    if not deals:
        raise InputError(f"{path} holds no deal (no [Deal \"...\"] tag)")
    if board is None:
        return deals[0]
    for d in deals:
        if d.board == board:
            return d
    boards = ", ".join(str(d.board) for d in deals if d.board is not None) or "none numbered"
    raise InputError(f"{path} has no board {board!r} (boards: {boards})")


def pbn_text(game: Game, deals: Sequence[Any], vulnerable: Sequence[str] = ()) -> str:
    """Deals (states) in PBN, without the last newline; ``vulnerable`` gives the
    ``Vulnerable`` value of each deal (by default, as :func:`~spec.pbn.write_pbn` writes).

    Raises:
        InputError: the game's deals cannot be written in PBN.
    """
    try:
        return write_pbn(game, deals, vulnerable=vulnerable).rstrip("\n")
    except NotationError as e:
        raise InputError(str(e)) from None
