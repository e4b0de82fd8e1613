"""A property whose premise can never occur proves nothing: its verdict is VACUOUS."""
from __future__ import annotations

import pytest

from spec.dsl import (
    Game,
    Ladder,
    Property,
    Rule,
    Scope,
    Variant,
    contract,
    declarer,
    implies,
    points_won,
    score_of,
    seed,
)
from spec.errors import SpecDefinitionError
from spec.games import crescendo as C
from spec.games import vint as V
from verifier.properties import Verdict, check_game, checks_for, premises, variant_checks

IMPOSSIBLE = Property(
    id="score.thirty_bid",
    text="A bid of 30 scores 30 when made.",
    scope=Scope.OUTCOME,
    holds=implies((contract.level == 30) & (points_won(declarer) == 30),
                  score_of(declarer) == 30),
)
POSSIBLE = Property(
    id="score.exact_bid",
    text="A bid of 15 made exactly scores 30.",
    scope=Scope.OUTCOME,
    holds=implies((contract.level == 15) & (points_won(declarer) == 15),
                  score_of(declarer) == 30),
)


def _with(*props: Property, game: Game = C.GAME, variants: tuple[Variant, ...] = ()) -> Game:
    return Game(name=game.name, key=game.key, ref_prefix=game.ref_prefix, rules=game.rules,
                variants=variants or game.variants, properties=props)


def test_an_impossible_premise_is_vacuous_and_named() -> None:
    (r,) = check_game(_with(IMPOSSIBLE), only=(IMPOSSIBLE.id,))
    assert r.verdict is Verdict.VACUOUS
    assert "test_vacuity.py:" in r.detail and "never occurs" in r.detail
    assert "contract.level == 30" in r.detail  # the premise as the module writes it


def test_a_possible_premise_holds() -> None:
    (r,) = check_game(_with(POSSIBLE), only=(POSSIBLE.id,))
    assert r.verdict is Verdict.HOLDS


def test_premises_of_implications_conjunctions_and_choices() -> None:
    holds = implies(contract.level == 15, implies(points_won(declarer) == 3, score_of(declarer) < 0))
    written = [w for w, _p in premises(holds)]
    assert len(written) == 2
    assert written[0] is holds.cond  # type: ignore[attr-defined]
    assert premises(score_of(declarer) == 0) == []


def test_vint_seven_down_one_is_vacuous_without_seven_level_bids() -> None:
    """The issue's example: with the seven-level bids gone, the slam finding said nothing."""
    (ladder_rule,) = [r for r in V.GAME.rules if isinstance(r.body, Ladder)]
    body = ladder_rule.body
    assert isinstance(body, Ladder)
    six = Rule(ladder_rule.id + "_six", "Bids one to six only.", seed(ladder_rule.source.ref),
               Ladder(levels=tuple(range(1, 7)), strains=body.strains))
    cut = Variant(id="no_sevens", text="No seven-level bids.", replaces=((ladder_rule, six),),
                  source=seed(ladder_rule.source.ref))
    (prop,) = [p for p in V.PROPERTIES if p.id == "slam.seven_down_one"]
    game = _with(prop, game=V.GAME, variants=(cut,)).with_variants("no_sevens")
    (r,) = check_game(game, only=("slam.seven_down_one",))
    assert r.verdict is Verdict.VACUOUS
    (r,) = check_game(_with(prop, game=V.GAME), only=("slam.seven_down_one",))
    assert r.verdict is Verdict.HOLDS


def test_a_property_about_a_variant_is_checked_with_it_only() -> None:
    ids = {c.id for c in checks_for(C.GAME)}
    assert "score.unmakeable_bid_loses" not in ids
    played, checks = variant_checks(C.GAME, "allow_unmakeable_bids")
    (r,) = check_game(played, only=("score.unmakeable_bid_loses",))
    assert r.verdict is Verdict.HOLDS
    assert "score.unmakeable_bid_loses" in {c.id for c in checks}


def test_a_property_under_an_unknown_variant_is_refused() -> None:
    bad = Property(id="score.nothing", text="x", scope=Scope.OUTCOME,
                   holds=score_of(declarer) == score_of(declarer), under=("nope",))
    with pytest.raises(SpecDefinitionError, match="under unknown variant 'nope'"):
        _with(bad)


@pytest.mark.parametrize("game", [C.GAME, V.GAME], ids=lambda g: g.key)
def test_no_generic_property_is_vacuous(game: Game) -> None:
    generic = tuple(c.id for c in checks_for(game) if c.kind == "generic")
    assert all(r.verdict is Verdict.HOLDS for r in check_game(game, only=generic))


# -- how a witness is found ---------------------------------------------------------------

def _ints(solving, *names):  # type: ignore[no-untyped-def]
    import z3

    return [z3.Int(n, solving.ctx) for n in names]


@pytest.mark.parametrize(("facts", "term", "witnessed"), [
    (lambda x, y: [x > 0, y == 1], lambda x, y: x > 5, True),
    (lambda x, y: [x > 0, y == 1], lambda x, y: x < 0, False),
    # the facts the term does not read cannot hold: the situation never occurs
    (lambda x, y: [x > 0, y > 1, y < 0], lambda x, y: x > 5, False),
    (lambda x, y: [x > y, y > 3], lambda x, y: x < 4, False),
    (lambda x, y: [x > y, y > 3], lambda x, y: x > 4, True),
], ids=["free-part", "contradicts-its-fact", "situation-impossible", "linked-no", "linked-yes"])
def test_a_witness_split_from_its_situation_is_the_whole_query(facts, term, witnessed) -> None:  # type: ignore[no-untyped-def]
    """A premise is witnessed from the facts that bear on it and, once, the whole
    situation: the same answer as one query with every fact and the premise."""
    from verifier._prove import cones
    from verifier._z3.solver import Solving

    solving = Solving()
    x, y = _ints(solving, "x", "y")
    whole = solving.one_shot()
    whole.add(*facts(x, y), term(x, y))
    assert solving.sat(whole) is witnessed
    assert cones.witnessed(solving, [(facts(x, y), term(x, y))]) is witnessed


def test_a_proof_from_the_facts_next_to_the_claim_falls_back_to_all_that_bear() -> None:
    """The facts that read the claim's variables are tried first; when they do not prove
    it, those further away do, and a claim that fails still has its counterexample."""
    import z3

    from verifier._prove.cones import prove
    from verifier._z3.solver import Solving

    solving = Solving()
    x, y, z = _ints(solving, "x", "y", "z")
    facts = [x == y, y == 3, z == 7]
    assert prove(solving, facts, x == 3) is None  # needs y == 3, one link away
    assert prove(solving, facts, z3.And(x == 3, z > 6)) is None
    model = prove(solving, facts, z3.And(x == 3, z > 7))
    assert model is not None and model.eval(z).as_long() == 7
