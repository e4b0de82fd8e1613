"""A sensible bot: contracts that fit the hands, and cards played as a plain club player plays
them, cheaply enough to play every deal.

The play of the cards is greedy, trick by trick, judged by the strengths and points the rules
give (:meth:`Engine.strength_table`, :meth:`Engine.card_strength`,
:meth:`Engine.card_points`).  A seat whose side wants tricks (or card points):

* leads a card no unplayed card of its suit beats, if it holds one (the one worth most
  points), else the lowest card of its longest suit;
* following, plays its lowest card where its side already wins the trick so far, else the
  lowest card that wins it so far, else its lowest card (its cheapest first, in a game that
  counts card points).

A seat that should take nothing (the declarer of a misère, and the defenders against one, who
want him to take the tricks; both sides once a declarer who wants a count between bounds has
the least of it) leads its lowest card and, following, plays its highest card that does not
win the trick so far, else its lowest (a later seat may still beat it), or its highest when
it plays last to the trick.  The sides and what the declaring side plays for are read as the solver reads them
(:mod:`spec.solver._goal`), from what the seat sees: the table's partnerships, or the
declarer and his partner once the seat knows him.

To call, the bot draws a few deals consistent with what its seat has seen
(:func:`spec.worlds.sample_worlds`), plays each contract it may bid out in them greedily as
above, the seat declaring, and bids the highest bid whose score for the seat, less its
opponents', is positive in every deal drawn, else passes.  Contracts with the same trumps, goal, sides and first leader share one
playout a deal, and a seat's estimates are kept while its hand is unchanged.  Where the rules
need more than the hands to start the play (no contract can be estimated), it calls as the
cautious bot does.  A card to lay aside is the lowest of its longest suit where the card
names the trumps, else the lowest of its shortest suit, as a card to discard is; every other
decision (a choice, an announcement) it leaves to the modest bot.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from spec.dsl._nodes import NO_SUIT, suit_code
from spec.engine import (
    PASS,
    Action,
    Bot,
    Call,
    Declare,
    Discard,
    Engine,
    Lay,
    Phase,
    Play,
    State,
    View,
    low_bidder,
    modest_bot,
)
from spec.errors import SpecError
from spec.solver import Solver
from spec.solver._goal import Goal, goal_of, side_of, tricks_of

WORLDS = 2  # deals drawn to estimate the contracts of one hand
CAUTIOUS_PASS_CHANCE = 7 / 8  # as the cautious bot, where no contract can be estimated

Strength = Callable[[int, int, int], Any]  # (card, named suit code, position) -> strength
Entry = tuple[int, int, int, int]  # a card on the table: (seat, card, named suit code, position)


class _Rules:
    """What the bot reads once from one engine: each card's number and suit, the points of
    each contract, the goals of the contracts, and a solver to set deals up."""

    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        deck = eng.game.deck
        self.number = {c: i for i, c in enumerate(deck)}
        self.suit = tuple(NO_SUIT if c.suit is None else suit_code(c.suit) for c in deck)
        self.suit_mask: dict[int, int] = {}
        for i, u in enumerate(self.suit):
            self.suit_mask[u] = self.suit_mask.get(u, 0) | 1 << i
        self.deck = (1 << len(deck)) - 1
        self.seats = (1 << eng.n) - 1
        self.teams = tuple(sum(1 << k for k in team) for team in eng.game.table.partnerships)
        self.solver = Solver(eng)
        self._points: dict[int, tuple[int, ...]] = {}
        self._options: dict[int, tuple[Play, int, int]] = {}
        self.goals: dict[tuple[int, int, int], Goal] = {}
        self._own: dict[tuple[int, int, int], tuple[Any, ...]] = {}
        self._order: dict[tuple[int, int, int], dict[int, tuple[int, ...]]] = {}
        # (contract, declarer, dealer): the trumps, goal, side and first leader of its play
        self.kinds: dict[tuple[int, int, int], tuple[Any, ...]] = {}

    def option(self, play: Play) -> tuple[int, int]:
        """The card number of ``play`` and the suit it names (``NO_SUIT``: none); the
        engine's plays are kept by identity, the quickest key."""
        found = self._options.get(id(play))
        if found is None or found[0] is not play:
            names = NO_SUIT if play.names is None else suit_code(play.names)
            found = self._options[id(play)] = (play, self.number[play.card], names)
        return found[1], found[2]

    def points(self, contract: int) -> tuple[int, ...]:
        found = self._points.get(contract)
        if found is None:
            found = self._points[contract] = self.eng.card_points(contract)
        return found

    def own(self, trump: int, number: int, contract: int) -> tuple[Any, ...]:
        """Each card's strength when its own suit is led (its rank within its suit), in a
        trick of this number, trumps and contract."""
        key = (trump, number, contract)
        found = self._own.get(key)
        if found is None:
            if len(self._own) > 4096:
                self._own.clear()
            by_suit = {u: self.strengths(u, trump, number, contract) for u in self.suit_mask}
            found = self._own[key] = tuple(by_suit[u](c, NO_SUIT, 0)
                                           for c, u in enumerate(self.suit))
        return found

    def order(self, trump: int, number: int, contract: int) -> dict[int, tuple[int, ...]]:
        """Each suit's cards, strongest first when the suit is led."""
        key = (trump, number, contract)
        found = self._order.get(key)
        if found is None:
            if len(self._order) > 4096:
                self._order.clear()
            own = self.own(trump, number, contract)
            found = self._order[key] = {
                u: tuple(sorted((c for c in range(len(self.suit)) if self.suit[c] == u),
                                key=lambda c: own[c], reverse=True))
                for u in self.suit_mask}
        return found

    def strengths(self, led: int, trump: int, number: int, contract: int) -> Strength:
        """Each card's strength in a trick of this led suit, trumps, number and contract:
        from the engine's table where a card's strength reads no more, else card by card."""
        table = self.eng.strength_table(led, trump, number, contract)
        if table is not None:
            return lambda c, _named, _at: table[c]
        strength = self.eng.card_strength
        return lambda c, named, at: strength(c, named, at, led, trump, number, contract)

    def team_of(self, seat: int) -> int:
        """The seat's partnership (a bit per seat), or the seat alone."""
        return next((t for t in self.teams if t >> seat & 1), 1 << seat)

    def goal(self, s: State, side: int) -> Goal:
        """What the declaring side ``side`` of ``s`` plays for, read once for each contract,
        declarer and side (as if the hands dealt did not change it)."""
        key = (s.contract, s.declarer, side)
        found = self.goals.get(key)
        if found is None:
            found = self.goals[key] = goal_of(self.eng, s, side, tricks_of(self.eng, s))
        return found


