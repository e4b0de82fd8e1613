"""Deals in PBN, the Portable Bridge Notation (version 2.1), read and written.

PBN is the text format of bridge programs and deal collections.  A file is a series of
games separated by blank lines; each game is a list of tags such as
``[Deal "N:AKQ.JT9.8765.432 ..."]``, some followed by section data (the calls of an
``Auction``, the cards of a ``Play``).  A game can be written in PBN when it is played by
four seats named North, East, South and West with the 52-card French pack; its seats are
matched to PBN's compass letters by name, never by number, so the game's order of play
does not matter.

The ``Deal`` tag gives the four hands clockwise (N, E, S, W) from the seat letter before
the colon, each hand as ``spades.hearts.diamonds.clubs`` with ranks ``AKQJT98765432``.
The reader also takes ``10`` for the ten and lower case; the writer writes ``T``.

Reading keeps what a deal needs (hands, dealer, board) and every other tag as read; the
data of sections (an ``Auction``, a ``Play``) is skipped, so a file written here reads
back.  Writing uses the export format: the mandatory tags in their order, unknown values
as ``?``, and for a deal played by the engine its contract, declarer, result, auction and
play.  PBN files are ISO 8859-1 text: encode the string you get.

What PBN can say of a game that is not bridge is said only where it is true.  A game
whose contracts are bids of a level and a strain writes them as bridge contracts; a game
whose contracts are known by name has no bridge
contract to write, and its play cannot be read without one, so only its deals as dealt
are written (a deal of it with calls is refused).  ``Vulnerable`` is bridge's: a side
is vulnerable once it has won a game of the rubber.  A deal played on its own was scored
from a clean sheet, where no side has won a game, so it is ``None``; the deals of a
rubber get the sheet's (see :func:`rubber_vulnerability`); a deal not played is in no
score at all, so its vulnerability stays unknown, ``?``.  The game's own scoring may not
depend on it at all; a bridge program that scores by it scores by bridge's
rules, not the game's.

>>> from spec.games.vint import GAME
>>> from spec.cards import CardSet
>>> deals = read_pbn(GAME, '''
... [Board "1"]
... [Dealer "E"]
... [Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
... ''')
>>> d = deals[0]
>>> GAME.table.name(d.dealer), d.board, str(CardSet(GAME.deck, d.hands[1]))
('East', '1', '2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH')
>>> deal_text(GAME, d.hands, first=GAME.table.parse_seat("West"))
'W:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.'
>>> read_pbn(GAME, write_pbn(GAME, deals))[0].hands == d.hands
True
"""
from __future__ import annotations

__all__ = [
    "PbnDeal",
    "PbnError",
    "read_pbn",
    "write_pbn",
    "iter_pbn",
    "deal_text",
    "check_pbn_auctions",
    "parse_deal_text",
    "check_pbn_game",
    "rubber_vulnerability",
]

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from spec.cards import FRENCH_52, Card, CardSet, Rank, Suit
from spec.dsl._build import Bid, Game
from spec.engine import Call, Phase, Play, State, engine_for
from spec.errors import NotationError

# PBN lists the hands clockwise from North, and the suits of a hand from spades down.
_COMPASS = "NESW"
_SEAT_NAMES = ("North", "East", "South", "West")
_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_RANK_LETTERS = "AKQJT98765432"
_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT,
          Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO)

# The mandatory tags, in the order the export format writes them: the seven-tag roster
# (Event .. Deal, with the four players and the dealer's data) and then the result.
_ROSTER = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
           "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
# Tags whose values are fields of PbnDeal rather than entries of PbnDeal.tags.
_FIELDS = ("Deal", "Dealer", "Board")
# Tags that open a section: their data lines are not kept, so they are not written back
# (an Auction tag without its calls would claim an empty auction).  Notes belong to the
# Auction and Play sections; the supplemental sections of PBN 2.1 are all named *Table.
_SECTIONS = ("Auction", "Play", "Note")

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"')
_NAME_RE = re.compile(r"^[A-Za-z0-9_]+$")
_DEAL_RE = re.compile(r"^\s*([A-Za-z])\s*:(.*)$", re.DOTALL)
_DATE_RE = re.compile(r"^[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}$")
_UNKNOWN = "?"
_UNKNOWN_DATE = "????.??.??"  # the PGN/PBN date with every digit unknown
_NO_SIDE, _ALL_SIDES = "None", "All"  # PBN's Vulnerable values for neither and both sides
_VULNERABLE = (_NO_SIDE, "NS", "EW", _ALL_SIDES)  # the values the writer writes


