"""Where the Z3 back end reads each construct.

:class:`Z3Reading` is the Z3 back end's construct visitor: for each construct, the
situation or proof that encodes it, or why it needs none.  :func:`verifier.properties.check_game`
visits every rule first, so a construct the encoding does not model is refused
(``UnsupportedNodeError``) instead of proving properties of a game without that rule;
the rulebook shows the answer beside each rule.
"""
from __future__ import annotations

from spec.dsl import _constructs as K
from spec.dsl._visitor import ConstructVisitor

DEAL = "the deal schedule and each seat's share (deal.partitions_deck)"
CALL = "the call situation: one call of the auction, any history"
AUCTION = "the auction unrolled call by call (auction.ends)"
TRICK = "the trick situation: one card or one complete trick, any hands"
OUTCOME = "the outcome situation: a whole deal's tricks and score"
MATCH = "the match situation: a session's totals"
EVERY_DEAL = ("no situation: the properties hold for every deal, however the pack was "
              "shuffled or carried")


class Z3Reading(ConstructVisitor[str]):
    """The Z3 situation that encodes each construct (see the module's docstring)."""

    def _deal(self, b: K.Construct) -> str:
        return DEAL

    visit_Seats = visit_DeckIs = visit_DealPackets = visit_Talon = _deal
    visit_PlayDirection = visit_SidesByContract = visit_TurnUp = visit_IdleSeat = _deal

    def _every_deal(self, b: K.Construct) -> str:
        return EVERY_DEAL

    visit_Shuffle = visit_GatherAndCut = _every_deal

    def _call(self, b: K.Construct) -> str:
        return CALL

    visit_Ladder = visit_BidOrder = visit_CallRule = visit_ProxyCall = _call
    visit_SetAside = visit_SameBidJoins = visit_HoldBid = visit_PartnerAccepts = _call

    def visit_VoidWhen(self, b: K.VoidWhen) -> str:
        return ("no situation: a deal voided is dealt again, and the properties of a deal "
                "in progress hold for every deal the rules let go on")

    def _auction(self, b: K.Construct) -> str:
        return AUCTION

    visit_AuctionTurns = visit_HighestBidderDeclares = visit_RedealIfNoBid = _auction

    def visit_Announce(self, b: K.Announce) -> str:
        return CALL if b.scope.name == "CALL" else TRICK

    def _trick(self, b: K.Construct) -> str:
        return TRICK

    visit_RankOrder = visit_TrickPlay = visit_PlayRule = visit_PlayableAside = _trick
    visit_FaceDown = visit_AlwaysPlayable = visit_NameSuit = visit_DeclarationRule = _trick
    visit_CountsAsSuit = visit_WinningTier = visit_Update = visit_SitsOut = _trick
    visit_Decide = visit_Track = visit_TakeTalon = visit_TrumpIs = visit_DropOut = _trick
    visit_PartnerHolds = _trick

    def visit_LayOpen(self, b: K.LayOpen) -> str:
        return ("no situation: a hand laid open changes what the seats see, not what is "
                "legal, won or scored")

    def visit_phase(self, b: K.PhaseConstruct) -> str:
        return ("its steps: a situation whose facts they may change reads from them what it "
                "may assume (where a seat's cards come from, say) or is not stated (its checks "
                "UNKNOWN); the scenarios do not unroll them yet")

    def _outcome(self, b: K.Construct) -> str:
        return OUTCOME

    visit_TrickValue = visit_CardPoints = visit_RecordTricks = visit_ScoreRule = _outcome
    visit_TrickScores = _outcome

    def _match(self, b: K.Construct) -> str:
        return MATCH

    visit_GameTarget = visit_AfterGame = visit_GameBonus = _match

    def visit_DealerRotation(self, b: K.DealerRotation) -> str:
        return "no situation: the situations hold for every dealer"
    visit_Rubber = visit_RubberSettlement = visit_MatchOf = visit_MatchTarget = _match

    def visit_Pot(self, b: K.Pot) -> str:
        return ("the deal's outcome, with any pot a multiple of the granularity, at least "
                "one unit: the pot properties")
    visit_MatchLength = _match

    def visit_Claim(self, b: K.Claim) -> str:
        return f"proved as stated, in the {b.scope.name.lower()} situation"
