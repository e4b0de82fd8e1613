"""The executable engine: deals, auctions, tricks and scores, interpreted from a game's rules.

Nothing here names a game.  :class:`Engine` compiles the expressions that
:mod:`spec.dsl._derive` builds from the game's rules into Python functions once, and the
immutable :class:`State` moves through the phases of a deal: the auction, the play of the
tricks, the score.  ``apply`` refuses an illegal action with an
:class:`~spec.errors.IllegalActionError` naming the rule that forbids it, and the state it
was given is untouched (states are never changed in place).

>>> from spec.games.crescendo import GAME
>>> s = new_deal(GAME, seed=7)
>>> s.phase, s.engine.table.name(s.turn)
(<Phase.AUCTION: 'auction'>, 'Forehand')
>>> s2 = apply(s, Call(GAME.parse_bid("15C")))
>>> s.calls, len(s2.calls)
((), 1)
"""
from __future__ import annotations

import enum
import operator
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from spec.cards import Card, CardSet, Suit
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Bid, Game, Rule, suit_code, suit_from_code
from spec.dsl._nodes import NO_SUIT, Ctx, DealtHand, Receives, Ref, Scope, T, Taken, TricksWon, WonTrick
from spec.dsl._pycompile import GameTables, compile_function
from spec.errors import IllegalActionError, NoLegalActionError, NotationError
from spec.seats import Table

__all__ = [
    "Phase", "Call", "Play", "Action", "TrickRecord", "State", "Engine", "engine_for",
    "new_deal", "legal_actions", "apply", "parse_action", "random_bot", "modest_bot", "play_deal",
    "View", "Lay", "Declare", "ThrownIn", "Match", "play_match", "pick", "play_on",
]


class Phase(enum.Enum):
    AUCTION = "auction"
    SET_ASIDE = "set aside"
    DECIDE = "decide"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Call:
    """A call in the auction: a bid, or a pass (``bid=None``)."""

    bid: Bid | None = None

    def __str__(self) -> str:
        return "pass" if self.bid is None else str(self.bid)


PASS = Call(None)


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to a trick, with the suit named for it when a rule asks for one."""

    card: Card
    names: Suit | None = None

    def __str__(self) -> str:
        return f"{self.card}:{self.names.letter}" if self.names else str(self.card)


@dataclass(frozen=True, slots=True)
class Lay:
    """A card laid aside face down (a trump indicator, say)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class Declare:
    """An announcement the rules allow on a turn: ``open``, ``caps``, ``partner`` ..."""

    name: str

    def __str__(self) -> str:
        return self.name


Action = Call | Play | Lay | Declare


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished trick: who led, the seats and cards in order of play, named suits, which
    cards went face down, whether they were turned up, and the winner."""

    number: int
    leader: int
    cards: tuple[int, ...]
    named: tuple[int, ...]
    winner: int
    seats: tuple[int, ...] = ()
    face_down: tuple[bool, ...] = ()
    revealed: bool = False
    seen_by: int = -1


@dataclass(frozen=True, slots=True)
class ThrownIn:
    """A deal that was not played out: its hands, its actions and why it ended."""

    dealt: tuple[int, ...]
    log: tuple[tuple[int, Action], ...]
    reason: str
    dealer: int = -1
    fired: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class State:
    """One moment of a deal.  Immutable: every action makes a new state."""

    engine: Engine = field(repr=False)
    phase: Phase
    dealer: int
    seed: int
    redeals: int
    dealt: tuple[int, ...]  # hands as dealt, every stage (bitmasks), for records and honours
    hands: tuple[int, ...]
    turn: int
    calls: tuple[tuple[int, int], ...] = ()  # (whose call, bid number or -1 for pass)
    standing: int = -1
    high_bidder: int = -1
    passes_in_row: int = 0
    thrown_in: tuple[ThrownIn, ...] = ()
    contract: int = -1
    declarer: int = -1
    trump: int = NO_SUIT
    trick_number: int = 1
    leader: int = -1
    trick: tuple[tuple[int, int], ...] = ()  # (card number, named suit code)
    led_suit: int = NO_SUIT
    won: tuple[int, ...] = ()  # per seat: bit k set when the seat won trick k
    tricks: tuple[TrickRecord, ...] = ()
    scores: tuple[int, ...] | None = None
    lines: tuple[tuple[int, ...], ...] = ()  # per line of the score sheet, per seat
    # deals in stages, set-aside cards, announcements and tracked values
    stage: int = 1
    stage_calls: int = 0
    seat_calls: tuple[int, ...] = ()
    stage_bid: bool = False
    proxy: int = -1  # the seat whose partner is calling in its place
    pending: tuple[int, ...] = ()  # cards dealt in later stages, per seat
    aside: tuple[int, ...] = ()
    tracked: tuple[Any, ...] = ()
    out: int = -1  # the seat sitting out of the play
    faces: tuple[bool, ...] = ()  # face-down flags of the trick so far
    taken: tuple[int, ...] = ()  # per seat: the cards of the tricks it won
    log: tuple[tuple[int, Action], ...] = ()  # every action of this deal, with its seat
    void: str = ""  # why the deal ended without a score
    # the rules that changed the course of this deal, in order, as (number of actions
    # before, rule id): a card laid aside or played from aside, an announcement, a partner
    # calling, a decision, a card face down, a seat sitting out, a tracked value changed,
    # a void deal
    fired: tuple[tuple[int, str], ...] = ()

    @property
    def game(self) -> Game:
        return self.engine.game

    def hand(self, seat: int) -> CardSet:
        return CardSet(self.engine.game.deck, self.hands[seat])

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def tracked_value(self, name: str) -> Any:
        return self.tracked[self.engine.tracked_index[name]]

    def view(self, seat: int) -> View:
        """What one seat knows: its own hand and everything played face up."""
        return View(self, seat)

    def __repr__(self) -> str:
        return (f"<State {self.engine.game.key} {self.phase.value} turn="
                f"{self.engine.table.name(self.turn)} trick={self.trick_number}>")


class _Unfrozen:
    """The slots of a :class:`State` without the frozen ``__setattr__``: a state being filled.

    A new state is filled in this class by plain attribute stores (the interpreter's
    fastest path) and then becomes a ``State`` by ``__class__`` assignment, which Python
    allows between classes with the same slots.  Nothing outside :func:`_state_maker`
    ever holds one, so every state anyone sees is frozen.
    """

    __slots__ = State.__slots__


def _state_maker(*changed: str) -> Callable[..., State]:
    """A function ``(state, *values) -> State``: a copy with the ``changed`` fields set.

    The copy equals ``dataclasses.replace(state, **dict(zip(changed, values)))`` at about a
    fifth of the cost: ``replace`` walks the fields and calls the frozen ``__init__``, which
    sets each field through ``object.__setattr__``; on random deals that was the largest
    cost of the engine.  The body is generated from :func:`dataclasses.fields`, so every
    field is carried over.
    """
    names = tuple(f.name for f in fields(State))
    unknown = set(changed) - set(names)
    assert not unknown, f"State has no fields {sorted(unknown)}"
    lines = [f"def make_state(state, {', '.join(changed)}):", "    new = _new(_Unfrozen)"]
    lines += [f"    new.{n} = {n if n in changed else 'state.' + n}" for n in names]
    lines += ["    new.__class__ = _State", "    return new"]
    ns: dict[str, Any] = {"_new": object.__new__, "_Unfrozen": _Unfrozen, "_State": State}
    code = compile("\n".join(lines), f"<State:{'+'.join(changed)}>", "exec")
    exec(code, ns)  # noqa: S102  # generated from State's own field names
    return ns["make_state"]  # type: ignore[no-any-return]  # the generated function


# the transitions, each one new state per action
_after_call = _state_maker("calls", "standing", "high_bidder", "passes_in_row", "turn",
                           "stage_calls", "seat_calls", "stage_bid", "proxy", "log")
_after_card = _state_maker("hands", "aside", "trick", "faces", "led_suit", "turn", "log")
_after_trick = _state_maker("hands", "aside", "trick", "faces", "led_suit", "won", "taken",
                            "tricks", "trick_number", "leader", "turn", "tracked", "log")


_dealt = _state_maker("dealer", "seed", "redeals", "dealt", "hands", "pending", "thrown_in",
                      "turn")
_to_play = _state_maker("phase", "contract", "declarer", "trump", "out", "leader", "turn")
_over = _state_maker("hands", "aside", "trick", "faces", "led_suit", "won", "taken", "tricks",
                     "trick_number", "leader", "turn", "tracked", "log", "phase", "scores",
                     "lines")


def _with(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed (for the rarer transitions)."""
    return replace(state, **changes)


def _fired(state: State, rule: Rule | None) -> State:
    """``state`` with ``rule`` noted as taking effect at this point of the deal."""
    assert rule is not None
    return replace(state, fired=state.fired + ((len(state.log), rule.id),))


