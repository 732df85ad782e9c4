"""The league, its divisions, groups and managers: a league created with its rules checked and stored complete, its
roles (the league keeps an owner), a division and a group."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import Scheme
from matches.engine.match_days import ShortVenue, TableTie, TieRule
from matches.engine.messages import gettext_noop
from matches.errors import Conflict, Invalid
from matches.models import Keeper
from matches.services.events import one_line_name, one_of, series_lengths, tables_rules

from ..models import Division, Group, League, LeagueManager, LeagueRole
from .common import MAX_SERIES, MIN_SERIES, lock_league, named_already

# The variant and scheme of every league: Skat by Seeger-Fabian, the only league scoring the engine offers.
LEAGUE_VARIANT, LEAGUE_SCHEME = "skat", Scheme.SEEGER_FABIAN.value


@dataclass(frozen=True)
class LeagueSettings:
    """What a league plays and how it ranks, as a form or the API sends it (docs/rules.md, "League match days
    between clubs", names each option)."""

    name: str
    rules: dict[str, Any] | None = None
    series_per_day: int = 3
    games_at_four: int = 48
    games_at_three: int = 36
    series_tie: str = TieRule.SHARED.value
    short_venue: str = ShortVenue.PRESENT.value
    per_team_beaten: int = 1
    minus_counts: bool = False
    table_tie: str = TableTie.SHARED.value
    minimum_series: int = 0


def _league_values(settings: LeagueSettings) -> dict[str, Any]:
    """The league's fields from ``settings``, checked: the rules as a match of the league would check them."""
    setup = tables_rules(LEAGUE_VARIANT, LEAGUE_SCHEME, settings.rules or {}, players=4)
    if not MIN_SERIES <= settings.series_per_day <= MAX_SERIES:
        raise Invalid.on("series_per_day", gettext_noop("Between {low} and {high}."), low=MIN_SERIES, high=MAX_SERIES)
    series_lengths({"games_at_four": settings.games_at_four, "games_at_three": settings.games_at_three})
    if settings.per_team_beaten not in (1, 2):
        raise Invalid.on("per_team_beaten", gettext_noop("Must be one of: {choices}."), choices="1, 2")
    if settings.minimum_series < 0:
        raise Invalid.on("minimum_series", gettext_noop("Amounts and counts cannot be negative."))
    return {
        "name": one_line_name(settings.name),
        "variant": LEAGUE_VARIANT,
        "scheme": LEAGUE_SCHEME,
        "rules": setup.stored_rules(),
        "series_per_day": settings.series_per_day,
        "games_at_four": settings.games_at_four,
        "games_at_three": settings.games_at_three,
        "series_tie": one_of(settings.series_tie, TieRule, "series_tie"),
        "short_venue": one_of(settings.short_venue, ShortVenue, "short_venue"),
        "per_team_beaten": settings.per_team_beaten,
        "minus_counts": settings.minus_counts,
        "table_tie": one_of(settings.table_tie, TableTie, "table_tie"),
        "minimum_series": settings.minimum_series,
    }


def league_create(*, owner: User, settings: LeagueSettings) -> League:
    """A new league with a book of its own, run by ``owner``; its rules are checked and stored complete."""
    values = _league_values(settings)
    with transaction.atomic():
        league = League.objects.create(keeper=Keeper.objects.create(), **values)
        LeagueManager.objects.create(league=league, user=owner, role=LeagueRole.OWNER)
    return league


def league_manager_set(*, league: League, user: User, role: str = LeagueRole.MANAGER) -> LeagueManager:
    """Give ``user`` a role at the league (a manager manages everything of it; an owner also gives roles). The
    league keeps an owner: its last one is not made a manager."""
    if role not in LeagueRole.values:
        raise Invalid.on("role", gettext_noop("Must be one of: {choices}."), choices=", ".join(LeagueRole.values))
    with transaction.atomic():
        lock_league(league)
        owners = LeagueManager.objects.filter(league=league, role=LeagueRole.OWNER)
        if role != LeagueRole.OWNER and owners.filter(user=user).exists() and not owners.exclude(user=user).exists():
            raise Conflict.on("role", gettext_noop("A league needs an owner: make somebody else owner first."))
        manager, _ = LeagueManager.objects.update_or_create(league=league, user=user, defaults={"role": role})
    return manager


def league_managers_leave(*, user: User) -> None:
    """End every role ``user`` holds at a league (their account is deleted)."""
    LeagueManager.objects.filter(user=user).delete()


def division_create(*, league: League, name: str, level: int = 1) -> Division:
    """A division of the league, its name on one line with single spaces; refused where the league has one of that
    name, in capitals or small letters alike."""
    name = one_line_name(name)
    with transaction.atomic():
        lock_league(league)
        if named_already(Division.objects.filter(league=league).values_list("name", flat=True), name):
            raise Invalid.on("name", gettext_noop("The league has a division of that name already."))
        return Division.objects.create(league=league, name=name, level=level)


def group_create(*, division: Division, name: str, promoted: int = 0, relegated: int = 0) -> Group:
    """A group ("Staffel") of the division, with its places up and down; refused where the division has one of
    that name, in capitals or small letters alike."""
    name = one_line_name(name)
    if promoted < 0 or relegated < 0:
        raise Invalid.on("promoted", gettext_noop("The places up and down cannot be negative."))
    with transaction.atomic():
        lock_league(division.league)
        if named_already(Group.objects.filter(division=division).values_list("name", flat=True), name):
            raise Invalid.on("name", gettext_noop("The division has a group of that name already."))
        return Group.objects.create(division=division, name=name, promoted=promoted, relegated=relegated)
