"""Figures of a game's page, computed in the build: what many deals played by the bots look
like (the contracts, how often each is made, the declarer's score) and what each variant
changes, drawn with matplotlib as SVG in the page.

The deals are those of ``trickspec stats`` (:mod:`verifier.stats`): seeds 0, 1, ... played
by the bots ``trickspec play`` uses by default; a variant's effect is the paired difference
over the same seeds, with its 95% interval.  The same build draws the same SVG: the seeds
are fixed, and the SVG carries no date and a fixed salt for its ids.
"""
from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import Any

from spec.dsl._build import Game
from spec.engine import play_deal
from verifier.commands._common import bots_for
from verifier.stats import NO_CONTRACT, DealSummary, compare, summarise, tally

from ._names import bid_text

DEALS = 100  # deals of the game's figures; a variant's effect is drawn from a quarter as many
TOP = 12  # contracts drawn, the most played


def _played(game: Game, deals: int) -> list[DealSummary]:
    bots = bots_for(game, None)
    return [summarise(seed, play_deal(game, seed=seed, bots=bots)) for seed in range(deals)]


def _svg(fig: Any) -> list[str]:
    """The figure as SVG lines, the same for the same figure."""
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "trickspec"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text: small, and searchable
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = out.getvalue()
    return text[text.index("<svg"):].splitlines()


def _figure(width: float, height: float) -> tuple[Any, Any]:
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasSVG(fig)
    return fig, fig.add_subplot()


def contracts_figure(game: Game, deals: Sequence[DealSummary]) -> list[str]:
    """A bar a contract (the most played), its share of deals, the part made darker."""
    t = tally(game, list(deals)).contracts()
    rows = list(t.items())[:TOP]
    fig, ax = _figure(6.0, 0.3 * len(rows) + 1.0)
    named = {str(b): bid_text(game, b) for b in game.ladder}  # as the page writes bids
    names = [named.get(c, c) for c, _v in rows][::-1]
    share = [100 * v["share"] for _c, v in rows][::-1]
    made = [100 * v["share"] * v.get("made_share", 0.0) for _c, v in rows][::-1]
    ax.barh(names, share, color="#b8c7dd", label="played")
    ax.barh(names, made, color="#31588a", label="made")
    ax.set_xlabel(f"% of {len(deals)} deals")
    ax.legend(loc="lower right", frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def scores_figure(deals: Sequence[DealSummary]) -> list[str]:
    """A histogram of the declarer's score."""
    scores = [d.declarer_score for d in deals if d.declarer_score is not None]
    fig, ax = _figure(6.0, 2.4)
    ax.hist(scores, bins=min(30, max(5, len(set(scores)))), color="#31588a")
    ax.set_xlabel("the declarer's score for the deal")
    ax.set_ylabel("deals")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def variants_figure(game: Game, variants: Sequence[str], deals: int) -> list[str]:
    """For each variant, how much it changes the share of deals whose contract is made
    (percentage points, paired over the same seeds, with its 95% interval where the
    difference is found)."""
    first = _played(game, deals)
    rows = []
    for v in variants:
        second = _played(game.with_variants(v), deals)
        made = [float(b.made) - float(a.made) for a, b in zip(first, second)]
        mean = 100 * sum(made) / len(made)
        diff = next((d for d in compare(first, second) if d.what == "made"), None)
        low, high = ((100 * diff.ci95[0], 100 * diff.ci95[1]) if diff is not None else (mean, mean))
        rows.append((v, mean, low, high))
    fig, ax = _figure(6.0, 0.35 * len(rows) + 1.0)
    names = [r[0] for r in rows][::-1]
    means = [r[1] for r in rows][::-1]
    errs = [[r[1] - r[2] for r in rows][::-1], [r[3] - r[1] for r in rows][::-1]]
    ax.barh(names, means, xerr=errs, color="#b8c7dd", ecolor="#31588a")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"change in % of deals made ({deals} deals, 95% interval where it differs)")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def _raw(svg: list[str]) -> Iterator[str]:
    yield ".. raw:: html"
    yield ""
    yield "   <div class=\"rulebook-figure\">"
    for line in svg:
        yield f"   {line}" if line else ""
    yield "   </div>"
    yield ""


def figure_lines(game: Game, deals: int = DEALS) -> Iterator[str]:
    """The reST of the figures (none for ``deals`` 0)."""
    if deals <= 0:
        return
    played = _played(game, deals)
    yield (f"These figures are drawn from {deals} deals (seeds 0 to {deals - 1}) played by the "
           f"bots ``trickspec play`` uses by default; ``trickspec stats {game.key}`` gives them "
           "as numbers, with their intervals, for as many deals as you like.")
    yield ""
    yield "**The contracts**: the share of deals played in each, and of those the part made."
    yield ""
    yield from _raw(contracts_figure(game, played))
    if any(d.declarer_score is not None for d in played):
        yield "**The declarer's score** for the deal."
        yield ""
        yield from _raw(scores_figure(played))
    playable = [v.id for v in game.variants if not v.not_decidable]  # stated, not playable yet
    if playable:
        yield ("**What each variant changes**: the share of deals whose contract is made (a deal "
               "with no contract counts as not made), over the same seeds.")
        yield ""
        yield from _raw(variants_figure(game, playable, max(2, deals // 4)))
    unplayed = sum(d.contract == NO_CONTRACT for d in played)
    if unplayed:
        yield f"{unplayed} of the {deals} deals ended with no contract."
        yield ""
