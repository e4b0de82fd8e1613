"""What the verifier and the tools ask the engine outside a running deal: positions, trick
winners, scores of outcomes, rules judged on states, and the rules of a match."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Bid, Rule, suit_code
from spec.dsl._nodes import NO_SUIT, Ctx, Ref, Scope
from spec.engine._compiled import CompiledRules
from spec.engine._state import Call, Phase, Play, State, TrickRecord
from spec.errors import NotationError


@dataclass(frozen=True, slots=True)
class Outcome:
    """The fields of a finished deal the scoring rules read, for an outcome that was never
    played (the scoring environment reads these, or a finished state's own)."""

    declarer: int = -1
    contract: int = -1
    dealer: int = -1
    trump: int = NO_SUIT
    tracked: tuple[Any, ...] = ()
    dealt: tuple[int, ...] = ()
    won: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()
    turn_up: int = -1
    idle: int = -1
    dropped: int = 0
    partner: int = -1
    declarers: int = 0
    guest: int = -1
    pot: int = 0


def _sides(declarer: int, partner: int | None, declarers: Sequence[int] | None) -> tuple[int, int]:
    """The declarer's partner and the declarers as a bitmask: by default he declares
    alone, with no partner but himself."""
    mask = 1 << declarer if declarers is None else sum(1 << k for k in set(declarers))
    return (declarer if partner is None else partner), mask


class Probes(CompiledRules):
    """Questions about positions and outcomes, and the rules of a match."""

    def play_position(self, *, hands: Sequence[int], contract: int, declarer: int, leader: int,
                      trick_number: int, dealer: int | None = None, won: Sequence[int] | None = None,
                      trick: Sequence[tuple[int, int]] = (), trump: int | None = None,
                      aside: Sequence[int] | None = None, tracked: dict[str, Any] | None = None,
                      out: int = -1, dealt: Sequence[int] | None = None,
                      turn_up: int = -1, idle: int = -1, dropped: int = 0,
                      partner: int | None = None, declarers: Sequence[int] | None = None,
                      guest: int = -1) -> State:
        """A state in the middle of the play, for replaying positions found by the verifier.

        ``hands`` are the cards still held (the cards of ``trick`` excluded); ``turn_up``
        the card dealt face up, in a game that deals one; ``idle`` is the seat idle for the
        deal, ``dropped`` the seats (a bit each) that dropped out and ``guest`` the defender
        invited back into the play.
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
            pending=(0,) * self.n, turn_up=turn_up, idle=idle, dropped=dropped,
            absent=dropped | (1 << idle if idle >= 0 else 0), guest=guest,
        )
        state = replace(state, **dict(zip(("partner", "declarers"),
                                          _sides(declarer, partner, declarers))))
        for card_no, named in trick:
            seat = state.turn
            if not (state.aside[seat] >> card_no & 1):
                hands_l = list(state.hands)
                hands_l[seat] |= 1 << card_no  # the card was in the hand before it was played
                state = replace(state, hands=tuple(hands_l))
            state = self.apply(state, self._plays[(card_no, named)])
        return state

    def score_items(self, s: State) -> tuple[tuple[Rule, int, int], ...]:
        """What each scoring rule gave each seat in a finished deal: (rule, seat, amount),
        in rulebook order, amounts of 0 left out."""
        return self._rule_amounts(s)

    def _rule_amounts(self, o: Any) -> tuple[tuple[Rule, int, int], ...]:
        if self._items is None:
            self._items = tuple((rule, self._fn(self.envs.outcome, D.awarded(self.game, rule.id),
                                                "awarded"))
                                for rule, _b in self.game.rules_with(K.ScoreRule, K.TrickScores))
        out = []
        for rule, fn in self._items:
            for seat in range(self.n):
                amount = fn(seat, o)
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
        o = Outcome(declarer, contract, dealer, self._trump_of[contract], self._tracked_initial,
                    tuple(dealt), tuple(won), tuple(taken or (0,) * self.n), -1, -1, 0,
                    *_sides(declarer, None, None))
        return {(rule.id, seat): amount for rule, seat, amount in self._rule_amounts(o)}

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

    def game_target(self) -> int:
        """The total a side must reach on the game line to win a game (0: no games)."""
        return int(self._match_fn(Ctx.GAME_TARGET)(0, 0, 0, 0))

    def _match_fn(self, ctx: Ctx) -> Callable[..., Any]:
        fn = self._match_fns.get(ctx)
        if fn is None:
            fn = self._match_fns[ctx] = self._fn(self.envs.match, Ref(ctx), ctx.name.lower())
        return fn

    def judge(self, scope: Scope, expr: Any) -> Callable[..., bool]:
        """``expr`` as a test of the engine's own states, compiled as the rules are: PLAY
        ``test(state, play)`` for a card about to be played in ``state``; TRICK
        ``test(state, record)`` for a complete trick of ``state``'s deal, with ``state``'s
        tracked values (those of the moment the trick was complete); OUTCOME
        ``test(state)`` for a finished deal, with ``expr`` free of the seat; CALL
        ``test(state, call)`` for a call about to be made in ``state``'s auction; DEAL
        ``test(dealer)`` for the pack dealt by ``dealer``."""
        E = self.envs
        if scope is Scope.DEAL:
            deal_fn = self._fn(E.deal, expr, "judge")

            def on_deal(dealer: int) -> bool:
                schedule = [-1]
                for stage in range(1, self.stages + 1):
                    schedule += self.stage_seats(dealer, stage)  # type: ignore[attr-defined]
                return bool(deal_fn(dealer, schedule, self._tracked_initial))

            return on_deal
        if scope is Scope.MATCH:
            match_fn = self._fn(E.match, expr, "judge")
            return lambda deals, lead, trail, games: bool(match_fn(deals, lead, trail, games))
        if scope is Scope.CALL:
            call_fn = self._fn(E.call_made, expr, "judge")

            def on_call(state: State, call: Call) -> bool:
                b = -1 if call.bid is None else self.ladder.index(call.bid)
                return bool(call_fn(state, b >= 0, b))

            return on_call
        if scope is Scope.PLAY:
            play_fn = self._fn(E.play_card, expr, "judge")

            def on_play(state: State, play: Play) -> bool:
                code = NO_SUIT if play.names is None else suit_code(play.names)
                return bool(play_fn(state, self.game.deck.index(play.card), code))

            return on_play
        if scope is Scope.TRICK:
            trick_fn = self._fn(E.trick, expr, "judge")

            def on_trick(state: State, r: TrickRecord) -> bool:
                return bool(trick_fn(state, r.number, r.leader,
                                     *E.padded(r.cards, r.named, r.face_down)))

            return on_trick
        if scope is Scope.OUTCOME:
            outcome_fn = self._fn(E.outcome, expr, "judge")
            return lambda state: bool(outcome_fn(0, state))
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
        return self._points(rec.winner, Outcome(contract=contract, won=tuple(won),  # type: ignore[no-any-return]
                                                taken=tuple(taken)))

    def points(self, s: State, seat: int) -> int:
        """The points a seat took in tricks so far."""
        return self._points(seat, s)  # type: ignore[no-any-return]

    def score_outcome(self, *, contract: int, declarer: int, winners: Sequence[int],
                      dealer: int | None = None, taken: Sequence[int] | None = None,
                      tracked: dict[str, Any] | None = None, trump: int | None = None,
                      dealt: Sequence[int] | None = None, line: str | None = None,
                      turn_up: int = -1, idle: int = -1, dropped: int = 0,
                      partner: int | None = None, declarers: Sequence[int] | None = None,
                      guest: int = -1, pot: int | None = None) -> tuple[int, ...]:
        """The scores for a contract and the winner of each trick, in order: in all, or on
        one ``line`` of the score sheet."""
        won = [0] * self.n
        for k, w in enumerate(winners, start=1):
            won[w] |= 1 << k
        dealer = self.n - 1 if dealer is None else dealer
        tv = self.tracked_values(tracked)
        trump = self._trump_of[contract] if trump is None else trump
        o = Outcome(declarer, contract, dealer, trump, tv, tuple(dealt or (0,) * self.n),
                    tuple(won), tuple(taken or (0,) * self.n), turn_up, idle, dropped,
                    *_sides(declarer, partner, declarers), guest,
                    self.full_pot if pot is None else pot)
        scores, lines = self._final_scores(o)
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
        o = Outcome(contract=contract, won=tuple(won), taken=tuple(taken or (0,) * self.n))
        return tuple(self._points(seat, o) for seat in range(self.n))

    def trick_winner(self, *, contract: int, cards: Sequence[int], named: Sequence[int],
                     trick_number: int = 1, trump: int | None = None) -> int:
        """The winning position of a complete trick, by the game's strength rules."""
        trump = self._trump_of[contract] if trump is None else trump
        led = self._entry_suit(cards[0], named[0], 0, NO_SUIT, trump, trick_number, contract)
        strengths = [self._strength(c, d, p, led, trump, trick_number, contract)
                     for p, (c, d) in enumerate(zip(cards, named))]
        return strengths.index(max(strengths))

    def first_leader(self, s: State) -> int:
        """The seat that leads to the first trick of ``s``'s deal, by the rules of the first
        lead, past the seats out of the play (``s``: a state with its contract and
        declarer)."""
        fn = self.__dict__.get("_first_leader")
        if fn is None:
            fn = self._first_leader = self._fn(self.envs.first_lead, D.first_leader(self.game),
                                               "first_leader")
        return self.seats_among(int(fn(s)), s.absent)[0]  # type: ignore[attr-defined, no-any-return]

    def strength_table(self, led: int, trump: int, number: int, contract: int
                       ) -> tuple[Any, ...] | None:
        """The strength of every card of the deck played to a trick of this led suit, trumps,
        number and contract, named no suit; None where the rules make a card's strength
        read its place in the trick or a suit named for it."""
        if self._strength_key is None:
            return None
        return self.strengths(led, trump, number, contract)[0]  # type: ignore[attr-defined, no-any-return]

    def card_strength(self, card: int, named: int, position: int, led: int, trump: int,
                      number: int, contract: int) -> Any:
        """The strength of one card played at ``position`` of a trick (0: its lead) of this
        led suit, trumps, number and contract, naming the suit ``named`` (a suit code;
        ``NO_SUIT``: none): comparable with the strengths of the other cards of the trick,
        the strongest winning it (the first of equals).  Unlike :meth:`strength_table`, it
        answers where the rules read a card's place in the trick or a suit named for it."""
        return self._strength(card, named, position, led, trump, number, contract)

    def card_points(self, contract: int) -> tuple[int, ...]:
        """What each card of the deck adds to a trick's worth under ``contract``: its
        points, in a game that counts card points; 0 where a trick's worth reads only the
        trick (what :meth:`trick_points` gives a trick with no card in it)."""
        empty = self.trick_points(contract, TrickRecord(1, 0, (), (), 0))
        return tuple(self.trick_points(contract, TrickRecord(1, 0, (c,), (NO_SUIT,), 0)) - empty
                     for c in range(len(self.game.deck)))

    def bid_key(self, bid: Bid) -> int:
        return self.game.bid_keys[self.ladder.index(bid)]
