"""Scenarios: a deal and a complete legal sequence of calls and cards that makes a condition
about the play come true, found by Z3 from the compiled rules and replayed by the engine.

The deal is unrolled symbolically: each card has an owner; the auction is unrolled call by
call (the fewest calls first) and must end with the contract and declarer the play uses;
then every trick, card by card, each card legal by the game's play rules for the hand
that plays it, each trick won as the game's winning rules say.  The condition (a
constraint that reads ``lead(k)``, ``winner(k)``, ``won(seat)``, ``score(seat)``,
``contract``, ...) is judged on the unrolled deal.  A model gives the hands and the
actions; the engine replays them and must find the condition true.

Z3 does not unroll yet a play with announcements, cards laid aside, face-down cards,
tracked updates or an auction in stages (304); for such a game the deals are searched among
deals played by bots and judged by the engine, which finds deals but proves nothing.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from collections.abc import Iterator
from typing import Any

import z3

from spec.constraints import history_test
from spec.dsl import _constructs as K
from spec.dsl import _derive as D
from spec.dsl._build import Game, suit_from_code
from spec.dsl._nodes import (
    NO_SUIT,
    Ctx,
    DealtHand,
    Expr,
    LeaderOf,
    LedTo,
    PlayedTo,
    Taken,
    WinnerOf,
    WonTrick,
)
from spec.engine import (
    PASS,
    Action,
    Call,
    Phase,
    Play,
    State,
    engine_for,
    modest_bot,
    play_deal,
    random_bot,
)
from spec.errors import NotationError
from verifier._z3.compile import Encoding, Z3Compiler
from verifier._z3.solver import Solving, unknown_reason
from verifier.deals import _Owners
from verifier.errors import ReplayMismatchError
from verifier.properties import _auction_steps

__all__ = ["Scenario", "played_deals", "scenarios_where", "solve_scenarios", "unsupported"]


@dataclass
class Scenario:
    """The answer: ``found`` with finished deals (states replayed by the engine),
    ``impossible`` or ``unknown``."""

    status: str
    states: list[State] = field(default_factory=list)
    reason: str = ""
    seconds: float = 0.0
    method: str = "z3"


def unsupported(game: Game) -> str:
    """Why the game's deals cannot be unrolled yet ("" when they can)."""
    eng = engine_for(game)
    missing = [name for name, kind in (("announcements", K.Announce), ("partner calls", K.ProxyCall),
                                       ("cards laid aside", K.SetAside), ("a decision before "
                                       "play", K.Decide)) if game.constructs(kind)]
    if game.stages > 1:
        missing.append("an auction in stages")
    if not eng._plain_play:
        missing.append("face-down cards or tracked updates in play")
    if missing:
        return (f"Z3 does not unroll the play of {game.name} yet (it has "
                + ", ".join(dict.fromkeys(missing)) + ")")
    return ""


