"""Rules that several games state alike, written once: a game module puts them in its own
rules, with its own id, sentence and source.

>>> from spec.dsl import Rule, seed
>>> rule = Rule(id="play.follow_suit", text="A follower must follow suit if he can.",
...             source=seed("X-1"), body=follow_suit())
>>> type(rule.body).__name__, rule.body.permits.src_loc.file.endswith("blocks.py")
('PlayRule', False)

Each block builds fresh expression nodes, and the rules language records where the game
module called it, so an error in a game still names the game's file and line.
"""
from __future__ import annotations

from spec.dsl import (
    CallRule,
    Expr,
    PlayRule,
    WinningTier,
    call,
    calls_made,
    card_suit,
    cards_of,
    hand,
    is_leading,
    led_suit,
    no_suit,
    passes_in_row,
    standing,
    trump,
)


def overcall() -> CallRule:
    """A bid must beat the standing bid (by the game's bid order)."""
    return CallRule(applies=call.is_bid & standing.exists, requires=call.bid.key > standing.bid.key)


def ends_after_passes(after_bid: int, without_bid: int) -> Expr:
    """When an auction ends (an ``AuctionTurns`` rule's ``ends_when``): ``after_bid``
    passes in a row once a bid stands, or ``without_bid`` calls made without a bid."""
    return ((standing.exists & (passes_in_row == after_bid))
            | (~standing.exists & (calls_made == without_bid)))


def follow_suit() -> PlayRule:
    """A follower who holds a card of the led suit must play one."""
    return PlayRule(applies=~is_leading & hand.holds_any(cards_of(led_suit)), permits=cards_of(led_suit))


def trumps_win(tier: int = 2) -> WinningTier:
    """When there are trumps, trumps compete in ``tier``, above the led suit."""
    return WinningTier(tier, when=(trump != no_suit) & (card_suit == trump))


def led_suit_wins(tier: int = 1) -> WinningTier:
    """Cards of the led suit compete in ``tier``; cards of other suits cannot win."""
    return WinningTier(tier, when=card_suit == led_suit)


__all__ = ["ends_after_passes", "follow_suit", "led_suit_wins", "overcall", "trumps_win"]
