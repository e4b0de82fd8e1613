"""Bad input of every kind, answered by one line on standard error and an exit code.

Each case of :data:`CASES` is a command line, run in-process through
:func:`verifier.cli.main`, with the files it needs written first to a scratch folder (the
working directory of the case).  The table gives the exit code and a fragment of the one
line the command must answer with: on standard error for bad input (exit 2, nothing on
standard output), on standard output for a record the rules reject (exit 1).  No case may
show a traceback or more than one line, or exit 4 (a bug).  A few cases run as a real
process, to show that nothing reaches the terminal but that line.
"""
from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from spec.engine import play_deal
from spec.games.crescendo import GAME as CRESCENDO
from spec.records import hands_text, to_record
from verifier import cli
from verifier.commands import games
from verifier.commands.deals import DEALS_FORMAT
from verifier.fixtures import SHIPPED

# -- what the files of the cases hold ----------------------------------------------------

RECORD: dict[str, Any] = to_record(play_deal(CRESCENDO, seed=3))
# the record's first step is Forehand's call, and its sixth Rearhand's card
assert RECORD["actions"][0]["seat"] == "Forehand" and "call" in RECORD["actions"][0]
assert RECORD["actions"][5]["seat"] == "Rearhand" and "play" in RECORD["actions"][5]
FIRST_CALL, SIXTH_CARD = RECORD["actions"][0]["call"], RECORD["actions"][5]["play"]


def record(change: Callable[[dict[str, Any]], object] | None = None) -> str:
    """A Crescendo record as JSON, changed by ``change`` (which edits it in place)."""
    data = json.loads(json.dumps(RECORD))
    if change is not None:
        change(data)
    return json.dumps(data)


def _deals_data() -> dict[str, Any]:
    deals = [play_deal(CRESCENDO, seed=k) for k in (1, 2)]
    return {"format": DEALS_FORMAT, "game": "crescendo", "variants": [], "where": "true",
            "seed": 0, "status": "found", "method": "rejection", "seconds": 0.0,
            "deals": [{"dealer": "Rearhand", "hands": hands_text(CRESCENDO, d.dealt)}
                      for d in deals]}


DEALS: dict[str, Any] = _deals_data()


def deals_file(change: Callable[[dict[str, Any]], object] | None = None) -> str:
    """A deals file of two Crescendo deals as JSON, changed by ``change``."""
    data = json.loads(json.dumps(DEALS))
    if change is not None:
        change(data)
    return json.dumps(data)


DEALS_FILE = {"deals.json": deals_file()}


def fixtures_folder(name: str = "", change: Callable[[dict[str, Any]], object] | None = None,
                    text: str | bytes | None = None) -> Callable[[Path], None]:
    """Makes a copy of the shipped Crescendo fixtures at a path, with the file ``name``
    changed by ``change`` (on its JSON) or replaced by ``text``."""
    def make(path: Path) -> None:
        path.mkdir()
        for f in (SHIPPED / "crescendo").glob("*.json"):
            (path / f.name).write_bytes(f.read_bytes())
        if change is not None:
            data = json.loads((path / name).read_text(encoding="utf-8"))
            change(data)
            (path / name).write_text(json.dumps(data), encoding="utf-8")
        elif isinstance(text, bytes):
            (path / name).write_bytes(text)
        elif text is not None:
            (path / name).write_text(text, encoding="utf-8")
    return make


def folder(path: Path) -> None:
    path.mkdir()


def fifo(path: Path) -> None:
    os.mkfifo(path)


DEEP = "[" * 100_000 + "]" * 100_000
REPLAY_HINT = "expected a record from 'trickspec play GAME --json'"


# -- the table -------------------------------------------------------------------------

Content = str | bytes | Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """A command line, the files it reads, and how the command must answer."""

    args: tuple[str, ...]
    code: int
    message: str  # a fragment of the one line of the answer
    files: Mapping[str, Content] = field(default_factory=dict)


def bad(*args: str, message: str, files: Mapping[str, Content] | None = None,
        code: int = cli.EXIT_ERROR) -> Case:
    return Case(tuple(args), code, message, files or {})