class View:
    """The state as one seat sees it; bots act on views only.

    A seat sees its own hand and the cards it has set aside, every call and
    announcement, and the cards of each trick, except cards played face down by others
    that only the seat allowed to inspect them sees, until a trick is turned face up.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def hand(self) -> CardSet:
        return self._state.hand(self.seat)

    @property
    def aside(self) -> CardSet:
        s = self._state
        return CardSet(s.game.deck, s.aside[self.seat] if s.aside else 0)

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        return self._state.calls

    @property
    def trump(self) -> Suit | None:
        """The trump suit if this seat knows it (a face-down indicator hides it from others)."""
        s = self._state
        if s.engine.trump_from_aside and any(s.aside) and not s.aside[self.seat]:
            return None
        return suit_from_code(s.trump) if s.trump != NO_SUIT else None

    def _shown(self, seat: int, card: int, down: bool, revealed: bool, seen_by: int) -> int | None:
        if not down or revealed or self.seat in (seat, seen_by):
            return card
        return None

    @property
    def current_trick(self) -> tuple[tuple[int, int | None], ...]:
        """(seat, card number) for each card of the trick so far; ``None``: face down, unseen."""
        s = self._state
        seats = s.engine.trick_seats(s.leader, s.out)
        seen_by = s.engine.face_down_seen_by(s)
        return tuple((seats[j], self._shown(seats[j], c, bool(s.faces and s.faces[j]), False,
                                            seen_by))
                     for j, (c, _d) in enumerate(s.trick))

    @property
    def tricks(self) -> tuple[tuple[int, tuple[tuple[int, int | None], ...], int], ...]:
        """(number, ((seat, card or None), ...), winner) for every finished trick."""
        out = []
        for r in self._state.tricks:
            faces = r.face_down or (False,) * len(r.cards)
            cards = tuple((seat, self._shown(seat, c, f, r.revealed, r.seen_by))
                          for seat, c, f in zip(r.seats, r.cards, faces))
            out.append((r.number, cards, r.winner))
        return tuple(out)

    @property
    def seen_cards(self) -> CardSet:
        """Every card this seat has seen: its hand, its cards aside, and the cards shown."""
        mask = self._state.hands[self.seat] | (self._state.aside[self.seat] if self._state.aside else 0)
        for _n, cards, _w in self.tricks:
            for _seat, c in cards:
                if c is not None:
                    mask |= 1 << c
        for _seat, c in self.current_trick:
            if c is not None:
                mask |= 1 << c
        return CardSet(self._state.game.deck, mask)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self._state.hands)

    def legal_actions(self) -> tuple[Action, ...]:
        if self._state.turn != self.seat:
            return ()
        return legal_actions(self._state)


_CALL_CTX = (Ctx.SEAT, Ctx.DEALER, Ctx.HAND, Ctx.HAS_STANDING, Ctx.STANDING, Ctx.HIGH_BIDDER,
             Ctx.CALLS_MADE, Ctx.PASSES_IN_ROW, Ctx.STAGE, Ctx.SEAT_CALLS, Ctx.BID_THIS_STAGE,
             Ctx.PROXY)
_PLAY_CTX = (Ctx.SEAT, Ctx.DEALER, Ctx.HAND, Ctx.IS_LEADING, Ctx.LED_SUIT, Ctx.TRUMP,
             Ctx.TRICK_NUMBER, Ctx.POSITION, Ctx.CONTRACT, Ctx.DECLARER, Ctx.ASIDE, Ctx.LEADER)
_ENTRY_CTX = (Ctx.CARD, Ctx.DECLARED, Ctx.IS_LEADING, Ctx.POSITION, Ctx.LED_SUIT, Ctx.TRUMP,
              Ctx.TRICK_NUMBER, Ctx.CONTRACT)
_STATUS_CTX = (Ctx.DEALER, Ctx.CONTRACT, Ctx.DECLARER, Ctx.TRUMP, Ctx.TRICK_NUMBER)
_TRICK_CTX = (Ctx.DEALER, Ctx.CONTRACT, Ctx.DECLARER, Ctx.TRUMP, Ctx.TRICK_NUMBER, Ctx.LEADER,
              Ctx.TRICK_SIZE)


_MATCH_PARAMS = {Ctx.DEALS_PLAYED: "deals", Ctx.LEAD_TOTAL: "lead", Ctx.TRAIL_TOTAL: "trail",
                 Ctx.GAMES_WON: "games"}


def _params(ctxs: Iterable[Ctx]) -> dict[Any, str]:
    return {c: c.name.lower() for c in ctxs}


# the parameters of the functions judged at the end of the play, before the state tables
_OUTCOME_PARAMS = {Ctx.SEAT: "seat", Ctx.DECLARER: "declarer", Ctx.CONTRACT: "contract",
                   Ctx.DEALER: "dealer", Ctx.TRUMP: "trump"}


def _trick_params(players: int) -> dict[Any, str]:
    """The parameters of the functions judged on a complete trick, before ``tv``."""
    params: dict[Any, str] = _params(_TRICK_CTX)
    for i in range(players):
        params[(Ctx.PLAYED_CARD, i)] = f"cards[{i}]"
        params[(Ctx.PLAYED_DECLARED, i)] = f"named[{i}]"
        params[(Ctx.PLAYED_FACE_DOWN, i)] = f"faces[{i}]"
    params.update({("param", "cards"): "cards", ("param", "named"): "named",
                   ("param", "faces"): "faces"})
    return params


class Engine:
    """The compiled form of one game (with its variants): build once, use for every deal."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.table: Table = game.table
        self.n = game.players
        self.tables = GameTables(game)
        g = game
        self.tracked_names = tuple(g.tracked)
        self.tracked_index = {name: i for i, name in enumerate(self.tracked_names)}
        self._tracked_initial = tuple(self._initial(t) for t in g.tracked.values())
        self._tracked_env = {("tracked", name): f"tv[{i}]" for i, name in enumerate(self.tracked_names)}
        self.stages = g.stages
        self._match_fns: dict[Ctx, Callable[..., Any]] = {}
        self._deals = [g.stage_rule(K.DealPackets, k) for k in range(1, self.stages + 1)]
        self._turns = [g.stage_rule(K.AuctionTurns, k) for k in range(1, self.stages + 1)]
        self.packets = tuple(p for d in self._deals for p in d.packets)  # type: ignore[union-attr]
        play = g.one(K.TrickPlay)
        assert isinstance(play, K.TrickPlay)
        call_p = _params(_CALL_CTX)
        seat_only = {Ctx.DEALER: "dealer"}
        self._deal_first = [self._fn(d.first, seat_only, "deal_first")  # type: ignore[union-attr]
                            for d in self._deals]
        self._auction_first = [self._fn(t.first, call_p, "auction_first", tv=True)  # type: ignore[union-attr]
                               for t in self._turns]
        self._first_lead = self._fn(
            play.first_lead, {Ctx.DEALER: "dealer", Ctx.DECLARER: "declarer",
                              Ctx.CONTRACT: "contract", Ctx.TRUMP: "trump"},
            "first_lead", tv=True)
        self._ends = [self._fn(t.ends_when, call_p, "auction_over", tv=True)  # type: ignore[union-attr]
                      for t in self._turns]
        # call rules: one function for legality and one per rule for the refusal message
        call_full = {**call_p, Ctx.CALL_IS_BID: "call_is_bid", Ctx.CALL_BID: "call_bid"}
        self._call_rules: list[tuple[Rule, Callable[..., bool], Callable[..., bool]]] = []
        for rule, body in g.constructs(K.CallRule):
            assert isinstance(body, K.CallRule)
            self._call_rules.append((rule, self._fn(body.applies, call_full, "applies", tv=True),
                                     self._fn(body.requires, call_full, "requires", tv=True)))
        self._call_ok = self._fn(D.call_legal(g), call_full, "call_ok", tv=True)
        # the legal calls follow from the arguments the legality function reads
        self._calls_key = _picker([k for k, name in enumerate([*call_p.values(), "tv"])
                                   if name in _reads(self._call_ok)])
        self._legal_calls_cache: dict[Any, tuple[Call, ...]] = {}
        proxy = g.constructs(K.ProxyCall)
        self._proxy_rule = proxy[0][0] if proxy else None
        self._proxy_counts = bool(proxy and proxy[0][1].counts_for_partner)  # type: ignore[attr-defined]
        self._proxy_when = (self._fn(proxy[0][1].when, call_p, "proxy", tv=True)  # type: ignore[attr-defined]
                            if proxy else None)
        self.ladder = g.ladder
        self._calls = tuple(Call(b) for b in g.ladder)
        self._trump_of = tuple(suit_code(b.strain) for b in g.ladder)
        # cards set aside after an auction stage
        self._set_aside: dict[int, tuple[K.SetAside, Callable[..., bool]]] = {}
        self._set_aside_rule: dict[int, Rule] = {}
        for rule, body in g.constructs(K.SetAside):
            assert isinstance(body, K.SetAside)
            self._set_aside[body.stage] = (body, self._fn(body.when, call_p, "set_aside", tv=True))
            self._set_aside_rule[body.stage] = rule
        self.trump_from_aside = any(b.names_trump for b, _f in self._set_aside.values())
        status_p = _params(_STATUS_CTX)
        returns = [self._fn(b.returns_when, status_p, "returns", tv=True, dealt=True)
                   for b, _f in self._set_aside.values()]
        self._aside_returns = returns[0] if returns else None
        sits = g.constructs(K.SitsOut)
        self._sits_rule = sits[0][0] if sits else None
        self._sits_out = ((self._fn(sits[0][1].when, status_p, "sits_out", tv=True, dealt=True),  # type: ignore[attr-defined]
                           self._fn(sits[0][1].seat, status_p, "sitter", tv=True, dealt=True))  # type: ignore[attr-defined]
                          if sits else None)
        # play rules
        play_p = _params(_PLAY_CTX)
        self._play_param_names = (*play_p.values(), "tv", "dealt")
        self._legal = self._fn(D.legal_cards(g), play_p, "legal_cards", tv=True, dealt=True)
        self._play_rules: list[tuple[Rule, Callable[..., bool], Callable[..., int]]] = []
        for rule, body in g.constructs(K.PlayRule):
            assert isinstance(body, K.PlayRule)
            self._play_rules.append((rule, self._fn(body.applies, play_p, "applies", tv=True, dealt=True),
                                     self._fn(body.permits, play_p, "permits", tv=True, dealt=True)))
        down = g.constructs(K.FaceDown)
        self._face_down = (self._fn(D.face_down(g), {**play_p, Ctx.CARD: "card",
                                                     Ctx.DECLARED: "declared"},
                                    "face_down", tv=True, dealt=True)
                           if down else None)
        trick_p = _trick_params(self.n)
        self._revealed = (self._fn(down[0][1].revealed_when, trick_p, "revealed", tv=True)  # type: ignore[attr-defined]
                          if down else None)
        self._seen_by = (self._fn(down[0][1].seen_by, status_p, "seen_by", tv=True, dealt=True)  # type: ignore[attr-defined]
                         if down else None)
        self._aside_rule = (g.constructs(K.PlayableAside) or [(None, None)])[0][0]
        self._face_down_rule = down[0][0] if down else None
        self._updates: list[tuple[Rule, Callable[..., bool],
                                  tuple[tuple[int, Callable[..., Any]], ...]]] = []
        for rule, body in g.constructs(K.Update):
            assert isinstance(body, K.Update)
            self._updates.append((
                rule, self._fn(body.when, trick_p, "update", tv=True),
                tuple((self.tracked_index[name], self._fn(value, trick_p, "value", tv=True))
                      for name, value in body.sets)))
        # announcements
        self._announce: dict[Scope, list[tuple[Rule, K.Announce, Declare, Callable[..., bool],
                                               Callable[..., bool] | None,
                                               tuple[tuple[int, Callable[..., Any]], ...]]]] = {
            Scope.CALL: [], Scope.PLAY: []}
        for rule, body in g.constructs(K.Announce):
            assert isinstance(body, K.Announce)
            p = call_p if body.scope is Scope.CALL else play_p
            dealt = body.scope is Scope.PLAY
            self._announce[body.scope].append((
                rule, body, Declare(body.name),
                self._fn(body.when, p, "announce", tv=True, dealt=dealt),
                (self._fn(body.required, p, "required", tv=True, dealt=dealt)
                 if body.required is not None else None),
                tuple((self.tracked_index[name], self._fn(value, p, "value", tv=True, dealt=dealt))
                      for name, value in body.sets)))
        decide = g.constructs(K.Decide)
        self._decide: tuple[Rule, Callable[..., int],
                            tuple[tuple[Declare, Callable[..., bool],
                                        tuple[tuple[int, Callable[..., Any]], ...]], ...]] | None = None
        if decide:
            rule, body = decide[0]
            assert isinstance(body, K.Decide)
            self._decide = (rule, self._fn(body.by, status_p, "decider", tv=True, dealt=True), tuple(
                (Declare(o.name), self._fn(o.when, status_p, "option", tv=True, dealt=True),
                 tuple((self.tracked_index[n], self._fn(v, status_p, "value", tv=True, dealt=True))
                       for n, v in o.sets))
                for o in body.options))
        self._voids = tuple((self._fn(b.when, status_p, "void", tv=True, dealt=True),  # type: ignore[attr-defined]
                             b.redeal_steps, r)  # type: ignore[attr-defined]
                            for r, b in g.constructs(K.VoidWhen))
        self.announcement_names = tuple(b.name for _r, b in g.constructs(K.Announce)) + (
            ("partner",) if proxy else ()) + (
            tuple(d.name for d, _w, _s in self._decide[2]) if self._decide else ())
        self._declares = {d.name: d for lst in self._announce.values() for _r, _b, d, *_ in lst}
        for d, _w, _s in (self._decide[2] if self._decide else ()):
            self._declares[d.name] = d
        if proxy:
            self._declares["partner"] = Declare("partner")
        play_card_p = {**play_p, Ctx.CARD: "card", Ctx.DECLARED: "declared"}
        self._needs_decl = self._fn(D.needs_declaration(g), play_card_p, "needs_declaration",
                                    tv=True, dealt=True)
        self._decl_choices = D.declaration_choices(g)
        self._name_rules = tuple(r for r, _b in g.constructs(K.NameSuit))
        self._decl_rules: list[tuple[Rule, Callable[..., bool], Callable[..., bool]]] = []
        for rule, body in g.constructs(K.DeclarationRule):
            assert isinstance(body, K.DeclarationRule)
            self._decl_rules.append((
                rule, self._fn(body.applies, play_card_p, "applies", tv=True, dealt=True),
                self._fn(body.requires, play_card_p, "requires", tv=True, dealt=True)))
        entry_p = _params(_ENTRY_CTX)
        self._entry_suit = self._fn(D.entry_suit(g), entry_p, "entry_suit")
        self._strength = self._fn(D.strength(g), entry_p, "strength")
        # scoring
        outcome = _OUTCOME_PARAMS
        self._score = self._fn(D.score(g, Ref(Ctx.SEAT)), outcome, "score", tv=True, dealt=True,
                               won=True, taken=True)
        self._points = self._fn(D.points_won(g, Ref(Ctx.SEAT)),
                                {Ctx.SEAT: "seat", Ctx.CONTRACT: "contract"}, "points",
                                won=True, taken=True)
        # a score sheet with several lines: one function per line, the score their sum
        self.lines = D.score_lines(g)
        self._line_scores = (tuple(self._fn(D.score(g, Ref(Ctx.SEAT), line), outcome, "line",
                                            tv=True, dealt=True, won=True, taken=True)
                                   for line in self.lines) if len(self.lines) > 1 else ())
        self._items: tuple[tuple[Rule, Callable[..., int]], ...] | None = None
        redeal = g.constructs(K.RedealIfNoBid)
        self._redeal_steps = redeal[0][1].steps if redeal else None  # type: ignore[attr-defined]
        self._plays = {
            (i, NO_SUIT): Play(c) for i, c in enumerate(g.deck)
        }
        for i, c in enumerate(g.deck):
            for code in self._decl_choices:
                self._plays[(i, code)] = Play(c, suit_from_code(code))
        self._lays = tuple(Lay(c) for c in g.deck)
        # The actions legal_actions hands out are these pre-built objects.  Keyed by identity,
        # they give their card number, named suit and a bit of their own (or their bid
        # number) without searching the deck or the ladder; any other equal action takes
        # the longer way to the same result.
        self._play_codes = {id(p): (p, i, code, 1 << k)
                            for k, ((i, code), p) in enumerate(self._plays.items())}
        first_index: dict[Bid, int] = {}
        for b, bid in enumerate(self.ladder):
            first_index.setdefault(bid, b)
        self._call_numbers = {id(c): (c, first_index[bid])
                              for c, bid in zip(self._calls, self.ladder)}
        self._call_numbers[id(PASS)] = (PASS, -1)
        # The legal plays follow from the legal mask and the arguments the declaration rules
        # read, so positions that agree on those share one entry (most hands never name).
        decl_reads = _reads(self._needs_decl).union(
            *(_reads(f) for _r, app, req in self._decl_rules for f in (app, req)))
        self._plays_key = _picker([k for k, name in enumerate(self._play_param_names)
                                   if name in decl_reads])
        self._plays_cache: dict[tuple[int, Any], tuple[tuple[Play, ...], int]] = {}
        self._card_plays: dict[Any, list[tuple[tuple[Play, ...], int] | None]] = {}
        # (state, play arguments, legal mask, legal plays or None, their bits) of the state
        # asked about last: a bot lists the legal plays, then applies one to the same state.
        self._last_play: tuple[State | None, tuple[Any, ...], int, tuple[Play, ...] | None,
                               int] = (None, (), 0, None, 0)
        self._plain_play = not (self._announce[Scope.PLAY] or self._set_aside or self._updates
                                or self._face_down or self._sits_out or self._voids)
        self._deal_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        self._trick_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        # every field of a new deal but the deal itself, for start() to fill in
        self._before_deal = State(engine=self, phase=Phase.AUCTION, dealer=0, seed=0, redeals=0,
                                  dealt=(), hands=(), turn=0, won=(0,) * self.n,
                                  seat_calls=(0,) * self.n, aside=(0,) * self.n,
                                  tracked=self._tracked_initial, taken=(0,) * self.n,
                                  pending=(0,) * self.n)

    def _initial(self, track: K.Track) -> Any:
        v = track.initial
        if track.type is T.SUIT:
            return suit_code(v)  # type: ignore[arg-type]
        return int(v) if not isinstance(v, bool) else v  # type: ignore[call-overload]

    def _fn(self, expr: Any, params: dict[Any, str], name: str, *, tv: bool = False,
            dealt: bool = False, won: bool = False, taken: bool = False) -> Callable[..., Any]:
        """Compile ``expr`` to a function of ``params`` and the named state tables, in order
        ``tv``, ``dealt``, ``won``, ``taken``."""
        params = dict(params)
        extra: dict[Any, str] = {}
        if tv:
            params[("param", "tv")] = "tv"
            extra.update(self._tracked_env)
        if dealt:
            params[("param", "dealt")] = "dealt"
            extra[DealtHand] = "dealt[{seat}]"
        if won:
            params[("param", "won")] = "won"
            extra[WonTrick] = "((won[{seat}] >> ({number})) & 1 == 1)"
            extra[TricksWon] = "won[{seat}].bit_count()"
        if taken:
            params[("param", "taken")] = "taken"
            extra[Taken] = "taken[{seat}]"
        return compile_function(self.game, self.tables, expr, params, extra_env=extra, name=name)

    # -- dealing ------------------------------------------------------------------------
    def deal_order(self, seed: int, redeals: int = 0) -> list[int]:
        """The shuffled pack (card numbers, top first) for a seed and a redeal count."""
        order = list(range(len(self.game.deck)))
        random.Random(f"{self.game.key}:{seed}:{redeals}").shuffle(order)
        return order

    def stage_seats(self, dealer: int, stage: int) -> tuple[int, ...]:
        """The seat each card of one dealing stage goes to, top of the pack first."""
        key = (dealer, stage)
        seats = self._deal_seats.get(key)
        if seats is None:
            deal = self._deals[stage - 1]
            first = self._deal_first[stage - 1](dealer)
            seats = tuple((first + k) % self.n
                          for packet in deal.packets for k in range(self.n)  # type: ignore[union-attr]
                          for _ in range(packet))
            self._deal_seats[key] = seats
        return seats

    def hands_from_order(self, order: Sequence[int], dealer: int) -> tuple[int, ...]:
        """Deal a pack in the game's packets (every stage), starting with the seat each
        stage's deal rule names."""
        if sorted(order) != list(range(len(self.game.deck))):
            raise NotationError(
                f"a pack order must list every card number 0..{len(self.game.deck) - 1} once",
                value=order,
            )
        hands = [0] * self.n
        pos = 0
        for stage in range(1, self.stages + 1):
            for seat in self.stage_seats(dealer, stage):
                hands[seat] |= 1 << order[pos]
                pos += 1
        return tuple(hands)

    def stage_hands(self, order: Sequence[int], dealer: int) -> list[tuple[int, ...]]:
        """The cards each seat receives at each stage of the deal."""
        out = []
        pos = 0
        for stage in range(1, self.stages + 1):
            hands = [0] * self.n
            for seat in self.stage_seats(dealer, stage):
                hands[seat] |= 1 << order[pos]
                pos += 1
            out.append(tuple(hands))
        return out

    def start(self, hands: Sequence[int], *, dealer: int, seed: int = 0, redeals: int = 0,
              thrown_in: tuple[Any, ...] = (), later: Sequence[int] | None = None) -> State:
        """The state at the start of the auction, from hands as dealt.

        In a game that deals in stages, ``hands`` are the whole deal and ``later`` the part
        of each hand that arrives after the first auction (by default the cards the deal
        order would give late, as dealt by :meth:`split_stages`).
        """
        hands = tuple(hands)
        self.check_hands(hands)
        pending = tuple(later) if later is not None else self.split_stages(hands, seed, redeals, dealer)
        first = tuple(h & ~p for h, p in zip(hands, pending))
        s = _dealt(self._before_deal, dealer, seed, redeals, hands, first, pending, thrown_in, 0)
        return _dealt(s, dealer, seed, redeals, hands, first, pending, thrown_in,
                      self._first_caller(s, 1))

    def split_stages(self, hands: Sequence[int], seed: int, redeals: int, dealer: int) -> tuple[int, ...]:
        """The cards of each hand dealt after the first stage.

        For a dealt-from-seed deal these are the cards the pack gives late; for hands given
        whole, the highest-numbered cards of each hand (a fixed, documented choice).
        """
        if self.stages == 1:
            return (0,) * self.n
        order = self.deal_order(seed, redeals)
        if tuple(hands) == self.hands_from_order(order, dealer):
            parts = self.stage_hands(order, dealer)
            late = [0] * self.n
            for part in parts[1:]:
                for s in range(self.n):
                    late[s] |= part[s]
            return tuple(late)
        first_size = sum(self._deals[0].packets)  # type: ignore[union-attr]
        late = []
        for h in hands:
            bits = [i for i in range(len(self.game.deck)) if h >> i & 1]
            late.append(sum(1 << i for i in bits[first_size:]))
        return tuple(late)

    def check_hands(self, hands: Sequence[int]) -> None:
        """Raise NotationError unless the hands share out the deck as the deal rule does."""
        full = (1 << len(self.game.deck)) - 1
        size = sum(self.packets)
        if len(hands) != self.n:
            raise NotationError(f"expected {self.n} hands, got {len(hands)}", value=hands)
        seen = 0
        for s, h in enumerate(hands):
            if h & seen:
                dup = CardSet(self.game.deck, h & seen)
                raise NotationError(f"card {dup} is dealt twice", value=hands)
            seen |= h
            if h.bit_count() != size:
                raise NotationError(
                    f"{self.table.name(s)} has {h.bit_count()} cards; the deal gives {size}",
                    value=hands,
                )
        if seen != full:
            raise NotationError(f"cards {CardSet(self.game.deck, full & ~seen)} are not dealt",
                                value=hands)

    def trick_seats(self, leader: int, out: int) -> tuple[int, ...]:
        """The seats of a trick in order of play from ``leader``, without a seat sitting out."""
        key = (leader, out)
        seats = self._trick_seats.get(key)
        if seats is None:
            seats = tuple(s for s in ((leader + j) % self.n for j in range(self.n)) if s != out)
            self._trick_seats[key] = seats
        return seats

    def play_position(self, *, hands: Sequence[int], contract: int, declarer: int, leader: int,
                      trick_number: int, dealer: int | None = None, won: Sequence[int] | None = None,
                      trick: Sequence[tuple[int, int]] = (), trump: int | None = None,
                      aside: Sequence[int] | None = None, tracked: dict[str, Any] | None = None,
                      out: int = -1, dealt: Sequence[int] | None = None) -> State:
        """A state in the middle of the play, for replaying positions found by the verifier.

        ``hands`` are the cards still held (the cards of ``trick`` excluded).
        """
        dealer = self.n - 1 if dealer is None else dealer
        state = State(
            engine=self, phase=Phase.PLAY, dealer=dealer, seed=0, redeals=0,
            dealt=tuple(dealt) if dealt is not None else tuple(hands), hands=tuple(hands),
            turn=leader, contract=contract, declarer=declarer,
            trump=self._trump_of[contract] if trump is None else trump, trick_number=trick_number,
            leader=leader, won=tuple(won) if won is not None else (0,) * self.n,
            seat_calls=(0,) * self.n, aside=tuple(aside) if aside is not None else (0,) * self.n,
            tracked=self.tracked_values(tracked), out=out, taken=(0,) * self.n,
            pending=(0,) * self.n,
        )
        for card_no, named in trick:
            seat = state.turn
            if not (state.aside[seat] >> card_no & 1):
                hands_l = list(state.hands)
                hands_l[seat] |= 1 << card_no  # the card was in the hand before it was played
                state = replace(state, hands=tuple(hands_l))
            state = self.apply(state, self._plays[(card_no, named)])
        return state

    # -- legality -------------------------------------------------------------------
    def _call_args(self, s: State) -> tuple[Any, ...]:
        seat = s.proxy if s.proxy >= 0 else s.turn
        return (seat, s.dealer, s.hands[seat], s.standing >= 0, s.standing, s.high_bidder,
                s.stage_calls, s.passes_in_row, s.stage, s.seat_calls[seat], s.stage_bid,
                s.proxy >= 0, s.tracked)

    def legal_calls(self, s: State) -> tuple[Call, ...]:
        args = self._call_args(s)
        key = self._calls_key(args)
        cached = self._legal_calls_cache.get(key)
        if cached is None:
            ok = self._call_ok
            a = args[:-1]
            tv = args[-1]
            out = [PASS] if ok(*a, False, -1, tv) else []
            out.extend(c for i, c in enumerate(self._calls) if ok(*a, True, i, tv))
            cached = tuple(out)
            if len(self._legal_calls_cache) > _CACHE_SIZE:
                self._legal_calls_cache.clear()
            self._legal_calls_cache[key] = cached
        return cached

    def _announcements(self, s: State, scope: Scope, args: tuple[Any, ...]) -> tuple[list[Declare], list[Declare]]:
        """The announcements available now, and those required now."""
        avail: list[Declare] = []
        required: list[Declare] = []
        for _rule, _body, decl, when, must, _sets in self._announce[scope]:
            if when(*args):
                avail.append(decl)
                if must is not None and must(*args):
                    required.append(decl)
        return avail, required

    def _auction_actions(self, s: State) -> tuple[Action, ...]:
        calls = self.legal_calls(s)
        if not self._announce[Scope.CALL] and self._proxy_when is None:
            return calls
        args = self._call_args(s)
        avail, required = self._announcements(s, Scope.CALL, args)
        if required:
            return tuple(required)
        if self._proxy_when is not None and s.proxy < 0 and self._proxy_when(*args):
            avail.append(self._declares["partner"])
        return (*calls, *avail)

    def _play_args(self, s: State) -> tuple[Any, ...]:
        pos = len(s.trick)
        seat = s.turn
        return (seat, s.dealer, s.hands[seat], pos == 0, s.led_suit if pos else NO_SUIT,
                s.trump, s.trick_number, pos, s.contract, s.declarer, s.aside[seat], s.leader,
                s.tracked, s.dealt)

    def _play_context(self, s: State) -> tuple[tuple[Any, ...], int]:
        """The arguments of the play rules in ``s`` and the mask of legal cards."""
        last = self._last_play
        if last[0] is s:
            return last[1], last[2]
        args = self._play_args(s)
        mask: int = self._legal(*args)
        self._last_play = (s, args, mask, None, 0)
        return args, mask

    def legal_mask(self, s: State) -> int:
        return self._play_context(s)[1]

    def legal_plays(self, s: State) -> tuple[Play, ...]:
        last = self._last_play
        if last[0] is s:
            if last[3] is not None:
                return last[3]
            args, mask = last[1], last[2]
        else:
            args = self._play_args(s)
            mask = self._legal(*args)
        decl_args = self._plays_key(args)
        key = (mask, decl_args)
        found = self._plays_cache.get(key)
        if found is None:
            found = self._list_plays(args, mask, decl_args)
            if len(self._plays_cache) >= _CACHE_SIZE:
                self._plays_cache.clear()
            self._plays_cache[key] = found
        self._last_play = (s, args, mask, found[0], found[1])
        return found[0]

    def _list_plays(self, args: tuple[Any, ...], mask: int,
                    decl_args: Any) -> tuple[tuple[Play, ...], int]:
        """The legal plays for a legal mask, in card order, and the union of their bits."""
        per_card = self._card_plays.get(decl_args)
        if per_card is None:
            if len(self._card_plays) >= _CACHE_SIZE:
                self._card_plays.clear()
            per_card = self._card_plays[decl_args] = [None] * len(self.game.deck)
        out: list[Play] = []
        bits = 0
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            mask ^= low
            entry = per_card[i]
            if entry is None:
                entry = per_card[i] = self._card_plays_for(args, i)
            out += entry[0]
            bits |= entry[1]
        return tuple(out), bits

    def _card_plays_for(self, args: tuple[Any, ...], i: int) -> tuple[tuple[Play, ...], int]:
        """The legal plays of one legal card (with each suit it may name), and their bits."""
        if self._needs_decl(*args[:-2], i, NO_SUIT, *args[-2:]):
            plays = tuple(self._plays[(i, code)] for code in self._decl_choices
                          if self._decl_ok(args, i, code))
        else:
            plays = (self._plays[(i, NO_SUIT)],)
        return plays, sum(self._play_codes[id(p)][3] for p in plays)

    def _decl_ok(self, args: tuple[Any, ...], card: int, code: int) -> bool:
        a, tail = args[:-2], args[-2:]
        return all(not app(*a, card, code, *tail) or req(*a, card, code, *tail)
                   for _r, app, req in self._decl_rules)

    def _play_actions(self, s: State) -> tuple[Action, ...]:
        if not self._announce[Scope.PLAY]:
            return self.legal_plays(s)
        args = self._play_args(s)
        avail, required = self._announcements(s, Scope.PLAY, args)
        if required:
            return tuple(required)
        return (*self.legal_plays(s), *avail)

    def legal_actions(self, s: State) -> tuple[Action, ...]:
        """The actions the rules allow the seat to act; ``()`` once the deal is over.

        Raises:
            NoLegalActionError: the rules leave the seat none before the deal is over.
        """
        if s.phase is Phase.PLAY:
            acts = self._play_actions(s)
        elif s.phase is Phase.AUCTION:
            acts = self._auction_actions(s)
        elif s.phase is Phase.SET_ASIDE:
            acts = tuple(self._lays[i] for i in range(len(self.game.deck)) if s.hands[s.turn] >> i & 1)
        elif s.phase is Phase.DECIDE:
            acts = self._decide_options(s)
        else:
            return ()
        if not acts:
            raise self._stuck(s.turn, s.phase.value, s.trick_number)
        return acts

    def _stuck(self, seat: int, phase: str, trick: int) -> NoLegalActionError:
        where = f"trick {trick} of the play" if phase == Phase.PLAY.value else f"the {phase}"
        return NoLegalActionError(f"{self.game.name}: the rules leave "
                                  f"{self.game.table.name(seat)} no legal action in {where}")

    # -- transitions --------------------------------------------------------------
    def _refuse(self, rule: Rule | None, msg: str, action: object) -> IllegalActionError:
        if rule is None:
            return IllegalActionError(msg, value=action)
        err = IllegalActionError(
            f"{msg} ({rule.text[0].lower()}{rule.text[1:-1]})",
            rule_id=f"{self.game.key}/{rule.id} [{rule.source.ref}]", src_loc=rule.src_loc,
            value=action,
        )
        err.rule = rule.id
        return err

    def apply(self, s: State, action: Action) -> State:
        if s.phase is Phase.DECIDE:
            if not isinstance(action, Declare):
                names = ", ".join(d.name for d in self._decide_options(s))
                raise self._refuse(None, f"{self.table.name(s.turn)} must first choose: "
                                   f"{names}", action)
            return self._apply_decide(s, action)
        if isinstance(action, Declare):
            return self._apply_declare(s, action)
        if s.phase is Phase.PLAY:
            if not isinstance(action, Play):
                raise self._refuse(None, f"the auction is over: {self.table.name(s.turn)} must "
                                   f"play a card, not {action}", action)
            return self._apply_play(s, action)
        if s.phase is Phase.AUCTION:
            if not isinstance(action, Call):
                raise self._refuse(None, f"it is the auction: {self.table.name(s.turn)} must "
                                   f"call (a bid such as '{self.ladder[0]}' or 'pass'), "
                                   f"not play {action}", action)
            return self._apply_call(s, action)
        if s.phase is Phase.SET_ASIDE:
            if not isinstance(action, Lay):
                raise self._refuse(None, f"{self.table.name(s.turn)} must lay a card of his "
                                   f"hand aside face down ({s.hand(s.turn)}), not {action}",
                                   action)
            return self._apply_lay(s, action)
        raise self._refuse(None, "the deal is over: no more actions", action)

    # the auction
    def _first_caller(self, s: State, stage: int) -> int:
        args = self._call_args(s if s.stage == stage else _with(s, stage=stage))
        return self._auction_first[stage - 1](*args)  # type: ignore[no-any-return]

    def _apply_call(self, s: State, call: Call) -> State:
        known = self._call_numbers.get(id(call))
        if known is not None and known[0] is call:
            b = known[1]
            is_bid = b >= 0
        elif call.bid is None:
            is_bid, b = False, -1
        else:
            if call.bid not in self.ladder:
                raise self._refuse(None, f"{call.bid} is not a bid in {self.game.name}", call)
            is_bid, b = True, self.ladder.index(call.bid)
        args = self._call_args(s)
        a, tv = args[:-1], args[-1]
        if not self._call_ok(*a, is_bid, b, tv):
            for rule, app, req in self._call_rules:
                if app(*a, is_bid, b, tv) and not req(*a, is_bid, b, tv):
                    who = self.table.name(s.turn) + (
                        f" (for {self.table.name(s.proxy)})" if s.proxy >= 0 else "")
                    raise self._refuse(rule, f"{who} may not call {call}", call)
            raise self._refuse(None, f"{call} is not legal here", call)  # pragma: no cover
        # a call named by the partner in a seat's place is that seat's own call, for every
        # rule: it uses his turn, and a bid so made is his; only the log says who named it
        namer = s.turn
        seat = s.proxy if s.proxy >= 0 else s.turn
        calls = s.calls + ((seat, b),)
        seat_calls_l = list(s.seat_calls)
        seat_calls_l[seat] += 1
        if s.proxy >= 0 and self._proxy_counts:
            seat_calls_l[namer] += 1
        seat_calls = tuple(seat_calls_l)
        if is_bid:
            standing, high_bidder, passes, stage_bid = b, seat, 0, True
        else:
            standing, high_bidder, passes, stage_bid = (s.standing, s.high_bidder,
                                                        s.passes_in_row + 1, s.stage_bid)
        stage_calls = s.stage_calls + 1
        log = s.log + ((namer, call),)
        # the auction-over rule reads the state after the call, with the turn not yet passed on
        over = self._ends[s.stage - 1](seat, s.dealer, s.hands[seat], standing >= 0, standing,
                                       high_bidder, stage_calls, passes, s.stage,
                                       seat_calls[seat], stage_bid, s.proxy >= 0, s.tracked)
        after = _after_call(s, calls, standing, high_bidder, passes, (seat + 1) % self.n,
                            stage_calls, seat_calls, stage_bid, -1, log)
        if not over:
            return after
        return self._end_stage(after)

    def _end_stage(self, s: State) -> State:
        """The auction of ``s.stage`` is over: set cards aside, deal on, play, or redeal."""
        if s.standing < 0:
            # nobody bid: the cards are dealt again
            return self._redeal(s, self._redeal_steps or 0, "no bid")
        aside = self._set_aside.get(s.stage)
        if aside is not None and aside[1](*self._call_args(s)):
            # cards laid aside earlier go back to their owners first
            return _with(self._return_aside(s), phase=Phase.SET_ASIDE, turn=s.high_bidder)
        return self._next_stage(s)

    def _next_stage(self, s: State) -> State:
        if s.stage < self.stages:
            stage = s.stage + 1
            deal = self._deals[stage - 1]
            # the cards of this stage: the pending cards dealt in this stage's packets
            share = sum(deal.packets)  # type: ignore[union-attr]
            hands_l, pending_l = list(s.hands), list(s.pending)
            for seat in range(self.n):
                bits = [i for i in range(len(self.game.deck)) if pending_l[seat] >> i & 1]
                now = sum(1 << i for i in bits[:share]) if stage < self.stages else pending_l[seat]
                hands_l[seat] |= now
                pending_l[seat] &= ~now
            s = _with(s, phase=Phase.AUCTION, stage=stage, hands=tuple(hands_l),
                      pending=tuple(pending_l), stage_calls=0, passes_in_row=0,
                      seat_calls=(0,) * self.n, stage_bid=False)
            return _with(s, turn=self._first_caller(s, stage))
        contract, declarer = s.standing, s.high_bidder
        trump = s.trump if self.trump_from_aside else self._trump_of[contract]
        out = -1
        if self._sits_out is not None:
            st = (s.dealer, contract, declarer, trump, s.trick_number, s.tracked, s.dealt)
            if self._sits_out[0](*st):
                out = self._sits_out[1](*st)
                s = _fired(s, self._sits_rule)
        leader = self._first_lead(s.dealer, declarer, contract, trump, s.tracked)
        s = _to_play(s, Phase.PLAY, contract, declarer, trump, out, leader, leader)
        if self._decide is not None:
            return _with(s, phase=Phase.DECIDE, turn=self._decide[1](*self._status_args(s)))
        return s

    def _decide_options(self, s: State) -> tuple[Declare, ...]:
        assert self._decide is not None
        st = self._status_args(s)
        return tuple(d for d, when, _sets in self._decide[2] if when(*st))

    def _apply_decide(self, s: State, decl: Declare) -> State:
        assert self._decide is not None
        rule = self._decide[0]
        st = self._status_args(s)
        for d, when, sets in self._decide[2]:
            if d.name != decl.name:
                continue
            if not when(*st):
                raise self._refuse(rule, f"{self.table.name(s.turn)} may not choose {d.name} "
                                   "here", decl)
            tv = list(s.tracked)
            for index, value in sets:
                tv[index] = value(*st)
            s = _with(_fired(s, rule), phase=Phase.PLAY, tracked=tuple(tv), turn=s.leader,
                      log=s.log + ((s.turn, decl),))
            return self._after_status(s)
        names = ", ".join(d.name for d, _w, _s in self._decide[2])
        raise self._refuse(rule, f"{self.table.name(s.turn)} must choose one of: {names}", decl)

    def _redeal(self, s: State, steps: int, reason: str) -> State:
        dealer = (s.dealer + steps) % self.n
        redeals = s.redeals + 1
        order = self.deal_order(s.seed, redeals)
        hands = self.hands_from_order(order, dealer)
        return self.start(hands, dealer=dealer, seed=s.seed, redeals=redeals,
                          thrown_in=s.thrown_in + (ThrownIn(s.dealt, s.log, reason, s.dealer,
                                                            s.fired),))

    def _apply_lay(self, s: State, lay: Lay) -> State:
        deck = self.game.deck
        if lay.card not in deck:
            raise self._refuse(None, f"{lay.card} is not in the {deck.name} deck", lay)
        i = deck.index(lay.card)
        seat = s.turn
        if not s.hands[seat] >> i & 1:
            raise self._refuse(None, f"{lay.card} is not in {self.table.name(seat)}'s hand "
                               f"({s.hand(seat)})", lay)
        body = self._set_aside[s.stage][0]
        hands_l, aside_l = list(s.hands), list(s.aside)
        hands_l[seat] &= ~(1 << i)
        aside_l[seat] |= 1 << i
        s = _with(_fired(s, self._set_aside_rule[s.stage]), hands=tuple(hands_l),
                  aside=tuple(aside_l), log=s.log + ((seat, lay),))
        if body.names_trump:
            s = _with(s, trump=suit_code(lay.card.suit))
        if aside_l[seat].bit_count() < body.count:
            return s
        return self._next_stage(s)

    # announcements
    def _apply_declare(self, s: State, decl: Declare) -> State:
        name = self.table.name(s.turn)
        if s.phase is Phase.AUCTION:
            scope, args = Scope.CALL, self._call_args(s)
        elif s.phase is Phase.PLAY:
            scope, args = Scope.PLAY, self._play_args(s)
        else:
            raise self._refuse(None, f"no announcement can be made now ({s.phase.value})", decl)
        if scope is Scope.CALL and decl.name == "partner" and self._proxy_when is not None:
            if s.proxy >= 0 or not self._proxy_when(*args):
                raise self._refuse(self._proxy_rule, f"{name} may not ask his partner to call "
                                   "now", decl)
            partner = self.table.partner(s.turn)
            assert partner is not None
            return _with(_fired(s, self._proxy_rule), proxy=s.turn, turn=partner,
                         log=s.log + ((s.turn, decl),))
        for rule, body, _d, when, _must, sets in self._announce[scope]:
            if body.name != decl.name:
                continue
            if not when(*args):
                raise self._refuse(rule, f"{name} may not announce {decl.name} now", decl)
            log = s.log + ((s.turn, decl),)
            tv = list(s.tracked)
            for index, value in sets:
                tv[index] = value(*args)
            return self._after_status(_with(_fired(s, rule), tracked=tuple(tv), log=log))
        known = ", ".join(self.announcement_names) or "none in this game"
        raise self._refuse(None, f"{decl.name!r} is not an announcement here (announcements: "
                           f"{known})", decl)

    def face_down_seen_by(self, s: State) -> int:
        """The seat that may look at the cards played face down (-1: nobody)."""
        if self._seen_by is None:
            return -1
        return self._seen_by(*self._status_args(s))  # type: ignore[no-any-return]

    def _status_args(self, s: State) -> tuple[Any, ...]:
        return (s.dealer, s.contract, s.declarer, s.trump, s.trick_number, s.tracked, s.dealt)

    def _after_status(self, s: State) -> State:
        """A deal the rules now void is dealt again; cards set aside go back to their
        owners when the rule says so."""
        if self._voids:
            st = self._status_args(s)
            for when, steps, rule in self._voids:
                if when(*st):
                    return self._redeal(_fired(s, rule), steps, rule.id)
        if self._aside_returns is not None and any(s.aside) and self._aside_returns(*self._status_args(s)):
            return self._return_aside(s)
        return s

    def _return_aside(self, s: State) -> State:
        """Every card laid aside goes back to its owner's hand."""
        return _with(s, hands=tuple(h | a for h, a in zip(s.hands, s.aside)),
                     aside=(0,) * self.n)

    def tracked_values(self, values: dict[str, Any] | None) -> tuple[Any, ...]:
        """The tracked values of a new deal, with some set by name."""
        tv = list(self._tracked_initial)
        for name, value in (values or {}).items():
            tv[self.tracked_index[name]] = value
        return tuple(tv)

    # the play
    def _play_numbers(self, s: State, play: Play) -> tuple[int, int]:
        """The card number and named suit code of ``play``, refused unless legal in ``s``."""
        deck = self.game.deck
        known = self._play_codes.get(id(play))
        if known is not None and known[0] is play:
            i, code = known[1], known[2]
        else:
            if play.card not in deck:
                raise self._refuse(None, f"{play.card} is not in the {deck.name} deck", play)
            i, code = deck.index(play.card), None
        seat = s.turn
        held = s.hands[seat] | s.aside[seat]
        name = self.table.name(seat)
        if not held >> i & 1:
            raise self._refuse(None, f"{play.card} is not in {name}'s hand "
                               f"({CardSet(deck, s.hands[seat])})", play)
        args, mask = self._play_context(s)
        if self._announce[Scope.PLAY]:
            _avail, required = self._announcements(s, Scope.PLAY, args)
            if required:
                rule = next(r for r, b, d, *_ in self._announce[Scope.PLAY] if d == required[0])
                raise self._refuse(rule, f"{name} must announce {required[0].name} first", play)
        if not mask >> i & 1:
            for rule, app, permits in self._play_rules:
                if app(*args) and not permits(*args) >> i & 1:
                    raise self._refuse(rule, f"{name} may not play {play.card}: legal now are "
                                       f"{CardSet(deck, mask)}", play)
            why = (f"{play.card} lies face down aside and may not be played now"
                   if s.aside[seat] >> i & 1 else f"{play.card} is not legal here")
            rule = self._aside_rule if s.aside[seat] >> i & 1 else None
            raise self._refuse(rule, why, play)
        if code is None:
            code = NO_SUIT if play.names is None else suit_code(play.names)
        a, tail = args[:-2], args[-2:]
        if self._needs_decl(*a, i, NO_SUIT, *tail):
            if play.names is None:
                rule = self._name_rules[0]
                raise self._refuse(rule, f"{play.card} needs a named suit here, e.g. "
                                   f"'{play.card}:H'", play)
            if code not in self._decl_choices:
                raise self._refuse(self._name_rules[0], f"{play.names} cannot be named", play)
            for rule, app, req in self._decl_rules:
                if app(*a, i, code, *tail) and not req(*a, i, code, *tail):
                    raise self._refuse(rule, f"{name} may not name {play.names.symbol}", play)
        elif play.names is not None:
            raise self._refuse(None, f"{play.card} names no suit here (play it as "
                               f"'{play.card}')", play)
        return i, code

    def _apply_play(self, s: State, play: Play) -> State:
        known = self._play_codes.get(id(play))
        last = self._last_play
        if (known is not None and known[0] is play and last[0] is s and last[4] & known[3]
                and self._plain_play):
            i, code = known[1], known[2]  # one of the legal plays just listed for this state
        else:
            i, code = self._play_numbers(s, play)
        seat = s.turn
        bit = 1 << i
        hands, aside = s.hands, s.aside
        if hands[seat] & bit:
            hands_l = list(hands)
            hands_l[seat] &= ~bit
            hands = tuple(hands_l)
        else:
            aside_l = list(aside)
            aside_l[seat] &= ~bit
            aside = tuple(aside_l)
            s = _fired(s, self._aside_rule)
        faces = s.faces
        if self._face_down is not None:
            args = self._play_args(s)
            down = bool(self._face_down(*args[:-2], i, code, *args[-2:]))
            faces = faces + (down,)
            if down:
                s = _fired(s, self._face_down_rule)
        trick = s.trick + ((i, code),)
        trump, number, contract = s.trump, s.trick_number, s.contract
        if len(trick) == 1:
            led = self._entry_suit(i, code, True, 0, NO_SUIT, trump, number, contract)
        else:
            led = s.led_suit
        log = s.log + ((seat, play),)
        size = self.n if s.out < 0 else self.n - 1
        if len(trick) < size:
            nxt = (seat + 1) % self.n
            if nxt == s.out:
                nxt = (nxt + 1) % self.n
            return _after_card(s, hands, aside, trick, faces, led, nxt, log)
        # the trick is complete: the strongest card wins (the first of equals, which the
        # verifier proves never happens)
        strength = self._strength
        best, best_pos = None, 0
        for p, (c, named) in enumerate(trick):
            st = strength(c, named, p == 0, p, led, trump, number, contract)
            if best is None or st > best:
                best, best_pos = st, p
        seats = self.trick_seats(s.leader, s.out)
        winner = seats[best_pos]
        won_l = list(s.won)
        won_l[winner] |= 1 << number
        won = tuple(won_l)
        cards, names = zip(*trick)
        cards_mask = 0
        for c in cards:
            cards_mask |= 1 << c
        taken_l = list(s.taken)
        taken_l[winner] |= cards_mask
        taken = tuple(taken_l)
        tv = s.tracked
        revealed, seen_by = False, -1
        if not self._plain_play:
            targs = self._trick_args(s, number, s.leader, cards, names, faces, tv)
            if self._revealed is not None:
                revealed = bool(self._revealed(*targs))
                seen_by = self.face_down_seen_by(s)
            if self._updates:
                tv_l = list(tv)
                for rule, when, sets in self._updates:
                    if when(*targs):
                        before = list(tv_l)
                        for index, value in sets:
                            tv_l[index] = value(*targs)
                        if tv_l != before:
                            s = _fired(s, rule)
                tv = tuple(tv_l)
        tricks = s.tricks + (TrickRecord(number, s.leader, cards, names, winner, seats,
                                         faces, revealed, seen_by),)
        out = s.out
        if any(hands[x] | aside[x] for x in range(self.n) if x != out):
            nxt = _after_trick(s, hands, aside, (), (), NO_SUIT, won, taken, tricks, number + 1,
                               winner, winner, tv, log)
            return nxt if self._plain_play else self._after_status(nxt)
        scores, lines = self._final_scores(s.declarer, contract, s.dealer, trump, tv, s.dealt,
                                           won, taken)
        return _over(s, hands, aside, (), (), NO_SUIT, won, taken, tricks, number + 1, winner,
                     winner, tv, log, Phase.OVER, scores, lines)

    def _trick_args(self, s: State, number: int, leader: int, cards: tuple[int, ...],
                    names: tuple[int, ...], faces: tuple[bool, ...], tv: tuple[Any, ...]
                    ) -> tuple[Any, ...]:
        """The arguments of a TRICK-scope function for a complete trick of ``s``'s deal.
        The positions of a seat that sat out hold no card (number ``len(deck)``), as in Z3."""
        short = self.n - len(cards)
        if short:
            cards = tuple(cards) + (len(self.game.deck),) * short
            names = tuple(names) + (NO_SUIT,) * short
        return (s.dealer, s.contract, s.declarer, s.trump, number, leader, self.n - short, cards,
                names, tuple(faces) + (False,) * (self.n - len(faces)), tv)

    @staticmethod
    def _outcome_args(s: State) -> tuple[Any, ...]:
        """The arguments of an OUTCOME-scope function, after the seat, for ``s``'s deal."""
        return (s.declarer, s.contract, s.dealer, s.trump, s.tracked, s.dealt, s.won, s.taken)

    def _final_scores(self, *args: Any) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Each seat's score, and its score on each line of the sheet (when there are
        several), from (declarer, contract, dealer, trump, tracked, dealt, won, taken)."""
        if not self._line_scores:
            return tuple(self._score(seat, *args) for seat in range(self.n)), ()
        lines = tuple(tuple(fn(seat, *args) for seat in range(self.n)) for fn in self._line_scores)
        return tuple(sum(col) for col in zip(*lines)), lines

    def random_playout(self, s: State, rng: random.Random) -> State:
        """The deal played to its end from ``s`` with a uniformly random legal card each turn.

        The same draws from ``rng`` as :func:`random_bot` choosing from
        :meth:`legal_plays` state by state, so the same deal; but the play is kept in local
        variables and only the final state is built, which makes random play several
        times faster.  Only for games whose play has no announcements, cards aside, tracked
        updates, face-down cards or seats sitting out (``_plain_play``).
        """
        if not self._plain_play or s.phase is not Phase.PLAY:
            raise ValueError(f"random_playout needs the play of a game without announcements, "
                             f"cards aside or face-down cards; got {s!r}")
        n = self.n
        hands, won, taken = list(s.hands), list(s.won), list(s.taken)
        tricks, log, trick = list(s.tricks), list(s.log), list(s.trick)
        led, leader, turn, number = s.led_suit, s.leader, s.turn, s.trick_number
        trump, contract, declarer, dealer = s.trump, s.contract, s.declarer, s.dealer
        tv, dealt, aside = s.tracked, s.dealt, s.aside
        legal, plays_key, cache, codes = self._legal, self._plays_key, self._plays_cache, self._play_codes
        strength, entry_suit = self._strength, self._entry_suit
        draw = rng.random  # as pick(rng, n) draws
        # without named suits each legal card is one play
        plain_cards = (None if self._decl_choices
                       else tuple(self._plays[(i, NO_SUIT)] for i in range(len(self.game.deck))))
        while True:
            pos = len(trick)
            args = (turn, dealer, hands[turn], pos == 0, led if pos else NO_SUIT, trump, number,
                    pos, contract, declarer, aside[turn], leader, tv, dealt)
            mask = legal(*args)
            if not mask:
                raise self._stuck(turn, Phase.PLAY.value, number)
            if plain_cards is not None:
                # the legal plays are the legal cards in card order: take the r-th one
                r = int(draw() * mask.bit_count())
                for _ in range(r):
                    mask &= mask - 1
                i = (mask & -mask).bit_length() - 1
                code = NO_SUIT
                play = plain_cards[i]
            else:
                decl_args = plays_key(args)
                found = cache.get((mask, decl_args))
                if found is None:
                    found = self._list_plays(args, mask, decl_args)
                    if len(cache) >= _CACHE_SIZE:
                        cache.clear()
                    cache[(mask, decl_args)] = found
                plays = found[0]
                play = plays[int(draw() * len(plays))]
                i, code = codes[id(play)][1:3]
            hands[turn] &= ~(1 << i)
            log.append((turn, play))
            trick.append((i, code))
            if pos == 0:
                led = entry_suit(i, code, True, 0, NO_SUIT, trump, number, contract)
            if pos + 1 < n:
                turn = (turn + 1) % n
                continue
            best, best_pos = -2, 0
            for p, (c, named) in enumerate(trick):
                st = strength(c, named, p == 0, p, led, trump, number, contract)
                if st > best:
                    best, best_pos = st, p
            winner = (leader + best_pos) % n
            won[winner] |= 1 << number
            cards, names = tuple(c for c, _d in trick), tuple(d for _c, d in trick)
            for c in cards:
                taken[winner] |= 1 << c
            tricks.append(TrickRecord(number, leader, cards, names, winner,
                                      self.trick_seats(leader, -1), (), False, -1))
            trick, led, number, leader, turn = [], NO_SUIT, number + 1, winner, winner
            if not any(hands):
                break
        won_t, taken_t = tuple(won), tuple(taken)
        scores, lines = self._final_scores(declarer, contract, dealer, trump, tv, dealt,
                                           won_t, taken_t)
        return _over(s, tuple(hands), aside, (), (), NO_SUIT, won_t, taken_t, tuple(tricks),
                     number, winner, winner, tv, tuple(log), Phase.OVER, scores, lines)

    # -- scoring helpers ----------------------------------------------------------
    def score_items(self, s: State) -> tuple[tuple[Rule, int, int], ...]:
        """What each scoring rule gave each seat in a finished deal: (rule, seat, amount),
        in rulebook order, amounts of 0 left out."""
        return self._rule_amounts(self._outcome_args(s))

    def _rule_amounts(self, args: tuple[Any, ...]) -> tuple[tuple[Rule, int, int], ...]:
        if self._items is None:
            outcome = _OUTCOME_PARAMS
            self._items = tuple(
                (rule, self._fn(D.awarded(self.game, rule.id), outcome, "awarded", tv=True,
                                dealt=True, won=True, taken=True))
                for rule, _b in self.game.rules_with(K.ScoreRule, K.TrickScores))
        out = []
        for rule, fn in self._items:
            for seat in range(self.n):
                amount = fn(seat, *args)
                if amount:
                    out.append((rule, seat, amount))
        return tuple(out)

    def outcome_items(self, *, contract: int, declarer: int, winners: Sequence[int],
                      dealt: Sequence[int], dealer: int | None = None,
                      taken: Sequence[int] | None = None) -> dict[tuple[str, int], int]:
        """What each scoring rule gives each seat for a contract, the hands as dealt, the
        winner of each trick in order and (in games that count card points) the cards each
        seat took: {(rule id, seat): amount}, amounts of 0 left out."""
        won = [0] * self.n
        for k, w in enumerate(winners, start=1):
            won[w] |= 1 << k
        dealer = self.n - 1 if dealer is None else dealer
        args = (declarer, contract, dealer, self._trump_of[contract], self._tracked_initial,
                tuple(dealt), tuple(won), tuple(taken or (0,) * self.n))
        return {(rule.id, seat): amount for rule, seat, amount in self._rule_amounts(args)}

    def match_over(self, deals: int, lead: int, trail: int, games: int = 0) -> bool:
        """The match (or the rubber) is over after ``deals`` deals, the sides' totals
        ranging from ``trail`` to ``lead``, and the side that has just won a game (if any)
        having won ``games``: the game's ``MatchTarget``, ``MatchLength`` or ``Rubber``."""
        return bool(self._match_fn(Ctx.MATCH_OVER)(deals, lead, trail, games))

    def game_bonus(self, games: int) -> int:
        """What a side writes for the game it has just won, its ``games``-th."""
        return int(self._match_fn(Ctx.GAME_BONUS)(0, 0, 0, games))

    def carries_over(self) -> bool:
        """A deal's score after the trick that won a game counts towards the next game."""
        return bool(self._match_fn(Ctx.CARRIES_OVER)(0, 0, 0, 0))

    def _match_fn(self, ctx: Ctx) -> Callable[..., Any]:
        fn = self._match_fns.get(ctx)
        if fn is None:
            fn = self._match_fns[ctx] = self._fn(Ref(ctx), _MATCH_PARAMS, ctx.name.lower())
        return fn

    def judge(self, scope: Scope, expr: Any) -> Callable[..., bool]:
        """``expr`` as a test of the engine's own states, compiled as the rules are: PLAY
        ``test(state, play)`` for a card about to be played in ``state``; TRICK
        ``test(state, record)`` for a complete trick of ``state``'s deal, with ``state``'s
        tracked values (those of the moment the trick was complete); OUTCOME
        ``test(state)`` for a finished deal, with ``expr`` free of the seat; CALL
        ``test(state, call)`` for a call about to be made in ``state``'s auction; DEAL
        ``test(dealer)`` for the pack dealt by ``dealer``."""
        if scope is Scope.DEAL:
            deal_fn = compile_function(
                self.game, self.tables, expr,
                {Ctx.DEALER: "dealer", ("param", "receives"): "receives", ("param", "tv"): "tv"},
                name="judge", extra_env={
                    Receives: "(receives[{card}] if 0 < {card} < len(receives) else -1)",
                    **self._tracked_env})

            def on_deal(dealer: int) -> bool:
                schedule = [-1]
                for stage in range(1, self.stages + 1):
                    schedule += self.stage_seats(dealer, stage)
                return bool(deal_fn(dealer, schedule, self._tracked_initial))

            return on_deal
        if scope is Scope.MATCH:
            match_fn = self._fn(expr, _MATCH_PARAMS, "judge")
            return lambda deals, lead, trail, games: bool(match_fn(deals, lead, trail, games))
        if scope is Scope.CALL:
            call_fn = self._fn(expr, {**_params(_CALL_CTX), Ctx.CALL_IS_BID: "call_is_bid",
                                      Ctx.CALL_BID: "call_bid"}, "judge", tv=True)

            def on_call(state: State, call: Call) -> bool:
                args = self._call_args(state)
                b = -1 if call.bid is None else self.ladder.index(call.bid)
                return bool(call_fn(*args[:-1], b >= 0, b, args[-1]))

            return on_call
        if scope is Scope.PLAY:
            play_fn = self._fn(expr, {**_params(_PLAY_CTX), Ctx.CARD: "card",
                                      Ctx.DECLARED: "declared"}, "judge", tv=True, dealt=True)

            def on_play(state: State, play: Play) -> bool:
                args = self._play_args(state)
                code = NO_SUIT if play.names is None else suit_code(play.names)
                return bool(play_fn(*args[:-2], self.game.deck.index(play.card), code, *args[-2:]))

            return on_play
        if scope is Scope.TRICK:
            trick_fn = self._fn(expr, _trick_params(self.n), "judge", tv=True)

            def on_trick(state: State, r: TrickRecord) -> bool:
                return bool(trick_fn(*self._trick_args(state, r.number, r.leader, r.cards,
                                                       r.named, r.face_down, state.tracked)))

            return on_trick
        if scope is Scope.OUTCOME:
            outcome_fn = self._fn(expr, _OUTCOME_PARAMS, "judge", tv=True, dealt=True, won=True,
                                  taken=True)
            return lambda state: bool(outcome_fn(0, *self._outcome_args(state)))
        raise NotationError(f"the engine judges calls, plays, tricks and outcomes, not "
                            f"{scope.value}")

    def trick_points(self, contract: int, rec: TrickRecord) -> int:
        """What one finished trick is worth to its winner, by the game's points rules (its
        trick value, or its cards' points)."""
        won = [0] * self.n
        taken = [0] * self.n
        won[rec.winner] = 1 << rec.number
        for c in rec.cards:
            taken[rec.winner] |= 1 << c
        return self._points(rec.winner, contract, tuple(won), tuple(taken))  # type: ignore[no-any-return]

    def points(self, s: State, seat: int) -> int:
        """The points a seat took in tricks so far."""
        return self._points(seat, s.contract, s.won, s.taken)  # type: ignore[no-any-return]

    def score_outcome(self, *, contract: int, declarer: int, winners: Sequence[int],
                      dealer: int | None = None, taken: Sequence[int] | None = None,
                      tracked: dict[str, Any] | None = None, trump: int | None = None,
                      dealt: Sequence[int] | None = None, line: str | None = None,
                      ) -> tuple[int, ...]:
        """The scores for a contract and the winner of each trick, in order: in all, or on
        one ``line`` of the score sheet."""
        won = [0] * self.n
        for k, w in enumerate(winners, start=1):
            won[w] |= 1 << k
        dealer = self.n - 1 if dealer is None else dealer
        tv = self.tracked_values(tracked)
        trump = self._trump_of[contract] if trump is None else trump
        args = (declarer, contract, dealer, trump, tv, tuple(dealt or (0,) * self.n),
                tuple(won), tuple(taken or (0,) * self.n))
        scores, lines = self._final_scores(*args)
        if line is None:
            return scores
        if line not in self.lines:
            raise NotationError(f"{self.game.name} writes no line {line!r} (lines: "
                                f"{', '.join(self.lines)})", value=line)
        return lines[self.lines.index(line)] if lines else scores

    def points_outcome(self, winners: Sequence[int], taken: Sequence[int] | None = None,
                       contract: int = 0) -> tuple[int, ...]:
        won = [0] * self.n
        for k, w in enumerate(winners, start=1):
            won[w] |= 1 << k
        return tuple(self._points(seat, contract, tuple(won), tuple(taken or (0,) * self.n))
                     for seat in range(self.n))

    def trick_winner(self, *, contract: int, cards: Sequence[int], named: Sequence[int],
                     trick_number: int = 1, trump: int | None = None) -> int:
        """The winning position of a complete trick, by the game's strength rules."""
        trump = self._trump_of[contract] if trump is None else trump
        led = self._entry_suit(cards[0], named[0], True, 0, NO_SUIT, trump, trick_number, contract)
        strengths = [self._strength(c, d, p == 0, p, led, trump, trick_number, contract)
                     for p, (c, d) in enumerate(zip(cards, named))]
        return strengths.index(max(strengths))

    def bid_key(self, bid: Bid) -> int:
        return self.game.bid_keys[self.ladder.index(bid)]