class _Unrolled:
    """One symbolic deal: owners, auction-independent play of every trick, and the history
    a scenario reads."""

    def __init__(self, game: Game, solving: Solving, dealer: int) -> None:
        self.game, self.solving, self.dealer = game, solving, dealer
        self.owners = _Owners(game, solving)
        self.enc = enc = self.owners.enc
        n = game.players
        self.facts: list[Any] = list(self.owners.facts)
        self.contract = enc.int_var("contract")
        self.declarer = enc.int_var("declarer")
        self.facts += [enc.bid_in_ladder(self.contract), self.declarer >= 0, self.declarer < n]
        trump = enc.bid_strain(self.contract)
        dealt = self.owners.hands
        tracked = {("tracked", name): self._initial(t) for name, t in game.tracked.items()}
        base = {Ctx.DEALER: enc.int(dealer), Ctx.CONTRACT: self.contract,
                Ctx.DECLARER: self.declarer, Ctx.TRUMP: trump,
                DealtHand: lambda seat: enc.select(seat, dealt), **tracked}
        play = game.one(K.TrickPlay)
        leader = Z3Compiler(enc, base).visit(play.first_lead)  # type: ignore[attr-defined]
        self.facts += [leader >= 0, leader < n]
        # a card for each seat in each trick: the seat's hand is what it was dealt less what
        # it played before, so no hand depends on who led; positions follow from the leader
        self.cards: list[list[Any]] = []  # per trick, per seat
        self.named: list[list[Any]] = []
        self.leaders: list[Any] = []
        self.winners: list[Any] = []
        played_before = [enc.bv(0)] * n
        self.play_envs: list[tuple[int, int, dict[Any, Any]]] = []
        self.trick_envs: list[tuple[int, dict[Any, Any]]] = []
        choices = D.declaration_choices(game)
        for k in range(1, game.tricks + 1):
            cards = [enc.cards_var(f"card_{k}_{s}") for s in range(n)]
            named = [enc.int_var(f"named_{k}_{s}") for s in range(n)]
            leads = [{Ctx.CARD: cards[s], Ctx.DECLARED: named[s], Ctx.IS_LEADING: enc.bool(True),
                      Ctx.POSITION: enc.int(0), Ctx.LED_SUIT: enc.int(NO_SUIT), Ctx.TRUMP: trump,
                      Ctx.TRICK_NUMBER: enc.int(k), Ctx.CONTRACT: self.contract}
                     for s in range(n)]
            led = enc.select(leader, [Z3Compiler(enc, e).visit(D.entry_suit(game)) for e in leads])
            for s in range(n):
                leading = leader == s
                env = {**base, Ctx.SEAT: enc.int(s), Ctx.HAND: dealt[s] & ~played_before[s],
                       Ctx.IS_LEADING: leading, Ctx.LED_SUIT: z3.If(leading, enc.int(NO_SUIT), led),
                       Ctx.TRICK_NUMBER: enc.int(k),
                       Ctx.POSITION: enc.select(leader, [enc.int((s - x) % n) for x in range(n)]),
                       Ctx.ASIDE: enc.bv(0), Ctx.LEADER: leader}
                legal = Z3Compiler(enc, env).visit(D.legal_cards(game))
                self.facts += [enc.one_hot(cards[s]), cards[s] & ~legal == 0]
                with_card = {**env, Ctx.CARD: cards[s], Ctx.DECLARED: named[s]}
                self.play_envs.append((k, s, with_card))
                needs = Z3Compiler(enc, with_card).visit(D.needs_declaration(game))
                ok = Z3Compiler(enc, with_card).visit(D.declaration_ok(game))
                self.facts.append(z3.If(needs, z3.And(ok, z3.Or([named[s] == ch for ch in choices]
                                                                or [enc.bool(False)])),
                                        named[s] == NO_SUIT))
                played_before[s] = played_before[s] | cards[s]
            trick = {**base, Ctx.TRICK_NUMBER: enc.int(k), Ctx.LEADER: leader,
                     Ctx.TRICK_SIZE: enc.int(n)}
            for j in range(n):
                # the card at position j: a table over who led, not arithmetic modulo n
                order = [(x + j) % n for x in range(n)]
                trick[(Ctx.PLAYED_CARD, j)] = enc.select(leader, [cards[o] for o in order])
                trick[(Ctx.PLAYED_DECLARED, j)] = enc.select(leader, [named[o] for o in order])
            self.trick_envs.append((k, trick))
            w = Z3Compiler(enc, trick).visit(D.trick_winner(game))
            winner = enc.select(leader, [enc.select(w, [enc.int((x + j) % n) for j in range(n)])
                                         for x in range(n)])
            self.facts += [winner >= 0, winner < n]
            self.cards.append(cards)
            self.named.append(named)
            self.leaders.append(leader)
            self.winners.append(winner)
            leader = winner
        self.base = base

    def _initial(self, track: K.Track) -> Any:
        enc = self.enc
        if track.type.value == "bool":
            return enc.bool(bool(track.initial))
        if track.type.value == "suit":
            from spec.dsl._build import suit_code

            return enc.int(suit_code(track.initial))  # type: ignore[arg-type]
        return enc.int(int(track.initial))  # type: ignore[call-overload]

    def history(self) -> dict[Any, Any]:
        """The environment a scenario is judged in."""
        enc, n = self.enc, self.game.players
        winners, leaders = self.winners, self.leaders

        def by_trick(items: list[Any], trick: Any) -> Any:
            return enc.select(trick, items, keys=list(range(1, len(items) + 1)))

        def played(trick: Any, seat: Any) -> Any:
            return by_trick([enc.select(seat, cards) for cards in self.cards], trick)

        def taken(seat: Any) -> Any:
            out: Any = enc.bv(0)
            for cards, w in zip(self.cards, winners):
                all_cards = cards[0]
                for c in cards[1:]:
                    all_cards = all_cards | c
                out = out | z3.If(w == seat, all_cards, enc.bv(0))
            return out

        return {
            **self.base,
            WonTrick: lambda seat, number: by_trick([w == seat for w in winners], number)
            if not z3.is_int_value(number) else (winners[number.as_long() - 1] == seat
                                                 if 1 <= number.as_long() <= len(winners)
                                                 else enc.bool(False)),
            Taken: taken, PlayedTo: played,
            LedTo: lambda trick: by_trick([enc.select(ld, cards) for ld, cards
                                           in zip(leaders, self.cards)], trick),
            LeaderOf: lambda trick: by_trick(leaders, trick),
            WinnerOf: lambda trick: by_trick(winners, trick),
            Ctx.TRICK_NUMBER: enc.int(self.game.tricks + 1),
            Ctx.SEAT: enc.int(0),
        }

    def auction(self, calls: int) -> tuple[list[Any], list[dict[str, Any]]]:
        """Facts for an auction of exactly ``calls`` calls that ends with this contract."""
        enc = self.enc
        facts, rows, dealer = _auction_steps(enc, calls, 1)
        facts = list(facts) + [dealer == self.dealer]
        facts += [enc.cards_var(f"hand_{s}") == h for s, h in enumerate(self.owners.hands)]
        facts += [r["legal"] for r in rows]
        facts += [z3.Not(r["ends"]) for r in rows[:-1]] + [rows[-1]["ends"], rows[-1]["has_after"]]
        standing: Any = enc.int(-1)
        for r in rows:
            standing = z3.If(r["is_bid"], r["bid"], standing)
        facts += [standing == self.contract, rows[-1]["high_after"] == self.declarer]
        facts += [z3.Not(r["proxy"]) for r in rows]
        return facts, rows


