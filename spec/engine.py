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
from spec.dsl._nodes import NO_SUIT, Ctx, Ref, WonTrick
from spec.dsl._pycompile import GameTables, compile_function
from spec.errors import IllegalActionError, NotationError
from spec.seats import Table

__all__ = [
    "Phase", "Call", "Play", "Action", "TrickRecord", "State", "Engine", "engine_for",
    "new_deal", "legal_actions", "apply", "parse_action", "random_bot", "play_deal",
    "View",
]


class Phase(enum.Enum):
    AUCTION = "auction"
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


Action = Call | Play


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished trick: who led, the cards in order of play, named suits, the winner."""

    number: int
    leader: int
    cards: tuple[int, ...]
    named: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True, eq=False)
class State:
    """One moment of a deal.  Immutable: every action makes a new state."""

    engine: Engine = field(repr=False)
    phase: Phase
    dealer: int
    seed: int
    redeals: int
    dealt: tuple[int, ...]  # hands as dealt (bitmasks), for records and honours
    hands: tuple[int, ...]
    turn: int
    calls: tuple[tuple[int, int], ...] = ()  # (seat, bid number or -1 for pass)
    standing: int = -1
    high_bidder: int = -1
    passes_in_row: int = 0
    thrown_in: tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...] = ()
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

    @property
    def game(self) -> Game:
        return self.engine.game

    def hand(self, seat: int) -> CardSet:
        return CardSet(self.engine.game.deck, self.hands[seat])

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

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
_dealt = _state_maker("dealer", "seed", "redeals", "dealt", "hands", "turn", "thrown_in")
_after_call = _state_maker("calls", "standing", "high_bidder", "passes_in_row", "turn")
_after_auction = _state_maker("calls", "standing", "high_bidder", "passes_in_row", "phase",
                              "contract", "declarer", "trump", "leader", "turn")
_after_card = _state_maker("hands", "trick", "led_suit", "turn")
_after_trick = _state_maker("hands", "trick", "led_suit", "won", "tricks", "trick_number",
                            "leader", "turn")
_after_last_trick = _state_maker("hands", "trick", "led_suit", "won", "tricks", "trick_number",
                                 "leader", "turn", "phase", "scores")


class View:
    """The state as one seat sees it; bots act on views only."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def hand(self) -> CardSet:
        return self._state.hand(self.seat)

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        return self._state.calls

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return self._state.trick

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        return self._state.tricks

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self._state.hands)

    def legal_actions(self) -> tuple[Action, ...]:
        if self._state.turn != self.seat:
            return ()
        return legal_actions(self._state)


_CALL_CTX = (Ctx.SEAT, Ctx.DEALER, Ctx.HAND, Ctx.HAS_STANDING, Ctx.STANDING, Ctx.HIGH_BIDDER,
             Ctx.CALLS_MADE, Ctx.PASSES_IN_ROW)
_PLAY_CTX = (Ctx.SEAT, Ctx.DEALER, Ctx.HAND, Ctx.IS_LEADING, Ctx.LED_SUIT, Ctx.TRUMP,
             Ctx.TRICK_NUMBER, Ctx.POSITION, Ctx.CONTRACT, Ctx.DECLARER)
_ENTRY_CTX = (Ctx.CARD, Ctx.DECLARED, Ctx.IS_LEADING, Ctx.POSITION, Ctx.LED_SUIT, Ctx.TRUMP,
              Ctx.TRICK_NUMBER, Ctx.CONTRACT)


def _params(ctxs: Iterable[Ctx]) -> dict[Any, str]:
    return {c: c.name.lower() for c in ctxs}


