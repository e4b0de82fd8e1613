"""Many deals played in turn: a deal by bots, and a match to the game's end."""
from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from spec.cards import Card, CardSet
from spec.dsl import _constructs as K
from spec.dsl._build import Game
from spec.engine._deal import int_seeded
from spec.engine._engine import engine_for, new_deal
from spec.engine._playout import Bot, play_on, random_bot
from spec.engine._state import Phase, State, View
from spec.errors import NotationError


def play_deal(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
              dealer: int | None = None, hands: Sequence[CardSet | int] | None = None,
              pack: Sequence[int] | None = None, pot: int | None = None,
              turn_up: Card | None = None, later: Sequence[CardSet | int] | None = None
              ) -> State:
    """Play a whole deal with bots (random ones by default), reproducibly from ``seed``;
    the hands are dealt from the seed unless given (or dealt from ``pack``), with the card
    turned up and the cards dealt late where given (see :func:`new_deal`); in a game with
    a pot, ``pot`` chips in it (by default the players' antes)."""
    state = new_deal(game, seed=seed, dealer=dealer, hands=hands, pack=pack, pot=pot,
                     turn_up=turn_up, later=later)
    rng = int_seeded(seed) if type(seed) is int else random.Random(seed)
    if not bots or all(bot is random_bot for bot in bots):
        return play_on(state, rng)
    eng = state.engine
    while state.phase is not Phase.OVER:
        endless = eng.endless(state)
        if endless is not None:
            raise endless
        action = bots[state.turn](View(state, state.turn), rng)
        state = eng.apply(state, action)
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


def session(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
            dealer: int | None = None, pot: Callable[[], int] | None = None,
            play: Callable[[State], State] | None = None) -> Iterator[State]:
    """Deals played one after another, as the rules pass from one deal to the next: the
    deal moves on by the game's rotation, and the pack is shuffled afresh or carried
    (gathered from the tricks and cut).  Deal *k* uses seed ``seed + k``: for its shuffle,
    or for the cut of the pack deal *k - 1* left.  In a game with a pot, ``pot()`` gives
    the chips in it as each deal begins (by default the players' antes).  Matches, rubbers
    and pots all play theirs.  ``play``, when given, plays each deal from its start to its
    end in place of the bots (the replay of a record follows the record's actions).
    """
    eng = engine_for(game)
    steps = game.program.dealer_steps
    dealer = game.players - 1 if dealer is None else dealer
    pack: list[int] | None = None
    for k in itertools.count():
        chips = None if pot is None else pot()
        if play is None:
            state = play_deal(game, seed=seed + k, bots=bots, dealer=dealer, pack=pack, pot=chips)
        else:
            state = play(new_deal(game, seed=seed + k, dealer=dealer, pack=pack, pot=chips))
        yield state
        dealer = (state.dealer + steps) % game.players
        pack = eng.next_pack(state, seed + k + 1)


def highest(totals: Sequence[int]) -> tuple[int, ...]:
    """Who wins by ``MatchOf``: the sides (or players) with the highest total, all of them
    when several share it."""
    best = max(totals)
    return tuple(i for i, x in enumerate(totals) if x == best)


def play_match(game: Game, *, seed: int = 0, bots: Sequence[Bot] | None = None,
               dealer: int | None = None, max_deals: int = 1000,
               deals: int | None = None, play: Callable[[State], State] | None = None) -> Match:
    """Play a :func:`session` until the game ends.

    The game ends by its ``MatchTarget`` rule (a side reaches the target, or leads by it)
    or after the ``MatchLength`` deals: ``deals`` of them where the players agree on another
    number, a multiple of the rule's ``multiple_of`` (the seats, say, so that every seat
    deals equally often).  ``max_deals`` bounds a match to a target that no side reaches;
    a match of ``deals`` deals plays them all.  The side with the highest total wins
    (``MatchOf``, or the side that reached the ``MatchTarget``); equal totals share the win.
    ``play`` plays each deal in place of the bots (see :func:`session`).

    Raises:
        NotationError: the game states no end of a match, or ``deals`` is a length its
            rules do not allow.
    """
    target = game.constructs(K.MatchTarget)
    length = game.constructs(K.MatchLength)
    if deals is not None:
        check_match_length(game, deals)
    elif not target and not length:
        raise _no_end(game)
    eng = engine_for(game)
    sides = game.table.sides
    totals = [0] * len(sides)
    played: list[State] = []
    history: list[tuple[int, ...]] = []
    most = max_deals if deals is None else deals
    for state in itertools.islice(session(game, seed=seed, bots=bots, dealer=dealer, play=play),
                                  most):
        played.append(state)
        for i, side in enumerate(sides):
            totals[i] += sum(state.scores[s] for s in side) // len(side)  # type: ignore[index]
        history.append(tuple(totals))
        if deals is None and eng.match_over(len(played), max(totals), min(totals)):
            break
    return Match(tuple(played), tuple(sides), tuple(history), highest(totals))


