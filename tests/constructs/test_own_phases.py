"""Phases no registered game has, each stated by a game of its own with the block that
writes its steps, are played and proved like any other: the card pass of pass_game.py (each
seat passes three cards to its left before the play, as in Hearts) and the second round of
rounds_game.py (the two highest bidders bid on).

Nothing of either is written in a back end: the engine runs their steps; the Z3 situations
read from the steps where a seat's cards may come from and assume nothing the steps of a
phase of the game's own may change (how many cards a seat holds, the auction's counters);
the property bounding the auction, which reads the auction's stages, says it does not
bound the second round.  The scenario unroller unrolls the pass action by action, as it
would any step whose action is a card of the actor's hand, and says it does not unroll the
second round yet.
"""
from __future__ import annotations

import dataclasses
import pathlib
import random
from typing import Any, ClassVar

import pytest
import z3
from pass_game import GAME, PassCards
from rounds_game import GAME as ROUNDS

from spec.dsl import Claim, Rule, Scope, contract, dealer, declarer, trump
from spec.dsl import _steps as S
from spec.dsl._constructs import PhaseConstruct
from spec.dsl._nodes import NO_SUIT
from spec.dsl._origins import ANY, DEALT, hand_origins, origins_of_steps, sizes_kept
from spec.engine import Call, Lay, Phase, Play, apply, legal_actions, new_deal, pick, play_deal
from spec.errors import IllegalActionError, SpecDefinitionError
from spec.records import replay, to_record
from spec.seats import seat_after, seats_from
from verifier._unrolled import Unrolled
from verifier._z3.solver import DEFAULT_RLIMIT, Solving
from verifier.properties import Verdict, check_game
from verifier.scenario import _decode, unsupported

SEEDS = range(80)
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _to_pass(seed: int):  # type: ignore[no-untyped-def]
    state, rng = new_deal(GAME, seed=seed), random.Random(seed)
    while state.phase is Phase.AUCTION:
        actions = legal_actions(state)
        state = apply(state, actions[pick(rng, len(actions))])
    return state


def test_the_pass_is_a_step_between_the_contract_and_the_play() -> None:
    assert [s.name for s in GAME.steps] == ["auction", "settle", "pass", "take up", "play"]
    assert [p.name for p in GAME.program.phases] == ["auction", "pass", "play"]
    assert GAME.program.part_of("pass.cards") == "pass"


@pytest.mark.parametrize("seed", SEEDS)
def test_each_seat_passes_three_cards_to_its_left(seed: int) -> None:
    state = play_deal(GAME, seed=seed)
    if state.contract < 0:
        return
    laid = [(seat, a) for seat, a in state.log if isinstance(a, Lay)]
    assert len(laid) == 12
    passed = [0] * 4
    for seat, lay in laid:
        passed[seat] |= 1 << GAME.deck.index(lay.card)
    # in turn from the declarer, three cards each, from the seat's own hand as dealt
    assert [seat for seat, _a in laid] == [s for s in seats_from(state.declarer, 4)
                                           for _ in range(3)]
    assert all(passed[s] & ~state.dealt[s] == 0 for s in range(4))
    # the cards each seat played are what it was dealt, less what it passed, with what the
    # seat on its right passed it
    for s in range(4):
        played = sum(1 << c for t in state.tricks for c, p in zip(t.cards, t.seats) if p == s)
        right = next(r for r in range(4) if seat_after(r, 4) == s)
        assert played == state.dealt[s] & ~passed[s] | passed[right]


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_records_with_the_pass_replay(seed: int) -> None:
    record = to_record(play_deal(GAME, seed=seed))
    assert replay(record, GAME).ok


def test_a_card_not_held_cannot_be_passed_and_the_state_is_kept() -> None:
    state = next(s for s in map(_to_pass, SEEDS) if s.phase.value == "pass")
    other = next(s for s in range(4) if s != state.turn)
    card = next(c for i, c in enumerate(GAME.deck) if state.hands[other] >> i & 1)
    before = (state.hands, state.aside, state.log, state.turn)
    with pytest.raises(IllegalActionError):
        apply(state, Lay(card))
    assert (state.hands, state.aside, state.log, state.turn) == before
    assert sorted(str(a.card) for a in legal_actions(state)) == sorted(
        str(c) for i, c in enumerate(GAME.deck) if state.hands[state.turn] >> i & 1)


