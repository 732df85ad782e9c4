"""What a venue's people do through the API: check a team's line-up in for a series, seat a series (and drop a seating
before play), enter a table's paper list, close the venue, confirm its report as a captain, accept it as the league's
manager and reopen it for a correction. Each through the league's services, under the protocol of ``replays`` (a
retried key gets its first answer; a stale ``If-Match`` a 409, for a confirmation or an acceptance only where the
report's results changed since); each answered with the venue as it stands after it."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.paper import PaperListView, PaperTables
from matches.api.policy import seen_version
from matches.api.replays import Made, Versioned, VersionedChangeView, keyed_answer, keyed_change, with_version
from matches.api.resources.common import IDEMPOTENCY, REFUSED, bounded_body
from matches.engine import FieldError
from matches.engine.messages import gettext_noop, msg
from matches.errors import Conflict, Invalid
from matches.models import Player
from matches.permissions import Action, Denied, signed_in_account, visitor_of

from ..models import CheckIn, RosterEntry, Team, Venue, VenueTable, VenueTeam
from ..permissions import may_accept, may_check_in, may_seat
from ..selectors import standing_confirmations
from ..services import (
    report_accept,
    report_confirm,
    series_check_in,
    series_seat,
    series_unseat,
    table_paper_enter,
    venue_close,
    venue_reopen,
)
from .inputs import ConfirmInput, LineUpInput, NothingInput, SeriesInput, VenuePaperInput, VenueReopenInput
from .shapes import VenueChangedShape
from .venues import IF_MATCH_VENUE, venue_state

CONFLICT = {
    409: OpenApiResponse(
        description="The venue changed since the version sent as If-Match, the key was sent with another change, "
        "or the change contradicts the venue (it is closed, its series is seated or played, its report accepted): "
        "messages and the venue's current version."
    )
}
CHANGED = {200: VenueChangedShape, **REFUSED, **CONFLICT}
HEADERS = [IDEMPOTENCY, IF_MATCH_VENUE]
# A confirmation or acceptance is checked against the report's results the client read, not every change since.
REPORT_HEADERS = [
    IDEMPOTENCY,
    OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="The venue's version the report was read at, as its ETag gave it (\"12\"): if the report's "
        "results changed since (the venue closed, or closed again after a correction that changed them) or were "
        "being corrected then (the venue reopened), the answer is 409 with the current version; confirmations, an "
        "acceptance and a correction that changed no result made since refuse nobody.",
    ),
]

NO_SUCH_TEAM = gettext_noop("No team of this venue has that id.")
# The services' words for it, so that the two say the same.
NOT_HERE = gettext_noop("{team} does not play at this venue.")
NOT_YOUR_TEAM = gettext_noop("{team} is checked in by its captain, the host's secretaries or the league's managers.")
NOT_OF_THE_CLUB = gettext_noop("Not a player of this club.")
NOT_ON_THE_ROSTER = gettext_noop("{player} is neither in the line-up nor on the substitution list of {team}.")


VENUE = Versioned(
    model=Venue,
    owner="venue",
    moved_on=gettext_noop(
        "The venue was changed meanwhile (it is at version {version} now): look at it again, then send the change anew."
    ),
)


def venue_change(request: Request, venue: Venue, user: User, change: Callable[[], Made]) -> Response:
    """Make ``change`` to ``venue`` under the protocol; the answer is the venue as ``user`` sees it after it."""
    return keyed_change(request, venue, VENUE, change, state=lambda: venue_state(venue, user), shape=VenueChangedShape)


def report_change(request: Request, venue: Venue, user: User, change: Callable[[int | None], Made]) -> Response:
    """Make ``change`` to the venue's report (a captain's confirmation, the manager's acceptance) under the protocol,
    save for what an ``If-Match`` is checked against: ``change`` is given the version sent, and the services refuse
    it only where the report's results changed since (``report_confirm``), so that a confirmation or acceptance
    made meanwhile, or a correction that changed no result, refuses nobody, as on the report's page; a version the
    venue never had is refused as ever. The answer is the venue as ``user`` sees it after it, with its version as the
    ETag."""
    seen = seen_version(request)

    def answer() -> Response:
        current = VENUE.version_now(venue)
        if seen is not None and current is not None and seen > current:
            raise Conflict([FieldError(VENUE.owner, msg(VENUE.moved_on, version=current))])
        made = change(seen)
        body = VenueChangedShape({**venue_state(venue, user), "replayed": False}).data
        return Response(body, status=status.HTTP_201_CREATED if made.created else status.HTTP_200_OK)

    response = keyed_answer(request, venue, answer)
    return with_version(response, response.data["version"])


class VenueChangeView(VersionedChangeView):
    """A change to a venue: the league's managers, the host's secretaries and the captains of its teams may try one
    (``Action.SCORE`` on the venue); each change then asks the league's own answer for what it does."""

    subject_kind = "venue"
    writes = Action.SCORE
    versioned = VENUE

    def account(self) -> User:
        return signed_in_account(self.request)

    def refuse_unless(self, allowed: bool) -> None:
        """Somebody the league does not let make this change meets nothing here, as the policy answers."""
        if not allowed:
            raise Denied(visitor_of(self.request))