class Engine:
    """The compiled form of one game (with its variants): build once, use for every deal."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.table: Table = game.table
        self.n = game.players
        self.tables = GameTables(game)
        g = game
        deal = g.one(K.DealPackets)
        turns = g.one(K.AuctionTurns)
        play = g.one(K.TrickPlay)
        assert isinstance(deal, K.DealPackets) and isinstance(turns, K.AuctionTurns)
        assert isinstance(play, K.TrickPlay)
        self.packets = deal.packets
        call_p = _params(_CALL_CTX)
        seat_only = {Ctx.DEALER: "dealer"}
        self._deal_first = compile_function(g, self.tables, deal.first, seat_only, name="deal_first")
        self._auction_first = compile_function(g, self.tables, turns.first, seat_only,
                                               name="auction_first")
        self._first_lead = compile_function(
            g, self.tables, play.first_lead,
            {Ctx.DEALER: "dealer", Ctx.DECLARER: "declarer", Ctx.CONTRACT: "contract"},
            name="first_lead",
        )
        self._ends = compile_function(g, self.tables, turns.ends_when, call_p, name="auction_over")
        # call rules: one function for legality and one per rule for the refusal message
        call_full = {**call_p, Ctx.CALL_IS_BID: "call_is_bid", Ctx.CALL_BID: "call_bid"}
        self._call_rules: list[tuple[Rule, Callable[..., bool], Callable[..., bool]]] = []
        for rule, body in g.constructs(K.CallRule):
            assert isinstance(body, K.CallRule)
            self._call_rules.append((
                rule,
                compile_function(g, self.tables, body.applies, call_full, name="applies"),
                compile_function(g, self.tables, body.requires, call_full, name="requires"),
            ))
        self._call_ok = compile_function(g, self.tables, D.call_legal(g), call_full, name="call_ok")
        # the legal calls follow from the arguments the legality function reads
        self._calls_key = _picker([k for k, name in enumerate(call_p.values())
                                   if name in _reads(self._call_ok)])
        self._legal_calls_cache: dict[Any, tuple[Call, ...]] = {}
        self.ladder = g.ladder
        self._calls = tuple(Call(b) for b in g.ladder)
        self._trump_of = tuple(suit_code(b.strain) for b in g.ladder)
        # play rules
        play_p = _params(_PLAY_CTX)
        self._legal = compile_function(g, self.tables, D.legal_cards(g), play_p, name="legal_cards")
        self._play_rules: list[tuple[Rule, Callable[..., bool], Callable[..., int]]] = []
        for rule, body in g.constructs(K.PlayRule):
            assert isinstance(body, K.PlayRule)
            self._play_rules.append((
                rule,
                compile_function(g, self.tables, body.applies, play_p, name="applies"),
                compile_function(g, self.tables, body.permits, play_p, name="permits"),
            ))
        play_card_p = {**play_p, Ctx.CARD: "card", Ctx.DECLARED: "declared"}
        self._needs_decl = compile_function(g, self.tables, D.needs_declaration(g), play_card_p,
                                            name="needs_declaration")
        self._decl_choices = D.declaration_choices(g)
        self._name_rules = tuple(r for r, _b in g.constructs(K.NameSuit))
        self._decl_rules: list[tuple[Rule, Callable[..., bool], Callable[..., bool]]] = []
        for rule, body in g.constructs(K.DeclarationRule):
            assert isinstance(body, K.DeclarationRule)
            self._decl_rules.append((
                rule,
                compile_function(g, self.tables, body.applies, play_card_p, name="applies"),
                compile_function(g, self.tables, body.requires, play_card_p, name="requires"),
            ))
        entry_p = _params(_ENTRY_CTX)
        self._entry_suit = compile_function(g, self.tables, D.entry_suit(g), entry_p, name="entry_suit")
        self._strength = compile_function(g, self.tables, D.strength(g), entry_p, name="strength")
        # scoring
        self._score = compile_function(
            g, self.tables, D.score(g, Ref(Ctx.SEAT)),
            {Ctx.SEAT: "seat", Ctx.DECLARER: "declarer", Ctx.CONTRACT: "contract",
             Ctx.DEALER: "dealer"},
            extra_env={WonTrick: "((won[{seat}] >> ({number})) & 1 == 1)"},
            name="score",
        )
        self._score = _with_won(self._score)
        self._points = _with_won(compile_function(
            g, self.tables, D.points_won(g, Ref(Ctx.SEAT)), {Ctx.SEAT: "seat"},
            extra_env={WonTrick: "((won[{seat}] >> ({number})) & 1 == 1)"}, name="points",
        ))
        redeal = g.constructs(K.RedealIfNoBid)
        self._redeal_steps = redeal[0][1].steps if redeal else None  # type: ignore[attr-defined]
        self._plays = {
            (i, NO_SUIT): Play(c) for i, c in enumerate(g.deck)
        }
        for i, c in enumerate(g.deck):
            for code in self._decl_choices:
                self._plays[(i, code)] = Play(c, suit_from_code(code))
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
        self._plays_key = _picker([k for k, name in enumerate(play_p.values())
                                   if name in decl_reads])
        self._plays_cache: dict[tuple[int, Any], tuple[tuple[Play, ...], int]] = {}
        self._card_plays: dict[Any, list[tuple[tuple[Play, ...], int] | None]] = {}
        # (state, play arguments, legal mask, legal plays or None, their bits) of the state
        # asked about last: a bot lists the legal plays, then applies one to the same state.
        self._last_play: tuple[State | None, tuple[Any, ...], int, tuple[Play, ...] | None,
                               int] = (None, (), 0, None, 0)
        self._deal_seats: dict[int, tuple[int, ...]] = {}
        # every field of a new deal but the deal itself, for start() to fill in
        self._before_deal = State(engine=self, phase=Phase.AUCTION, dealer=0, seed=0, redeals=0,
                                  dealt=(), hands=(), turn=0, won=(0,) * self.n)

    # -- dealing ------------------------------------------------------------------------
    def deal_order(self, seed: int, redeals: int = 0) -> list[int]:
        """The shuffled pack (card numbers, top first) for a seed and a redeal count."""
        order = list(range(len(self.game.deck)))
        random.Random(f"{self.game.key}:{seed}:{redeals}").shuffle(order)
        return order

    def hands_from_order(self, order: Sequence[int], dealer: int) -> tuple[int, ...]:
        """Deal a pack in the game's packets, starting with the seat the deal rule names."""
        if sorted(order) != list(range(len(self.game.deck))):
            raise NotationError(
                f"a pack order must list every card number 0..{len(self.game.deck) - 1} once",
                value=order,
            )
        hands = [0] * self.n
        first = self._deal_first(dealer)
        seats = self._deal_seats.get(first)
        if seats is None:  # the seat each card goes to, top of the pack first
            seats = tuple((first + k) % self.n
                          for packet in self.packets for k in range(self.n) for _ in range(packet))
            self._deal_seats[first] = seats
        for pos, seat in enumerate(seats):
            hands[seat] |= 1 << order[pos]
        return tuple(hands)

    def start(self, hands: Sequence[int], *, dealer: int, seed: int = 0, redeals: int = 0,
              thrown_in: tuple[Any, ...] = ()) -> State:
        """The state at the start of the auction, from hands as dealt."""
        hands = tuple(hands)
        self.check_hands(hands)
        return _dealt(self._before_deal, dealer, seed, redeals, hands, hands,
                      self._auction_first(dealer), thrown_in)

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

    def play_position(self, *, hands: Sequence[int], contract: int, declarer: int, leader: int,
                      trick_number: int, dealer: int | None = None, won: Sequence[int] | None = None,
                      trick: Sequence[tuple[int, int]] = ()) -> State:
        """A state in the middle of the play, for replaying positions found by the verifier.

        ``hands`` are the cards still held (the cards of ``trick`` excluded).
        """
        dealer = self.n - 1 if dealer is None else dealer
        state = State(
            engine=self, phase=Phase.PLAY, dealer=dealer, seed=0, redeals=0,
            dealt=tuple(hands), hands=tuple(hands), turn=leader, contract=contract,
            declarer=declarer, trump=self._trump_of[contract], trick_number=trick_number,
            leader=leader, won=tuple(won) if won is not None else (0,) * self.n,
        )
        for card_no, named in trick:
            seat = state.turn
            hands_l = list(state.hands)
            hands_l[seat] |= 1 << card_no  # the card was in the hand before it was played
            state = replace(state, hands=tuple(hands_l))
            state = self.apply(state, self._plays[(card_no, named)])
        return state

    # -- legality -------------------------------------------------------------------
    def _call_args(self, s: State) -> tuple[Any, ...]:
        return (s.turn, s.dealer, s.hands[s.turn], s.standing >= 0, s.standing, s.high_bidder,
                len(s.calls), s.passes_in_row)

    def legal_calls(self, s: State) -> tuple[Call, ...]:
        args = self._call_args(s)
        key = self._calls_key(args)
        cached = self._legal_calls_cache.get(key)
        if cached is None:
            ok = self._call_ok
            out = [PASS] if ok(*args, False, -1) else []
            out.extend(c for i, c in enumerate(self._calls) if ok(*args, True, i))
            cached = tuple(out)
            if len(self._legal_calls_cache) > _CACHE_SIZE:
                self._legal_calls_cache.clear()
            self._legal_calls_cache[key] = cached
        return cached

    def _play_args(self, s: State) -> tuple[Any, ...]:
        pos = len(s.trick)
        return (s.turn, s.dealer, s.hands[s.turn], pos == 0, s.led_suit if pos else NO_SUIT,
                s.trump, s.trick_number, pos, s.contract, s.declarer)

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
        if self._needs_decl(*args, i, NO_SUIT):
            plays = tuple(self._plays[(i, code)] for code in self._decl_choices
                          if self._decl_ok(args, i, code))
        else:
            plays = (self._plays[(i, NO_SUIT)],)
        return plays, sum(self._play_codes[id(p)][3] for p in plays)

    def _decl_ok(self, args: tuple[Any, ...], card: int, code: int) -> bool:
        return all(not app(*args, card, code) or req(*args, card, code)
                   for _r, app, req in self._decl_rules)

    def legal_actions(self, s: State) -> tuple[Action, ...]:
        if s.phase is Phase.PLAY:
            return self.legal_plays(s)
        if s.phase is Phase.AUCTION:
            return self.legal_calls(s)
        return ()

    # -- transitions --------------------------------------------------------------
    def _refuse(self, rule: Rule | None, msg: str, action: object) -> IllegalActionError:
        if rule is None:
            return IllegalActionError(msg, value=action)
        return IllegalActionError(
            f"{msg} ({rule.text[0].lower()}{rule.text[1:-1]})",
            rule_id=f"{self.game.key}/{rule.id} [{rule.source.ref}]", src_loc=rule.src_loc,
            value=action,
        )

    def apply(self, s: State, action: Action) -> State:
        if s.phase is Phase.PLAY:
            if not isinstance(action, Play):
                raise self._refuse(None, f"the auction is over: {self.table.name(s.turn)} must "
                                   f"play a card, not call {action}", action)
            return self._apply_play(s, action)
        if s.phase is Phase.AUCTION:
            if not isinstance(action, Call):
                raise self._refuse(None, f"it is the auction: {self.table.name(s.turn)} must "
                                   f"call (a bid such as '{self.ladder[0]}' or 'pass'), "
                                   f"not play {action}", action)
            return self._apply_call(s, action)
        raise self._refuse(None, "the deal is over: no more actions", action)

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
        if not self._call_ok(*args, is_bid, b):
            for rule, app, req in self._call_rules:
                if app(*args, is_bid, b) and not req(*args, is_bid, b):
                    raise self._refuse(rule, f"{self.table.name(s.turn)} may not call {call}", call)
            raise self._refuse(None, f"{call} is not legal here", call)  # pragma: no cover
        seat = s.turn
        calls = s.calls + ((seat, b),)
        if is_bid:
            standing, high_bidder, passes = b, seat, 0
        else:
            standing, high_bidder, passes = s.standing, s.high_bidder, s.passes_in_row + 1
        # the auction-over rule reads the state after the call, with the turn not yet passed on
        if not self._ends(seat, s.dealer, s.hands[seat], standing >= 0, standing, high_bidder,
                          len(calls), passes):
            return _after_call(s, calls, standing, high_bidder, passes, (seat + 1) % self.n)
        if standing >= 0:
            contract, declarer = standing, high_bidder
            leader = self._first_lead(s.dealer, declarer, contract)
            return _after_auction(s, calls, standing, high_bidder, passes, Phase.PLAY, contract,
                                  declarer, self._trump_of[contract], leader, leader)
        # nobody bid: the cards are dealt again
        steps = self._redeal_steps or 0
        dealer = (s.dealer + steps) % self.n
        redeals = s.redeals + 1
        hands = self.hands_from_order(self.deal_order(s.seed, redeals), dealer)
        return self.start(hands, dealer=dealer, seed=s.seed, redeals=redeals,
                          thrown_in=s.thrown_in + ((s.dealt, calls),))

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
        hand = s.hands[seat]
        name = self.table.name(seat)
        if not hand >> i & 1:
            raise self._refuse(None, f"{play.card} is not in {name}'s hand "
                               f"({CardSet(deck, hand)})", play)
        args, mask = self._play_context(s)
        if not mask >> i & 1:
            for rule, app, permits in self._play_rules:
                if app(*args) and not permits(*args) >> i & 1:
                    raise self._refuse(rule, f"{name} may not play {play.card}: legal now are "
                                       f"{CardSet(deck, mask)}", play)
            raise self._refuse(None, f"{play.card} is not legal here", play)  # pragma: no cover
        if code is None:
            code = NO_SUIT if play.names is None else suit_code(play.names)
        if self._needs_decl(*args, i, NO_SUIT):
            if play.names is None:
                rule = self._name_rules[0]
                raise self._refuse(rule, f"{play.card} needs a named suit here, e.g. "
                                   f"'{play.card}:H'", play)
            if code not in self._decl_choices:
                raise self._refuse(self._name_rules[0], f"{play.names} cannot be named", play)
            for rule, app, req in self._decl_rules:
                if app(*args, i, code) and not req(*args, i, code):
                    raise self._refuse(rule, f"{name} may not name {play.names.symbol}", play)
        elif play.names is not None:
            raise self._refuse(None, f"{play.card} names no suit here (play it as "
                               f"'{play.card}')", play)
        return i, code

    def _apply_play(self, s: State, play: Play) -> State:
        known = self._play_codes.get(id(play))
        last = self._last_play
        if known is not None and known[0] is play and last[0] is s and last[4] & known[3]:
            i, code = known[1], known[2]  # one of the legal plays just listed for this state
        else:
            i, code = self._play_numbers(s, play)
        seat = s.turn
        hands_l = list(s.hands)
        hands_l[seat] &= ~(1 << i)
        hands = tuple(hands_l)
        trick = s.trick + ((i, code),)
        trump, number, contract = s.trump, s.trick_number, s.contract
        if len(trick) == 1:
            led = self._entry_suit(i, code, True, 0, NO_SUIT, trump, number, contract)
        else:
            led = s.led_suit
        if len(trick) < self.n:
            return _after_card(s, hands, trick, led, (seat + 1) % self.n)
        # the trick is complete: the strongest card wins (the first of equals, which the
        # verifier proves never happens)
        strength = self._strength
        best, best_pos = None, 0
        for p, (c, named) in enumerate(trick):
            st = strength(c, named, p == 0, p, led, trump, number, contract)
            if best is None or st > best:
                best, best_pos = st, p
        winner = (s.leader + best_pos) % self.n
        won_l = list(s.won)
        won_l[winner] |= 1 << number
        won = tuple(won_l)
        cards, names = zip(*trick)
        tricks = s.tricks + (TrickRecord(number, s.leader, cards, names, winner),)
        if any(hands):
            return _after_trick(s, hands, (), NO_SUIT, won, tricks, number + 1, winner, winner)
        scores = tuple(self._score(seat_, s.declarer, contract, s.dealer, won)
                       for seat_ in range(self.n))
        return _after_last_trick(s, hands, (), NO_SUIT, won, tricks, number + 1, winner, winner,
                                 Phase.OVER, scores)

    # -- scoring helpers ----------------------------------------------------------
    def points(self, s: State, seat: int) -> int:
        """The points a seat took in tricks so far."""
        return self._points(seat, s.won)  # type: ignore[no-any-return]

    def score_outcome(self, *, contract: int, declarer: int, winners: Sequence[int],
                      dealer: int | None = None) -> tuple[int, ...]:
        """The scores for a contract and the winner of each trick, in order."""
        won = [0] * self.n
        for k, w in enumerate(winners, start=1):
            won[w] |= 1 << k
        dealer = self.n - 1 if dealer is None else dealer
        return tuple(self._score(seat, declarer, contract, dealer, tuple(won))
                     for seat in range(self.n))

    def points_outcome(self, winners: Sequence[int]) -> tuple[int, ...]:
        won = [0] * self.n
        for k, w in enumerate(winners, start=1):
            won[w] |= 1 << k
        return tuple(self._points(seat, tuple(won)) for seat in range(self.n))

    def trick_winner(self, *, contract: int, cards: Sequence[int], named: Sequence[int],
                     trick_number: int = 1) -> int:
        """The winning position of a complete trick, by the game's strength rules."""
        trump = self._trump_of[contract]
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