def _fewest_calls(u: _Unrolled, most: int) -> int | None:
    """The fewest calls of an auction that ends with a contract (the auction alone)."""
    for calls in range(1, most + 1):
        s = u.solving.solver()
        s.add(*u.owners.facts, *u.auction(calls)[0])
        if s.check() == z3.sat:
            return calls
    return None


def _decode(u: _Unrolled, model: z3.ModelRef, rows: list[dict[str, Any]]) -> tuple[tuple[int, ...], list[Action]]:
    game = u.game
    hands = u.owners.decode(model)
    actions: list[Action] = []
    for r in rows:
        if z3.is_true(model.eval(r["is_bid"], model_completion=True)):
            actions.append(Call(game.ladder[model.eval(r["bid"], model_completion=True).as_long()]))
        else:
            actions.append(PASS)
    n = game.players
    for cards, named, leader in zip(u.cards, u.named, u.leaders):
        first = model.eval(leader, model_completion=True).as_long()
        for j in range(n):
            seat = (first + j) % n
            i = u.enc.card_index(cards[seat], model)
            code = model.eval(named[seat], model_completion=True).as_long()
            actions.append(Play(game.deck[i], suit_from_code(code) if code != NO_SUIT else None))
    return hands, actions


def played_deals(game: Game, *, seed: int, seconds: float, most: int,
                 dealer: int | None = None) -> Iterator[tuple[State, str]]:
    """Whole deals played by bots from seeds ``seed``, ``seed + 1``, ... (at most ``most``
    of them, or as many as ``seconds`` allow), each with how it was played.

    Random bots and modest ones (:func:`~spec.engine.modest_bot`: low contracts, no
    announcement unless demanded) take turns, so that situations rare among random
    auctions, a low contract made or a deal without announcements, turn up as well.
    """
    start = time.perf_counter()
    for k in range(most):
        if k and time.perf_counter() - start > seconds:
            return
        modest = k % 2 == 1
        state = play_deal(game, seed=seed + k, dealer=dealer,
                          bots=[modest_bot if modest else random_bot] * game.players)
        yield state, f"random deals ({k + 1}{', modest bots' if modest else ''})"


def _sampled(game: Game, where: Expr, why: str, *, n: int, seed: int, dealer: int | None,
             timeout: float, most: int) -> Scenario:
    """Deals played by bots that make ``where`` true: for a game Z3 does not unroll."""
    start = time.perf_counter()
    test = history_test(game, where)
    states: list[State] = []
    seen: set[tuple[int, ...]] = set()
    tried = 0
    for state, _how in played_deals(game, seed=seed, seconds=timeout, most=most,
                                    dealer=dealer):
        tried += 1
        if state.dealt not in seen and test(state):
            seen.add(state.dealt)
            states.append(state)
            if len(states) == n:
                return Scenario("found", states, "", time.perf_counter() - start, "random deals")
    return Scenario("unknown" if not states else "found", states,
                    f"{why}; of {tried} deals played by bots, {len(states)} make it true",
                    time.perf_counter() - start, "random deals")


