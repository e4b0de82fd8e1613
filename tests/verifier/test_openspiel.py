"""Every game and variant as an OpenSpiel game: OpenSpiel's own simulation test, the checks
of its API tests that apply to a game too large to walk whole (on sampled deals), what a
seat sees, and records that replay in the engine."""
from __future__ import annotations

import json
import pathlib
import random
import re
import subprocess
import sys

import numpy as np
import pyspiel
import pytest

import verifier.openspiel as ospiel
from spec.engine import Call
from spec.records import replay
from spec.registry import GAMES

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _playable(key: str) -> list[str]:
    return [v.id for v in GAMES[key].variants if not v.not_decidable]


def _random_states(game: pyspiel.Game, deals: int, seed: int) -> list[pyspiel.State]:
    """Every state of ``deals`` deals played by random choices, the chance moves too."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        s = game.new_initial_state()
        out.append(s.clone())
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            out.append(s.clone())
    return out


def test_every_game_is_registered() -> None:
    assert set(ospiel.GAME_NAMES) == {ospiel.game_name(k) for k in GAMES}
    assert set(ospiel.GAME_NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k == "vint" else k
                                 for k in sorted(GAMES)])  # Vint's simulation takes 13 s
def test_random_sim_test_on_the_game(key: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(ospiel.game_name(key)), num_sims=2,
                            serialize=True, verbose=False)


# slow: loading a game under a variant asks the verifier whether it is zero-sum (up to 3 s
# each); 29 variants
@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(GAMES))
def test_random_sim_test_on_each_variant(key: str) -> None:
    for variant in _playable(key):
        game = pyspiel.load_game(f"{ospiel.game_name(key)}({variant}=True)")
        assert game.get_parameters()[variant] is True
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_api_checks_on_sampled_deals(key: str) -> None:
    game = pyspiel.load_game(ospiel.game_name(key))
    n = game.num_players()
    states = _random_states(game, 3, seed=len(key))
    infosets: list[set[str]] = [set() for _ in range(n)]
    sums = set()
    for s in states:
        if s.is_terminal():
            assert s.current_player() == pyspiel.PlayerId.TERMINAL
            assert all(s.legal_actions(p) == [] for p in range(n))
            with pytest.raises(RuntimeError):
                s.information_state_string()
            sums.add(sum(s.returns()))
            assert len(s.returns()) == n
        elif s.is_chance_node():
            with pytest.raises(RuntimeError):
                s.information_state_string()
            assert abs(sum(p for _a, p in s.chance_outcomes()) - 1) < 1e-9
        else:
            me = s.current_player()
            assert s.legal_actions() and all(s.legal_actions(p) == [] for p in range(n) if p != me)
            infosets[me].add(s.information_state_string(me))
            assert len(s.information_state_tensor(me)) == game.information_state_tensor_size()
            assert len(s.observation_tensor(me)) == game.observation_tensor_size()
    # no information state is shared between players
    assert sum(len(x) for x in infosets) == len(set().union(*infosets))
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sums == {0.0}


def test_zero_sum_is_declared_where_the_verifier_proves_it() -> None:
    declared = {k: pyspiel.load_game(ospiel.game_name(k)).get_type().utility for k in GAMES}
    # Wiezen's rule score.zero_sum: every payment is between two players
    assert declared["wiezen"] == pyspiel.GameType.Utility.ZERO_SUM
    # Crescendo's other two seats score nothing: not zero-sum
    assert declared["crescendo"] == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize("key", sorted(GAMES))
def test_perfect_recall_and_a_seat_sees_only_its_view(key: str) -> None:
    """A state drawn from what the acting seat has seen (other hands redrawn) gives that
    seat the same information state, observation and tensors; and the seat's past turns,
    the actions it took there, follow from its information state alone."""
    game = pyspiel.load_game(ospiel.game_name(key))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decisions = [s for s in _random_states(game, 2, seed=7 + len(key))
                 if not s.is_chance_node() and not s.is_terminal()]
    for s in decisions[::3]:
        me = s.current_player()
        other = s.resample_from_infostate(me, sampler)
        assert other.information_state_string(me) == s.information_state_string(me)
        assert other.observation_string(me) == s.observation_string(me)
        assert np.array_equal(other.information_state_tensor(me), s.information_state_tensor(me))
        assert np.array_equal(other.observation_tensor(me), s.observation_tensor(me))
        assert other.legal_actions() == s.legal_actions()
        # the seat's own turns: the same in both
        mine = [(b.view(me), a) for b, k, a in s.line.trail if k == me]
        theirs = [(b.view(me), a) for b, k, a in other.line.trail if k == me]
        assert [a for _v, a in mine] == [a for _v, a in theirs]
        assert [ospiel.observation_text(v) for v, _a in mine] == \
               [ospiel.observation_text(v) for v, _a in theirs]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_seat_reads_no_card_it_has_not_seen(key: str) -> None:
    """Every card named in a seat's observation or information state is one its view has
    shown it (now, or at one of its earlier turns)."""
    game = pyspiel.load_game(ospiel.game_name(key))
    deck = GAMES[key].deck
    for s in _random_states(game, 2, seed=19)[::5]:
        if s.is_chance_node() or s.is_terminal():
            continue
        me = s.current_player()
        seen = s.engine_state.view(me).seen_cards.mask
        for before, _k, _a in s.line.trail:
            seen |= before.view(me).seen_cards.mask
        text = s.information_state_string(me)
        table = GAMES[key].table
        for seat, action in s.engine_state.log:  # a bid (5H) is no card
            if isinstance(action, Call):
                text = text.replace(f"{table.name(seat)} {action}", "").replace(f"=> {action}", "")
        text = re.sub(r"; may [^|]*", "", text)  # the actions it may take: its own cards, bids
        named = set(re.findall(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS]|JK", text))
        assert named <= {str(deck[c]) for c in range(len(deck)) if seen >> c & 1}, named


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_deal_played_through_openspiel_replays_in_the_engine(key: str) -> None:
    game = pyspiel.load_game(ospiel.game_name(key))
    s = _random_states(game, 1, seed=11)[-1]
    record = s.record()
    assert replay(record).ok, replay(record)
    assert [float(record["scores"][GAMES[key].table.name(k)]) if record["scores"] else 0.0
            for k in range(game.num_players())] == s.returns()


def test_the_record_replays_from_the_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("trickspec_304")
    record = _random_states(game, 1, seed=5)[-1].record()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "verifier", "replay", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_variants_are_parameters_and_bad_ones_are_refused() -> None:
    game = pyspiel.load_game("trickspec_preference(four_players=True)")
    assert game.num_players() == 4
    assert pyspiel.load_game("trickspec_preference").num_players() == 3
    with pytest.raises(Exception, match="dealer"):
        pyspiel.load_game("trickspec_crescendo(dealer=7)")


def test_actions_have_one_number_in_every_deal() -> None:
    game = pyspiel.load_game("trickspec_crescendo")
    texts: dict[int, str] = {}
    for s in _random_states(game, 3, seed=1):
        if s.is_chance_node() or s.is_terminal():
            continue
        for a in s.legal_actions():
            texts.setdefault(a, s.action_to_string(a))
            assert texts[a] == s.action_to_string(a)
    assert len(set(texts.values())) == len(texts)


def test_the_documentation_example_runs() -> None:
    import importlib.util

    where = importlib.util.spec_from_file_location("quickstart", ROOT / "tests" / "docs" / "test_quickstart.py")
    assert where is not None and where.loader is not None
    quickstart = importlib.util.module_from_spec(where)
    where.loader.exec_module(quickstart)
    quickstart.run_page(ROOT / "docs" / "openspiel.rst", 2)


# slow: IS-MCTS with 100 simulations a decision, 30 deals (minutes of CPU)
@pytest.mark.slow
def test_openspiel_is_mcts_beats_the_random_bot() -> None:
    """Over 30 fixed deals of Crescendo, OpenSpiel's IS-MCTS in one seat (in turn) scores
    more than the random bot in its place, the same cards: the 95% interval of the paired
    margin lies above 0."""
    import math
    import statistics

    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("trickspec_crescendo")
    n = game.num_players()
    margins = []
    for k in range(30):
        rng = random.Random(k)
        pack = list(range(game.max_chance_outcomes()))
        rng.shuffle(pack)
        start = game.new_initial_state()
        for card in pack:
            start.apply_action(card)
        seat = k % n
        bot = ismcts.ISMCTSBot(game=game, uct_c=2.0, max_simulations=100,
                               evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(k)),
                               random_state=np.random.RandomState(k))
        scores = []
        for with_bot in (False, True):
            s, choose = start.clone(), random.Random(k)
            while not s.is_terminal():
                mine = with_bot and s.current_player() == seat
                s.apply_action(bot.step(s) if mine else choose.choice(s.legal_actions()))
            scores.append(s.returns()[seat])
        margins.append(scores[1] - scores[0])
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    assert mean - half > 0, (mean, half)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_redrawn_state_shows_no_seat_the_real_deal(key: str) -> None:
    """A state drawn from one seat's view is the drawn deal through and through: every
    seat's past is that deal's, and a pickle of it gives it back, not the real one."""
    import pickle

    game = pyspiel.load_game(ospiel.game_name(key))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decisions = [s for s in _random_states(game, 1, seed=23)
                 if not s.is_chance_node() and not s.is_terminal()]
    for s in decisions[4::9]:
        me = s.current_player()
        other = s.resample_from_infostate(me, sampler)
        drawn = other.engine_state
        for before, _seat, _a in other.line.trail:
            if before.redeals == drawn.redeals:
                assert before.dealt == drawn.dealt
        again = pickle.loads(pickle.dumps(other))
        assert again.engine_state.dealt == drawn.dealt and str(again) == str(other)
        for q in range(game.num_players()):
            assert again.information_state_string(q) == other.information_state_string(q)
