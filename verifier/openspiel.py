"""Every registered game, and each of its variants, as an OpenSpiel game.

Importing this module registers one Python game with OpenSpiel for each game of
:data:`spec.registry.GAMES`, named ``trickspec_<key>``, its variants as boolean game
parameters and the dealer as an integer one::

    import pyspiel
    import verifier.openspiel  # registers trickspec_<key> for every registered game

    game = pyspiel.load_game(f"trickspec_{key}({variant}=True)")

An OpenSpiel episode is one deal, played as the engine plays it (:mod:`spec.engine`):

- **Chance.**  The first ``len(deck)`` moves belong to chance and lay the pack, top card
  first: each outcome is a card not yet laid, all equally likely.  The engine deals that
  pack in the game's own packets, to the seats and the talon its deal rule names.  What
  the hands alone do not say (which cards of a hand a later stage brings, the card turned
  up, the pack of a deal thrown in and dealt again) the engine draws from the deal's
  seed, a number made from the pack, as it does for a deal of ``trickspec play``: so every
  outcome of the episode follows from the chance moves, and the record of the deal
  (:meth:`TrickspecState.record`: hands and seed) replays in ``trickspec replay``.
- **Actions.**  The engine's legal actions, numbered once for the game
  (``Engine.action_table``): every call, card and announcement the rules name has its
  number in every deal.  ``legal_actions()`` is empty for every seat but the one to act.
- **Rewards.**  At the end, each seat's score for the deal, as the game's score rules give
  it (``0`` for every seat in a game whose deal ends without a score).  The game is
  declared zero-sum where the verifier proves, within its default budget, that every
  outcome's scores add up to nothing (``score_of(0) + ... == 0`` over the outcome
  scope); elsewhere general-sum.  The rules set no bound on a score that the adapter
  states, so the utility range is unbounded.
- **What a seat sees.**  Observation and information-state strings and tensors are built
  from the seat's :class:`~spec.engine.View`, and, on its turn, the actions the rules let
  it take.  A rule may make an action's legality read cards the seat does not see (a
  claim allowed only when the seat's partner was dealt no card of a suit, say): the rules
  then tell the seat something through what it may do, and the information state says
  it too, so that two states with one information state offer the seat the same actions.
  Nothing else a rule hides reaches a seat.  The information-state string has perfect recall by construction: it
  holds the seat's observation at each of its past turns and the action it took, then
  its observation now.  The tensors are of a fixed size: the observation tensor is what
  the seat sees now; the information-state tensor adds its hand as first seen, every
  call each seat has made and the actions it may take.  The tensor is a summary, not a
  record: the order of the tricks and of the calls is not in it (the string has them).

Nothing here names a game: each is read from its rules through the engine.
"""
from __future__ import annotations

import functools
import hashlib
import operator
from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError:  # pragma: no cover - the extra is not installed
    raise ImportError("OpenSpiel is not installed: pip install 'trickspec[openspiel]'") from None

from spec.dsl import Scope, score_of
from spec.dsl._build import Game
from spec.engine import Call, Declare, Discard, Lay, Phase, Play, State, View, apply, engine_for, legal_actions, new_deal
from spec.records import MAX_SEED, to_record
from spec.registry import GAMES

__all__ = ["PREFIX", "TrickspecGame", "TrickspecState", "TrickspecObserver", "game_name", "register"]

PREFIX = "trickspec_"


def game_name(key: str) -> str:
    """The OpenSpiel short name of the registered game ``key``."""
    return PREFIX + key


def _seed_of(pack: Sequence[int]) -> int:
    """The deal's seed, made from its pack: what the engine draws later follows from it."""
    digest = hashlib.blake2b(bytes(pack), digest_size=8).digest()
    return int.from_bytes(digest, "big") % (MAX_SEED + 1)


@functools.lru_cache(maxsize=None)
def _zero_sum(key: str, variants: tuple[str, ...]) -> bool:
    """Whether the verifier proves that every outcome's scores add up to nothing (False
    where it proves they need not, or cannot tell within its default budget)."""
    from verifier._prove.claims import dsl_decider
    from verifier.properties import Check, Verdict, run_check

    game = GAMES[key].with_variants(*variants) if variants else GAMES[key]
    total = functools.reduce(operator.add, [score_of(k) for k in range(game.players)])
    check = Check("openspiel.zero_sum", "The scores of every outcome add up to nothing.",
                  "generic", dsl_decider(Scope.OUTCOME, total == 0, (), False))
    return run_check(game, check).verdict is Verdict.HOLDS


