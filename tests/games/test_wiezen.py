"""Wiezen with the turned-up trump: the digest's worked examples, the auction (vraag and
meegaan, wachten, the repeated bids, the Troel), trumps and the first lead, the hand laid
open, the score, and the pack carried from deal to deal."""
from __future__ import annotations

import json

import pytest

from spec.cards import Card, CardSet, Rank, Suit
from spec.dsl import NO_SUIT, Property, Scope, all_of, implies
from spec.dsl._build import suit_code
from spec.engine import (
    PASS,
    Call,
    Declare,
    Phase,
    Play,
    State,
    View,
    apply,
    engine_for,
    legal_actions,
    new_deal,
    play_deal,
    play_match,
)
from spec.errors import IllegalActionError
from spec.games.wiezen import (
    BASE_CASES,
    DOUBLING_CASES,
    GAME,
    LEGAL_CASES,
    MISERIE,
    SCORE_CASES,
    SETTLED_ONCE_CASES,
    SEVERAL_CASES,
    TROEL_CASES,
    TROEL_LEAD_CASES,
)
from spec.records import match_json, replay, replay_match, to_record
from verifier.cli import main
from verifier.properties import Verdict, check_game, checks_for, run_check

ENGINE = engine_for(GAME)
N, E, S, W = 0, 1, 2, 3
BID = {b.label: k for k, b in enumerate(GAME.ladder)}
ACES = {Card(s, Rank.ACE) for s in Suit}


def action(text: str):  # type: ignore[no-untyped-def]
    if text == "pass":
        return PASS
    if text in ("wachten", "spades", "hearts", "diamonds", "clubs"):
        return Declare(text)  # an announcement, or trumps named
    return Call(GAME.parse_bid(text))


def aces(state: State, seat: int) -> int:
    return sum(1 for c in state.hand(seat) if c.rank is Rank.ACE)


def _seed_without_troel(dealer: int = W) -> int:
    """A seed whose first deal gives nobody three aces."""
    for seed in range(200):
        s = new_deal(GAME, seed=seed, dealer=dealer)
        if max(aces(s, k) for k in range(4)) < 3:
            return seed
    raise AssertionError("no such seed")


SEED = _seed_without_troel()


def after(*calls: str, seed: int = SEED, dealer: int = W, game=GAME) -> State:  # type: ignore[no-untyped-def]
    """West deals (North calls first); the calls and announcements made in turn."""
    s = new_deal(game, seed=seed, dealer=dealer)
    for c in calls:
        s = apply(s, action(c))
    return s


def offered(s: State) -> set[str]:
    return {str(a) for a in legal_actions(s)}


def hands(*texts: str) -> tuple[int, ...]:
    return tuple(CardSet.parse(t, GAME.deck).mask for t in texts)


# -- the digest's worked examples (section 2) -------------------------------------------------
def score(contract: str, declarer: int, winners: list[int], partner: int | None = None,
          declarers: list[int] | None = None, game=GAME) -> tuple[int, ...]:  # type: ignore[no-untyped-def]
    return engine_for(game).score_outcome(contract=BID[contract], declarer=declarer,
                                          winners=winners, partner=partner, declarers=declarers)


@pytest.mark.parametrize(("contract", "tricks", "scores"), [
    ("vraag", 8, (2, -2, 2, -2)),        # value 1
    ("vraag", 10, (6, -6, 6, -6)),       # 1 + 2
    ("vraag", 13, (24, -24, 24, -24)),   # (1 + 5) x 2
    ("vraag", 7, (-4, 4, -4, 4)),        # 1 + 1, failed
    ("troel", 10, (12, -12, 12, -12)),   # 2 + 2 x 2
    ("troel", 13, (48, -48, 48, -48)),   # (2 + 2 x 5) x 2
], ids=lambda x: str(x))
def test_worked_examples_of_a_pair(contract: str, tricks: int, scores: tuple[int, ...]) -> None:
    # North and South against East and West
    pair = [N, S] * 7
    winners = pair[:tricks] + [E, W] * 7
    assert score(contract, N, winners[:13], partner=S) == scores


