"""The symbolic deal that scenarios and the proofs about whole deals solve for.

One deal unrolled in Z3 from the compiled rules: the owner of each card, what the
auction settles for the play (contract, declarer, trumps, cards aside, who declares and
who partners whom), the phases between the auction and the play, and every trick, card
by card, each card legal by the game's play rules for the hand that plays it, each trick
won as the game's winning rules say.  :meth:`Unrolled.auction` adds an auction of a given
number of calls that leads to that contract; :meth:`Unrolled.history` is the environment a
condition about the whole deal is judged in.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import z3

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game
from spec.dsl._nodes import (
    NO_SUIT,
    CallerOf,
    Ctx,
    DealtHand,
    Dropped,
    Expr,
    Idle,
    Invited,
    IsDeclarer,
    LeaderOf,
    LedTo,
    PlayedTo,
    Ref,
    Scope,
    Taken,
    WinnerOf,
    WonTrick,
)
from spec.dsl._program import PhaseKind
from spec.dsl._steps import Stated, Step, option_does
from spec.dsl._visitor import UnsupportedNodeError
from spec.engine import CARD_ACTIONS, Declare, engine_for
from spec.errors import NotationError
from spec.seats import seat_after, seats_from
from verifier._prove.unrolling import auction_steps
from verifier._z3.compile import Z3Compiler
from verifier._z3.encoding import (
    beating_of,
    beating_term,
    not_beaten_by,
    partner_named,
    reads_beating,
    strength_table,
    tracked_initial,
    turn_up_holder,
)
from verifier._z3.solver import Solving
from verifier._z3.steps import Lazy, StepEncoder, Symbolic
from verifier.deals import _Owners

# the value a model gives a term (a number, or yes or no)
Value = Callable[[Any], Any]
# a step's actions, as the model read by a Value gives them
Replay = Callable[[Value], list[Any]]

__all__ = ["Unrolled"]


class _SeatsOut:
    """The seats out of the play (a seat sitting out, the seat idle for the deal, the
    defenders who dropped out), as a Boolean per seat; and the positions of a trick as
    tables over its leader and the set of seats out, rather than arithmetic modulo the
    number of seats."""

    def __init__(self, u: Unrolled, out: Any, sits: bool) -> None:
        enc, n = u.enc, u.n
        self.enc = enc
        self.absent = [z3.Or(out == s, u.dropped[s], enc.bool(u.idle == s)) for s in range(n)]
        self.varies = varies = sits or u.idle >= 0 or u.drop_out is not None
        # the sets of seats out that can occur (a seat idle for the deal, at most one
        # sitting out, any defenders dropped out), less the set of every seat: a table over
        # them is as small as the game allows
        idle_bit = 1 << u.idle if u.idle >= 0 else 0
        outs = [0, *(1 << s for s in range(n))] if sits else [0]
        drops = range(2 ** n) if u.drop_out is not None else [0]
        self.masks = (sorted({idle_bit | o | d for o in outs for d in drops} - {2 ** n - 1})
                      if varies else [0])
        self.mask = z3.Sum([z3.If(a, enc.int(1 << s), enc.int(0))
                            for s, a in enumerate(self.absent)])
        self.n = n
        self.size: Any = None  # the number of seats in the play: see count()

    def count(self) -> None:
        """Count the seats in the play (``size``)."""
        enc, n = self.enc, self.n
        self.size = (enc.int(n) - z3.Sum([z3.If(a, enc.int(1), enc.int(0)) for a in self.absent])
                     if self.varies else enc.int(n))

    def by_leader(self, leader: Any, table: Any) -> Any:
        """A value chosen by the trick's leader and the seats out: ``table(leader, out)``."""
        enc = self.enc
        per_out = [enc.select(leader, [table(x, m) for x in range(self.n)]) for m in self.masks]
        return enc.select(self.mask, per_out, keys=self.masks) if self.varies else per_out[0]


