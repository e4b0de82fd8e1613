"""Whether a seat can be sure, from what it has seen, that its side wins every remaining
trick: the certainty a claim of all the tricks asks for.

The question, for the seat C of a view: is there a way of playing that reads only what C
observes and wins every remaining trick for C's side in every deal consistent with what C
has seen, whatever the other seats play (C's partner included)?  ``certain(view)`` answers
it exactly, or answers None (undecided) where the position is outside what it models or
its budget of nodes is spent; never a guess.

**The lazy adversary.**  The procedure plays a game of two: C chooses his own cards; every
other seat is one adversary, who may make any play that *some* deal consistent with all
C has observed so far (his hand, every card shown, and the adversary's earlier plays)
allows: a card the deal puts in that seat's hand and the rules let it play.  C wins the
game when his side takes every remaining trick.

C has an observation-based strategy that wins in every consistent deal against every play
exactly when he wins the lazy game.  Everything played after C's present observation is
seen by C (a card face down is seen as a card face down, and a trick turned up shows its
cards), and the winner of each trick is seen by all, so a play of the deal is, from C's
side, a sequence of observations.  If C wins the lazy game, his winning choices are a
function of the observations so far; in any deal, against any plays, the observations
follow a path of the lazy game (each is allowed by the actual deal, which stays
consistent), so C wins.  If C has a strategy that wins everywhere, he plays it in the lazy
game: whatever observations the adversary chooses, the deals consistent with all of them
are not empty (each choice had one), and in such a deal the real plays produce exactly
those observations against that strategy, so every trick on the path is won.  (The weaker
test, a winning way of play for each deal separately, lets C's play depend on cards he
never sees; it is not this one.)

**The deals consistent with a view** are held symbolically, one *world* per trump suit the
seat cannot rule out: the cards C has not seen lie in *slots* (the other hands, cards laid
aside, cards played face down that C never saw), each slot with its size and the suits it
may hold.  Whether cards can be dealt into slots so is a transportation problem: it is
possible exactly when, for every set S of suits, the unseen cards of S fit into the slots
that may hold a suit of S (Hall's condition over the subsets of suits; a max-flow min-cut
argument).  A hand's parts (a card that came back from aside joins a hand as a part of its
own) and the choices a play leaves open (which part a card left) are kept as several
worlds, a disjunction, never merged into a looser description.

**The rules come from the engine.**  Each world carries a state of the engine (its public
part exact, the hidden cards stand-ins of the right number), and every judgement is the
engine's, on that state: who is to play, which cards are legal, whether a card goes face
down, who wins a trick, what a trick turned up shows, the values the rules track.  A
seat's legal cards depend on its hand; the procedure checks, from the rules, that they read
the hand only through the suits it holds, so the plays a hand allows follow from its
*pattern* of suits, and asks the engine for each pattern.  Where the patterns that allow
a play are exactly those that avoid some suits (following suit: the seat had none of the
led suit), that is a constraint on the slots; where they are anything else, the procedure
answers None.  The same holds for what a trick shows when cards went face down, and for a
choice made before the play whose condition reads the chooser's dealt cards (a trump
chosen face down that needs a card of another suit in the hand): those are kept exactly, or answered None.

Announcements by the other seats during the play are not moves of the adversary: the
procedure checks that none changes what the play's rules read, so the only thing one can
do to the tricks is void the deal, which leaves no trick to win or lose.
"""
from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._nodes import (
    NO_SUIT,
    CardsOfSuit,
    Const,
    Count,
    Ctx,
    DealtHand,
    Expr,
    IfThenElse,
    IsEmpty,
    LegalCards,
    Op,
    PointsWon,
    Ref,
    SetOp,
    SuitOf,
    Taken,
    Tracked,
    WithDealt,
    children,
    suit_code,
    walk,
)
from spec.engine import Declare, Engine, Phase, Play, State, View
from spec.engine._state import freeze, thaw
from spec.solver._ranks import unplayed

# positions a decision may visit before it answers None
BUDGET = 20_000
# deals played double dummy before the lazy game is searched, and the positions each may
# visit before it is given up (no refutation found)
SAMPLES = 4
SWEEP_BUDGET = 300
# the tricks searched one at a time before the lazy game is searched to the end
EARLY = 2
# answers of the transportation problem kept (they repeat across positions and decisions)
FITS_KEPT = 200_000

HAND, ASIDE, PLAYED, TRICK = range(4)  # the kinds of slot


class Unsupported(Exception):
    """The position is outside what the procedure decides exactly."""


class Exhausted(Exception):
    """The decision has spent its budget of positions."""


# -- what the rules let the procedure model exactly ---------------------------------------
_HIDDEN = (DealtHand, Taken, WithDealt, LegalCards, PointsWon)
_UNMODELLED = (K.PartnerHolds, K.LayOpen, K.Talon, K.TakeTalon, K.DropOut, K.NameSuit,
               K.DeclarationRule, K.AlwaysPlayable, K.TurnUp, K.PartnerAccepts,
               K.SameBidJoins, K.IdleSeat)


def _suit_closed(e: Expr) -> bool:
    """``e`` is a set of whole suits whatever the hand: a union of suits, built from
    ``cards_of`` and constant sets of whole suits."""
    if isinstance(e, CardsOfSuit):
        return not _reads_hand(e.suit)
    if isinstance(e, Const):
        return _whole_suits(e.value)
    if isinstance(e, SetOp):
        return _suit_closed(e.lhs) and _suit_closed(e.rhs)
    if isinstance(e, IfThenElse):
        return _hand_by_suits(e.cond) and _suit_closed(e.then) and _suit_closed(e.orelse)
    return False


def _whole_suits(cards: Any) -> bool:
    mask = getattr(cards, "mask", None)
    deck = getattr(cards, "deck", None)
    if mask is None or deck is None:
        return False
    for suit in {c.suit for c in deck}:
        part = deck.cards_of(suit).mask
        if mask & part not in (0, part):
            return False
    return True


def _reads_hand(e: Expr) -> bool:
    return any(isinstance(n, Ref) and n.ctx in (Ctx.HAND, Ctx.ASIDE, Ctx.BEATING) for n in walk(e))


def _hand_by_suits(e: Expr) -> bool:
    """``e`` reads the acting seat's hand only through the suits it holds (and whether it
    holds any card), reads no card set aside and nothing else hidden."""
    if isinstance(e, Ref):
        return e.ctx not in (Ctx.HAND, Ctx.ASIDE, Ctx.BEATING)
    if isinstance(e, _HIDDEN):
        return False
    if isinstance(e, (IsEmpty, Count)):
        inner = e.cards
        if isinstance(inner, Ref) and inner.ctx is Ctx.HAND:
            return True
        if (isinstance(inner, SetOp) and inner.op in (Op.INTER, Op.SUB)
                and isinstance(inner.lhs, Ref) and inner.lhs.ctx is Ctx.HAND):
            return isinstance(e, IsEmpty) and _suit_closed(inner.rhs)
        if (isinstance(inner, SetOp) and inner.op is Op.INTER
                and isinstance(inner.rhs, Ref) and inner.rhs.ctx is Ctx.HAND):
            return isinstance(e, IsEmpty) and _suit_closed(inner.lhs)
    if isinstance(e, SuitOf) and isinstance(e.card, Ref) and e.card.ctx is Ctx.CARD:
        return True
    if isinstance(e, Ref) and e.ctx is Ctx.CARD:
        return False
    return all(_hand_by_suits(c) for c in children(e))


