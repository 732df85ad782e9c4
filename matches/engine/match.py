"""A whole match from its rules and its entries: every deal's number, seating, Bock and result, and the next deal.

This is the only place that works out a deal. Adding, fixing and rescoring games, the score sheet and its what-if,
the preview, and standings and exports all ask it; the store keeps what it answered and can always ask again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from .bock import bock_ahead
from .calculator import score_in_context
from .cards import Contract
from .common import Context
from .entry import DealEntry, EntryShape, accepted_fields
from .errors import FieldError, Problems, RuleError
from .game import Result, Table
from .messages import Message, gettext_noop, msg
from .options import Rules, build_rules
from .table import Seating, seating
from .variants import Scheme, VariantSpec, read_scheme, read_variant

# The version of the scoring that the engine applies. A change that alters any stored result bumps it, so that
# ``manage.py rescore`` finds the games scored before it.
# 2: every other player clean in a Ramsch is a Durchmarsch, no longer a ×4 loss; 1 and 119 card points are refused.
RULES_VERSION = 2
MAX_PLANNED_GAMES = 999


@dataclass(frozen=True)
class MatchSetup:
    """A table's rules for a whole match: the variant, the scheme, the options, the seats and who dealt first."""

    spec: VariantSpec
    scheme: Scheme
    rules: Rules
    players: int
    first_dealer: int = 0
    planned_games: int | None = None

    @property
    def reach(self) -> int:
        """How many later deals an entry can change: a Bock trigger reaches one round (a deal per seat) ahead."""
        return self.players if self.rules.bock else 0

    @property
    def can_pass(self) -> bool:
        """All may pass (a new deal) where there is bidding and no Ramsch replaces the passed deal."""
        return self.spec.bidding and not self.rules.ramsch

    def seating(self, number: int) -> Seating:
        return seating(self.players, self.first_dealer, number)

    def with_scheme(self, scheme: Scheme) -> MatchSetup:
        return replace(self, scheme=scheme)

    def stored_rules(self) -> dict[str, bool | int | str]:
        """The complete rule set of the variant, as a match keeps it, so that a later change of a default or a
        preset never rescores it."""
        return {name: value for name, value in self.rules.as_dict().items() if name in self.spec.options}


def setup_match(
    variant: str,
    *,
    scheme: str | None = None,
    rules: Mapping[str, object] | None = None,
    players: int | None = None,
    first_dealer: int = 0,
    planned_games: int | None = None,
) -> MatchSetup:
    """Check a table's choices and build its setup; raises ``RuleError`` naming every field it cannot take.

    ``rules`` overrides the variant's defaults: a new table's choices, or the complete rule set a match keeps
    (``MatchSetup.stored_rules``), where an option added since is read with its default, which scores as before.
    """
    problems = Problems()
    spec = read_variant(variant, problems)
    chosen = read_scheme(spec, scheme, problems)
    rule_set = build_rules(spec.options, rules or {}, problems, spec.choices)
    seats = spec.default_players if players is None else players
    if seats not in spec.players:
        problems.add(
            "players",
            msg(gettext_noop("This variant is played by {counts} players."), counts=", ".join(map(str, spec.players))),
        )
    elif not 0 <= first_dealer < seats:
        problems.add("first_dealer", msg(gettext_noop("Choose one of the seats that has a player.")))
    if planned_games is not None and not 1 <= planned_games <= MAX_PLANNED_GAMES:
        problems.add(
            "planned_games",
            msg(gettext_noop("Must be between {minimum} and {maximum}."), minimum=1, maximum=MAX_PLANNED_GAMES),
        )
    problems.raise_if_any()
    assert chosen is not None
    return MatchSetup(spec, chosen, rule_set, seats, first_dealer, planned_games)


