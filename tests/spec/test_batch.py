"""The batch back end plays many deals at once; its records are the engine's.

For every game (and variant) whose deals it runs, the actions each deal's policy chose are
applied again by the per-action engine to the state the deal entered the batch in, action
by action (each checked, the legal actions the same as the batch's at every decision), and
the two records must be the same text, scores and all.  The compiled kernel fills the same
columns as the interpreter.  A game whose play it does not run is refused by name.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from spec.batch import NotBatchable, play_batch, random_policy
from spec.dsl._nodes import Ctx, Ref
from spec.engine import Call, Declare, Discard, Lay, Phase, apply, engine_for
from spec.records import to_record
from spec.registry import GAMES

DEALS = 2_000  # a game in the default suite; 10,000 and a million with the slow tests
VARIANT_DEALS = 300
SLOW_DEALS = int(os.environ.get("TRICKSPEC_BATCH_DEALS", "1000000"))
CHUNK = 10_000


# the games whose play the batch runs, each with every variant the engine decides; the
# others are refused by name (the last test)
BATCHED = ("crescendo", "vint", "preference", "wiezen", "304")
REFUSED = {"304": ("caps_when_certain",)}  # a search a claim (the last test)
FORMS = [form for key in BATCHED for form in (
    GAMES[key], *(GAMES[key].with_variants(v.id) for v in GAMES[key].variants
                  if not v.not_decidable and v.id not in REFUSED.get(key, ())))]
DEFAULT = [GAMES[key] for key in BATCHED]


def _name(game) -> str:
    return "+".join((game.key, *game.active_variants))


class _Recorded:
    """The random policy, keeping each lane's legal actions at each of its decisions."""

    def __init__(self, seed: int) -> None:
        self.policy, self.legal = random_policy(seed), {}

    def __call__(self, step, legal, deals, draws):
        masks = legal.tolist() if legal.ndim == 1 else [  # a matrix: more than 63 actions
            sum(1 << int(a) for a in np.flatnonzero(row)) for row in legal]
        for deal, draw, mask in zip(deals.tolist(), draws.tolist(), masks):
            if mask:  # a lane at another step is offered nothing
                self.legal[(deal, draw)] = mask
        return self.policy(step, legal, deals, draws)


def _mask(eng, batch, state, actions) -> int:
    """The engine's legal actions in ``state`` in the batch's numbering of the step's
    actions: a pass then the bids; a card's number; an option's place in its step."""
    calls = {int(a): k for k, a in enumerate(batch.engine.call_action)}
    step = eng.choice_step(state)
    names = [o.name for o in step.options] if step is not None else []
    out = 0
    for a in actions:
        if isinstance(a, Call):
            index = calls[eng.action_number[a]]
        elif isinstance(a, Declare) and state.phase is Phase.PLAY:  # after the plays
            width = len(eng.game.deck) * (1 + len(batch.engine.codes))
            index = width + batch.engine.play_announcement_names.index(a.name)
        elif isinstance(a, Declare) and step is None:  # an announcement of the auction
            index = batch.engine.ladder + 1 + batch.engine.announcement_names.index(a.name)
        elif isinstance(a, Declare):
            index = names.index(a.name)
        elif isinstance(a, Discard | Lay):
            index = eng.game.deck.index(a.card)
        else:
            index = eng.action_number[a]
        out |= 1 << index
    return out


def _same_records(game, seeds, play_seed: int = 1, dealer: int | None = None) -> int:
    """Plays ``seeds`` in the batch, applies each deal's actions again through the engine
    from the state it entered the batch in (the legal actions the same at every
    decision), and returns how many deals were compared."""
    eng = engine_for(game)
    policy = _Recorded(play_seed)
    batch = play_batch(eng, seeds, policy=policy, dealer=dealer)
    starts, ends, scores = batch.starts(), batch.states(), batch.scores()
    back = set(int(k) for k in batch.handed_back)
    assert len(back) <= len(seeds) // 20  # a deal thrown in, say
    for k in batch.rows:
        k = int(k)
        if k in back:  # the engine played it on from where the batch left it
            continue
        state = starts[k]
        for j, (_seat, action) in enumerate(ends[k].log[len(state.log):]):
            legal = eng.legal_actions(state)
            assert _mask(eng, batch, state, legal) == policy.legal[(seeds[k], j)], \
                f"{_name(game)}, deal {seeds[k]}, action {j}"
            state = apply(state, action)
        ours, theirs = to_record(ends[k]), to_record(state)
        assert json.dumps(ours) == json.dumps(theirs), f"{_name(game)}, deal {seeds[k]}"
        assert tuple(scores[k]) == state.scores
    return len(batch.rows) - len(back)