def test_the_situations_let_a_seat_hold_any_card_after_the_pass() -> None:
    # a seat's cards in the play come from other seats too, and a phase of the game's own
    # changes the hands: the trick situation assumes neither where they came from nor
    # how many a seat holds
    assert ANY in hand_origins(GAME) and not sizes_kept(GAME)
    assert sizes_kept(ROUNDS)


def test_the_properties_of_the_play_hold_and_those_of_the_outcome_are_not_proved() -> None:
    # the pass changes the hands: the trick situation reads from the steps what it may
    # assume of them; the outcome situation assumes every hand plays every trick, which the
    # steps do not show yet, so its checks are UNKNOWN rather than proved
    results = {r.id: r for r in check_game(GAME)}
    outcome = {"score.zero_sum", "play.eight_tricks"}
    assert len(results) >= 10
    for rid, r in results.items():
        assert r.verdict is (Verdict.UNKNOWN if rid in outcome else Verdict.HOLDS), (rid, r.detail)
        if rid in outcome:
            assert "the outcome situation assumes them" in r.detail


def _unrolled_deal(state, *, passes=None, play: bool = True, game=GAME):  # type: ignore[no-untyped-def]
    """The unrolled deal of ``state``'s dealer, its solver holding the deal, the contract,
    the cards passed (``passes``: by default the engine's, in order, phase after phase)
    and, with ``play``, every card played as the engine dealt, settled and played them."""
    u = Unrolled(game, Solving(rlimit=DEFAULT_RLIMIT), state.dealer)
    enc, s = u.enc, u.solving.solver()
    s.add(*u.facts)
    for i, owner in enumerate(u.owners.owner):
        s.add(owner == next(k for k, h in enumerate(state.dealt) if h >> i & 1))
    s.add(u.declarer == state.declarer, u.contract == state.contract)
    if passes is None:
        passes = [game.deck.index(a.card) for _s, a in state.log if isinstance(a, Lay)]
    for turns in u.turns.values():
        # one per card, or per card of every hand where Z3 does not prove the hands hold
        # each card once as the step begins: no deal has more
        assert len(turns) in (len(game.deck), game.players * len(game.deck))
        for k, (_step, live, card) in enumerate(turns):
            s.add(z3.And(live, card == enc.bv(1 << passes[k])) if k < 12 else z3.Not(live))
        passes = passes[12:]
    if play:
        for k, t in enumerate(state.tricks):
            s.add(*[u.cards[k][seat] == enc.bv(1 << c) for seat, c in zip(t.seats, t.cards)])
    return u, s


def test_the_scenarios_unroll_the_pass_action_by_action() -> None:
    assert unsupported(GAME) == ""
    assert unsupported(ROUNDS).endswith("(it has the steps of the phase 'bidding on')")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_deal_the_engine_played_is_a_model_of_the_unrolled_pass(seed: int) -> None:
    # the pass, the take-up and the play the engine ran satisfy the unrolled facts, and the
    # scenario's replay reads back the very actions
    state = play_deal(GAME, seed=seed)
    assert state.contract >= 0
    u, s = _unrolled_deal(state)
    assert len(u.turns["pass"]) == len(GAME.deck)  # the hands as dealt hold each card once
    assert s.check() == z3.sat
    _hands, actions = _decode(u, s.model(), [])
    assert [a for a in actions if isinstance(a, Lay)] == [
        a for _s, a in state.log if isinstance(a, Lay)]
    assert [a for a in actions if isinstance(a, Play)] == [
        a for _s, a in state.log if isinstance(a, Play)]


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class _PassAgain(PassCards):
    """A second pass, its steps named as the first's."""

    kind: ClassVar[str] = "pass again"


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class _PassEarly(PassCards):
    """The pass made before the auction."""

    kind: ClassVar[str] = "early pass"
    before_contract: ClassVar[bool] = True


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class _DeclarerPasses(PassCards):
    """The declarer passes every card of the pass, whoever's turn it is."""

    kind: ClassVar[str] = "declarer passes"

    def steps(self, w: Any, phase: Any) -> tuple[S.Step, ...]:
        passing, taking = PassCards.steps(self, w, phase)
        return dataclasses.replace(passing, actor=S.Get("declarer")), taking


