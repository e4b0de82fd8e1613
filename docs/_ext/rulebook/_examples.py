"""Worked examples: a chosen deal (:mod:`._choose`) laid out for a card player.

The deal is replayed through the engine action by action, and every action is placed: the
calls, announcements and cards laid aside before the play in the auction table (one column
a seat), the cards in the trick table (the winning card in bold, trumps marked), and what
is announced or turned up during the play beside the trick it belongs to.  The running
count after each trick is the engine's own (:meth:`spec.engine.Engine.points`).  A deal
thrown in before it is shown with its actions too.  Nothing is typed in: an example can
never show something the rules forbid.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from spec.cards import Card, CardSet, Suit
from spec.dsl._build import Game
from spec.dsl._nodes import NO_SUIT, suit_from_code
from spec.engine import Action, Call, Declare, Discard, Lay, Phase, Play, State, engine_for
from spec.records import replay, to_record

from ._choose import Chosen
from ._names import bid_text
from ._tables import DISPLAY_SUITS, Table

__all__ = ["Example", "ExampleError", "deal_example", "action_text", "card_text"]


class ExampleError(Exception):
    """The engine's record of an example deal does not replay: a bug, never shown."""


def rst_escape(text: str) -> str:
    from ._page import esc

    return esc(text)


@dataclass
class Example:
    """One deal, ready to print: every table cell is reST."""

    title: str
    why: str
    origin: str
    facts: list[str]  # reST lines: dealer, contract, trumps
    thrown_in: list[str]  # reST: each deal thrown in, with every action
    hands: Table
    auction: Table | None
    tricks: Table | None  # None: no card was played (every defender passed, say)
    results: list[str]
    paid: list[tuple[str, str, int]] = field(default_factory=list)  # (rule id, seat, amount)
    sheet: Table | None = None
    placed: list[str] = field(default_factory=list)  # the plain text of every action placed


def card_text(card: Card) -> str:
    return card.symbol


def action_text(game: Game, action: Action) -> str:
    """An action as the tables print it, without the seat."""
    if isinstance(action, Call):
        return "pass" if action.bid is None else bid_text(game, action.bid)
    if isinstance(action, Play):
        return card_text(action.card) + (f" naming {action.names.symbol}" if action.names else "")
    if isinstance(action, Lay):
        return f"lays {card_text(action.card)} face down"  # type: ignore[attr-defined]
    if isinstance(action, Discard):
        return f"discards {card_text(action.card)}"  # type: ignore[attr-defined]
    assert isinstance(action, Declare)
    return f"announces {action.name}"


def _hands(game: Game, hands: tuple[int, ...]) -> Table:
    rank = game.rank_table
    header = ["Seat"] + [s.symbol for s in DISPLAY_SUITS]
    jokers = any(c.suit is None for c in game.deck)
    if jokers:
        header.append("Other")
    rows = []
    for seat, mask in enumerate(hands):
        cards = list(CardSet(game.deck, mask))

        def of(suit: Suit | None) -> str:
            held = sorted((c for c in cards if c.suit is suit), key=lambda c: -rank.value(c))
            return " ".join(c.symbol if suit is None else c.rank.value for c in held) or "–"

        row = [game.table.name(seat)] + [of(s) for s in DISPLAY_SUITS]
        if jokers:
            row.append(of(None) if any(c.suit is None for c in cards) else "")
        rows.append(row)
    return Table("", header, rows)


def _auction(game: Game, actions: list[tuple[int, Action]], placed: list[str]) -> Table | None:
    """The actions before the play, one column a seat from the first to act, a row a round."""
    if not actions:
        return None
    t = game.table
    order = list(t.iter_from(actions[0][0]))
    rows: list[list[str]] = []
    last = len(order)
    for seat, action in actions:
        col = order.index(seat)
        text = action_text(game, action)
        placed.append(text)
        if rows and col == last:  # the same seat again (an announcement after a call)
            rows[-1][col] += "; " + rst_escape(text)
            continue
        if not rows or col < last:
            rows.append([""] * len(order))
        rows[-1][col] = rst_escape(text)
        last = col
    return Table("", [t.name(s) for s in order], rows, raw=True)


def _sides(game: Game, state: State) -> tuple[set[int], set[int]]:
    side = set(state.declaring_seats) | ({state.partner} if state.partner >= 0 else set())
    for p in game.table.partnerships:
        if state.declarer in p:
            side |= set(p)
    return side, set(range(game.players)) - side


