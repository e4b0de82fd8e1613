"""Rules, sources, variants, properties and the Game they build, with its static checks.

``Game(...)`` validates everything an author can get wrong and raises
:class:`~spec.errors.SpecDefinitionError` naming the rule id and ``file:line``.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from spec.cards import Card, Deck, Rank, Suit
from spec.dsl import _constructs as K
from spec.dsl._checks import RuleChecks, SetupChecks
from spec.dsl._nodes import (
    CardTable,
    Ctx,
    Expr,
    Scope,
    SrcLoc,
    Var,
    caller_loc,
    suit_code,
    suit_from_code,
)
from spec.dsl._program import DealProgram, lower
from spec.dsl._steps import Step, lower_steps
from spec.dsl._pycompile import evaluate
from spec.errors import NotationError, SpecDefinitionError
from spec.seats import Direction, Table

_RULE_ID = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
_REF_ID = re.compile(r"^([A-Z0-9]+)-[A-Z0-9]+-\d+$")


class Origin(enum.Enum):
    """Where a rule comes from."""

    SEED = "seed"
    SOURCE = "source"
    ASSUMPTION = "assumption"


@dataclass(frozen=True, slots=True)
class Source:
    """The digest rule a DSL rule implements and how sure we are of it.

    ``also`` lists further digest rules the same construct implements (one construct can
    carry several sentences of a rulebook, such as "who sets the indicator aside" and
    "who may change it").
    """

    ref: str
    origin: Origin
    note: str = ""
    also: tuple[str, ...] = ()

    def __str__(self) -> str:
        tag = {Origin.SEED: "[seed]", Origin.SOURCE: "[source]", Origin.ASSUMPTION: "[assumption]"}
        return f"{self.ref} {tag[self.origin]}" + (f" {self.note}" if self.note else "")


def seed(ref: str, note: str = "", *, also: tuple[str, ...] = ()) -> Source:
    """A rule stated in the seed document."""
    return Source(ref, Origin.SEED, note, also)


def source(ref: str, citation: str, *, also: tuple[str, ...] = ()) -> Source:
    """A rule filled in from a cited source."""
    return Source(ref, Origin.SOURCE, citation, also)


def assumption(ref: str, alternatives: str, *, also: tuple[str, ...] = ()) -> Source:
    """A rule that neither the seed nor a source settles: our choice, with the alternatives."""
    return Source(ref, Origin.ASSUMPTION, alternatives, also)


@dataclass(frozen=True, slots=True, eq=False)
class Rule:
    """One rule of a game: a stable id, a sentence a player recognises, a source, a construct."""

    id: str
    text: str
    source: Source
    body: K.Construct
    src_loc: SrcLoc = field(default_factory=caller_loc)
    # the fields of its construct this rule changes in the rule of the same id it stands
    # in for (see :func:`amended`); empty for a rule stated whole
    amends: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _RULE_ID.match(self.id):
            raise SpecDefinitionError(
                f"rule id {self.id!r} is not of the form <phase>.<snake_name> "
                "(e.g. 'play.follow_suit')",
                src_loc=self.src_loc,
            )
        if not isinstance(self.source, Source):
            raise SpecDefinitionError(
                f"source= must be seed(...), source(...) or assumption(...), got {self.source!r}",
                rule_id=self.id, src_loc=self.src_loc,
            )
        if not isinstance(self.body, K.Construct):
            raise SpecDefinitionError(
                f"body= must be a rules-language construct, got {self.body!r}",
                rule_id=self.id, src_loc=self.src_loc,
            )
        if not self.text or not self.text.strip().endswith("."):
            raise SpecDefinitionError(
                "text= must be one sentence ending with a full stop", rule_id=self.id,
                src_loc=self.src_loc,
            )


def amended(rule: Rule, *, text: str | None = None, **fields: object) -> Rule:
    """``rule`` with some fields of its construct changed, for a variant to stand in for it:
    the same id and source, and its text unless a new one is given.  Two variants that
    amend different fields of one rule go together (both changes are made), unless both
    give the rule a new text; two that change the same rule otherwise cannot."""
    import dataclasses

    unknown = sorted(set(fields) - {f.name for f in dataclasses.fields(rule.body)})
    if unknown or not fields:
        raise SpecDefinitionError(
            f"amended() needs fields of {type(rule.body).__name__}, got {unknown or 'none'}",
            rule_id=rule.id, src_loc=caller_loc())
    return Rule(id=rule.id, text=rule.text if text is None else text, source=rule.source,
                body=dataclasses.replace(rule.body, **fields), src_loc=caller_loc(),
                amends=tuple(sorted(fields)) + (("text",) if text is not None else ()))


@dataclass(frozen=True, slots=True, eq=False)
class Variant:
    """A named alternative: rules it replaces (by a new rule, or by nothing), and rules it
    adds (values it keeps, say, that the game without it has no use for)."""

    id: str
    text: str
    replaces: tuple[tuple[Rule, Rule | None], ...]
    source: Source
    src_loc: SrcLoc = field(default_factory=caller_loc)
    not_decidable: str = ""  # why the engine cannot decide this variant yet ("" = it can)
    # another reading of the source text of the rules it replaces, where the digest leaves
    # the reading open: ``check`` shows a deal the two readings play otherwise
    reading: bool = False
    adds: tuple[Rule, ...] = ()

    @property
    def summary(self) -> str:
        """What the variant does, in one sentence: the first of its text."""
        text = " ".join(self.text.split())
        return re.split(r"(?<=[.!?])\s+(?=[A-Z(])", text, maxsplit=1)[0]


@dataclass(frozen=True, slots=True, eq=False)
class Property:
    """A property of a game to prove, written in the rules language.

    ``holds`` must be true in every situation of ``scope`` for every value of the
    ``free`` variables; with ``exists=True``, for every value of the free variables some
    situation of the scope must make it true.  A ``finding`` is a proved consequence
    worth telling players.  ``under`` names variants the property is about: it is
    checked only with all of them in force (in the game as played by default its
    premise could not occur, and a proof of it would say nothing); ``unless`` names variants
    that change on purpose what the property states (a fact of the default game): it is
    not checked while any of them is in force.

    With a ``source``, the property is one of the rulebook's own facts, stated apart from
    the rules that should bring it about: a number or a card the seed or digest gives
    (a rank order seen in who wins a trick, a card's points, the ladder's floor, a fixed
    score, a worked example), so that a rule transcribed wrongly contradicts it.
    """

    id: str
    text: str
    scope: Scope
    holds: Expr
    free: tuple[Var, ...] = ()
    exists: bool = False
    finding: bool = False
    covers: tuple[str, ...] = ()
    under: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    source: Source | None = None
    src_loc: SrcLoc = field(default_factory=caller_loc)

    def applies_to(self, game: "Game") -> bool:
        """Whether the property is checked for ``game``: all its ``under`` variants are in
        force, and none of its ``unless`` ones."""
        active = set(game.active_variants)
        return set(self.under) <= active and not set(self.unless) & active


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid on a game's ladder: a level and a strain (None: no trumps).

    ``label`` is how the bid is written when the game names it (``PCC``, or the bare
    level on a ladder without strains); it does not take part in equality.
    """

    level: int
    strain: Suit | None
    label: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.label or f"{self.level}{self.strain.letter if self.strain else 'NT'}"

    @property
    def symbol(self) -> str:
        return self.label or f"{self.level}{self.strain.symbol if self.strain else 'NT'}"