# entries kept in each of the engine's caches of legal actions before it starts afresh
_CACHE_SIZE = 4096


def _reads(fn: Callable[..., Any]) -> frozenset[str]:
    """The names of the parameters a function from ``compile_function`` reads."""
    return fn.reads  # type: ignore[attr-defined, no-any-return]  # set by compile_function


def _picker(indices: Sequence[int]) -> Callable[[tuple[Any, ...]], Any]:
    """A function picking the items at ``indices`` out of an argument tuple (a cache key)."""
    if not indices:
        return lambda _args: ()
    return operator.itemgetter(*indices)


_ENGINES: dict[int, Engine] = {}


def engine_for(game: Game) -> Engine:
    """The engine of a game, compiled once per game object."""
    eng = _ENGINES.get(id(game))
    if eng is None or eng.game is not game:
        eng = Engine(game)
        _ENGINES[id(game)] = eng
    return eng


def new_deal(game: Game, *, seed: int = 0, dealer: int | None = None,
             hands: Sequence[CardSet | int] | None = None) -> State:
    """A fresh deal: shuffled from ``seed``, or from the given hands."""
    eng = engine_for(game)
    dealer = game.players - 1 if dealer is None else dealer
    if hands is None:
        masks = eng.hands_from_order(eng.deal_order(seed), dealer)
    else:
        masks = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in hands)
    return eng.start(masks, dealer=dealer, seed=seed)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the rules allow the seat to act (``state.turn``)."""
    return state.engine.legal_actions(state)


def apply(state: State, action: Action) -> State:
    """The state after ``action``.

    Raises:
        IllegalActionError: the rules forbid the action here; ``state`` is unchanged.
    """
    return state.engine.apply(state, action)


def parse_action(state: State, text: str) -> Action:
    """Read an action in the notation of records: ``pass``, ``19S``, ``AS``, ``JK:H``, or an
    announcement's name (``open``, ``caps``).

    Raises:
        NotationError: the text is no call or card of this game.
    """
    game = state.game
    t = text.strip()
    if t.lower() in state.engine.announcement_names:
        return Declare(t.lower())
    if state.phase is Phase.SET_ASIDE:
        return Lay(game.deck.parse_card(t))
    if state.phase is Phase.AUCTION:
        if t.lower() in ("pass", "p", "-"):
            return PASS
        return Call(game.parse_bid(t))
    named = None
    if ":" in t:
        t, suit_text = t.split(":", 1)
        named = Suit.parse(suit_text)
    return Play(game.deck.parse_card(t), named)


Bot = Callable[[View, random.Random], Action]


def pick(rng: random.Random, n: int) -> int:
    """A uniformly random index below ``n``: ``int(rng.random() * n)``, the one draw every
    random choice of the bots makes (several times cheaper than ``randrange``; its bias,
    under n / 2**53, is far below anything a deal can show)."""
    return int(rng.random() * n)


def random_bot(view: View, rng: random.Random) -> Action:
    """Choose uniformly among the legal actions."""
    actions = view.legal_actions()
    return actions[pick(rng, len(actions))]


def modest_bot(view: View, rng: random.Random) -> Action:
    """Pass one time in two when passing is legal, so that contracts stay low; otherwise
    choose uniformly among the legal calls, cards and cards laid aside, and announce only
    when nothing else is legal (a decision the rules demand, say)."""
    actions = view.legal_actions()
    if PASS in actions and rng.random() < 0.5:
        return PASS
    plain = [a for a in actions if not isinstance(a, Declare)] or actions
    return plain[pick(rng, len(plain))]


def play_deal(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
              dealer: int | None = None, hands: Sequence[CardSet | int] | None = None) -> State:
    """Play a whole deal with bots (random ones by default), reproducibly from ``seed``;
    the hands are dealt from the seed unless given."""
    state = new_deal(game, seed=seed, dealer=dealer, hands=hands)
    rng = random.Random(seed)
    bots = bots or [random_bot] * game.players
    eng = state.engine
    if all(bot is random_bot for bot in bots):
        return play_on(state, rng)
    while state.phase is not Phase.OVER:
        action = bots[state.turn](View(state, state.turn), rng)
        state = eng.apply(state, action)
    return state


def play_on(state: State, rng: random.Random) -> State:
    """The deal played to its end from ``state`` by random bots drawing from ``rng``.

    What :func:`random_bot` does, without a View or the phase dispatch per action, and the
    play of the cards by :meth:`Engine.random_playout` where the game allows: the same
    draws, the same deal.
    """
    eng = state.engine
    while state.phase is not Phase.OVER:
        if state.phase is Phase.PLAY and eng._plain_play:
            return eng.random_playout(state, rng)
        actions = eng.legal_actions(state)
        state = eng.apply(state, actions[pick(rng, len(actions))])
    return state


@dataclass(frozen=True, slots=True)
class Match:
    """A series of deals played to the game's end: each deal, and each side's running total.

    A side is a partnership (or a seat, in a game without partnerships); every member of a
    side records the side's points, so a side's total is what each member scored.
    """

    deals: tuple[State, ...]
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[tuple[int, ...], ...]  # after each deal, one total per side
    winners: tuple[int, ...]  # the sides with the best total at the end

    @property
    def final(self) -> tuple[int, ...]:
        return self.totals[-1] if self.totals else (0,) * len(self.sides)


def play_match(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
               dealer: int | None = None, max_deals: int = 1000) -> Match:
    """Play deals, the deal passing round by the game's rotation, until the game ends.

    The game ends by its ``MatchTarget`` rule (a side reaches the target, or leads by it)
    or after ``MatchLength`` deals; deal *k* uses seed ``seed + k``.

    Raises:
        NotationError: the game states no way for a match to end.
    """
    target = game.constructs(K.MatchTarget)
    length = game.constructs(K.MatchLength)
    if not target and not length:
        raise NotationError(f"{game.name} states no end of the game (MatchTarget or MatchLength)")
    eng = engine_for(game)
    table = game.table
    sides = table.sides
    rotation = game.constructs(K.DealerRotation)
    steps = rotation[0][1].steps if rotation else 1  # type: ignore[attr-defined]
    dealer = game.players - 1 if dealer is None else dealer
    totals = [0] * len(sides)
    deals: list[State] = []
    history: list[tuple[int, ...]] = []
    for k in range(max_deals):
        state = play_deal(game, seed=seed + k, bots=bots, dealer=dealer)
        deals.append(state)
        for i, side in enumerate(sides):
            totals[i] += sum(state.scores[s] for s in side) // len(side)  # type: ignore[index]
        history.append(tuple(totals))
        dealer = (state.dealer + steps) % game.players
        if eng.match_over(len(deals), max(totals), min(totals)):
            break
    best = max(totals)
    return Match(tuple(deals), tuple(sides), tuple(history),
                 tuple(i for i, x in enumerate(totals) if x == best))