class Unrolled:
    """One symbolic deal: the owner of each card, every trick of the play, and the history
    a scenario reads; :meth:`auction` adds an auction that leads to the play's contract.

    Each seat has a card in each trick (so no hand depends on who led); the order of play,
    a seat sitting out, announcements and the tracked values they change follow the
    positions in the trick, tables over the leader.  What the auction decides for the play
    (contract, declarer, trumps named by a card laid aside, the cards aside) are variables
    that :meth:`auction` ties to its calls.
    """

    # long: the deal unrolled in the order its Z3 terms must be made (the solver's search
    # depends on it)
    def __init__(self, game: Game, solving: Solving, dealer: int) -> None:
        self.game, self.solving, self.dealer = game, solving, dealer
        self.owners = _Owners(game, solving, dealer)
        self.enc = enc = self.owners.enc
        self.eng = eng = engine_for(game)
        n = self.n = game.players
        self.facts: list[Any] = list(self.owners.facts)
        self.contract = enc.int_var("contract")
        self.declarer = enc.int_var("declarer")
        self.facts += [enc.bid_in_ladder(self.contract), self.declarer >= 0, self.declarer < n]
        # the seat the auction leaves declaring, and the seats that joined his bid: where a
        # choice after the auction leaves one of them the declarer, it may be another
        self.bidder: Any = self.declarer
        self.joined: list[Any] = [enc.bool(False)] * n
        if game.program.contest:
            self.bidder = enc.int_var("bidder")
            self.joined = [enc.bool_var(f"joined_{s}") for s in range(n)]
            self.facts += [self.bidder >= 0, self.bidder < n]
        if eng.trump_from_aside:
            self.trump: Any = enc.int_var("trump")
        else:
            self.trump = enc.bid_strain(self.contract)
        dealt = self.owners.hands
        self.set_aside = {p.stage: (game.rule(p.opened_by), p.body)
                          for p in game.program.phases_of(PhaseKind.SET_ASIDE)}
        self.aside0 = ([enc.cards_var(f"aside_{s}") for s in range(n)] if self.set_aside
                       else [enc.bv(0)] * n)
        self.tracked0 = {("tracked", name): self._initial(t) for name, t in game.tracked.items()}
        # who is out of the play: the seat idle for the deal (the engine's), the defenders
        # who drop out and the guest invited back (the drop-out phase sets them)
        self.idle = eng.idle_seat(dealer)
        self.dropped: list[Any] = [enc.bool(False)] * n
        self.invited: list[Any] = [enc.bool(False)] * n
        self.all_out: Any = enc.bool(False)
        self.drop_out: tuple[Any, Any, list[Any], Any] | None = None
        # play rules that read the cards that would win the trick make the search hard:
        # each card's legality is a fact guarded by its own literal, assumed when needed,
        # and ``relaxed`` (assumed only while searching) stands in for those not yet
        self.exact: list[tuple[Any, Any]] = []
        self.relaxed = enc.bool_var("relaxed")
        base = {Ctx.DEALER: enc.int(dealer), Ctx.CONTRACT: self.contract,
                Ctx.DECLARER: self.declarer, Ctx.TRUMP: self.trump,
                DealtHand: lambda seat: enc.select(seat, dealt),
                Idle: lambda seat: seat == self.idle,
                Dropped: lambda seat: enc.select(seat, self.dropped),
                Invited: lambda seat: enc.select(seat, self.invited)}
        # a pot carried from deal to deal: any pot a deal may begin with, a whole number
        # of units of its granularity (as the outcome situation has it)
        self.pot: Any = None
        for _r, pot_rule in game.constructs(K.Pot):
            units = enc.int_var("pot_units")
            self.facts.append(units >= 1)
            self.pot = base[Ctx.POT] = pot_rule.granularity * units  # type: ignore[attr-defined]
        # the card dealt face up: any card of the hand it is dealt to (the dealer is known)
        self.turn_up: Any = None
        if game.program.turn_up is not None:
            self.turn_up = base[Ctx.TURN_UP] = enc.cards_var("turn_up")
            holder = z3.simplify(turn_up_holder(enc, enc.int(dealer)))
            self.facts += [enc.one_hot(self.turn_up),
                           self.turn_up & ~enc.select(holder, dealt) == 0]
        # who declares and who partners the declarer, as the engine settles them when the
        # auction ends: the seats that joined his bid declare with him; the seat that
        # accepted it is his partner, else the seat the partner rule names (he himself
        # without one); :meth:`auction` ties the joins and the acceptance to the calls
        program = game.program
        self.declares = [enc.bool_var(f"declares_{s}") for s in range(n)]
        self.facts += [z3.Implies(self.declarer == s, d) for s, d in enumerate(self.declares)]
        if not program.several_declarers:
            self.facts += [d == (self.declarer == s) for s, d in enumerate(self.declares)]
        self.partner = enc.int_var("partner")
        self.accepter: Any = enc.int(-1)
        if program.partner_by_call:
            self.accepter = enc.int_var("accepter")
        # no seat (-1: the winner of a trick never played) declares, as in the engine
        base[IsDeclarer] = lambda seat: z3.And(seat >= 0, enc.select(seat, self.declares))
        base[Ctx.DECLARER_PARTNER] = self.partner
        self.base = base
        tv = dict(self.tracked0)
        named = partner_named(enc, self.status(1, tv), self.declarer)
        self.facts.append(self.partner == z3.If(self.accepter >= 0, self.accepter, named))
        if game.constructs(K.TrumpIs):  # trumps as the rules state them, from the start
            self._trumps(self.status(1, tv))
        # who sits out, who leads, and the phases before the first lead
        sits = game.constructs(K.SitsOut)
        out: Any = enc.int(-1)
        if sits:
            body = sits[0][1]
            comp = Z3Compiler(enc, self.status(1, tv))
            out = z3.If(comp.visit(body.when), comp.visit(body.seat), enc.int(-1))  # type: ignore[attr-defined]
        play = game.program.phase(PhaseKind.PLAY)
        assert play is not None and play.first is not None
        leader = Z3Compiler(enc, {**base, **tv}).visit(play.first)
        self.facts += [leader >= 0, leader < n]
        # a seat's hand is what it holds (as dealt, less cards aside, plus cards aside once
        # returned) less what it has played; its cards aside likewise
        held = [d & ~a for d, a in zip(dealt, self.aside0)] if self.set_aside else list(dealt)
        laid = list(self.aside0)
        held, laid, tv = self._before_play(held, laid, tv, leader)
        seats = _SeatsOut(self, out, bool(sits))
        if self.drop_out is not None:  # the first leader, if out, passes the lead on
            leader = self._present_after(leader, seats.absent)
        seats.count()
        self.cards: list[list[Any]] = []  # per trick, per seat
        self.named: list[list[Any]] = []
        self.leaders: list[Any] = []
        self.winners: list[Any] = []
        self.position_seats: list[list[Any]] = []  # per trick, the seat at each position
        self.announced: list[list[list[Any]]] = []  # per trick, per position, per announcement
        self.announcements = [b.name for _r, b in self._announces]  # type: ignore[attr-defined]
        self.play_envs: list[tuple[int, int, dict[Any, Any]]] = []
        self.trick_envs: list[tuple[int, dict[Any, Any]]] = []
        played = [enc.bv(0)] * n
        for k in range(1, game.tricks + 1):
            leader, tv = self._trick(k, seats, leader, held, laid, played, tv)
            played = [p | c for p, c in zip(played, self.cards[-1])]
            if k < game.tricks:
                held, laid = self._after_status(k + 1, tv, held, laid, self.status)
        self.final_tracked = tv

    @property
    def _announces(self) -> list[Any]:
        return [(r, b) for r, b in self.game.constructs(K.Announce) if b.scope is Scope.PLAY]  # type: ignore[attr-defined]

    def status(self, number: int, values: dict[Any, Any]) -> dict[Any, Any]:
        """The environment of the deal's status before trick ``number``, with the tracked
        values ``values``."""
        return {**self.base, Ctx.TRICK_NUMBER: self.enc.int(number), **values}

    def _before_play(self, held: list[Any], laid: list[Any], tv: dict[Any, Any], leader: Any
                     ) -> tuple[list[Any], list[Any], dict[Any, Any]]:
        """The steps between the settling of the contract and the play, in the order of the
        deal's steps, read through :class:`~verifier._z3.steps.StepEncoder`: the hands, the
        cards aside and the tracked values after them."""
        self.contest: list[tuple[Any, Any, Any]] | None = None  # (seat, takes part, choice)
        # by phase, each action of a step encoded action by action: (step, live, card)
        self.turns: dict[str, list[tuple[Step, Any, Any]]] = {}
        # each step's actions as a model gives them, in the order of the steps
        self.replays: list[Replay] = []
        steps = self.game.steps
        # the settling of the contract: the step of no phase that no rule opens
        settled = next(i for i, step in enumerate(steps)
                       if step.phase is None and step.opened_by is None)
        encoder = StepEncoder(self.enc, lambda _scope, st: {
            **self.status(1, st.tracked), Ctx.DECLARER: st["declarer"], Ctx.TRUMP: st["trump"]})
        st = Symbolic({"hands": held, "aside": laid, "declarer": self.declarer,
                       "turn": leader, "trump": self.trump, "discards": self.enc.bv(0),
                       "talon": Lazy(self._talon)}, dict(tv))
        for step in steps[settled + 1:-1]:  # the last step is the play
            if step.card is not None and encoder.runs_as_one(step):
                st = self._card_run(encoder, step, st)
            elif step.card is not None:
                st = self._card_turns(encoder, step, st, steps.index(step))
            elif step.actor is None:  # nobody acts: its entry, where it takes place
                encoder.check_entry(step)
                st = encoder.enter(step, st, encoder.takes_place(step, st))
            elif step.opened_by is not None and isinstance(self.game.rule(step.opened_by).body,
                                                           K.DropOut):
                # the defenders' choice, each in turn: its options are not read here yet
                assert isinstance(step.when, Stated)
                self._drop_out(self.status(1, st.tracked), step.when.expr)
            elif step.options:
                st = self._choice(encoder, step, st)
        return st["hands"], st["aside"], st.tracked

    def _talon(self) -> Any:
        """The cards dealt to no seat."""
        enc = self.enc
        dealt: Any = enc.bv(0)
        for h in self.owners.hands:
            dealt = dealt | h
        return enc.bv((1 << len(self.game.deck)) - 1) & ~dealt

    def _card_run(self, encoder: StepEncoder, step: Step, st: Symbolic) -> Symbolic:
        """A step whose actions are cards of the actor's hand (the exchange's discards),
        as the one set of cards its actions lay, where the step takes place."""
        takes = encoder.takes_place(step, st)
        cards = self.enc.cards_var(f"{step.card}s")
        st, facts = encoder.card_run(step, st, cards, takes)
        self.facts += facts
        act, deck = CARD_ACTIONS[step.card], self.game.deck  # type: ignore[index]

        def replay(value: Value) -> list[Any]:  # the cards by their order in the deck
            if takes is not None and not value(takes):
                return []
            mask = value(cards)
            return [act(c) for i, c in enumerate(deck) if mask >> i & 1]
        self.replays.append(replay)
        return st

    def _card_turns(self, encoder: StepEncoder, step: Step, st: Symbolic, index: int
                    ) -> Symbolic:
        """A step whose action is a card of the actor's hand (the ``index``-th of the
        deal's steps), action by action, where the step takes place: each action taking
        place while the step goes on, as many as the hands may hold cards as it begins.
        As each action takes its card from the hands
        (:meth:`~verifier._z3.steps.StepEncoder.check_turns`), no deal has more: a card
        each of the deck where Z3 proves that no two hands hold the same card then, else
        a card each of every hand's deck.  Each action's liveness and card are kept in
        ``self.turns`` under the step's phase, for the scenario's replay."""
        enc = self.enc
        takes = encoder.takes_place(step, st)
        live = enc.bool(True) if takes is None else takes
        st = encoder.enter(step, st, takes)
        turns = self.turns.setdefault(step.phase or step.name, [])
        tag = f"step{index}"  # the step's place, which no other step has
        hands = st["hands"]
        s = self.solving.solver()
        s.add(*self.facts, z3.Or(*[hands[a] & hands[b] != 0 for a in range(self.n)
                                   for b in range(a + 1, self.n)]))
        # Z3's unknown is no proof: the larger bound stands
        most = len(self.game.deck) * (1 if s.check() == z3.unsat else self.n)
        for i in range(most):
            card = enc.cards_var(f"{step.card}_{tag}_{i}")
            turns.append((step, live, card))
            st, facts, live = encoder.card_turn(step, st, card, live)
            st, named = encoder.named(st, f"after_{tag}_{i}")
            self.facts += facts + named
        self.facts.append(z3.Not(live))  # no deal has more actions (see above)
        act, deck = CARD_ACTIONS[step.card], self.game.deck  # type: ignore[index]
        self.replays.append(lambda value: [act(deck[value(card).bit_length() - 1])
                                           for _s, live, card in turns if value(live)])
        return st

    def _choice(self, encoder: StepEncoder, step: Step, st: Symbolic) -> Symbolic:
        """A seat's choice among the step's options before the first lead, where the step
        takes place: the state after it (trumps it names set, cards aside returned when a
        rule says so after the change)."""
        enc = self.enc
        if self.game.program.contest:  # each declarer chooses in turn: not yet in the steps
            choice = self._contest(step, {**self.status(1, st.tracked),
                                          Ctx.DECLARER: self.bidder})
            # the choice that counts does what its option does (the turns before it only
            # note the choices: the contest above stands for them)
            body = self.game.rule(step.opened_by).body  # type: ignore[arg-type]
            assert isinstance(body, K.Decide) and step.opened_by is not None
            does = option_does(self.game, step.opened_by)
            step = dataclasses.replace(step, options=tuple(
                dataclasses.replace(c, effects=does(o)) for c, o in zip(step.options, body.options)))
        else:
            choice = enc.int_var("decision")
        takes = encoder.takes_place(step, st)
        entered = encoder.guarded(takes, step.enter, st)
        after, facts = encoder.choose(step, entered, choice, takes)
        self.facts += facts
        names, contest = tuple(o.name for o in step.options), self.contest

        def replay(value: Value) -> list[Any]:
            if takes is not None and not value(takes):  # no choice in this contract
                return []
            if contest is None:
                return [Declare(names[value(choice)])]
            # each seat that declares, in turn
            return [Declare(names[value(mine)]) for _seat, part, mine in contest if value(part)]
        self.replays.append(replay)
        self.trump = self.base[Ctx.TRUMP] = after["trump"]
        after.fields["hands"], after.fields["aside"] = self._after_status(
            1, after.tracked, after["hands"], after["aside"], self.status)
        return after

    def _trick(self, k: int, seats: _SeatsOut, leader: Any, held: list[Any], laid: list[Any],
               played: list[Any], tv: dict[Any, Any]) -> tuple[Any, dict[Any, Any]]:
        """Trick ``k``, led by ``leader``: the card each seat plays, legal for its hand,
        the announcements made as it plays, the winner, and the tracked values the end of
        the trick updates.  Returns the next leader (the winner) and those values."""
        enc, n, game = self.enc, self.n, self.game

        def by_leader(table: Any) -> Any:
            return seats.by_leader(leader, table)

        seat_at = [by_leader(lambda x, o, j=j: self._seat_at(x, o, j)) for j in range(n)]
        pos_of = [by_leader(lambda x, o, s=s: self._position_of(x, o, s)) for s in range(n)]
        cards = [enc.cards_var(f"card_{k}_{s}") for s in range(n)]
        hands = [h & ~p for h, p in zip(held, played)]
        aside = [a & ~p for a, p in zip(laid, played)] if self.set_aside else laid
        named = [enc.int_var(f"named_{k}_{s}") for s in range(n)]
        made, at_position = self._announced(k, seats, leader, seat_at, hands, aside, tv)
        tv_trick = at_position[-1]  # the values when the trick is complete
        trump = self.trump
        lead_envs = [{Ctx.CARD: cards[s], Ctx.DECLARED: named[s], Ctx.IS_LEADING: enc.bool(True),
                      Ctx.POSITION: enc.int(0), Ctx.LED_SUIT: enc.int(NO_SUIT), Ctx.TRUMP: trump,
                      Ctx.TRICK_NUMBER: enc.int(k), Ctx.CONTRACT: self.contract}
                     for s in range(n)]
        led = enc.select(leader, [Z3Compiler(enc, e).visit(D.entry_suit(game)) for e in lead_envs])
        # the card at each position: a table over who led, not arithmetic modulo n
        at_cards = [by_leader(lambda x, o, j=j, c=cards: self._at(x, o, j, c, enc.bv(0)))
                    for j in range(n)]
        at_named = [by_leader(lambda x, o, j=j, d=named: self._at(x, o, j, d, enc.int(NO_SUIT)))
                    for j in range(n)]
        beating = (_beating(self, k, leader, pos_of, seat_at, cards, at_cards, at_named, hands,
                                 tv_trick, led, by_leader, trump)
                   if reads_beating(game) else None)
        faces = []
        for s in range(n):
            leading = leader == s
            values = ({key: enc.select(pos_of[s], [v[key] for v in at_position])
                       for key in tv} if self._announces else tv)
            env = {**self.base, **values, Ctx.SEAT: enc.int(s), Ctx.HAND: hands[s],
                   Ctx.IS_LEADING: leading, Ctx.LED_SUIT: z3.If(leading, enc.int(NO_SUIT), led),
                   Ctx.TRICK_NUMBER: enc.int(k), Ctx.POSITION: pos_of[s],
                   Ctx.ASIDE: aside[s], Ctx.LEADER: leader}
            if beating is not None:
                env[Ctx.BEATING] = beating[s]
            faces.append(self._plays(k, s, seats, env, cards[s], named[s], beating is not None))
        trick = {**self.base, **tv_trick, Ctx.TRICK_NUMBER: enc.int(k), Ctx.LEADER: leader,
                 Ctx.TRICK_SIZE: seats.size}
        for j in range(n):
            trick[(Ctx.PLAYED_CARD, j)] = at_cards[j]
            trick[(Ctx.PLAYED_DECLARED, j)] = at_named[j]
            trick[(Ctx.PLAYED_FACE_DOWN, j)] = by_leader(
                lambda x, o, j=j, f=faces: self._at(x, o, j, f, enc.bool(False)))
        self.trick_envs.append((k, trick))
        w = Z3Compiler(enc, trick).visit(D.trick_winner(game))
        winner = by_leader(lambda x, o, w=w: enc.select(
            w, [enc.int(seat) for seat in seats_from(x, n, outside=o)]))
        # nobody defends: no play, and the declarer is credited with every trick
        winner = z3.If(self.all_out, self.declarer, winner)
        self.facts += [winner >= 0, winner < n]
        # the updates at the end of the trick all read the values before them
        comp = Z3Compiler(enc, trick)
        new = dict(tv_trick)
        for _r, body in game.constructs(K.Update):
            assert isinstance(body, K.Update)
            if body.at is not K.Moment.TRICK_END:
                raise UnsupportedNodeError(body, "the unrolled play", "tracked values changed "
                                           "as each card is played")
            cond = comp.visit(body.when)
            for name, value in body.sets:
                key = ("tracked", name)
                new[key] = z3.If(cond, comp.visit(value), new[key])
        self.cards.append(cards)
        self.named.append(named)
        self.leaders.append(leader)
        self.winners.append(winner)
        self.position_seats.append(seat_at)
        self.announced.append(made)
        return winner, new

    def _announced(self, k: int, seats: _SeatsOut, leader: Any, seat_at: list[Any],
                   hands: list[Any], aside: list[Any], tv: dict[Any, Any]
                   ) -> tuple[list[list[Any]], list[dict[Any, Any]]]:
        """The announcements of trick ``k``, position by position: a flag per position and
        announcement, and the tracked values each position plays under (the last: the
        values when the trick is complete)."""
        enc, n = self.enc, self.n
        before = dict(tv)
        at_position: list[dict[Any, Any]] = []
        made: list[list[Any]] = []
        for j in range(n):
            env_j = {**self.base, **before, Ctx.SEAT: seat_at[j],
                     Ctx.HAND: enc.select(seat_at[j], hands),
                     Ctx.ASIDE: enc.select(seat_at[j], aside), Ctx.IS_LEADING: enc.bool(j == 0),
                     Ctx.POSITION: enc.int(j), Ctx.TRICK_NUMBER: enc.int(k),
                     Ctx.LEADER: leader}
            row = []
            for t, (_r, body) in enumerate(self._announces):
                flag = enc.bool_var(f"announce_{k}_{j}_{t}")
                comp = Z3Compiler(enc, {**env_j, **before})
                active = j < seats.size if seats.varies else enc.bool(True)
                self.facts.append(z3.Implies(flag, z3.And(active, comp.visit(body.when))))  # type: ignore[attr-defined]
                if body.required is not None:  # type: ignore[attr-defined]
                    self.facts.append(z3.Implies(z3.And(active, comp.visit(body.required)),  # type: ignore[attr-defined]
                                                 flag))
                after = dict(before)
                for name, value in body.sets:  # type: ignore[attr-defined]
                    key = ("tracked", name)
                    after[key] = z3.If(flag, comp.visit(value), before[key])
                before = after
                row.append(flag)
            made.append(row)
            at_position.append(before)
            if self._announces:
                self._no_void(k, before, self.status)
        return made, at_position

    def _plays(self, k: int, s: int, seats: _SeatsOut, env: dict[Any, Any], card: Any,
               named: Any, beats: bool) -> Any:
        """The facts of the card seat ``s`` plays to trick ``k`` in ``env``: one card,
        legal for its hand (none when the seat is out of the play); a suit named when a
        rule asks for one.  Returns whether the card goes face down."""
        enc, game = self.enc, self.game

        def plays(legal_env: dict[Any, Any]) -> Any:
            legal = Z3Compiler(enc, legal_env).visit(D.legal_cards(game))
            each = z3.And(enc.one_hot(card), card & ~legal == 0)
            return (z3.If(z3.Or(seats.absent[s], self.all_out), card == 0, each)
                    if seats.varies else each)
        if beats:
            # the card is legal, a fact assumed once the search needs it; until then legal
            # as if no card could beat the trick (see scenario._check)
            fact = plays(env)
            self.exact.append((enc.bool_var(f"legal_{k}_{s}"), fact))
            self.facts += [z3.Implies(self.exact[-1][0], fact), z3.Implies(
                self.relaxed, plays({**env, Ctx.BEATING: enc.bv(0)}))]
        else:
            self.facts.append(plays(env))
        with_card = {**env, Ctx.CARD: card, Ctx.DECLARED: named}
        self.play_envs.append((k, s, with_card))
        needs = Z3Compiler(enc, with_card).visit(D.needs_declaration(game))
        ok = Z3Compiler(enc, with_card).visit(D.declaration_ok(game))
        choices = D.declaration_choices(game)
        self.facts.append(z3.If(needs, z3.And(ok, z3.Or([named == ch for ch in choices]
                                                       or [enc.bool(False)])),
                                named == NO_SUIT))
        face_down = D.face_down(game) if game.constructs(K.FaceDown) else None
        return (Z3Compiler(enc, with_card).visit(face_down) if face_down is not None
                else enc.bool(False))

    def _contest(self, step: Step, before: dict[Any, Any]) -> Any:
        """Each seat that declares the auction's bid chooses in turn, from the bidder in
        the direction of play, an option allowed before the choice (``before``); the option
        of the highest rank wins, of equal ranks the earliest chooser's, and its chooser
        declares.  The winner's choice, returned; ``self.contest`` keeps each seat's."""
        enc, n = self.enc, self.n
        comp = Z3Compiler(enc, before)
        options = [o.when.expr for o in step.options if isinstance(o.when, Stated)]
        assert len(options) == len(step.options)
        ranks = [o.rank for o in step.options]
        choices = [enc.int_var(f"choice_{s}") for s in range(n)]
        # below every rank, so that the first chooser's option stands until a higher one
        best = enc.int(min(ranks) - 1)
        winner, won = self.bidder, enc.select(self.bidder, choices)
        order = []
        for j in range(n):
            seat = seat_after(self.bidder, n, j)
            takes_part = enc.bool(True) if j == 0 else enc.select(seat, self.joined)
            mine = enc.select(seat, choices)
            self.facts += [z3.Implies(takes_part, z3.And(mine >= 0, mine < len(ranks), *[
                z3.Implies(mine == i, comp.visit(w)) for i, w in enumerate(options)]))]
            rank = enc.int(0)
            for i, r in enumerate(ranks):
                rank = z3.If(mine == i, enc.int(r), rank)
            better = z3.And(takes_part, rank > best)
            best, winner, won = (z3.If(better, rank, best), z3.If(better, seat, winner),
                                 z3.If(better, mine, won))
            order.append((seat, takes_part, mine))
        self.facts.append(self.declarer == winner)
        self.contest = order
        return won

    def legal(self) -> list[Any]:
        """The literals that make every card played legal by the exact facts."""
        return [g for g, _f in self.exact]

    def _seat_at(self, leader: int, out: int, j: int) -> Any:
        seats = seats_from(leader, self.n, outside=out)
        return self.enc.int(seats[j] if j < len(seats) else -1)

    def _at(self, leader: int, out: int, j: int, per_seat: list[Any], none: Any) -> Any:
        """What the seat at position ``j`` of a trick led by ``leader`` played (``out``:
        a bit per seat out of the play)."""
        seats = seats_from(leader, self.n, outside=out)
        return per_seat[seats[j]] if j < len(seats) else none

    def _position_of(self, leader: int, out: int, seat: int) -> Any:
        seats = seats_from(leader, self.n, outside=out)
        return self.enc.int(seats.index(seat) if seat in seats else 0)

    def _present_after(self, seat: Any, absent: list[Any]) -> Any:
        """The first seat from ``seat`` on, in the direction of play, in the play."""
        enc, n = self.enc, self.n
        out: Any = seat
        for d in reversed(range(n)):
            at = seat_after(seat, n, d)
            out = z3.If(z3.Not(enc.select(at, absent)), at, out)
        return out

    def _trumps(self, status: dict[Any, Any]) -> None:
        """Trumps as the game's ``TrumpIs`` rules state them in ``status``."""
        self.trump = self.base[Ctx.TRUMP] = Z3Compiler(self.enc, status).visit(D.trump(self.game))

    def _drop_out(self, status: dict[Any, Any], when: Expr | None) -> None:
        """The defenders' choices, when the drop-out rule applies: each may leave the
        play (not every one when the last must play); with exactly one left of two, the one
        who stayed may invite him back as his guest."""
        enc, n = self.enc, self.n
        phase = self.game.program.phase(PhaseKind.DROP_OUT)
        assert phase is not None and phase.when is not None
        body = phase.body
        assert isinstance(body, K.DropOut)
        comp = Z3Compiler(enc, status)
        takes = comp.visit(phase.when) if when is None else z3.And(comp.visit(phase.when),
                                                                   comp.visit(when))
        defends = [z3.And(self.declarer != s, enc.bool(self.idle != s)) for s in range(n)]
        leaves = [enc.bool_var(f"leaves_{s}") for s in range(n)]
        self.facts += [z3.Implies(leaves[s], z3.And(defends[s], takes)) for s in range(n)]
        count = z3.Sum([z3.If(d, enc.int(1), enc.int(0)) for d in defends])
        left = z3.Sum([z3.If(x, enc.int(1), enc.int(0)) for x in leaves])
        if body.all_out is K.AllOut.LAST_MUST_PLAY:
            self.facts.append(left < count)
        else:
            self.all_out = left == count
        invites: Any = enc.bool(False)
        if body.invite:
            invites = enc.bool_var("invites")
            self.facts.append(z3.Implies(invites, z3.And(left == 1, count == 2)))
        self.dropped = [z3.And(x, z3.Not(invites)) for x in leaves]
        self.invited = [z3.And(x, invites) for x in leaves]
        assert phase.first is not None
        first = comp.visit(phase.first)
        self.drop_out = (takes, first, leaves, invites)

        def replay(value: Value) -> list[Any]:
            """The defenders' choices in the engine's order: from the rule's first seat,
            past the declarer and the idle seat; then the host's, when exactly one left."""
            if not value(takes):
                return []
            order = list(seats_from(value(first), n, (value(self.declarer), self.idle)))
            left = [k for k in order if value(leaves[k])]
            out: list[Any] = [Declare(body.leave if k in left else body.stay) for k in order]
            if body.invite and len(left) == 1 and len(order) == 2:
                out.append(Declare(body.invite if value(invites) else body.alone))
            return out
        self.replays.append(replay)

    def _no_void(self, number: int, values: dict[Any, Any], status: Any) -> None:
        """A scenario is a deal played out: no rule voids it on the way."""
        comp = Z3Compiler(self.enc, status(number, values))
        self.facts += [z3.Not(comp.visit(b.when)) for _r, b in self.game.constructs(K.VoidWhen)]  # type: ignore[attr-defined]

    def _after_status(self, number: int, values: dict[Any, Any], held: list[Any],
                      laid: list[Any], status: Any) -> tuple[list[Any], list[Any]]:
        """What the engine does after a change of state: no void deal, and the cards aside
        back in their owners' hands when the rule says so."""
        self._no_void(number, values, status)
        backs = [b.returns_when for _r, b in self.set_aside.values()]
        if not backs:
            return held, laid
        enc = self.enc
        # (cards aside already played are no longer held either way)
        back = Z3Compiler(enc, status(number, values)).visit(backs[0])
        return ([z3.If(back, h | a, h) for h, a in zip(held, laid)],
                [z3.If(back, enc.bv(0), a) for a in laid])

    def _initial(self, track: K.Track) -> Any:
        return tracked_initial(self.enc, track)

    def history(self, rows: list[dict[str, Any]] | None = None) -> dict[Any, Any]:
        """The environment a scenario is judged in; with the auction's ``rows`` (from
        :meth:`auction`), who made each call too."""
        return _history(self, rows)

    def auction(self, calls: tuple[int, ...]) -> tuple[list[Any], list[dict[str, Any]]]:
        """Facts for an auction of ``calls[k]`` calls in stage k + 1 that ends with this
        contract, declarer, trumps and cards aside; and every call's row."""
        return _unroll_auction(self, calls)