@pytest.mark.parametrize("game", DEFAULT, ids=_name)
def test_the_batch_gives_the_engines_records(game) -> None:
    assert _same_records(game, range(DEALS)) > DEALS // 2


@pytest.mark.slow
@pytest.mark.parametrize("game", DEFAULT, ids=_name)
def test_ten_thousand_deals_in_the_batch_give_the_engines_records(game) -> None:
    assert _same_records(game, range(DEALS, DEALS + 10_000)) > 5_000


# Wiezen's variants but one (4-8 s each) with the slow tests
@pytest.mark.parametrize("game", [
    pytest.param(f, marks=pytest.mark.slow) if f.key == "wiezen" and f.active_variants
    != ("passes_in_a_row",) else f for f in FORMS if f.active_variants], ids=_name)
def test_each_variant_in_the_batch_gives_the_engines_records(game) -> None:
    assert _same_records(game, range(VARIANT_DEALS)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", DEFAULT, ids=_name)
def test_a_million_deals_in_the_batch_give_the_engines_records(game) -> None:
    played = 0
    for first in range(DEALS, DEALS + SLOW_DEALS, CHUNK):
        played += _same_records(game, range(first, min(first + CHUNK, DEALS + SLOW_DEALS)))
    assert played > SLOW_DEALS // 2


def test_a_deals_cards_do_not_depend_on_its_batch() -> None:
    eng = engine_for(GAMES["vint"])
    whole = play_batch(eng, range(40)).states()
    halves = play_batch(eng, range(20)).states() + play_batch(eng, range(20, 40)).states()
    assert [to_record(s) for s in whole] == [to_record(s) for s in halves]


def test_a_deal_in_stages_names_the_cards_the_batch_dealt_late() -> None:
    # 304's second four cards come from the batch's own pack, which the seed does not
    # tell: its records name them, and replay; the engine's own deals name none
    from spec.engine import play_deal
    from spec.errors import NotationError
    from spec.records import replay_record
    game = GAMES["304"]
    batch = play_batch(engine_for(game), range(60), compiled=False)
    records = [json.loads(json.dumps(to_record(s))) for s in batch.states()]
    assert all("later" in r for r in records if not r["thrown_in"])
    assert all(replay_record(r).ok for r in records)
    wrong = dict(records[0], later=dict(records[0]["later"]))
    wrong["later"]["North"] = records[0]["hands"]["North"]
    with pytest.raises(NotationError, match="is dealt 4 cards after the first stage, not 8"):
        replay_record(wrong)  # bad input, as hands that do not share out the pack
    assert all("later" not in to_record(play_deal(game, seed=s)) for s in range(20))


def test_a_deals_file_deals_a_deal_of_the_batch_again_as_it_was(tmp_path) -> None:
    # 'trickspec deals' names the cards dealt late beside the hands; 'play --deal' deals
    # them late again (the bots' own deal, thrown in or not, begins with that deal)
    from verifier.cli import main
    deals, played = tmp_path / "d.json", tmp_path / "p.json"
    assert main(["deals", "304", "--where", "winner(1) == declarer", "--out", str(deals)]) == 0
    entry = json.loads(deals.read_text())["deals"][0]
    assert entry["later"] == entry["record"]["later"]
    assert main(["play", "304", "--deal", str(deals), "--json", "--out", str(played)]) == 0
    record = json.loads(played.read_text())
    first = record["thrown_in"][0] if record["thrown_in"] else record
    assert (first["hands"], first["later"]) == (entry["hands"], entry["later"])


def test_another_seed_plays_other_cards() -> None:
    eng = engine_for(GAMES["vint"])
    one = [to_record(s)["actions"] for s in play_batch(eng, range(10), seed=1).states()]
    two = [to_record(s)["actions"] for s in play_batch(eng, range(10), seed=2).states()]
    assert one != two


def test_a_policy_choosing_a_card_the_rules_forbid_is_refused() -> None:
    eng = engine_for(GAMES["vint"])
    lowest_missing = lambda step, legal, deals, draws: np.array(  # noqa: E731
        [(~int(m) & (int(m) + 1)).bit_length() - 1 for m in legal], dtype=np.int64)
    with pytest.raises(ValueError, match="which the rules do not allow"):
        play_batch(eng, range(5), policy=lowest_missing)


def test_a_policy_is_followed() -> None:
    eng = engine_for(GAMES["vint"])
    highest = lambda step, legal, deals, draws: np.array(  # noqa: E731
        [int(m).bit_length() - 1 for m in legal], dtype=np.int64)
    batch = play_batch(eng, range(5), policy=highest)
    assert not len(batch.handed_back)
    for start, end in zip(batch.starts(), batch.states()):
        state = start
        for _seat, action in end.log[len(start.log):]:
            # the last in the engine's numbering: the top bid; the card of highest number
            assert action == max(eng.legal_actions(state), key=eng.action_number.__getitem__)
            state = apply(state, action)


@pytest.mark.parametrize(("form", "why"), [
    (GAMES["304"].with_variants("caps_when_certain"), "what a seat can be sure of")],
    ids=lambda x: _name(x) if not isinstance(x, str) else "")
def test_a_play_the_batch_does_not_run_is_refused_by_name(form, why: str) -> None:
    with pytest.raises(NotBatchable, match=why):
        engine_for(form).batch()


def test_a_rule_the_batch_misreads_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    batch = engine_for(GAMES["vint"]).batch()
    any_card = batch._play_env().compile_np(batch.game, batch.tables, Ref(Ctx.HAND), "legal")
    monkeypatch.setattr(batch, "legal", any_card)  # no suit need be followed
    with pytest.raises(AssertionError, match="vint, deal"):
        _same_records(GAMES["vint"], range(50))


def test_the_documentation_examples_run() -> None:
    import importlib.util
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    where = importlib.util.spec_from_file_location("quickstart",
                                                   root / "tests" / "docs" / "test_quickstart.py")
    assert where is not None and where.loader is not None
    quickstart = importlib.util.module_from_spec(where)
    where.loader.exec_module(quickstart)
    namespace = quickstart.run_page(root / "docs" / "batch.rst", 3)
    assert len(namespace["passed_out"].handed_back) == 100  # every seat passed


# numba compiles a game's kernel in 4-60 s: the default suite compiles two games', the slow
# one every form's
KERNELS = [pytest.param(f, marks=pytest.mark.slow)
           if f.active_variants or f.key in ("preference", "wiezen", "304") else f for f in FORMS]


@pytest.mark.parametrize("game", KERNELS, ids=_name)
def test_the_compiled_lanes_give_the_interpreters_columns(game) -> None:
    pytest.importorskip("numba")
    batch = engine_for(game).batch()
    assert batch.kernel() is not None
    numbers = np.arange(10_000 if not game.active_variants else 3_000)
    ours = batch.run(batch.deal(numbers, 3), random_policy(3))
    theirs = batch.run(batch.deal(numbers, 3, compiled=False), random_policy(3), compiled=False)
    over = ours.at == -1
    assert over.mean() > 0.9 and np.array_equal(ours.at, theirs.at)
    for name in ("decisions", "nlog", "ncalls", "nchosen", "nfired", "tlen", "ntricks", "hands",
                 "won", "taken", "contract", "declarer", "trump", "leader", "dealt", "turn",
                 "tracked", "dropped", "absent", "folded", "discards", "nopen", "nfaces", "aside",
                 "pending", "proxy"):
        assert np.array_equal(getattr(ours, name), getattr(theirs, name)), name
    for count, names in (("nlog", ("log_seat", "log_action")), ("ncalls", ("call_seat", "call_bid")),
                         ("nchosen", ("chosen_seat", "chosen_name")),
                         ("nfired", ("fired_at", "fired_rule")), ("tlen", ("trick_c", "trick_n")),
                         ("nfaces", ("trick_f",)),
                         ("ntricks", ("tr_cards", "tr_seats", "tr_named", "tr_faces")),
                         ("nopen", ("open_seat", "open_after"))):
        for name in names:  # the entries each lane filled (past them: what others wrote)
            a, b = getattr(ours, name), getattr(theirs, name)
            rows = min(a.shape[0], b.shape[0])
            filled = np.arange(rows)[:, None] < getattr(ours, count)[None, :]
            filled = filled.reshape(filled.shape + (1,) * (a.ndim - 2))
            assert np.array_equal(np.where(filled, a[:rows], 0), np.where(filled, b[:rows], 0)), name
    for name in ("number", "leader", "winner", "size", "nfaces", "revealed", "seen"):
        assert np.array_equal(ours.tr[name][:-1], theirs.tr[name][:-1]), name
    assert np.array_equal(ours.scores[over], theirs.scores[over])




@pytest.mark.parametrize("answer", [
    lambda step, legal, deals, draws: np.full(len(legal), 300, dtype=np.int64),  # past the end
    lambda step, legal, deals, draws: np.full(len(legal), -1, dtype=np.int64),
    lambda step, legal, deals, draws: None,
    lambda step, legal, deals, draws: np.zeros(len(legal) + 1, dtype=np.int64),
    lambda step, legal, deals, draws: np.zeros(len(legal), dtype=np.float64),
])
def test_a_policy_answering_out_of_range_or_out_of_shape_is_refused(answer) -> None:
    for key in ("crescendo", "vint"):  # a matrix of more than 63 calls, and masks
        with pytest.raises(ValueError, match="policy"):
            play_batch(engine_for(GAMES[key]), range(5), policy=answer)


@pytest.mark.parametrize(("numbers", "dealer"), [([], None), ([1.5], None), (range(3), 7),
                                                 (range(3), -1)])
def test_deals_that_cannot_be_played_are_refused_in_a_sentence(numbers, dealer) -> None:
    with pytest.raises(ValueError, match="deals numbered|the dealer is a seat"):
        play_batch(engine_for(GAMES["vint"]), numbers, dealer=dealer)


def test_more_deals_than_a_batch_holds_are_played_a_batch_at_a_time() -> None:
    from spec.batch import MOST_DEALS, play_batches
    eng = engine_for(GAMES["vint"])
    with pytest.raises(ValueError, match="play_batches"):
        play_batch(eng, range(MOST_DEALS + 1))
    whole = play_batch(eng, range(30)).scores()
    parts = np.concatenate([b.scores() for b in play_batches(eng, range(30), size=7)])
    assert np.array_equal(whole, parts)


def test_another_dealer_deals_and_the_engine_agrees() -> None:
    assert _same_records(GAMES["vint"], range(200), dealer=1) > 150


_KERNEL_RUN = """
import hashlib, numpy as np
from spec.batch import random_policy
from spec.engine import engine_for
from spec.registry import GAMES
batch = engine_for(GAMES["crescendo"]).batch()
run = batch.kernel()
c = batch.run(batch.deal(np.arange(500), 2), random_policy(2))
print(len(run.kernel.stats.cache_hits), hashlib.sha256(c.log_action.tobytes()).hexdigest())
"""


@pytest.mark.slow
def test_a_kernel_is_compiled_once_a_machine(tmp_path) -> None:
    pytest.importorskip("numba")
    import subprocess
    import sys
    env = {**os.environ, "TRICKSPEC_CACHE": str(tmp_path)}
    first, second = (subprocess.run([sys.executable, "-c", _KERNEL_RUN], env=env, check=True,
                                    capture_output=True, text=True).stdout.split()
                     for _ in range(2))
    assert first[0] == "0" and second[0] != "0"  # compiled, then read from the cache
    assert first[1] == second[1]
    assert len(list((tmp_path / "kernels").glob("crescendo_*.py"))) == 1


def test_no_cache_folder_where_none_is_asked_for_or_none_can_be_made(tmp_path, monkeypatch) -> None:
    from spec.engine._batchjit import cache_folder
    for value in ("none", "off", ""):
        monkeypatch.setenv("TRICKSPEC_CACHE", value)
        assert cache_folder() is None
    (tmp_path / "a file").write_text("")
    monkeypatch.setenv("TRICKSPEC_CACHE", str(tmp_path / "a file" / "below"))
    assert cache_folder() is None
    monkeypatch.setenv("TRICKSPEC_CACHE", str(tmp_path / "cache"))
    assert cache_folder() == tmp_path / "cache" / "kernels"