def _want(goal: Goal, count: int) -> int:
    """+1 where the seat should take tricks (or points), -1 where it should take none, the
    declaring side having ``count`` so far: the same for both sides, for what one side wants
    the other wants to deny it by the same play (the defenders of a misère, as its declarer,
    take nothing; against a declarer who wants a count between bounds, both sides take
    tricks until he has the least of them, and none after)."""
    if goal.bounded:
        return 1 if count < (goal.low or 0) else -1
    return goal.sign


def choose(rules: _Rules, plays: Sequence[Play], hand: int, trick: Sequence[Entry], at: int,
           last: bool, led: int, trump: int, number: int, contract: int, outstanding: int,
           want: int, mine: int) -> Play:
    """The greedy card among ``plays`` (see the module's docstring): ``trick`` holds the
    cards on the table the seat sees, ``at`` is its position in the trick (``last``: the
    trick's last), ``outstanding`` the cards neither in its hand nor seen played, ``mine``
    its side (a bit per seat) and ``want`` +1 where the side wants tricks, -1 where it wants
    none."""
    options = [rules.option(p) for p in plays]
    if not trick:
        return plays[_lead(rules, options, hand, outstanding, trump, number, contract, want)]
    st = rules.strengths(led, trump, number, contract)
    best: Any = None
    winner = -1
    for seat, c, named, k in trick:  # the first of equals wins
        v = st(c, named, k)
        if best is None or v > best:
            best, winner = v, seat
    pts = rules.points(contract)
    own = rules.own(trump, number, contract)
    keyed = [(st(c, named, at), pts[c], own[c], j) for j, (c, named) in enumerate(options)]
    wins = [k for k in keyed if best is None or k[0] > best]
    if want < 0:
        under = [k for k in keyed if not (best is None or k[0] > best)]
        if under or last:  # the highest that does not win; winning anyway, the highest
            return plays[max(under or keyed)[3]]
        return plays[min(keyed)[3]]  # the lowest, which a later seat may still beat
    if mine >> winner & 1:  # the side wins so far: the lowest card
        return plays[min(keyed)[3]]
    if wins:
        return plays[min(wins)[3]]
    return plays[min((p, s, o, j) for s, p, o, j in keyed)[3]]  # the cheapest card


