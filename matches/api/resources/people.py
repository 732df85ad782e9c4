"""A person's record and the ranking lists, under the same rules as their pages: one's own record, anybody's as they
show it; one's own ranking lists and one's clubs', defined, changed, published (and anew, keeping each edition) and
deleted."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.utils.urls import replace_query_param

from ...engine.messages import gettext_noop
from ...errors import Invalid, ServiceError
from ...labels import figure_cell
from ...models import Counted, Method, Period, Person, RankingList
from ...paging import BadPlace
from ...permissions import Action, request_account, signed_in_account
from ...rankings import (
    NoSuchEdition,
    Ranked,
    cursor_period,
    period_editions,
    period_known,
    ranked_by,
    ranking_page,
    ranking_periods,
)
from ...records import (
    LIST_FIELDS,
    Figures,
    Lists,
    lists_seen,
    own_lists,
    record_overview,
    shown_name,
)
from ...registry import closed_lists_label, lists_circles, lists_circles_of
from ...services.rankings import (
    MAX_FIELD,
    MAX_PLACES,
    MAX_REASON,
    RankingForm,
    ranking_delete,
    ranking_due,
    ranking_publish,
    ranking_save,
)
from ..policy import ByName, Pages, PolicyView
from ..replays import keyed_answer
from ..serializers import StrictInput
from ..shapes import paged, replayed_field
from .common import IDEMPOTENCY, PAGED, REFUSED, bounded_body

# The lists a record's answer names, the latest first; the download on the page has them all.
RECORD_LISTS = 500


class RecordFiguresShape(serializers.Serializer):
    series = serializers.IntegerField()
    games = serializers.IntegerField()
    won = serializers.IntegerField(help_text="Games won as declarer.")
    lost = serializers.IntegerField(help_text="Games lost as declarer.")
    total = serializers.IntegerField(help_text="The Seeger-Fabian points of every series summed.")
    best = serializers.IntegerField(allow_null=True)
    average = serializers.FloatField(allow_null=True, help_text="Per series, to two places.")
    per_48 = serializers.FloatField(allow_null=True, help_text="Per 48 games, where series of different lengths mix.")
    lost_percent = serializers.FloatField(allow_null=True)


class RecordGroupShape(serializers.Serializer):
    group = serializers.CharField(help_text="The kind of event, or the year.")
    figures = RecordFiguresShape()


class ClosedListShape(serializers.Serializer):
    kind = serializers.CharField()
    scheme = serializers.CharField()
    event = serializers.UUIDField()
    event_name = serializers.CharField()
    within = serializers.UUIDField(help_text="What the event counts in: a season, a group, the tournament.")
    date = serializers.DateField()
    series = serializers.IntegerField()
    table_size = serializers.IntegerField()
    games = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    others_lost = serializers.IntegerField()
    game_points = serializers.IntegerField()
    total = serializers.IntegerField()


class RecordShape(serializers.Serializer):
    person = serializers.UUIDField(allow_null=True)
    name = serializers.CharField()
    figures = RecordFiguresShape(help_text="Over the lists scored by Seeger-Fabian.")
    by_kind = RecordGroupShape(many=True)
    by_year = RecordGroupShape(many=True)
    lists = ClosedListShape(many=True, help_text=f"The latest {RECORD_LISTS} lists, of every scheme.")


def _figures(figures: Figures) -> dict[str, Any]:
    def cell(value: Any) -> Any:
        return None if value is None else figure_cell(value)

    return {
        "series": figures.series,
        "games": figures.games,
        "won": figures.won,
        "lost": figures.lost,
        "total": figures.total,
        "best": figures.best,
        "average": cell(figures.average),
        "per_48": cell(figures.per_48),
        "lost_percent": cell(figures.lost_percent),
    }


def _record(person: Person | None, name: str, lists: Lists) -> dict[str, Any]:
    overview = record_overview(lists)
    latest = lists.every.order_by("-sequence", "-pk").values(*LIST_FIELDS)[:RECORD_LISTS]
    return {
        "person": person.public_id if person is not None else None,
        "name": name,
        "figures": _figures(overview.figures),
        "by_kind": [
            {"group": closed_lists_label(kind), "figures": _figures(figures)} for kind, figures in overview.by_kind
        ],
        "by_year": [{"group": str(year), "figures": _figures(figures)} for year, figures in overview.by_year],
        "lists": list(latest),
    }


class OwnRecordView(PolicyView):
    subject_kind = "account"

    @extend_schema(
        operation_id="own_record",
        summary="Your record",
        description="Your figures over every closed list of the players joined to you, by kind of event and by "
        "year, and your latest lists.",
        responses={200: RecordShape, **REFUSED},
    )
    def get(self, request: Request) -> Response:
        account = signed_in_account(request)
        person = Person.objects.filter(account=account).first()
        name = person.name if person is not None else account.get_full_name()
        return Response(RecordShape(_record(person, name, own_lists(account))).data)


class PersonRecordView(PolicyView):
    subject_kind = "person"

    @extend_schema(
        operation_id="person_record",
        summary="A person's record",
        description="As the person shows it: to everybody where they say so (with the first name only where they "
        "ask for that), else to themselves and, for their club's nights, to the club's members.",
        responses={200: RecordShape, **REFUSED},
    )
    def get(self, request: Request, person_id: str) -> Response:
        person: Person = self.subject
        account = request_account(request)
        lists = lists_seen(person, account) or Lists(())
        return Response(RecordShape(_record(person, shown_name(person, account), lists)).data)


class RankingInput(StrictInput):
    name = serializers.CharField(max_length=100)
    events = serializers.ListField(
        child=serializers.UUIDField(), max_length=500, help_text="The seasons, groups and tournaments that count."
    )
    date_from = serializers.DateField(required=False, allow_null=True, default=None)
    date_to = serializers.DateField(required=False, allow_null=True, default=None)
    period = serializers.ChoiceField(choices=Period.values, default=Period.WHOLE)
    counted = serializers.ChoiceField(choices=Counted.values, default=Counted.EVERYBODY)
    club = serializers.UUIDField(required=False, allow_null=True, default=None, help_text="With counted: book.")
    method = serializers.ChoiceField(choices=Method.values, default=Method.AVERAGE)
    minimum = serializers.IntegerField(min_value=1, max_value=999, default=1)
    best = serializers.IntegerField(min_value=1, max_value=999, default=1)
    places = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_FIELD),
        max_length=MAX_PLACES,
        required=False,
        default=list,
    )
    field = serializers.IntegerField(min_value=1, max_value=MAX_FIELD, default=100)
    public = serializers.BooleanField(default=False)


class RankingListShape(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    events = serializers.ListField(child=serializers.UUIDField())
    date_from = serializers.DateField(allow_null=True)
    date_to = serializers.DateField(allow_null=True)
    period = serializers.CharField()
    counted = serializers.CharField()
    club = serializers.UUIDField(allow_null=True, help_text="With counted: book, the club whose players count.")
    club_name = serializers.CharField(allow_null=True, help_text="That club's name.")
    method = serializers.CharField()
    minimum = serializers.IntegerField()
    best = serializers.IntegerField()
    places = serializers.ListField(child=serializers.IntegerField())
    field = serializers.IntegerField()
    public = serializers.BooleanField()
    periods = serializers.ListField(child=serializers.CharField(), help_text="The periods with lists, latest first.")


class RankingPlaceShape(serializers.Serializer):
    place = serializers.IntegerField()
    name = serializers.CharField()
    person = serializers.UUIDField(allow_null=True, help_text="The person's record, where they show it.")
    series = serializers.IntegerField()
    events = serializers.IntegerField()
    total = serializers.IntegerField()
    score = serializers.FloatField(help_text="The method's figure: the average, the best results, the points.")


class RankingEditionShape(serializers.Serializer):
    edition = serializers.IntegerField(help_text="Its number: 1 for the period's first published list, and so on.")
    published_at = serializers.DateTimeField()
    replaced_at = serializers.DateTimeField(allow_null=True, help_text="Null: the period's published list.")
    reason = serializers.CharField(help_text="Why it was published anew; empty for the first.")


class RankingListDetailShape(RankingListShape):
    period = serializers.CharField()
    edition = serializers.IntegerField(allow_null=True, help_text="The edition shown; null: the list as it stands.")
    published_at = serializers.DateTimeField(allow_null=True, help_text="Null: the list as it stands.")
    replaced_at = serializers.DateTimeField(
        allow_null=True, help_text="When the edition shown was replaced by the next; null: it was not."
    )
    reason = serializers.CharField(help_text="Why the edition shown was published anew; empty for the first.")
    editions = RankingEditionShape(
        many=True, help_text="Every edition of the period's list, the latest first: `?edition=` reads one."
    )
    rows = RankingPlaceShape(many=True, help_text="A page of the places, from the first.")
    next = serializers.URLField(allow_null=True, help_text="The next page of places; null on the last.")
    updating = serializers.BooleanField(
        help_text="True while lists closed a moment ago are still being counted in: read it again in a moment."
    )


class RankingChangedShape(RankingListShape):
    replayed = replayed_field()


class RankingPublishedShape(RankingListDetailShape):
    replayed = replayed_field()


def _ranking(ranking: RankingList, circles: Mapping[int, tuple[uuid.UUID, str]] | None = None) -> dict[str, Any]:
    """The list's definition as its input takes it, with the name of the club whose players it counts; ``circles``:
    the clubs of the lists' books (``lists_circles_of``) where many lists are shown, else read for this one."""
    if circles is None:
        circles = lists_circles_of([ranking.book_id] if ranking.book_id is not None else [])
    club, club_name = circles.get(ranking.book_id, (None, None)) if ranking.book_id is not None else (None, None)
    return {
        "id": ranking.public_id,
        "name": ranking.name,
        "events": ranking.events,
        "date_from": ranking.date_from,
        "date_to": ranking.date_to,
        "period": ranking.period,
        "counted": ranking.counted,
        "club": club,
        "club_name": club_name,
        "method": ranking.method,
        "minimum": ranking.minimum,
        "best": ranking.best,
        "places": ranking.places,
        "field": ranking.field,
        "public": ranking.public,
        "periods": ranking_periods(ranking),
    }