CASES: dict[str, Case] = {
    # -- usage ---------------------------------------------------------------------------
    "no-command": bad(message="required: command"),
    "unknown-command": bad("deal", message="invalid choice: 'deal'"),
    "unknown-option": bad("games", "--colour", message="unrecognized arguments: --colour"),
    "check-unknown-game": bad("check", "nosuchgame", message="unknown game 'nosuchgame'"),
    "play-unknown-game": bad("play", "nosuchgame", message="unknown game 'nosuchgame'"),
    "long-game-name": bad("play", "g" * 100_000, message="unknown game 'ggggg"),
    "check-unknown-variant": bad("check", "crescendo", "--variant", "nope",
                                 message="unknown variant 'nope'"),
    "check-unknown-property": bad("check", "crescendo", "--property", "nope",
                                  message="has no property 'nope'"),
    # -- numbers -------------------------------------------------------------------------
    **{f"{cmd}-timeout-{name}": bad(cmd, game, *where, f"--timeout={text}", message=expect)
       for cmd, game, where in (("check", "crescendo", ()),
                                ("deals", "crescendo", ("--where", "holds(Forehand, JK)")),
                                ("fixtures", "crescendo", ("--out", "fx")))
       for name, text, expect in (("nan", "nan", "expected a finite number of seconds, got 'nan'"),
                                  ("inf", "inf", "finite number of seconds, got 'inf'"),
                                  ("minus-inf", "-inf", "finite number of seconds, got '-inf'"),
                                  ("1e400", "1e400", "seconds are at most 1,000,000, got '1e400'"),
                                  ("zero", "0", "expected a positive number of seconds, got '0'"),
                                  ("negative", "-1", "expected a positive number of seconds such as 60"),
                                  ("underscore", "1_0", "digits 0-9, got '1_0'"),
                                  ("arabic-digit", "٣", "digits 0-9, got '٣'"),
                                  ("word", "soon", "digits 0-9, got 'soon'"))},
    **{f"{cmd}-rlimit-{name}": bad(cmd, game, *where, "--rlimit", text, message=expect)
       for cmd, game, where in (("check", "crescendo", ()),
                                ("deals", "crescendo", ("--where", "holds(Forehand, JK)")),
                                ("fixtures", "crescendo", ("--out", "fx")))
       for name, text, expect in (("zero", "0", "the resource limit is at least 1"),
                                  ("past-32-bits", "4294967296", "at most 4,294,967,295"),
                                  ("fraction", "1.5", "got '1.5'"),
                                  ("superscript", "²", "digits 0-9, got '²'"))},
    "check-bound-zero": bad("check", "--bound", "0", message="the bound is at least 1"),
    "check-bound-huge": bad("check", "--bound", "100000", message="the bound is at most 1,000"),
    "check-bound-word": bad("check", "--bound", "many", message="got 'many'"),
    "play-seed-arabic": bad("play", "crescendo", "--seed", "١٢", message="digits 0-9, got '١٢'"),
    "play-seed-underscore": bad("play", "crescendo", "--seed", "1_000",
                                message="digits 0-9, got '1_000'"),
    "play-seed-negative": bad("play", "crescendo", "--seed=-3", message="got a negative number"),
    "play-seed-huge": bad("play", "crescendo", "--seed", "9" * 19,
                          message="a seed is at most 999,999,999,999,999,999"),
    "play-seed-5000-digits": bad("play", "crescendo", "--seed", "9" * 5000,
                                 message="a seed is at most"),
    "play-seed-empty": bad("play", "crescendo", "--seed", "", message="got ''"),
    "pbn-seed-word": bad("pbn", "vint", "--seed", "x", message="a seed is a whole number"),
    # -- a file or folder named by an empty text (it would read as not given) -------------
    "pbn-read-empty": bad("pbn", "vint", "--read", "", message="argument --read: an empty file name"),
    "pbn-out-empty": bad("pbn", "vint", "--out", "", message="argument --out: an empty file name"),
    "replay-empty-name": bad("replay", "", message="argument file: an empty file name"),
    # -- the length of a match or a session ----------------------------------------------
    "match-length-not-a-multiple": bad("play", "crescendo", "--match", "--deals", "5",
                                       message="a match of Crescendo is a multiple of 3 deals "
                                       "(game.match_length), not 5"),
    "match-length-to-a-target": bad("play", "304", "--match", "--deals", "4",
                                    message="304 plays a match to its target (game.to_eleven)"),
    "match-length-of-a-rubber": bad("play", "vint", "--match", "--deals", "4",
                                    message="a rubber of Vint ends when a side has won its games"),
    "deals-without-match-or-session": bad("play", "crescendo", "--deals", "6",
                                          message="--deals counts the deals of a --session"),
    "deals-seed-float": bad("deals", "crescendo", "--where", "true", "--seed", "1.0",
                            message="got '1.0'"),
    "fixtures-seed-fullwidth": bad("fixtures", "crescendo", "--out", "fx", "--seed", "１",
                                   message="digits 0-9, got '１'"),
    "pbn-count-zero": bad("pbn", "vint", "-n", "0", message="the count of deals is at least 1"),
    "deals-count-exponent": bad("deals", "crescendo", "--where", "true", "-n", "1e3",
                                message="got '1e3'"),
    "fixtures-search-zero": bad("fixtures", "crescendo", "--out", "fx", "--search", "0",
                                message="the count of random deals is at least 1"),
    "board-superscript": bad("play", "crescendo", "--deal", "deals.json", "--board", "²",
                             files=DEALS_FILE, message="digits 0-9, got '²'"),
    "board-zero": bad("play", "crescendo", "--deal", "deals.json", "--board", "0",
                      files=DEALS_FILE, message="--board is at least 1"),
    "board-past-the-end": bad("play", "crescendo", "--deal", "deals.json", "--board", "3",
                              files=DEALS_FILE, message="has deals 1 to 2; --board 3 is not one"),
    "board-negative": bad("play", "crescendo", "--deal", "deals.json", "--board=-1",
                          files=DEALS_FILE, message="got a negative number"),
    # -- paths that are no plain file ---------------------------------------------------
    "replay-no-such-file": bad("replay", "no-such.json", message="no such file: no-such.json"),
    "replay-path-through-a-file": bad("replay", "rec.json/x", files={"rec.json": record()},
                                      message="a part of the path before the last is a file"),
    "replay-name-too-long": bad("replay", "r" * 300 + ".json",
                                message="the file name is too long"),
    "replay-a-folder": bad("replay", "x.json", files={"x.json": folder},
                           message="x.json is a folder, not a file"),
    "replay-a-fifo-nobody-writes": bad("replay", "pipe", files={"pipe": fifo},
                                       message="pipe is empty"),
    "replay-dev-zero": bad("replay", "/dev/zero", message="/dev/zero holds more than 64 MiB"),
    "replay-dev-null": bad("replay", "/dev/null", message="/dev/null is empty"),
    "replay-nul-in-name": bad("replay", "r\x00.json", message="is not a file name (it holds a NUL"),
    "replay-not-utf8": bad("replay", "r.json", files={"r.json": b'{"a": "\xff"}'},
                           message="r.json is not UTF-8 text (byte 8 is 0xff)"),
    "replay-empty": bad("replay", "r.json", files={"r.json": ""}, message="r.json is empty"),
    "replay-not-json": bad("replay", "r.json", files={"r.json": "not json"},
                           message=f"r.json is not JSON (Expecting value at line 1, column 1); {REPLAY_HINT}"),
    "replay-deep-json": bad("replay", "r.json", files={"r.json": DEEP},
                            message="r.json nests deeper than 64 levels"),
    "replay-5000-digit-number": bad("replay", "r.json", files={"r.json": '{"seed": ' + "7" * 5000 + "}"},
                                    message="holds a number with more digits than Python reads"),
    "replay-nan": bad("replay", "r.json", files={"r.json": '{"seed": NaN}'},
                      message="NaN is not a JSON number"),
    # -- records -------------------------------------------------------------------------
    **{f"record-{name}": bad("replay", "r.json", files={"r.json": text}, message=expect)
       for name, text, expect in (
           ("a-list", "[]", "a record is a JSON object (see 'trickspec play --json'), got a list"),
           ("a-number", "5", "a record is a JSON object"),
           ("null", "null", "a record is a JSON object (see 'trickspec play --json'), got null"),
           ("no-format", record(lambda r: r.pop("format")), "not a trickspec record"),
           ("no-game", record(lambda r: r.pop("game")), "the record has no 'game' field"),
           ("game-number", record(lambda r: r.update(game=5)), "'game' must be a game's name, got a number"),
           ("game-unknown", record(lambda r: r.update(game="chess")), "unknown game 'chess'"),
           ("game-long", record(lambda r: r.update(game="x" * 100_000)), "unknown game 'xxxx"),
           ("variants-string", record(lambda r: r.update(variants="a")),
            "'variants' must be a list of variant ids, got a string"),
           ("variants-number-item", record(lambda r: r.update(variants=[1])), "item 1 is a number"),
           ("variant-unknown", record(lambda r: r.update(variants=["nope"])), "unknown variant 'nope'"),
           ("seed-true", record(lambda r: r.update(seed=True)), "'seed' must be a whole number (the seed), got true"),
           ("seed-string", record(lambda r: r.update(seed="7")), "got a string"),
           ("seed-float", record(lambda r: r.update(seed=1.5)), "got a number"),
           ("seed-negative", record(lambda r: r.update(seed=-1)), "from 0 to 999,999,999,999,999,999, got -1"),
           ("seed-huge", record(lambda r: r.update(seed=10 ** 400)), "from 0 to 999,999,999,999,999,999, got 1000"),
           ("dealer-null", record(lambda r: r.update(dealer=None)), "'dealer' must be a seat's name, got null"),
           ("dealer-unknown", record(lambda r: r.update(dealer="Nobody")), "not a seat: 'Nobody'"),
           ("dealer-empty", record(lambda r: r.update(dealer="")), "not a seat: ''"),
           ("dealer-long", record(lambda r: r.update(dealer="S " * 50_000)), "not a seat: 'S S S"),
           ("thrown-in-number", record(lambda r: r.update(thrown_in=5)), "'thrown_in' must be a list of deals"),
           ("thrown-in-item-number", record(lambda r: r.update(thrown_in=[1])),
            "deal 1 thrown in must be an object with 'hands' and 'actions', got a number"),
           ("thrown-in-item-empty", record(lambda r: r.update(thrown_in=[{}])),
            "deal 1 thrown in has no 'hands' field"),
           ("hands-null", record(lambda r: r.update(hands=None)), "'hands' must be an object mapping names to cards, got null"),
           ("hands-list", record(lambda r: r.update(hands=["AS"])), "got a list"),
           ("hand-number", record(lambda r: r["hands"].update(Forehand=5)), "'Forehand' has a number"),
           ("hand-bad-card", record(lambda r: r["hands"].update(Forehand="QX AS")), "not a card: 'QX'"),
           ("hands-seat-twice", record(lambda r: r["hands"].update(forehand=r["hands"]["Forehand"])),
            "'hands' names Forehand twice"),
           ("hands-unknown-seat", record(lambda r: r["hands"].update(Fifthhand="AS")), "not a seat: 'Fifthhand'"),
           ("hands-short", record(lambda r: r["hands"].pop("Rearhand")), "Rearhand has 0 cards"),
           ("actions-number", record(lambda r: r.update(actions=5)), "'actions' must be a list of actions, got a number"),
           ("action-number", record(lambda r: r["actions"].__setitem__(0, 5)), "step 1: an action is an object"),
           ("action-no-kind", record(lambda r: r["actions"][0].pop("call")), "step 1: an action is an object with 'seat' and one of"),
           ("action-two-kinds", record(lambda r: r["actions"][0].update(play="AS")), "step 1: an action is an object"),
           ("action-seat-number", record(lambda r: r["actions"][0].update(seat=0)), "step 1: 'seat' must be a seat's name, got a number"),
           ("action-card-object", record(lambda r: r["actions"][5].update(play={"card": "AS"})),
            "step 6: 'play' must be an action in record notation (such as 'pass', '15C' or 'AS'), got an object"),
           ("action-call-null", record(lambda r: r["actions"][0].update(call=None)), "step 1: 'call' must be an action"),
           ("tricks-null", record(lambda r: r.update(tricks=None)), "'tricks' must be a list of tricks, got null"),
           ("trick-number", record(lambda r: r["tricks"].__setitem__(0, 1)), "trick 1 must be an object, got a number"),
           ("trick-cards-number", record(lambda r: r["tricks"][0].update(cards=5)), "trick 1: 'cards' must be a list of cards, got a number"),
           ("trick-winner-list", record(lambda r: r["tricks"][1].update(winner=[])), "trick 2: 'winner' must be a seat's name, got a list"),
           ("scores-list", record(lambda r: r.update(scores=[0, 0, 0])), "'scores' must be an object mapping names to whole numbers"),
           ("scores-bool", record(lambda r: r["scores"].update(Forehand=False)), "'Forehand' has false"),
           ("contract-number", record(lambda r: r.update(contract=5)), "'contract' must be null or an object"),
           ("contract-bid-number", record(lambda r: r["contract"].update(bid=19)), "the record's contract: 'bid' must be a bid, got a number"),
           ("lines-number", record(lambda r: r.update(lines=5)), "'lines' must be an object"),
           ("later-number", record(lambda r: r.update(later=5)),
            "'later' must be an object mapping names to cards, got a number"),
           ("later-in-a-deal-of-one-stage", record(lambda r: r.update(later=r["hands"])),
            "Crescendo deals every card at once"),
           ("later-bad-card", record(lambda r: r.update(later={"Forehand": "QX"})), "not a card: 'QX'"),
       )},
    **{f"record-rejected-{name}": bad("replay", "r.json", files={"r.json": text}, message=expect,
                                      code=cli.EXIT_VIOLATED)
       for name, text, expect in (
           ("play-in-the-auction", record(lambda r: r["actions"][0].update(play=r["actions"][0].pop("call"))),
            f"step 1: the record gives Forehand's {FIRST_CALL!r} as a card played, but here (the auction) it is a call"),
           ("call-in-the-play", record(lambda r: r["actions"][5].update(call=r["actions"][5].pop("play"))),
            f"step 6: the record gives Rearhand's {SIXTH_CARD!r} as a call, but here (the play) it is a card played"),
           ("announce-a-call", record(lambda r: r["actions"][0].update(announce=r["actions"][0].pop("call"))),
            f"step 1: the record gives Forehand's {FIRST_CALL!r} as an announcement, but here (the auction) it is a call"),
           ("lay-a-card", record(lambda r: r["actions"][5].update(lay=r["actions"][5].pop("play"))),
            f"step 6: the record gives Rearhand's {SIXTH_CARD!r} as a card laid aside, but here (the play) it is a card played"),
           ("bad-card", record(lambda r: r["actions"][5].update(play="QX")), "step 6: not a card: 'QX'"),
           ("long-card", record(lambda r: r["actions"][5].update(play="Q" * 100_000)), "step 6: not a card: 'QQQ"),
           ("wrong-seat", record(lambda r: r["actions"][0].update(seat="Middlehand")),
            "step 1: the record has Middlehand act, but it is Forehand's turn"),
           ("cut-short", record(lambda r: r.update(actions=r["actions"][:4])), "the record stops after step 4"),
           ("scores", record(lambda r: r["scores"].update(Forehand=99)), "scores: the record says"),
           ("tricks-missing", record(lambda r: r.update(tricks=[])), "trick 1 is missing"),
       )},
    # -- deals files ---------------------------------------------------------------------
    **{f"deals-file-{name}": bad("play", "crescendo", "--deal", "d.json", files={"d.json": text},
                                 message=expect)
       for name, text, expect in (
           ("a-list", "[]", "d.json is not a deals file (format 'trickspec-deals/1'"),
           ("no-format", deals_file(lambda d: d.pop("format")), "d.json is not a deals file"),
           ("other-game", deals_file(lambda d: d.update(game="vint")), "d.json holds deals of 'vint', not 'crescendo'"),
           ("game-number", deals_file(lambda d: d.update(game=5)), "d.json holds deals of 5, not 'crescendo'"),
           ("deals-number", deals_file(lambda d: d.update(deals=5)), "d.json: 'deals' must be a list of deals, got a number"),
           ("deals-null", deals_file(lambda d: d.update(deals=None)), "'deals' must be a list of deals, got null"),
           ("deals-empty", deals_file(lambda d: d.update(deals=[])), "d.json holds no deal"),
           ("deal-string", deals_file(lambda d: d["deals"].__setitem__(0, "AS")),
            "d.json: deal 1 must be an object with 'dealer' and 'hands', got a string"),
           ("dealer-number", deals_file(lambda d: d["deals"][0].update(dealer=2)),
            "deal 1: 'dealer' must be a seat's name, got a number"),
           ("dealer-unknown", deals_file(lambda d: d["deals"][0].update(dealer="Nobody")), "deal 1: not a seat: 'Nobody'"),
           ("hands-list", deals_file(lambda d: d["deals"][0].update(hands=[])), "'hands' must map each seat to its cards"),
           ("hand-bad-card", deals_file(lambda d: d["deals"][0]["hands"].update(Forehand="ZZ")), "not a card: 'ZZ'"),
           ("hands-twice", deals_file(lambda d: d["deals"][0]["hands"].update(F=d["deals"][0]["hands"]["Forehand"])),
            "'hands' names Forehand twice"),
           ("not-json", "{", "d.json is not JSON (Expecting property name enclosed in double quotes"),
       )},
    "play-deal-file-missing": bad("play", "crescendo", "--deal", "none.json",
                                  message="no such file: none.json"),
    "play-deal-file-deep": bad("play", "crescendo", "--deal", "d.json", files={"d.json": DEEP},
                               message="d.json nests deeper than 64 levels"),
    "play-deal-file-folder": bad("play", "crescendo", "--deal", "d", files={"d": folder},
                                 message="d is a folder, not a file"),
    "play-pbn-file-dev-zero": bad("play", "vint", "--pbn", "/dev/zero",
                                  message="/dev/zero holds more than 64 MiB"),
    "pbn-read-folder": bad("pbn", "vint", "--read", "p", files={"p": folder},
                           message="p is a folder, not a file"),
    "pbn-read-through-a-file": bad("pbn", "vint", "--read", "p.pbn/q", files={"p.pbn": "x"},
                                   message="a part of the path before the last is a file"),
    "out-through-a-file": bad("play", "crescendo", "--out", "f/deal.txt", files={"f": "x"},
                              message="cannot write f/deal.txt (a part of the path before the last is a file"),
    "out-no-such-folder": bad("play", "crescendo", "--out", "nowhere/deal.txt",
                              message="cannot write nowhere/deal.txt: no such folder"),
    "out-a-folder": bad("play", "crescendo", "--out", "d", files={"d": folder},
                        message="d is a folder, not a file"),
    "out-dev-full": bad("play", "crescendo", "--out", "/dev/full",
                        message="cannot write /dev/full: No space left on device"),
    "out-name-too-long": bad("pbn", "vint", "--out", "o" * 300, message="the file name is too long"),
    # -- fixtures folders ------------------------------------------------------------------
    "fixtures-check-no-folder": bad("fixtures", "crescendo", "--check", "none",
                                    message="none is not a folder of fixtures"),
    "fixtures-check-a-file": bad("fixtures", "crescendo", "--check", "f", files={"f": "x"},
                                 message="f is not a folder of fixtures"),
    "fixtures-check-name-too-long": bad("fixtures", "crescendo", "--check", "d" * 300,
                                        message="is not a folder of fixtures"),
    "fixtures-check-no-coverage": bad("fixtures", "crescendo", "--check", "fx",
                                      files={"fx": folder},
                                      message="no such file: fx/coverage.json (write the folder with"),
    "fixtures-check-folder-named-json": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder(), "fx/x.json": folder}, message="fx/x.json is a folder, not a file"),
    "fixtures-check-fixture-not-utf8": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", text=b"\xff\xfe")},
        message="fx/play.follow_suit.json is not UTF-8 text"),
    "fixtures-check-coverage-not-utf8": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("coverage.json", text=b"{\xff}")},
        message="fx/coverage.json is not UTF-8 text"),
    "fixtures-check-fixture-not-json": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", text="{")},
        message="fx/play.follow_suit.json is not JSON"),
    "fixtures-check-coverage-deep": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("coverage.json", text=DEEP)}, message="nests deeper than 64"),
    "fixtures-check-without-number": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("coverage.json", lambda d: d.update(without=5))},
        message="coverage.json: 'without' must be an object mapping rule ids to reasons, got a number"),
    "fixtures-check-without-reason-list": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("coverage.json",
                                     lambda d: d["without"].update({"deck.cards": []}))},
        message="'without' must map rule ids to reasons"),
    "fixtures-check-covered-object": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("coverage.json", lambda d: d.update(covered={}))},
        message="'covered' must be a list of rule ids, got an object"),
    "fixtures-check-coverage-game-number": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("coverage.json", lambda d: d.update(game=304))},
        message="'game' must be a game's key, got a number"),
    "fixtures-check-fires-list": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", lambda d: d.update(fires=[]))},
        message="play.follow_suit.json: 'fires' must be an object with 'when' and 'at', got a list"),
    "fixtures-check-at-numbers": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", lambda d: d["fires"].update(at=[1, 2]))},
        message="'fires': 'at' must be a list of places, such as 'trick 3, North', but holds a number"),
    "fixtures-check-rule-null": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", lambda d: d.update(rule=None))},
        message="'rule' must be a string, got null"),
    "fixtures-check-variants-string": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", lambda d: d.update(variants="x"))},
        message="'variants' must be a list of variant ids, got a string"),
    "fixtures-check-record-list": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", lambda d: d.update(record=[]))},
        message="'record' must be a record (an object), got a list"),
    "fixtures-check-unknown-game": bad(
        "fixtures", "crescendo", "--check", "fx",
        files={"fx": fixtures_folder("play.follow_suit.json", lambda d: d.update(game="chess"))},
        message="unknown game 'chess'"),
    "fixtures-out-and-check": bad("fixtures", "crescendo", "--out", "a", "--check", "b",
                                  message="not both"),
    "fixtures-out-a-file": bad("fixtures", "crescendo", "--out", "f", files={"f": "x"},
                               message="f is a file, not a folder for the fixtures"),
    "fixtures-rule-bad-coverage": bad(
        "fixtures", "crescendo", "--out", "fx", "--rule", "play.follow_suit",
        files={"fx": fixtures_folder("coverage.json", lambda d: d.update(without=5))},
        message="'without' must be an object"),
    "fixtures-rule-other-games-folder": bad(
        "fixtures", "304", "--out", "fx", "--rule", "play.follow_suit",
        files={"fx": fixtures_folder()}, message="fx holds fixtures of 'crescendo', not of '304'"),
    "fixtures-unknown-rule": bad("fixtures", "crescendo", "--out", "fx", "--rule", "play.folow_suit",
                                 message="did you mean 'play.follow_suit'?"),
    "board-without-file": bad("play", "crescendo", "--board", "1",
                              message="--board picks a deal of a file"),
    # -- mutate --------------------------------------------------------------------------
    "mutate-unknown-game": bad("mutate", "chess", message="unknown game 'chess'"),
    "mutate-unknown-rule": bad("mutate", "crescendo", "--rule", "deck.rank_ordr",
                               message="Crescendo has no rule 'deck.rank_ordr'; did you mean 'deck.rank_order'?"),
    "mutate-jobs-zero": bad("mutate", "crescendo", "--jobs", "0", message="the count of workers is at least 1"),
    "mutate-jobs-huge": bad("mutate", "crescendo", "-j", "100000", message="at most 256"),
    "mutate-seeds-negative": bad("mutate", "crescendo", "--seeds=-1", message="got a negative number"),
    "mutate-max-zero": bad("mutate", "crescendo", "--max", "0", message="the sample is at least 1"),
    "mutate-budget-nan": bad("mutate", "crescendo", "--budget", "nan", message="finite number of seconds"),
    "mutate-rlimit-fraction": bad("mutate", "crescendo", "--rlimit", "1.5", message="got '1.5'"),
    # -- constraints -----------------------------------------------------------------------
    **{f"where-{name}": bad("deals", "crescendo", "--where", text, message=expect)
       for name, text, expect in (
           ("empty", "", "an empty constraint"),
           ("blank", "   ", "an empty constraint"),
           ("150-brackets", "(" * 150 + "1" + ")" * 150 + " == 1", "nested more than 40 deep"),
           ("150-nots", "not " * 150 + "1 == 1", "nested more than 40 deep"),
           ("sum-of-20000", "+".join(["1"] * 20_000) + " > 0", "a constraint of 40,003 characters"),
           ("3000-ands", " and ".join(["1 == 1"] * 3000), "at most 4,000"),
           ("sum-of-1500", "+".join(["1"] * 1500) + " > 0", "more than 200 operations deep"),
           ("300-ors", " or ".join(["1 == 1"] * 300), "more than 200 operations deep"),
           ("5000-digits", "9" * 5000 + " > 0", "at most 4,000"),
           ("12-digits", "9" * 12 + " > 0", "a number of more than 9 digits"),
           ("arabic-digit", "٣ > 0", "unexpected '٣'"),
           ("unbalanced", "(count(Forehand, spades) > 1", "expected ')'"),
           ("unknown-name", "count(North, spades) > 1", "unknown name 'North'"),
           ("unknown-function", "weight(Forehand) > 1", "weight"),
           ("not-a-condition", "count(Forehand, spades)", "must be a condition"),
           ("compare-card-number", "lead(1) == 3", "cannot compare"),
           ("trick-zero", "lead(0) == JK", "tricks are numbered 1 to 7"),
           ("nul", "true\x00", "unexpected"),
       )},
    "where-long-in-the-message": bad("deals", "crescendo", "--where", "x" * 3000,
                                     message="unknown name 'xxxx"),
    # -- counts --------------------------------------------------------------------------
    "deals-count-past-the-bound": bad("deals", "crescendo", "--where", "true", "-n", "100000000",
                                      message="the count of distinct deals is at most 10,000"),
    "pbn-count-past-the-bound": bad("pbn", "vint", "-n", "100000000",
                                    message="the count of deals is at most 10,000,000"),
    "fixtures-search-past-the-bound": bad("fixtures", "crescendo", "--out", "fx", "--search",
                                          "100000000", message="at most 10,000,000"),
    # -- seats ---------------------------------------------------------------------------
    "play-dealer-empty": bad("play", "vint", "--dealer", "", message="not a seat: ''"),
    "play-dealer-blank": bad("play", "vint", "--dealer", "   ", message="not a seat: '   '"),
    "play-dealer-unknown": bad("play", "vint", "--dealer", "Nobody", message="not a seat: 'Nobody'"),
    "deals-dealer-empty": bad("deals", "vint", "--where", "true", "--dealer", "",
                              message="not a seat: ''"),
    # -- PBN files -----------------------------------------------------------------------
    "pbn-read-no-deal": bad("pbn", "vint", "--read", "g.pbn", files={"g.pbn": "garbage\n"},
                            message="g.pbn holds no deal"),
    "pbn-read-empty": bad("pbn", "vint", "--read", "g.pbn", files={"g.pbn": ""},
                          message="g.pbn holds no deal"),
    "play-pbn-no-deal": bad("play", "vint", "--pbn", "g.pbn", files={"g.pbn": "% nothing\n"},
                            message="g.pbn"),
}


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(folder: Path, files: Mapping[str, Content]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_bad_input_is_one_line_and_an_exit_code(case: Case, scratch: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _write(scratch, case.files)
    code = cli.main(list(case.args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out
    if case.code == cli.EXIT_VIOLATED:  # rejected: the answer is the result, on stdout
        assert code == case.code, err or out
        assert err == "" and out.startswith("rejected: "), out
        assert case.message in out, out
        return
    assert code == case.code, err or out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("trickspec: "), err
    assert case.message in lines[0], err
    assert len(lines[0]) <= 1100, f"{len(lines[0])} characters"


# -- the exit codes themselves -----------------------------------------------------------


def test_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for code, _what in cli.EXIT_CODES:
        assert f"\n  {code:<4} " in out
    assert "a bug in trickspec" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("trickspec ")


@pytest.mark.parametrize("error", [AssertionError("an invariant"), RecursionError("deep"),
                                   MemoryError(), ValueError("no"), KeyError("k")],
                         ids=lambda e: type(e).__name__)
def test_an_internal_error_is_one_line_and_exit_4(error: BaseException,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def boom(args: object) -> int:
        raise error

    monkeypatch.setattr(games, "run", boom)
    assert cli.main(["games"]) == cli.EXIT_BUG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"trickspec: internal error: {type(error).__name__}")
    assert "a bug in trickspec" in err and "--debug" in err


@pytest.mark.parametrize("where", [("--debug", "games"), ("games", "--debug")], ids=["before", "after"])
def test_debug_shows_the_traceback(where: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    def boom(args: object) -> int:
        raise AssertionError("an invariant")

    monkeypatch.setattr(games, "run", boom)
    assert cli.main(list(where)) == cli.EXIT_BUG
    err = capsys.readouterr().err
    assert "Traceback" in err and err.splitlines()[-1].startswith("trickspec: internal error")


def test_a_bug_in_the_verifier_is_exit_4(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from verifier.errors import ReplayMismatchError

    def boom(args: object) -> int:
        raise ReplayMismatchError("the engine disagrees")

    monkeypatch.setattr(games, "run", boom)
    assert cli.main(["games"]) == cli.EXIT_BUG
    assert "ReplayMismatchError: the engine disagrees" in capsys.readouterr().err


def test_interrupt_is_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def stop(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(games, "run", stop)
    assert cli.main(["games"]) == cli.EXIT_INTERRUPTED
    assert capsys.readouterr().err == "trickspec: interrupted\n"


# -- as a real process -------------------------------------------------------------------


def _process(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).resolve().parents[1])}
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


@pytest.mark.parametrize("case_id", ["long-game-name"])
def test_no_traceback_reaches_the_terminal(case_id: str, tmp_path: Path) -> None:
    case = CASES[case_id]
    _write(tmp_path, case.files)
    p = _process(*case.args, cwd=tmp_path)
    assert p.returncode == case.code
    assert "Traceback" not in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
    assert case.message in p.stderr


# -- what cannot be put in the table -----------------------------------------------------


def test_permission_denied(scratch: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    (scratch / "r.json").write_text(record())
    real_open = os.open

    def denied(path: Any, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith("r.json"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)  # root reads any file: the system's answer, faked
    assert cli.main(["replay", "r.json"]) == cli.EXIT_ERROR
    assert capsys.readouterr().err == "trickspec: error: cannot read r.json: permission denied\n"


@pytest.mark.parametrize("data,message", [
    (b"", "standard input is empty"),
    (b"\xff", "standard input is not UTF-8 text"),
    (DEEP.encode(), "standard input nests deeper than 64 levels"),
], ids=["empty", "not-utf8", "deep"])
def test_a_record_on_standard_input(data: bytes, message: str, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert cli.main(["replay", "-"]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_a_good_record_on_standard_input(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(record().encode())))
    assert cli.main(["replay", "-"]) == cli.EXIT_OK
    assert capsys.readouterr().out.startswith("confirmed")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_refused_fixtures_run_writes_nothing(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixtures_folder("coverage.json", lambda d: d.update(without=5))(scratch / "fx")
    before = _snapshot(scratch / "fx")
    assert cli.main(["fixtures", "crescendo", "--out", "fx", "--rule", "play.follow_suit"]) == 2
    assert _snapshot(scratch / "fx") == before
    assert cli.main(["fixtures", "crescendo", "--out", "new", "--rule", "no.such_rule"]) == 2
    assert not (scratch / "new").exists()
