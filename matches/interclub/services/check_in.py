"""Check-in: a team's line-up for a series, checked player by player, stored only when the whole line-up stands."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import FieldError
from matches.engine.match_days import SHORT_TEAM_SIZE, TEAM_SIZE
from matches.engine.messages import gettext_noop, msg, msg_count, ngettext_noop
from matches.errors import Conflict, Invalid
from matches.services.tables import moved_on

from ..models import CheckIn, RosterEntry, Team, Venue, VenueTable, VenueTeam
from .common import checked_series, entered_elsewhere, open_venue, other_club_refusal


def series_check_in(
    *,
    venue: Venue,
    series: int,
    team: Team,
    entries: Sequence[RosterEntry],
    user: User | None = None,
    shown: Sequence[int] | None = None,
) -> list[CheckIn]:
    """Check in ``team``'s line-up for a series (in seat order) by ``user``, replacing one checked in before while
    the series is not seated: three or four players of the team's roster or substitution list, none twice, none who
    plays for another team that day, none on the roster of another club in the league. Each refusal names the
    player and why; nothing is stored unless the whole line-up stands. ``shown``: the team's line-up as the form
    sent showed it (its league players' ids in seat order, empty for none), so that a line-up checked in meanwhile
    is not replaced unseen (None: not asked, as the API asks for the venue's version instead)."""
    with transaction.atomic():
        locked = open_venue(venue)
        checked_series(locked, series)
        if not VenueTeam.objects.filter(venue=locked, team=team).exists():
            raise Invalid.on("team", gettext_noop("{team} does not play at this venue."), team=team.name)
        if VenueTable.objects.filter(venue=locked, series=series).exists():
            raise Conflict.on("series", gettext_noop("Series {series} is seated: its line-ups stay."), series=series)
        if shown is not None:
            _check_shown(locked, series, team, entries, shown)
        _check_line_up(locked, series, team, entries)
        CheckIn.objects.filter(venue=locked, series=series, team=team).delete()
        moved_on(locked)
        return CheckIn.objects.bulk_create(
            CheckIn(
                venue=locked,
                match_day=locked.match_day,
                series=series,
                team=team,
                entry=entry,
                league_player_id=entry.league_player_id,
                position=position,
                checked_in_by=user,
            )
            for position, entry in enumerate(entries)
        )


def _check_shown(venue: Venue, series: int, team: Team, entries: Sequence[RosterEntry], shown: Sequence[int]) -> None:
    """Refuse (``Conflict``, at ``entries``) a line-up that would replace another than the one its form showed,
    naming who checked the team in and with whom. Only the team's own line-up counts: another team checked in
    meanwhile refuses nobody, nor does the same line-up sent again (a button tapped twice) or one that replaces
    nothing."""
    standing = list(
        CheckIn.objects.filter(venue=venue, series=series, team=team)
        .select_related("league_player", "checked_in_by")
        .order_by("position", "id")
    )
    now = [one.league_player_id for one in standing]
    if not standing or now == list(shown) or now == [entry.league_player_id for entry in entries]:
        return
    players = ", ".join(one.league_player.name for one in standing)
    by = standing[0].checked_in_by
    if by is None:
        raise Conflict.on(
            "entries",
            gettext_noop(
                "{team} was checked in for series {series} meanwhile: {players}. Look at the line-up, then check "
                "the team in again."
            ),
            team=team.name,
            series=series,
            players=players,
        )
    raise Conflict.on(
        "entries",
        gettext_noop(
            "{user} checked {team} in for series {series} meanwhile: {players}. Look at the line-up, then check the "
            "team in again."
        ),
        user=by.get_username(),
        team=team.name,
        series=series,
        players=players,
    )


def _check_line_up(venue: Venue, series: int, team: Team, entries: Sequence[RosterEntry]) -> None:
    """Refuse (``Invalid``, each problem at ``entries.<index>``) a line-up that cannot stand."""
    if not SHORT_TEAM_SIZE <= len(entries) <= TEAM_SIZE:
        raise Invalid(
            [
                FieldError(
                    "entries",
                    msg_count(
                        ngettext_noop(
                            "{team} brings {count} player: a team plays with {low} or {high}.",
                            "{team} brings {count} players: a team plays with {low} or {high}.",
                        ),
                        len(entries),
                        team=team.name,
                        low=SHORT_TEAM_SIZE,
                        high=TEAM_SIZE,
                    ),
                )
            ]
        )
    league = venue.match_day.group.division.league
    playing_elsewhere = dict(
        CheckIn.objects.filter(match_day=venue.match_day, league_player_id__in=[e.league_player_id for e in entries])
        .exclude(team=team)
        .values_list("league_player_id", "team__name")
    )
    problems = []
    seen: set[int] = set()
    for index, entry in enumerate(entries):
        field = f"entries.{index}"
        name = entry.player.name
        if entry.team_id != team.pk:
            problems.append(
                FieldError(
                    field,
                    msg(
                        gettext_noop("{player} is neither in the line-up nor on the substitution list of {team}."),
                        player=name,
                        team=team.name,
                    ),
                )
            )
        elif entry.league_player_id in seen:
            problems.append(
                FieldError(
                    field, msg(gettext_noop("{player} is checked in for {team} twice."), player=name, team=team.name)
                )
            )
        elif entry.league_player_id in playing_elsewhere:
            problems.append(
                FieldError(
                    field,
                    msg(
                        gettext_noop("{player} plays for {other} today: a player plays for one team a match day."),
                        player=name,
                        other=playing_elsewhere[entry.league_player_id],
                    ),
                )
            )
        else:
            other = entered_elsewhere(league, team.club_id, entry.player, entry.federation_number)
            if other is not None:
                problems.extend(other_club_refusal(name, other, field).errors)
        seen.add(entry.league_player_id)
    if problems:
        raise Invalid(problems)
