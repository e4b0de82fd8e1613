"""Positions of the play for the solver's tests, and a brute-force oracle to judge it by.

Positions come from plain seeds: a deal dealt by ``new_deal``, an auction bid by random bots
steered towards a bid of the ladder (so that every contract of a game is reached, not only
the ones random bidding favours), and the play walked down by random legal cards (plays
before announcements, and cards that keep the play going before those that end it) to a
few cards a hand and, where asked, a few cards into a trick.

The oracle is plain minimax over the engine's legal actions, written from the solver's
definition of a value and nothing of its search: each seat of the declaring side picks the
best action for it, each other seat the worst; plays only where any card may be played; the
deal's end (the play of the cards over) scores the side's points, its card points in a
game that counts them and its tricks otherwise; where the side wants a count between bounds
the value is 1 if it ends between them, else 0.  Which seats make the side, and what they
play for, are read as the solver reads them (:func:`~spec.solver._goal.side_of`,
:func:`~spec.solver._goal.goal_of`).
"""
from __future__ import annotations

import random
from collections.abc import Callable

from spec.dsl._build import Game
from spec.engine import (
    PASS,
    Action,
    Call,
    Phase,
    Play,
    State,
    apply,
    engine_for,
    legal_actions,
    new_deal,
)
from spec.errors import NotationError
from spec.solver._goal import goal_of, side_of, tricks_of

# actions an auction may take before it is given up (a deal thrown in and dealt again,
# again and again, is left out, not waited for)
MOST_ACTIONS = 2_000


def forms(game: Game) -> list[Game]:
    """The game and each variant of it that can be played alone."""
    out = [game]
    for v in game.variants:
        if v.not_decidable:
            continue
        try:
            out.append(game.with_variants(v.id))
        except NotationError:
            continue
    return out


def name(game: Game) -> str:
    return "+".join((game.key, *game.active_variants))


def _call(acts: tuple[Action, ...], ladder: tuple[object, ...], target: int, aiming: str,
          rng: random.Random) -> Action:
    """A steered bot's action before the play: the target bid where it may be called (most
    times); a seat aiming at it, often a lower bid on the way (``aiming``: "any" one, "step"
    the lowest, "" none); else a pass or any action at random, but no bid above the target
    where something else is legal."""
    calls = {ladder.index(a.bid): a for a in acts if isinstance(a, Call) and a.bid is not None}
    if target in calls and rng.random() < 0.9:
        return calls[target]
    below = [k for k in calls if k < target]
    if aiming and below and rng.random() < 0.6:
        return calls[min(below) if aiming == "step" else below[int(rng.random() * len(below))]]
    if PASS in acts and rng.random() < (0.6 if aiming else 0.85):
        return PASS
    pool = tuple(a for a in acts if not (isinstance(a, Call) and a.bid is not None
                                         and ladder.index(a.bid) > target)) or acts
    return pool[int(rng.random() * len(pool))]


def to_play(game: Game, seed: int) -> tuple[State, random.Random] | None:
    """The first position of the play of the deal of ``seed``, and the generator the walk
    goes on with; None where the deal ends, or is thrown in too often, before the play.

    The auction's bots aim at one bid of the ladder, the seed's in turn (random bidding
    alone reaches the highest bids of a long auction and seldom the rest).  Every other
    round of the ladder all of them climb to it by lower bids; in the rounds between, only
    the first seat to call does, a step at a time (where a bid stands only over one's own
    lower bid that the others let stand, say), and the others mostly pass.  Nobody bids
    above it while anything else is legal."""
    eng = engine_for(game)
    rng = random.Random(seed)
    ladder = tuple(eng.ladder)
    target = seed % len(ladder)
    everyone = seed // len(ladder) % 2 == 0
    s = new_deal(game, seed=seed)
    aimer = s.turn
    for _ in range(MOST_ACTIONS):
        if s.phase is Phase.PLAY:
            return s, rng
        if s.phase is Phase.OVER:
            return None
        aiming = "any" if everyone else "step" if s.turn == aimer else ""
        s = apply(s, _call(legal_actions(s), ladder, target, aiming, rng))
    return None


def in_play(s: State) -> list[int]:
    """The seats that play to the tricks: neither out of the deal nor sitting it out."""
    return [k for k in range(len(s.hands)) if not s.absent >> k & 1 and k != s.out]


def held(s: State) -> int:
    """The most cards any seat in play still holds."""
    return max((s.hands[k].bit_count() for k in in_play(s)), default=0)