@pytest.mark.parametrize(("contract", "tricks", "scores"), [
    ("solo", 5, (3, -1, -1, -1)),
    ("solo", 3, (-9, 3, 3, 3)),          # 1 + 2, failed
    ("solo", 13, (54, -18, -18, -18)),   # (1 + 8) x 2
    ("abondance", 9, (24, -8, -8, -8)),
    ("abondance", 13, (24, -8, -8, -8)),  # no overtricks, no doubling
    ("abondance", 8, (-24, 8, 8, 8)),
    ("abondance_in_troef", 13, (24, -8, -8, -8)),
    ("solo_slim", 13, (72, -24, -24, -24)),
    ("solo_slim", 12, (-72, 24, 24, 24)),
    ("piccolo", 1, (18, -6, -6, -6)),
    ("piccolo", 0, (-18, 6, 6, 6)),      # Piccolo fails with no trick too
    ("miserie", 0, (30, -10, -10, -10)),
    ("miserie_op_tafel", 1, (-48, 16, 16, 16)),
], ids=lambda x: str(x))
def test_worked_examples_alone(contract: str, tricks: int, scores: tuple[int, ...]) -> None:
    assert score(contract, N, [N] * tricks + [E] * (13 - tricks)) == scores


def test_two_misere_declarers_as_the_rule_says_and_as_the_table_says() -> None:
    # North takes no trick, East three: WZ-SCORE-5 as written, each against the other three
    winners = [E] * 3 + [S] * 5 + [W] * 5
    assert score("miserie", N, winners, declarers=[N, E]) == (40, -40, 0, 0)
    # the digest's table of worked examples (A +30, B -30): the reading variant
    once = GAME.with_variants("declarers_settle_once")
    assert score("miserie", N, winners, declarers=[N, E], game=once) == (30, -30, 0, 0)
    # where both make it or both fail, the two readings agree
    both = [S] * 6 + [W] * 7
    assert score("miserie", N, both, declarers=[N, E]) == (20, 20, -20, -20)
    assert score("miserie", N, both, declarers=[N, E], game=once) == (20, 20, -20, -20)


# -- the auction -------------------------------------------------------------------------------
def test_the_dealers_left_calls_first_and_every_contract_but_three_may_open() -> None:
    s = after()
    assert s.turn == N
    assert offered(s) == {"pass", "wachten", "vraag", "piccolo", "abondance", "miserie",
                          "miserie_op_tafel", "solo_slim"}
    assert "wachten" not in offered(after("pass"))  # the dealer's left only


def test_wachten_then_meegaan() -> None:
    s = after("wachten")
    assert offered(s) == {"pass"}  # he passes for now
    s = after("wachten", "pass", "vraag", "pass", "pass")
    assert s.turn == N and offered(s) == {"pass", "vraag"}  # meegaan, or pass
    s = apply(s, action("vraag"))  # meegaan: East and North against South and West
    assert s.phase is Phase.PLAY and GAME.ladder[s.contract].label == "vraag"
    assert (s.declarer, s.partner) == (E, N)
    assert s.trump == suit_code(GAME.deck[s.turn_up].suit)  # the turned suit


def test_a_pass_without_wachten_is_final() -> None:
    s = after("pass", "vraag", "pass", "pass")
    assert s.turn == N and offered(s) == {"pass"}
    with pytest.raises(IllegalActionError, match="auction.pass_final"):
        apply(s, action("vraag"))


def test_a_vraag_nobody_joins_the_asker_speaks_again_then_it_is_thrown_in() -> None:
    s = after("vraag", "pass", "pass", "pass")
    assert s.turn == N and "solo" in offered(s) and "vraag" not in offered(s)
    solo = apply(s, action("solo"))  # the other three have passed: Solo stands
    assert solo.phase is Phase.PLAY and solo.declarer == N and solo.partner == N
    s = apply(s, PASS)  # no Solo: the cards are thrown in, West deals again
    assert s.phase is Phase.AUCTION and s.dealer == W and s.redeals == 1
    assert s.thrown_in[-1].reason == "auction.vraag_alone" and s.tricks == ()