def _no_end(game: Game) -> NotationError:
    return NotationError(f"{game.name} states no end of the game (MatchTarget or MatchLength)")


def check_match_length(game: Game, deals: int) -> None:
    """Refuse a match of ``deals`` deals unless the game's ``MatchLength`` allows it.

    Raises:
        NotationError: the game plays its matches to a target, or not of this length.
    """
    target = game.constructs(K.MatchTarget)
    length = game.constructs(K.MatchLength)
    if not target and not length:
        raise _no_end(game)
    if target:
        raise NotationError(f"{game.name} plays a match to its target "
                            f"({target[0][0].id}), not a number of deals", value=deals)
    rule, body = length[0]
    assert isinstance(body, K.MatchLength)
    if not body.allows(deals):
        whole = (f"a multiple of {body.multiple_of} deals" if body.multiple_of > 1
                 else "one deal or more")
        raise NotationError(f"a match of {game.name} is {whole} ({rule.id}), not {deals}",
                            value=deals)


@dataclass(frozen=True, slots=True)
class PotSession:
    """Deals played for a pot: each deal, and after it every player's chips (won less
    paid in, antes included) and the pot, refilled when the deal left it empty."""

    deals: tuple[State, ...]
    chips: tuple[tuple[int, ...], ...]  # after each deal, one total per player
    pots: tuple[int, ...]  # the pot after each deal, refilled if it was left empty
    refilled: tuple[bool, ...]  # whether the players filled the pot again after the deal
    ante: int

    @property
    def conserved(self) -> bool:
        """Whether the players' chips and the pot always add up to nothing new: what the
        players hold plus the pot is zero after every deal (the antes came from them)."""
        return all(sum(c) + p == 0 for c, p in zip(self.chips, self.pots))

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the most chips at the end (``MatchOf``: the highest total)."""
        return highest(self.chips[-1]) if self.chips else ()


def play_pot_session(game: Game, *, deals: int, seed: int = 0,
                     bots: Sequence[Bot] | None = None, dealer: int | None = None,
                     play: Callable[[State], State] | None = None) -> PotSession:
    """Play ``deals`` deals of a game with a pot, as :func:`session` passes the deal on:
    every player antes before the first deal and again whenever a deal leaves the pot
    empty; each deal is paid from and into the pot as it stands.  ``play`` plays each deal
    in place of the bots (see :func:`session`).

    Raises:
        NotationError: the game keeps no pot.
    """
    eng = engine_for(game)
    body = eng.pot_rule
    if body is None:
        raise NotationError(f"{game.name} keeps no pot: play it with --match", value=game.key)
    n = game.players
    chips = [-body.ante] * n  # type: ignore[attr-defined]
    pot = eng.full_pot
    played: list[State] = []
    history: list[tuple[int, ...]] = []
    pots: list[int] = []
    refilled: list[bool] = []
    # each deal begins with the pot as the deal before left it
    deals_played = session(game, seed=seed, bots=bots, dealer=dealer, pot=lambda: pot, play=play)
    for state in itertools.islice(deals_played, deals):
        scores = state.scores or (0,) * n
        chips = [c + x for c, x in zip(chips, scores)]
        pot -= sum(scores)
        refill = pot == 0
        if refill:  # the pot is empty: every player antes again
            chips = [c - body.ante for c in chips]  # type: ignore[attr-defined]
            pot = eng.full_pot
        played.append(state)
        history.append(tuple(chips))
        pots.append(pot)
        refilled.append(refill)
    return PotSession(tuple(played), tuple(history), tuple(pots), tuple(refilled),
                      body.ante)  # type: ignore[attr-defined]