def walk_down(s: State, rng: random.Random, cards: int, into_trick: int) -> State | None:
    """The position the play of ``s`` reaches, random legal cards played (plays before any
    announcement, and of those the ones that do not end the play where there are any: a
    contract that ends at its first lost trick gets to its last cards too), once no seat
    in play holds more than ``cards`` cards and ``into_trick`` cards lie on the trick; None
    where the play ends first."""
    while s.phase is Phase.PLAY:
        if held(s) <= cards and len(s.trick) >= into_trick:
            return s
        options = moves(s)
        going = [u for _a, u in options if u.phase is s.phase] or [u for _a, u in options]
        s = going[int(rng.random() * len(going))]
    return None


def position(game: Game, seed: int, cards: int, into_trick: int) -> State | None:
    """The position of ``seed`` with at most ``cards`` cards a hand and ``into_trick`` cards
    on the trick (see :func:`to_play`, :func:`walk_down`), or None."""
    start = to_play(game, seed)
    if start is None:
        return None
    return walk_down(*start, cards, into_trick)


# -- the oracle -------------------------------------------------------------------------------

def side_points(s: State) -> Callable[[State], int]:
    """What the declaring side of ``s`` has taken in a state of its deal: its card points,
    in a game that counts them, else its tricks."""
    eng = s.engine
    side = side_of(eng, s)
    seats = [k for k in range(eng.n) if side >> k & 1]
    if any(eng.card_points(s.contract)):
        return lambda t: sum(eng.points(t, k) for k in seats)
    return lambda t: sum(t.won[k].bit_count() for k in seats)


def moves(t: State) -> list[tuple[Action, State]]:
    """The moves of ``t`` (its plays, where any card may be played, else every legal
    action), each with the state it leads to."""
    # each action applied straight after it is listed: the engine applies it unchecked
    kids = [(a, apply(t, a)) for a in legal_actions(t)]
    return [(a, u) for a, u in kids if isinstance(a, Play)] or kids


def ends_of(s: State) -> set[tuple[int, int]]:
    """Every end of the play that ``s`` can still reach: the declaring side's points and the
    declarer's score there."""
    points = side_points(s)
    out = set()
    todo = [s]
    while todo:
        t = todo.pop()
        if t.phase is not s.phase:
            out.add((points(t), t.scores[s.declarer] if t.scores else 0))
        else:
            todo.extend(u for _a, u in moves(t))
    return out


def oracle(s: State) -> tuple[int, tuple[tuple[Action, int], ...]]:
    """The value of ``s`` for its declaring side by full minimax (see the module's
    docstring), and the value of the position each legal action leads to (an announcement
    as well as a card)."""
    eng = s.engine
    side = side_of(eng, s)
    goal = goal_of(eng, s, side, tricks_of(eng, s))
    points = side_points(s)
    wants_more = goal.bounded or goal.sign > 0
    phase = s.phase

    def pick(t: State, values: list[tuple[Action, int]]) -> int:
        """The seat to act's choice: among the plays where there are any."""
        options = [v for a, v in values if isinstance(a, Play)] or [v for _a, v in values]
        return max(options) if (side >> t.turn & 1) == wants_more else min(options)

    def value(t: State) -> int:
        if t.phase is not phase:
            p = points(t)
            if goal.bounded:
                return int(goal.low <= p <= goal.high)  # type: ignore[operator]
            return p
        return pick(t, [(a, value(u)) for a, u in moves(t)])

    # every legal action of ``s``, announcements too: the solver values each
    each = [(a, value(apply(s, a))) for a in legal_actions(s)]
    return pick(s, each), tuple(each)


def two_deals_a_seat_sees_alike(game: Game, seed: int) -> tuple[State, State, int]:
    """A deal played by modest bots into its second trick, another deal its seat to act
    cannot tell from it (drawn from its view), and that seat: the test that a bot acts on
    its view alone."""
    from spec.engine import modest_bot
    from spec.worlds import sample_worlds

    s, rng = new_deal(game, seed=seed), random.Random(seed)
    while s.phase is not Phase.PLAY or s.trick_number < 2 or not s.trick:
        assert s.phase is not Phase.OVER, "the deal ended before its second trick"
        s = apply(s, modest_bot(s.view(s.turn), rng))
    seat = s.turn
    other = sample_worlds(s.view(seat), 1, seed=7)[0].state
    assert other.hands != s.hands and other.hands[seat] == s.hands[seat]
    return s, other, seat
