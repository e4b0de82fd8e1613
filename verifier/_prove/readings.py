"""Whether another reading of a rule's text plays some deal otherwise: found among deals
played by the random bots."""
from __future__ import annotations

from spec.dsl._build import Game
from spec.engine import Phase, apply, new_deal, play_deal
from spec.errors import IllegalActionError
from spec.records import to_record
from verifier import trace
from verifier._prove.decision import Options, Verdict
from verifier._z3.solver import Solving

READING_SEEDS = 1000  # deals played by the random bots to find where two readings differ


def reading_differs(variant_id: str):  # type: ignore[no-untyped-def]
    """A deal the random bots play by the rules in force (seeds from 0) that the variant,
    another reading of the same text, plays or scores otherwise: its actions, applied one
    by one to the same deal under the variant, meet one the variant refuses, or end with
    other scores.  UNKNOWN when no deal of the first :data:`READING_SEEDS` differs (the
    search proves nothing)."""
    def decide(game: Game, solving: Solving, opts: Options):  # type: ignore[no-untyped-def]
        other = game.with_variants(variant_id)
        t = game.table
        for seed in range(READING_SEEDS):
            state = play_deal(game, seed=seed)
            first = state.thrown_in[0].dealer if state.thrown_in else state.dealer
            actions = [x for d in state.thrown_in for x in d.log] + list(state.log)
            there = new_deal(other, seed=seed, dealer=first)
            why = ""
            for k, (seat, action) in enumerate(actions, start=1):
                try:
                    there = apply(there, action)
                except IllegalActionError as e:
                    why = f"action {k}, {t.name(seat)} {action}, is refused: {e}"
                    break
            else:
                if there.phase is not Phase.OVER:
                    why = f"the deal is not over after its {len(actions)} actions"
                elif there.scores != state.scores:
                    why = (f"the scores are {_scores(game, there.scores)} against "
                           f"{_scores(game, state.scores)}")
            if why:
                flags = "".join(f" --variant {v}" for v in game.active_variants)
                lines = [f"seed {seed}, dealer {t.name(first)}: the deal the rules in force play "
                         f"(trickspec play {game.key} --seed {seed}{flags});",
                         f"played the same way with {variant_id}, {why}"]
                return (Verdict.HOLDS, f"the readings part in the deal of seed {seed}",
                        trace.Playthrough(lines, to_record(state), replayed=True))
        return (Verdict.UNKNOWN, f"no deal of the first {READING_SEEDS} played by the random "
                f"bots is played otherwise with {variant_id}", None)
    return decide


def _scores(game: Game, scores: tuple[int, ...] | None) -> str:
    return ", ".join(f"{game.table.name(k)} {x:+d}" for k, x in enumerate(scores or ()))
