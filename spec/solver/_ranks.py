"""Cards the rules cannot tell apart in a position: rank equivalence, read from the strength
tables the rules give.

Two cards of a suit are equivalent in a position when the rules treat them alike there: the
same suit, the same points, and no card still to be played lies between them in strength,
whatever suit is led and whichever trick it is.  Playing one or the other then leads to
positions that differ only by the names of those cards, so the solver tries one of them, and
keys its table by the cards reduced to their places among the cards still to be played (the
"relative ranks" of bridge solvers), not by their names.

That holds only where a card's strength orders each suit the same way in every trick the
position can reach (each suit strictly ordered where it is led, all alike or in that order
elsewhere), compares the cards of two suits all one way, and the rules have no construct
that gives a card a suit, a strength or a legality of its own (a card that counts as another
suit, one that may always be played, a suit named for a card, a card played face down or
from the cards laid aside).  Elsewhere nothing is reduced: every card keeps its name.
"""
from __future__ import annotations

from collections.abc import Sequence

from spec.dsl import _constructs as K
from spec.dsl._nodes import NO_SUIT, suit_code
from spec.engine import Engine, State

# constructs that let a card's suit, strength or legality depend on more than its suit, its
# rank and its points
_OWN_CARD_RULES = (K.CountsAsSuit, K.AlwaysPlayable, K.NameSuit, K.DeclarationRule,
                   K.FaceDown, K.PlayableAside)


class Ranks:
    """The order of each suit for one search (its trumps, contract and tricks to come), and
    the cards between any two cards of a suit; ``ok`` is False where the rules allow no
    reduction (see the module's docstring)."""

    def __init__(self, eng: Engine, trump: int, contract: int, first: int, last: int) -> None:
        game = eng.game
        deck = game.deck
        self.suit = tuple(NO_SUIT if c.suit is None else suit_code(c.suit) for c in deck)
        self.points = eng.card_points(contract)
        self.ok = False
        self.order: dict[int, tuple[int, ...]] = {}
        self.between: dict[tuple[int, int], int] = {}
        # each card's place: its suit, then its place in the suit's order
        self.place: tuple[tuple[int, int], ...] = tuple((u, c) for c, u in enumerate(self.suit))
        if any(game.constructs(k) for k in _OWN_CARD_RULES) or NO_SUIT in self.suit:
            return
        suits = sorted(set(self.suit))
        tables = []
        for number in range(first, last + 1):
            for led in suits:
                table = eng.strength_table(led, trump, number, contract)
                if table is None:
                    return
                tables.append((led, table))
        members = {u: [c for c in range(len(deck)) if self.suit[c] == u] for u in suits}
        for u in suits:
            led_tables = [t for led, t in tables if led == u]
            order = tuple(sorted(members[u], key=lambda c: led_tables[0][c]))
            for _led, table in tables:
                values = [table[c] for c in order]
                alike = all(v == values[0] for v in values)
                rising = all(a < b for a, b in zip(values, values[1:]))
                if not (alike or rising):
                    return
            self.order[u] = order
        for _led, table in tables:
            for u in suits:
                for v in suits:
                    if u < v and not _one_way(table, members[u], members[v]):
                        return
        self.place = tuple((self.suit[c], self.order[self.suit[c]].index(c))
                           for c in range(len(deck)))
        self.ok = True

    def cards_between(self, a: int, b: int) -> int:
        """The cards of the suit of ``a`` and ``b`` strictly between them in its order."""
        key = (a, b)
        mask = self.between.get(key)
        if mask is None:
            order = self.order[self.suit[a]]
            i, j = sorted((order.index(a), order.index(b)))
            mask = self.between[key] = sum(1 << c for c in order[i + 1:j])
        return mask

    def twins(self, a: int, b: int, remaining: int) -> bool:
        """Cards ``a`` and ``b`` are equivalent among the cards ``remaining``: one suit,
        the same points, and none of ``remaining`` between them."""
        return (self.suit[a] == self.suit[b] and self.points[a] == self.points[b]
                and not self.cards_between(a, b) & remaining)

    def reduced(self, places: Sequence[int]) -> tuple[int, ...]:
        """The cards of ``places`` (masks: hands, then cards laid aside) as the place of
        each card still to be played, suit by suit in strength order, with its points: the
        position up to the names of equivalent cards."""
        out: list[int] = []
        held = 0
        for m in places:
            held |= m
        for order in self.order.values():
            for c in order:
                if held >> c & 1:
                    k = 0
                    while not places[k] >> c & 1:
                        k += 1
                    out.append(k)
                    out.append(self.points[c])
            out.append(-1)
        return tuple(out)


def _one_way(table: Sequence[object], us: Sequence[int], them: Sequence[int]) -> bool:
    """Every card of ``us`` compares with every card of ``them`` the same way."""
    signs = {(table[a] > table[b]) - (table[a] < table[b]) for a in us for b in them}  # type: ignore[operator]
    return len(signs) <= 1


def unplayed(s: State) -> int:
    """The cards of ``s`` not yet played to a finished trick: every hand's, those laid
    aside, and the trick's under way (a mask of card numbers)."""
    out = 0
    for h in s.hands:
        out |= h
    for a in s.aside:
        out |= a
    for c, _d in s.trick:
        out |= 1 << c
    return out
