"""``trickspec replay``: a record of a deal, a session for a pot, a match or a rubber,
re-run through the engine and confirmed or rejected."""
from __future__ import annotations

import argparse
import json

from spec.records import replay_record
from verifier.commands._common import EXIT_OK, EXIT_VIOLATED, Commands
from verifier.files import read_json


def add_parser(commands: Commands) -> None:
    """``replay``: the record's file."""
    r = commands.add_parser("replay", help="re-run a deal record through the engine",
                            description="Confirm a record (exit 0) or reject it at the first wrong "
                            "step (exit 1); a malformed record exits 2.")
    r.add_argument("file", metavar="FILE", help="a record from 'trickspec play GAME --json' "
                   "('-' reads standard input)")
    r.add_argument("--json", action="store_true",
                   help='print the verdict as JSON: {"ok": true or false, "message": ...}')
    r.set_defaults(fn=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record and say whether it is confirmed or where it goes wrong."""
    data = read_json(args.file, what="a record from 'trickspec play GAME --json'")
    report = replay_record(data)  # a deal, a session for a pot, a match or a rubber
    if args.json:
        print(json.dumps({"ok": report.ok, "message": report.message}))
    else:
        print(report.message if report.ok else f"rejected: {report.message}")
    return EXIT_OK if report.ok else EXIT_VIOLATED