def _lead(rules: _Rules, options: Sequence[tuple[int, int]], hand: int, outstanding: int,
          trump: int, number: int, contract: int, want: int) -> int:
    """The option to lead: the lowest card where the side wants nothing; else a card no
    outstanding card of its suit (or of none, a joker) beats, the one worth most points,
    from the longest suit; else the lowest card of the longest suit."""
    own = rules.own(trump, number, contract)
    pts = rules.points(contract)
    if want < 0:
        return min(range(len(options)), key=lambda j: (own[options[j][0]], pts[options[j][0]], j))
    length = {u: (hand & m).bit_count() for u, m in rules.suit_mask.items()}
    jokers = rules.suit_mask.get(NO_SUIT, 0) & outstanding
    order = rules.order(trump, number, contract)
    top: dict[int, int] = {}  # per suit, its strongest card not played (-1: none outside)
    tops = []
    for j, (c, _named) in enumerate(options):
        u = rules.suit[c]
        if u == NO_SUIT:
            continue
        if u not in top:
            top[u] = next((x for x in order[u] if (outstanding | hand) >> x & 1), -1)
            if jokers and top[u] >= 0:  # an outstanding joker may beat it
                st = rules.strengths(u, trump, number, contract)
                rest = jokers
                while rest:
                    x = (rest & -rest).bit_length() - 1
                    rest &= rest - 1
                    if st(x, NO_SUIT, 1) > own[top[u]]:
                        top[u] = x
        if top[u] >= 0 and hand >> top[u] & 1 and own[c] >= own[top[u]]:
            tops.append(j)
    if tops:
        return max(tops, key=lambda j: (pts[options[j][0]], length[rules.suit[options[j][0]]], -j))
    return min(range(len(options)), key=lambda j: (-length[rules.suit[options[j][0]]],
                                                   -rules.suit[options[j][0]],
                                                   own[options[j][0]], j))


def playout(rules: _Rules, s: State, side: int, goal: Goal, rng: random.Random) -> State:
    """The deal played greedily to its end from ``s``, a position of the play in a deal
    whose every hand is known (a deal drawn for the seat), ``side`` declaring for
    ``goal``; an announcement only when nothing else is legal, and whatever follows the
    play (a decision the rules ask for after it) at random from ``rng``."""
    eng = rules.eng
    mines = [side if side >> k & 1 else rules.team_of(k) if rules.teams else rules.seats & ~side
             for k in range(eng.n)]
    want = _want(goal, 0)
    while s.phase is Phase.PLAY:
        acts = eng.legal_actions(s)
        plays = acts if isinstance(acts[-1], Play) else [a for a in acts if isinstance(a, Play)]
        if len(plays) <= 1:
            s = eng.apply(s, (plays or acts)[0])
            continue
        seat = s.turn
        seats = (eng.trick_seats(s.leader, s.out) if not s.absent
                 else eng.seats_among(s.leader, s.absent))
        trick = [(seats[k], c, d, k) for k, (c, d) in enumerate(s.trick)]
        outstanding = 0
        for h in s.hands:
            outstanding |= h
        hand = s.hands[seat]
        if goal.bounded:
            want = _want(goal, sum(s.won[k].bit_count() for k in range(eng.n) if side >> k & 1))
        s = eng.apply(s, choose(rules, plays, hand, trick, len(trick),  # type: ignore[arg-type]
                                len(trick) == len(seats) - 1, s.led_suit, s.trump,
                                s.trick_number, s.contract, outstanding & ~hand, want,
                                mines[seat]))
    if s.phase is not Phase.OVER:
        s = eng.random_playout(s, rng)
    return s


class _Hand:
    """A seat's estimates for one hand: the deals drawn, the playouts (by deal, trumps,
    goal, sides and first leader) and each contract's mean score (None: not estimated)."""

    def __init__(self, key: tuple[Any, ...], worlds: Sequence[Any]) -> None:
        self.key = key
        self.worlds = worlds
        self.ends: dict[tuple[Any, ...], State | None] = {}
        self.means: dict[int, float | None] = {}