def test_everybody_passes_and_the_same_dealer_deals_again() -> None:
    s = after("pass", "pass", "pass", "pass")
    assert s.phase is Phase.AUCTION and s.dealer == W and s.thrown_in[-1].reason == "no bid"


def test_meegaan_ends_the_auction_once_the_others_have_passed() -> None:
    s = after("vraag", "pass", "vraag")  # South says meegaan; East has passed already
    assert s.turn == W and s.phase is Phase.AUCTION
    s = apply(s, PASS)  # every seat but the pair has passed
    assert s.phase is Phase.PLAY and (s.declarer, s.partner) == (N, S)


def test_only_the_asker_whose_vraag_nobody_joined_bids_solo() -> None:
    assert "solo" not in offered(after("vraag"))  # East: not his Vraag
    assert "solo" not in offered(after())
    s = after("vraag", "vraag", "piccolo", "pass", "pass")  # a pair overcalled by South
    assert "solo" not in offered(s)


def test_abondance_in_troef_only_over_an_abondance() -> None:
    assert "abondance_in_troef" not in offered(after())
    assert "abondance_in_troef" in offered(after("abondance"))
    assert "abondance_in_troef" not in offered(after("abondance", "miserie"))


@pytest.mark.parametrize("bid", ["piccolo", "miserie", "miserie_op_tafel"])
def test_a_repeated_bid_makes_several_declarers(bid: str) -> None:
    s = after(bid, "pass", bid, "pass")
    assert s.phase is Phase.PLAY and s.declarers == 1 << N | 1 << S and s.declarer == N
    assert s.trump == NO_SUIT and s.leader == N
    assert bid not in offered(after("solo_slim"))


def test_with_passes_in_a_row_the_holders_speak_again_and_may_raise() -> None:
    three = GAME.with_variants("passes_in_a_row")
    s = after("miserie", "pass", "miserie", "pass", game=three)  # by default it would be over
    assert s.phase is Phase.AUCTION and s.turn == N
    assert offered(s) == {"pass", "miserie_op_tafel", "solo_slim"}  # not Miserie again
    s = apply(apply(s, PASS), PASS)  # North and East: three passes in a row
    assert s.phase is Phase.PLAY and s.declarers == 1 << N | 1 << S
    default = after("miserie", "pass", "miserie", "pass")
    assert default.phase is Phase.PLAY


def test_the_digests_solo_over_an_overcall_is_stated_but_not_playable() -> None:
    from spec.errors import NotationError

    with pytest.raises(NotationError, match="keep no memory"):
        GAME.with_variants("solo_after_an_overcall")


def test_a_repeated_solo_or_abondance_is_refused() -> None:
    s = after("abondance")
    with pytest.raises(IllegalActionError, match="auction.overcall"):
        apply(s, action("abondance"))


def _deal_for(north: str, east: str, south: str) -> tuple[int, ...]:
    deck = GAME.deck
    given = hands(north, east, south)
    west = deck.full.mask & ~(given[0] | given[1] | given[2])
    return (*given, west)


# North holds three aces; West deals and holds the ace of clubs
TROEL_HANDS = _deal_for("AS AH AD KS QS JS 10S 9S 8S 7S 6S 5S 4S",
                        "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2S",
                        "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D 3S")


def test_troel_is_compulsory_at_the_first_turn() -> None:
    s = new_deal(GAME, hands=TROEL_HANDS, dealer=W)
    assert offered(s) == {"troel"}  # North: three aces, no higher bid yet
    s = apply(s, action("troel"))
    assert offered(s) == {"pass", "miserie_op_tafel", "solo_slim"}
    for _ in range(3):
        s = apply(s, PASS)
    # the partner holds the fourth ace, clubs are trumps, and he leads the ace of clubs
    assert s.phase is Phase.PLAY and (s.declarer, s.partner) == (N, W)
    assert s.trump == suit_code(Suit.CLUBS) and s.turn == W
    assert offered(s) == {"AC"}


