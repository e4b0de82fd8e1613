"""``trickspec rules``: a game's rules as the rulebook gives them, without building the site.

``trickspec rules GAME`` lists every rule in force (its id, the digest rule it implements
and how sure that is, and its text); ``trickspec rules GAME ID`` shows one rule whole: its
text, its source, where the game module states it, the variants that replace it or add it,
the properties that cover it (those ``check`` proves) and its rule-coverage fixture.  ID is a
rule id (``play.follow_suit``) or a digest id (the digest's own numbering, GAME-TOPIC-N:
every rule that carries it).
"""
from __future__ import annotations

import argparse
import difflib
import json
from pathlib import Path
from typing import Any

from spec.dsl._build import Game, Rule
from verifier.commands._common import EXIT_OK, GAME_HELP, Commands, game_named
from verifier.errors import InputError
from verifier.fixtures import SHIPPED
from verifier.properties import checks_for


def add_parser(commands: Commands) -> None:
    """``rules``: the game, a rule, the variants in force and the output."""
    r = commands.add_parser(
        "rules", help="a game's rules: each rule's text, source, variants, covering "
        "properties and fixture",
        description="A game's rules, as its module states them.  Without ID: every rule in "
        "force, one line each (id, digest rule and how sure it is, text).  With ID (a rule "
        "id, or a digest id, GAME-TOPIC-N, for every rule that carries it): the rule "
        "whole, with the variants that change it, the properties check proves about it, and "
        "its rule-coverage fixture.  Exit 0; 2: an unknown game, variant or rule.")
    r.add_argument("game", metavar="GAME", help=GAME_HELP)
    r.add_argument("rule", nargs="?", metavar="ID", help="a rule id or a digest id")
    r.add_argument("--variant", action="append", default=[], metavar="ID",
                   help="the rules with this variant in force (repeatable)")
    r.add_argument("--fixtures", metavar="DIR", default=None,
                   help="the folder of rule-coverage fixtures, a sub-folder per game "
                   "(default: those shipped with trickspec, in the installed package, "
                   "verifier/data/fixtures)")
    r.add_argument("--json", action="store_true", help="print the rules as JSON")
    r.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Print the rules asked for (see the module's docstring)."""
    game = game_named(args.game, args.variant)
    fixtures = Path(args.fixtures) if args.fixtures is not None else SHIPPED
    if args.fixtures is not None and not fixtures.is_dir():
        raise InputError(f"--fixtures {args.fixtures}: no such folder")
    if args.rule is None:
        rows = [_brief(r) for r in game.rules]
        if args.json:
            print(json.dumps({"game": game.key, "variants": list(game.active_variants),
                              "rules": rows}, indent=2, ensure_ascii=False))
        else:
            tags = [f"{r['source']['ref']} [{r['source']['origin']}]" for r in rows]
            width, tag_width = max(len(r["id"]) for r in rows), max(map(len, tags))
            for row, tag in zip(rows, tags):
                print(f"{row['id']:{width}}  {tag:{tag_width}}  {row['text']}")
        return EXIT_OK
    found = _rules_named(game, args.rule)
    details = [_details(game, r, fixtures) for r in found]
    if args.json:
        print(json.dumps({"game": game.key, "variants": list(game.active_variants),
                          "rules": details}, indent=2, ensure_ascii=False))
        return EXIT_OK
    print("\n\n".join(_text(d) for d in details))
    return EXIT_OK


def _rules_named(game: Game, name: str) -> tuple[Rule, ...]:
    """The rule of that id, or every rule carrying that digest id.

    Raises:
        InputError: none has it (the message names the closest ids).
    """
    by_id = [r for r in game.rules if r.id == name]
    found = tuple(by_id) or game.rule_by_ref(name)
    if found:
        return found
    for v in game.variants:
        if v.id in game.active_variants:
            continue
        if any(r.id == name or name in (r.source.ref, *r.source.also) for r in v.adds):
            raise InputError(f"{game.name}: {name!r} is a rule the variant {v.id} adds; "
                             f"add --variant {v.id}")
    ids = [r.id for r in game.rules] + sorted({x for r in game.rules
                                                for x in (r.source.ref, *r.source.also)})
    close = difflib.get_close_matches(name, ids, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else \
        f" (see 'trickspec rules {game.key}' for its rules)"
    raise InputError(f"{game.name} has no rule or digest rule {name!r}{hint}")


def _source(rule: Rule) -> dict[str, Any]:
    return {"ref": rule.source.ref, "origin": rule.source.origin.value,
            "note": rule.source.note, "also": list(rule.source.also)}


def _brief(rule: Rule) -> dict[str, Any]:
    return {"id": rule.id, "source": _source(rule), "text": rule.text}


def _details(game: Game, rule: Rule, fixtures: Path) -> dict[str, Any]:
    """Everything the rulebook says of one rule, as JSON values."""
    checks = checks_for(game)
    covering = [{"id": c.id, "kind": c.kind, "text": c.text} for c in checks
                if rule.id in c.covers]
    active = set(game.active_variants)
    changing = [v for v in game.variants if any(old.id == rule.id for old, _n in v.replaces)
                or any(r.id == rule.id for r in v.adds)]
    stated_by = [v.id for v in changing if v.id in active]  # the rule as shown is theirs
    replaced = [v.id for v in changing if v.id not in active
                and any(old.id == rule.id for old, _n in v.replaces)]
    added = [v.id for v in changing if v.id not in active]
    added = [vid for vid in added if vid not in replaced]
    loc = rule.src_loc
    return {
        "id": rule.id, "text": rule.text,
        "source": _source(rule),
        "construct": type(rule.body).__name__,
        "stated_at": f"{Path(loc.file).name}:{loc.line}" if loc is not None else None,
        "stated_by_variants": stated_by, "replaced_by_variants": replaced,
        "added_by_variants": added,
        "covered_by": covering,
        "fixture": _fixture(game, rule, fixtures),
    }


def _fixture(game: Game, rule: Rule, fixtures: Path) -> str | None:
    """The rule's fixture in the folder, where it was found with the variants in force."""
    path = fixtures / game.key / f"{rule.id}.json"
    if not path.is_file():
        return None
    try:
        variants = json.loads(path.read_text(encoding="utf-8")).get("variants", [])
    except (OSError, ValueError, AttributeError):
        return None
    return str(path) if list(variants) == list(game.active_variants) else None


def _text(d: dict[str, Any]) -> str:
    src = d["source"]
    lines = [d["id"], f"  {d['text']}",
             f"  source: {src['ref']} [{src['origin']}]" + (f" {src['note']}" if src["note"] else "")
             + (f"; also {', '.join(src['also'])}" if src["also"] else ""),
             f"  stated as: {d['construct']}" + (f" ({d['stated_at']})" if d["stated_at"] else "")]
    if d["stated_by_variants"]:
        lines.append(f"  as the variants in force state it: {', '.join(d['stated_by_variants'])}")
    if d["replaced_by_variants"]:
        lines.append(f"  replaced by the variants: {', '.join(d['replaced_by_variants'])}")
    if d["added_by_variants"]:
        lines.append(f"  added by the variants: {', '.join(d['added_by_variants'])}")
    if d["covered_by"]:
        lines.append(f"  covered by {len(d['covered_by'])} "
                     f"propert{'y' if len(d['covered_by']) == 1 else 'ies'}:")
        lines += [f"    {c['id']} ({c['kind']}): {c['text']}" for c in d["covered_by"]]
    else:
        lines.append("  covered by no property")
    lines.append(f"  fixture: {d['fixture'] or 'none'}")
    return "\n".join(lines)