def _venue_team(venue: Venue, public_id: uuid.UUID, field: str) -> Team:
    """A team of the league by id (the services refuse one that does not play at the venue); 400 for none."""
    team = Team.objects.filter(public_id=public_id, group__match_days__venues=venue).select_related("club").first()
    if team is None:
        raise Invalid([FieldError(field, msg(NO_SUCH_TEAM))])
    return team


def _line_up(team: Team, players: list[uuid.UUID]) -> list[RosterEntry]:
    """The team's roster entries of the players, in order; 400 naming each one the team's roster does not have."""
    entries = {
        entry.player.public_id: entry
        for entry in RosterEntry.objects.filter(team=team, player__public_id__in=players).select_related("player")
    }
    names = dict(Player.objects.filter(public_id__in=players).values_list("public_id", "name"))
    problems = []
    for index, player in enumerate(players):
        if player in entries:
            continue
        field = f"players.{index}"
        if player in names:
            problems.append(FieldError(field, msg(NOT_ON_THE_ROSTER, player=names[player], team=team.name)))
        else:
            problems.append(FieldError(field, msg(NOT_OF_THE_CLUB)))
    if problems:
        raise Invalid(problems)
    return [entries[player] for player in players]


def _as_players(error: Invalid) -> Invalid:
    """The services name a line-up's players ``entries``; the API takes them as ``players``."""
    return Invalid([replace(one, field=_players_field(one.field)) for one in error.errors])


def _players_field(field: str) -> str:
    return "players" + field.removeprefix("entries") if field.startswith("entries") else field


class VenueCheckInView(VenueChangeView):
    @extend_schema(
        operation_id="venue_check_in",
        summary="Check a team's line-up in for a series",
        description="Three or four players of the team's roster or substitution list, in seat order, replacing a "
        "line-up checked in before while the series is not seated. The league's managers and the host's "
        "secretaries check in every team of the venue, a captain their own. 201 for a new line-up, 200 for one "
        "replaced or a retry; a player checked in twice, one playing for another team that day or one not on the "
        "roster is a 400 naming the player.",
        request=LineUpInput,
        parameters=HEADERS,
        responses={201: VenueChangedShape, **CHANGED},
    )
    def post(self, request: Request, venue_id: str) -> Response:
        data = bounded_body(LineUpInput, request)
        venue: Venue = self.subject

        def change() -> Made:
            team = _venue_team(venue, data["team"], "team")
            if not VenueTeam.objects.filter(venue=venue, team=team).exists():
                raise Invalid([FieldError("team", msg(NOT_HERE, team=team.name))])
            if not may_check_in(visitor_of(request), venue, team):
                raise Invalid([FieldError("team", msg(NOT_YOUR_TEAM, team=team.name))])
            entries = _line_up(team, data["players"])
            series = data["series"]
            new = not CheckIn.objects.filter(venue=venue, series=series, team=team).exists()
            try:
                series_check_in(venue=venue, series=series, team=team, entries=entries, user=self.account())
            except Invalid as error:
                raise _as_players(error) from error
            return Made(created=new)

        return venue_change(request, venue, self.account(), change)