@dataclass(frozen=True)
class ScoredDeal:
    """One deal of a match, worked out: where everybody sat, the Bock in force, and what each seat writes.

    ``declarer`` is the seat credited with the game (None when all passed and in a Ramsch, which has no declarer);
    ``played`` marks the seats that took part in a played deal. A deal the rules cannot score (only in a what-if)
    has ``problems`` and scores nothing.
    """

    number: int
    seating: Seating
    bock: int
    deal: DealEntry
    result: Result | None
    scores: tuple[int, ...]
    declarer: int | None
    played: tuple[bool, ...]
    problems: tuple[Message, ...] = ()

    @property
    def scorable(self) -> bool:
        return not self.problems

    @property
    def game_value(self) -> int:
        return 0 if self.result is None else self.result.game_value

    @property
    def won(self) -> bool | None:
        return None if self.result is None else self.result.won

    @property
    def breakdown(self) -> tuple[Message, ...]:
        return self.problems or (() if self.result is None else self.result.breakdown)


@dataclass(frozen=True)
class Checkpoint:
    """A match before one of its deals: how many deals are on the list, the totals so far, and the last deals, as
    many as can still reach ahead (``MatchSetup.reach``), oldest first."""

    deals: int
    totals: tuple[int, ...]
    recent: tuple[DealEntry, ...] = ()

    @classmethod
    def start(cls, setup: MatchSetup) -> Checkpoint:
        return cls(0, (0,) * setup.players)

    def after(self, setup: MatchSetup, scored: ScoredDeal) -> Checkpoint:
        totals = tuple(total + score for total, score in zip(self.totals, scored.scores, strict=True))
        recent = (*self.recent, scored.deal)[-setup.reach :] if setup.reach else ()
        return Checkpoint(self.deals + 1, totals, recent)


@dataclass(frozen=True)
class NextDeal:
    """What the table deals next: its number and seats, the Bock in force and to come, and what may be entered.
    ``bock`` is the rounds in force on this deal; ``bock_games_after`` the Bock games that follow it."""

    number: int
    seating: Seating
    bock: int
    bock_games_after: int
    finished: bool
    can_pass: bool
    shape: EntryShape
    games_left: int | None = None


@dataclass(frozen=True)
class MatchScore:
    """A match worked out: its deals in order, where it stands after them, and the next deal."""

    deals: tuple[ScoredDeal, ...]
    end: Checkpoint
    next: NextDeal

    @property
    def totals(self) -> tuple[int, ...]:
        return self.end.totals


class DealRefused(RuleError):
    """A deal of the match that the rules no longer accept where it stands (e.g. its declarer would now sit out)."""

    def __init__(self, number: int, error: RuleError) -> None:
        self.number = number
        super().__init__(error.errors)


def bock_for_next(setup: MatchSetup, recent: tuple[DealEntry, ...]) -> list[int]:
    """The Bock rounds in force for the next ``reach`` deals after ``recent``: the first is the next deal's."""
    if not setup.reach:
        return [0]
    return bock_ahead(setup.rules, [deal.game for deal in recent], setup.reach)


def next_deal(setup: MatchSetup, checkpoint: Checkpoint) -> NextDeal:
    """The deal after ``checkpoint``: who deals, who leads, who sits out, the Bock, and the fields it takes."""
    number = checkpoint.deals + 1
    seats = setup.seating(number)
    ahead = bock_for_next(setup, checkpoint.recent)
    games_left = None if setup.planned_games is None else max(setup.planned_games - checkpoint.deals, 0)
    return NextDeal(
        number=number,
        seating=seats,
        bock=ahead[0],
        bock_games_after=sum(1 for count in ahead[1:] if count),
        finished=games_left == 0,
        can_pass=setup.can_pass,
        shape=accepted_fields(setup.spec, setup.scheme, setup.rules, seats),
        games_left=games_left,
    )


def shape_of(setup: MatchSetup, number: int) -> EntryShape:
    """The fields deal ``number`` takes, seated as it was (to fix it)."""
    return accepted_fields(setup.spec, setup.scheme, setup.rules, setup.seating(number))