def scenarios_where(game: Game, where: Expr, *, n: int = 1, seed: int = 0,
                    dealer: int | None = None, timeout: float = 120.0,
                    max_calls: int | None = None, most: int = 20_000) -> Scenario:
    """``n`` distinct deals, each with a complete legal sequence of calls and cards, that
    make ``where`` true; every one replayed by the engine.

    Z3 unrolls the auction and the play; for a game whose play it does not unroll (see
    :func:`unsupported`), deals played by bots are searched instead (at most ``most``, in
    ``timeout`` seconds), which finds deals but cannot prove there are none.

    Raises:
        ReplayMismatchError: the engine does not reach the scenario Z3 found (a bug).
    """
    why = unsupported(game)
    if why:
        return _sampled(game, where, why, n=n, seed=seed, dealer=dealer, timeout=timeout,
                        most=most)
    test = history_test(game, where)
    return solve_scenarios(game, lambda u, rows: Z3Compiler(u.enc, u.history()).visit(where),
                           lambda state, _model, _rows: test(state), n=n, seed=seed,
                           dealer=dealer, timeout=timeout, max_calls=max_calls)


def solve_scenarios(game: Game, claim_of: Any, confirm: Any, *, n: int = 1, seed: int = 0,
                    dealer: int | None = None, timeout: float = 120.0,
                    max_calls: int | None = None) -> Scenario:
    """The search behind :func:`scenarios_where`: ``claim_of(unrolled, auction rows)`` gives
    the Z3 condition; ``confirm(state, model, rows)`` checks the engine's replay."""
    why = unsupported(game)
    if why:
        raise NotationError(why)
    start = time.perf_counter()
    dealer = game.players - 1 if dealer is None else dealer
    solving = Solving(timeout)
    u = _Unrolled(game, solving, dealer)
    s = solving.solver()
    s.add(*u.facts)
    eng = engine_for(game)
    max_calls = max_calls or 4 * game.players + 8
    states: list[State] = []
    rng = random.Random(seed)
    fewest = _fewest_calls(u, max_calls)
    if fewest is None:
        return Scenario("impossible", [], f"no auction of at most {max_calls} calls ends with "
                        "a contract", time.perf_counter() - start)
    while len(states) < n:
        found = None
        for calls in range(fewest, max_calls + 1):
            s.push()
            facts, rows = u.auction(calls)
            s.add(*facts, claim_of(u, rows))
            # start from a random deal: keep what cards the scenario allows
            target = eng.hands_from_order(eng.deal_order(seed, 10 ** 6 + len(states)), dealer)
            keep = {}
            for seat, m in enumerate(target):
                for i in range(len(game.deck)):
                    if m >> i & 1 and rng.random() < 0.5:
                        lit = u.enc.bool_var(f"keep_{len(states)}_{calls}_{i}")
                        s.add(z3.Implies(lit, u.owners.owner[i] == seat))
                        keep[str(lit)] = lit
            active = list(keep.values())
            r = s.check(*active)
            rounds = 0
            while r == z3.unsat and active and rounds < 4:
                core = {str(x) for x in s.unsat_core()}
                if not core:
                    break
                active = [x for x in active if str(x) not in core]
                r = s.check(*active)
                rounds += 1
            if r == z3.unsat and active:
                r = s.check()
            if r == z3.sat:
                found = (s.model(), rows)
                s.pop()
                break
            s.pop()
            if r == z3.unknown:
                return Scenario("unknown", states, unknown_reason(s, timeout),
                                time.perf_counter() - start)
        if found is None:
            status = "found" if states else "impossible"
            return Scenario(status, states, f"no deal makes it true with an auction of at most "
                            f"{max_calls} calls" if not states else
                            f"only {len(states)} deals make it true",
                            time.perf_counter() - start)
        model, rows = found
        hands, actions = _decode(u, model, rows)
        state = eng.start(hands, dealer=dealer, seed=seed)
        for a in actions:
            state = eng.apply(state, a)
        if state.phase is not Phase.OVER or not confirm(state, model, rows):
            raise ReplayMismatchError("the engine's replay of the scenario does not make the "
                                      "condition true")
        states.append(state)
        s.add(z3.Not(z3.And(*[h == u.enc.bv(m) for h, m in zip(u.owners.hands, hands)])))
    return Scenario("found", states, "", time.perf_counter() - start)