class SeatView(VenueChangeView):
    @extend_schema(
        operation_id="venue_seat",
        summary="Seat a series",
        description="From the teams' line-ups, so that no two players of one team sit together, by the match day's "
        "seed. Each table is a match of the league to score through the matches' games. 201 for a new seating, "
        "200 for a series seated already (it keeps its tables). The league's managers and the host's secretaries.",
        request=SeriesInput,
        parameters=HEADERS,
        responses={201: VenueChangedShape, **CHANGED},
    )
    def post(self, request: Request, venue_id: str) -> Response:
        data = bounded_body(SeriesInput, request)
        venue: Venue = self.subject
        self.refuse_unless(may_seat(visitor_of(request), venue))

        def change() -> Made:
            new = not VenueTable.objects.filter(venue=venue, series=data["series"]).exists()
            series_seat(venue=venue, series=data["series"], user=self.account())
            return Made(created=new)

        return venue_change(request, venue, self.account(), change)


class UnseatView(VenueChangeView):
    @extend_schema(
        operation_id="venue_unseat",
        summary="Drop a series' seating before play",
        description="Its matches are discarded, so that its line-ups can change and it can be seated again; "
        "refused (409) once a table of the series entered something. The league's managers and the host's "
        "secretaries.",
        request=SeriesInput,
        parameters=HEADERS,
        responses=CHANGED,
    )
    def post(self, request: Request, venue_id: str) -> Response:
        data = bounded_body(SeriesInput, request)
        venue: Venue = self.subject
        self.refuse_unless(may_seat(visitor_of(request), venue))

        def change() -> Made:
            series_unseat(venue=venue, series=data["series"])
            return Made()

        return venue_change(request, venue, self.account(), change)


class VenuePaperView(VenueChangeView, PaperListView):
    paper_input = VenuePaperInput
    paper_tables = PaperTables(model=VenueTable, owner="venue", enter=table_paper_enter)

    @extend_schema(
        operation_id="venue_paper",
        summary="Enter a table's paper list",
        description="Each player's game points, games won and lost, as the table's paper list has them; totals no "
        "series can produce are refused. Replaces totals entered before; a table with games entered keeps its "
        "games (409); the table takes no games afterwards. The league's managers and the host's secretaries.",
        request=VenuePaperInput,
        parameters=HEADERS,
        responses=CHANGED,
    )
    def put(self, request: Request, **ids: Any) -> Response:
        self.refuse_unless(may_seat(visitor_of(request), self.subject))
        return super().put(request, **ids)

    def paper_changed(self, request: Request, change: Callable[[], Made], ids: Mapping[str, Any]) -> Response:
        return venue_change(request, self.subject, self.account(), change)


class VenueCloseView(VenueChangeView):
    @extend_schema(
        operation_id="venue_close",
        summary="Close the venue",
        description="Once every series is seated and every table's list complete: each list is locked and its "
        "scoring link turned off, the series scores count in the group's table and the report is ready. A venue "
        "not complete is a 409 naming each series and table. The league's managers and the host's secretaries.",
        request=NothingInput,
        parameters=HEADERS,
        responses=CHANGED,
    )
    def post(self, request: Request, venue_id: str) -> Response:
        bounded_body(NothingInput, request)
        venue: Venue = self.subject
        self.refuse_unless(may_seat(visitor_of(request), venue))

        def change() -> Made:
            venue_close(venue=venue, user=self.account())
            return Made()

        return venue_change(request, venue, self.account(), change)