_BID_RE = re.compile(r"^\s*(\d+)\s*(NT|N|[CDHS♣♦♥♠])\s*$", re.IGNORECASE)


_SINGLETONS = (
    K.Seats, K.PlayDirection, K.DeckIs, K.RankOrder, K.Ladder, K.BidOrder, K.TrickPlay,
    K.HighestBidderDeclares,
)
# stated at most once
_AT_MOST_ONCE = (K.TrickValue, K.CardPoints, K.ProxyCall, K.PlayableAside, K.FaceDown,
                 K.SitsOut, K.MatchTarget, K.RedealIfNoBid, K.Decide, K.Shuffle, K.GatherAndCut, K.Talon, K.TakeTalon,
                 K.IdleSeat, K.DropOut, K.SameBidJoins, K.PartnerHolds, K.HoldBid, K.PartnerAccepts, K.Pot,
                 K.GameTarget, K.TurnUp,
                 K.AfterGame, K.GameBonus, K.Rubber, K.RubberSettlement)


class Game(SetupChecks, RuleChecks):
    """A game built from its rules; checked when built, immutable afterwards."""

    def __init__(
        self,
        *,
        name: str,
        key: str,
        ref_prefix: str,
        rules: Iterable[Rule],
        variants: Iterable[Variant] = (),
        properties: Iterable[Property] = (),
        doc: str = "",
        aliases: Iterable[str] = (),
        active_variants: Iterable[str] = (),
    ) -> None:
        self.name = name
        self.key = key
        self.ref_prefix = ref_prefix
        self.rules: tuple[Rule, ...] = tuple(rules)
        self.variants: tuple[Variant, ...] = tuple(variants)
        self.properties: tuple[Property, ...] = tuple(properties)
        self.doc = doc
        self.aliases = tuple(aliases)
        self.active_variants: tuple[str, ...] = tuple(active_variants)
        self.src_loc = caller_loc()
        self._check()

    # -- errors ---------------------------------------------------------------------
    def _fail(self, msg: str, rule: Rule | None = None, loc: SrcLoc | None = None,
              rule_id: str | None = None) -> SpecDefinitionError:
        rid = rule_id or (rule.id if rule else None)
        return SpecDefinitionError(
            msg,
            rule_id=f"{self.key}/{rid}" if rid else self.key,
            src_loc=loc or (rule.src_loc if rule else self.src_loc),
        )

    # -- lookups --------------------------------------------------------------------
    def constructs(self, kind: type[K.Construct]) -> tuple[tuple[Rule, K.Construct], ...]:
        return tuple((r, r.body) for r in self.rules if isinstance(r.body, kind))

    def rules_with(self, *kinds: type[K.Construct]) -> tuple[tuple[Rule, K.Construct], ...]:
        """The rules stating any of ``kinds``, in rulebook order."""
        return tuple((r, r.body) for r in self.rules if isinstance(r.body, kinds))

    def one(self, kind: type[K.Construct]) -> K.Construct:
        return self.constructs(kind)[0][1]

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def rule_by_ref(self, ref: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.source.ref == ref or ref in r.source.also)

    def variant(self, variant_id: str) -> Variant:
        for v in self.variants:
            if v.id == variant_id:
                return v
        known = ", ".join(v.id for v in self.variants) or "none"
        raise NotationError(
            f"unknown variant {variant_id!r} of {self.name} (known: {known})", value=variant_id
        )

    def with_variants(self, *variant_ids: str) -> Game:
        """The same game with named variants in force: the same object each time the same
        variants are named in the same order (a game is immutable once built).

        Two variants that change the same rule go together only where each amends other
        fields of its construct (:func:`amended`): both changes are then made.

        Raises:
            NotationError: a variant id is unknown, cannot be played yet, is named twice, or
                cannot go together with another one named (the message names both).
            SpecDefinitionError: the result is malformed.
        """
        # one game object per set of variants named, so that its engine is compiled once
        # (a record names its variants, and every replay asks for them again)
        built: dict[tuple[str, ...], Game] = self.__dict__.setdefault("_variant_games", {})
        found = built.get(variant_ids)
        if found is None:
            found = built[variant_ids] = self._with_variants(variant_ids)
        return found

    def _with_variants(self, variant_ids: tuple[str, ...]) -> Game:
        import dataclasses

        rules = list(self.rules)
        # rule id -> the variant that states the whole rule its own way, or, for a rule
        # amended field by field, each field's variant
        owners: dict[str, str | dict[str, str]] = {}

        def own(vid: str, rule_id: str, new: Rule | None) -> None:
            if new is None or not new.amends:
                owners[rule_id] = vid
            else:
                fields = owners.setdefault(rule_id, {})
                assert isinstance(fields, dict)
                fields.update((f, vid) for f in new.amends)

        for vid in self.active_variants:  # in force already
            for old, new in self.variant(vid).replaces:
                own(vid, old.id, new)
        for vid in variant_ids:
            var = self.variant(vid)
            if var.not_decidable:
                raise NotationError(
                    f"variant {vid} of {self.name} is stated but cannot be played or checked "
                    f"yet: {var.not_decidable}", value=vid)
            if vid in self.active_variants or variant_ids.count(vid) > 1:
                raise NotationError(f"variant {vid} of {self.name} is named twice", value=vid)
            for old, stated in var.replaces:
                new = stated
                idx = [i for i, r in enumerate(rules) if r is old or r.id == old.id]
                earlier = owners.get(old.id)
                if earlier is not None:
                    if isinstance(earlier, str) or new is None or not new.amends:
                        other = earlier if isinstance(earlier, str) else next(iter(earlier.values()))
                        what = "each states it its own way"
                    else:
                        both = sorted(set(new.amends) & set(earlier))
                        other, what = (earlier[both[0]], "both change " + ", ".join(both)) if both \
                            else ("", "")
                    if other:
                        raise NotationError(
                            f"variants {other} and {vid} of {self.name} cannot go together: "
                            f"both change rule {old.id} ({what})", value=vid)
                    assert new is not None
                    current = rules[idx[0]]
                    new = dataclasses.replace(current, body=dataclasses.replace(
                        current.body, **{f: getattr(new.body, f) for f in new.amends
                                         if f != "text"}),
                        text=new.text if "text" in new.amends else current.text,
                        amends=tuple(sorted({*current.amends, *new.amends})))
                own(vid, old.id, stated)
                if not idx:
                    raise self._fail(f"variant {vid} replaces rule {old.id}, which is not in force",
                                     loc=var.src_loc)
                if new is None:
                    del rules[idx[0]]
                else:
                    rules[idx[0]] = new
            for rule in var.adds:  # after every rule of the game, in the order given
                if any(r.id == rule.id for r in rules):
                    raise self._fail(f"variant {vid} adds rule {rule.id}, which is in force "
                                     "already", loc=var.src_loc)
                own(vid, rule.id, None)
                rules.append(rule)
        return Game(
            name=self.name, key=self.key, ref_prefix=self.ref_prefix, rules=rules,
            variants=self.variants, properties=self.properties, doc=self.doc,
            aliases=self.aliases, active_variants=self.active_variants + tuple(variant_ids),
        )

    def with_rules(self, rules: Iterable[Rule], *, variants: Iterable[Variant] | None = None,
                   properties: Iterable[Property] | None = None) -> Game:
        """The same game with other rules (and, when given, other variants and properties),
        checked again as it is built.

        Raises:
            SpecDefinitionError: the result is malformed.
        """
        return Game(
            name=self.name, key=self.key, ref_prefix=self.ref_prefix, rules=rules,
            variants=self.variants if variants is None else variants,
            properties=self.properties if properties is None else properties, doc=self.doc,
            aliases=self.aliases, active_variants=self.active_variants,
        )

    # -- derived equipment ----------------------------------------------------------
    @cached_property
    def table(self) -> Table:
        seats = self.one(K.Seats)
        direction = self.one(K.PlayDirection)
        assert isinstance(seats, K.Seats) and isinstance(direction, K.PlayDirection)
        return Table(seats.names, direction.direction, seats.partnerships)

    @property
    def players(self) -> int:
        return self.table.players

    @cached_property
    def deck(self) -> Deck:
        body = self.one(K.DeckIs)
        assert isinstance(body, K.DeckIs)
        return body.deck

    @cached_property
    def program(self) -> DealProgram:
        """How a deal runs, lowered once from the constructs (see :mod:`spec.dsl._program`)."""
        return lower(self)

    @cached_property
    def steps(self) -> tuple[Step, ...]:
        """How a deal runs, as steps over a declared state (see :mod:`spec.dsl._steps`)."""
        return lower_steps(self)

    @property
    def tricks(self) -> int:
        """Tricks in a deal, from the hand size the deal gives each seat."""
        return self.program.tricks

    @cached_property
    def rank_table(self) -> CardTable:
        """Rank strength of every card: 1 for the lowest rank, counting up."""
        body = self.one(K.RankOrder)
        assert isinstance(body, K.RankOrder)
        n = len(body.order)
        value = {r: n - i for i, r in enumerate(body.order)}
        rule = self.constructs(K.RankOrder)[0][0]
        return CardTable("rank", tuple((c, value[c.rank]) for c in self.deck), rule.src_loc)

    @cached_property
    def ladder(self) -> tuple[Bid, ...]:
        body = self.one(K.Ladder)
        assert isinstance(body, K.Ladder)
        names = dict(body.names)
        plain = body.strains == (None,)
        return tuple(Bid(lv, st, names.get(lv, str(lv) if plain else ""))
                     for lv in body.levels for st in body.strains)

    @cached_property
    def strain_codes(self) -> tuple[int, ...]:
        """The suit code of each bid's strain, by bid number (trumps, where the contract's
        strain names them; the no-suit code for a strain that names none)."""
        return tuple(suit_code(b.strain) for b in self.ladder)

    @property
    def stages(self) -> int:
        """How many times the game deals and bids before the play."""
        return len(self.constructs(K.AuctionTurns))

    def stage_rule(self, kind: type[K.Construct], stage: int) -> K.Construct | None:
        """The construct of ``kind`` stated for an auction stage, if any."""
        for _r, body in self.constructs(kind):
            if getattr(body, "stage", None) == stage:
                return body
        return None

    @cached_property
    def tracked(self) -> dict[str, K.Track]:
        """The values the game keeps through a deal, by name."""
        return {b.name: b for _r, b in self.constructs(K.Track)}  # type: ignore[attr-defined, misc]

    @cached_property
    def strain_rank(self) -> dict[Suit | None, int]:
        body = self.one(K.Ladder)
        assert isinstance(body, K.Ladder)
        return {s: i for i, s in enumerate(body.strains)}

    @cached_property
    def bid_key_table(self) -> tuple[int, ...]:
        """The bid-order key of every bid on the ladder, then the key read for "no bid"
        (the lowest level and the last strain, as Z3 reads bid number -1), computed from
        the BidOrder rule."""
        body = self.one(K.BidOrder)
        assert isinstance(body, K.BidOrder)
        envs = [{Ctx.LEVEL: b.level, Ctx.STRAIN_RANK: self.strain_rank[b.strain]}
                for b in self.ladder]
        envs.append({Ctx.LEVEL: self.ladder[0].level,
                     Ctx.STRAIN_RANK: self.strain_rank[self.ladder[-1].strain]})
        return tuple(int(evaluate(self, body.key, env)) for env in envs)  # type: ignore[call-overload]

    def _bids_where(self, kind: type[K.Construct]) -> tuple[bool, ...]:
        """For every bid on the ladder, whether the ``bids=`` of the ``kind`` rule holds."""
        found = self.constructs(kind)
        if not found:
            return (False,) * len(self.ladder)
        bids: Expr = found[0][1].bids  # type: ignore[attr-defined]
        return tuple(bool(evaluate(self, bids, {Ctx.LEVEL: b.level,
                                                Ctx.STRAIN_RANK: self.strain_rank[b.strain]}))
                     for b in self.ladder)

    @cached_property
    def joinable_bids(self) -> tuple[bool, ...]:
        """For every bid on the ladder, whether other seats may join it (``SameBidJoins``)."""
        return self._bids_where(K.SameBidJoins)

    @cached_property
    def acceptable_bids(self) -> tuple[bool, ...]:
        """For every bid on the ladder, whether another seat may accept it and become its
        bidder's partner (``PartnerAccepts``)."""
        return self._bids_where(K.PartnerAccepts)

    @property
    def bid_keys(self) -> tuple[int, ...]:
        """The bid-order key of every bid on the ladder, computed from the BidOrder rule."""
        return self.bid_key_table[:-1]

    def bid_index(self, bid: Bid) -> int:
        return self.ladder.index(bid)

    def parse_bid(self, text: str) -> Bid:
        """Read a bid such as ``15C``, ``19♠`` or ``28NT``.

        Raises:
            NotationError: malformed, or not on this game's ladder.
        """
        if isinstance(text, str):
            for b in self.ladder:
                if b.label and b.label.upper() == text.strip().upper():
                    return b
        m = _BID_RE.match(text) if isinstance(text, str) else None
        if m is None and isinstance(text, str) and text.strip().isdigit():
            raise NotationError(
                f"{text.strip()} is not a bid in {self.name} (bids run from {self.ladder[0]} "
                f"to {self.ladder[-1]})", value=text)
        if not m:
            raise NotationError(
                f"not a bid: {text!r} (write level then strain, e.g. "
                f"'{self.ladder[0]}' or '{self.ladder[-1]}')",
                value=text,
            )
        level, strain_text = m.groups()
        strain = None if strain_text.upper() in ("NT", "N") else Suit.parse(strain_text)
        bid = Bid(int(level), strain)
        if bid not in self.ladder:
            raise NotationError(
                f"{bid} is not a bid in {self.name} (bids run from {self.ladder[0]} "
                f"to {self.ladder[-1]})",
                value=text,
            )
        return bid

    # -- static checks ------------------------------------------------------------------
    def _check(self) -> None:
        seen: dict[str, Rule] = {}
        for r in self.rules:
            if not isinstance(r, Rule):
                raise self._fail(f"rules= must hold Rule objects, got {r!r}")
            if r.id in seen:
                raise self._fail(
                    f"duplicate rule id (first at {seen[r.id].src_loc})", r
                )
            seen[r.id] = r
            for ref in (r.source.ref, *r.source.also):
                m = _REF_ID.match(ref)
                if not m or m.group(1) != self.ref_prefix:
                    raise self._fail(
                        f"unknown rule id {ref!r} in source= (expected an id of the "
                        f"{self.name} digest such as '{self.ref_prefix}-PLAY-1')",
                        r,
                    )
        for kind in _SINGLETONS:
            found = self.constructs(kind)
            if not found:
                doc = (kind.__doc__ or "").strip().splitlines()[0]
                raise self._fail(
                    f"no rule states {kind.__name__} ({doc[0].lower()}{doc[1:].rstrip('.')})"
                )
            if len(found) > 1:
                raise self._fail(
                    f"{kind.__name__} is stated twice (also by {found[0][0].id})", found[1][0]
                )
        for kind in _AT_MOST_ONCE:
            found = self.constructs(kind)
            if len(found) > 1:
                raise self._fail(
                    f"{kind.__name__} is stated twice (also by {found[0][0].id})", found[1][0]
                )
        if not self.constructs(K.TrickValue) and not self.constructs(K.CardPoints):
            raise self._fail("no rule says what tricks are worth (TrickValue or CardPoints)")
        readied = self.rules_with(K.Shuffle, K.GatherAndCut)
        if not readied:
            raise self._fail("no rule says how the pack is readied for a deal (Shuffle, or "
                             "GatherAndCut between deals)")
        if len(readied) > 1:  # two of one kind are refused as stated twice, above
            raise self._fail(f"the pack is readied twice: shuffled afresh and gathered and cut "
                             f"(also by {readied[0][0].id})", readied[1][0])
        self._check_stages()
        self._check_sheet()
        self._check_pot()
        self._check_match()
        self._check_equipment()
        self._check_scopes()
        self._check_tricks_by_number()
        self._check_ladder()
        self._check_sides()
        self._check_variants_and_properties(seen)

    def _check_variants_and_properties(self, rules: dict[str, Rule]) -> None:
        ids = set(rules)
        vseen: set[str] = set()
        for v in self.variants:
            if v.id in vseen:
                raise self._fail(f"duplicate variant id {v.id!r}", loc=v.src_loc)
            vseen.add(v.id)
            if not v.replaces and not v.adds and not v.not_decidable:
                raise self._fail(f"variant {v.id} replaces nothing", loc=v.src_loc)
            for old, _new in v.replaces:
                if old.id not in ids and v.id not in self.active_variants:
                    raise self._fail(
                        f"variant {v.id} replaces unknown rule id {old.id!r}", loc=v.src_loc
                    )
        # rules that an active variant replaced keep their ids valid for properties, and a
        # property may cover a rule a variant brings in
        for vid in self.active_variants:
            for v in self.variants:
                if v.id == vid:
                    ids |= {old.id for old, _new in v.replaces}
        ids |= {new.id for v in self.variants for _old, new in v.replaces if new is not None}
        ids |= {r.id for v in self.variants for r in v.adds}
        pseen: set[str] = set()
        for p in self.properties:
            if p.id in pseen or p.id in ids:
                raise self._fail(f"duplicate property id {p.id!r}", loc=p.src_loc)
            pseen.add(p.id)
            if not _RULE_ID.match(p.id):
                raise self._fail(f"property id {p.id!r} is not <phase>.<snake_name>", loc=p.src_loc)
            for c in p.covers:
                if c not in ids:
                    raise self._fail(f"property {p.id} covers unknown rule id {c!r}", loc=p.src_loc)
            if p.source is not None and not isinstance(p.source, Source):
                raise self._fail(f"property {p.id}: source must be seed(...), source(...) or "
                                 "assumption(...)", loc=p.src_loc)
            for vid in p.under:
                if vid not in vseen:
                    raise self._fail(f"property {p.id} is under unknown variant {vid!r}",
                                     loc=p.src_loc)
            for vid in p.unless:
                if vid not in vseen:
                    raise self._fail(f"property {p.id} is unless unknown variant {vid!r}",
                                     loc=p.src_loc)
            both = set(p.under) & set(p.unless)
            if both:
                raise self._fail(f"property {p.id} is both under and unless variant "
                                 f"{sorted(both)[0]!r}", loc=p.src_loc)
            if p.scope in (Scope.HISTORY, Scope.DEAL, Scope.MATCH) and (p.free or p.exists):
                raise self._fail(f"property {p.id}: a claim of whole deals, the dealing or "
                                 "the match (scope HISTORY, DEAL or MATCH) takes no free= or "
                                 "exists=",
                                 loc=p.src_loc)

    def __repr__(self) -> str:
        extra = f" +{','.join(self.active_variants)}" if self.active_variants else ""
        return f"<Game {self.key}{extra}: {len(self.rules)} rules>"


__all__ = [
    "Bid", "Game", "Origin", "Property", "Rule", "Source", "Variant", "assumption", "seed",
    "source", "suit_code", "suit_from_code", "Card", "Rank", "Direction",
]