class PbnError(NotationError):
    """PBN text that cannot be read, with the line it is on (``line``, 1-based)."""

    def __init__(self, message: str, *, line: int | None = None, value: object = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message,
                         value=value)


@dataclass(frozen=True, slots=True)
class PbnDeal:
    """One deal of a PBN file: the hands, the dealer, the board and the other tags.

    ``hands`` are card masks of the game's deck, one per seat in the game's seat order.
    ``tags`` are the game's other tags in file order, with ``#`` and ``##`` values
    already replaced by the values they stand for.  ``first`` is the seat whose hand the
    ``Deal`` tag listed first, kept so that writing a deal read from a file gives back
    the same ``Deal`` value; ``None`` lets the writer start with the dealer.
    """

    hands: tuple[int, ...]
    dealer: int | None = None
    board: str | None = None
    tags: tuple[tuple[str, str], ...] = ()
    first: int | None = None


@dataclass(frozen=True, slots=True)
class _Layout:
    """How a game's seats and cards map to PBN letters."""

    game: Game
    seat_of: dict[str, int]  # compass letter -> the game's seat
    letter: tuple[str, ...]  # the game's seat -> compass letter
    bits: tuple[tuple[tuple[str, int], ...], ...]  # per PBN suit: (rank letter, card bit), high to low
    bit_of: tuple[dict[str, int], ...]  # per PBN suit: rank letter -> card bit


# -- the game ------------------------------------------------------------------------


def check_pbn_game(game: Game) -> None:
    """Check that a game's deals can be written in PBN.

    Raises:
        NotationError: the game does not have four seats named North, East, South and
            West, or does not play with the 52 cards of the French pack.
    """
    problems = []
    names = game.table.names
    if len(names) != len(_SEAT_NAMES):
        problems.append(f"{len(names)} seats ({', '.join(names)})")
    elif sorted(n.lower() for n in names) != sorted(n.lower() for n in _SEAT_NAMES):
        problems.append(f"seats named {', '.join(names)}")
    deck = game.deck
    if len(deck) != len(FRENCH_52) or set(deck) != set(FRENCH_52) or deck.duplicates():
        jokers = sum(c.is_joker for c in deck)
        extra = "" if not jokers else " with a joker" if jokers == 1 else f" with {jokers} jokers"
        problems.append(f"a {len(deck)}-card deck{extra}")
    if problems:
        raise NotationError(
            f"{game.name} cannot be written in PBN: it has {' and '.join(problems)} "
            "(PBN needs four seats named North, East, South and West and the 52-card "
            "French pack)",
            value=game,
        )


def _layout(game: Game) -> _Layout:
    check_pbn_game(game)
    letter = tuple(name[0].upper() for name in game.table.names)
    seat_of = {ch: seat for seat, ch in enumerate(letter)}
    bits = tuple(
        tuple((ch, 1 << game.deck.index(Card(suit, rank)))
              for ch, rank in zip(_RANK_LETTERS, _RANKS))
        for suit in _SUITS
    )
    return _Layout(game, seat_of, letter, bits, tuple(dict(row) for row in bits))


def _compass(text: str) -> str:
    """A seat letter of PBN, from any case.

    Raises:
        NotationError: not one of N, E, S, W.
    """
    ch = text.strip().upper()
    if len(ch) != 1 or ch not in _COMPASS:
        raise NotationError(f"{text!r} is not a seat letter (expected N, E, S or W)",
                            value=text)
    return ch


# -- the Deal tag --------------------------------------------------------------------


def _hand_text(lay: _Layout, mask: int) -> str:
    return ".".join("".join(ch for ch, bit in row if mask & bit) for row in lay.bits)


