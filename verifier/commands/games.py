"""``trickspec games``: the registered games and their variants."""
from __future__ import annotations

import argparse
import json

from spec.registry import GAMES
from verifier.commands._common import EXIT_OK, Commands


def add_parser(commands: Commands) -> None:
    """``games``: as text or JSON."""
    g = commands.add_parser("games", help="list the registered games and their variants")
    g.add_argument("--json", action="store_true")
    g.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """One line (or JSON object) per game: its key, name, players, cards, rules and
    variants."""
    rows = []
    for g in GAMES.values():
        rows.append({"game": g.key, "name": g.name, "players": g.players, "cards": len(g.deck),
                     "rules": len(g.rules), "variants": [v.id for v in g.variants]})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['game']:12} {r['name']}: {r['players']} players, {r['cards']} cards, "
                  f"{r['rules']} rules; variants: {', '.join(r['variants']) or 'none'}")
    return EXIT_OK
