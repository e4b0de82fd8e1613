"""The fast random playout plays the deal the per-action path plays, with the same draws,
in test games whose auction takes the loop generated for richer rules
(``spec/engine/_playout_rich.py``) or whose play of the cards judges more than the winner
of a trick (the loop generated from the play step): a hand laid open after a trick (turnup_game),
and the seats game with announcements required and optional in the auction and the play,
a tracked value updated as a trick ends and a deal that value voids, among three seats or
two (a defender dropped out)."""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from seats_game import RULES as SEATS
from turnup_game import GAME as TURNUP
from turnup_game import MISERE

from spec.dsl import (
    Announce,
    Game,
    Rule,
    Scope,
    T,
    Track,
    Update,
    VoidWhen,
    assumption,
    calls_made,
    const,
    is_leading,
    played_suit,
    tracked,
    trick_number,
    trump,
)
from spec.engine import (
    PASS,
    Call,
    Declare,
    Phase,
    State,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    pick,
    play_deal,
    play_on,
)
from spec.engine._playout import CARD, ONCE, TRICK, NotInline, when_read
from spec.registry import GAMES

SEEDS = range(150)


def _rule(rid: str, ref: str, text: str, body) -> Rule:  # type: ignore[no-untyped-def]
    return Rule(id=rid, text=text, source=assumption(ref, "a test game"), body=body)


ANNOUNCING = Game(name="Announcing test game", key="announcing_test", ref_prefix="SEA", doc="",
                  rules=(*SEATS,
    _rule("auction.opened_kept", "SEA-ANN-1", "Whether the auction was opened is kept.",
          Track("opened", T.BOOL, False)),
    _rule("auction.open", "SEA-ANN-2", "The first to call must first say that he opens.",
          Announce("open", Scope.CALL, when=(calls_made == 0) & ~tracked("opened"),
                   sets=(("opened", const(True)),), required=const(True))),
    _rule("auction.hum", "SEA-ANN-3", "Before his first call a player may hum.",
          Announce("hum", Scope.CALL, when=calls_made < 2)),
    _rule("play.last_kept", "SEA-ANN-4", "Whether the last trick was announced is kept.",
          Track("last_said", T.BOOL, False)),
    _rule("play.last", "SEA-ANN-5", "The leader to the last trick must first say so.",
          Announce("last", Scope.PLAY, when=(trick_number == 10) & is_leading
                   & ~tracked("last_said"), sets=(("last_said", const(True)),),
                   required=const(True))),
    _rule("play.knock", "SEA-ANN-6", "The leader to the first two tricks may knock.",
          Announce("knock", Scope.PLAY, when=(trick_number <= 2) & is_leading)),
    _rule("play.trump_led_kept", "SEA-ANN-7", "Whether trumps were led to trick 3 is kept.",
          Track("trump_led", T.BOOL, False)),
    _rule("play.trump_led", "SEA-ANN-8", "A trump led to trick 3 is noted as the trick ends.",
          Update(when=(trick_number == 3) & (played_suit(0) == trump),
                 sets=(("trump_led", const(True)),))),
    _rule("play.trump_led_voids", "SEA-ANN-9", "A trump led to trick 3 voids the deal: the "
          "same dealer deals again.", VoidWhen(when=tracked("trump_led"), redeal_steps=0)),
))


def _fields(s: State) -> tuple[Any, ...]:
    return tuple(getattr(s, f.name) for f in dataclasses.fields(State))


def _walk(start: State, seed: int) -> list[State]:
    """Every state from ``start`` to the end of its deal, one random action at a time."""
    rng = random.Random(seed)
    states = [start]
    while states[-1].phase is not Phase.OVER:
        actions = legal_actions(states[-1])
        states.append(apply(states[-1], actions[pick(rng, len(actions))]))
    return states


def _check(start: State, seed: int) -> None:
    """From ``start``, and from states after it, the fast playout ends where the random
    bot ends action by action, with the same draws."""
    states = _walk(start, seed)
    end = _fields(states[-1])
    for k in range(0, len(states) - 1, 5):
        rng = random.Random(seed)
        for _ in range(k):  # one draw for each action before
            rng.random()
        assert _fields(play_on(states[k], rng)) == end, f"seed {seed}, from action {k + 1}"


