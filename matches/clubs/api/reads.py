"""What the API reads of clubs, seasons, nights and standings, on the core's API: the same policy, pages and answers'
shapes, reads from the selectors the club pages use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.policy import Pages, PolicyView
from matches.api.replays import with_version
from matches.api.resources.common import PAGED, REFUSED
from matches.api.shapes import paged
from matches.engine.league import Place
from matches.models import Player
from matches.permissions import signed_in_account

from ..models import Club, Membership, Night, Season
from ..selectors import night_results, season_table
from ..shapes import (
    ClubDetailShape,
    ClubShape,
    NightStandingsShape,
    SeasonDetailShape,
    SeasonStandingsShape,
)
from ..standings import full_names, standing_rows
from .nights import NightStateShape, night_data, night_state


def _places(places: Sequence[Place], players: Mapping[str, Player]) -> list[dict[str, Any]]:
    return [row.api() for row in standing_rows(places, full_names(players))]


class ClubListView(PolicyView):
    subject_kind = "account"

    @extend_schema(
        operation_id="clubs", summary="Your clubs", parameters=PAGED, responses={200: paged(ClubShape), **REFUSED}
    )
    def get(self, request: Request) -> Response:
        pages = Pages()
        memberships = Membership.objects.filter(user=signed_in_account(request)).select_related("club")
        page = pages.paginate_queryset(memberships, request, view=self) or []
        rows = [{"id": one.club.public_id, "name": one.club.name, "role": one.role} for one in page]
        return pages.get_paginated_response(ClubShape(rows, many=True).data)


def _season(season: Season, club: Club) -> dict[str, Any]:
    return {
        "id": season.public_id,
        "club": club.public_id,
        "name": season.name,
        "variant": season.variant,
        "scheme": season.scheme,
        "ranking": season.ranking,
        "games_at_four": season.games_at_four,
        "games_at_three": season.games_at_three,
        "games_at_two": season.games_at_two,
        "created_at": season.created_at,
    }


class ClubView(PolicyView):
    subject_kind = "club"

    @extend_schema(operation_id="club", summary="A club and its seasons", responses={200: ClubDetailShape, **REFUSED})
    def get(self, request: Request, club_id: str) -> Response:
        club: Club = self.subject
        role = (
            Membership.objects.filter(club=club, user=signed_in_account(request)).values_list("role", flat=True).first()
        )
        seasons = [_season(season, club) for season in Season.objects.filter(club=club).order_by("-created_at")]
        body = {"id": club.public_id, "name": club.name, "role": role, "seasons": seasons}
        return Response(ClubDetailShape(body).data)


class SeasonView(PolicyView):
    subject_kind = "season"

    @extend_schema(
        operation_id="season", summary="A season and its nights", responses={200: SeasonDetailShape, **REFUSED}
    )
    def get(self, request: Request, season_id: str) -> Response:
        season: Season = self.subject
        nights = [night_data(night, season) for night in Night.objects.filter(season=season).order_by("date", "pk")]
        return Response(SeasonDetailShape({**_season(season, season.club), "nights": nights}).data)


class SeasonStandingsView(PolicyView):
    subject_kind = "season"

    @extend_schema(
        operation_id="season_standings",
        summary="The season's table",
        description="Ranked under the season's rule (total, average or best nights), open nights as they stand.",
        responses={200: SeasonStandingsShape, **REFUSED},
    )
    def get(self, request: Request, season_id: str) -> Response:
        table = season_table(self.subject)
        body = {
            "season": table.season.public_id,
            "nights": table.nights,
            "places": _places(table.places, table.players),
        }
        return Response(SeasonStandingsShape(body).data)


class NightView(PolicyView):
    subject_kind = "night"

    @extend_schema(
        operation_id="night",
        summary="A club night, who came and its tables",
        description="With the night's version as its ETag: send it as If-Match to change the night safely.",
        responses={200: NightStateShape, **REFUSED},
    )
    def get(self, request: Request, night_id: str) -> Response:
        state = night_state(self.subject)
        return with_version(Response(NightStateShape(state).data), state["version"])


class NightStandingsView(PolicyView):
    subject_kind = "night"

    @extend_schema(
        operation_id="night_standings",
        summary="The night's table and each series'",
        responses={200: NightStandingsShape, **REFUSED},
    )
    def get(self, request: Request, night_id: str) -> Response:
        results = night_results(self.subject)
        body = {
            "night": results.night.public_id,
            "places": _places(results.night_places, results.players),
            "series": [
                {"series": number, "places": _places(places, results.players)}
                for number, places in results.series.items()
            ],
        }
        return Response(NightStandingsShape(body).data)


urlpatterns = [
    path("clubs/", ClubListView.as_view(), name="clubs"),
    path("clubs/<uuid:club_id>/", ClubView.as_view(), name="club"),
    path("seasons/<uuid:season_id>/", SeasonView.as_view(), name="season"),
    path("seasons/<uuid:season_id>/standings/", SeasonStandingsView.as_view(), name="season_standings"),
    path("nights/<uuid:night_id>/", NightView.as_view(), name="night"),
    path("nights/<uuid:night_id>/standings/", NightStandingsView.as_view(), name="night_standings"),
]
