"""Fuzzing what a user can type or hand over: constraints, records, deal files, PBN files.

Whatever Hypothesis makes, trickspec answers with an exit code of 0 to 3 and at most one
line on standard error; an exit code of 4 (an internal error, a bug) or a traceback fails.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spec.constraints import about_play, deal_test, history_test, parse_where
from spec.engine import new_deal, play_deal
from spec.errors import SpecError
from spec.games.crescendo import GAME as CRESCENDO
from spec.games.vint import GAME as VINT
from spec.pbn import write_pbn
from spec.records import hands_text, to_record
from verifier import cli
from verifier.commands.deals import DEALS_FORMAT
from verifier._z3.solver import Solving
from verifier.deals import _Owners

# -- constraints ---------------------------------------------------------------------------

SEATS = st.sampled_from(("Forehand", "Middlehand", "Rearhand", "dealer", "declarer"))
SUITS = st.sampled_from(("spades", "hearts", "clubs", "diamonds", "♠"))
RANKS = st.sampled_from(("aces", "kings", "fives", "jokers"))
CARDS = st.sampled_from(("JK", "AS", "5C", "2H", "KD"))
TRICK = st.integers(0, 8).map(str)
NUMBER = st.one_of(st.integers(0, 40).map(str), st.just("9" * 10))
INT = st.recursive(
    st.one_of(NUMBER, st.builds("count({}, {})".format, SEATS, st.one_of(SUITS, RANKS)),
              st.builds("length({})".format, SEATS), st.builds("points({})".format, SEATS),
              st.builds("tricks({})".format, SEATS), st.builds("won({})".format, SEATS),
              st.builds("score({})".format, SEATS), st.just("level")),
    lambda inner: st.builds("({} {} {})".format, inner, st.sampled_from("+-*"), inner),
    max_leaves=4)
COND = st.recursive(
    st.one_of(st.builds("{} {} {}".format, INT, st.sampled_from(("==", "!=", "<", "<=", ">", ">=")), INT),
              st.builds("holds({}, {})".format, SEATS, CARDS),
              st.builds("void({}, {})".format, SEATS, SUITS),
              st.builds("winner({}) == {}".format, TRICK, SEATS),
              st.builds("leader({}) != {}".format, TRICK, SEATS),
              st.builds("lead({}) == {}".format, TRICK, CARDS),
              st.builds("played({}, {}) == {}".format, TRICK, SEATS, CARDS),
              st.just("strain == spades"), st.sampled_from(("true", "false"))),
    lambda inner: st.one_of(st.builds("not ({})".format, inner),
                            st.builds("({}) {} ({})".format, inner, st.sampled_from(("and", "or")),
                                      inner)),
    max_leaves=6)


@st.composite
def mutated_text(draw: st.DrawFn, original: str) -> str:
    """``original`` with a few pieces cut out, doubled or replaced by other text."""
    text = original
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        how = draw(st.sampled_from(("cut", "double", "replace")))
        if how == "cut":
            text = text[:i] + text[j:]
        elif how == "double":
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + draw(st.text(max_size=10)) + text[j:]
    return text


# most are well formed, to reach the compilers; the rest are cut and spliced
WHERE = st.one_of(COND, COND.flatmap(mutated_text))

DEAL = new_deal(CRESCENDO, seed=1)
PLAYED = play_deal(CRESCENDO, seed=1)


@settings(max_examples=300)
@given(WHERE)
def test_a_constraint_is_read_and_compiled_or_refused_in_one_line(text: str) -> None:
    """The parser and both compilers (the engine's and Z3's) take any text: a constraint,
    or one :class:`~spec.errors.SpecError`."""
    try:
        where = parse_where(CRESCENDO, text)
    except SpecError as e:
        assert "\n" not in str(e)
        return
    if about_play(where):
        test = history_test(CRESCENDO, where)
        assert test(PLAYED) in (True, False)
        return
    assert deal_test(CRESCENDO, where)(DEAL.dealer, DEAL.dealt) in (True, False)
    try:
        _Owners(CRESCENDO, Solving()).compile(where, DEAL.dealer)
    except SpecError as e:
        assert "\n" not in str(e)


# -- the command line on files -------------------------------------------------------------

@contextlib.contextmanager
def _in_scratch() -> Iterator[Path]:
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        try:
            yield Path(d)
        finally:
            os.chdir(here)


def _run(args: list[str], files: dict[str, str | bytes]) -> int:
    """Run the command line in a scratch folder holding ``files``; check the shape of its
    answer and return its exit code."""
    out, err = io.StringIO(), io.StringIO()
    with _in_scratch() as d:
        for name, data in files.items():
            (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(args)
    assert code in (cli.EXIT_OK, cli.EXIT_VIOLATED, cli.EXIT_ERROR, cli.EXIT_IMPOSSIBLE), \
        (code, err.getvalue())
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert len(err.getvalue().splitlines()) <= 1, err.getvalue()
    return code


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20),
                      st.floats(allow_nan=False), st.text(max_size=8))
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, as the keys and indices that lead to it."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


@st.composite
def mutated(draw: st.DrawFn, original: Any) -> str:
    """``original`` as JSON with one to three places replaced by other JSON, or deleted."""
    data = json.loads(json.dumps(original))
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in _paths(data) if p]
        if not places:
            break
        place = draw(st.sampled_from(places))
        parent = data
        for key in place[:-1]:
            parent = parent[key]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent[place[-1]] = draw(JSON_VALUE)
    return json.dumps(data)


RECORD = to_record(play_deal(CRESCENDO, seed=3))
DEALS = {"format": DEALS_FORMAT, "game": "crescendo", "variants": [], "where": "true",
         "seed": 0, "status": "found", "method": "rejection", "seconds": 0.0,
         "deals": [{"dealer": "Rearhand", "hands": hands_text(CRESCENDO, play_deal(CRESCENDO, seed=k).dealt)}
                   for k in (1, 2)]}


@settings(max_examples=150)
@given(mutated(RECORD))
def test_a_mutated_record_is_confirmed_rejected_or_refused(text: str) -> None:
    _run(["replay", "r.json"], {"r.json": text})


@settings(max_examples=100)
@given(mutated(DEALS), st.sampled_from(("1", "2")))
def test_a_mutated_deals_file_is_played_or_refused(text: str, board: str) -> None:
    _run(["play", "crescendo", "--deal", "d.json", "--board", board], {"d.json": text})


PBN = write_pbn(VINT, [play_deal(VINT, seed=k) for k in (0, 1)])


@settings(max_examples=150)
@given(mutated_text(PBN), st.booleans())
def test_a_mutated_pbn_file_is_read_or_refused(text: str, play: bool) -> None:
    args = ["play", "vint", "--pbn", "p.pbn"] if play else ["pbn", "vint", "--read", "p.pbn"]
    _run(args, {"p.pbn": text})