def score_deal(setup: MatchSetup, deal: DealEntry, *, number: int, bock: int) -> ScoredDeal:
    """Score deal ``number`` of the match with ``bock`` rounds in force; raises ``RuleError`` for what the rules
    refuse."""
    seats = setup.seating(number)
    if deal.game is None:
        if not setup.can_pass:
            raise RuleError(
                [FieldError("passed", msg(gettext_noop("Under these rules a passed deal is not possible.")))]
            )
        zeros = (0,) * setup.players
        return ScoredDeal(number, seats, bock, deal, None, zeros, None, (False,) * setup.players)
    is_ramsch = deal.game.contract == Contract.RAMSCH
    if is_ramsch and deal.declarer is not None:
        raise RuleError([FieldError("declarer", msg(gettext_noop("A Ramsch has no declarer: leave this out.")))])
    if not is_ramsch and deal.declarer is None:
        raise RuleError([FieldError("declarer", msg(gettext_noop("Choose the declarer.")))])
    declarer = 0 if deal.declarer is None else deal.declarer
    if not 0 <= declarer < setup.players:
        raise RuleError(
            [FieldError("declarer", msg(gettext_noop("Must be a seat from 0 to {last}."), last=setup.players - 1))]
        )
    table = Table(setup.players, declarer, seats.dealer)
    result = score_in_context(Context(setup.spec, setup.scheme, setup.rules, table, bock), deal.game)
    played = tuple(seat in seats.playing for seat in range(setup.players))
    return ScoredDeal(number, seats, bock, deal, result, result.scores, None if is_ramsch else deal.declarer, played)


def score_next(setup: MatchSetup, checkpoint: Checkpoint, deal: DealEntry) -> ScoredDeal:
    """Score the deal that follows ``checkpoint``; a complete series takes no more."""
    upcoming = next_deal(setup, checkpoint)
    if upcoming.finished:
        complete = msg(gettext_noop("The series is complete: {games} games."), games=setup.planned_games or 0)
        raise RuleError([FieldError("match", complete)])
    return score_deal(setup, deal, number=upcoming.number, bock=upcoming.bock)


def score_deals(
    setup: MatchSetup, deals: Iterable[DealEntry], start: Checkpoint | None = None, *, lenient: bool = False
) -> Iterator[tuple[ScoredDeal, Checkpoint]]:
    """Score ``deals`` in order from ``start`` (the match's beginning by default), lazily: each deal with the
    checkpoint after it. A deal the rules refuse raises ``DealRefused``, or with ``lenient`` scores nothing and
    carries its problems (a what-if under another scheme)."""
    point = start or Checkpoint.start(setup)
    for deal in deals:
        number = point.deals + 1
        bock = bock_for_next(setup, point.recent)[0]
        try:
            scored = score_deal(setup, deal, number=number, bock=bock)
        except RuleError as error:
            if not lenient:
                raise DealRefused(number, error) from error
            scored = _unscorable(setup, deal, number, bock, error)
        point = point.after(setup, scored)
        yield scored, point


def score_match(
    setup: MatchSetup, deals: Iterable[DealEntry], start: Checkpoint | None = None, *, lenient: bool = False
) -> MatchScore:
    """Score a whole match (or its deals after ``start``) and say what comes next."""
    scored: list[ScoredDeal] = []
    end = start or Checkpoint.start(setup)
    for deal, point in score_deals(setup, deals, start, lenient=lenient):
        scored.append(deal)
        end = point
    return MatchScore(tuple(scored), end, next_deal(setup, end))


def _unscorable(setup: MatchSetup, deal: DealEntry, number: int, bock: int, error: RuleError) -> ScoredDeal:
    zeros = (0,) * setup.players
    seats = setup.seating(number)
    played = tuple(seat in seats.playing for seat in range(setup.players))
    problems = tuple(problem.message for problem in error.errors)
    return ScoredDeal(number, seats, bock, deal, None, zeros, None, played, problems=problems)