def _game_type(base: Game, zero_sum: bool) -> pyspiel.GameType:
    players = {base.players} | {base.with_variants(v.id).players for v in base.variants
                                if not v.not_decidable}
    params: dict[str, Any] = {"dealer": -1}
    params.update({v.id: False for v in base.variants})
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=game_name(base.key),
        long_name=f"{base.name} (trickspec)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


class TrickspecGame(pyspiel.Game):
    """One of our games, with the variants its parameters name, as an OpenSpiel game."""

    KEY = ""  # the registry's key of the game: each registered game has a class of its own

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        key = self.KEY
        base = GAMES[key]
        chosen = tuple(v.id for v in base.variants if params.get(v.id, False))
        # with_variants refuses a pair of variants that do not compose, naming both
        rules = base.with_variants(*chosen) if chosen else base
        engine = engine_for(rules)
        n = rules.players
        dealer = int(params.get("dealer", -1))
        if not -1 <= dealer < n:
            raise ValueError(f"{game_name(key)}: the dealer must be a seat 0..{n - 1} "
                             f"(or -1, the last seat), not {dealer}")
        deck = len(rules.deck)
        zero_sum = _zero_sum(key, chosen)
        # the engine stops a deal that goes on longer than any deal can (most_actions a
        # deal, most_redeals deals thrown in): the longest episode it lets through
        longest = deck + engine.most_actions * (engine.most_redeals + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(engine.action_table),
            max_chance_outcomes=deck,
            num_players=n,
            min_utility=-float("inf"),
            max_utility=float("inf"),
            utility_sum=0.0 if zero_sum else None,
            max_game_length=longest)
        super().__init__(_game_type(base, zero_sum), info, params)
        self.deal = _deal_for(key, chosen, n - 1 if dealer < 0 else dealer)
        self.rules, self.variants, self.engine = rules, chosen, engine

    def new_initial_state(self) -> TrickspecState:
        return TrickspecState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TrickspecObserver:
        return TrickspecObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                 params)


class _Deal:
    """What every state of one loaded game reads: its rules, engine, variants and dealer.
    Shared, never copied (OpenSpiel clones a state by deep-copying its attributes), and
    pickled as its name (OpenSpiel serialises a state by pickling them)."""

    __slots__ = ("key", "rules", "engine", "variants", "dealer")

    def __init__(self, key: str, rules: Game, engine: Any, variants: tuple[str, ...],
                 dealer: int) -> None:
        self.key, self.rules, self.engine = key, rules, engine
        self.variants, self.dealer = variants, dealer

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_deal_for, (self.key, self.variants, self.dealer))


@functools.lru_cache(maxsize=None)
def _deal_for(key: str, variants: tuple[str, ...], dealer: int) -> _Deal:
    rules = GAMES[key].with_variants(*variants) if variants else GAMES[key]
    return _Deal(key, rules, engine_for(rules), variants, dealer)


