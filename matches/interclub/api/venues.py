"""A venue as the API answers it, read and after every change: its teams, who is checked in for each series, its
tables with their matches (scored through the core's games), and the version the venue has, also as the answer's
``ETag``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from matches.api.resources.matches import seats_data
from matches.engine.draw import met_again
from matches.engine.match_days import LeaguePoints
from matches.models import Seat

from ..models import CheckIn, Team, Venue, VenueTable, VenueTeam
from ..selectors import standing_confirmations

IF_MATCH_VENUE = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The venue\'s version the change was made on, as its ETag gave it ("12"): if the venue changed '
    "since, the answer is 409 with the current version.",
)


def points_data(points: LeaguePoints) -> dict[str, Any]:
    return {"points": str(points), "plus": float(points.plus), "minus": float(points.minus)}


def team_data(team: Team, user: User | None) -> dict[str, Any]:
    return {
        "id": team.public_id,
        "name": team.name,
        "club": {"id": team.club.public_id, "name": team.club.name},
        "yours": user is not None and team.captain_id == user.pk,
    }


def venue_summary(venue: Venue, teams: list[Team]) -> dict[str, Any]:
    return {
        "id": venue.public_id,
        "place": venue.place,
        "host_club": venue.host_club.public_id if venue.host_club is not None else None,
        "series": venue.series,
        "closed": venue.closed_at is not None,
        "accepted": venue.accepted_at is not None,
        "teams": [team.public_id for team in teams],
    }


def venue_state(venue: Venue, user: User | None) -> dict[str, Any]:
    """The venue as it stands in the database (its version read afresh), in a fixed number of queries."""
    fresh = Venue.objects.select_related("match_day__group", "host_club").get(pk=venue.pk)
    teams = [
        one.team for one in VenueTeam.objects.filter(venue=fresh).select_related("team__club").order_by("order", "id")
    ]
    check_ins = CheckIn.objects.filter(venue=fresh).select_related("team", "entry__player", "league_player")
    line_ups: dict[tuple[int, int], dict[str, Any]] = {}
    for one in check_ins.order_by("series", "team_id", "position", "id"):
        line_up = line_ups.setdefault(
            (one.series, one.team_id), {"series": one.series, "team": one.team.public_id, "players": []}
        )
        line_up["players"].append(
            {
                "player": one.entry.player.public_id,
                "league_player": one.league_player.public_id,
                "name": one.entry.player.name,
                "substitute": one.entry.substitute,
            }
        )
    tables = list(VenueTable.objects.filter(venue=fresh).select_related("match").order_by("series", "number"))
    seats = Seat.objects.filter(match_id__in=[table.match_id for table in tables]).select_related("player")
    by_match: dict[int, list[Seat]] = {}
    for seat in seats.order_by("position"):
        by_match.setdefault(seat.match_id, []).append(seat)
    confirmed = standing_confirmations(fresh).order_by("created_at", "id")
    met = _met_again(tables, by_match)
    return {
        **venue_summary(fresh, teams),
        "match_day": fresh.match_day.public_id,
        "group": fresh.match_day.group.public_id,
        "date": fresh.match_day.date,
        "version": fresh.version,
        "teams": [team_data(team, user) for team in teams],
        "confirmed": list(confirmed.values_list("team__public_id", flat=True)),
        "check_ins": list(line_ups.values()),
        "tables": [
            {
                "series": table.series,
                "number": table.number,
                "match": table.match.public_id,
                "paper": table.paper,
                "seats": seats_data(by_match.get(table.match_id, [])),
                "met_again": met[table.pk],
            }
            for table in tables
        ],
    }


def _met_again(tables: list[VenueTable], by_match: dict[int, list[Seat]]) -> dict[int, list[list[str]]]:
    """The pairs each table (by its id) seats together who sat at one table in an earlier series of the venue, by
    their seats' player ids in seat order: what its seating could not avoid, as the venue's page names them."""
    seated = {
        table.pk: tuple(str(seat.player.public_id) for seat in by_match.get(table.match_id, [])) for table in tables
    }
    by_series: dict[int, list[tuple[str, ...]]] = {}
    for table in tables:
        by_series.setdefault(table.series, []).append(seated[table.pk])
    return {
        table.pk: [
            list(pair)
            for pair in met_again(
                (seated[table.pk],), [tuple(one) for number, one in by_series.items() if number < table.series]
            )
        ]
        for table in tables
    }