def _parse_hand(lay: _Layout, text: str, seat: int) -> int:
    """The card mask of one hand written ``spades.hearts.diamonds.clubs``.

    Raises:
        NotationError: the hand is unknown (``-``), has not four suits, or has a bad or
            repeated rank.
    """
    who = lay.game.table.name(seat)
    if text == "-":
        raise NotationError(
            f"the {who} hand is unknown ('-'); a deal to play needs all four hands",
            value=text)
    suits = text.split(".")
    if len(suits) != len(_SUITS):
        raise NotationError(
            f"the {who} hand {text!r} has {len(suits)} suits (write four, "
            "spades.hearts.diamonds.clubs, e.g. 'AK2.QJ3.T98.7654'; leave a void empty)",
            value=text)
    mask = 0
    for k, part in enumerate(suits):
        i = 0
        while i < len(part):
            if part.startswith("10", i):
                written, ch = "10", "T"
            else:
                written = part[i]
                ch = written.upper()
            i += len(written)
            bit = lay.bit_of[k].get(ch)
            if bit is None:
                raise NotationError(
                    f"{written!r} in the {who} hand {text!r} is not a rank "
                    f"(ranks are {_RANK_LETTERS}; 10 is read as T)", value=text)
            if mask & bit:
                raise NotationError(
                    f"card {Card(_SUITS[k], _RANKS[_RANK_LETTERS.index(ch)])} is written "
                    f"twice in the {who} hand {text!r}", value=text)
            mask |= bit
    return mask


def _parse_deal(lay: _Layout, value: str) -> tuple[tuple[int, ...], int]:
    """The hands of a Deal tag value and the seat it lists first."""
    m = _DEAL_RE.match(value)
    if m is None:
        raise NotationError(
            f"deal {value!r} does not start with a seat letter and a colon "
            "(write e.g. 'N:AKQ.JT9.8765.432 ...', the hands clockwise from that seat)",
            value=value)
    start = _COMPASS.index(_compass(m.group(1)))
    texts = m.group(2).split()
    if len(texts) != len(_COMPASS):
        raise NotationError(
            f"deal {value!r} gives {len(texts)} hands (PBN lists four, separated by "
            "spaces, clockwise from the first seat letter)", value=value)
    masks = [0] * len(_COMPASS)
    for k, text in enumerate(texts):
        seat = lay.seat_of[_COMPASS[(start + k) % len(_COMPASS)]]
        masks[seat] = _parse_hand(lay, text, seat)
    engine_for(lay.game).check_hands(masks)
    return tuple(masks), lay.seat_of[_COMPASS[start]]


def _deal_text(lay: _Layout, hands: Sequence[int], first: int | None) -> str:
    masks = tuple(h.mask if isinstance(h, CardSet) else int(h) for h in hands)
    engine_for(lay.game).check_hands(masks)
    if first is None:
        first = lay.seat_of["N"]
    if first not in lay.game.table.seats:
        raise NotationError(f"no seat {first!r} in {lay.game.name} (seats are numbered "
                            f"0 to {lay.game.players - 1})", value=first)
    start = _COMPASS.index(lay.letter[first])
    parts = (_hand_text(lay, masks[lay.seat_of[_COMPASS[(start + k) % len(_COMPASS)]]])
             for k in range(len(_COMPASS)))
    return f"{_COMPASS[start]}:" + " ".join(parts)


def deal_text(game: Game, hands: Sequence[int], first: int | None = None) -> str:
    """The value of the ``Deal`` tag for hands given in the game's seat order.

    Args:
        game: a game that can be written in PBN.
        hands: one card mask (or :class:`~spec.cards.CardSet`) per seat.
        first: the seat whose hand is listed first; North when ``None``.

    Raises:
        NotationError: the game cannot be written in PBN, ``first`` is not a seat, or
            the hands do not share out the deck.
    """
    return _deal_text(_layout(game), hands, first)


def parse_deal_text(game: Game, value: str) -> tuple[int, ...]:
    """The hands, in the game's seat order, of a ``Deal`` tag value such as ``E:...``.

    Raises:
        NotationError: the game cannot be written in PBN; the value does not start with
            a seat letter and a colon; it does not give four hands; a hand is unknown
            (``-``), has not four suits or a bad rank; or the hands do not share out the
            52 cards.
    """
    return _parse_deal(_layout(game), value)[0]


