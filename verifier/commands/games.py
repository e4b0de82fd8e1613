"""``trickspec games``: the registered games and their variants."""
from __future__ import annotations

import argparse
import json

from spec.registry import GAMES
from verifier.commands._common import EXIT_OK, Commands


def add_parser(commands: Commands) -> None:
    """``games``: as text or JSON."""
    g = commands.add_parser("games", help="list the registered games, and what each variant does",
                            description="The registered games, and what each variant does.")
    g.add_argument("--json", action="store_true", help="print the games as JSON")
    g.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """One line (or JSON object) per game: its key, name, players, cards, rules and
    variants; then, in the text, a line per variant saying what it does (a variant stated
    but not yet playable says so)."""
    rows = []
    for g in GAMES.values():
        rows.append({"game": g.key, "name": g.name, "players": g.players, "cards": len(g.deck),
                     "rules": len(g.rules), "variants": [v.id for v in g.variants],
                     "variant_summaries": {v.id: v.summary for v in g.variants},
                     "variants_not_playable": [v.id for v in g.variants if v.not_decidable]})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r, g in zip(rows, GAMES.values()):
            print(f"{r['game']:12} {r['name']}: {r['players']} players, {r['cards']} cards, "
                  f"{r['rules']} rules; variants: {', '.join(r['variants']) or 'none'}")
            width = max((len(v.id) for v in g.variants), default=0)
            for v in g.variants:
                stated = " (stated, not playable yet)" if v.not_decidable else ""
                print(f"  {v.id:{width}}  {v.summary}{stated}")
    return EXIT_OK
