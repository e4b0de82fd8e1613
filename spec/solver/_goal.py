"""What the declaring side plays for: its seats, what it counts, and which counts it wants.

Everything here is read from the rules through the engine: the partnerships of the table (or
the declarers and the partner the deal made, where the contract decides the sides), the
points rules (a trick's worth, or its cards' points) and the scoring rules, which say
whether the declaring side wants more points, fewer (a misère), or a count within bounds
(Piccolo's one trick exactly).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec.engine import Engine, State
from spec.errors import NotationError


@dataclass(frozen=True)
class Goal:
    """What the declaring side plays for in one contract.

    ``sign`` is +1 where the side's score grows with its points and -1 where it shrinks
    (a misère: the fewer tricks the better).  Where neither holds, the side wants its points
    between ``low`` and ``high`` (both given), and the value of a position is 1 where it
    gets there under perfect play and 0 where it does not.
    """

    sign: int = 1
    low: int | None = None
    high: int | None = None

    @property
    def bounded(self) -> bool:
        """The side wants a count between bounds: the value is made (1) or not (0)."""
        return self.low is not None

    def describe(self, unit: str) -> str:
        if self.bounded:
            if self.low == self.high:
                return f"exactly {self.low} {unit}"
            return f"{self.low} to {self.high} {unit}"
        return f"as many {unit} as it can" if self.sign > 0 else f"as few {unit} as it can"


def side_of(eng: Engine, s: State) -> int:
    """The seats of the declaring side (a bit per seat): the declarer's partnership where
    the table has partnerships, else the declarers and the declarer's partner.

    Where several declarers each play alone for a goal of his own (two misères), the
    side is the state's declarer alone, and every other seat plays against him: his value
    is what he makes whatever the others do.

    Raises:
        NotationError: the state has no declarer.
    """
    if s.declarer < 0:
        raise NotationError("the position has no declarer: the solver reads the play of the "
                            "cards, after the auction")
    table = eng.game.table
    if table.partnerships:
        for team in table.partnerships:
            if s.declarer in team:
                return sum(1 << k for k in team)
        return 1 << s.declarer
    mask = s.declarers | (1 << s.declarer)
    if s.partner >= 0:
        mask |= 1 << s.partner
    if s.partner in (-1, s.declarer) and mask.bit_count() > 1:
        # several declarers, each playing alone for his own goal: the side is the
        # declarer's alone, and every other seat plays against him (what he can make
        # whatever the others do)
        return 1 << s.declarer
    return mask


def in_play(eng: Engine, s: State) -> int:
    """How many seats play to each trick: neither out of the play nor sitting it out."""
    return sum(1 for k in range(eng.n) if not s.absent >> k & 1 and k != s.out)


def tricks_of(eng: Engine, s: State) -> int:
    """The tricks of ``s``'s deal: those played and those its cards still make."""
    held = sum(h.bit_count() for k, h in enumerate(s.hands)
               if not s.absent >> k & 1 and k != s.out)
    held += sum(a.bit_count() for a in s.aside)
    return s.trick_number - 1 + (held + len(s.trick)) // max(1, in_play(eng, s))


def points_unit(eng: Engine) -> str:
    """What the side's points count: tricks, or card points."""
    return "points" if any(eng.card_points(0)) else "tricks"