def _legal_by_suits(e: Expr) -> bool:
    """The legal cards (``spec.dsl._derive.legal_cards``): the hand's cards of a union of
    suits, and the cards aside when a condition holds, each read by suits only."""
    if isinstance(e, SetOp) and e.op is Op.UNION:
        return _legal_by_suits(e.lhs) and _legal_by_suits(e.rhs)
    if isinstance(e, IfThenElse) and isinstance(e.then, Ref) and e.then.ctx is Ctx.ASIDE:
        return _hand_by_suits(e.cond) and isinstance(e.orelse, Const)
    if isinstance(e, SetOp) and e.op is Op.INTER and isinstance(e.lhs, Ref) and e.lhs.ctx is Ctx.HAND:
        return _suit_closed(e.rhs)
    return False


def _reads_hidden(e: Expr) -> bool:
    return _reads_hand(e) or any(isinstance(n, _HIDDEN) for n in walk(e))


def _tracked_read(exprs: Iterable[Expr]) -> set[str]:
    return {n.name for e in exprs for n in walk(e) if isinstance(n, Tracked)}


def _same(a: Any, b: Any) -> bool:
    """Two expressions say the same (their source places aside)."""
    if type(a) is not type(b):
        return False
    if not isinstance(a, Expr):
        return bool(a == b)
    return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a)  # type: ignore[arg-type]
               if f.name != "src_loc")


def unsupported(game: Any) -> str:
    """Why the procedure cannot decide positions of ``game`` exactly ("" where it can)."""
    for cls in _UNMODELLED:
        if game.constructs(cls):
            return f"the rules have a {cls.__name__}, which the procedure does not model"
    if not _legal_by_suits(D.legal_cards(game)):
        return "the legal cards read the hand by more than the suits it holds"
    if not _hand_by_suits(D.face_down(game)):
        return "whether a card goes face down reads more than the suits of the hand"
    trick_exprs = [D.trick_turned_up(game)]
    for _r, b in game.constructs(K.Update):
        if b.at is K.Moment.TRICK_END:
            trick_exprs += [b.when, *(v for _n, v in b.sets)]
    for e in trick_exprs:
        if _reads_hidden(e) or any(isinstance(n, Ref) and n.ctx is Ctx.PLAYED_CARD for n in walk(e)):
            return "a rule judged at the end of a trick reads more than the suits played"
    read = _tracked_read([D.legal_cards(game), D.face_down(game), *trick_exprs])
    for _r, b in game.constructs(K.Update):
        if b.at is K.Moment.CARD and {n for n, _v in b.sets} & read:
            return "a value set as each card is played is read by the play's rules"
    for _r, b in game.constructs(K.Announce):
        if b.required is not None and _reads_hidden(b.required):
            return f"whether the announcement {b.name!r} is required reads hidden cards"
        if any(_reads_hidden(v) for _n, v in b.sets):
            return f"the announcement {b.name!r} sets a value from hidden cards"
        if b.scope.name == "PLAY" and {n for n, _v in b.sets} & read:
            return f"the announcement {b.name!r} changes what the play's rules read"
    for _r, b in game.constructs(K.CallRule):
        if _reads_hidden(b.applies) or _reads_hidden(b.requires):
            return "a rule of the auction reads the hand"
    for _r, b in game.constructs(K.VoidWhen):
        if _reads_hidden(b.when):
            return "a rule that voids the deal reads hidden cards"
    for _r, b in game.constructs(K.Decide):
        for o in b.options:
            if any(_reads_hidden(v) for _n, v in o.sets):
                return f"the choice {o.name!r} sets a value from hidden cards"
            for n in walk(o.when):
                if isinstance(n, _HIDDEN) and not (isinstance(n, DealtHand) and _same(n.seat, b.by)):
                    return f"the choice {o.name!r} reads hidden cards other than the chooser's"
    for _r, b in game.constructs(K.SetAside):
        if _reads_hidden(b.when):
            return "the rule that lays cards aside reads the hand"
    return ""


# -- the engine's tables, per game ---------------------------------------------------------
class _Tables:
    """What the procedure reads of a game once: suits, compiled judgements, why not."""

    def __init__(self, eng: Engine) -> None:
        game = eng.game
        self.eng = eng
        self.why = unsupported(game)
        deck = game.deck
        self.n = eng.n
        self.size = len(deck)
        self.suit_of = tuple(suit_code(c.suit) for c in deck)
        codes = sorted(set(self.suit_of))
        self.codes = tuple(codes)
        self.all_suits = sum(1 << s for s in codes)
        self.suit_cards = {s: sum(1 << i for i, x in enumerate(self.suit_of) if x == s) for s in codes}
        self.full = (1 << self.size) - 1
        # every set of suits, as a bitmask over suit codes, and the cards of its suits
        self.subsets = tuple(m for m in range(1, 1 << (max(codes) + 1)) if not m & ~self.all_suits)
        self.face_down = eng._fn(eng.envs.play_card, D.face_down(game), "face_down")
        self.legal = eng._legal
        # the engine's own play of each card (it knows them, and applies them unchecked
        # right after it listed them)
        self.plays = {i: eng._plain_cards[i] if i < len(eng._plain_cards) else Play(c)
                      for i, c in enumerate(deck)}
        self.from_aside = eng.trump_from_aside
        self.rank = tuple(game.rank_table.value(c) for c in deck)
        # whether cards can lie in slots, by slots, cards by suit and needs (see feasible)
        self.fits: dict[Any, bool] = {}

    def suits(self, mask: int) -> Iterator[int]:
        for s in self.codes:
            if mask >> s & 1:
                yield s

    def cards_by_suit(self, cards: int, suits: int) -> int:
        out = 0
        for s in self.suits(suits):
            out |= self.suit_cards[s]
        return cards & out

    def some(self, suits: int, n: int, avoid: int) -> int:
        """Any ``n`` cards of ``suits`` but those of ``avoid`` (-1: too few)."""
        cards = self.cards_by_suit(self.full, suits) & ~avoid
        out = 0
        while cards and out.bit_count() < n:
            low = cards & -cards
            out |= low
            cards ^= low
        return out if out.bit_count() == n else -1

    def rep(self, pattern: int, n: int, first: int = -1, avoid: int = 0) -> int:
        """A hand of ``n`` cards holding exactly the suits of ``pattern`` (card ``first``
        among them), none of ``avoid``; 0 where there is none."""
        if n == 0:
            return 0 if pattern == 0 else -1
        hand = 0 if first < 0 else 1 << first
        pools = []
        for s in self.suits(pattern):
            cards = self.suit_cards[s] & ~avoid & ~hand
            if not hand & self.suit_cards[s]:
                if not cards:
                    return -1
                low = cards & -cards
                hand |= low
                cards &= ~low
            pools.append(cards)
        while hand.bit_count() < n:
            grown = False
            for i, cards in enumerate(pools):
                if cards and hand.bit_count() < n:
                    low = cards & -cards
                    hand |= low
                    pools[i] = cards & ~low
                    grown = True
            if not grown:
                return -1
        return hand if hand.bit_count() == n else -1


_TABLES: dict[int, _Tables] = {}


def _tables(eng: Engine) -> _Tables:
    t = _TABLES.get(id(eng))
    if t is None or t.eng is not eng:
        t = _TABLES[id(eng)] = _Tables(eng)
    return t


# -- worlds: the deals consistent with what the seat saw, per trump suit --------------------
Slot = tuple[int, int, int, int, int]  # seat, kind, size, suits it may hold (bits), trick position