def _row(row: Ranked) -> dict[str, Any]:
    return {
        "place": row.place,
        "name": row.name,
        "person": row.person,
        "series": row.series,
        "events": row.events,
        "total": row.total,
        "score": figure_cell(row.score),
    }


def _form(body: dict[str, Any]) -> RankingForm:
    club = body.pop("club")
    return RankingForm(**{**body, "events": [str(event) for event in body["events"]], "circle": str(club or "")})


# The fields ``_form`` names otherwise for the service, by the service's name: a refusal names the API's field.
API_NAMES = {"circle": "club"}


def _saved(request: Request, ranking: RankingList | None = None) -> RankingList:
    """The ranking list the body defines, saved; the service's refusals named by the API's fields."""
    form = _form(bounded_body(RankingInput, request))
    try:
        return ranking_save(owner=signed_in_account(request), form=form, ranking=ranking)
    except ServiceError as refused:
        renamed = [replace(error, field=API_NAMES.get(error.field, error.field)) for error in refused.errors]
        raise type(refused)(renamed) from None


class RankingListView(PolicyView):
    subject_kind = "account"

    @extend_schema(
        operation_id="rankings",
        summary="Your ranking lists",
        description="Yours and your clubs', by name.",
        parameters=PAGED,
        responses={200: paged(RankingListShape), **REFUSED},
    )
    def get(self, request: Request) -> Response:
        account = signed_in_account(request)
        books = [book for _, book, _ in lists_circles(account)]
        pages = ByName()
        rankings = RankingList.objects.filter(Q(owner=account) | Q(book__in=books))
        page = pages.paginate_queryset(rankings, request, view=self) or []
        circles = lists_circles_of(ranking.book_id for ranking in page if ranking.book_id is not None)
        return pages.get_paginated_response(
            RankingListShape([_ranking(ranking, circles) for ranking in page], many=True).data
        )

    @extend_schema(
        operation_id="ranking_create",
        summary="Define a ranking list",
        description="Refused (400, by field) for events you may not count, a list over no closed list, and an average "
        "whose minimum nobody reaches.",
        request=RankingInput,
        parameters=[IDEMPOTENCY],
        responses={201: RankingChangedShape, 200: RankingChangedShape, **REFUSED},
    )
    def post(self, request: Request) -> Response:
        def define() -> Response:
            return Response(RankingChangedShape(_ranking(_saved(request)) | {"replayed": False}).data, status=201)

        return keyed_answer(request, signed_in_account(request), define)


