"""The behaviour of the engine, kept: a digest of the record of every seed.

For seeds 0-999 of every registered game and 0-99 of every variant that plays alone,
the SHA-256 of the record of the deal the random bots play (``spec.records.to_record``
of ``spec.engine.play_deal``), as JSON with sorted keys, first 16 hex digits.  The
digests live in ``records.json`` beside this file, which ``test_records.py`` compares.

A change of the rules or of the engine that changes a record must say so: regenerate
with ``python tests/golden/golden_records.py`` and name the rule fix in the commit message.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import sys
from collections.abc import Iterator

from spec.dsl._build import Game
from spec.engine import play_deal
from spec.errors import NotationError
from spec.records import to_record
from spec.registry import GAMES

HERE = pathlib.Path(__file__).resolve().parent
DIGESTS = HERE / "records.json"
GAME_SEEDS = 1000
VARIANT_SEEDS = 100


def games() -> Iterator[tuple[str, Game, int]]:
    """Every game, then every variant that plays alone: (name, game, number of seeds)."""
    for key, game in GAMES.items():
        yield key, game, GAME_SEEDS
        for v in game.variants:
            try:
                yield f"{key}+{v.id}", game.with_variants(v.id), VARIANT_SEEDS
            except NotationError:  # a variant that needs another one switched on
                continue


def digest(game: Game, seed: int) -> str:
    record = json.dumps(to_record(play_deal(game, seed=seed)), sort_keys=True)
    return hashlib.sha256(record.encode()).hexdigest()[:16]


def digests(game: Game, seeds: int) -> list[str]:
    return [digest(game, s) for s in range(seeds)]


def main() -> int:
    out = {name: digests(game, n) for name, game, n in games()}
    DIGESTS.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"{sum(map(len, out.values()))} digests of {len(out)} games and variants -> {DIGESTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
