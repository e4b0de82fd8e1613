"""Deals as players read them: hands, calls, tricks, points and scores, as text.

:func:`render` writes one deal, :func:`render_match` a whole game (or a number of deals
each settled on its own), :func:`render_pot_session` a session for a pot; the score sheet
of a rubber (:func:`spec.sheet.render_sheet`) writes its deals' contracts and its sides
with the same pieces.  Hands are written suit by suit with the suits' symbols
(``♠ A K 4   ♥ 10 9``), contracts with the bid's symbol and the declarer
(``3♥ by South``), seats and sides by their names.  Records (:mod:`spec.records`) write
the same deals as JSON, with the cards' letters (``AS KS 4S``).

Nothing here names a game.

>>> from spec.cards import CardSet
>>> from spec.registry import find_game
>>> game = find_game("vint")
>>> hand_text(game, CardSet.parse("AS KS 4S TH 9H", game.deck).mask)
'♠ A K 4   ♥ 10 9'
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from spec.cards import CardSet
from spec.dsl import _constructs as K
from spec.dsl._build import Bid, Game, suit_from_code
from spec.engine import (
    ASK_PARTNER,
    Call,
    Declare,
    Discard,
    Lay,
    Match,
    Phase,
    Play,
    PotSession,
    State,
)

__all__ = ["NO_CONTRACT", "hand_text", "hand_lines", "seat_names", "side_names",
           "contract_text", "render", "render_match", "render_pot_session"]

NO_CONTRACT = "no contract"  # what a deal nobody won the auction of is written as


def hand_text(game: Game, mask: int) -> str:
    """Cards suit by suit, highest first, each suit after its symbol; a joker last;
    ``-`` for no cards."""
    cs = CardSet(game.deck, mask)
    by_suit: dict[str, list[str]] = {}
    other = []
    for c in reversed(list(cs)):
        if c.suit is None:
            other.append(c.symbol)
        else:
            by_suit.setdefault(c.suit.symbol, []).append(str(c.rank))
    parts = [f"{s} {' '.join(r)}" for s, r in by_suit.items()] + other
    return "   ".join(parts) if parts else "-"


def hand_lines(game: Game, hands: Sequence[int], *, talon: int | None = None) -> list[str]:
    """One line per seat (``hands`` in the order of the seats): the seat's name in a
    column as wide as the longest name, then its hand (:func:`hand_text`), indented by
    two spaces; with ``talon``, a last line for the talon."""
    t = game.table
    w = max(len(n) for n in t.names)
    lines = [f"  {t.name(s):{w}}  {hand_text(game, h)}" for s, h in enumerate(hands)]
    if talon is not None:
        lines.append(f"  {'talon':{w}}  {hand_text(game, talon)}")
    return lines


def seat_names(game: Game) -> list[str]:
    """The seats' names, in the order of the seats."""
    return [game.table.name(s) for s in game.table.seats]


def side_names(game: Game, sides: Sequence[tuple[int, ...]]) -> list[str]:
    """Each side by its seats' names (``North-South``)."""
    return [game.table.side_name(s) for s in sides]


def contract_text(game: Game, state: State, bid_text: Callable[[Bid], str] | None = None,
                  *, by: str = " by ") -> str:
    """A deal's contract: the bid (written by ``bid_text``, by default its symbol), ``by``
    and the declarer, ``3♥ by South``; or :data:`NO_CONTRACT`."""
    if state.contract < 0:
        return NO_CONTRACT
    bid = game.ladder[state.contract]
    return f"{bid.symbol if bid_text is None else bid_text(bid)}{by}{game.table.name(state.declarer)}"


