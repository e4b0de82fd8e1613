"""The engine of a game: its phases put together, and the functions the tools call."""
from __future__ import annotations

from collections.abc import Sequence

from spec.cards import CardSet, Suit
from spec.dsl._build import Game, Rule
from spec.errors import IllegalActionError, NoLegalActionError

from spec.engine._auction import Auction
from spec.engine._deal import Dealing
from spec.engine._play import Tricks
from spec.engine._playout import Playout
from spec.engine._probes import Probes
from spec.engine._state import PASS, Action, Call, Declare, Discard, Lay, Phase, Play, State


class Engine(Dealing, Auction, Tricks, Playout, Probes):
    """The compiled form of one game (with its variants): build once, use for every deal."""

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
        elif s.phase is Phase.EXCHANGE:
            acts = tuple(Discard(c) for i, c in enumerate(self.game.deck) if s.hands[s.turn] >> i & 1)
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
        if s.phase is Phase.EXCHANGE:
            if not isinstance(action, Discard):
                raise self._refuse(None, f"{self.table.name(s.turn)} must discard a card of his "
                                   f"hand face down ({s.hand(s.turn)}), not {action}", action)
            return self._apply_discard(s, action)
        raise self._refuse(None, "the deal is over: no more actions", action)


_ENGINES: dict[int, Engine] = {}


def engine_for(game: Game) -> Engine:
    """The engine of a game, compiled once per game object."""
    eng = _ENGINES.get(id(game))
    if eng is None or eng.game is not game:
        eng = Engine(game)
        _ENGINES[id(game)] = eng
    return eng


def new_deal(game: Game, *, seed: int = 0, dealer: int | None = None,
             hands: Sequence[CardSet | int] | None = None,
             pack: Sequence[int] | None = None) -> State:
    """A fresh deal: dealt from ``pack`` (card numbers, top first: the pack a deal left,
    see ``Engine.next_pack``), shuffled from ``seed``, or from the given hands."""
    eng = engine_for(game)
    dealer = game.players - 1 if dealer is None else dealer
    if hands is not None:
        masks = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in hands)
    else:
        masks = eng.hands_from_order(eng.deal_order(seed) if pack is None else pack, dealer)
    return eng.start(masks, dealer=dealer, seed=seed, pack=None if hands is not None else pack)


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
    if state.phase is Phase.EXCHANGE:
        return Discard(game.deck.parse_card(t))
    if state.phase is Phase.AUCTION:
        if t.lower() in ("pass", "p", "-"):
            return PASS
        return Call(game.parse_bid(t))
    named = None
    if ":" in t:
        t, suit_text = t.split(":", 1)
        named = Suit.parse(suit_text)
    return Play(game.deck.parse_card(t), named)