def goal_of(eng: Engine, s: State, side: int, tricks: int) -> Goal:
    """What the declaring side of ``s`` plays for, from the declarer's score for each count
    it could end with (``tricks``: the tricks of the whole deal).

    The declarer's score is read for each number of tricks the side could win (in a game
    that counts card points, for one trick of the cheapest cards and for every trick but
    one of them: neither side takes every trick, which some rules score apart, as a slam
    or a claim of every trick; in a deal of fewer than three tricks, for none and all): growing, the side wants more; shrinking, fewer; else it wants the counts that
    score best, which must be one run of counts.

    Raises:
        NotationError: the best counts are not one run (no single goal to solve for).
    """
    opp = _opponent(eng, s, side)
    if opp < 0 or tricks <= 0:
        return Goal()
    points = eng.card_points(s.contract)
    card_points = any(points)
    everything = (1 << len(eng.game.deck)) - 1
    # in a game that counts card points, the side's least is one trick of the cheapest
    # cards and its most every card but those, where the deal has three tricks or more (all
    # the tricks may score otherwise, for either side: a slam not claimed, say); else none
    # and all
    seats = in_play(eng, s)
    cheapest = sum(1 << c for c in sorted(range(len(points)), key=points.__getitem__)[:seats])
    least, most = (1, tricks - 1) if tricks > 2 else (0, tricks)

    def score(won: int) -> int:
        taken = None
        if card_points:
            mine = (everything if won == tricks else everything & ~cheapest if won == most
                    else cheapest if won else 0)
            taken = [0] * eng.n
            taken[opp] = everything & ~mine
            taken[s.declarer] = mine
        return _scores(eng, s, opp, tricks, won, taken)[s.declarer]

    counts = (least, most) if card_points else tuple(range(tricks + 1))
    scores = [score(k) for k in counts]
    if all(a <= b for a, b in zip(scores, scores[1:])):
        return Goal(1)
    if all(a >= b for a, b in zip(scores, scores[1:])):
        return Goal(-1)
    best = max(scores)
    tops = [k for k, sc in zip(counts, scores) if sc == best]
    if tops != list(range(tops[0], tops[-1] + 1)):
        raise NotationError(f"the declarer scores best with {tops} tricks: no one run of "
                            "counts to solve for")
    return Goal(0, tops[0], tops[-1])


def _opponent(eng: Engine, s: State, side: int) -> int:
    """A seat of the other side that plays to the tricks, or -1."""
    return next((k for k in range(eng.n) if not side >> k & 1 and not s.absent >> k & 1
                 and k != s.out), -1)


def _scores(eng: Engine, s: State, opp: int, tricks: int, won: int,
            taken: list[int] | None, last: bool = False) -> tuple[int, ...]:
    """Every seat's score for the contract of ``s`` where the declarer takes the first
    ``won`` of the deal's ``tricks`` tricks (with ``last``, the last ones) and ``opp`` the
    rest (``taken``: the cards each seat took, where the game counts card points)."""
    winners = [s.declarer] * won + [opp] * (tricks - won)
    if last:
        winners.reverse()
    return eng.score_outcome(contract=s.contract, declarer=s.declarer, winners=winners,
                             dealer=s.dealer, taken=taken, trump=s.trump, dealt=s.dealt,
                             turn_up=s.turn_up, idle=s.idle, dropped=s.dropped,
                             guest=s.guest, **_sides(s))


def made(s: State, goal: Goal, value: int | None) -> bool | None:
    """Whether the declaring side of ``s`` (a position at the first lead) makes its
    contract when it ends the deal with ``value``, the solver's value there for ``goal``.

    Made means what ``trickspec stats`` counts as made in a deal played: the declarer's
    score is above that of every seat of the other side.  For a goal of a count between
    bounds the value says it (1: made); otherwise, where the side counts tricks, the rules
    score that many tricks, the side taking the first tricks of the deal and then the last
    ones.  None where those two disagree (which tricks the side takes decides it, as in a
    game whose later tricks are worth more), where the value is unknown, where the
    side counts card points (which cards make the points decides the score, and a contract
    such as a claim of every trick asks for more than points), or where no seat plays
    against the side.
    """
    if value is None:
        return None
    if goal.bounded:
        return value == 1
    eng = s.engine
    side = side_of(eng, s)
    opp = _opponent(eng, s, side)
    tricks = tricks_of(eng, s)
    if opp < 0 or tricks <= 0 or any(eng.card_points(s.contract)):
        return None
    judged = set()
    for last in (False, True):
        scores = _scores(eng, s, opp, tricks, value, None, last)
        judged.add(all(scores[s.declarer] > x for k, x in enumerate(scores)
                       if not side >> k & 1))
    return judged.pop() if len(judged) == 1 else None


def _sides(s: State) -> dict[str, Any]:
    return {"partner": s.partner if s.partner >= 0 else None,
            "declarers": [k for k in range(len(s.hands)) if s.declarers >> k & 1] or None}