def render(state: State, *, shuffled: bool = False) -> str:
    """A deal as players would read it: hands, calls, tricks, points and scores; with
    ``shuffled`` (a deal shuffled from its seed, not hands given), who cut the pack."""
    game = state.game
    # announcements are the rules' Announce names; any other name is a choice the rules
    # give a seat (trumps named, a defender's play or pass ...)
    announcing = {b.name for _r, b in game.constructs(K.Announce)}  # type: ignore[attr-defined]
    lines = [_heading(state, shuffled), *_hands(state), "Auction",
             "  " + ", ".join(_before_play(state, announcing)), *_contract(state), "Play",
             *_tricks(state)]
    t = game.table
    announced = [f"{t.name(s)} {a}" for s, a in state.log
                 if isinstance(a, Declare) and a.name in announcing]
    if announced:
        lines.append("Announcements: " + ", ".join(announced))
    if state.phase is Phase.OVER:
        lines += _scores(state)
    return "\n".join(lines)


def _heading(state: State, shuffled: bool) -> str:
    """The game, seed and dealer; who cut a pack shuffled from the seed; the variants."""
    game, t, eng = state.game, state.game.table, state.engine
    # a carried pack is cut as the deal before says, which one deal's text does not show
    cutter = eng.cutter(state) if shuffled and not eng.carries_pack else -1
    return (f"{game.name}, seed {state.seed}, dealer {t.name(state.dealer)}"
            + (f", cut by {t.name(cutter)}" if cutter >= 0 else "")
            + (f", variants {', '.join(game.active_variants)}" if game.active_variants else ""))


def _hands(state: State) -> list[str]:
    """The deals thrown in before this one, then the hands, the talon and the turn-up."""
    game, t = state.game, state.game.table
    lines = []
    for thrown in state.thrown_in:
        lines.append(f"Thrown in ({thrown.reason}): " + "; ".join(
            f"{t.name(s)} {hand_text(game, h)}" for s, h in enumerate(thrown.dealt)))
    lines.append("Hands")
    lines += hand_lines(game, [state.dealt[s] for s in t.seats],
                        talon=state.dealt_talon if game.program.talon_cards else None)
    if state.turn_up >= 0:  # a card dealt face up, seen by all
        lines.append(f"  turn-up {game.deck[state.turn_up].symbol}, dealt to "
                     f"{t.name(state.engine.turn_up_holder(state.dealer))}")
    return lines


def _before_play(state: State, announcing: set[str]) -> list[str]:
    """Every action before the first card is played: calls, cards laid aside, the talon
    taken, choices and announcements."""
    game, t = state.game, state.game.table
    discards = sum(1 for _s, a in state.log if isinstance(a, Discard))
    out = []
    for s, a in state.log:
        if isinstance(a, Play):
            break
        if isinstance(a, Call):
            out.append(f"{t.name(s)} {'pass' if a.bid is None else a.bid.symbol}")
        elif isinstance(a, Lay):
            out.append(f"{t.name(s)} lays a card face down")
        elif isinstance(a, Discard):
            if discards:  # the cards are unseen: one line for all of them
                out.append(f"{t.name(s)} takes the talon and discards {discards} "
                           f"card{'s' if discards > 1 else ''} face down")
                discards = 0
        elif a == ASK_PARTNER and game.constructs(K.ProxyCall):
            out.append(f"{t.name(s)} asks his partner to call")
        elif isinstance(a, Declare) and a.name not in announcing:
            out.append(f"{t.name(s)} chooses {a}")
        else:
            out.append(f"{t.name(s)} announces {a}")
    return out


def _contract(state: State) -> list[str]:
    """The contract and every seat that declares it (several where a bid was joined), with
    a partner; the hands laid open."""
    t = state.game.table
    lines = []
    if state.contract >= 0:
        others = [s for s in t.seats if state.declarers >> s & 1 and s != state.declarer]
        partner = (f" with {t.name(state.partner)}" if 0 <= state.partner != state.declarer
                   else "")
        lines.append(f"Contract: {contract_text(state.game, state)}"
                     + "".join(f" and {t.name(s)}" for s in others) + partner)
    for seat, after in state.laid_open:
        lines.append(f"{t.name(seat)} lays his hand open after trick {after}")
    return lines