def _beating(u: Unrolled, k: int, leader: Any, pos_of: list[Any], seat_at: list[Any],
             cards: list[Any], at_cards: list[Any], at_named: list[Any], hands: list[Any],
             values: dict[Any, Any], led: Any, by_leader: Any, trump: Any) -> list[Any]:
    """The cards of each seat's hand that would win trick ``k`` when its turn comes
    (none for the leader).  With a strength table (the led suit ``led`` and trumps
    decide), each seat's hand and the cards played before it are read directly, not
    through the seat at a position: Z3 solves that far faster."""
    enc, n = u.enc, u.n
    table = strength_table(enc)
    if table is not None:  # the lead's suit and trumps decide: card sets, no arithmetic
        stronger = not_beaten_by(enc, table, led, trump)

        def cards_before(s: int, x: int, m: int) -> Any:
            seats = seats_from(x, u.n, outside=m)
            out: Any = enc.bv(0)
            for t in seats[:seats.index(s)] if s in seats else ():
                out = out | cards[t]
            return out

        return [beating_of(enc, hands[s], by_leader(lambda x, m, s=s: cards_before(s, x, m)),
                           stronger) for s in range(n)]
    # else the shared encoding, position by position
    judge = {**u.base, **values, Ctx.TRUMP: trump, Ctx.TRICK_NUMBER: enc.int(k),
             Ctx.LEADER: leader, Ctx.CONTRACT: u.contract}
    at_position = [beating_term(enc, judge, enc.select(seat_at[j], hands), at_cards[:j],
                                at_named[:j]) for j in range(n)]
    return [enc.select(pos_of[s], at_position) for s in range(n)]