PERIOD = OpenApiParameter(
    "period",
    OpenApiTypes.STR,
    description='One of the list\'s periods ("2026-11", "2026", or empty for the whole time), or one published; when '
    "not given, the period the cursor continues, else the latest. Any other is a 400.",
)
NO_SUCH_PERIOD = gettext_noop("The list has no such period: one of its periods, or leave the parameter out.")
EDITION = OpenApiParameter(
    "edition",
    OpenApiTypes.STR,
    description="An edition of the period's list by its number (`editions` names them), or `standing` for the list "
    "as it stands; when not given, the period's published list, else the list as it stands. Any other is a 400.",
)
NO_SUCH_EDITION = gettext_noop(
    "The period's list has no such edition: the number of one, standing, or leave the parameter out."
)


class RankingView(PolicyView):
    subject_kind = "ranking"
    writes = Action.MANAGE

    @extend_schema(
        operation_id="ranking",
        summary="A ranking list",
        description="A period's list: as published where it was (with the method and options it was ranked by, "
        "whatever the list's are now; the edition published last where it was published anew, with every earlier "
        "edition in `editions`), else as it stands; its places a page at a time (follow `next`).",
        parameters=[PERIOD, EDITION, *PAGED],
        responses={200: RankingListDetailShape, **REFUSED},
    )
    def get(self, request: Request, ranking_id: str) -> Response:
        ranking: RankingList = self.subject
        asked = request.query_params.get("period")
        if asked is not None and not period_known(ranking, asked):
            raise Invalid.on("period", NO_SUCH_PERIOD)
        after = Pages.cursor_of(request)
        try:
            continued = cursor_period(after)
            if asked is not None:
                period = asked
            elif continued is not None:
                period = continued
            else:
                periods = ranking_periods(ranking)
                period = periods[0] if periods else ""
        except BadPlace:
            raise NotFound(Pages.invalid_cursor_message) from None
        edition = request.query_params.get("edition")
        return Response(RankingListDetailShape(_detail(request, ranking, period, after, edition)).data)

    @extend_schema(
        operation_id="ranking_change",
        summary="Change a ranking list",
        request=RankingInput,
        parameters=[IDEMPOTENCY],
        responses={200: RankingChangedShape, **REFUSED},
    )
    def put(self, request: Request, ranking_id: str) -> Response:
        ranking: RankingList = self.subject

        def change() -> Response:
            return Response(RankingChangedShape(_ranking(_saved(request, ranking)) | {"replayed": False}).data)

        return keyed_answer(request, ranking, change)

    @extend_schema(operation_id="ranking_delete", summary="Delete a ranking list", responses={204: None, **REFUSED})
    def delete(self, request: Request, ranking_id: str) -> Response:
        ranking_delete(ranking=self.subject)
        return Response(status=204)


