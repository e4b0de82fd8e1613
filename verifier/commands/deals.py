"""``trickspec deals``: deals whose hands (or whose play) satisfy a constraint, or a proof
that none do; and the deals files it writes, which ``trickspec play --deal`` reads."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from spec.constraints import about_play, parse_where
from spec.double_dummy import NO_PLAY, UNKNOWN, reads_double_dummy
from spec.dsl._build import Game
from spec.engine import State, engine_for
from spec.errors import NotationError, shown
from spec.records import hands_from_text, hands_text, json_kind, to_record
from spec.solver import BUDGET
from spec.text import hand_lines, render
from verifier._z3.solver import SEARCH_RLIMIT
from verifier.commands._common import (
    EXIT_ERROR,
    EXIT_IMPOSSIBLE,
    GAME_HELP,
    VARIANT_HELP,
    Commands,
    Progress,
    add_budget,
    arg,
    emit,
    game_named,
    seed_arg,
    whole_number,
)
from verifier.deals import deals_where
from verifier.errors import InputError
from verifier.files import read_json, shown_path
from verifier.scenario import scenarios_where

DEALS_FORMAT = "trickspec-deals/1"
MAX_DEALS = 10_000  # distinct deals searched for and kept together, to be told apart
_deals_arg = arg(lambda t: whole_number(t, what="the count of distinct deals", least=1,
                                        most=MAX_DEALS), "count")
_budget_arg = arg(lambda t: whole_number(t, what="the budget of a dd() search", least=1),
                  "count")


def add_parser(commands: Commands) -> None:
    """``deals``: the constraint, how many deals, how to look for them and the budget."""
    d = commands.add_parser("deals", help="deals that satisfy a constraint, or a proof that none do",
                            description="Write N distinct deals whose hands satisfy a constraint "
                            "(JSON by default), found by dealing and rejecting or by Z3; every deal "
                            "is checked by the engine; the same seed gives the same deals.  "
                            "Constraint language: holds(SEAT, CARD, ...), count(SEAT, SUIT-or-RANK), "
                            "void(SEAT, SUIT), length(SEAT), points(SEAT), dealer, numbers, "
                            "== != < <= > >= + - *, and / or / not, parentheses; e.g. "
                            "'holds(South, AS, KS) and count(North, hearts) >= 5'.  A condition "
                            "about the play (lead(K), leader(K), winner(K), played(K, SEAT), "
                            "tricks(SEAT), won(SEAT), score(SEAT), declares(SEAT), declarer, "
                            "partner (one the auction or the cards make; the declarer himself in "
                            "a game of fixed partnerships), level, strain, a contract by its name as "
                            "in 'level == miserie', tricks(side) and won(side) for the declaring "
                            "side's) gives "
                            "deals with a complete legal auction and play that make it true, found "
                            "by Z3 and replayed by the engine.  dd(SEAT, STRAIN) (or dd(SEAT, "
                            "CONTRACT), with trumps as a third argument where the contract names "
                            "none) is the double-dummy value of the hands as dealt for the side "
                            "of SEAT as declarer, and dd() that of the contract played from the "
                            "first lead: the tricks (or card points) the side takes under "
                            "perfect play, or 1 and 0 where it plays for a count between bounds. "
                            " Z3 cannot encode dd(): a condition with it is searched among deals "
                            "dealt (or played by bots) only, and --method z3 is refused; a deal "
                            "on which a search spends --budget is neither true nor false, so it "
                            "is skipped and counted.  Exit 0: found; "
                            "3: impossible (proved by Z3); 2: unknown (the solver's budget ran out) or bad input.")
    d.add_argument("game", metavar="GAME", help=GAME_HELP)
    d.add_argument("--where", required=True, metavar="CONSTRAINT",
                   help="the condition on the hands as dealt")
    d.add_argument("-n", type=_deals_arg, default=1, metavar="N",
                   help=f"number of distinct deals (default 1, at most {MAX_DEALS:,}); "
                   "progress is shown on a terminal")
    d.add_argument("--seed", type=seed_arg, default=0, help="seed (default 0)")
    d.add_argument("--dealer", metavar="SEAT", help="the dealer's seat (default: the last seat)")
    d.add_argument("--method", choices=("auto", "z3", "rejection"), default="auto",
                   help="auto (default): deal and reject first (for a condition about the "
                   "play: many random deals played together where the batch runs the game's "
                   "deals whole, then deals played by bots), then Z3; or only one of them "
                   "(with dd(): dealing only)")
    d.add_argument("--budget", type=_budget_arg, default=BUDGET, metavar="N",
                   help=f"nodes each dd() search may visit before it answers unknown "
                   f"(default {BUDGET:,}): a count, so the same deals on any machine")
    add_budget(d, SEARCH_RLIMIT, "some ten times what the hardest of the README's examples "
               "needs", timeout=600.0)
    d.add_argument("--variant", action="append", default=[], metavar="ID", help=VARIANT_HELP)
    d.add_argument("--text", action="store_true", help="readable hands instead of JSON")
    d.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output "
                   "(left as it was when the deals are impossible or unknown)")
    d.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Deals whose hands satisfy the constraint; for a condition about the play, deals
    with a play that makes it true (:func:`_scenarios`)."""
    game = game_named(args.game, args.variant)
    dealer = game.table.parse_seat(args.dealer) if args.dealer is not None else None
    where = parse_where(game, args.where)
    if about_play(where):
        return _scenarios(args, game, where, dealer)
    progress = Progress(args.n, "deals found")
    result = deals_where(game, where, n=args.n, seed=args.seed, dealer=dealer,
                         method=args.method, timeout=args.timeout, rlimit=args.rlimit,
                         on_found=lambda d, hands: progress.step(), budget=args.budget)
    progress.close()
    t = game.table
    data = {
        "format": DEALS_FORMAT, "game": game.key, "variants": list(game.active_variants),
        "where": args.where, "seed": args.seed, "status": result.status, "method": result.method,
        "seconds": round(result.seconds, 3),
        "deals": [{"dealer": t.name(d), "hands": hands_text(game, hands)}
                  for d, hands in result.deals],
    }
    if result.reason:
        data["reason"] = result.reason
    _skipped(args, where, data, result.skipped)
    if args.text:
        lines = [f"{game.name}: {len(result.deals)} deal(s) where {args.where} "
                 f"({result.status}, {result.method or 'no method'}, {result.seconds:.2f} s)"]
        for k, (d, hands) in enumerate(result.deals, start=1):
            lines.append(f"deal {k}, dealer {t.name(d)}")
            lines += hand_lines(game, hands)
        text = "\n".join(lines)
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False)
    return _answer(args, text, result.status, result.reason, len(result.deals))


