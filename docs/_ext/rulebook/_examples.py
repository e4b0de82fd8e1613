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
    hands_caption: str = "Hands as dealt:"


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


def _hands(game: Game, hands: tuple[int, ...],
           others: tuple[tuple[str, int], ...] = ()) -> Table:
    """A row a seat, a column a suit; then a row for each of ``others``, cards that lie
    elsewhere (label, cards): the talon, the cards discarded."""
    rank = game.rank_table
    header = ["Seat"] + [s.symbol for s in DISPLAY_SUITS]
    jokers = any(c.suit is None for c in game.deck)
    if jokers:
        header.append("Other")
    rows = []
    for label, mask in [(game.table.name(s), m) for s, m in enumerate(hands)] + list(others):
        cards = list(CardSet(game.deck, mask))

        def of(suit: Suit | None) -> str:
            held = sorted((c for c in cards if c.suit is suit), key=lambda c: -rank.value(c))
            return " ".join(c.symbol if suit is None else c.rank.value for c in held) or "–"

        row = [label] + [of(s) for s in DISPLAY_SUITS]
        if jokers:
            row.append(of(None) if any(c.suit is None for c in cards) else "")
        rows.append(row)
    return Table("", header, rows)


def _off_hands(game: Game, final: State) -> tuple[tuple[tuple[str, int], ...], str]:
    """The cards dealt to no seat (the talon, and who took it) and those the declarer
    discarded, as rows of the hands table, (label, cards); and the table's caption."""
    rows: list[tuple[str, int]] = []
    words: list[str] = []
    talon = final.dealt_talon
    if talon and game.program.talon_cards:
        taken = final.talon != talon and final.declarer >= 0
        rows.append(("Talon" + (f", taken by {game.table.name(final.declarer)}" if taken
                                else ", not taken"), talon))
        words.append("the talon")
    if final.discards:
        rows.append((f"Discarded by {game.table.name(final.declarer)}", final.discards))
        words.append("the cards discarded")
    return tuple(rows), "Hands as dealt" + (", with " + " and ".join(words) if words else "") + ":"


def _auction(game: Game, actions: list[tuple[int, Action, str]], placed: list[str]
             ) -> Table | None:
    """The actions before the play, one column a seat from the first to act, a row a round;
    each action with what it made known (reST, "" for nothing)."""
    if not actions:
        return None
    t = game.table
    order = list(t.iter_from(actions[0][0]))
    rows: list[list[str]] = []
    last = len(order)
    for seat, action, known in actions:
        col = order.index(seat)
        text = action_text(game, action)
        placed.append(text)
        if known:
            text += f" ({known})"
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


# long: one example deal's sections, in the order the page shows them
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
    before_play: list[tuple[int, Action, str]] = []
    notes: dict[int, list[str]] = {}
    turned: dict[int, list[str]] = {}  # what a trick made known, after its cards are shown
    counts: list[tuple[int, int]] = []
    side, others = _sides(game, final)
    chain = [(False, s, a) for d in final.thrown_in for s, a in d.log] + \
        [(True, s, a) for s, a in final.log]
    hidden = _Hidden(game)
    for shown_deal, seat, action in chain:
        done, before = len(state.tricks), state
        state = eng.apply(state, action)
        known = hidden.seen(before, state) if shown_deal else ""
        if shown_deal and before.phase is Phase.PLAY:
            if not isinstance(action, Play):
                text = action_text(game, action)
                placed.append(text)
                notes.setdefault(before.trick_number, []).append(f"{t.name(seat)} {text}")
            if known:
                turned.setdefault(before.trick_number, []).append(known)
        elif shown_deal and not isinstance(action, Play):
            before_play.append((seat, action, known))
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
        also += turned.get(rec.number, [])
        mine, theirs = counts[k] if k < len(counts) else (0, 0)
        rows.append([str(rec.number)] + cells + [""] * (width - len(cells))
                    + [t.name(rec.winner), f"{mine} – {theirs}", rst_escape("; ".join(also))])
    # announcements after the last trick (none in the games so far) still appear
    for number in sorted(set(notes) | set(turned)):
        if number > len(final.tricks):
            texts = notes.get(number, []) + turned.get(number, [])
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
        facts.append(f"Trumps: {trump_suit.symbol}" + (f", {hidden.told}" if hidden.told else "")
                     + ".")
    facts.append(f"Count: the points (or tricks) taken by {_and_names(game, side)} – by "
                 f"{_and_names(game, others)}, after each trick.")
    results = []
    if final.scores is not None:
        results.append("Scores: " + ", ".join(f"{t.name(s)} {x:+d}" for s, x in
                                             enumerate(final.scores)) + ".")
    sheet = _sheet(game, final)
    paid = [(rule.id, t.name(seat), amount) for rule, seat, amount in eng.score_items(final)]
    off, caption = _off_hands(game, final)
    return Example(chosen.title, chosen.why, chosen.origin, facts, thrown,
                   _hands(game, final.dealt, off), auction, tricks, results, paid, sheet,
                   placed, caption)


class _Hidden:
    """When trumps named by a card laid face down (a trump indicator) become known to every
    seat: the card is turned up or played, and the example says so there."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.card: Card | None = None  # the card that named trumps while face down
        self.holder = -1
        self.where = ""  # when every seat came to know trumps ("" not yet)

    @property
    def told(self) -> str:
        """For the example's facts: the indicator, and when it was turned up."""
        if self.card is None:
            return ""
        return (f"the suit of the trump indicator {card_text(self.card)}, which "
                f"{self.game.table.name(self.holder)} laid face down; "
                + (f"turned up {self.where}" if self.where else "never turned up"))

    def _known(self, state: State) -> bool:
        """Every seat knows trumps (not while a card naming them is to be laid aside)."""
        return state.phase is not Phase.SET_ASIDE and all(
            state.view(s).trump is not None for s in range(self.game.players))

    def seen(self, before: State, after: State) -> str:
        """What ``after`` makes known that ``before`` hid ("" for nothing)."""
        if before.trump != NO_SUIT and not self._known(before):
            holder = next((k for k, a in enumerate(before.aside) if a), -1)
            if holder >= 0:
                self.card = next(iter(CardSet(self.game.deck, before.aside[holder])))
                self.holder = holder
        if self.card is None or after.trump == NO_SUIT or not self._known(after):
            return ""
        if self._known(before):
            return ""
        suit = suit_from_code(after.trump)
        self.where = (f"at trick {before.trick_number}" if before.phase is Phase.PLAY
                      else "before the play")
        return f"the trump indicator {card_text(self.card)} is turned up: trumps {suit.symbol}"


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