def test_troel_announced_over_a_higher_bid() -> None:
    # East holds three aces; North bids Solo slim first: East must announce his Troel
    north_first = _deal_for("KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S KH",
                            "AS AH AD QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
                            "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D 2H")
    s = new_deal(GAME, hands=north_first, dealer=W)
    s = apply(s, action("solo_slim"))
    assert legal_actions(s) == (Declare("troel_held"),)  # announced, not bid
    s = apply(s, Declare("troel_held"))
    assert offered(s) == {"pass"} and s.standing == BID["solo_slim"]


def test_troel_with_four_aces_the_highest_heart_lacked() -> None:
    four = _deal_for("AS AH AD AC KH QH KS QS JS 10S 9S 8S 7S",
                     "JH 2S 3S 4S 5S 6S 2D 3D 4D 5D 6D 7D 8D",
                     "10H 9H 8H 7H 6H 5H 4H 3H 2H 9D 10D JD QD")
    s = new_deal(GAME, hands=four, dealer=W)
    s = apply(s, action("troel"))
    for _ in range(3):
        s = apply(s, PASS)
    assert (s.declarer, s.partner, s.trump) == (N, E, suit_code(Suit.HEARTS))
    assert s.turn == E and offered(s) == {"JH"}  # East leads the jack of hearts


def test_solo_slim_declarer_names_trumps_and_leads() -> None:
    s = after("solo_slim", "pass", "pass", "pass")
    assert s.phase is Phase.DECIDE and offered(s) == {"spades", "hearts", "diamonds", "clubs"}
    s = apply(s, Declare("clubs"))
    assert s.phase is Phase.PLAY and s.trump == suit_code(Suit.CLUBS) and s.turn == N
    s = after("pass", "solo_slim", "pass", "pass", "spades")  # North has passed already
    assert s.turn == E and s.trump == suit_code(Suit.SPADES)


def test_abondance_names_trumps_and_the_dealers_left_leads() -> None:
    s = after("pass", "abondance", "pass", "pass", "hearts")
    assert s.declarer == E and s.trump == suit_code(Suit.HEARTS) and s.turn == N


@pytest.mark.parametrize(("variants", "trumps"), [((), NO_SUIT), (("piccolo_with_trumps",), None)])
def test_piccolo_with_or_without_trumps(variants: tuple[str, ...], trumps: int | None) -> None:
    game = GAME.with_variants(*variants)
    s = after("piccolo", "pass", "pass", "pass", game=game)
    turned = suit_code(game.deck[s.turn_up].suit)
    assert s.trump == (turned if trumps is None else trumps)


def test_miserie_op_tafel_is_laid_open_after_the_first_trick_by_each_declarer() -> None:
    s = after("miserie_op_tafel", "pass", "miserie_op_tafel", "pass")
    assert s.phase is Phase.PLAY and not s.laid_open
    for _ in range(4):
        s = apply(s, legal_actions(s)[0])
    assert sorted(seat for seat, _after in s.laid_open) == [N, S]
    view = View(s, E)
    assert {seat for seat, _cards in view.open_hands} == {N, S}
    assert dict(view.open_hands)[N] == s.hand(N)


def test_the_turn_up_is_the_dealers_and_every_seat_sees_it() -> None:
    for seed in range(20):
        s = new_deal(GAME, seed=seed, dealer=seed % 4)
        assert s.dealt[s.dealer] >> s.turn_up & 1
        assert all(View(s, k).turn_up == GAME.deck[s.turn_up] for k in range(4))


def _every_state(seed: int) -> list[State]:
    """Every state of the deal bots play from ``seed``, the deal as dealt first."""
    final = play_deal(GAME, seed=seed)
    states = [new_deal(GAME, seed=seed)]
    for _seat, act in final.log:
        states.append(apply(states[-1], act))
    assert states[-1].scores == final.scores
    return states


