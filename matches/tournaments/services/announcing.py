"""Announcing a tournament: its settings checked (the rules as a table of it would check them, the prize schedule
against the pot where the room's seats fix it), the tournament handed over to another organiser, and the
tournaments an account organised left."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from matches.clubs.models import Club
from matches.clubs.permissions import runs_club
from matches.engine import FieldError, RuleError, Scheme
from matches.engine.messages import gettext_noop
from matches.engine.tournaments import (
    LOST_GAME_TIERS,
    MAX_SERIES,
    MIN_SERIES,
    WHOLE,
    Doubles,
    Dues,
    Payout,
    PrizeSchedule,
    Rankings,
    ScheduleKind,
    ShareKind,
    TournamentRules,
    pot,
    prize_list,
    shares_beyond_whole,
)
from matches.errors import Invalid
from matches.models import Keeper
from matches.names import name_key
from matches.services.events import account_named, one_line_name, one_of, series_lengths, tables_rules
from matches.services.tables import moved_on

from ..models import Category, Tournament
from ..selectors import tournament_rules
from .common import lock_tournament, one_line

# The variant and scheme of every open tournament: Skat by Seeger-Fabian (clubs digest, "Open tournaments").
TOURNAMENT_VARIANT, TOURNAMENT_SCHEME = "skat", Scheme.SEEGER_FABIAN.value


@dataclass(frozen=True)
class Schedule:
    """A prize schedule as the organiser enters it: the values by place (amounts in cents or shares in basis
    points, as ``kind`` says) and how much of the money it pays out."""

    values: tuple[int, ...] = ()
    kind: str = ScheduleKind.SHARES.value
    payout: str = Payout.IN_FULL.value


@dataclass(frozen=True)
class TournamentSettings:
    """An open tournament as its organiser announces it (docs/rules.md, "Open tournaments", names each option and
    its default). Amounts are in cents; ``categories``: each category's name and its prizes by place; ``seats``:
    the most players the room takes (0: no limit), which fixes the largest pot a schedule of amounts is checked
    against."""

    name: str
    date: datetime.date
    venue: str = ""
    rules: dict[str, Any] | None = None
    series: int = 3
    games_at_four: int = 48
    games_at_three: int = 36
    seats: int = 0
    entry_fee: int = 0
    list_fee: int = 0
    lost_game_tiers: tuple[tuple[int, int], ...] = LOST_GAME_TIERS
    tandem_fee: int = 0
    team_fee: int = 0
    share_kind: str = ShareKind.PERCENT.value
    share_value: int = 0
    keeps_list_fees: bool = True
    keeps_lost_game_fees: bool = True
    places: Schedule = field(default_factory=Schedule)
    best_series: tuple[int, ...] = ()
    tandem_prizes: Schedule = field(default_factory=Schedule)
    team_prizes: Schedule = field(default_factory=Schedule)
    categories: tuple[tuple[str, tuple[int, ...]], ...] = ()
    doubles: str = Doubles.BETTER.value
    late_entries: bool = True


def _not_negative(values: Sequence[int], field_name: str) -> None:
    if any(value < 0 for value in values):
        raise Invalid.on(field_name, gettext_noop("Amounts and counts cannot be negative."))


def _schedule(schedule: Schedule, field_name: str) -> dict[str, Any]:
    _not_negative(schedule.values, field_name)
    return {
        "values": list(schedule.values),
        "kind": one_of(schedule.kind, ScheduleKind, f"{field_name}.kind"),
        "payout": one_of(schedule.payout, Payout, f"{field_name}.payout"),
    }


def _tiers(tiers: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The lost-game tiers, each from the n-th lost game of a list on, in order."""
    starts = [start for start, _ in tiers]
    if any(start < 1 for start in starts) or starts != sorted(set(starts)):
        raise Invalid.on(
            "lost_game_tiers", gettext_noop("Each tier starts at a later lost game than the one before, from 1.")
        )
    _not_negative([cents for _, cents in tiers], "lost_game_tiers")
    return [[start, cents] for start, cents in tiers]


def _categories(categories: Sequence[tuple[str, Sequence[int]]]) -> list[tuple[str, list[int]]]:
    found: list[tuple[str, list[int]]] = []
    for index, (name, prizes) in enumerate(categories):
        clean = one_line_name(name, f"categories.{index}")
        if name_key(clean) in {name_key(one) for one, _ in found}:
            raise Invalid.on(f"categories.{index}", gettext_noop("{name} is named twice."), name=clean)
        _not_negative(prizes, f"categories.{index}")
        found.append((clean, list(prizes)))
    return found