class ConfirmView(VenueChangeView):
    @extend_schema(
        operation_id="venue_confirm",
        summary="Confirm the report as a team's captain",
        description="Once the venue closed (409 before). Only the team's captain confirms for it (400 for anybody "
        "else). 201 for a new confirmation, 200 for one made before; after a correction the captain confirms the "
        "corrected result anew (201). A version sent as If-Match is refused (409) only where the report's results "
        "changed since it, not for other captains' confirmations or the acceptance made meanwhile.",
        request=ConfirmInput,
        parameters=REPORT_HEADERS,
        responses={201: VenueChangedShape, **CHANGED},
    )
    def post(self, request: Request, venue_id: str) -> Response:
        data = bounded_body(ConfirmInput, request)
        venue: Venue = self.subject

        def change(seen: int | None) -> Made:
            team = _venue_team(venue, data["team"], "team")
            new = not standing_confirmations(venue).filter(team=team).exists()
            report_confirm(venue=venue, team=team, user=self.account(), seen=seen)
            return Made(created=new)

        return report_change(request, venue, self.account(), change)


class AcceptView(VenueChangeView):
    writes = Action.MANAGE

    @extend_schema(
        operation_id="venue_accept",
        summary="Accept the report as the league's manager",
        description="Its results are no longer provisional. Refused (409) before the venue closed and for a report "
        "accepted already: a correction reopens it with a reason. A version sent as If-Match is refused (409) only "
        "where the report's results changed since it, not for the captains' confirmations made meanwhile.",
        request=NothingInput,
        parameters=REPORT_HEADERS,
        responses=CHANGED,
    )
    def post(self, request: Request, venue_id: str) -> Response:
        bounded_body(NothingInput, request)
        venue: Venue = self.subject

        def change(seen: int | None) -> Made:
            report_accept(venue=venue, user=self.account(), seen=seen)
            return Made()

        return report_change(request, venue, self.account(), change)


class VenueReopenView(VenueChangeView):
    @extend_schema(
        operation_id="venue_reopen",
        summary="Reopen a closed venue for a correction",
        description="Its game tables take changes again and a paper table can be entered anew. Before the report "
        "is accepted the league's managers and the host's secretaries reopen it (the captains' confirmations stay, as "
        "confirmations of the earlier result); after, only the league's managers, with a reason, and the correction "
        "is recorded.",
        request=VenueReopenInput,
        parameters=HEADERS,
        responses=CHANGED,
    )
    def post(self, request: Request, venue_id: str) -> Response:
        data = bounded_body(VenueReopenInput, request)
        venue: Venue = self.subject
        visitor = visitor_of(request)

        def change() -> Made:
            accepted = Venue.objects.filter(pk=venue.pk, accepted_at__isnull=False).exists()
            self.refuse_unless(may_accept(visitor, venue) if accepted else may_seat(visitor, venue))
            venue_reopen(venue=venue, user=self.account(), reason=data["reason"])
            return Made()

        return venue_change(request, venue, self.account(), change)


urlpatterns = [
    path("venues/<uuid:venue_id>/check-in/", VenueCheckInView.as_view(), name="venue_check_in"),
    path("venues/<uuid:venue_id>/seat/", SeatView.as_view(), name="venue_seat"),
    path("venues/<uuid:venue_id>/unseat/", UnseatView.as_view(), name="venue_unseat"),
    path("venues/<uuid:venue_id>/paper/", VenuePaperView.as_view(), name="venue_paper"),
    path("venues/<uuid:venue_id>/close/", VenueCloseView.as_view(), name="venue_close"),
    path("venues/<uuid:venue_id>/confirm/", ConfirmView.as_view(), name="venue_confirm"),
    path("venues/<uuid:venue_id>/accept/", AcceptView.as_view(), name="venue_accept"),
    path("venues/<uuid:venue_id>/reopen/", VenueReopenView.as_view(), name="venue_reopen"),
]
