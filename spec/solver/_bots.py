"""A bot that thinks: hidden hands drawn from its view, each world solved double dummy.

Perfect-information Monte Carlo (PIMC): to play a card, the bot draws deals consistent with
all it has seen (:func:`spec.worlds.sample_worlds`), solves each with every hand open, and
plays the card worth most to its side on average.  To call, it estimates each contract it
may bid by the declaring side's double-dummy value in such deals, and bids the highest whose
estimated score is positive, else passes.  Everything else (a card to lay aside, a choice, an
announcement) it leaves to the modest bot.

Searches carry a budget of nodes.  Where the first world drawn runs out of budget, the
position is too large for the budget and the bot plays as the modest bot would, without
searching the other worlds (they are as large); a later world that runs out counts for no
card.  A contract whose search runs out of budget in one world is estimated in none (its
deals are as long in every world, and the worlds that answered are too few to go on), so
the bot calls as the modest bot would where no contract can be estimated.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from spec.engine import PASS, Action, Bot, Call, Phase, Play, State, View, modest_bot
from spec.solver import Solved, Solver
from spec.errors import SpecError
from spec.solver._goal import Goal, tricks_of

WORLDS = 8  # deals drawn for each decision
BUDGET = 20_000  # nodes for each world's search
_TOO_LARGE = object()  # a contract out of budget in some world: no estimate


def thinking_bot(*, worlds: int = WORLDS, budget: int = BUDGET) -> Bot:
    """A PIMC bot: ``worlds`` deals drawn for each decision, each searched with at most
    ``budget`` nodes (see the module's docstring)."""
    from spec.worlds import sample_worlds

    solvers: dict[int, Solver] = {}

    def solver_for(state: State) -> Solver:
        found = solvers.get(id(state.engine))
        if found is None or found.engine is not state.engine:
            found = solvers[id(state.engine)] = Solver(state.engine, budget=budget)
        return found

    def bot(view: View, rng: random.Random) -> Action:
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        state = view._state  # read for its engine and phase only; the worlds read the view
        plays = [a for a in actions if isinstance(a, Play)]
        seed = int(rng.random() * (1 << 32))
        if plays and state.phase is Phase.PLAY:
            found = _best_card(solver_for(state), view, plays, sample_worlds(view, worlds, seed),
                               budget)
            return found if found is not None else modest_bot(view, rng)
        calls = [a for a in actions if isinstance(a, Call)]
        if calls and len(calls) == len(actions):
            return _best_call(solver_for(state), view, calls, sample_worlds(view, worlds, seed),
                              budget, rng)
        return modest_bot(view, rng)

    bot.__name__ = "thinking_bot"
    return bot


def _best_card(solver: Solver, view: View, plays: Sequence[Play], drawn: Sequence[Any],
               budget: int) -> Play | None:
    """The card worth most to the seat's side, summed over the worlds that answered."""
    seat = view.seat
    totals: dict[Play, int] = {}
    answered: dict[Play, int] = {}
    for k, world in enumerate(drawn):
        s = world.state
        try:
            search = solver.search(s, budget)
        except SpecError:  # a position the solver does not read: no world answers
            return None
        mine = search.side >> seat & 1
        values = solver.card_values(s, budget=budget)
        if not k and all(v is None for _a, v in values):  # too large for the budget
            return None
        for a, v in values:
            if v is None or a not in plays:
                continue
            u = v if search.goal.bounded else v * search.goal.sign
            totals[a] = totals.get(a, 0) + (u if mine else -u)
            answered[a] = answered.get(a, 0) + 1
    full = [a for a in plays if answered.get(a) == max(answered.values(), default=0) and a in totals]
    if not full:
        return None
    return max(full, key=lambda a: (totals[a], -plays.index(a)))


def _best_call(solver: Solver, view: View, calls: Sequence[Call], drawn: Sequence[Any],
               budget: int, rng: random.Random) -> Call:
    """The highest bid whose estimated score for the seat is positive, else a pass: each
    bid's contract played from the worlds' hands, the seat declaring, solved double dummy,
    and scored by the rules as if the side took what the solver says."""
    eng = solver.engine
    game = eng.game
    seat = view.seat
    bids = sorted((c for c in calls if c.bid is not None),
                  key=lambda c: -game.bid_keys[game.ladder.index(c.bid)])  # type: ignore[arg-type]
    estimated = False
    solved: dict[tuple[int, int, Goal], Solved] = {}  # (world, trumps, goal): the start's
    too_large: set[tuple[int, Goal]] = set()  # trumps and goals out of budget in a world
    for call in bids:
        contract = game.ladder.index(call.bid)  # type: ignore[arg-type]
        total = counted = 0
        for k, world in enumerate(drawn):
            score = _estimate(solver, world, k, contract, seat, budget, solved, too_large)
            if score is _TOO_LARGE:  # no estimate from any world
                total = counted = 0
                break
            if score is not None:
                total += score  # type: ignore[operator]
                counted += 1
        estimated = estimated or counted > 0
        if counted and total > 0:
            return call
    if not estimated and bids:  # no contract could be estimated: call as the modest bot
        return modest_bot(view, rng)  # type: ignore[return-value]
    return PASS if PASS in calls else min(calls, key=lambda c: 0 if c.bid is None else
                                          game.bid_keys[game.ladder.index(c.bid)])


def _estimate(solver: Solver, world: Any, k: int, contract: int, seat: int, budget: int,
              solved: dict[tuple[int, int, Goal], Solved], too_large: set[tuple[int, Goal]]
              ) -> int | object | None:
    """The seat's score for ``contract`` declared by it in the world's deal, taking the
    tricks (or points) the solver gives its side from the hands as dealt; None where the
    rules need more than the hands to start the play; ``_TOO_LARGE`` where the search ran
    out of budget, in this world or another (its deals are as long in every world: the
    contract is estimated in none).

    Contracts with the same trumps and the same goal are solved once per world (``solved``,
    by the world's number ``k``): an estimate, where a contract's own rules of play are
    taken to be its trumps'."""
    dealer = world.state.dealer
    try:
        start = solver.start(world.dealt, contract=contract, declarer=seat, dealer=dealer,
                             turn_up=world.turn_up)
        search = solver.search(start, budget)
    except SpecError:  # the rules need more than the hands: no estimate
        return None
    kind = (start.trump, search.goal)
    if kind in too_large:
        return _TOO_LARGE
    key = (k, *kind)
    found = solved.get(key)
    if found is None:
        found = solved[key] = solver.solve(start, budget=budget)
    if found.value is None:
        too_large.add(kind)
        return _TOO_LARGE
    return _score(solver, start, found, contract, seat)


def _score(solver: Solver, start: State, solved: Solved, contract: int, seat: int) -> int:
    """The seat's score where its side ends the deal of ``start`` with the value solved: the
    tricks, or, in a game that counts card points, cards worth them taken with tricks in
    proportion, short of every trick (which some rules score apart, as a slam)."""
    eng = solver.engine
    dealer = start.dealer
    goal = solved.goal
    tricks = tricks_of(eng, start)
    opp = next(k for k in range(eng.n) if not solved.side >> k & 1)
    taken = None
    if goal.bounded:
        won = goal.low if solved.value else (goal.high or 0) + 1  # type: ignore[operator]
    elif solver.unit == "tricks":
        won = solved.value
    else:  # card points: the declarer takes cards worth them, the cheapest trick-worths
        points = eng.card_points(contract)
        mine = 0
        got = 0
        for c in sorted(range(len(points)), key=lambda c: -points[c]):
            if got >= solved.value:
                break
            mine |= 1 << c
            got += points[c]
        everything = (1 << len(points)) - 1
        taken = [0] * eng.n
        taken[seat], taken[opp] = mine, everything & ~mine
        won = min(tricks - 1, round(tricks * solved.value / max(1, sum(points))))
    won = max(0, min(tricks, won))  # type: ignore[type-var]
    winners = [seat] * won + [opp] * (tricks - won)
    scores = eng.score_outcome(contract=contract, declarer=seat, winners=winners,
                               dealer=dealer, dealt=start.dealt, taken=taken)
    return scores[seat]
