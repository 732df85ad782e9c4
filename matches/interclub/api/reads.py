"""What the API reads of the leagues between clubs, on the core's API: the same policy, pages and answers' shapes,
read from the selectors the league's pages use. A league is public, as the federations publish their tables:
everybody reads it."""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.policy import Pages, PolicyView
from matches.api.replays import with_version
from matches.api.resources.common import PAGED, REFUSED
from matches.api.shapes import paged
from matches.labels import figure_cell
from matches.permissions import request_account, visitor_of

from ..models import Division, Group, League, MatchDay, Team, Venue, VenueTeam
from ..permissions import league_role
from ..selectors import VenueReport, account_name, group_table, players_ranking, team_match_days, venue_report
from .shapes import (
    GroupDetailShape,
    GroupTableShape,
    LeagueDetailShape,
    LeagueShape,
    MatchDayDetailShape,
    RankingShape,
    ReportShape,
    TeamDetailShape,
    TeamMatchDayShape,
    VenueStateShape,
)
from .venues import points_data, team_data, venue_state, venue_summary


def league_data(league: League) -> dict[str, Any]:
    return {
        "id": league.public_id,
        "name": league.name,
        "variant": league.variant,
        "scheme": league.scheme,
        "series_per_day": league.series_per_day,
        "games_at_four": league.games_at_four,
        "games_at_three": league.games_at_three,
        "created_at": league.created_at,
    }


class LeagueListView(PolicyView):
    @extend_schema(
        operation_id="leagues",
        summary="The leagues between clubs",
        description="Every league, newest first: a league is public.",
        parameters=PAGED,
        responses={200: paged(LeagueShape), **REFUSED},
    )
    def get(self, request: Request) -> Response:
        pages = Pages()
        page = pages.paginate_queryset(League.objects.all(), request, view=self) or []
        return pages.get_paginated_response(LeagueShape([league_data(one) for one in page], many=True).data)


class LeagueView(PolicyView):
    subject_kind = "league"

    @extend_schema(
        operation_id="league",
        summary="A league, its rules, divisions and groups",
        responses={200: LeagueDetailShape, **REFUSED},
    )
    def get(self, request: Request, league_id: str) -> Response:
        league: League = self.subject
        role = league_role(visitor_of(request), league)
        divisions = Division.objects.filter(league=league).prefetch_related("groups").order_by("level", "name")
        body = {
            **league_data(league),
            "role": role.value if role is not None else None,
            "rules": league.rules,
            "series_tie": league.series_tie,
            "short_venue": league.short_venue,
            "per_team_beaten": league.per_team_beaten,
            "minus_counts": league.minus_counts,
            "table_tie": league.table_tie,
            "minimum_series": league.minimum_series,
            "divisions": [
                {
                    "name": division.name,
                    "level": division.level,
                    "groups": [
                        {"id": one.public_id, "name": one.name, "promoted": one.promoted, "relegated": one.relegated}
                        for one in division.groups.all()
                    ],
                }
                for division in divisions
            ],
        }
        return Response(LeagueDetailShape(body).data)


class RankingView(PolicyView):
    subject_kind = "league"

    @extend_schema(
        operation_id="league_ranking",
        summary="The league's players' ranking",
        description="Every player by their average Seeger-Fabian total per series, from the league's minimum number "
        "of series on; read from the closed venues, a series not yet accepted flagged provisional.",
        responses={200: RankingShape, **REFUSED},
    )
    def get(self, request: Request, league_id: str) -> Response:
        league: League = self.subject
        rows = [
            {
                "rank": one.row.rank,
                "player": one.player.public_id,
                "name": one.player.name,
                "average": figure_cell(one.row.average),
                "total": one.row.total,
                "series": one.row.series,
                "provisional": one.provisional,
            }
            for one in players_ranking(league)
        ]
        body = {"league": league.public_id, "minimum_series": league.minimum_series, "rows": rows}
        return Response(RankingShape(body).data)