class _Line:
    """One deal's course: the pack laid so far, the engine's state once it is dealt, and
    (the engine state before, the seat that acted, the action's number) for each action.
    A deep copy shares the engine's states (they are immutable); a pickle keeps the pack
    and the actions' numbers, and plays them again when it is read.

    A line drawn from a seat's view (:meth:`TrickspecState.resample_from_infostate`) keeps
    ``redrawn``: from which action on its deal is the drawn one, and that deal's hands;
    its states are those of the drawn deal, so no seat's strings show the real one."""

    __slots__ = ("deal", "pack", "engine_state", "trail", "redrawn")

    def __init__(self, deal: _Deal) -> None:
        self.deal = deal
        self.pack: list[int] = []
        self.engine_state: State | None = None
        self.trail: list[tuple[State, int, int]] = []
        self.redrawn: tuple[int, tuple[int, ...], tuple[int, ...], int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Line:
        out = _Line(self.deal)
        out.pack, out.trail, out.engine_state = list(self.pack), list(self.trail), self.engine_state
        out.redrawn = self.redrawn
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (_line_of, (self.deal, tuple(self.pack), tuple(a for _s, _k, a in self.trail),
                           self.redrawn))

    def apply(self, action: int) -> None:
        if self.engine_state is None:
            self.pack.append(action)
            if len(self.pack) == len(self.deal.rules.deck):
                # the hands as the game's packets deal the pack; the rest (what a later
                # stage brings, the turn-up, a deal dealt again) from the seed, as a
                # record of the deal replays it
                dealer = self.deal.dealer
                hands = self.deal.engine.hands_from_order(self.pack, dealer)
                self.engine_state = new_deal(self.deal.rules, seed=_seed_of(self.pack),
                                             dealer=dealer, hands=hands)
            return
        s = self.engine_state
        self.trail.append((s, s.turn, action))
        self.engine_state = apply(s, self.deal.engine.action_table[action])

    def redraw(self, at: int, dealt: tuple[int, ...], later: tuple[int, ...], turn_up: int,
               actions: Sequence[int]) -> None:
        """Keep the first ``at`` actions (those of the deals thrown in before this one),
        and play this deal again from the hands drawn, with ``actions``."""
        current = self.trail[at][0] if at < len(self.trail) else self.engine_state
        assert current is not None
        self.trail = self.trail[:at]
        self.engine_state = self.deal.engine.start(
            dealt, dealer=current.dealer, seed=current.seed, redeals=current.redeals,
            thrown_in=current.thrown_in, later=later, turn_up=None if turn_up < 0 else turn_up)
        self.redrawn = (at, dealt, later, turn_up)
        for a in actions:
            self.apply(a)


def _line_of(deal: _Deal, pack: tuple[int, ...], actions: tuple[int, ...],
             redrawn: tuple[int, tuple[int, ...], tuple[int, ...], int] | None = None) -> _Line:
    line = _Line(deal)
    at = len(actions) if redrawn is None else redrawn[0]
    for a in (*pack, *actions[:at]):
        line.apply(a)
    if redrawn is not None:
        line.redraw(redrawn[0], redrawn[1], redrawn[2], redrawn[3], actions[at:])
    return line


class TrickspecState(pyspiel.State):
    """A deal in progress: the pack laid so far, then the engine's state."""

    def __init__(self, game: TrickspecGame) -> None:
        super().__init__(game)
        self.line = _Line(game.deal)

    @property
    def engine_state(self) -> State | None:
        """The engine's state of the deal (None while chance lays the pack)."""
        return self.line.engine_state  # type: ignore[no-any-return]

    @property
    def _game(self) -> _Deal:
        return self.line.deal  # type: ignore[no-any-return]

    def current_player(self) -> int:
        s = self.engine_state
        if s is None:
            return int(pyspiel.PlayerId.CHANCE)
        if s.phase is Phase.OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return s.turn

    def _legal_actions(self, player: int) -> list[int]:
        s = self.engine_state
        if s is None or s.phase is Phase.OVER or player != s.turn:
            return []
        number = self._game.engine.action_number
        return sorted(number[a] for a in legal_actions(s))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(len(self._game.rules.deck))) - set(self.line.pack))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        self.line.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"lay {self._game.rules.deck[action]}"
        return action_text(self._game.engine.action_table[action])

    def is_terminal(self) -> bool:
        return self.engine_state is not None and self.engine_state.phase is Phase.OVER

    def returns(self) -> list[float]:
        s = self.engine_state
        if s is None or s.phase is not Phase.OVER or s.scores is None:
            return [0.0] * self._game.rules.players
        return [float(x) for x in s.scores]

    def record(self) -> dict[str, Any]:
        """The deal's record, as ``trickspec play --json`` writes one: ``trickspec replay``
        takes it.

        Raises:
            ValueError: the pack is not laid yet.
        """
        if self.engine_state is None:
            raise ValueError("the deal has not been dealt yet: chance still lays the pack")
        return to_record(self.engine_state)

    def resample_from_infostate(self, player: int, sampler: Any) -> TrickspecState:
        """A state the seat ``player`` cannot tell from this one, its hidden cards drawn
        uniformly among the deals consistent with all it has seen (:mod:`spec.worlds`):
        this deal played again from the hands drawn, with the actions as that seat knows
        them (a card it never saw, that deal's own).  Deals thrown in before this one are
        kept as they were."""
        from spec.worlds import sample_worlds

        real = self.engine_state
        if real is None:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(sampler() * 2 ** 31) if callable(sampler) else 0
        world = sample_worlds(real.view(player), 1, seed)[0]
        line = self.line
        at = sum(1 for before, _k, _a in line.trail if before.redeals < real.redeals)
        number = line.deal.engine.action_number
        out = self.clone()
        out.line.redraw(at, tuple(world.dealt), tuple(world.later), world.turn_up,
                        [number[a] for _seat, a in world.state.log])
        return out

    def __str__(self) -> str:
        s = self.engine_state
        if s is None:
            return f"pack laid: {len(self.line.pack)} of {len(self._game.rules.deck)} cards"
        table = s.engine.table
        hands = "; ".join(f"{table.name(k)} {s.hand(k)}" for k in range(len(s.hands)))
        acts = " ".join(f"{table.name(k)}:{action_text(self._game.engine.action_table[a])}"
                        for _s, k, a in self.line.trail)
        return f"dealer {table.name(s.dealer)}; {hands}; {s.phase.value}; {acts}".rstrip()


