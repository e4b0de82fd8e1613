"""The steps of a deal: well formed for every game and variant, and what the engine runs."""
from __future__ import annotations

import ast
import pathlib

import pytest

from spec.dsl import _steps as S
from spec.engine import Phase, legal_actions, new_deal, pick
from spec.engine import apply as apply_action
from spec.registry import GAMES

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _every_game():  # type: ignore[no-untyped-def]
    for key, game in GAMES.items():
        yield pytest.param(game, id=key)
        for v in game.variants:
            try:
                yield pytest.param(game.with_variants(v.id), id=f"{key}+{v.id}")
            except Exception:  # a variant that needs another one switched on
                continue


@pytest.mark.parametrize("game", list(_every_game()))
def test_the_steps_form_one_chain_that_ends_with_the_play(game) -> None:  # type: ignore[no-untyped-def]
    steps = game.steps
    names = [s.name for s in steps]
    assert len(set(names)) == len(names)
    for step, after in zip(steps, steps[1:]):
        assert step.next == after.name
    assert steps[-1].next is None and steps[-1].phase == Phase.PLAY.value
    # every phase the engine shows is a value of the engine's Phase, and a step at which
    # nobody acts shows none
    for step in steps:
        assert (step.phase is None) == (step.actor is None), step.name
        if step.phase is not None:
            Phase(step.phase)
        if step.card is not None:
            assert step.ends is not None and step.effects


@pytest.mark.parametrize("game", list(_every_game()))
def test_a_deal_goes_through_the_phases_in_the_order_of_the_steps(game) -> None:  # type: ignore[no-untyped-def]
    """The phases a deal shows, in order, are those of the steps that take place: the
    engine walks the steps and nothing else."""
    import random

    order = [(Phase(s.phase), s.stage) for s in game.steps if s.phase is not None]
    for seed in range(12):
        rng = random.Random(seed)
        s = new_deal(game, seed=seed)
        seen = []
        while not s.is_over:
            key = (s.phase, s.stage if (s.phase, s.stage) in order else None)
            if not seen or seen[-1] != key:
                seen.append(key)
            acts = legal_actions(s)
            s = apply_action(s, acts[pick(rng, len(acts))])
        # a deal thrown in starts again: compare the course of the last deal
        last = max(i for i, k in enumerate(seen) if k == order[0])
        course = seen[last:]
        at = [order.index(k) for k in course]
        assert at == sorted(at), (seed, course)


def _named_fields(x: object) -> set[str]:
    """The fields a value, an effect or a step names, through every part of it."""
    import dataclasses

    out: set[str] = set()
    if isinstance(x, S.Get | S.Set):
        out.add(x.field)
    # the fields the other effects write
    out |= {S.Track: {"tracked"}, S.Record: {"log"}, S.Fire: {"fired"}}.get(type(x), set())
    if isinstance(x, tuple):
        for item in x:
            out |= _named_fields(item)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type) and not hasattr(x, "src_loc"):
        for f in dataclasses.fields(x):
            out |= _named_fields(getattr(x, f.name))
    return out


@pytest.mark.parametrize("game", list(_every_game()))
def test_every_field_a_step_names_is_declared_and_the_engine_state_has_it(game) -> None:  # type: ignore[no-untyped-def]
    from spec.engine._state import State

    named = _named_fields(game.steps)
    assert {"turn", "contract", "standing"} <= named  # the walk reaches the effects
    assert named <= set(S.FIELDS), named - set(S.FIELDS)
    assert set(S.FIELDS) <= set(State.__dataclass_fields__)


@pytest.mark.parametrize("path", sorted((ROOT / "spec" / "engine").glob("*.py")), ids=lambda p: p.name)
def test_the_engine_walks_steps_not_phase_kinds(path: pathlib.Path) -> None:
    """Only the compiled rules still read the program's phases by kind (what each phase's
    rule says); the course of a deal, the calls and the card steps read the steps."""
    named = any(isinstance(n, ast.Name | ast.Attribute) and getattr(n, "id", getattr(n, "attr", "")) == "PhaseKind"
                for n in ast.walk(ast.parse(path.read_text())))
    assert not named or path.name == "_compiled.py", f"{path.name} dispatches on PhaseKind"