class GroupView(PolicyView):
    subject_kind = "group"

    @extend_schema(
        operation_id="group",
        summary="A group, its teams and match days",
        responses={200: GroupDetailShape, **REFUSED},
    )
    def get(self, request: Request, group_id: str) -> Response:
        group: Group = self.subject
        account = request_account(request)
        teams = Team.objects.filter(group=group).select_related("club").order_by("name")
        body = {
            "id": group.public_id,
            "name": group.name,
            "promoted": group.promoted,
            "relegated": group.relegated,
            "league": group.division.league.public_id,
            "division": group.division.name,
            "teams": [team_data(team, account) for team in teams],
            "match_days": [
                {"id": day.public_id, "number": day.number, "date": day.date}
                for day in MatchDay.objects.filter(group=group).order_by("number")
            ],
        }
        return Response(GroupDetailShape(body).data)


class GroupTableView(PolicyView):
    subject_kind = "group"

    @extend_schema(
        operation_id="group_table",
        summary="The group's league table",
        description="League points as plus:minus, then the summed series scores, ties and marks as the league sets, "
        "over every closed venue; a result not yet accepted counts and is flagged provisional.",
        responses={200: GroupTableShape, **REFUSED},
    )
    def get(self, request: Request, group_id: str) -> Response:
        table = group_table(self.subject)
        rows = [
            {
                "rank": one.row.rank,
                "team": one.team.public_id,
                "name": one.team.name,
                **points_data(one.row.points),
                "game_points": one.row.game_points,
                "match_days": one.row.match_days,
                "mark": one.row.mark.value if one.row.mark is not None else None,
                "undecided": one.row.undecided,
                "by_lot": one.row.by_lot,
                "provisional": one.provisional,
            }
            for one in table.rows
        ]
        body = {"group": table.group.public_id, "provisional": table.provisional, "rows": rows}
        return Response(GroupTableShape(body).data)


class TeamView(PolicyView):
    subject_kind = "team"

    @extend_schema(operation_id="team", summary="A team and its roster", responses={200: TeamDetailShape, **REFUSED})
    def get(self, request: Request, team_id: str) -> Response:
        team: Team = Team.objects.select_related("club", "group").get(pk=self.subject.pk)
        roster = [
            {
                "player": entry.player.public_id,
                "league_player": entry.league_player.public_id,
                "name": entry.player.name,
                "substitute": entry.substitute,
            }
            for entry in team.roster.select_related("player", "league_player")
        ]
        body = {**team_data(team, request_account(request)), "group": team.group.public_id, "roster": roster}
        return Response(TeamDetailShape(body).data)


class TeamMatchDaysView(PolicyView):
    subject_kind = "team"

    @extend_schema(
        operation_id="team_match_days",
        summary="A team's match days",
        description="Where the team plays each match day and, once the venue closed, its day's league points and "
        "game points, provisional until the league's manager accepted the report.",
        responses={200: TeamMatchDayShape(many=True), **REFUSED},
    )
    def get(self, request: Request, team_id: str) -> Response:
        rows = []
        for one in team_match_days(self.subject):
            result = one.result
            points = points_data(result.points) if result is not None else dict.fromkeys(("points", "plus", "minus"))
            rows.append(
                {
                    "match_day": one.venue.match_day.public_id,
                    "number": one.venue.match_day.number,
                    "date": one.venue.match_day.date,
                    "venue": one.venue.public_id,
                    "place": one.venue.place,
                    "closed": one.venue.closed_at is not None,
                    "provisional": one.provisional,
                    **points,
                    "game_points": result.game_points if result is not None else None,
                }
            )
        return Response(TeamMatchDayShape(rows, many=True).data)


class MatchDayView(PolicyView):
    subject_kind = "match_day"

    @extend_schema(
        operation_id="match_day",
        summary="A match day and its venues",
        responses={200: MatchDayDetailShape, **REFUSED},
    )
    def get(self, request: Request, match_day_id: str) -> Response:
        day: MatchDay = self.subject
        venues = Venue.objects.filter(match_day=day).select_related("host_club").order_by("created_at", "id")
        teams: dict[int, list[Team]] = {}
        for one in VenueTeam.objects.filter(match_day=day).select_related("team").order_by("order", "id"):
            teams.setdefault(one.venue_id, []).append(one.team)
        body = {
            "id": day.public_id,
            "number": day.number,
            "date": day.date,
            "group": day.group.public_id,
            "venues": [venue_summary(venue, teams.get(venue.pk, [])) for venue in venues],
        }
        return Response(MatchDayDetailShape(body).data)


