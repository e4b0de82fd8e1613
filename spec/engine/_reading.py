"""Where the engine reads each construct.

:class:`EngineReading` is the engine's construct visitor: for each construct, the part of
the engine that runs it.  The engine visits every rule of a game when it is built, so a
construct it does not run is refused then (``UnsupportedNodeError``), never played as if
the rule were not there; the rulebook shows the answer beside each rule.
"""
from __future__ import annotations

from spec.dsl import _constructs as K
from spec.dsl._visitor import ConstructVisitor

TABLE = "the table and the pack (spec/engine/_compiled.py)"
DEALING = "dealing (spec/engine/_deal.py)"
COURSE = "the course of the deal, from the deal program (spec/engine/_course.py)"
AUCTION = "the calls of the auction (spec/engine/_auction.py)"
PLAY = "the legal plays (spec/engine/_play.py)"
TRICK = "the end of each trick (spec/engine/_play.py)"
SCORE = "the score of a deal (spec/engine/_play.py)"
SESSION = "a session of deals (spec/engine/_session.py)"


class EngineReading(ConstructVisitor[str]):
    """The part of the engine that runs each construct (see the module's docstring)."""

    def _table(self, b: K.Construct) -> str:
        return TABLE

    visit_Seats = visit_PlayDirection = visit_DeckIs = visit_RankOrder = _table
    visit_SidesByContract = visit_Ladder = visit_BidOrder = visit_Track = _table

    def _dealing(self, b: K.Construct) -> str:
        return DEALING

    visit_DealPackets = visit_Talon = visit_Shuffle = visit_GatherAndCut = _dealing
    visit_TurnUp = visit_IdleSeat = _dealing
    visit_VoidWhen = visit_RedealIfNoBid = _dealing

    def _course(self, b: K.Construct) -> str:
        return COURSE

    visit_TakeTalon = visit_SetAside = visit_Decide = visit_HighestBidderDeclares = _course
    visit_SitsOut = visit_TrumpIs = visit_DropOut = visit_PartnerHolds = _course
    visit_phase = _course  # a phase a game writes as steps of its own

    def visit_LayOpen(self, b: K.LayOpen) -> str:
        return "the end of each trick, and what each seat's view shows (spec/engine/_state.py)"

    def _auction(self, b: K.Construct) -> str:
        return AUCTION

    visit_AuctionTurns = visit_ProxyCall = visit_CallRule = visit_SameBidJoins = _auction
    visit_HoldBid = visit_PartnerAccepts = _auction

    def visit_Announce(self, b: K.Announce) -> str:
        return AUCTION if b.scope.name == "CALL" else PLAY

    def _play(self, b: K.Construct) -> str:
        return PLAY

    visit_TrickPlay = visit_PlayRule = visit_PlayableAside = visit_FaceDown = _play
    visit_AlwaysPlayable = visit_NameSuit = visit_DeclarationRule = _play

    def _trick(self, b: K.Construct) -> str:
        return TRICK

    visit_CountsAsSuit = visit_WinningTier = visit_RecordTricks = _trick

    def visit_Update(self, b: K.Update) -> str:
        return TRICK if b.at is K.Moment.TRICK_END else PLAY

    def _score(self, b: K.Construct) -> str:
        return SCORE

    visit_TrickValue = visit_CardPoints = visit_ScoreRule = visit_TrickScores = _score

    def _session(self, b: K.Construct) -> str:
        return SESSION

    visit_DealerRotation = visit_GameTarget = visit_AfterGame = visit_GameBonus = _session
    visit_Rubber = visit_RubberSettlement = visit_MatchOf = visit_MatchTarget = _session
    visit_Pot = visit_MatchLength = _session

    def visit_Claim(self, b: K.Claim) -> str:
        return ("not run: a consequence the rules state, checked on played deals by the "
                "tests and proved by the verifier")