def sensible_bot(*, worlds: int = WORLDS) -> Bot:
    """A sensible bot, ``worlds`` deals drawn to estimate the contracts of a hand (see the
    module's docstring)."""
    from spec.worlds import sample_worlds

    known: dict[int, _Rules] = {}
    hands: dict[int, _Hand] = {}  # by seat: the estimates for its hand now
    cautious = low_bidder(CAUTIOUS_PASS_CHANCE)

    def rules_for(eng: Engine) -> _Rules:
        found = known.get(id(eng))
        if found is None or found.eng is not eng:
            found = known[id(eng)] = _Rules(eng)
        return found

    def hand_for(view: View, seed: int) -> _Hand:
        key = (id(view._state.engine), view.dealer, view.hand.mask, view.aside.mask,
               view.turn_up)
        found = hands.get(view.seat)
        if found is None or found.key != key:
            found = hands[view.seat] = _Hand(key, sample_worlds(view, worlds, seed))
        return found

    def bot(view: View, rng: random.Random) -> Action:
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        rules = rules_for(view._state.engine)  # read for its engine; the rest from the view
        plays = [a for a in actions if isinstance(a, Play)]
        try:
            if plays and view.phase is Phase.PLAY:
                return _play_card(rules, view, plays)
            calls = [a for a in actions if isinstance(a, Call)]
            if calls and all(isinstance(a, Call | Declare) for a in actions):  # announcements aside
                seed = int(rng.random() * (1 << 32))
                found = _best_call(rules, view, calls, hand_for(view, seed))
                return found if found is not None else cautious(view, rng)
            if all(isinstance(a, Lay | Discard) for a in actions):
                return _set_aside(rules, view, actions)
        except SpecError:  # a position the bot cannot read: as the modest bot
            pass
        return modest_bot(view, rng)

    bot.__name__ = "sensible_bot"
    return bot


def _play_card(rules: _Rules, view: View, plays: Sequence[Play]) -> Play:
    """The greedy card for the seat of ``view``, from what it sees: its hand, the cards
    played face up, the trumps if it knows them, and the sides it knows."""
    s = view._state  # read for what every seat sees: the contract, the declarer, the led suit
    seat = view.seat
    trump = NO_SUIT if view.trump is None else suit_code(view.trump)
    played = 0
    for _n, cards, _w in view.tricks:
        for _seat, c in cards:
            if c is not None:
                played |= 1 << c
    current = view.current_trick
    trick = []
    for k, (who, c) in enumerate(current):
        if c is not None:
            played |= 1 << c
            trick.append((who, c, s.trick[k][1], k))
    hand = view.hand.mask
    outstanding = rules.deck & ~(hand | played | view.aside.mask | view.discards.mask)
    if s.declarer < 0:  # nobody declares: each side takes what it can
        mine, want = rules.team_of(seat), 1
    else:
        side = rules.team_of(s.declarer)
        partner = view.partner
        if not rules.teams and partner is not None and partner >= 0:
            side |= 1 << partner
        declaring = bool(side >> seat & 1)
        mine = side if declaring else (rules.team_of(seat) if rules.teams else rules.seats & ~side)
        count = sum(1 for _n, _c, w in view.tricks if side >> w & 1)
        want = _want(_goal_seen(rules, view, side), count)
    eng = rules.eng
    seats = (eng.trick_seats(s.leader, s.out) if not s.absent
             else eng.seats_among(s.leader, s.absent))
    return choose(rules, plays, hand, trick, len(current), len(current) == len(seats) - 1,
                  s.led_suit, trump, s.trick_number, s.contract, outstanding, want, mine)


def _goal_seen(rules: _Rules, view: View, side: int) -> Goal:
    """What the declaring side ``side`` plays for, read from a deal drawn for the seat (the
    same for every seat that sees this contract, declarer and side; more tricks where the
    rules give no single goal)."""
    from spec.worlds import sample_worlds

    s = view._state
    key = (s.contract, s.declarer, side)
    found = rules.goals.get(key)
    if found is None:
        try:
            world = sample_worlds(view, 1, 0)[0].state
            found = goal_of(rules.eng, world, side, tricks_of(rules.eng, world))
        except SpecError:
            found = Goal()
        rules.goals[key] = found
    return found