def _tricks(state: State) -> list[str]:
    """Each trick: who played what (face down, naming a suit), and who won it."""
    game, t = state.game, state.game.table
    lines = []
    for rec in state.tricks:
        plays = []
        faces = rec.face_down or (False,) * len(rec.cards)
        for seat, c, d, down in zip(rec.seats, rec.cards, rec.named, faces):
            named = suit_from_code(d)
            plays.append(f"{t.name(seat)} {game.deck[c].symbol}"
                         + (" (face down)" if down else "")
                         + (f" (naming {named.symbol})" if named is not None else ""))
        lines.append(f"  {rec.number:2}. " + ", ".join(plays) + f"  -> {t.name(rec.winner)}"
                     + ("  (turned up)" if rec.revealed else ""))
    return lines


def _scores(state: State) -> list[str]:
    """A finished deal's points taken, scores, each line of the score sheet and what each
    scoring rule gave."""
    t, eng = state.game.table, state.engine
    lines = ["Points taken: " + ", ".join(f"{t.name(s)} {eng.points(state, s)}" for s in t.seats),
             "Scores: " + ", ".join(f"{t.name(s)} {x:+d}" for s, x in enumerate(state.scores or ()))]
    for line, col in zip(eng.lines, state.lines):
        lines.append(f"  {line}: " + ", ".join(f"{t.name(s)} {x:+d}" for s, x in enumerate(col)))
    for rule, seat, amount in eng.score_items(state):
        lines.append(f"    {t.name(seat)} {amount:+d} by {rule.id}")
    return lines


def render_pot_session(game: Game, pots: PotSession) -> str:
    """The running sheet of a session for a pot: per deal the contract, each player's
    chips won or lost, each player's total and the pot."""
    t = game.table
    names = seat_names(game)
    first = pots.deals[0]
    lines = [f"{game.name}: {len(pots.deals)} deals for a pot from seed {first.seed}, "
             f"{pots.ante} chips each into it (pot {pots.ante * game.players})",
             f"  {'deal':>4}  {'dealer':8}{'contract':24}"
             + "".join(f"{n:>8}" for n in names) + "   | " + "".join(f"{n:>8}" for n in names)
             + f"{'pot':>7}"]
    for k, (state, chips, pot, refill) in enumerate(
            zip(pots.deals, pots.chips, pots.pots, pots.refilled), start=1):
        contract = contract_text(game, state, lambda bid: f"{bid.symbol} {_trumps(state)}")
        scores = state.scores or (0,) * game.players
        lines.append(f"  {k:4}  {t.name(state.dealer):8}{contract:24}"
                     + "".join(f"{x:+8}" for x in scores) + "   | "
                     + "".join(f"{x:8}" for x in chips) + f"{pot:7}"
                     + ("  refilled" if refill else ""))
    lines.append("Net chips: " + ", ".join(f"{n} {x:+}" for n, x in zip(names, pots.chips[-1]))
                 + f"; the pot holds {pots.pots[-1]}")
    lines.append("Most chips: " + ", ".join(names[i] for i in pots.winners))
    return "\n".join(lines)


def _trumps(state: State) -> str:
    """The trump suit's symbol; nothing when the contract has no trumps."""
    trumps = suit_from_code(state.trump)
    return trumps.symbol if trumps else ""


def render_match(game: Game, match: Match, what: str = "a whole game") -> str:
    """The deals of a match, each with its dealer, contract and each side's running total;
    the side or sides that won."""
    names = side_names(game, match.sides)
    lines = [f"{game.name}: {what} from seed {match.deals[0].seed}"]
    for k, (state, totals) in enumerate(zip(match.deals, match.totals), start=1):
        lines.append(f"  deal {k:3}  dealer {game.table.name(state.dealer):6} "
                     f"{contract_text(game, state):18} "
                     + "  ".join(f"{name} {x:3}" for name, x in zip(names, totals)))
    lines.append("Winner: " + ", ".join(names[i] for i in match.winners))
    return "\n".join(lines)