@dataclass(frozen=True, slots=True)
class World:
    """The deals of one trump suit consistent with the observations: a state of the
    engine whose public part is exact and whose hidden cards are stand-ins, and the slots
    that hold the cards the seat has not seen.  ``needs`` are choices made before the
    play that need a suit among a seat's cards: (seat, the sets of suits any of which
    would do, the suits of that seat's cards already seen)."""

    trump: int
    state: State
    slots: tuple[Slot, ...]
    needs: tuple[tuple[int, tuple[int, ...], int], ...] = ()


def _supply(t: _Tables, pool: int) -> dict[int, int]:
    return {s: (pool & t.suit_cards[s]).bit_count() for s in t.codes}


def _hall(t: _Tables, slots: Sequence[Slot], supply: dict[int, int]) -> bool:
    """Whether the unseen cards (``supply``, by suit) can lie in ``slots``: every card in
    a slot that may hold its suit, every slot full."""
    if sum(sl[2] for sl in slots) != sum(supply.values()):
        return False
    for sub in t.subsets:
        need = sum(n for s, n in supply.items() if sub >> s & 1)
        if need and need > sum(sl[2] for sl in slots if sl[3] & sub):
            return False
    return True


def feasible(t: _Tables, w: World, pool: int) -> bool:
    """Whether some deal fits the world ``w`` with the unseen cards ``pool``."""
    supply = _supply(t, pool)
    key = (w.slots, tuple(supply.values()), w.needs)
    found = t.fits.get(key)
    if found is None:
        if len(t.fits) > FITS_KEPT:
            t.fits.clear()
        found = t.fits[key] = _fits(t, list(w.slots), supply, w.needs)
    return found


def _fits(t: _Tables, slots: list[Slot], supply: dict[int, int],
          needs: tuple[tuple[int, tuple[int, ...], int], ...]) -> bool:
    if not needs:
        return _hall(t, slots, supply)
    (seat, choices, seen), rest = needs[0], needs[1:]
    if any(not c & ~seen for c in choices):
        return _fits(t, slots, supply, rest)
    mine = [i for i, sl in enumerate(slots) if sl[0] == seat and sl[2]]
    for c in choices:
        missing = list(t.suits(c & ~seen))
        for where in itertools.product(mine, repeat=len(missing)):
            trial, sup, ok = list(slots), dict(supply), True
            for s, i in zip(missing, where):
                seat_, kind, size, suits, pos = trial[i]
                if not suits >> s & 1 or size == 0 or sup[s] == 0:
                    ok = False
                    break
                trial[i] = (seat_, kind, size - 1, suits, pos)
                sup[s] -= 1
            if ok and _fits(t, trial, sup, rest):
                return True
    return False


def _canonical(slots: Iterable[Slot]) -> tuple[Slot, ...]:
    """Slots in one order, empty ones dropped, cards played alike by one seat together."""
    merged: dict[tuple[int, int, int, int], int] = {}
    out: list[Slot] = []
    for seat, kind, size, suits, pos in slots:
        if kind == PLAYED:
            if size:
                key = (seat, kind, suits, pos)
                merged[key] = merged.get(key, 0) + size
        elif size:
            out.append((seat, kind, size, suits, pos))
    out += [(seat, kind, size, suits, pos) for (seat, kind, suits, pos), size in merged.items()]
    return tuple(sorted(out))


# -- what the seat sees ----------------------------------------------------------------
def observation(s: State, seat: int) -> tuple[Any, ...]:
    """What ``seat`` sees of the state ``s`` that a card played can change: the trick so
    far and the last trick (cards it sees, which went face down, the winner), the sizes of
    the hands and of the cards aside, the trump suit if it knows it, whose turn it is."""
    v = View(s, seat)
    last = None
    if s.tricks:  # as the view shows it (View.tricks, for the last alone)
        r = s.tricks[-1]
        faces = r.face_down or (False,) * len(r.cards)
        shown = tuple((k, v._shown(k, c, f, r.revealed, r.seen_by))
                      for k, c, f in zip(r.seats, r.cards, faces))
        last = (r.number, shown, r.winner, r.face_down, r.revealed)
    return (s.phase, s.void, s.turn, s.trick_number, v.current_trick, s.faces, last,
            v.hand_sizes, tuple(a.bit_count() for a in s.aside), v.trump)


def _with(s: State, seat: int, hand: int, aside: int | None = None) -> Any:
    """A working copy of ``s`` with ``seat``'s hand (and cards aside) replaced."""
    w = thaw(s)
    hands = list(w.hands)
    hands[seat] = hand
    w.hands = tuple(hands)
    if aside is not None:
        asides = list(w.aside)
        asides[seat] = aside
        w.aside = tuple(asides)
    return w


Node = tuple[tuple[World, ...], int]  # the worlds, and the cards the seat has not seen
# a world after a play, its unseen cards, what the seat saw, whether its side lost a trick
Child = tuple[World, int, tuple[Any, ...], bool]


