"""The Hypothesis strategies of spec.strategies: valid deals, positions and records of every
game, conditions kept, and small shrunk examples."""
from __future__ import annotations

import importlib
import json
import sys

import pytest
from hypothesis import HealthCheck, find, given, settings

from spec.constraints import deal_test, parse_where
from spec.engine import Phase, Play, engine_for, legal_actions
from spec.errors import NotationError
from spec.records import hands_from_text, replay, to_record
from spec.registry import GAMES
from spec.strategies import Deal, Position, deals, positions, records

KEYS = sorted(GAMES)
# a few examples each, the same on every run; no deadline on a loaded machine
FEW = settings(max_examples=4, derandomize=True, database=None, deadline=None,
               suppress_health_check=[HealthCheck.too_slow])
SHRINK = settings(max_examples=200, derandomize=True, database=None, deadline=None)


def _first_variant(key: str) -> str:
    """A variant of the game that can be played (the first the game lists)."""
    for v in GAMES[key].variants:
        try:
            GAMES[key].with_variants(v.id)
        except NotationError:
            continue
        return v.id
    pytest.skip(f"{key} has no variant that can be played")


@pytest.mark.parametrize("key", KEYS)
def test_deals_share_out_the_deck_as_the_deal_rule_does(key: str) -> None:
    game = GAMES[key]

    @FEW
    @given(deals(key))
    def check(deal: Deal) -> None:
        assert deal.game is game
        engine_for(game).check_hands(deal.hands)
        assert hands_from_text(game, deal.as_json()["hands"]) == deal.hands
        state = deal.state()
        assert state.dealt == deal.hands and state.dealer == deal.dealer
        assert game.table.name(deal.dealer) in repr(deal)

    check()


@pytest.mark.parametrize("key", KEYS)
def test_deals_take_variants_by_id(key: str) -> None:
    variant = _first_variant(key)

    @FEW
    @given(deals(GAMES[key], variants=(variant,)))
    def check(deal: Deal) -> None:
        assert deal.game.active_variants == (variant,)
        assert variant in repr(deal)

    check()


@pytest.mark.parametrize("key", KEYS)
def test_positions_are_reached_by_legal_actions(key: str) -> None:
    @FEW
    @given(positions(key))
    def check(position: Position) -> None:
        state = position.deal.state()
        for seat, action in position.actions:
            assert state.turn == seat
            assert action in legal_actions(state)
            state = engine_for(state.game).apply(state, action)
        assert state.phase is position.state.phase and state.turn == position.state.turn
        assert to_record(state) == to_record(position.state)  # states compare by identity

    check()


@pytest.mark.parametrize("key", KEYS)
def test_positions_in_a_phase_are_in_it(key: str) -> None:
    @FEW
    @given(positions(key, phase="play"))
    def check(position: Position) -> None:
        assert position.state.phase is Phase.PLAY
        assert legal_actions(position.state)

    check()


def test_a_phase_the_game_does_not_have_is_refused() -> None:
    with pytest.raises(NotationError, match="no phase 'exchange'"):
        positions("vint", phase=Phase.EXCHANGE)


@pytest.mark.parametrize("key", KEYS)
def test_records_replay_in_the_engine(key: str) -> None:
    @FEW
    @given(records(key))
    def check(record: dict[str, object]) -> None:
        data = json.loads(json.dumps(record))
        assert data["scores"] is not None
        report = replay(data)
        assert report.ok, report.message

    check()


@pytest.mark.parametrize("key", KEYS)
def test_records_with_a_variant_replay(key: str) -> None:
    variant = _first_variant(key)

    @FEW
    @given(records(key, variants=[variant]))
    def check(record: dict[str, object]) -> None:
        assert record["variants"] == [variant]
        report = replay(json.loads(json.dumps(record)))
        assert report.ok, report.message

    check()


@pytest.mark.parametrize("key", KEYS)
def test_where_keeps_the_deals_that_satisfy_it(key: str) -> None:
    game = GAMES[key]
    text = f"holds({game.table.names[0]}, {game.deck[-1]}) or length({game.table.names[1]}) == 0"
    test = deal_test(game, parse_where(game, text))

    @FEW
    @given(deals(key, where=text))
    def check(deal: Deal) -> None:
        assert test(deal.dealer, deal.hands)

    check()


def test_records_take_a_condition_about_the_play() -> None:
    where = "winner(1) == South"

    @FEW
    @given(records("vint", where=where))
    def check(record: dict[str, object]) -> None:
        assert record["tricks"][0]["winner"] == "South"  # type: ignore[index]

    check()


def test_deals_refuse_a_condition_about_the_play() -> None:
    with pytest.raises(NotationError, match="records\\(\\) takes it"):
        deals("vint", where="winner(1) == South")


def test_a_game_is_found_by_its_key_or_alias() -> None:
    assert find(deals("304"), lambda d: True, settings=SHRINK).game is GAMES["304"]
    with pytest.raises(NotationError, match="unknown game"):
        deals("skat")


def test_a_failing_deal_shrinks_to_the_pack_in_order_with_one_card_moved() -> None:
    """A property that fails on any deal where North holds the ace of spades shrinks to
    the pack's own order (each seat a whole suit, the engine's default dealer and seed 0)
    with the ace exchanged for one card."""
    game = GAMES["vint"]
    ace = game.deck.index(game.deck.parse_card("AS"))
    found = find(deals("vint"), lambda d: bool(d.hands[0] >> ace & 1), settings=SHRINK)
    assert found.seed == 0 and found.dealer == game.players - 1
    canonical = [((1 << 13) - 1) << (13 * k) for k in range(4)]
    moved = sum((h ^ c).bit_count() for h, c in zip(found.hands, canonical)) // 2
    assert moved == 2, found  # the ace went one way, one card the other


def test_a_failing_position_shrinks_to_few_actions() -> None:
    """A property that fails once a card is played shrinks to the first card played."""
    found = find(positions("vint"), lambda p: bool(p.state.tricks or p.state.trick),
                 settings=SHRINK)
    plays = [a for _seat, a in found.actions if isinstance(a, Play)]
    assert len(plays) == 1, found


def test_without_hypothesis_the_import_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # import hypothesis fails
    monkeypatch.delitem(sys.modules, "spec.strategies")
    with pytest.raises(ImportError) as e:
        importlib.import_module("spec.strategies")
    assert str(e.value) == "spec.strategies needs Hypothesis: pip install 'trickspec[hypothesis]'"


def test_hypothesis_reports_a_position_a_hand_a_line() -> None:
    from hypothesis.vendor.pretty import pretty

    found = find(positions("vint", phase="play"), lambda p: True, settings=SHRINK)
    lines = pretty(found).splitlines()
    assert lines[0] == "Position(" and lines[1].strip().startswith("Deal(vint, seed ")
    assert [line.split(":")[0].strip() for line in lines[2:6]] == list(GAMES["vint"].table.names)
    assert lines[6].strip().startswith("actions: ") and lines[-1].strip() == "play)"
    assert "pass" in repr(found) and "\n" not in repr(found)