def _tournament_values(settings: TournamentSettings) -> dict[str, Any]:
    """The tournament's fields from ``settings``, checked: the rules as a table of it would check them."""
    setup = tables_rules(TOURNAMENT_VARIANT, TOURNAMENT_SCHEME, settings.rules or {}, players=4)
    if not MIN_SERIES <= settings.series <= MAX_SERIES:
        raise Invalid.on("series", gettext_noop("Between {low} and {high}."), low=MIN_SERIES, high=MAX_SERIES)
    series_lengths({"games_at_four": settings.games_at_four, "games_at_three": settings.games_at_three})
    for name in ("seats", "entry_fee", "list_fee", "tandem_fee", "team_fee", "share_value"):
        _not_negative([getattr(settings, name)], name)
    if settings.share_kind == ShareKind.PERCENT and settings.share_value > WHOLE:
        raise Invalid.on("share_value", gettext_noop("The organiser's share lies between 0 and the whole pot."))
    _not_negative(settings.best_series, "best_series")
    return {
        "name": one_line_name(settings.name),
        "date": settings.date,
        "venue": one_line(settings.venue, "venue"),
        "variant": TOURNAMENT_VARIANT,
        "scheme": TOURNAMENT_SCHEME,
        "rules": setup.stored_rules(),
        "series": settings.series,
        "games_at_four": settings.games_at_four,
        "games_at_three": settings.games_at_three,
        "seats": settings.seats,
        "entry_fee": settings.entry_fee,
        "list_fee": settings.list_fee,
        "lost_game_tiers": _tiers(settings.lost_game_tiers),
        "tandem_fee": settings.tandem_fee,
        "team_fee": settings.team_fee,
        "share_kind": one_of(settings.share_kind, ShareKind, "share_kind"),
        "share_value": settings.share_value,
        "keeps_list_fees": settings.keeps_list_fees,
        "keeps_lost_game_fees": settings.keeps_lost_game_fees,
        "places": _schedule(settings.places, "places"),
        "best_series": list(settings.best_series),
        "tandem_prizes": _schedule(settings.tandem_prizes, "tandem_prizes"),
        "team_prizes": _schedule(settings.team_prizes, "team_prizes"),
        "doubles": one_of(settings.doubles, Doubles, "doubles"),
        "late_entries": settings.late_entries,
    }


def _check_prizes(rules: TournamentRules, seats: int, *, restoring: bool = False) -> None:
    """Refuse a prize schedule that cannot be paid: shares above the whole (each schedule named), and (where the
    room's seats fix the largest pot: every seat taken, every list played, no game lost) prizes that pay out more
    than that pot. The side rankings' pots depend on how many tandems and teams enter: only their shares are
    checked. ``restoring``: a schedule paid out in full in its shares' proportions is taken as it was announced,
    shares above the whole too (as they were taken before they were refused), so that an older backup restores."""
    schedules = ((rules.places, "places"), (rules.tandems, "tandem_prizes"), (rules.teams, "team_prizes"))
    problems = [
        FieldError(field_name, too_much)
        for schedule, field_name in schedules
        if (too_much := shares_beyond_whole(schedule)) is not None
        and not (restoring and schedule.payout is Payout.IN_FULL)
    ]
    if problems:
        raise RuleError(problems)
    if seats == 0:
        return
    fees = rules.fees
    full_room = [Dues("", fees.entry, fees.per_list * rules.series, 0) for _ in range(seats)]
    nobody_yet = Rankings((), (), (), {category.name: () for category in rules.categories}, (), ())
    prize_list(replace(rules, tandems=PrizeSchedule(), teams=PrizeSchedule()), nobody_yet, pot(full_room, rules.share))


def tournament_announce(
    *, organiser: User, settings: TournamentSettings, club: Club | None = None, restoring: bool = False
) -> Tournament:
    """Announce an open tournament with a book of its own, organised by ``organiser`` (for ``club``, whose owners
    and secretaries run it too, and only they announce one for it): its settings are checked and stored as
    entered, its rules complete, its shares at most the whole pot, and its prize schedule against the pot where the
    room's seats fix it ("pays out more than the pot" is refused). ``restoring``: a backup's tournament announced
    anew, whose schedule paid out in full may hold shares above the whole (``_check_prizes``)."""
    if club is not None and not runs_club(organiser, club.pk):
        raise Invalid.on(
            "club",
            gettext_noop("Only the owners and secretaries of {club} announce a tournament for it."),
            club=club.name,
        )
    values = _tournament_values(settings)
    categories = _categories(settings.categories)
    unsaved = Tournament(**values)
    try:
        _check_prizes(
            tournament_rules(unsaved, [Category(name=name, prizes=prizes) for name, prizes in categories]),
            settings.seats,
            restoring=restoring,
        )
    except RuleError as error:
        raise Invalid.from_rules(error) from error
    with transaction.atomic():
        unsaved.keeper = Keeper.objects.create()
        unsaved.organiser, unsaved.club = organiser, club
        unsaved.save()
        Category.objects.bulk_create(
            Category(tournament=unsaved, name=name, prizes=prizes, order=order)
            for order, (name, prizes) in enumerate(categories)
        )
    return unsaved


def tournament_hand_over(*, tournament: Tournament, username: str, user: User) -> Tournament:
    """Make the account named ``username`` the tournament's organiser, in place of the one it had: the organiser's
    desk, money and lists pass to them (the club's owners and secretaries, for a club's tournament, keep theirs).
    ``user``: who hands it over. The name finds its account as ``account_named`` does, in any case. Refused for no
    account of that name, and for the organiser it has (the organiser naming their own account hands nothing over; a
    club's owner or secretary naming themselves takes it over)."""
    to = account_named(username)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if to.pk == locked.organiser_id == user.pk:
            raise Invalid.on(
                "username", gettext_noop("That is your own account: name the account that takes the tournament over.")
            )
        if to.pk == locked.organiser_id:
            raise Invalid.on("username", gettext_noop("{name} organises the tournament already."), name=to.username)
        Tournament.objects.filter(pk=tournament.pk).update(organiser=to)
        moved_on(tournament)
    tournament.refresh_from_db(fields=["organiser", "version"])
    return tournament


def tournaments_organised_leave(*, user: User) -> None:
    """``user`` no longer organises any tournament (their account is deleted): a club's tournament stays with the
    club's owners and secretaries."""
    Tournament.objects.filter(organiser=user).update(organiser=None)