def test_what_each_seat_sees_the_turn_up_the_hand_laid_open_and_the_troel_partner() -> None:
    seen = {"troel": 0, "miserie_op_tafel": 0}
    for seed in range(600):
        final = play_deal(GAME, seed=seed)
        label = GAME.ladder[final.contract].label
        if final.thrown_in or label not in seen:
            continue
        seen[label] += 1
        for s in _every_state(seed):
            views = [View(s, k) for k in range(4)]
            # the turn-up, one of the dealer's cards, is public from the deal on
            assert all(v.turn_up == GAME.deck[s.turn_up] for v in views)
            if s.phase is Phase.AUCTION:
                assert all(v.partner is None and not v.open_hands for v in views)
                continue
            if label == "miserie_op_tafel":
                # each declarer's hand is on the table, for every seat, from the end of trick 1
                laid = {k: s.hand(k) for k in s.declaring_seats} if s.tricks else {}
                assert all(dict(v.open_hands) == laid for v in views)
            elif s.partner != s.declarer:
                # the troel partner knows it from his hand; the others when he leads the card
                led = bool(s.tricks or s.trick)
                assert [v.partner for v in views] == [
                    s.partner if led or k == s.partner else None for k in range(4)]
    assert min(seen.values()) >= 3, seen


# -- whole deals, sessions --------------------------------------------------------------------
def test_deals_play_zero_sum_and_replay() -> None:
    for seed in range(300):
        s = play_deal(GAME, seed=seed)
        assert s.phase is Phase.OVER and sum(s.scores) == 0  # type: ignore[arg-type]
        report = replay(to_record(s), GAME)
        assert report.ok, report.message


def test_ten_thousand_deals_zero_sum() -> None:
    contracts = set()
    for seed in range(10_000):
        s = play_deal(GAME, seed=seed)
        assert s.phase is Phase.OVER and sum(s.scores) == 0, seed  # type: ignore[arg-type]
        contracts.add(GAME.ladder[s.contract].label)
    assert contracts == set(BID)


def _cut_of(order: list[int], dealt: tuple[int, ...], dealer: int) -> bool:
    return any(ENGINE.hands_from_order(order[k:] + order[:k], dealer) == dealt
               for k in range(4, len(order) - 3))


def test_a_session_gathers_the_tricks_and_cuts_without_a_shuffle() -> None:
    match = play_match(GAME, seed=4, deals=8)
    assert len(match.deals) == 8 and all(sum(s.scores) == 0 for s in match.deals)  # type: ignore[arg-type]
    for before, now in zip(match.deals, match.deals[1:]):
        assert now.dealer == (before.dealer + 1) % 4
        first = now.thrown_in[0].dealt if now.thrown_in else now.dealt
        assert _cut_of([c for t in before.tricks for c in t.cards], first, now.dealer)


def test_whole_sessions_replay_and_their_totals_sum_to_zero_after_every_deal() -> None:
    for seed in range(5):
        match = play_match(GAME, seed=seed, deals=40)
        assert len(match.totals) == 40
        assert all(sum(after) == 0 for after in match.totals)
        assert replay_match(match_json(match), GAME).ok


def test_a_deal_thrown_in_is_gathered_hand_by_hand_and_dealt_by_the_same_dealer() -> None:
    first = after()
    s = after("pass", "pass", "pass", "pass")
    order = [i for k in (1, 2, 3, 4) for i in range(52) if first.dealt[(W + k) % 4] >> i & 1]
    assert s.dealer == W and _cut_of(order, s.dealt, W)