# -- reading -------------------------------------------------------------------------


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _scan(text: str) -> list[list[tuple[str, str, int]]]:
    """The tags of each game in a PBN text: (name, value, line), in file order.

    Games end at blank lines, and a new game also starts at an Event or Deal tag that
    the game being read already has.  ``%`` lines, ``;`` and ``{...}`` comments and the
    data of sections are skipped.

    Raises:
        PbnError: a malformed tag, or a ``{`` comment that is never closed.
    """
    games: list[list[tuple[str, str, int]]] = []
    current: list[tuple[str, str, int]] = []
    comment_from = 0  # the line a pending {...} comment opened on, 0 outside one
    for number, line in enumerate(text.splitlines(), start=1):
        i = 0
        if comment_from:
            end = line.find("}")
            if end < 0:
                continue
            comment_from, i = 0, end + 1
        elif not line.strip():
            if current:
                games.append(current)
                current = []
            continue
        elif line.lstrip().startswith("%"):
            continue
        while i < len(line):
            c = line[i]
            if c == ";":
                break
            if c == "{":
                end = line.find("}", i + 1)
                if end < 0:
                    comment_from = number
                    break
                i = end + 1
            elif c == "[":
                m = _TAG_RE.match(line, i)
                if m is None:
                    raise PbnError(f"malformed tag {line[i:].strip()!r} "
                                   '(write [Name "value"], e.g. [Dealer "N"])',
                                   line=number, value=line)
                name, value = m.group(1), _unescape(m.group(2))
                if name in ("Event", "Deal") and any(t[0] == name for t in current):
                    games.append(current)
                    current = []
                current.append((name, value, number))
                i = m.end()
            elif c == '"':
                s = _STRING_RE.match(line, i)
                i = s.end() if s else len(line)
            else:
                i += 1
    if comment_from:
        raise PbnError("this '{' comment is never closed (end it with '}')",
                       line=comment_from)
    if current:
        games.append(current)
    return games


def read_pbn(game: Game, text: str) -> list[PbnDeal]:
    """The deals of a PBN text: one for each game that has a ``Deal`` tag.

    A tag value ``#`` stands for the value of the same tag in the nearest earlier game
    that has it (or ``""``), and ``##text`` gives ``text`` to this game and to every
    later game that does not give the tag itself.  PBN 2.1 forbids both for ``Dealer``
    and ``Deal``; the reader takes them there too.  A missing or unknown (``?``) dealer
    gives ``dealer=None``.  A tag given twice in one game keeps its first value, as the
    import format says.

    Raises:
        NotationError: the game cannot be written in PBN.
        PbnError: bad text (a malformed tag or deal, a bad dealer letter, hands that do
            not share out the 52 cards); the message starts with ``line <n>:``.
    """
    lay = _layout(game)
    last: dict[str, str] = {}  # each tag's value in the nearest earlier game that has it
    header: dict[str, tuple[str, int]] = {}  # values set with ##, for later games too
    deals: list[PbnDeal] = []
    for raw in _scan(text):
        own: dict[str, tuple[str, int]] = {}
        for name, value, line in raw:
            if name in own:
                continue
            if value == "#":
                value = last.get(name, "")
            elif value.startswith("##"):
                value = value[2:]
                header[name] = (value, line)
            elif name in header:
                header[name] = (value, line)  # a header value redefined mid-file
            own[name] = (value, line)
        tags = {name: v for name, v in header.items() if name not in own} | own
        last.update((name, value) for name, (value, _line) in tags.items())
        if "Deal" in tags:
            deals.append(_read_deal(lay, tags))
    return deals


def _read_deal(lay: _Layout, tags: dict[str, tuple[str, int]]) -> PbnDeal:
    value, line = tags["Deal"]
    if not value.strip():
        raise PbnError("the Deal tag is empty (give the hands, e.g. 'N:AKQ.JT9.8765.432 "
                       "...', or '#' after a game that has a deal)", line=line, value=value)
    try:
        hands, first = _parse_deal(lay, value)
    except NotationError as e:
        raise PbnError(str(e), line=line, value=value) from e
    dealer = None
    if "Dealer" in tags:
        text, line = tags["Dealer"]
        if text.strip() not in ("", _UNKNOWN):
            try:
                dealer = lay.seat_of[_compass(text)]
            except NotationError as e:
                raise PbnError(f"dealer {text!r} is not a seat letter (expected N, E, S "
                               "or W, or '?' when unknown)", line=line, value=text) from e
    board = tags["Board"][0] if "Board" in tags and tags["Board"][0] else None
    rest = tuple((name, v) for name, (v, _line) in tags.items() if name not in _FIELDS)
    return PbnDeal(hands, dealer, board, rest, first)