@pytest.mark.slow
def test_a_second_pass_named_as_the_first_is_unrolled_on_its_own() -> None:
    # each step's actions have variables of their own, whatever the steps are called
    game = _plus(GAME, Rule(id="pass.again", text="Then each passes three more to his left.",
                            source=GAME.rules[-1].source, body=_PassAgain(first=declarer)))
    assert [s.name for s in game.steps].count("pass") == 2 and unsupported(game) == ""
    state = play_deal(game, seed=1)
    assert sum(isinstance(a, Lay) for _s, a in state.log) == 24
    u, s = _unrolled_deal(state, game=game)
    first, second = ({str(c) for _s, _l, c in u.turns[k]} for k in ("pass", "pass again"))
    assert not first & second
    assert s.check() == z3.sat


def test_the_scenarios_do_not_unroll_a_pass_before_the_contract_or_by_another_seat() -> None:
    # the unroller reads the steps after the contract, each card from the hand of the
    # seat to act, as the engine takes it
    early = _with(GAME, "pass.cards", _PassEarly(first=dealer))
    assert unsupported(early).endswith("(it has the steps of the phase 'early pass')")
    other = _with(GAME, "pass.cards", _DeclarerPasses(first=declarer))
    assert unsupported(other).endswith("(it has the steps of the phase 'declarer passes')")


def test_a_pass_the_rules_do_not_allow_is_no_model() -> None:
    # the same cards passed in another order: each seat would pass cards it does not hold;
    # and a card passed twice, which leaves its hand with the first pass
    state = play_deal(GAME, seed=1)
    passes = [GAME.deck.index(a.card) for _s, a in state.log if isinstance(a, Lay)]
    assert _unrolled_deal(state, passes=passes[3:] + passes[:3])[1].check() == z3.unsat
    assert _unrolled_deal(state, passes=[passes[0], *passes[:-1]], play=False)[1].check() == z3.unsat


# -- the second round of the two highest bidders ------------------------------------------
def test_the_second_round_is_a_step_of_the_auction() -> None:
    assert [s.name for s in ROUNDS.steps] == ["auction", "bidding on", "settle", "play"]
    assert [p.name for p in ROUNDS.program.phases] == ["auction", "bidding on", "play"]


def _calls(state):  # type: ignore[no-untyped-def]
    return [(seat, a) for seat, a in state.log if isinstance(a, Call)]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_two_highest_bidders_bid_on_until_one_passes(seed: int) -> None:
    state = play_deal(ROUNDS, seed=seed)
    calls, keys = _calls(state), ROUNDS.bid_keys
    # the first round: until three passes follow a bid (four passes: thrown in)
    first, passes = 0, 0
    for k, (_seat, call) in enumerate(calls):
        passes = passes + 1 if call.bid is None else 0
        if passes == 3 and any(c.bid is not None for _s, c in calls[:k + 1]):
            first = k + 1
            break
    if not first:
        assert state.thrown_in
        return
    best: dict[int, int] = {}
    for seat, call in calls[:first]:
        if call.bid is not None:
            best[seat] = max(best.get(seat, -1), keys[ROUNDS.ladder.index(call.bid)])
    second = calls[first:]
    if len(best) < 2:  # nobody to bid on against
        assert not second
        return
    high, runner = sorted(best, key=lambda s: best[s], reverse=True)[:2]
    assert second, "the two highest bidders bid on"
    assert second[0][0] == runner  # the lower first, then in turn
    assert {seat for seat, _c in second} <= {high, runner}
    assert [c.bid is None for _s, c in second] == [False] * (len(second) - 1) + [True]
    assert state.declarer == (second[-2][0] if len(second) > 1 else high)


@pytest.mark.parametrize("seed", SEEDS[:40])
def test_records_with_the_second_round_replay(seed: int) -> None:
    assert replay(to_record(play_deal(ROUNDS, seed=seed)), ROUNDS).ok