def test_the_session_command(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "wiezen", "--session", "--deals", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "a session of 20 deals" in out and "deal  20" in out
    path = tmp_path / "session.json"
    assert main(["play", "wiezen", "--session", "--deals", "8", "--json", "--out", str(path)]) == 0
    assert len(json.loads(path.read_text())["deals"]) == 8
    assert main(["replay", str(path)]) == 0
    assert main(["play", "wiezen", "--session", "--deals", "6"]) == 2  # a multiple of four
    assert "multiple of 4" in capsys.readouterr().err


def test_the_text_of_a_deal_shows_the_turn_up_and_the_sides(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "wiezen", "--seed", "3", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert "turn-up" in out and "Contract: miserie_op_tafel by West and North" in out
    assert "North lays his hand open after trick 1" in out


# -- the facts' cases, the reading variant --------------------------------------------------------
@pytest.mark.parametrize(("scope", "cases", "variants"), [
    (Scope.OUTCOME, SCORE_CASES, ()),
    (Scope.OUTCOME, SEVERAL_CASES, ()),
    (Scope.OUTCOME, SETTLED_ONCE_CASES, ("declarers_settle_once",)),
    (Scope.OUTCOME, DOUBLING_CASES, ()),
    (Scope.OUTCOME, BASE_CASES, ()),
    (Scope.OUTCOME, TROEL_CASES, ()),
    (Scope.PLAY, TROEL_LEAD_CASES, ()),
    (Scope.PLAY, LEGAL_CASES, ()),
], ids=["worked", "several", "settled-once", "doubling", "base", "troel", "troel-lead", "legal"])
def test_every_case_of_a_fact_can_occur(scope: Scope, cases, variants) -> None:  # type: ignore[no-untyped-def]
    # the facts list their cases as "does not arise, or holds" to keep the check quick;
    # written as implications the checker proves each situation can occur (not vacuous)
    prop = Property(id="facts.cases", text="The cases of a fact, as implications.", scope=scope,
                    holds=all_of(*(implies(situation, then) for situation, then in cases)))
    game = GAME.with_variants(*variants)
    game = game.with_rules(game.rules, properties=(prop,))
    (check,) = [c for c in checks_for(game) if c.id == "facts.cases"]
    result = run_check(game, check)
    assert result.verdict is Verdict.HOLDS, result.detail


def test_the_readings_of_two_misere_declarers_part_in_a_deal() -> None:
    (result,) = check_game(GAME, only=("variant.declarers_settle_once",))
    assert result.verdict is Verdict.HOLDS and result.playthrough is not None


@pytest.mark.parametrize("where", [
    # two Miserie declarers, one who makes it and one who fails
    "level == miserie and declares(North) and declares(East) and tricks(North) == 0 "
    "and tricks(East) > 0",
    "level == troel and count(North, aces) == 4",
    # a Miserie op tafel lost after the hand was laid open
    "level == miserie_op_tafel and winner(1) != declarer and tricks(declarer) > 0",
], ids=["two-miserie", "troel-four-aces", "op-tafel-lost"])
def test_the_scenarios_are_found_and_replay(where: str) -> None:
    from spec.constraints import history_test, parse_where
    from verifier.scenario import scenarios_where

    condition = parse_where(GAME, where)
    found = scenarios_where(GAME, condition, n=1, method="rejection")
    assert found.status == "found", found.reason
    (state,) = found.states
    assert history_test(GAME, condition)(state)
    assert replay(to_record(state), GAME).ok


def test_a_contract_by_its_name_is_its_level() -> None:
    from spec.constraints import history_test, parse_where
    from spec.errors import NotationError

    test = history_test(GAME, parse_where(GAME, "level == miserie"))
    played = [play_deal(GAME, seed=seed) for seed in range(300)]
    assert any(GAME.ladder[s.contract].level == MISERIE for s in played)
    assert all(test(s) == (GAME.ladder[s.contract].label == "miserie") for s in played)
    with pytest.raises(NotationError, match="contracts the game names"):
        parse_where(GAME, "level == misery")


def test_a_deal_the_rules_never_end_is_stopped_not_played_for_ever() -> None:
    import dataclasses

    from spec.dsl import const
    from spec.errors import EndlessDealError

    # a Troel announcement required of every seat at every turn: nobody ever calls
    def always(rule):  # type: ignore[no-untyped-def]
        if rule.id != "auction.troel_announced":
            return rule
        return dataclasses.replace(rule, body=dataclasses.replace(rule.body, when=const(True)))
    game = GAME.with_rules(tuple(always(r) for r in GAME.rules))
    with pytest.raises(EndlessDealError, match="without end"):
        play_deal(game, seed=0)
    with pytest.raises(EndlessDealError, match="without end"):
        play_deal(game, seed=0, bots=[lambda view, rng: view.legal_actions()[0]] * 4)


def test_pbn_of_wiezen_writes_its_deals_and_refuses_its_auctions_in_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["pbn", "wiezen", "-n", "2"]) == 0
    assert capsys.readouterr().out.count("[Deal ") == 2
    assert main(["pbn", "wiezen", "-n", "2", "--played"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "contracts are named" in err