def deal_example(game: Game, chosen: Chosen) -> Example:
    """A chosen deal laid out: hands, auction, tricks with the running count, scores.

    Raises:
        ExampleError: the deal's record does not replay through the engine.
    """
    final = chosen.state
    record = to_record(final)
    report = replay(record, game)
    if not report.ok:
        raise ExampleError(f"{game.key} ({chosen.origin}): the record does not replay: "
                           f"{report.message}")
    eng = engine_for(game)
    t = game.table
    placed: list[str] = []
    thrown = []
    for d in final.thrown_in:
        texts = [f"{t.name(s)} {action_text(game, a)}" for s, a in d.log]
        placed += [action_text(game, a) for _s, a in d.log]
        thrown.append(rst_escape(f"{t.name(d.dealer)} deals; " + ", ".join(texts)
                                 + f": thrown in ({d.reason})."))
    # replay from the first deal (thrown-in deals redeal from the seed), placing every
    # action of the deal played and keeping the running count after each of its tricks
    first = final.thrown_in[0] if final.thrown_in else None
    state = eng.start(first.dealt if first else final.dealt,
                      dealer=first.dealer if first else final.dealer, seed=final.seed)
    before_play: list[tuple[int, Action]] = []
    notes: dict[int, list[str]] = {}
    counts: list[tuple[int, int]] = []
    side, others = _sides(game, final)
    chain = [(False, s, a) for d in final.thrown_in for s, a in d.log] + \
        [(True, s, a) for s, a in final.log]
    for shown_deal, seat, action in chain:
        if shown_deal and state.phase is Phase.PLAY and not isinstance(action, Play):
            text = action_text(game, action)
            placed.append(text)
            notes.setdefault(state.trick_number, []).append(f"{t.name(seat)} {text}")
        elif shown_deal and not isinstance(action, Play):
            before_play.append((seat, action))
        done = len(state.tricks)
        state = eng.apply(state, action)
        if shown_deal and len(state.tricks) > done:
            counts.append((sum(eng.points(state, s) for s in side),
                           sum(eng.points(state, s) for s in others)))
    auction = _auction(game, before_play, placed)
    trump_suit = suit_from_code(final.trump) if final.trump != NO_SUIT else None
    width = max((len(r.cards) for r in final.tricks), default=game.players)
    header = ["Trick"] + ["Lead"] + [f"{k}." for k in range(2, width + 1)] + \
        ["Winner", "Count", "Also"]
    rows = []
    for k, rec in enumerate(final.tricks):
        cells = []
        for i, (seat, card_no) in enumerate(zip(rec.seats, rec.cards)):
            card = game.deck[card_no]
            named = rec.named[i] if i < len(rec.named) else -1
            play = Play(card, suit_from_code(named))
            text = action_text(game, play)
            placed.append(text)
            shown = rst_escape(text)
            if card.suit is not None and trump_suit is not None and card.suit is trump_suit:
                shown = f":rulebook-trump:`{shown}`"
            if seat == rec.winner:
                shown = f"**{shown}**" if not shown.startswith(":") else f":rulebook-win:`{text}`"
            down = rec.face_down[i] if i < len(rec.face_down) else False
            cells.append(f"{t.name(seat)}: {shown}" + (" (face down)" if down else ""))
        also = list(notes.get(rec.number, []))
        if any(rec.face_down):
            also.append("the face-down cards are turned up" if rec.revealed
                        else "the face-down cards stay face down")
        mine, theirs = counts[k] if k < len(counts) else (0, 0)
        rows.append([str(rec.number)] + cells + [""] * (width - len(cells))
                    + [t.name(rec.winner), f"{mine} – {theirs}", rst_escape("; ".join(also))])
    # announcements after the last trick (none in the games so far) still appear
    for number, texts in notes.items():
        if number > len(final.tricks):
            rows.append([str(number)] + [""] * width + ["", "", rst_escape("; ".join(texts))])
    if not any(r[-1] for r in rows):
        header.pop()
        rows = [r[:-1] for r in rows]
    tricks = Table("", header, rows, raw=True) if rows else None
    facts = [f"Dealer: {rst_escape(t.name(final.dealer))}."]
    if final.contract >= 0:
        bid = game.ladder[final.contract]
        who = t.name(final.declarer)
        partner = (f", with {t.name(final.partner)}" if final.partner >= 0
                   and final.partner != final.declarer and not game.table.partnerships else "")
        facts.append(f"Contract: {rst_escape(bid_text(game, bid))} by {who}{partner}.")
    if trump_suit is not None:
        facts.append(f"Trumps: {trump_suit.symbol}.")
    facts.append(f"Count: the points (or tricks) taken by {_and_names(game, side)} – by "
                 f"{_and_names(game, others)}, after each trick.")
    results = []
    if final.scores is not None:
        results.append("Scores: " + ", ".join(f"{t.name(s)} {x:+d}" for s, x in
                                             enumerate(final.scores)) + ".")
    sheet = _sheet(game, final)
    paid = [(rule.id, t.name(seat), amount) for rule, seat, amount in eng.score_items(final)]
    return Example(chosen.title, chosen.why, chosen.origin, facts, thrown,
                   _hands(game, final.dealt), auction, tricks, results, paid, sheet, placed)


def _and_names(game: Game, seats: set[int]) -> str:
    names = [game.table.name(s) for s in sorted(seats)]
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _sheet(game: Game, final: State) -> Table | None:
    """A score sheet with several lines (above and below the line), drawn as a sheet: a
    column a side, a row a line."""
    if not final.lines:
        return None
    eng = engine_for(game)
    sides: list[tuple[int, ...]] = (list(game.table.partnerships) if game.table.partnerships
                                    else [(s,) for s in range(game.players)])
    names = [game.table.side_name(s) if game.table.partnerships else game.table.name(s[0])
             for s in sides]
    rows = []
    for line, col in zip(eng.lines, final.lines):
        rows.append([line] + [str(col[s[0]]) if col[s[0]] else "" for s in sides])
    return Table("", ["Line"] + names, rows)