def _answer(args: argparse.Namespace, text: str, status: str, reason: str, found: int) -> int:
    """Write the deals found; say on stderr when they are impossible, unknown or too few,
    with the exit code that goes with it."""
    if status in ("impossible", "unknown"):
        hint = f" ({_unknown_hint(reason)})" if status == "unknown" else ""
        print(f"trickspec: {status}: {reason}{hint}", file=sys.stderr)
        if not args.out:  # a file asked for keeps what it held: no deals to put in it
            emit(args, text)
        return EXIT_IMPOSSIBLE if status == "impossible" else EXIT_ERROR
    if found < args.n:
        print(f"trickspec: only {found} deals satisfy the constraint", file=sys.stderr)
    return emit(args, text)


def _skipped(args: argparse.Namespace, where: Any, data: dict[str, Any],
             skipped: dict[str, int]) -> None:
    """For a condition that reads dd(): the deals skipped, by why, in the answer, and in
    one line on stderr when there are some."""
    if not reads_double_dummy(where):
        return
    data["skipped"] = {why: skipped.get(why, 0) for why in (UNKNOWN, NO_PLAY)}
    unknown, no_play = skipped.get(UNKNOWN, 0), skipped.get(NO_PLAY, 0)
    if unknown or no_play:
        parts = ([f"{unknown:,} on which a search spent its budget of {args.budget:,} nodes "
                  "(raise --budget to judge them)"] if unknown else []) + \
                ([f"{no_play:,} with no play of the cards"] if no_play else [])
        print(f"trickspec: skipped {unknown + no_play:,} deal(s) on which the condition is "
              f"neither true nor false: {' and '.join(parts)}", file=sys.stderr)


def _unknown_hint(reason: str) -> str:
    """What to change when the search gave no answer, from the reason it gave."""
    if "resource limit" in reason:
        return "raise --rlimit to look further"
    if "time ran out" in reason:
        return "raise --timeout to look further"
    if "dd()" in reason:
        return "conditions on the hands that make such deals likelier help"
    if "rejection" in reason:
        return "leave out --method rejection to let Z3 look"
    return "raise --timeout or --rlimit to look further"