# -- writing -------------------------------------------------------------------------


def _escape(name: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise NotationError(f"the value of tag {name} has a line break: {value!r} "
                            "(a PBN tag value is one line)", value=value)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _bid_text(bid: Bid) -> str:
    """A bid as PBN writes calls and contracts: level 1-7 and S, H, D, C or NT."""
    if not 1 <= bid.level <= 7:
        raise NotationError(f"bid {bid} cannot be written in PBN (PBN bids run from "
                            "level 1 to 7)", value=bid)
    return f"{bid.level}{bid.strain.letter if bid.strain else 'NT'}"


def check_pbn_auctions(game: Game) -> None:
    """Refuse a game whose contracts PBN cannot write: contracts by name (a misère, say)
    are no bridge calls, so its deals can be written but not its auctions.

    Raises:
        NotationError: the game names its contracts.
    """
    named = [b.label for b in game.ladder if b.label]
    if named:
        raise NotationError(f"{game.name}'s contracts are named ({', '.join(named[:3])}, ...), "
                            "not bridge bids: PBN can hold its deals but not its auctions and "
                            "contracts", value=game)


def _played(lay: _Layout, state: State) -> tuple[dict[str, str], list[str]]:
    """The result tags and the auction section of a deal played by the engine."""
    game = lay.game
    calls = [(seat, action) for seat, action in state.log if isinstance(action, Call)]
    if calls or state.contract >= 0:
        check_pbn_auctions(game)
    values: dict[str, str] = {"Generator": f"trickspec {game.key}, seed {state.seed}"}
    if state.contract >= 0:
        declarer = state.declarer
        values["Declarer"] = lay.letter[declarer]
        values["Contract"] = _bid_text(game.ladder[state.contract])
        if state.phase is Phase.OVER:
            won = state.won[declarer]
            partner = game.table.partner(declarer)
            if partner is not None:
                won |= state.won[partner]
            values["Result"] = str(won.bit_count())
    if state.phase is Phase.OVER:
        # Scored on its own, from a clean sheet: no side had won a game.
        values["Vulnerable"] = _NO_SIDE
    section: list[str] = []
    if calls:
        section.append(f'[Auction "{lay.letter[calls[0][0]]}"]')
        words = ["Pass" if c.bid is None else _bid_text(c.bid) for _seat, c in calls]
        section.extend(" ".join(words[k:k + 4]) for k in range(0, len(words), 4))
    if state.contract >= 0:
        section += _play_section(lay, state)
    return values, section


def _card_text(lay: _Layout, card: int | None) -> str:
    """A card as the Play section writes it, suit then rank (``SA``, ``HT``); ``-`` for
    none."""
    if card is None:
        return "-"
    c = lay.game.deck[card]
    return f"{'SHDC'[_SUITS.index(c.suit)]}{_RANK_LETTERS[_RANKS.index(c.rank)]}"


def _play_section(lay: _Layout, state: State) -> list[str]:
    """The Play section of a deal: the tag names the first trick's leader, and each line is
    a trick with its cards in columns clockwise from that seat (so a column is always one
    seat's, whoever led the trick); ``-`` where a seat played no card, and ``*`` after the
    last trick when the deal stopped before every card was played.  No section when no
    card was played."""
    plays = [(seat, a.card) for seat, a in state.log if isinstance(a, Play)]
    if not plays:
        return []
    start = _COMPASS.index(lay.letter[state.tricks[0].leader if state.tricks else plays[0][0]])
    column = {lay.seat_of[_COMPASS[(start + k) % 4]]: k for k in range(4)}
    rows: list[list[str]] = []
    done = 0
    for rec in state.tricks:
        row = ["-"] * 4
        seats = rec.seats or tuple(lay.game.table.next(rec.leader, k) for k in range(4))
        for seat, card in zip(seats, rec.cards):
            row[column[seat]] = _card_text(lay, card)
        rows.append(row)
        done += len(rec.cards)
    if done < len(plays):  # the trick on the table
        row = ["-"] * 4
        for seat, held in plays[done:]:
            row[column[seat]] = _card_text(lay, lay.game.deck.index(held))
        rows.append(row)
    lines = [f'[Play "{_COMPASS[start]}"]'] + [" ".join(row) for row in rows]
    if state.phase is not Phase.OVER or any(state.hands):
        lines.append("*")
    return lines


def rubber_vulnerability(game: Game, sides: Sequence[Sequence[int]],
                         games_won: Iterable[tuple[int, int]], deals: int) -> tuple[str, ...]:
    """The ``Vulnerable`` value of each deal of a rubber, as bridge reckons it: a side that
    has won a game of the rubber before the deal is vulnerable in it.

    Args:
        game: a game that can be written in PBN, in partnerships North-South and East-West.
        sides: the seats of each side.
        games_won: (the side that won a game, the deal, 1, 2, ..., that won it).
        deals: the number of deals of the rubber.

    Raises:
        NotationError: a side is not North-South or East-West.
    """
    lay = _layout(game)
    names: list[str] = []
    for side in sides:
        name = "".join(sorted((lay.letter[s] for s in side), key=_COMPASS.index))
        if name not in ("NS", "EW"):
            raise NotationError(f"{game.name} has a side {name!r}: PBN's vulnerability is of "
                                "the sides North-South and East-West", value=side)
        names.append(name)
    won = sorted(games_won, key=lambda g: g[1])
    out: list[str] = []
    for deal in range(1, deals + 1):
        up = {names[side] for side, at in won if at < deal}
        out.append(_ALL_SIDES if len(up) == 2 else up.pop() if up else _NO_SIDE)
    return tuple(out)


def _game_lines(lay: _Layout, item: PbnDeal | State, number: int, event: str,
                date: str | None, vulnerable: str | None = None) -> list[str]:
    game = lay.game
    played: dict[str, str] = {}
    section: list[str] = []
    if isinstance(item, State):
        if item.game.key != game.key:
            raise NotationError(f"a {item.game.name} deal cannot be written as a "
                                f"{game.name} deal", value=item)
        deal = PbnDeal(item.dealt, item.dealer)
        played, section = _played(lay, item)
    else:
        deal = item
    if len(deal.hands) != game.players:
        raise NotationError(f"expected {game.players} hands, got {len(deal.hands)}",
                            value=deal.hands)
    if deal.dealer is not None and deal.dealer not in game.table.seats:
        raise NotationError(f"no seat {deal.dealer!r} in {game.name} to deal", value=deal)
    own: dict[str, str] = {}
    for name, value in deal.tags:
        if not _NAME_RE.match(name):
            raise NotationError(f"{name!r} is not a PBN tag name (letters, digits and _)",
                                value=name)
        if name in _FIELDS:
            raise NotationError(f"tag {name} is a field of PbnDeal, not one of its tags "
                                f"(set PbnDeal.{name.lower()} instead)", value=name)
        own.setdefault(name, value)
    # Unknown values are '?'.  Vulnerable: a deal not played is in no score, so whether a
    # side had won a game is unknown (a played deal says, through `played`).
    # Scoring: PBN's values name bridge scorings (MP, IMP, Rubber, ...), and the game's
    # own scoring is none of them, so a bridge program must not score the deal by one.
    values = {name: _UNKNOWN for name in _ROSTER}
    values["Date"] = _UNKNOWN_DATE
    values.update((name, v) for name, v in own.items() if name in _ROSTER)
    if event:
        values["Event"] = event
    if date is not None:
        values["Date"] = date
    values["Board"] = deal.board if deal.board is not None else str(number)
    values["Dealer"] = lay.letter[deal.dealer] if deal.dealer is not None else _UNKNOWN
    first = deal.first if deal.first is not None else deal.dealer
    values["Deal"] = _deal_text(lay, deal.hands, first)
    values.update(played)
    if vulnerable is not None:
        if vulnerable not in _VULNERABLE:
            raise NotationError(f"{vulnerable!r} is not a PBN vulnerability (write "
                                f"{', '.join(_VULNERABLE)})", value=vulnerable)
        values["Vulnerable"] = vulnerable
    extra = [(name, v) for name, v in own.items()
             if name not in _ROSTER and name not in _SECTIONS and not name.endswith("Table")]
    extra += [(name, v) for name, v in played.items() if name not in _ROSTER]
    lines = [f'[{name} "{_escape(name, values[name])}"]' for name in _ROSTER]
    lines += [f'[{name} "{_escape(name, v)}"]' for name, v in extra]
    return lines + section


def write_pbn(game: Game, deals: Iterable[PbnDeal | State], *, event: str = "",
              date: str | None = None, vulnerable: Sequence[str] = ()) -> str:
    """PBN text, in export format, of deals read from PBN or played by the engine.

    Each deal becomes a game: the mandatory tags in order (``Event``, ``Site``,
    ``Date``, ``Board``, ``West``, ``North``, ``East``, ``South``, ``Dealer``,
    ``Vulnerable``, ``Deal``, ``Scoring``, ``Declarer``, ``Contract``, ``Result``), then
    any other tags of a :class:`PbnDeal` (sections such as ``Auction`` are not kept when
    reading, so their tags are left out).  A deal from the engine also gets its
    declarer, contract, result (the tricks of the declaring side) when it has them, a
    ``Generator`` tag naming its seed, its calls as an ``Auction`` section, four to a
    line, and its cards as a ``Play`` section: the tag names the first leader, and each
    line is a trick, its cards in columns clockwise from that seat; ``-`` where a seat
    played no card, ``*`` after the last trick of a deal that stopped before its cards
    ran out.  A finished deal is ``Vulnerable "None"`` unless ``vulnerable`` says
    otherwise (see the module's note).  Boards are numbered 1, 2, ... unless a deal names
    its own; the ``Deal`` tag starts with the dealer's hand (or the seat it was read with).

    Args:
        game: a game that can be written in PBN.
        deals: :class:`PbnDeal` values, or states of the engine (finished or not).
        event: the Event of every game; when empty, a deal's own Event tag, else ``?``.
        date: the Date of every game, ``YYYY.MM.DD`` with ``?`` for unknown digits;
            when ``None``, a deal's own Date tag, else ``????.??.??``.
        vulnerable: the Vulnerable value of the first deals, one each (``None``, ``NS``,
            ``EW`` or ``All``), as :func:`rubber_vulnerability` gives them.

    Raises:
        NotationError: the game cannot be written in PBN, the date is malformed, a
            vulnerability is not one of PBN's, or a deal is bad (hands that do not share
            out the deck, a state of another game, a tag that is not PBN); the message
            names the deal by its place.
    """
    return "\n".join(iter_pbn(game, deals, event=event, date=date,
                              vulnerable=vulnerable)) + "\n"


def iter_pbn(game: Game, deals: Iterable[PbnDeal | State], *, event: str = "",
             date: str | None = None, vulnerable: Sequence[str] = ()) -> Iterator[str]:
    """The text of :func:`write_pbn` as lines to be joined by newlines (each piece has
    several): the file's header, then one piece per deal, each made only when the one before has been taken, so that a
    long file can be written as its deals are dealt.

    Raises:
        NotationError: as :func:`write_pbn`, when the piece of the bad deal is asked for.
    """
    lay = _layout(game)
    if isinstance(vulnerable, str):  # one text would be read as its letters
        raise NotationError(f"vulnerable is one value for each deal, a list such as "
                            f"[{vulnerable!r}], not the text {vulnerable!r}", value=vulnerable)
    if date is not None and not _DATE_RE.match(date):
        raise NotationError(f"date {date!r} is not a PBN date (write YYYY.MM.DD, e.g. "
                            "'2024.03.15', with ? for unknown digits)", value=date)
    yield "% PBN 2.1\n% EXPORT"
    for number, item in enumerate(deals, start=1):
        try:
            vul = vulnerable[number - 1] if number <= len(vulnerable) else None
            lines = _game_lines(lay, item, number, event, date, vul)
        except NotationError as e:
            raise NotationError(f"deal {number}: {e}", value=item) from e
        yield "\n" + "\n".join(lines)