class PublishInput(StrictInput):
    period = serializers.CharField(allow_blank=True, max_length=7)
    reason = serializers.CharField(
        allow_blank=True,
        max_length=MAX_REASON,
        required=False,
        default="",
        help_text="Why the period is published anew: asked for where it is published already, refused otherwise.",
    )


class RankingPublishView(PolicyView):
    subject_kind = "ranking"
    action = Action.MANAGE

    @extend_schema(
        operation_id="ranking_publish",
        summary="Publish a period's ranking list",
        description="Keeps the period's list as it stands now, and answers with it as `GET` does (its first page of "
        "places). A period published already is published anew, with a `reason` (a 400 without): the new edition "
        "is the period's list, the one before is kept, marked replaced; 409 when nothing changed since (the same "
        "places ranked by the same method and options).",
        request=PublishInput,
        parameters=[IDEMPOTENCY],
        responses={201: RankingPublishedShape, 200: RankingPublishedShape, **REFUSED},
    )
    def post(self, request: Request, ranking_id: str) -> Response:
        ranking: RankingList = self.subject

        def publish() -> Response:
            body = bounded_body(PublishInput, request)
            period = body["period"]
            ranking_publish(ranking=ranking, period=period, by=signed_in_account(request), reason=body["reason"])
            shown = _detail(request, ranking, period, None) | {"replayed": False}
            return Response(RankingPublishedShape(shown).data, status=201)

        return keyed_answer(request, ranking, publish)


def _detail(
    request: Request, ranking: RankingList, period: str, after: str | None, asked: str | None = None
) -> dict[str, Any]:
    """The period's list with a page of its places (after ``after``; ``asked``: the edition ``?edition=`` names), as
    ``GET`` answers it."""
    try:
        page, edition = ranking_page(ranking, period, asked=asked, after=after, size=Pages().get_page_size(request))
    except BadPlace:
        raise NotFound(Pages.invalid_cursor_message) from None
    except NoSuchEdition:
        raise Invalid.on("edition", NO_SUCH_EDITION) from None
    here = request.build_absolute_uri()
    if request.method != "GET":
        here = replace_query_param(reverse("api:ranking", args=[ranking.public_id], request=request), "period", period)
    return (
        _ranking(ranking)
        | asdict(ranked_by(ranking, edition))
        | {
            "period": period,
            "edition": edition.number if edition is not None else None,
            "published_at": edition.published_at if edition is not None else None,
            "replaced_at": edition.replaced_at if edition is not None else None,
            "reason": edition.reason if edition is not None else "",
            "editions": [
                {
                    "edition": one.number,
                    "published_at": one.published_at,
                    "replaced_at": one.replaced_at,
                    "reason": one.reason,
                }
                for one in period_editions(ranking, period)
            ],
            "rows": [_row(row) for row in page.items],
            "next": replace_query_param(here, "cursor", page.after) if page.after else None,
            "updating": edition is None and ranking_due(ranking),
        }
    )
