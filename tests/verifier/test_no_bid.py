""""No bid" (bid number -1: no standing bid, a pass) reads alike in the engine and in Z3.

The rules guard what they read of a standing bid, but a rule that forgets the guard (a
mutant negating it, say) must still mean one thing: the engine's tables end with the
values Z3's encoding gives bid number -1, so a counterexample replays instead of the
engine refusing a call Z3 allowed.
"""
from __future__ import annotations

import pytest
import z3

from spec.dsl._pycompile import GameTables
from spec.registry import GAMES
from verifier._z3.compile import Encoding


@pytest.mark.parametrize("key", sorted(GAMES))
def test_no_bid_has_the_same_level_strain_and_key_in_both_back_ends(key: str) -> None:
    game = GAMES[key]
    enc = Encoding(game, z3.Context())
    none = z3.IntVal(-1, enc.ctx)
    in_z3 = [z3.simplify(f(none)).as_long()
             for f in (enc.bid_level, enc.bid_strain, enc.bid_strain_rank, enc.bid_key)]
    assert game.bid_keys  # the engine's key table is built with the game's bid keys
    tables = GameTables(game).ns
    in_engine = [tables[name][-1] for name in ("_BLEVEL", "_BSTRAIN", "_BSRANK", "_BKEY")]
    assert in_engine == in_z3
    assert tables["_BKEY"][-1] == game.bid_key_table[-1]
    assert len(tables["_BLEVEL"]) == len(game.ladder) + 1