class _Decision:
    """One decision: the seat, its side, and the lazy game searched from its view."""

    def __init__(self, t: _Tables, seat: int, side: int, budget: int) -> None:
        self.t = t
        self.eng = t.eng
        self.seat = seat
        self.side = side
        self.budget = budget
        self.nodes = 0
        # position -> -1 where the seat loses, else the horizon it wins up to
        self.memo: dict[Any, int] = {}
        self._probes: dict[Any, list[tuple[int, int, bool, int, int]]] = {}
        self._patterns: dict[Any, tuple[int, ...]] = {}
        self.index = {c: i for i, c in enumerate(t.eng.game.deck)}
        reads = ((getattr(t.legal, "reads") | getattr(t.face_down, "reads"))  # compiled, with its reads
                 - {"hand", "aside", "card", "declared"})
        self._probe_key = self.eng._reader(self.eng.envs.play_card, reads, "probe_key")
        self.order: dict[int, tuple[int, ...]] | None = None
        self.horizon = 0

    def rank_runs(self, s: State, trumps: Iterable[int]) -> None:
        """Learn each suit's order of strength where it is led, where it is the same in
        every trick to come under every trump suit the worlds allow, and every other table
        ranks the suit's cards alike or in that order (else cards are never reduced)."""
        t = self.t
        tables = []
        last = t.size // max(1, t.n) + 1
        for trump in set(trumps):
            for number in range(s.trick_number, last + 1):
                for led in t.codes:
                    table = self.eng.strength_table(led, trump, number, s.contract)
                    if table is None:
                        return
                    tables.append((led, table))
        order: dict[int, tuple[int, ...]] = {}
        for suit in t.codes:
            cards = [c for c in range(t.size) if t.suit_of[c] == suit]
            led_table = next(table for led, table in tables if led == suit)
            order[suit] = tuple(sorted(cards, key=lambda c: (led_table[c], c)))
            for _led, table in tables:
                values = [table[c] for c in order[suit]]
                if not (all(v == values[0] for v in values)
                        or all(a < b for a, b in zip(values, values[1:]))):
                    return
        self.order = order

    def distinct(self, cards: int, remaining: int) -> list[int]:
        """One card of each run of ``cards`` that no other card of ``remaining`` splits in
        its suit's order: the lazy game after one is the game after any other, the names
        of the two cards swapped (the worlds hold cards by suit alone)."""
        if self.order is None:
            return [c for c in range(self.t.size) if cards >> c & 1]
        out = []
        for order in self.order.values():
            run = False
            for c in order:
                if cards >> c & 1:
                    if not run:
                        out.append(c)
                    run = True
                elif remaining >> c & 1:
                    run = False
        return out

    def remaining(self, s: State, pool: int) -> int:
        """The cards still to be played or in the trick: the unseen, the seat's own, the
        trick's."""
        out = pool | s.hands[self.seat] | s.aside[self.seat]
        for c, _d in s.trick:
            out |= 1 << c
        return out

    # -- keys ------------------------------------------------------------------------------
    def _skey(self, s: State, hidden: frozenset[int] = frozenset()) -> tuple[Any, ...]:
        """What of a world's state its future play reads, its stand-in cards left out."""
        trick = tuple(-1 if i in hidden else c for i, (c, _d) in enumerate(s.trick))
        return (s.phase, trick, s.faces, s.turn, s.leader, s.trick_number, s.led_suit,
                s.tracked, s.hands[self.seat], s.aside[self.seat], s.out, s.absent,
                tuple(h.bit_count() for h in s.hands), tuple(a.bit_count() for a in s.aside))

    def wkey(self, w: World) -> tuple[Any, ...]:
        hidden = frozenset(sl[4] for sl in w.slots if sl[1] == TRICK)
        return (w.trump, w.slots, w.needs, self._skey(w.state, hidden))

    # -- the patterns of suits a hand may hold, and the plays each allows ----------------
    def _realizable(self, parts: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """The sets of suits a hand of these parts (size, suits each may hold) can hold."""
        found = self._patterns.get(parts)
        if found is not None:
            return found
        n = sum(size for size, _s in parts)
        union = 0
        for _size, suits in parts:
            union |= suits
        out = []
        sub = union
        while sub:
            if sub.bit_count() <= n and all(sub & suits for size, suits in parts if size):
                if self._covers(list(self.t.suits(sub)), [list(p) for p in parts if p[0]]):
                    out.append(sub)
            sub = (sub - 1) & union
        found = self._patterns[parts] = tuple(sorted(out, key=lambda p: (p.bit_count(), p)))
        return found

    def _covers(self, suits: list[int], room: list[list[int]]) -> bool:
        """Each suit can go to a part that may hold it, no part over its size."""
        if not suits:
            return True
        s = suits[0]
        for part in room:
            if part[0] and part[1] >> s & 1:
                part[0] -= 1
                ok = self._covers(suits[1:], room)
                part[0] += 1
                if ok:
                    return True
        return False

    def plays(self, w: World, seat: int) -> list[tuple[int, int, bool, int, int]]:
        """The plays the rules allow ``seat`` in world ``w``, by source (hand or aside),
        suit and whether the card goes face down: each with the suits the hand must lack
        for it (a constraint on the slots) and a pattern of suits that allows it.

        Raises:
            Unsupported: the patterns that allow a play are not those that lack some suits.
        """
        t, s = self.t, w.state
        parts = tuple(sorted((sl[2], sl[3]) for sl in w.slots if sl[0] == seat and sl[1] == HAND))
        aside_suits = 0
        for sl in w.slots:
            if sl[0] == seat and sl[1] == ASIDE:
                aside_suits |= sl[3]
        aside = s.aside[seat]
        key = (w.trump, self._probe_key(s), parts, aside.bit_count(), aside_suits)
        found = self._probes.get(key)
        if found is not None:
            return found
        n = s.hands[seat].bit_count()
        if n != sum(size for size, _s in parts):
            raise Unsupported("a hand's stand-ins and its slots disagree")
        patterns = self._realizable(parts) if n else (0,)
        allowed: dict[tuple[int, int, bool], list[int]] = {}
        for p in patterns:
            hand = t.rep(p, n, avoid=aside)
            if hand < 0:
                raise Unsupported("no hand of this pattern to ask the rules about")
            probe = _with(s, seat, hand)
            mask = t.legal(probe)
            for suit in t.suits(p):
                c = (hand & t.suit_cards[suit]).bit_length() - 1
                if mask >> c & 1:
                    allowed.setdefault((HAND, suit, bool(t.face_down(probe, c, NO_SUIT))), []).append(p)
            if aside and mask & aside:
                for suit in t.suits(aside_suits):
                    c = t.suit_cards[suit].bit_length() - 1
                    allowed.setdefault((ASIDE, suit, bool(t.face_down(probe, c, NO_SUIT))), []).append(p)
        out = []
        for (source, suit, face), ok in sorted(allowed.items()):
            universe = [p for p in patterns if source == ASIDE or p >> suit & 1]
            held = 0
            for p in ok:
                held |= p
            lack = t.all_suits & ~held
            if sorted(ok) != sorted(p for p in universe if not p & lack):
                raise Unsupported("the hands that allow a play are not those lacking some suits")
            out.append((source, suit, face, lack, ok[0]))
        self._probes[key] = out
        return out

    # -- a play, in one world ----------------------------------------------------------
    def _taken(self, w: World, seat: int, source: int, suits: int, lack: int
               ) -> Iterator[tuple[list[Slot], int]]:
        """The slots after ``seat`` plays a card of one of ``suits`` from ``source``, its
        hand lacking the suits ``lack``: one way for each part the card may have left,
        with the suits the card may be of."""
        slots = [(st, k, size, may & ~lack if st == seat and k == HAND else may, pos)
                 for st, k, size, may, pos in w.slots]
        for i, (st, k, size, may, pos) in enumerate(slots):
            if st == seat and k == source and size and may & suits:
                out = list(slots)
                out[i] = (st, k, size - 1, may, pos)
                yield out, may & suits

    def _child(self, w: World, before: State, after: State, slots: list[Slot], pool: int,
               seat: int, from_aside: bool, seen: Sequence[tuple[int, int]]) -> Child | None:
        """The world after a play: cards that went back from aside join their hand, the
        suits of cards seen (seat, card) count for what a choice needed; None where no
        deal fits."""
        t = self.t
        for y in range(t.n):
            if y == self.seat:
                continue
            gone = before.aside[y].bit_count() - after.aside[y].bit_count()
            if gone > (1 if y == seat and from_aside else 0):
                slots = [(st, HAND if st == y and k == ASIDE else k, size, may, pos)
                         for st, k, size, may, pos in slots]
        needs = w.needs
        for who, card in seen:
            bit = 1 << t.suit_of[card]
            needs = tuple((st, c, have | bit if st == who else have) for st, c, have in needs)
        nw = World(w.trump, after, _canonical(slots), needs)
        if not feasible(t, nw, pool):
            return None
        lost = False
        if after.trick_number != before.trick_number or after.phase is not before.phase:
            if after.void:
                raise Unsupported("a deal voided in the play")
            if after.tricks and after.tricks[-1].number == before.trick_number:
                lost = not self.side >> after.tricks[-1].winner & 1
        return nw, pool, observation(after, self.seat), lost

    def _play(self, w: World, pool: int, seat: int, card: int, hand: int, aside: int | None,
              slots: list[Slot], seen: bool, from_aside: bool) -> Iterator[Child]:
        """``seat`` plays ``card`` in world ``w``, holding ``hand`` (and ``aside``) just
        before: the worlds after it (several where a trick ends with cards face down)."""
        s = w.state
        start = freeze(_with(s, seat, hand, aside))
        if seen:
            pool &= ~(1 << card)
        # legal by construction: the seat's own card, or a hand of a pattern the rules were
        # asked about (plays)
        after = self._known_apply(start, card)
        done = after.trick_number != s.trick_number or after.phase is not s.phase
        if done and any(sl[1] == TRICK for sl in slots):
            yield from self._complete(w, start, card, slots, pool, seat, from_aside, seen)
            return
        child = self._child(w, start, after, slots, pool, seat, from_aside,
                            [(seat, card)] if seen else [])
        if child is not None:
            yield child

    def _apply(self, s: State, card: int) -> State:
        try:
            return self.eng.apply(s, self.t.plays[card])
        except Exception as e:  # the rules refuse what the model allowed: not decided here
            raise Unsupported(f"the engine refuses a play the model allows: {e}") from e

    # -- the end of a trick with cards face down the seat has not seen ---------------------
    def _finish(self, start: State, card: int, cards: dict[int, int]) -> State:
        """The last card of a trick (``card``) played, the unseen cards of the trick being
        ``cards`` (by position; the last card's own position among them where it is one)."""
        w = thaw(start)
        trick = list(w.trick)
        last = card
        for pos, c in cards.items():
            if pos < len(trick):
                trick[pos] = (c, trick[pos][1])
            else:
                last = c
        w.trick = tuple(trick)
        if last != card:
            seat, bit, new = w.turn, 1 << card, 1 << last
            hands, asides = list(w.hands), list(w.aside)
            if hands[seat] & bit:  # a stand-in of the hand the new card may be already
                hands[seat] = hands[seat] if hands[seat] & new else hands[seat] & ~bit | new
            else:
                asides[seat] = asides[seat] & ~bit | new
            w.hands, w.aside = tuple(hands), tuple(asides)
        return self._apply(freeze(w), last)

    def _complete(self, w: World, start: State, card: int, slots: list[Slot], pool: int,
                  seat: int, from_aside: bool, seen: bool) -> Iterator[Child]:
        """A trick ends holding cards the seat has not seen: each way the rules may judge
        it, by the suits (and, where the trick is turned up, the cards) those may be."""
        t = self.t
        hidden = [(i, sl) for i, sl in enumerate(slots) if sl[1] == TRICK]
        if any(sl[4] == 0 for _i, sl in hidden):
            raise Unsupported("a lead the seat has not seen")
        last = [(seat, card)] if seen else []
        unseen: dict[Any, list[tuple[tuple[int, ...], State]]] = {}
        for combo in itertools.product(*(list(t.suits(sl[3])) for _i, sl in hidden)):
            pinned = list(slots)
            for (i, sl), suit in zip(hidden, combo):
                pinned[i] = (sl[0], TRICK, 1, 1 << suit, sl[4])
            if not _fits(t, pinned, _supply(t, pool), w.needs):
                continue
            wanted = [(sl[4], suit) for (_i, sl), suit in zip(hidden, combo)]
            after = self._finish(start, card, self._stand_ins(pool, wanted, None))
            shown = [c for _seat, c in View(after, self.seat).tricks[-1][1]]
            visible = [shown[sl[4]] is not None for _i, sl in hidden]
            if all(visible):
                yield from self._shown(w, start, card, pinned, hidden, combo, pool, seat,
                                       from_aside, last)
                continue
            if any(visible):
                raise Unsupported("a trick turned up in part")
            high = self._finish(start, card, self._stand_ins(pool, wanted, after))
            if (self._skey(high) != self._skey(after)
                    or high.tricks[-1].winner != after.tricks[-1].winner):
                raise Unsupported("an unseen card's rank could change how a trick is judged")
            key = (observation(after, self.seat), self._skey(after))
            unseen.setdefault(key, []).append((combo, after))
        for found in unseen.values():
            yield from self._unseen(w, start, found, slots, hidden, pool, seat, from_aside, last)

    def _shown(self, w: World, start: State, card: int, pinned: list[Slot],
               hidden: list[tuple[int, Slot]], combo: tuple[int, ...], pool: int, seat: int,
               from_aside: bool, last: list[tuple[int, int]]) -> Iterator[Child]:
        """The trick is turned up: each set of cards of those suits it may show."""
        t = self.t
        rest = [sl for sl in pinned if sl[1] != TRICK]
        choices = [[c for c in range(t.size) if pool >> c & 1 and t.suit_of[c] == suit]
                   for suit in combo]
        for ids in itertools.product(*choices):
            if len(set(ids)) < len(ids):
                continue
            after = self._finish(start, card, {sl[4]: c for (_i, sl), c in zip(hidden, ids)})
            left = pool
            for c in ids:
                left &= ~(1 << c)
            seen = last + [(sl[0], c) for (_i, sl), c in zip(hidden, ids)]
            child = self._child(w, start, after, rest, left, seat, from_aside, seen)
            if child is not None:
                yield child

    def _unseen(self, w: World, start: State, found: list[tuple[tuple[int, ...], State]],
                slots: list[Slot], hidden: list[tuple[int, Slot]], pool: int, seat: int,
                from_aside: bool, last: list[tuple[int, int]]) -> Iterator[Child]:
        """The trick stays face down: the suits its unseen cards may be of, one world
        where they may be any of them independently, else one world for each way."""
        combos = [c for c, _after in found]
        after = found[0][1]
        sets = [{c[j] for c in combos} for j in range(len(hidden))]
        ways: list[tuple[int, ...]]
        if len(combos) == _product(len(x) for x in sets):
            ways = [tuple(sum(1 << s for s in x) for x in sets)]
        else:
            ways = [tuple(1 << s for s in c) for c in combos]
        for masks in ways:
            new = list(slots)
            for (i, sl), m in zip(hidden, masks):
                new[i] = (sl[0], PLAYED, 1, m, -1)
            child = self._child(w, start, after, new, pool, seat, from_aside, last)
            if child is not None:
                yield child

    def _stand_ins(self, pool: int, wanted: list[tuple[int, int]], judged: State | None
                   ) -> dict[int, int]:
        """Distinct unseen cards of the given suits (position, suit): the weakest, or the
        strongest as the trick ``judged`` ranks them."""
        t = self.t
        table = None
        if judged is not None:
            r = judged.tricks[-1]
            table = self.eng.strength_table(t.suit_of[r.cards[0]], judged.trump, r.number,
                                            judged.contract)
            if table is None:
                raise Unsupported("a card's strength reads more than its suit and rank")
        out: dict[int, int] = {}
        used = 0
        for pos, suit in wanted:
            cards = pool & t.suit_cards[suit] & ~used
            if not cards:
                raise Unsupported("no unseen card of a suit a slot must hold")
            if table is None:
                c = (cards & -cards).bit_length() - 1
            else:
                c = max((i for i in range(t.size) if cards >> i & 1), key=table.__getitem__)
            out[pos] = c
            used |= 1 << c
        return out


    # -- the moves of the lazy game ----------------------------------------------------
    def _options(self, worlds: Sequence[World], pool: int, seat: int
                 ) -> dict[tuple[int, int, bool], list[tuple[World, int, int, int, int]]]:
        """The plays of an adversary's seat, by what the seat of the view would see of
        them (source, card or -1 for a card face down it does not see, face down): for
        each, the worlds that allow it with the card's suit, the suits the hand must lack
        and a pattern of suits that allows it."""
        t = self.t
        out: dict[tuple[int, int, bool], list[tuple[World, int, int, int, int]]] = {}
        for w in worlds:
            sees_down = self.eng.face_down_seen_by(w.state) == self.seat
            for source, suit, face, lack, pattern in self.plays(w, seat):
                if face and not sees_down:
                    out.setdefault((source, -1, face), []).append((w, suit, lack, pattern, -1))
                    continue
                for c in self.distinct(pool & t.suit_cards[suit], self.remaining(w.state, pool)):
                    out.setdefault((source, c, face), []).append((w, suit, lack, pattern, c))
        return out

    def _perform(self, key: tuple[int, int, bool], found: list[tuple[World, int, int, int, int]],
                 pool: int, seat: int) -> Iterator[Child]:
        """What follows an adversary's play, in every world that allows it."""
        t = self.t
        source, card, _face = key
        by_world: dict[int, list[tuple[World, int, int, int, int]]] = {}
        for entry in found:
            by_world.setdefault(id(entry[0]), []).append(entry)
        for entries in by_world.values():
            w = entries[0][0]
            s = w.state
            n = s.hands[seat].bit_count()
            lacks: dict[int, list[tuple[int, int]]] = {}
            for _w, suit, lack, pattern, _c in entries:
                lacks.setdefault(lack, []).append((suit, pattern))
            for lack, suits in lacks.items():
                mask = sum(1 << suit for suit, _p in suits)
                for slots, may in self._taken(w, seat, source, mask, lack):
                    if card >= 0:
                        play, seen = card, True
                    else:
                        play = self._stand_in(pool, may)
                        if play < 0:
                            continue
                        seen = False
                        slots = slots + [(seat, TRICK, 1, may, len(s.trick))]
                    pattern = next(p for suit, p in suits if suit == t.suit_of[play])
                    aside = None
                    if source == ASIDE:
                        old = s.aside[seat]
                        aside = (old & ~(old & -old)) | (1 << play)
                        hand = t.rep(pattern, n, avoid=aside)
                    else:
                        hand = t.rep(pattern, n, first=play, avoid=s.aside[seat])
                    if hand < 0:
                        raise Unsupported("no hand of this pattern to play from")
                    yield from self._play(w, pool, seat, play, hand, aside, slots, seen,
                                          source == ASIDE)

    def _stand_in(self, pool: int, suits: int) -> int:
        t = self.t
        for suit in t.suits(suits):
            cards = pool & t.suit_cards[suit]
            if cards:
                return (cards & -cards).bit_length() - 1
        return -1

    def moves(self, worlds: Sequence[World]) -> list[int]:
        """The cards the seat of the view may play: the same in every world, or the
        position is not decided here."""
        found = None
        for w in worlds:
            cards = sorted(self.index[a.card] for a in self.eng.legal_actions(w.state)
                           if isinstance(a, Play))
            if found is not None and cards != found:
                raise Unsupported("the seat's legal cards hang on what it has not seen")
            found = cards
        return found or []

    def _mine(self, worlds: Sequence[World], pool: int, card: int) -> Iterator[Child]:
        for w in worlds:
            s = w.state
            yield from self._play(w, pool, self.seat, card, s.hands[self.seat], None,
                                  list(w.slots), True, bool(s.aside[self.seat] >> card & 1))

    def ordered(self, s: State, cards: Iterable[int]) -> list[int]:
        """Cards of the seat to play in ``s`` in the order worth trying first: for the
        seat of the view, a card that wins the trick (the cheapest) where its side is not
        winning it, else its lowest; for an opponent, a card that beats its side's best
        (the strongest), else its lowest; for its partner, the lowest.  Leads go from the
        strongest.  (-1, a card unseen, comes first.)"""
        cards = list(cards)
        led = s.led_suit if s.trick else -1
        tables: dict[int, Any] = {}

        def value(c: int) -> Any:
            if c < 0:
                return 0
            suit = led if led >= 0 else self.t.suit_of[c]
            table = tables.get(suit)
            if table is None:
                table = tables[suit] = self.eng.strength_table(suit, s.trump, s.trick_number,
                                                               s.contract) or self.t.rank
            return table[c]

        if not s.trick:
            return sorted(cards, key=lambda c: (c >= 0, -value(c)))
        seats = self.eng.trick_seats(s.leader, s.out) if not s.absent else \
            self.eng.seats_among(s.leader, s.absent)
        best_at = max(range(len(s.trick)), key=lambda j: (value(s.trick[j][0]), -j))
        best = value(s.trick[best_at][0])
        ours = bool(self.side >> seats[best_at] & 1)
        turn = s.turn
        if turn == self.seat:
            if ours:
                return sorted(cards, key=value)
            return sorted(cards, key=lambda c: (value(c) <= best, value(c)))
        if self.side >> turn & 1 or not ours:
            return sorted(cards, key=lambda c: (c >= 0, value(c)))
        return sorted(cards, key=lambda c: (c >= 0, value(c) <= best, -value(c)))

    # -- the search ------------------------------------------------------------------------
    def _groups(self, children: Iterable[Child]) -> list[tuple[Node, bool]] | None:
        """Children grouped by what the seat of the view sees: a node each, and whether
        the trick was lost; None where no world allows the move."""
        groups: dict[Any, tuple[dict[Any, World], int, bool]] = {}
        for w, pool, obs, lost in children:
            found = groups.setdefault(obs, ({}, pool, lost))
            found[0].setdefault(self.wkey(w), w)
        if not groups:
            return None
        return [((tuple(ws.values()), pool), lost) for ws, pool, lost in groups.values()]

    def decide(self, node: Node) -> bool:
        """Whether the seat of the view wins the lazy game from ``node``.

        First a few deals that fit the worlds are played double dummy (the seat knowing
        every card, the others playing against its side): a deal it cannot sweep even so
        is a deal its strategy cannot sweep either.  Then the lazy game is searched to the
        end of the trick under way, then of the next, then to the end of the deal: a loss
        that comes early is found early (a position past the horizon counts as won, so a
        loss found is a loss)."""
        rng = random.Random(0)
        for _k in range(SAMPLES):
            w = rng.choice(node[0])
            deal = self.deal(w, node[1], rng)
            if deal is not None and not self.sweeps(deal):
                return False
        last = self.last_trick(node)
        first = node[0][0].state.trick_number
        for horizon in sorted({*range(first, min(first + EARLY, last + 1)), last}):
            self.horizon = horizon
            if not self.win(node):
                return False
        return True

    # -- double dummy: one deal, every card known ------------------------------------
    def deal(self, w: World, pool: int, rng: random.Random) -> State | None:
        """A deal that fits world ``w``, its unseen cards dealt at random: ``w``'s state
        with every stand-in replaced (None where the dealing goes astray)."""
        t = self.t
        slots = list(w.slots)
        cards = [c for c in range(t.size) if pool >> c & 1]
        rng.shuffle(cards)
        got: list[int] = [0] * len(slots)
        supply = _supply(t, pool)
        for c in cards:
            suit = t.suit_of[c]
            choices = [i for i, sl in enumerate(slots) if sl[2] and sl[3] >> suit & 1]
            rng.shuffle(choices)
            supply[suit] -= 1
            for i in choices:
                sl = slots[i]
                slots[i] = (sl[0], sl[1], sl[2] - 1, sl[3], sl[4])
                if _fits(t, slots, supply, ()):
                    got[i] |= 1 << c
                    break
                slots[i] = sl
            else:
                return None
        if w.needs and not all(any(not c & ~(have | self._suits_of(got, w.slots, seat))
                                   for c in choices) for seat, choices, have in w.needs):
            return None
        x = thaw(w.state)
        hands, asides, trick = list(x.hands), list(x.aside), list(x.trick)
        for (seat, kind, _size, _may, pos), cards_ in zip(w.slots, got):
            if kind == HAND and seat != self.seat:
                hands[seat] = 0
            if kind == ASIDE and seat != self.seat:
                asides[seat] = 0
        for (seat, kind, _size, _may, pos), cards_ in zip(w.slots, got):
            if kind == HAND:
                hands[seat] |= cards_
            elif kind == ASIDE:
                asides[seat] |= cards_
            elif kind == TRICK:
                trick[pos] = (cards_.bit_length() - 1, trick[pos][1])
        x.hands, x.aside, x.trick = tuple(hands), tuple(asides), tuple(trick)
        return freeze(x)

    def _suits_of(self, got: list[int], slots: Sequence[Slot], seat: int) -> int:
        out = 0
        for cards, sl in zip(got, slots):
            if sl[0] == seat:
                for c in range(self.t.size):
                    if cards >> c & 1:
                        out |= 1 << self.t.suit_of[c]
        return out

    def sweeps(self, s: State, budget: int = SWEEP_BUDGET) -> bool:
        """Whether the seat, knowing every card of the deal ``s``, makes its side win
        every remaining trick against the other seats; True where the search runs out
        of positions (no refutation found)."""
        self._dd_nodes = 0
        self._dd_memo: dict[Any, bool] = {}
        try:
            return self._sweep(s, budget)
        except Exhausted:
            return True

    def _known_apply(self, s: State, card: int) -> State:
        """A card the engine has just listed as legal in ``s``, played without checking it
        again (as ``spec.engine.apply`` does for the actions it listed last)."""
        play = self.t.plays[card]
        known = self.eng._known.get(id(play))
        if known is None:
            return self.eng.apply(s, play)
        w = thaw(s)
        known[2](w, play, known[3])
        return freeze(w)

    def _sweep(self, s: State, budget: int) -> bool:
        if s.phase is not Phase.PLAY:
            return True
        key = (s.hands, s.aside, s.trick, s.turn, s.tracked, s.trick_number)
        found = self._dd_memo.get(key)
        if found is not None:
            return found
        self._dd_nodes += 1
        if self._dd_nodes > budget:
            raise Exhausted
        cards = self.t.legal(s)
        remaining = unplayed(s)
        mine = s.turn == self.seat
        if mine and not s.trick:
            others = remaining & ~(s.hands[self.seat] | s.aside[self.seat])
            if self.unbeatable((World(s.trump, s, ()),), others):
                self._dd_memo[key] = True
                return True
        order = self.ordered(s, self.distinct(cards, remaining))
        result = not mine
        for c in order:
            after = self._known_apply(s, c)
            if (after.trick_number != s.trick_number and after.tricks
                    and not self.side >> after.tricks[-1].winner & 1):
                ok = False
            else:
                ok = self._sweep(after, budget)
            if ok == mine:
                result = mine
                break
        self._dd_memo[key] = result
        return result

    def last_trick(self, node: Node) -> int:
        s = node[0][0].state
        held = sum(h.bit_count() for h in s.hands) + sum(a.bit_count() for a in s.aside)
        seats = max(1, self.t.n - bin(s.absent).count("1") - (1 if s.out >= 0 else 0))
        return s.trick_number + (held + len(s.trick)) // seats - (1 if not s.trick else 0)

    def win(self, node: Node) -> bool:
        """Whether the seat of the view wins the lazy game from ``node`` up to the
        horizon."""
        worlds, pool = node
        s = worlds[0].state
        if s.phase is not Phase.PLAY or s.trick_number > self.horizon:
            return True
        key = (pool, frozenset(self.wkey(w) for w in worlds))
        found = self.memo.get(key)
        if found is not None and (found < 0 or found >= self.horizon):
            return found >= 0
        self.nodes += 1
        if self.nodes > self.budget:
            raise Exhausted
        if any(w.state.turn != s.turn or w.state.phase is not s.phase for w in worlds):
            raise Unsupported("worlds that disagree on whose turn it is")
        if s.turn == self.seat:
            result = self._choose(worlds, pool)
        else:
            result = self._withstand(worlds, pool, s.turn)
        self.memo[key] = self.horizon if result else -1
        return result

    def unbeatable(self, worlds: Sequence[World], others: int) -> bool:
        """The seat of the view is on lead and every card it holds beats, led, every card
        of ``others`` (the cards the other seats may hold) in every trick left, under every
        world's trumps: whatever it leads wins, so it wins every trick."""
        t = self.t
        s = worlds[0].state
        mine = s.hands[self.seat] | s.aside[self.seat]
        if s.trick or s.turn != self.seat or not mine:
            return False
        last = self.last_trick((tuple(worlds), others))
        theirs = [c for c in range(t.size) if others >> c & 1]
        for trump in {w.trump for w in worlds}:
            for number in range(s.trick_number, last + 1):
                for x in range(t.size):
                    if mine >> x & 1:
                        table = self.eng.strength_table(t.suit_of[x], trump, number, s.contract)
                        if table is None or any(table[y] >= table[x] for y in theirs):
                            return False
        return True

    def _choose(self, worlds: Sequence[World], pool: int) -> bool:
        """The seat of the view has a card after which it wins whatever follows."""
        if self.unbeatable(worlds, pool):
            return True
        cards = self.moves(worlds)
        if not cards:
            raise Unsupported("the seat has no card to play")
        s = worlds[0].state
        mask = sum(1 << c for c in cards)
        cards = self.distinct(mask, self.remaining(s, pool))
        for card in self.ordered(worlds[0].state, cards):
            groups = self._groups(self._mine(worlds, pool, card))
            if groups is None:
                raise Unsupported("a legal card no world allows")
            if any(lost for _n, lost in groups):
                continue
            if all(self.win(n) for n, _lost in groups):
                return True
        return False

    def _withstand(self, worlds: Sequence[World], pool: int, seat: int) -> bool:
        """The seat of the view wins after every play the adversary may make."""
        options = self._options(worlds, pool, seat)
        rank = {c: i for i, c in enumerate(self.ordered(worlds[0].state, {k[1] for k in options}))}
        keys = sorted(options, key=lambda k: rank[k[1]])
        moved = False
        for key in keys:
            groups = self._groups(self._perform(key, options[key], pool, seat))
            if groups is None:
                continue
            moved = True
            if any(lost for _n, lost in groups):
                return False
            if not all(self.win(n) for n, _lost in groups):
                return False
        if not moved:
            raise Unsupported("a seat with no play any world allows")
        return True

def _product(xs: Iterable[int]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


# -- the root: the worlds consistent with the view --------------------------------------
def _history(eng: Engine, real: State) -> list[State]:
    """The states of the deal before each of its actions, and the last: replayed from
    the cards dealt.  Only their public parts are read (see :func:`_skeleton`).

    Raises:
        Unsupported: the replay does not come back to the view's state.
    """
    try:
        s = eng.start(real.dealt, dealer=real.dealer, seed=real.seed, redeals=real.redeals,
                      thrown_in=real.thrown_in,
                      turn_up=real.turn_up if real.turn_up >= 0 else None)
        out = [s]
        for _seat, action in real.log:
            s = eng.apply(s, action)
            out.append(s)
    except Exception as e:  # a deal the replay cannot rebuild: not decided here
        raise Unsupported(f"the deal cannot be replayed: {e}") from e
    # (the values the rules keep may differ: one set from what a seat could be sure of is
    # set otherwise while a decision is being made, and no rule of the play reads it)
    if (s.hands, s.aside, s.trick, s.tricks, s.turn) != (
            real.hands, real.aside, real.trick, real.tricks, real.turn):
        raise Unsupported("the replayed deal is not the view's")
    return out


def _side(eng: Engine, s: State, seat: int) -> int:
    """The seats of ``seat``'s side: its partnership, else the declaring side or the
    seats against it."""
    table = eng.game.table
    if table.partnerships:
        for team in table.partnerships:
            if seat in team:
                return sum(1 << k for k in team)
    from spec.solver._goal import side_of
    declaring = side_of(eng, s)
    if declaring >> seat & 1:
        return declaring
    return ((1 << eng.n) - 1) & ~declaring


class _Root:
    """The worlds consistent with what the seat of a view has seen, built from the start
    of the play by the lazy game's own moves, each filtered by what the seat saw."""

    def __init__(self, dec: _Decision, real: State) -> None:
        self.dec = dec
        self.t = dec.t
        self.seat = dec.seat
        self.states = _history(dec.eng, real)
        self.actions = [a for _seat, a in real.log]
        self.first = next((i for i, s in enumerate(self.states) if s.phase is Phase.PLAY), None)
        if self.first is None:
            raise Unsupported("the play has not begun")
        # an announcement another seat made tells the seat what its condition reads
        hidden = {b.name for _r, b in dec.eng.game.constructs(K.Announce) if _reads_hidden(b.when)}
        if any(who != self.seat and isinstance(a, Declare) and a.name in hidden
               for who, a in real.log):
            raise Unsupported("an announcement made on cards the seat has not seen")

    def _trumps(self, s: State) -> list[int]:
        v = View(s, self.seat)
        if v.trump is not None:
            return [suit_code(v.trump)]
        if not self.t.from_aside:
            return [s.trump]
        return list(self.t.codes)

    def _skeleton(self, s: State, trump: int) -> State:
        """``s`` with the cards the seat has not seen replaced by stand-ins of the same
        number, and trumps ``trump``."""
        t = self.t
        w = thaw(s)
        hands, asides, dealt = list(w.hands), list(w.aside), list(w.dealt)
        for y in range(t.n):
            if y == self.seat:
                continue
            aside = 0
            if s.aside[y]:
                suits = 1 << trump if t.from_aside and trump != NO_SUIT else t.all_suits
                aside = t.some(suits, s.aside[y].bit_count(), 0)
            hand = t.some(t.all_suits, s.hands[y].bit_count(), aside)
            if hand < 0 or aside < 0:
                raise Unsupported("no stand-ins for a hidden hand")
            hands[y], asides[y], dealt[y] = hand, aside, hand | aside
        w.hands, w.aside, w.dealt, w.trump = tuple(hands), tuple(asides), tuple(dealt), trump
        w.pending = (0,) * t.n
        return freeze(w)

    def _needs(self, trump: int) -> tuple[tuple[int, tuple[int, ...], int], ...] | None:
        """What the choices made before the play by other seats need of their cards, with
        trumps ``trump``: for each, the seat and the least sets of suits among its dealt
        cards any of which allows the choice made; None where no cards allow it."""
        t, eng = self.t, self.dec.eng
        out = []
        for i in range(self.first):  # type: ignore[arg-type]
            s, action = self.states[i], self.actions[i]
            if not isinstance(action, Declare) or eng.choice_step(s) is None or s.turn == self.seat:
                continue
            y = s.turn
            probe = thaw(self._skeleton(s, trump))
            size = s.dealt[y].bit_count()
            every, ok = [], []
            for p in t.subsets:
                hand = t.rep(p, size) if p.bit_count() <= size else -1
                if hand < 0:
                    continue
                every.append(p)
                dealt = list(probe.dealt)
                dealt[y] = hand
                probe.dealt = tuple(dealt)
                if action in eng._choice_options(probe):
                    ok.append(p)
            if len(ok) == len(every):
                continue
            if not ok:
                return None
            if any(p not in ok and any(not q & ~p for q in ok) for p in every):
                raise Unsupported("a choice needs cards of the chooser's in a way the slots cannot keep")
            least = tuple(p for p in ok if not any(q != p and not q & ~p for q in ok))
            out.append((y, least, 0))
        return tuple(out)

    def start(self) -> Node:
        """The worlds at the first lead."""
        t, s = self.t, self.states[self.first]  # type: ignore[index]
        if s.talon or s.pending and any(s.pending):
            raise Unsupported("cards still on the table or to be dealt")
        pool = t.full & ~View(s, self.seat).seen_cards.mask
        worlds = []
        for trump in self._trumps(s):
            sk = self._skeleton(s, trump)
            if observation(sk, self.seat) != observation(s, self.seat):
                continue
            slots: list[Slot] = []
            for y in range(t.n):
                if y == self.seat:
                    continue
                if s.hands[y]:
                    slots.append((y, HAND, s.hands[y].bit_count(), t.all_suits, -1))
                if s.aside[y]:
                    may = 1 << trump if t.from_aside and trump != NO_SUIT else t.all_suits
                    slots.append((y, ASIDE, s.aside[y].bit_count(), may, -1))
            needs = self._needs(trump)
            if needs is None:
                continue
            w = World(trump, sk, _canonical(slots), needs)
            if feasible(t, w, pool):
                worlds.append(w)
        if not worlds:
            raise Unsupported("no world fits the start of the play")
        return tuple(worlds), pool

    def now(self) -> Node:
        """The worlds at the view's moment: the start of the play, then each action since,
        every world kept that shows the seat what it saw."""
        node = self.start()
        for i in range(self.first, len(self.actions)):  # type: ignore[arg-type]
            node = self._step(node, self.states[i], self.states[i + 1], self.actions[i])
        real = self.states[-1]
        if node[1] != self.t.full & ~View(real, self.seat).seen_cards.mask:
            raise Unsupported("the cards unseen are not those the view shows")
        return node

    def _step(self, node: Node, before: State, after: State, action: Any) -> Node:
        dec = self.dec
        worlds, pool = node
        seen = observation(after, self.seat)
        if isinstance(action, Declare):
            out = []
            for w in worlds:
                x = thaw(w.state)
                dec.eng._do_declare(x, action)
                s2 = freeze(x)
                if observation(s2, self.seat) == seen:
                    out.append(World(w.trump, s2, w.slots, w.needs))
            if not out:
                raise Unsupported("no world shows an announcement as the seat saw it")
            return tuple(out), pool
        if not isinstance(action, Play):
            raise Unsupported("an action in the play that is no card")
        seat = before.turn
        card = dec.index[action.card]
        children: Iterable[Child]
        if seat == self.seat:
            children = dec._mine(worlds, pool, card)
        else:
            options = dec._options(worlds, pool, seat)
            children = (c for key, found in options.items() if key[1] in (card, -1)
                        for c in dec._perform(key, found, pool, seat))
        keep: dict[Any, World] = {}
        left = pool
        for w, p, obs, _lost in children:
            if obs == seen:
                keep.setdefault(dec.wkey(w), w)
                left = p
        if not keep:
            raise Unsupported("no world shows a play as the seat saw it")
        return tuple(keep.values()), left


def decide(view: View, *, budget: int = BUDGET) -> tuple[bool | None, str]:
    """Whether the seat of ``view`` can be sure its side wins every remaining trick, and
    why not decided where the answer is None (unsupported rules or position, or the
    budget of positions spent)."""
    s = view._state
    eng = s.engine
    t = _tables(eng)
    if t.why:
        return None, t.why
    if s.phase is not Phase.PLAY:
        return None, "not in the play of the cards"
    dec = _Decision(t, view.seat, _side(eng, s, view.seat), budget)
    # the positions played here are the engine's: a rule that asks the question again
    # while it is being decided is answered not sure (Engine.certain)
    deciding, eng._deciding = eng._deciding, True
    try:
        node = _Root(dec, s).now()
        dec.rank_runs(s, [w.trump for w in node[0]])
        return dec.decide(node), ""
    except Unsupported as e:
        return None, str(e)
    except Exhausted:
        return None, f"budget of {budget} positions spent"
    finally:
        eng._deciding = deciding


def certain(view: View, *, budget: int = BUDGET) -> bool | None:
    """Whether the seat of ``view`` can be sure, from what it has seen, that its side
    wins every remaining trick whatever the other seats play: True, False, or None where
    the procedure cannot decide (see :func:`decide`)."""
    return decide(view, budget=budget)[0]
