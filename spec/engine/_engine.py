"""The engine of a game: its phases put together, and the functions the tools call."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from spec.cards import Card, CardSet, Suit
from spec.dsl._build import Game, Rule
from spec.engine._auction import Auction
from spec.engine._calls import QuickCalls
from spec.engine._course import Course
from spec.engine._deal import Dealing
from spec.engine._play import Tricks
from spec.engine._playout import Playout
from spec.engine._playout_rich import RichPlayout
from spec.engine._probes import Probes
from spec.engine._reading import EngineReading
from spec.engine._state import (
    CARD_ACTIONS,
    PASS,
    Action,
    Call,
    Declare,
    Phase,
    Play,
    State,
    View,
    freeze,
    thaw,
)
from spec.errors import EndlessDealError, IllegalActionError, NoLegalActionError


class Engine(Dealing, Auction, QuickCalls, Course, Tricks, Playout, RichPlayout, Probes):
    """The compiled form of one game (with its variants): build once, use for every deal."""

    def batch(self) -> Any:
        """The batch back end of this game's play of the cards
        (:class:`spec.batch.BatchEngine`), built on first use.

        Raises:
            NotBatchable: the play uses a construct the batch back end does not run.
        """
        found = self.__dict__.get("_batch_play")
        if found is None:
            from spec.engine._batch import BatchEngine, NotBatchable
            try:
                found = BatchEngine(self)
            except NotBatchable as e:
                found = e
            self.__dict__["_batch_play"] = found
        if isinstance(found, Exception):
            raise type(found)(str(found))
        return found

    def __init__(self, game: Game) -> None:
        reading = EngineReading()  # a construct the engine does not run is refused here
        self.reading = {rule.id: reading.visit(rule.body) for rule in game.rules}
        for step in game.steps:  # a phase a game writes as steps of its own, by its name
            if step.phase is not None:
                Phase.own(step.phase)
        # the steps whose action is a call, and their phases (the auction's, and any a game
        # adds)
        self._call_steps = tuple(s for s in game.steps if s.action == "call")
        self._call_phases = frozenset(Phase(s.phase) for s in self._call_steps)
        super().__init__(game)
        # a deal the rules let go on for ever is stopped, never played for ever: no deal of
        # a game takes this many actions, or is thrown in this many times in a row
        self.most_actions = 64 * (self.n + len(game.deck))
        self.most_redeals = 1_000
        self._deciding = False  # a seat's certainty is being decided (see certain)
        self._quick_plays = not self._play_announce
        self._quick_calls = not self._call_announce and self._proxy_when is None
        # calls: applied by a handler generated from the auction steps
        self._course()  # the steps, compiled now
        # a card played: applied by a handler generated from the play step
        at = next(i for i, s in enumerate(game.steps) if s.phase == Phase.PLAY.value)
        self._do_play = play = self._play_fn(game.steps[at], at)
        for p in self._plays.values():
            action, bit, _do, card = self._known[id(p)]
            self._known[id(p)] = (action, bit, play, card)
        # the fast play of the cards: a loop generated from the same play step
        self._play_loop = self._play_loop_fn()
        self._call_handler = handler = self._quick_call_handler()
        for c in (PASS, *self._calls):
            call, bit, _do, b = self._known[id(c)]
            self._known[id(c)] = (call, bit, handler, b)
        self._quick_auction = self._quick_auction_fn() if self._quick_calls else None
        self._rich_auction = self._rich_auction_fn()
        self._plain_legal = self._plain_legal_fn() if self._plays_of is not None else None

    def legal_actions(self, s: State) -> tuple[Action, ...]:
        """The actions the rules allow the seat to act; ``()`` once the deal is over.

        Raises:
            NoLegalActionError: the rules leave the seat none before the deal is over.
        """
        last = self._last
        if last[0] is s:
            return last[1]
        phase = s.phase
        if phase is _PLAY and self._quick_plays:  # the legal actions are the plays
            plain = self._plain_legal
            if plain is not None:  # each legal card is one play
                acts, mask = plain(s)
                if mask:
                    self._last = (s, acts, mask)
                    return acts
            elif mask := self._legal(s):
                acts, bits = self._decoder(s)(mask, s)
                if acts:
                    self._last = (s, acts, bits)
                    return acts
        elif phase in self._call_phases and self._quick_calls:  # the legal actions are the calls
            acts, bits = self._legal_calls(s)
            if acts:
                self._last = (s, acts, bits)
                return acts
        acts, bits = self._actions(s)
        self._last = (s, acts, bits)
        return acts

    def _actions(self, s: Any) -> tuple[tuple[Action, ...], int]:
        """The legal actions in ``s`` (a state or a working copy), and their bits."""
        phase = s.phase
        if phase is Phase.PLAY:
            acts, bits = self._play_actions(s)
        elif phase in self._call_phases:
            acts, bits = self._auction_actions(s)
        elif (step := self.card_step(s)) is not None:  # a card of the actor's hand
            hand, table = s.hands[s.turn], self._card_table[step.card]  # type: ignore[index]
            acts = tuple(table[i] for i in range(len(self.game.deck)) if hand >> i & 1)
            bits = hand << self._card_shift[step.card]  # type: ignore[index]
        elif self.choice_step(s) is not None:  # a choice among named options
            acts = self._choice_options(s)
            bits = self._declared_bits(list(acts))
        else:
            return (), 0
        if not acts:
            raise self._stuck(s.turn, s.phase.value, s.trick_number)
        return acts, bits

    def certain(self, s: Any, seat: int, undecided: bool = False) -> bool:
        """Whether ``seat`` can be sure, from what it has seen of the deal ``s`` (a state or
        a working copy), that its side wins every remaining trick whatever the others
        play: the decision procedure of :mod:`spec.solver._certain`, which a rule asks
        through ``certain(seat)``.  A position it cannot decide is answered ``undecided``.

        The procedure plays positions of this deal through this engine; a rule that asks
        the question again while one is being decided is answered not sure (what such a
        rule sets is read by no rule of the play, which the procedure checks)."""
        if self._deciding:
            return False
        from spec.solver._certain import certain  # the solver is built on the engine

        answer = certain(View(freeze(thaw(s)), seat))
        return undecided if answer is None else answer

    def endless(self, w: Any) -> EndlessDealError | None:
        """The error to raise when the deal ``w`` has gone on longer than any deal can; None
        while it has not."""
        if len(w.log) <= self.most_actions and w.redeals <= self.most_redeals:
            return None
        return EndlessDealError(f"{self.game.name}: the rules let the deal go on without end "
                                f"({len(w.log)} actions, {w.redeals} deals thrown in)")

    def _stuck(self, seat: int, phase: str, trick: int) -> NoLegalActionError:
        where = f"trick {trick} of the play" if phase == Phase.PLAY.value else f"the {phase}"
        return NoLegalActionError(f"{self.game.name}: the rules leave "
                                  f"{self.game.table.name(seat)} no legal action in {where}")

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
        # an object the engine built is its own (the table keeps it alive, so no other
        # object has its id); one of the legal actions just listed for this very state
        # needs no check
        known = self._known.get(id(action))
        if known is not None:
            last = self._last
            if last[0] is s and last[2] & known[1]:
                w = thaw(s)
                known[2](w, action, known[3])
                w.__class__ = State
                return w  # type: ignore[no-any-return]
        handler, payload = self._checked(s, action)
        w = thaw(s)
        handler(w, action, payload)
        return freeze(w)

    def _checked(self, s: State, action: Action) -> tuple[Callable[..., None], Any]:
        """The handler of ``action`` and what it needs, refused unless legal in ``s``."""
        if self.choice_step(s) is not None:  # a choice among named options
            self._check_choice(s, action)
            return self._do_choice, None
        if isinstance(action, Declare):
            self._check_declare(s, action)
            return self._do_declare, None
        if s.phase is Phase.PLAY:
            if not isinstance(action, Play):
                raise self._refuse(None, f"the auction is over: {self.table.name(s.turn)} must "
                                   f"play a card, not {action}", action)
            return self._do_play, self._check_play(s, action)
        if s.phase in self._call_phases:
            if not isinstance(action, Call):
                raise self._refuse(None, f"it is the auction: {self.table.name(s.turn)} must "
                                   f"call (a bid such as '{self.ladder[0]}' or 'pass'), "
                                   f"not play {action}", action)
            return self._call_handler, self._check_call(s, action)
        step = self.card_step(s)
        if step is not None:  # a card of the actor's hand
            if not isinstance(action, CARD_ACTIONS[step.card]):  # type: ignore[index]
                raise self._refuse(None, f"{self.table.name(s.turn)} must {step.action} "
                                   f"({s.hand(s.turn)}), not {action}", action)
            return self._do_card, self._check_card(s, action, step)
        raise self._refuse(None, "the deal is over: no more actions", action)


_PLAY = Phase.PLAY
_ENGINES: dict[int, Engine] = {}


def engine_for(game: Game) -> Engine:
    """The engine of a game, compiled once per game object."""
    eng = _ENGINES.get(id(game))
    if eng is None or eng.game is not game:
        eng = Engine(game)
        _ENGINES[id(game)] = eng
    return eng


def drop_engine(game: Game) -> None:
    """Let the engine compiled for ``game`` go (a tool that builds many variants of a game,
    one after another, keeps only the one it is using)."""
    _ENGINES.pop(id(game), None)


def new_deal(game: Game, *, seed: int = 0, dealer: int | None = None,
             hands: Sequence[CardSet | int] | None = None,
             pack: Sequence[int] | None = None, turn_up: Card | None = None,
             pot: int | None = None, later: Sequence[CardSet | int] | None = None) -> State:
    """A fresh deal: dealt from ``pack`` (card numbers, top first: the pack a deal left,
    see ``Engine.next_pack``), shuffled from ``seed``, or from the given hands (with the
    card dealt face up, ``turn_up``, in a game that deals one, and the cards each seat is
    dealt after the first stage, ``later``, in a game dealt in stages); in a game with a
    pot, ``pot`` chips in it (by default the players' antes).

    Raises:
        NotationError: a pot in a game without one, or one the rules never leave; a
            turn-up or cards dealt late the hands do not hold.
    """
    eng = engine_for(game)
    if pot is not None:
        return replace(new_deal(game, seed=seed, dealer=dealer, hands=hands, pack=pack,
                                turn_up=turn_up, later=later), pot=eng.checked_pot(pot))
    dealer = game.players - 1 if dealer is None else dealer
    if hands is not None:
        masks = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in hands)
        up = None if turn_up is None else (game.deck.index(turn_up) if turn_up in game.deck
                                           else len(game.deck))
        late = None if later is None else tuple(h.mask if isinstance(h, CardSet) else int(h)
                                                for h in later)
        return eng.start(masks, dealer=dealer, seed=seed, turn_up=up, later=late)
    return eng.deal(seed, dealer, pack)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the rules allow the seat to act (``state.turn``)."""
    return state.engine.legal_actions(state)


def apply(state: State, action: Action) -> State:
    """The state after ``action``.

    Raises:
        IllegalActionError: the rules forbid the action here; ``state`` is unchanged.
    """
    eng = state.engine
    last = eng._last
    if last[0] is state:  # Engine.apply's first case, written out: the common one
        known = eng._known.get(id(action))
        if known is not None and last[2] & known[1]:
            w = thaw(state)
            known[2](w, action, known[3])
            w.__class__ = State
            return w  # type: ignore[no-any-return]
    return eng.apply(state, action)


def parse_action(state: State, text: str) -> Action:
    """Read an action in the notation of records: ``pass``, ``19S``, ``AS``, ``JK:H``, or an
    announcement's name (``open``, ``caps``).

    Raises:
        NotationError: the text is no call or card of this game.
    """
    game = state.game
    t = text.strip()
    if state.phase in (Phase.DROP_OUT, Phase.DECIDE):  # a choice: a name
        return Declare(t.lower())
    if t.lower() in state.engine.announcements_in.get(state.phase, ()):
        return Declare(t.lower())
    step = state.engine.card_step(state)
    if step is not None:  # a card of the actor's hand
        return CARD_ACTIONS[step.card](game.deck.parse_card(t))  # type: ignore[index]
    if state.phase in state.engine._call_phases:
        if t.lower() in ("pass", "p", "-"):
            return PASS
        return Call(game.parse_bid(t))
    named = None
    if ":" in t:
        t, suit_text = t.split(":", 1)
        named = Suit.parse(suit_text)
    return Play(game.deck.parse_card(t), named)
