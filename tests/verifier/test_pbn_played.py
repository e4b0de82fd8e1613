"""``trickspec pbn --played`` and ``--rubber``: played deals in PBN, read by a bridge
program's parser (endplay's) and played back by ``trickspec play --pbn``."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from spec.engine import Play, new_deal, play_deal
from spec.games.vint import GAME
from spec.pbn import deal_text, read_pbn
from spec.records import to_record
from spec.sheet import play_rubber
from spec.solver import sensible_bot
from verifier import cli

T = GAME.table


def _pbn(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert cli.main(["pbn", "vint", *args]) == cli.EXIT_OK
    return capsys.readouterr().out


def _endplay(text: str) -> list[Any]:
    parser = pytest.importorskip("endplay.parsers.pbn")
    return parser.loads(text)  # type: ignore[no-any-return]


def _card_texts(state: Any) -> list[str]:
    """The cards of a deal in the order played, as PBN writes a card (``SA``, ``HT``)."""
    out = []
    for _seat, action in state.log:
        if isinstance(action, Play):
            rank = str(action.card.rank)
            out.append(str(action.card.suit) + ("T" if rank == "10" else rank))
    return out


def _check_board(board: Any, state: Any, vulnerable: str) -> None:
    """endplay's board says what the deal was: dealer, vulnerability, contract, declarer,
    result and every card in the order played."""
    from endplay.types import Card, Contract, Player, Vul

    assert board.dealer == Player.find(T.name(state.dealer)[0])
    assert board.vul == Vul.find(vulnerable)
    declarer = state.declarer
    bid = GAME.ladder[state.contract]
    assert board.contract.level == bid.level
    strain = bid.strain.letter if bid.strain else "NT"
    assert board.contract.denom == Contract(f"{bid.level}{strain}").denom
    assert board.contract.declarer == Player.find(T.name(declarer)[0])
    partner = T.partner(declarer)
    assert partner is not None
    side = state.won[declarer] | state.won[partner]
    assert board.contract.result == side.bit_count() - (6 + bid.level)
    assert board.play == [Card(c) for c in _card_texts(state)]
    assert len(board.play) == 52
    assert board.deal.to_pbn() == deal_text(GAME, state.dealt, first=T.parse_seat("North"))


def test_endplay_reads_the_played_deals(capsys: pytest.CaptureFixture[str]) -> None:
    text = _pbn(capsys, "-n", "6", "--played", "--seed", "10")  # by the default, sensible bots
    boards = _endplay(text)
    assert [b.board_num for b in boards] == list(range(1, 7))
    for k, board in enumerate(boards):
        state = play_deal(GAME, seed=10 + k, bots=[sensible_bot()] * 4)
        _check_board(board, state, "None")  # each deal scored on its own: no game won


def test_endplay_reads_a_deal_of_play_written_as_pbn(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "vint", "--seed", "7", "--format", "pbn"]) == cli.EXIT_OK
    [board] = _endplay(capsys.readouterr().out)
    _check_board(board, play_deal(GAME, seed=7, bots=[sensible_bot()] * 4), "None")
    assert cli.main(["play", "vint", "--seed", "7", "--format", "pbn", "--bots", "random"]) == 0
    [board] = _endplay(capsys.readouterr().out)
    _check_board(board, play_deal(GAME, seed=7), "None")


def test_endplay_reads_a_rubber_with_the_sheets_vulnerability(
        capsys: pytest.CaptureFixture[str]) -> None:
    seen = {3: ["None", "EW"], 8: ["None", "NS", "All", "All"]}  # games won: EW, EW; NS, EW, NS
    for seed in (3, 8):
        text = _pbn(capsys, "--rubber", "--seed", str(seed), "--bots", "random")
        assert re.findall(r'\[Vulnerable "(\w+)"\]', text) == seen[seed]
        record = play_rubber(GAME, seed=seed)
        boards = _endplay(text)
        assert len(boards) == len(record.deals) >= 2
        for number, (board, state) in enumerate(zip(boards, record.deals), start=1):
            letters = {"".join(sorted((T.name(s)[0] for s in record.sides[g.winner]),
                                      key="NESW".index))
                       for g in record.games if g.deal < number}
            vulnerable = "All" if len(letters) == 2 else letters.pop() if letters else "None"
            _check_board(board, state, vulnerable)
        # the deal moves on round the table from West, the first dealer
        assert [T.name(s.dealer)[0] for s in record.deals] == ["WNES"[k % 4]
                                                               for k in range(len(boards))]


def test_play_accepts_the_played_file_back(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    path = tmp_path / "played.pbn"
    assert cli.main(["pbn", "vint", "-n", "3", "--played", "--out", str(path)]) == cli.EXIT_OK
    rubber = tmp_path / "rubber.pbn"
    assert cli.main(["pbn", "vint", "--rubber", "--seed", "3", "--out", str(rubber),
                     "--bots", "random"]) == 0
    text = path.read_text()
    assert text.count("[Play ") == 3 and '[Vulnerable "None"]' in text
    for board in ("1", "3"):
        assert cli.main(["play", "vint", "--pbn", str(path), "--board", board,
                         "--json"]) == cli.EXIT_OK
        record = json.loads(capsys.readouterr().out)
        first = record["thrown_in"][0] if record.get("thrown_in") else record  # passed out?
        assert first["hands"] == to_record(new_deal(GAME, seed=int(board) - 1))["hands"]
    deals = read_pbn(GAME, rubber.read_text())
    dealt = [s.dealt for s in play_rubber(GAME, seed=3).deals]
    assert [d.hands for d in deals] == dealt
    assert cli.main(["play", "vint", "--pbn", str(rubber), "--board", "2", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["hands"] == to_record(new_deal(GAME, hands=dealt[1],
                                                 dealer=deals[1].dealer))["hands"]
    assert cli.main(["pbn", "vint", "--read", str(rubber)]) == cli.EXIT_OK
    assert "board 2, dealer North" in capsys.readouterr().out


def test_deals_not_played_are_written_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    text = _pbn(capsys, "-n", "5")
    assert hashlib.sha256(text.encode()).hexdigest() == (
        "83583c36a7d918ff750ed36b3dbe313e1b85f84815b9ad593aef143f490e670a")
    assert "[Play " not in text and text.count('[Vulnerable "?"]') == 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("vint", "--rubber", "-n", "2"), "--rubber writes the deals of one rubber"),
        (("vint", "--rubber", "--read", "x.pbn"), "--rubber plays new deals; leave it out"),
        (("vint", "--rubber", "--played"), "name one of them"),
        (("wiezen", "--rubber"), "Wiezen's contracts are named"),
        (("wiezen", "--played"), "(leave out --played)"),
        (("preference", "--rubber"), "cannot be written in PBN"),
    ],
)
def test_what_pbn_cannot_hold_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    assert cli.main(["pbn", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