class VenueView(PolicyView):
    subject_kind = "venue"

    @extend_schema(
        operation_id="venue",
        summary="A venue: its teams, check-ins and tables",
        description="Each table with its match, to score through the matches' games; with the venue's version as "
        "its ETag: send it as If-Match to change the venue safely.",
        responses={200: VenueStateShape, **REFUSED},
    )
    def get(self, request: Request, venue_id: str) -> Response:
        state = venue_state(self.subject, request_account(request))
        return with_version(Response(VenueStateShape(state).data), state["version"])


def report_data(report: VenueReport) -> dict[str, Any]:
    """The report with every team and player by id, and every account that confirmed, corrected or accepted it by
    its username, as its page names them."""
    by_name = {team.name: team.public_id for team in report.teams}
    series = [
        {
            "series": one.number,
            "seated": one.seated,
            "complete": one.complete,
            "tables": [
                {
                    "number": table.table.number,
                    "match": table.table.match.public_id,
                    "paper": table.table.paper,
                    "games": table.games,
                    "complete": table.complete,
                    "lines": [
                        {
                            "player": line.player.public_id,
                            "name": line.player.name,
                            "team": line.team.public_id if line.team is not None else None,
                            "total": line.total,
                            "game_points": line.game_points,
                            "won": line.won,
                            "lost": line.lost,
                        }
                        for line in table.lines
                    ],
                }
                for table in one.tables
            ],
            "places": [
                {"team": by_name[place.team], "score": place.score, "place": place.place, **points_data(place.points)}
                for place in one.places
            ],
        }
        for one in report.series
    ]
    day = report.day.rows if report.day is not None else ()
    return {
        "venue": report.venue.public_id,
        "ready": report.ready,
        "provisional": report.provisional,
        "accepted_at": report.venue.accepted_at,
        "accepted_by": account_name(report.venue.accepted_by),
        "series": series,
        "day": [{"team": by_name[row.team], "game_points": row.game_points, **points_data(row.points)} for row in day],
        "confirmed": [
            {"team": one.team.public_id, "by": account_name(one.captain), "created_at": one.created_at}
            for one in report.confirmed
        ],
        "confirmed_before": [
            {
                "team": one.team.public_id,
                "by": account_name(one.captain),
                "created_at": one.created_at,
                "corrected_at": correction.created_at,
            }
            for one, correction in report.confirmed_before
        ],
        "corrections": [
            {
                "reason": one.reason,
                "accepted": one.accepted,
                "before": one.before,
                "after": one.after,
                "by": account_name(one.user),
                "created_at": one.created_at,
                "closed_at": one.closed_at,
            }
            for one in report.corrections
        ],
    }


class ReportView(PolicyView):
    subject_kind = "venue"

    @extend_schema(
        operation_id="venue_report",
        summary="A venue's match report",
        description="Every series' line-ups, tables and places, and each team's day: live while the venue plays, "
        "ready once it closed, provisional until the league's manager accepted it (then when and by whom); with the "
        "captains' confirmations of it as it stands, those of an earlier result a correction changed, and every "
        "correction (each reopening once closed, before acceptance or after), each naming the account that made it "
        "by its username, as the report's page does; with the venue's version as its ETag: send it as If-Match to "
        "confirm or accept what was read.",
        responses={200: ReportShape, **REFUSED},
    )
    def get(self, request: Request, venue_id: str) -> Response:
        venue: Venue = self.subject
        return with_version(Response(ReportShape(report_data(venue_report(venue))).data), venue.version)


urlpatterns = [
    path("leagues/", LeagueListView.as_view(), name="leagues"),
    path("leagues/<uuid:league_id>/", LeagueView.as_view(), name="league"),
    path("leagues/<uuid:league_id>/ranking/", RankingView.as_view(), name="league_ranking"),
    path("groups/<uuid:group_id>/", GroupView.as_view(), name="group"),
    path("groups/<uuid:group_id>/table/", GroupTableView.as_view(), name="group_table"),
    path("teams/<uuid:team_id>/", TeamView.as_view(), name="team"),
    path("teams/<uuid:team_id>/match-days/", TeamMatchDaysView.as_view(), name="team_match_days"),
    path("match-days/<uuid:match_day_id>/", MatchDayView.as_view(), name="match_day"),
    path("venues/<uuid:venue_id>/", VenueView.as_view(), name="venue"),
    path("venues/<uuid:venue_id>/report/", ReportView.as_view(), name="venue_report"),
]