def action_text(action: Any) -> str:
    """An action in the notation of records, a card set aside or discarded named so."""
    if isinstance(action, Lay):
        return f"lay {action}"
    if isinstance(action, Discard):
        return f"discard {action}"
    return str(action)


class TrickspecObserver:
    """What one seat sees, as a string and as a tensor, read from its view.

    With ``perfect_recall`` the string holds the seat's observation at each of its past
    turns, with the action it took, then its observation now; the tensor adds the seat's
    hand as dealt and the calls each seat has made.  Only the seat's own private
    information is offered (``private_info`` SINGLE_PLAYER) with the public information.
    """

    def __init__(self, game: TrickspecGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("only a seat's own view is offered: private_info SINGLE_PLAYER "
                             "with the public information")
        self._game = game
        self.recall = bool(iig_obs_type.perfect_recall)
        rules = game.rules
        n, deck, tricks = rules.players, len(rules.deck), rules.tricks
        calls = [a for a in game.engine.action_table if isinstance(a, Call)]
        self._call_index = {c: i for i, c in enumerate(dict.fromkeys(calls))}
        ncalls = len(self._call_index)
        self._phases = tuple(dict.fromkeys(
            [Phase(st.phase) for st in rules.steps if st.phase is not None] + [Phase.PLAY, Phase.OVER]))
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("player", n, (n,)), ("turn", n, (n,)), ("dealer", n, (n,)),
            ("phase", len(self._phases), (len(self._phases),)),
            ("hand", deck, (deck,)), ("aside", deck, (deck,)), ("discards", deck, (deck,)),
            ("turn_up", deck, (deck,)), ("trick", n * deck, (n, deck)),
            ("played", n * deck, (n, deck)), ("open_hands", n * deck, (n, deck)),
            ("trump", 5, (5,)), ("tricks_won", n * (tricks + 1), (n, tricks + 1)),
            ("last_call", n * (ncalls + 1), (n, ncalls + 1)), ("partner", n + 1, (n + 1,)),
            ("talon", 1, (1,))]
        if self.recall:
            actions = len(game.engine.action_table)
            pieces += [("dealt", deck, (deck,)), ("calls", n * ncalls, (n, ncalls)),
                       ("legal", actions, (actions,))]
        self.tensor = np.zeros(sum(size for _n, size, _s in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: TrickspecState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        s = state.engine_state
        if s is None:
            return
        v = s.view(player)
        d["turn"][v.turn] = 1 if v.phase is not Phase.OVER else 0
        d["dealer"][v.dealer] = 1
        if v.phase in self._phases:
            d["phase"][self._phases.index(v.phase)] = 1
        for name, cards in (("hand", v.hand.mask), ("aside", v.aside.mask), ("discards", v.discards.mask)):
            _bits(d[name], cards)
        if v.turn_up is not None:
            d["turn_up"][s.turn_up] = 1
        for seat, card in v.current_trick:
            if card is not None:
                d["trick"][seat, card] = 1
        for _num, cards, winner in v.tricks:
            for seat, card in cards:
                if card is not None:
                    d["played"][seat, card] = 1
        for seat, held in v.open_hands:
            _bits(d["open_hands"][seat], held.mask)
        trump = v.trump
        d["trump"][4 if trump is None else "CDHS".index(trump.letter)] = 1
        won = [0] * len(s.hands)
        for _num, _cards, winner in v.tricks:
            won[winner] += 1
        for seat, k in enumerate(won):
            d["tricks_won"][seat, k] = 1
        last = [len(self._call_index)] * len(s.hands)
        for seat, action in v.log:
            if isinstance(action, Call):
                last[seat] = self._call_index[action]
                if self.recall:
                    d["calls"][seat, self._call_index[action]] = 1
        for seat, k in enumerate(last):
            d["last_call"][seat, k] = 1
        partner = v.partner
        d["partner"][len(s.hands) if partner is None else partner] = 1
        d["talon"][0] = v.talon_size
        if self.recall:
            _bits(d["dealt"], _dealt_seen(state, player))
            if v.phase is not Phase.OVER and v.turn == player:
                number = self._game.engine.action_number
                for a in legal_actions(s):
                    d["legal"][number[a]] = 1

    def string_from(self, state: TrickspecState, player: int) -> str:
        s = state.engine_state
        if s is None:
            return f"{self._game.rules.table.name(player)}: the pack is being laid"
        now = _seen_text(s, player)
        if not self.recall:
            return now
        table = self._game.engine.action_table
        past = [f"{_seen_text(before, player)} => {action_text(table[a])}"
                for before, seat, a in state.line.trail if seat == player]
        return " || ".join([*past, now])


def _seen_text(s: State, player: int) -> str:
    """What the seat sees in ``s``, and on its turn the actions the rules let it take: a
    rule may make an action's legality read what the seat does not see (a claim allowed
    only if the partner was dealt no card of a suit, say), and then the legal actions are
    part of what the seat knows."""
    text = observation_text(s.view(player))
    if s.phase is Phase.OVER or s.turn != player:
        return text
    return f"{text}; may {', '.join(action_text(a) for a in legal_actions(s))}"


def _bits(row: Any, mask: int) -> None:
    i = 0
    while mask:
        if mask & 1:
            row[i] = 1
        mask >>= 1
        i += 1


def _dealt_seen(state: TrickspecState, player: int) -> int:
    """The cards the seat held at its first turn or now, whichever came first: its hand as
    it was first seen by itself."""
    for before, seat, _a in state.line.trail:
        if seat == player:
            return before.view(player).hand.mask
    assert state.engine_state is not None
    return state.engine_state.view(player).hand.mask


def observation_text(v: View) -> str:
    """What the seat of ``v`` sees now, in one line of card notation, seats by name."""
    table = v.game.table
    name = table.name
    parts = [name(v.seat), f"dealer {name(v.dealer)}", v.phase.value]
    if v.phase is not Phase.OVER:
        parts.append(f"to act {name(v.turn)}")
    parts.append(f"hand {v.hand}")
    if v.aside.mask:
        parts.append(f"aside {v.aside}")
    if v.discards.mask:
        parts.append(f"discards {v.discards}")
    if v.turn_up is not None:
        parts.append(f"turn-up {v.turn_up}")
    if v.talon_size:
        parts.append(f"talon {v.talon_size} cards")
    for seat, held in v.open_hands:
        parts.append(f"{name(seat)} open {held}")
    if v.trump is not None:
        parts.append(f"trumps {v.trump.letter}")
    if v.partner is not None:
        parts.append(f"partner of the declarer {name(v.partner)}")
    deck = v.game.deck
    log = [f"{name(seat)} {'?' if a is None else action_text(a)}" for seat, a in v.log]
    if log:
        parts.append("actions " + ", ".join(log))
    won = [0] * len(v.hand_sizes)
    for _num, _cards, winner in v.tricks:
        won[winner] += 1
    if v.tricks:
        parts.append("tricks won " + ", ".join(f"{name(k)} {w}" for k, w in enumerate(won)))
    if v.current_trick:
        shown = " ".join(f"{name(seat)}:{'?' if c is None else deck[c]}" for seat, c in v.current_trick)
        parts.append(f"on the table {shown}")
    return "; ".join(parts)


def register() -> tuple[str, ...]:
    """Register every game of the registry with OpenSpiel (once); their short names."""
    names = []
    for key, base in GAMES.items():
        name = game_name(key)
        names.append(name)
        if name in pyspiel.registered_names():
            continue
        # a class of its own for each game, kept here: OpenSpiel holds the class it is
        # given until the interpreter ends
        cls = type(f"TrickspecGame_{len(_CLASSES)}", (TrickspecGame,), {"KEY": key})
        _CLASSES.append(cls)
        pyspiel.register_game(_game_type(base, False), cls)  # a loaded game declares its own
    return tuple(names)


_CLASSES: list[type] = []
GAME_NAMES = register()