def _history(u: Unrolled, rows: list[dict[str, Any]] | None) -> dict[Any, Any]:
    """:meth:`Unrolled.history`."""
    enc = u.enc
    winners, leaders = u.winners, u.leaders

    def by_trick(items: list[Any], trick: Any) -> Any:
        return enc.select(trick, items, keys=list(range(1, len(items) + 1)))

    def played(trick: Any, seat: Any) -> Any:
        return by_trick([enc.select(seat, cards) for cards in u.cards], trick)

    def taken(seat: Any) -> Any:
        out: Any = enc.bv(0)
        for cards, w in zip(u.cards, winners):
            all_cards = cards[0]
            for c in cards[1:]:
                all_cards = all_cards | c
            out = out | z3.If(w == seat, all_cards, enc.bv(0))
        return out

    return {
        **u.base, **u.final_tracked,
        WonTrick: lambda seat, number: by_trick([w == seat for w in winners], number)
        if not z3.is_int_value(number) else (winners[number.as_long() - 1] == seat
                                             if 1 <= number.as_long() <= len(winners)
                                             else enc.bool(False)),
        Taken: taken, PlayedTo: played,
        LedTo: lambda trick: by_trick([enc.select(ld, cards) for ld, cards
                                       in zip(leaders, u.cards)], trick),
        # a deal without play (nobody defends) has neither leaders nor winners
        LeaderOf: lambda trick: by_trick([z3.If(u.all_out, enc.int(-1), x)
                                          for x in leaders], trick),
        WinnerOf: lambda trick: by_trick([z3.If(u.all_out, enc.int(-1), x)
                                          for x in winners], trick),
        Ctx.TRICK_NUMBER: enc.int(u.game.tricks + 1),
        Ctx.SEAT: enc.int(0),
        **({CallerOf: lambda k: enc.select(k, [r["seat"] for r in rows] + [enc.int(-1)],
                                           keys=list(range(1, len(rows) + 1)) + [-1])}
           if rows is not None else {}),
    }


