"""``trickspec play``: a deal, a whole game, a rubber or a session for a pot, played by
bots (sensible ones unless --bots names others) and written as text, as a record (JSON) or
in PBN."""
from __future__ import annotations

import argparse
import json

from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.engine import play_deal, play_match, play_pot_session
from spec.errors import SpecError
from spec.records import match_json, session_json, to_record
from spec.sheet import play_rubber, render_sheet, rubber_json
from spec.text import render, render_match, render_pot_session
from verifier.commands._common import (
    GAME_HELP,
    Commands,
    add_bots,
    arg,
    bots_for,
    emit,
    game_named,
    seed_arg,
    whole_number,
)
from verifier.commands.deals import deal_from_file
from verifier.commands.pbn import pbn_deal, pbn_text
from verifier.errors import InputError

MAX_SESSION = 100_000  # deals of one session, kept together
DEFAULT_SESSION = 10  # deals of a session for a pot, unless --deals says otherwise
_session_arg = arg(lambda t: whole_number(t, what="the count of deals", least=1,
                                          most=MAX_SESSION), "count")


def add_parser(commands: Commands) -> None:
    """``play``: the seed, what to play (a deal, a whole game, a rubber, a session, the deal
    of a file) and how to write it."""
    pl = commands.add_parser("play", help="play a whole deal with bots (sensible ones unless "
                             "--bots names others)",
                             description="Deal from a seed and play the deal with bots (sensible "
                             "ones unless --bots names others); the same seed gives the same "
                             "deal.")
    pl.add_argument("game", metavar="GAME", help=GAME_HELP)
    pl.add_argument("--seed", type=seed_arg, default=0, help="seed of the shuffle and the bots (default 0)")
    pl.add_argument("--variant", action="append", default=[], metavar="ID",
                    help="play with this variant in force (repeatable; see 'trickspec games')")
    pl.add_argument("--dealer", metavar="SEAT", help="the dealer's seat (default: the last seat)")
    pl.add_argument("--json", action="store_true", help="write the machine-readable record")
    pl.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    pl.add_argument("--match", action="store_true",
                    help="play a whole game: deals (seed, seed+1, ...) until the game's end rule "
                    "is met, e.g. 11 game points in 304 (a rubber in games that play rubbers)")
    pl.add_argument("--rubber", action="store_true",
                    help="play a whole rubber and print the score sheet (WE / THEY, above and "
                    "below the line)")
    pl.add_argument("--session", action="store_true",
                    help="play deals for a pot (in a game that keeps one): every player "
                    "antes, the pot is filled again whenever a deal empties it, and a running "
                    "sheet shows each player's chips and the pot")
    pl.add_argument("--deals", type=_session_arg, default=None, metavar="N",
                    help=f"with --session: the number of deals (default {DEFAULT_SESSION}); "
                    "with --match, in a game played for a number of deals: the number the "
                    "players agree on, a multiple of what the rules ask (default: the rules' "
                    "own)")
    pl.add_argument("--pbn", metavar="FILE",
                    help="play the deal of a PBN file ('-' reads standard input) instead of "
                    "dealing from the seed (52-card four-hand games)")
    pl.add_argument("--deal", metavar="FILE", help="play a deal of a file from 'trickspec deals' "
                    "instead of dealing from the seed")
    pl.add_argument("--board", metavar="N", help="with --pbn: the board to play; with --deal: "
                    "the deal's position, from 1 (default: the first)")
    pl.add_argument("--format", choices=("text", "json", "pbn"), default=None,
                    help="how to write the deal: text (default), json (as --json) or pbn")
    add_bots(pl)
    pl.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Play what the options ask for and write it."""
    game = game_named(args.game, args.variant)
    if args.format == "json":
        args.json = True
    if args.format == "pbn" and (args.json or args.match or args.rubber):
        raise InputError("--format pbn writes one deal; leave out --json, --match and --rubber")
    dealer = game.table.parse_seat(args.dealer) if args.dealer is not None else None
    rubber = bool(game.constructs(K.Rubber))
    _refuse_conflicts(args, game, rubber)
    args.bot_list = bots_for(game, args.bots)
    if args.session:
        return _session(args, game, dealer)
    if args.rubber or (args.match and rubber):
        record = play_rubber(game, seed=args.seed, dealer=dealer, bots=args.bot_list)
        text = (json.dumps(rubber_json(record), indent=2, ensure_ascii=False) if args.json
                else render_sheet(record))
        return emit(args, text)
    if args.match:
        return _match(args, game, dealer, session=False)
    return _one_deal(args, game, dealer)


def _refuse_conflicts(args: argparse.Namespace, game: Game, rubber: bool) -> None:
    """Refuse options that do not go together, saying what to leave out."""
    if args.rubber and not rubber:
        raise InputError(f"{game.name} is not played in rubbers; use --match to play a whole game")
    if args.pbn and (args.rubber or args.match):
        raise InputError("--pbn plays one deal from the file; leave out --rubber and --match")
    if args.board is not None and not (args.pbn or args.deal):
        raise InputError("--board picks a deal of a file: give it with --pbn FILE or --deal FILE")
    if args.pbn and args.deal:
        raise InputError("give one file to play: --pbn FILE or --deal FILE")
    if args.deal and (args.rubber or args.match):
        raise InputError("--deal plays one deal from the file; leave out --rubber and --match")
    if args.deals is not None and not (args.session or args.match):
        raise InputError("--deals counts the deals of a --session, or of a --match where the "
                         "players agree on its length")
    if args.deals is not None and (args.rubber or (args.match and rubber)):
        raise InputError(f"a rubber of {game.name} ends when a side has won its games; leave "
                         "out --deals")
    if args.session and (args.match or args.rubber or args.pbn or args.deal
                         or args.format == "pbn"):
        raise InputError("--session plays deals for a pot; leave out --match, --rubber, "
                         "--pbn, --deal and --format pbn")


def _session(args: argparse.Namespace, game: Game, dealer: int | None) -> int:
    """Deals for a pot; in a game without a pot that is played for a number of deals, the
    number of deals the players agree on, each settled on its own (the game's MatchLength,
    or --deals)."""
    if (not game.constructs(K.Pot) and game.constructs(K.MatchLength)
            and not game.constructs(K.MatchTarget)):
        return _match(args, game, dealer, session=True)
    try:
        pots = play_pot_session(game, deals=DEFAULT_SESSION if args.deals is None
                                else args.deals, seed=args.seed, dealer=dealer,
                                bots=args.bot_list)
    except SpecError as e:
        raise InputError(str(e)) from None
    text = (json.dumps(session_json(pots), indent=2, ensure_ascii=False) if args.json
            else render_pot_session(game, pots))
    return emit(args, text)


def _match(args: argparse.Namespace, game: Game, dealer: int | None, *, session: bool) -> int:
    """Deals until the game's end rule is met, or as many as the players agree on (a
    ``session`` of deals, each settled on its own)."""
    try:
        match = play_match(game, seed=args.seed, dealer=dealer, deals=args.deals,
                           bots=args.bot_list)
    except SpecError as e:
        raise InputError(str(e)) from None
    if args.json:
        text = json.dumps(match_json(match), indent=2, ensure_ascii=False)
    else:
        text = (render_match(game, match, f"a session of {len(match.deals)} deals") if session
                else render_match(game, match))
    return emit(args, text)


def _one_deal(args: argparse.Namespace, game: Game, dealer: int | None) -> int:
    """One deal: dealt from the seed, or the hands of a PBN file or a deals file."""
    if args.pbn:
        deal = pbn_deal(game, args.pbn, args.board)
        state = play_deal(game, seed=args.seed, hands=deal.hands, bots=args.bot_list,
                          dealer=dealer if dealer is not None else deal.dealer)
    elif args.deal:
        hands, file_dealer, dealt = deal_from_file(game, args.deal, args.board)
        state = play_deal(game, seed=args.seed, hands=hands, bots=args.bot_list,
                          dealer=dealer if dealer is not None else file_dealer, **dealt)
    else:
        state = play_deal(game, seed=args.seed, dealer=dealer, bots=args.bot_list)
    if args.format == "pbn":
        text = pbn_text(game, [state])
    elif args.json:
        text = json.dumps(to_record(state), indent=2, ensure_ascii=False)
    else:
        text = render(state, shuffled=not (args.pbn or args.deal))
    return emit(args, text)