def test_the_second_round_is_proved_like_the_auction_but_its_end() -> None:
    results = {r.id: r for r in check_game(ROUNDS)}
    assert results.pop("auction.ends").verdict is Verdict.UNKNOWN  # its stages alone
    assert all(r.verdict is Verdict.HOLDS for r in results.values()), results


def test_no_back_end_names_either_phase() -> None:
    # each phase is written in its game module alone
    for folder in ("spec", "verifier", "docs/_ext"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for name in ("PassCards", "pass_test", "HighestTwoBidOn", "rounds_test",
                         "bidding on"):
                assert name not in text, (path, name)


# -- what the verifier may not assume of a phase of a game's own ---------------------------
class _ThrowAway(PassCards):
    """The cards passed are thrown away instead of handed on: fewer tricks are played."""

    def steps(self, w: Any, phase: Any) -> tuple[S.Step, ...]:
        passing, taking = super().steps(w, phase)
        return passing, dataclasses.replace(taking, enter=(S.Set("aside", S.Lit(0, per_seat=True)),))


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class _NoTrumps(PhaseConstruct):
    """Before the play, trumps are abolished whatever the contract says."""

    kind: ClassVar[str] = "no trumps"
    actor: ClassVar[str] = "nobody"
    action: ClassVar[str] = "none"

    def steps(self, w: Any, phase: Any) -> tuple[S.Step, ...]:
        return (S.Step("no trumps", None, None, phase.opened_by, None,
                       enter=(S.Set("trump", S.Lit(NO_SUIT)),)),)


def _with(game, rule_id: str, body):  # type: ignore[no-untyped-def]
    return game.with_rules([r if r.id != rule_id else Rule(id=r.id, text=r.text, source=r.source,
                                                          body=body) for r in game.rules])


def _plus(game, *rules: Rule):  # type: ignore[no-untyped-def]
    return game.with_rules([*game.rules, *rules])


def test_cards_thrown_away_leave_the_tricks_unproved() -> None:
    # the engine plays five tricks: 'the eight tricks go to the four seats' must not hold
    game = _with(GAME, "pass.cards", _ThrowAway(first=declarer))
    state = play_deal(game, seed=1)
    assert state.contract < 0 or len(state.tricks) == 5
    result = {r.id: r for r in check_game(game, only=("play.eight_tricks", "score.zero_sum"))}
    assert result["play.eight_tricks"].verdict is Verdict.UNKNOWN
    assert "changes aside, hands" in result["play.eight_tricks"].detail


def test_a_phase_that_sets_trumps_leaves_the_trick_situation_unstated() -> None:
    claim = Rule(id="play.trumps_named", text="Trumps are the contract's strain.",
                 source=ROUNDS.rules[-1].source,
                 body=Claim(Scope.TRICK, trump == contract.strain))
    game = _plus(ROUNDS, Rule(id="play.no_trumps", text="No trumps.",
                              source=ROUNDS.rules[-1].source, body=_NoTrumps()), claim)
    result = {r.id: r for r in check_game(game, only=("play.trumps_named",))}
    assert result["play.trumps_named"].verdict is Verdict.UNKNOWN
    assert "changes trump" in result["play.trumps_named"].detail


def test_a_seat_given_a_card_after_the_turn_moves_may_hold_any_card() -> None:
    turn, mine = S.Get("turn"), S.Only(S.Get("turn"), S.Acted())
    step = S.Step("give", "give", None, None, "give", actor=turn, card="lay", effects=(
        S.Set("hands", S.Less(S.Get("hands"), mine)), S.Set("turn", S.After(turn)),
        S.Set("hands", S.Joined(S.Get("hands"), mine))))
    assert ANY in origins_of_steps((step,))
    kept = dataclasses.replace(step, effects=(step.effects[0], step.effects[2]))
    assert origins_of_steps((kept,)) == {DEALT}


def test_a_phase_may_not_take_the_name_of_a_phase_every_game_knows() -> None:
    class _Play(_NoTrumps):
        kind: ClassVar[str] = "play"

    with pytest.raises(SpecDefinitionError, match="may not be called 'play'"):
        _plus(ROUNDS, Rule(id="play.again", text="Again.", source=ROUNDS.rules[-1].source,
                           body=_Play())).program
