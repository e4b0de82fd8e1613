"""``trickspec stats``: what many deals of a game say, and where a variant changes them."""
from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Sequence
from typing import Any

from spec.engine import engine_for
from spec.registry import find_game
from verifier.commands._common import (
    DEFAULT_BOT,
    EXIT_OK,
    GAME_HELP,
    VARIANT_HELP,
    Commands,
    Progress,
    add_bots,
    add_cluster,
    arg,
    bots_for,
    emit,
    game_named,
    jobs_arg,
    seed_arg,
    seed_range,
    whole_number,
)
from verifier.cluster import check_address, connected, run_ranges
from verifier.errors import InputError
from verifier.interrupts import worker_pool
from verifier.stats import (
    BATCH_DEALS,
    NO_CONTRACT,
    DealSummary,
    Difference,
    Tally,
    batch_and_summarise,
    compare,
    play_and_summarise,
    tally,
)

MAX_DEALS = 10_000_000
_CHUNK = 50  # deals a worker plays at a time: the split is by seed ranges

deals_arg = arg(lambda t: whole_number(t, what="the number of deals", least=1, most=MAX_DEALS),
                "deals")


def add_parser(commands: Commands) -> None:
    """``stats``: deals, seeds, bots, variants, and a variant to compare with."""
    s = commands.add_parser(
        "stats", help="how often each contract is bid, made and failed, the scores, how often "
        "each rule fires, over many deals",
        description="Play many deals (seeds --seed, --seed + 1, ...) with bots and report how "
        "often each contract is played and made, the declarer's score, each seat's mean "
        "score and how often each rule fires, with 95%% confidence intervals.  With --compare, "
        "play the same seeds with a variant added and report every figure that differs, with "
        "a seed whose deal shows it.  The same seeds give the same figures whatever -j.  "
        "With --cluster, the deals are played on a Dask cluster, split the same way.  "
        "With --batch, the batch back end deals and plays them, choosing at random, many "
        "times as fast (its deals are its own: deal K is not 'trickspec play --seed K').  "
        "Exit 0; 2: bad input.")
    s.add_argument("game", metavar="GAME", help=GAME_HELP)
    s.add_argument("--deals", type=deals_arg, default=1000, metavar="N",
                   help=f"deals to play (default 1,000; at most {MAX_DEALS:,})")
    s.add_argument("--seed", type=seed_arg, default=0, help="the first deal's seed (default 0)")
    s.add_argument("--variant", action="append", default=[], metavar="ID", help=VARIANT_HELP)
    s.add_argument("--compare", metavar="ID", default=None,
                   help="a variant to add for a second run over the same seeds: print where "
                   "the two differ")
    add_bots(s)
    s.add_argument("--batch", action="store_true",
                   help="deal and play the deals in the batch back end (random choices), "
                   f"{BATCH_DEALS:,} at a time: its own deals, numbered from --seed; each "
                   "witness of --compare comes with its records in the JSON")
    s.add_argument("-j", "--jobs", type=jobs_arg, default=1, metavar="N",
                   help="play the deals in N processes (default 1)")
    add_cluster(s, "play the deals on a Dask cluster")
    s.add_argument("--json", action="store_true", help="print the figures as JSON")
    s.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    s.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Play the deals (twice with --compare) and print the figures."""
    game = game_named(args.game, args.variant)
    other = None
    if args.compare is not None:
        if args.compare in args.variant:
            raise InputError(f"--compare {args.compare} is already in force (--variant): name a "
                             "variant to add")
        other = game_named(args.game, [*args.variant, args.compare])
    if args.batch:
        if args.bots is not None and set(args.bots) != {"random"}:
            raise InputError("--batch plays random choices: name no --bots, or --bots random")
        for g in (game, other):
            if g is not None:
                _batchable(g)
    for g in (game, other):  # a bot per seat, for the right number of seats
        if g is not None:
            bots_for(g, args.bots)
    if args.cluster is not None:
        if args.jobs > 1:
            raise InputError("-j and --cluster both say where the deals are played: name one")
        check_address(args.cluster)
    seeds = seed_range(args.seed, args.deals)
    progress = Progress(args.deals * (2 if other else 1), "deals played", after=2.0)
    try:
        with connected(args.cluster) if args.cluster else contextlib.nullcontext() as client:
            first = _played(game, seeds, args.bots, args.jobs, progress, client, args.batch)
            second = (_played(other, seeds, args.bots, args.jobs, progress, client, args.batch)
                      if other else None)
    finally:
        progress.close()
    t = tally(game, first)
    differences = compare(first, second) if second is not None else None
    if args.json:
        out: dict[str, Any] = {**t.to_json(), "bots": _bots(args)}
        if args.batch:
            out["batch"] = True
        if differences is not None:
            out["compare"] = {"variant": args.compare, "second": tally(other, second).to_json(),  # type: ignore[arg-type]
                              "differences": [d.to_json() for d in differences]}
            if args.batch:  # a deal of the batch: its records, as no seed replays it
                for d, j in zip(differences, out["compare"]["differences"]):
                    if d.witness is not None:
                        j["witness_records"] = [_batch_record(g, d.witness) for g in (game, other)]
        return emit(args, json.dumps(out, indent=2))
    text = _text(t, args)
    if differences is not None:
        text += "\n" + _differences_text(game, args.compare, differences, args.batch)
    return emit(args, text)


def _bots(args: argparse.Namespace) -> list[str]:
    return ["random"] if args.batch else list(args.bots or (DEFAULT_BOT,))


def _batchable(game: Any) -> None:
    """Refuse a game the batch back end does not run whole, or whose rules' firing it
    cannot judge, saying why."""
    from spec.batch import NotBatchable
    from verifier.fixtures import firing_conditions
    name = "+".join((game.key, *game.active_variants))
    try:
        batch = engine_for(game).batch()
        batch.watch(firing_conditions(game))
    except NotBatchable as e:
        raise InputError(f"--batch: the batch back end does not play {name}: {e}") from None
    if not batch.deals_whole:
        raise InputError(f"--batch: the batch back end does not deal {name} whole")


def _batch_record(game: Any, number: int) -> dict[str, Any]:
    from spec.batch import play_batch
    from spec.records import to_record
    return to_record(play_batch(engine_for(game), [number], compiled=False).states()[0])


def _played(game: Any, seeds: range, bots: Sequence[str] | None, jobs: int,
            progress: Progress, client: Any = None, batch: bool = False) -> list[DealSummary]:
    """The deals of ``seeds`` summarised, in seed order: in this process, in ``jobs``
    processes, or on the cluster of ``client``; split by seed ranges (of
    ``BATCH_DEALS`` deals with ``batch``: the batch back end's deals)."""
    size = BATCH_DEALS if batch else _CHUNK
    chunks = [range(a, min(a + size, seeds.stop)) for a in range(seeds.start, seeds.stop, size)]
    variants = tuple(game.active_variants)
    if client is not None:
        fn, args = ((_batch_chunk, (game.key, variants)) if batch
                    else (_chunk, (game.key, variants, tuple(bots or ()))))
        return run_ranges(client, fn, args, chunks,
                          on_done=lambda _k, part: progress.reach(progress.done + len(part)))
    if batch and (jobs <= 1 or len(chunks) == 1):
        return batch_and_summarise(game, seeds, on_deals=lambda n: progress.reach(progress.done + n))
    if not batch and (jobs <= 1 or len(seeds) <= _CHUNK):
        return play_and_summarise(game, seeds, bots_for(game, bots), on_deal=progress.step)
    out: list[DealSummary] = []
    with worker_pool(min(jobs, len(chunks))) as pool:
        futures = [pool.submit(_batch_chunk, game.key, variants, c.start, c.stop) if batch
                   else pool.submit(_chunk, game.key, variants, tuple(bots or ()), c.start, c.stop)
                   for c in chunks]
        for f in futures:  # in seed order, whatever order they finish in
            part = f.result()
            out += part
            progress.reach(progress.done + len(part))
    return out


def _chunk(key: str, variants: tuple[str, ...], bots: tuple[str, ...], start: int,
           stop: int) -> list[DealSummary]:
    base = find_game(key)
    game = base.with_variants(*variants) if variants else base
    return play_and_summarise(game, range(start, stop), bots_for(game, bots or None))


def _batch_chunk(key: str, variants: tuple[str, ...], start: int, stop: int) -> list[DealSummary]:
    base = find_game(key)
    return batch_and_summarise(base.with_variants(*variants) if variants else base,
                               range(start, stop))


def _pc(x: float) -> str:
    return f"{100 * x:.1f} %"


def _ci(ci: Sequence[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _text(t: Tally, args: argparse.Namespace) -> str:
    j = t.to_json()
    extra = f" with {', '.join(t.variants)}" if t.variants else ""
    bots = ", ".join(_bots(args))
    which = "deals of the batch" if args.batch else "seeds"
    lines = [f"{find_game(t.game).name}{extra}: {j['deals']:,} deals ({which} {j['seeds'][0]} to "
             f"{j['seeds'][1]}), bots: {bots}; deals thrown in before them: {j['thrown_in']:,}",
             "contracts (share of deals [95% CI]; made, of those deals [95% CI]):"]
    width = max(len(c) for c in j["contracts"])
    for contract, c in j["contracts"].items():
        made = "" if contract == NO_CONTRACT else f"   made {_pc(c['made_share'])} {_ci(c['made_ci95'])}"
        lines.append(f"  {contract:{width}}  {_pc(c['share']):>7} {_ci(c['ci95']):16}{made}")
    m = j["made"]
    if m["of"]:
        lines.append(f"made: {m['deals']:,} of the {m['of']:,} deals with a contract, "
                     f"{_pc(m['deals'] / m['of'])} {_ci(m['ci95'])}")
    s = j["scores"]
    if "declarer" in s:
        d = s["declarer"]
        q = " / ".join(f"{x:g}" for x in d["quartiles"])
        lines.append(f"the declarer's score: mean {d['mean']:g} [{d['ci95'][0]:g}, {d['ci95'][1]:g}]; "
                     f"min {d['min']:g}, quartiles {q}, max {d['max']:g}")
    if "seats" in s:
        lines.append("each seat's mean score: " + ", ".join(f"{k} {v:g}" for k, v in s["seats"].items()))
    fired = j["rules_fired"]
    lines.append("rules that fire (share of deals [95% CI]):" if fired else "no rule fires that a deal shows")
    width = max((len(r) for r in fired), default=0)
    for rule, f in fired.items():
        lines.append(f"  {rule:{width}}  {_pc(f['share']):>7} {_ci(f['ci95'])}")
    return "\n".join(lines)


def _differences_text(game: Any, variant: str, differences: list[Difference],
                      batch: bool = False) -> str:
    head = f"with {variant} added, over the same {'deals' if batch else 'seeds'}:"
    if not differences:
        return (f"{head} no figure differs (no test finds a difference at 5%, over all the "
                "figures together)")
    witness = ("a deal of the batch that shows it: its records with --json" if batch
               else "a seed whose deal shows it")
    lines = [f"{head} {len(differences)} figure(s) differ at 5% over all the figures together "
             f"(second less first [95% CI]; {witness})"]
    for d in differences:
        if d.what == "declarer's score":
            fig = (f"{d.first:g} -> {d.second:g}: {d.difference:+.3g} "
                   f"[{d.ci95[0]:+.3g}, {d.ci95[1]:+.3g}]")
        else:
            fig = (f"{_pc(d.first)} -> {_pc(d.second)}: {100 * d.difference:+.1f} points "
                   f"[{100 * d.ci95[0]:+.1f}, {100 * d.ci95[1]:+.1f}]")
        seed = (f"; e.g. {'deal' if batch else 'seed'} {d.witness}" if d.witness is not None
                else "")
        lines.append(f"  {d.what}: {fig}, p {d.p:.2g}{seed}")
    return "\n".join(lines)