# long: the auction unrolled call by call in the order its Z3 terms must be made
def _unroll_auction(u: Unrolled, calls: tuple[int, ...]) -> tuple[list[Any], list[dict[str, Any]]]:
    """Facts for an auction of ``calls[k]`` calls in stage k + 1 that ends with this
    contract, declarer, trumps and cards aside; and every call's row."""
    enc, game, n = u.enc, u.game, u.n
    stage_cards = _stage_cards(u)
    facts: list[Any] = []
    rows_all: list[dict[str, Any]] = []
    aside: list[Any] = [enc.bv(0)] * n
    trump: Any = enc.int(NO_SUIT)
    standing: Any = None
    high: Any = None
    maker: Any = None  # the seat that would declare the standing bid
    for k, count in enumerate(calls, start=1):
        prefix = f"s{k}_" if len(calls) > 1 else ""
        f, rows, dealer = auction_steps(enc, count, k, prefix)
        facts += list(f) + [dealer == u.dealer]
        facts += [enc.cards_var(f"{prefix}hand_{s}") == stage_cards[k - 1][s] & ~aside[s]
                  for s in range(n)]
        for name, value in u.tracked0.items():  # no announcement in the auction
            var = (enc.bool_var if z3.is_bool(value) else enc.int_var)(f"{prefix}tv_{name[1]}")
            facts.append(var == value)
        if k > 1:
            facts += [enc.int_var(f"{prefix}standing_0") == standing,
                      enc.int_var(f"{prefix}high_0") == high,
                      enc.int_var(f"{prefix}maker_0") == maker]
            if game.program.partner_by_call:  # an acceptance carries over
                facts.append(enc.int_var(f"{prefix}accepter_0")
                             == rows_all[-1]["accepter_after"])
        facts += [r["legal"] for r in rows]
        # calls only: no call comes where an announcement must be made before it
        for _r, body in game.constructs(K.Announce):
            assert isinstance(body, K.Announce)
            if body.scope is Scope.CALL and body.required is not None:
                facts += [z3.Not(z3.And(Z3Compiler(enc, r["env"]).visit(body.when),
                                        Z3Compiler(enc, r["env"]).visit(body.required)))
                          for r in rows]
        facts += [z3.Not(r["ends"]) for r in rows[:-1]] + [rows[-1]["ends"], rows[-1]["has_after"]]
        for r in rows:
            standing = z3.If(r["is_bid"], r["bid"], standing if standing is not None
                             else enc.int(-1))
        high, maker = rows[-1]["high_after"], rows[-1]["maker_after"]
        if not game.constructs(K.ProxyCall):
            facts += [z3.Not(r["proxy"]) for r in rows]
        rows_all += rows
        lay_rule = u.set_aside.get(k)
        if lay_rule is not None:
            body = lay_rule[1]
            after = rows[-1]["after"]
            env = {**after, Ctx.SEAT: seat_after(rows[-1]["seat"], n), Ctx.PROXY: enc.bool(False)}
            env[Ctx.HAND] = enc.select(env[Ctx.SEAT], [c & ~a for c, a in zip(stage_cards[k - 1], aside)])
            env[Ctx.SEAT_CALLS] = enc.int(0)
            env[Ctx.SEAT_PASSED] = enc.bool(False)
            lays = Z3Compiler(enc, env).visit(body.when)
            card = enc.cards_var(f"lay_{k}")
            if body.count != 1:
                raise NotationError(f"{game.name}: Z3 unrolls a card laid aside one at a time only")
            # cards laid aside before go back to their owners first
            held = enc.select(maker, stage_cards[k - 1])
            facts += [z3.Implies(lays, z3.And(enc.one_hot(card), card & ~held == 0))]
            aside = [z3.If(lays, z3.If(maker == s, card, enc.bv(0)), aside[s]) for s in range(n)]
            if body.names_trump:
                suit = Z3Compiler(enc, {Ctx.CARD: card}).visit(Ref(Ctx.CARD).suit)
                trump = z3.If(lays, suit, trump)
            rows[-1]["lay"] = (lays, card)
    facts += [standing == u.contract, maker == u.bidder]
    if game.program.joinable:  # the seats that joined the final bid
        joined = [enc.bool(False)] * n
        for r in rows_all:
            renew = z3.And(r["is_bid"], z3.Not(r["joins"]), z3.Not(r["accepts"]))
            joined = [z3.Or(z3.And(r["joins"], r["seat"] == s),
                            z3.And(z3.Not(renew), joined[s])) for s in range(n)]
        if game.program.several_declarers:
            facts += [d == z3.Or(u.declarer == s, joined[s])
                      for s, d in enumerate(u.declares)]
        else:  # they choose after the auction, and one of them declares
            facts += [j == z3.And(joined[s], u.bidder != s) for s, j in enumerate(u.joined)]
    if game.program.partner_by_call:
        facts.append(u.accepter == rows_all[-1]["accepter_after"])
    facts += [a == b for a, b in zip(aside, u.aside0)] if u.set_aside else []
    if u.eng.trump_from_aside:
        facts.append(trump == u.trump)
    return facts, rows_all


def _stage_cards(u: Unrolled) -> list[list[Any]]:
    """Each seat's cards by the end of each dealing stage: the lowest-numbered cards of a
    hand come first, as the engine splits hands given whole."""
    enc, game = u.enc, u.game
    dealt = u.owners.hands
    stages = u.eng.stages
    if stages == 1:
        return [list(dealt)]
    owner = u.owners.owner
    sizes = [sum(p) for p in game.program.packets]
    before = [z3.Sum([z3.If(owner[j] == owner[i], enc.int(1), enc.int(0)) for j in range(i)])
              if i else enc.int(0) for i in range(len(game.deck))]
    out = []
    total = 0
    for k in range(stages):
        total += sizes[k]
        if k == stages - 1:
            out.append(list(dealt))
            break
        mask = [z3.If(before[i] < total, enc.bv(1 << i), enc.bv(0)) for i in range(len(game.deck))]
        early: Any = mask[0]
        for m in mask[1:]:
            early = early | m
        out.append([d & early for d in dealt])
    return out


