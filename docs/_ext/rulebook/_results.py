"""What the verifier says about each game, for the rulebook: property verdicts, findings
under variants, and the bids the call rules allow.

The results come from a real run of the checks (``verifier.properties.check_game``, what
``trickspec check --json`` prints) made while the documentation is built.  They are kept
in a cache file so that a second build is quick, but a cached entry is used only when its
key matches: a digest of every source file of ``spec`` and ``verifier``, of everything the
game states (its rules, variants and properties as rendered), the Z3 version and the
solver's timeout.  Any change to the rules or to the checks makes the entry stale, and a
stale entry is never shown: the checks run again.
"""
from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import json
import multiprocessing
import os
import pathlib
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import spec
import verifier
from spec.dsl._build import Game
from spec.registry import GAMES
from verifier._z3.solver import DEFAULT_RLIMIT
from verifier.errors import SolverUnknownError
from verifier.properties import Options, check_game, checks_for, legal_bids, run_check, variant_checks

from ._expr import fingerprint

__all__ = ["GameResults", "VariantRun", "results_for", "cache_key", "unchecked"]

FORMAT = "trickspec-rulebook-results/1"


@dataclass
class VariantRun:
    """The checks a variant can change, run with the variant in force."""

    variant: str
    results: list[dict[str, Any]]  # Result.to_json() of each check
    skipped: str = ""  # why the variant was not checked (it cannot be decided yet)


@dataclass
class GameResults:
    """Everything the verifier said about one game in one run."""

    key: str  # the cache key the results were computed for
    game: str
    results: list[dict[str, Any]]  # Result.to_json() of every check, in the verifier's order
    variants: list[VariantRun]
    legal_bids: list[int]
    checked: bool = True  # False: the properties are listed without verdicts
    seconds: float = 0.0
    z3_version: str = ""
    timeout: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResults:
        runs = [VariantRun(**v) for v in data.pop("variants")]
        return cls(variants=runs, **data)

    def by_id(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: r for r in self.results}


@functools.lru_cache(maxsize=1)
def _sources_digest() -> str:
    """A digest of every source file of the spec and verifier packages."""
    h = hashlib.sha256(FORMAT.encode())
    for package in (spec, verifier):
        root = pathlib.Path(package.__file__).resolve().parent
        for path in sorted(root.rglob("*.py")):
            h.update(str(path.relative_to(root.parent)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _z3_version() -> str:
    import z3

    return str(z3.get_version_string())


def cache_key(game: Game, timeout: float) -> str:
    """The key a game's cached results must carry to be used."""
    parts = (_sources_digest(), fingerprint(game), _z3_version(), repr(float(timeout)))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _compute(game: Game, key: str, timeout: float) -> GameResults:
    start = time.perf_counter()
    opts = Options(timeout=timeout)
    results = [r.to_json() for r in check_game(game, opts=opts)]
    runs = []
    for v in game.variants:
        if v.not_decidable:
            runs.append(VariantRun(v.id, [], v.not_decidable))
            continue
        played, checks = variant_checks(game, v.id)
        runs.append(VariantRun(v.id, [run_check(played, c, opts).to_json() for c in checks]))
    return GameResults(key, game.key, results, runs, _bids(game, timeout),
                       seconds=time.perf_counter() - start, z3_version=_z3_version(),
                       timeout=timeout)


def _bids(game: Game, timeout: float) -> list[int]:
    """The bids the call rules ever allow; [] (so the ladder is shown whole, no bid called
    impossible) when Z3 cannot decide them in time."""
    try:
        return list(legal_bids(game, timeout=timeout, rlimit=DEFAULT_RLIMIT))
    except SolverUnknownError:
        return []


def _compute_registered(key_name: str, key: str, timeout: float) -> dict[str, Any]:
    """Worker entry point: the results of a registered game, as JSON-ready data."""
    return asdict(_compute(GAMES[key_name], key, timeout))


def unchecked(game: Game, timeout: float = 60.0) -> GameResults:
    """The properties of a game listed without verdicts (a build that skips the checks)."""
    results = [{"id": c.id, "text": c.text, "kind": c.kind, "finding": c.finding,
                "covers": list(c.covers)} for c in checks_for(game)]
    return GameResults("", game.key, results, [], _bids(game, timeout),
                       checked=False)


def _load(path: pathlib.Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    games = data.get("games")
    return games if isinstance(games, dict) else {}


def results_for(games: Iterable[Game], cache: pathlib.Path | None, *, timeout: float = 60.0,
                jobs: int = 1, log: Callable[[str], None] = print) -> dict[str, GameResults]:
    """The verifier's results for each game, from the cache where its key matches, else
    from running the checks now (in ``jobs`` processes when there are several games to
    check); the cache is then rewritten."""
    stored = _load(cache) if cache else {}
    out: dict[str, GameResults] = {}
    todo: list[tuple[Game, str]] = []
    for game in games:
        key = cache_key(game, timeout)
        entry = stored.get(game.key)
        if isinstance(entry, dict) and entry.get("key") == key:
            out[game.key] = GameResults.from_json(dict(entry))
        else:
            todo.append((game, key))
    if not todo:
        return out
    log(f"checking the properties of {', '.join(g.name for g, _k in todo)} "
        f"({'no cache' if not stored else 'the cache is stale'}; about a minute)")
    in_pool = [(g, k) for g, k in todo if GAMES.get(g.key) is g]
    here = [(g, k) for g, k in todo if GAMES.get(g.key) is not g]
    if jobs > 1 and len(in_pool) > 1:
        # each worker imports the registry afresh, so only registered games go to a worker
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=min(jobs, len(in_pool)),
                mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {g.key: pool.submit(_compute_registered, g.key, k, timeout)
                       for g, k in in_pool}
            for name, fut in futures.items():
                out[name] = GameResults.from_json(fut.result())
    else:
        here = todo
    for game, key in here:
        out[game.key] = _compute(game, key, timeout)
    for g, _k in todo:
        log(f"{g.name}: {len(out[g.key].results)} properties checked in "
            f"{out[g.key].seconds:.1f} s")
    if cache is not None:
        merged = {**stored, **{k: asdict(v) for k, v in out.items()}}
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"format": FORMAT, "games": merged}, indent=1,
                                  ensure_ascii=False), encoding="utf-8")
        tmp.replace(cache)
    return out
