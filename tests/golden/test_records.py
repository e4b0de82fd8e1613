"""The same seed gives the same record as when ``records.json`` was written (see golden_records.py)."""
from __future__ import annotations

import json

import pytest

from golden_records import DIGESTS, digests, games

KEPT = json.loads(DIGESTS.read_text())
GAMES = list(games())


def test_every_game_and_variant_is_kept() -> None:
    assert sorted(KEPT) == sorted(name for name, _, _ in GAMES)


@pytest.mark.parametrize(("name", "game", "seeds"), GAMES, ids=[name for name, _, _ in GAMES])
def test_the_records_are_those_kept(name: str, game, seeds: int) -> None:  # type: ignore[no-untyped-def]
    now = digests(game, seeds)
    changed = [s for s, (a, b) in enumerate(zip(now, KEPT[name])) if a != b]
    assert len(now) == len(KEPT[name]) and not changed, (
        f"{name}: {len(changed)} of {seeds} seeds play a different record, the first seed {changed[:1]}; "
        "if a rule fix explains it, regenerate with `python tests/golden/golden_records.py` and name the fix")