def _misere(seed: int) -> State:
    """A deal of turnup_game whose first caller bids misère op tafel, which lays his hand
    open after the first trick, and the others pass."""
    state = apply(new_deal(TURNUP, seed=seed), Call(next(b for b in TURNUP.ladder
                                                         if b.level == MISERE)))
    while state.phase is Phase.AUCTION:
        state = apply(state, PASS)
    return state


@pytest.mark.parametrize("game", [ANNOUNCING, TURNUP], ids=lambda g: g.key)
def test_the_game_takes_the_generated_loops(game: Game) -> None:
    engine = engine_for(game)
    assert engine._play_loop is not None
    assert (engine._rich_auction is not None) is (game is ANNOUNCING)


@pytest.mark.parametrize("game", [ANNOUNCING, TURNUP], ids=lambda g: g.key)
def test_the_fast_playout_plays_the_deal_the_per_action_path_plays(game: Game) -> None:
    for seed in SEEDS:
        _check(new_deal(game, seed=seed), seed)
        assert _fields(play_deal(game, seed=seed)) == _fields(_walk(new_deal(game, seed=seed),
                                                                    seed)[-1]), f"seed {seed}"


def test_the_fast_playout_lays_a_hand_open_as_the_per_action_path_does() -> None:
    for seed in SEEDS[:40]:
        start = _misere(seed)
        _check(start, seed)
        assert play_on(start, random.Random(seed)).laid_open, f"seed {seed}"


def test_the_deals_take_every_rule_of_the_loops() -> None:
    """The seeds above reach what the loops handle: each announcement, required or drawn;
    a deal voided as a trick ends; tricks of two cards as well as three."""
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        state = play_deal(ANNOUNCING, seed=seed)
        for deal in (*state.thrown_in, state):
            seen.update(a.name for _seat, a in deal.log if isinstance(a, Declare))
            seen.update(rule for _at, rule in deal.fired)
        seen.update(f"{len(r.cards)}-card tricks" for r in state.tricks)
    for what in ("open", "hum", "last", "knock", "play.trump_led_voids", "2-card tricks",
                 "3-card tricks"):
        assert seen[what], f"no deal has {what}"


@pytest.mark.parametrize("game", [ANNOUNCING, *GAMES.values()], ids=lambda g: g.key)
def test_the_generic_play_of_the_cards_plays_the_deal_the_per_action_path_plays(
        game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its generated loops for the play of the cards (a game whose rules read what
    they keep in local variables has none), a game plays by the generic handlers, with
    the same draws: the plays of each legal card, or of each suit a card may name, then
    the announcements."""
    engine = engine_for(game)
    monkeypatch.setattr(engine, "_play_loop", None)
    for seed in SEEDS[:30]:
        states = _walk(new_deal(game, seed=seed), seed)
        end = _fields(states[-1])
        for k in [k for k, s in enumerate(states) if s.phase is Phase.PLAY][::7]:
            rng = random.Random(seed)
            for _ in range(k):
                rng.random()
            assert _fields(play_on(states[k], rng)) == end, f"seed {seed}, from action {k + 1}"


def test_when_a_generated_play_reads_each_value_of_the_rules() -> None:
    lines = ["trump = s.trump", "number = s.trick_number", "after = number + 1",
             "mine = hand & _MASK[trump]", "both = after + mine", "top = _MASK[trump]"]
    read_at = when_read(lines, {"_MASK": ()}, live=frozenset({"hands"}),
                        per_trick=frozenset({"trick_number"}), stale=frozenset({"won"}))
    assert [read_at[line] for line in lines] == [ONCE, TRICK, TRICK, CARD, CARD, ONCE]


@pytest.mark.parametrize("line", ["won = s.won[seat]", "held = s.hand(seat)", "n = len(s)"])
def test_a_generated_play_refuses_a_rule_reading_what_it_keeps_aside(line: str) -> None:
    with pytest.raises(NotInline):
        when_read([line], {}, live=frozenset({"hands"}), per_trick=frozenset(),
                  stale=frozenset({"won"}))