def _scenarios(args: argparse.Namespace, game: Game, where: Any, dealer: int | None) -> int:
    """Deals with a complete play that makes a condition about the play true: among deals
    played by bots, then by Z3 (``--method``: ``rejection`` the first only, ``z3`` the
    second only)."""
    progress = Progress(args.n, "deals found")
    result = scenarios_where(game, where, n=args.n, seed=args.seed, dealer=dealer,
                             timeout=args.timeout, rlimit=args.rlimit, method=args.method,
                             on_found=lambda state: progress.step(), budget=args.budget)
    progress.close()
    data = {"format": DEALS_FORMAT, "game": game.key, "variants": list(game.active_variants),
            "where": args.where, "seed": args.seed, "status": result.status,
            "method": result.method,
            "seconds": round(result.seconds, 3),
            "deals": [_entry(game, st) for st in result.states]}
    if result.reason:
        data["reason"] = result.reason
    _skipped(args, where, data, result.skipped)
    text = ("\n\n".join(render(st) for st in result.states) if args.text
            else json.dumps(data, indent=2, ensure_ascii=False))
    return _answer(args, text, result.status, result.reason, len(result.states))


def _entry(game: Game, state: State) -> dict[str, Any]:
    """A deal found and played: its dealer and hands, the card turned up and the cards
    dealt late where its record names them (so that it is dealt again as it was), and its
    record."""
    record = to_record(state)
    out = {"dealer": game.table.name(state.dealer), "hands": hands_text(game, state.dealt)}
    out.update({k: record[k] for k in ("turn_up", "later") if k in record})
    out["record"] = record
    return out


def deal_from_file(game: Game, path: str, board: str | None
                   ) -> tuple[tuple[int, ...], int, dict[str, Any]]:
    """Hands and dealer of one deal of a file written by 'trickspec deals' (``board``: its
    position, from 1; the first when None), and what else deals it as it was: the card
    turned up (``turn_up``) and the cards dealt late (``later``), where the file names them
    (keywords of :func:`spec.engine.new_deal`).

    Raises:
        InputError: the file is not a deals file of this game, or has no such deal.
    """
    data = read_json(path, what="a deals file from 'trickspec deals'")
    name = shown_path(path)
    if not isinstance(data, dict) or data.get("format") != DEALS_FORMAT:
        raise InputError(f"{name} is not a deals file (format {DEALS_FORMAT!r}, from "
                         "'trickspec deals')")
    if data.get("game") != game.key:
        raise InputError(f"{name} holds deals of {shown(data.get('game'))}, not {game.key!r}")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise InputError(f"{name}: 'deals' must be a list of deals, got {json_kind(deals)}")
    if not deals:
        raise InputError(f"{name} holds no deal")
    try:
        k = 1 if board is None else whole_number(board, what="--board", least=1)
    except InputError as e:
        raise InputError(f"{e} (the deal's position in {name}, from 1)") from None
    if not 1 <= k <= len(deals):
        raise InputError(f"{name} has deals 1 to {len(deals)}; --board {board} is not one")
    deal = deals[k - 1]
    if not isinstance(deal, dict):
        raise InputError(f"{name}: deal {k} must be an object with 'dealer' and 'hands', got "
                         f"{json_kind(deal)}")
    if not isinstance(deal.get("dealer"), str):
        raise InputError(f"{name}: deal {k}: 'dealer' must be a seat's name, got "
                         f"{json_kind(deal.get('dealer'))}")
    try:
        hands = hands_from_text(game, deal.get("hands"))
        dealer = game.table.parse_seat(deal["dealer"])
        dealt: dict[str, Any] = {}
        if "turn_up" in deal:
            if not isinstance(deal["turn_up"], str):
                raise NotationError(f"'turn_up' must be a card, got {json_kind(deal['turn_up'])}")
            dealt["turn_up"] = game.deck.parse_card(deal["turn_up"])
        if "later" in deal:
            dealt["later"] = hands_from_text(game, deal["later"], whole=False)
            engine_for(game).check_later(hands, dealt["later"])
        return hands, dealer, dealt
    except NotationError as e:
        raise InputError(f"{name}: deal {k}: {e}") from None