def _with_won(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Adapt a generated function whose body reads ``won`` as a trailing argument."""
    src = fn.source.replace("):\n", ", won):\n", 1)  # type: ignore[attr-defined]
    ns = dict(fn.__globals__)
    exec(compile(src, fn.__code__.co_filename, "exec"), ns)  # noqa: S102  # generated from rule nodes
    out = ns[fn.__name__]
    out.source = src
    return out  # type: ignore[no-any-return]


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
    """Read an action in the notation of records: ``pass``, ``19S``, ``AS``, ``JK:H``.

    Raises:
        NotationError: the text is no call or card of this game.
    """
    game = state.game
    t = text.strip()
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


def random_bot(view: View, rng: random.Random) -> Action:
    """Choose uniformly among the legal actions."""
    actions = view.legal_actions()
    return actions[rng.randrange(len(actions))]


def play_deal(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
              dealer: int | None = None) -> State:
    """Play a whole deal with bots (random ones by default), reproducibly from ``seed``."""
    state = new_deal(game, seed=seed, dealer=dealer)
    rng = random.Random(seed)
    bots = bots or [random_bot] * game.players
    eng = state.engine
    if all(bot is random_bot for bot in bots):
        # what random_bot does, without a View or the phase dispatch per action: the same
        # draws, the same deal
        randrange = rng.randrange
        while state.phase is not Phase.OVER:
            if state.phase is Phase.PLAY:
                plays = eng.legal_plays(state)
                state = eng._apply_play(state, plays[randrange(len(plays))])
            else:
                actions = eng.legal_actions(state)
                state = eng.apply(state, actions[randrange(len(actions))])
        return state
    while state.phase is not Phase.OVER:
        action = bots[state.turn](View(state, state.turn), rng)
        state = eng.apply(state, action)
    return state