def _best_call(rules: _Rules, view: View, calls: Sequence[Call], hand: _Hand) -> Call | None:
    """The highest bid whose estimated score for the seat is positive, else a pass (or
    the lowest call, where passing is not legal); None where no bid could be estimated."""
    game = rules.eng.game
    bids = sorted((c for c in calls if c.bid is not None),
                  key=lambda c: -game.bid_keys[game.ladder.index(c.bid)])  # type: ignore[arg-type]
    estimated = False
    for call in bids:
        contract = game.ladder.index(call.bid)  # type: ignore[arg-type]
        if contract not in hand.means:
            hand.means[contract] = _estimate(rules, hand, contract, view.seat)
        mean = hand.means[contract]
        if mean is None:
            continue
        estimated = True
        if mean > 0:
            return call
    if bids and not estimated:
        return None
    return PASS if PASS in calls else min(calls, key=lambda c: 0 if c.bid is None else
                                          game.bid_keys[game.ladder.index(c.bid)])


def _estimate(rules: _Rules, hand: _Hand, contract: int, seat: int) -> float | None:
    """The seat's score for ``contract`` declared by it, less its opponents', in the worst
    of the deals drawn, each played out greedily; None where the rules need more than the
    hands to start the play.

    The worst, not the mean: the highest of many noisy estimates is the most flattering,
    and a bid made on the mean of two deals fails too often (half its contracts, in a game of 13-card hands).
    Only its sign is read, so the deals after the first that scores nothing are not played.

    Contracts with the same trumps, goal, sides and first leader (as the first deal set up
    for the contract has them) share one playout a deal: each is scored by the rules from the tricks (and
    cards) that playout's sides took."""
    eng = rules.eng
    worst: float | None = None
    kinds = rules.kinds
    for k, world in enumerate(hand.worlds):
        dealer = world.state.dealer
        kind = kinds.get((contract, seat, dealer))
        if kind is None or (k, *kind) not in hand.ends:
            try:
                start = rules.solver.start(world.dealt, contract=contract, declarer=seat,
                                           dealer=dealer, turn_up=world.turn_up)
                side = side_of(eng, start)
                goal = rules.goal(start, side)
            except SpecError:  # the rules need more than the hands: no estimate
                return None
            if kind is None:
                kind = kinds[(contract, seat, dealer)] = (start.trump, goal, side, start.leader)
            if (k, *kind) not in hand.ends:
                try:
                    hand.ends[(k, *kind)] = playout(rules, start, side, goal, random.Random(k))
                except SpecError:
                    hand.ends[(k, *kind)] = None
        end = hand.ends[(k, *kind)]
        if end is None or end.scores is None:
            continue
        scores = end.scores if end.contract == contract else eng.score_outcome(
            contract=contract, declarer=seat, winners=[r.winner for r in end.tricks],
            dealer=end.dealer, taken=end.taken, dealt=end.dealt, turn_up=end.turn_up,
            idle=end.idle, dropped=end.dropped)
        net = _net(rules, scores, seat)
        worst = net if worst is None else min(worst, net)
        if worst <= 0:  # not positive in every deal: the others need not be played
            break
    return worst


def _net(rules: _Rules, scores: Sequence[int], seat: int) -> float:
    """The seat's score less the mean of its opponents' (the seats outside its
    partnership): where the rules write only what each side gains (a rubber's points), a
    contract that gives the other side more scores below nothing."""
    team = rules.team_of(seat)
    others = [scores[k] for k in range(len(scores)) if not team >> k & 1]
    return scores[seat] - (sum(others) / len(others) if others else 0)


def _set_aside(rules: _Rules, view: View, actions: Sequence[Action]) -> Action:
    """A card to lay aside or discard: the lowest of the longest suit where a card laid
    aside names the trumps, else the lowest of the shortest suit."""
    s = view._state
    hand = view.hand.mask
    length = {u: (hand & m).bit_count() for u, m in rules.suit_mask.items()}
    own = rules.own(NO_SUIT, s.trick_number, max(s.contract, 0))
    longest = rules.eng.trump_from_aside and all(isinstance(a, Lay) for a in actions)

    def key(j: int) -> tuple[Any, ...]:
        c = rules.number[actions[j].card]  # type: ignore[union-attr]
        n = length[rules.suit[c]]
        return (-n if longest else n, own[c], j)

    return actions[min(range(len(actions)), key=key)]
