"""Ranking lists: defined (and changed) by anybody with an account over the events they may count, published period
by period, deleted. Every option is checked, and a list over no closed list or with a minimum nobody reaches is
refused, with nothing stored."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from django.contrib.auth.models import User
from django.db import transaction

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Invalid
from ..models import Counted, Method, Period, RankingEdition, RankingList
from ..rankings import countable_events, counted_lists, ranking_periods, ranking_rows
from ..registry import lists_circles, lists_countable_by

MAX_NAME = 100
# What a list's options take at most: series, best results, places in a table, the field the points are for.
MAX_COUNT = 999
MAX_PLACES = 200
MAX_FIELD = 10000


@dataclass(frozen=True)
class RankingForm:
    """A ranking list as asked for: ``events`` by their public ids, ``circle`` the public id of a club whose players
    count (with ``counted`` "book"), ``places`` the points of the first place, the second, and so on."""

    name: str
    events: Sequence[str]
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    period: str = Period.WHOLE
    counted: str = Counted.EVERYBODY
    circle: str = ""
    method: str = Method.AVERAGE
    minimum: int = 1
    best: int = 1
    places: Sequence[int] = field(default_factory=tuple)
    field: int = 100
    public: bool = False


def _checked(owner: User, form: RankingForm, errors: list[FieldError]) -> dict[str, object]:
    def refuse(name: str, template: str, **params: int | str) -> None:
        errors.append(FieldError(name, msg(template, **params)))

    name = " ".join(form.name.split())
    if not name or len(name) > MAX_NAME:
        refuse("name", gettext_noop("Give the list a name of up to {count} characters."), count=MAX_NAME)
    offered = {str(event.within): event for event in countable_events(owner, keep=form.events)}
    countable = set(offered)
    public_kinds, _ = lists_countable_by(owner)
    events = []
    for raw in form.events:
        try:
            events.append(str(uuid.UUID(str(raw))))
        except ValueError:
            events.append(str(raw))
    if not events or any(event not in countable for event in events):
        refuse("events", gettext_noop("Choose the events to count from those offered."))
    chosen = [offered[event] for event in events if event in offered]
    if form.public and any(event.kind not in public_kinds for event in chosen):
        refuse(
            "public",
            gettext_noop("A list over a club's nights is for the club's members: it is not shown to everybody."),
        )
    if form.date_from and form.date_to and form.date_to < form.date_from:
        refuse("date_to", gettext_noop("The end is before the start."))
    if form.period not in Period.values:
        refuse("period", gettext_noop("Choose one of the periods offered."))
    if form.counted not in Counted.values:
        refuse("counted", gettext_noop("Choose who counts from those offered."))
    book = None
    if form.counted == Counted.BOOK:
        book = next((keeper for public_id, keeper, _ in lists_circles(owner) if str(public_id) == form.circle), None)
        if book is None:
            refuse("circle", gettext_noop("Choose one of your clubs."))
    if form.method not in Method.values:
        refuse("method", gettext_noop("Choose one of the methods offered."))
    for name_of, value in (("minimum", form.minimum), ("best", form.best)):
        if not 1 <= value <= MAX_COUNT:
            refuse(name_of, gettext_noop("Between {low} and {high}."), low=1, high=MAX_COUNT)
    if form.method == Method.PLACES and (
        not form.places or len(form.places) > MAX_PLACES or any(not 0 <= points <= MAX_FIELD for points in form.places)
    ):
        refuse(
            "places",
            gettext_noop("Write the points of each place, the first place's first: up to {count} whole numbers."),
            count=MAX_PLACES,
        )
    if not 1 <= form.field <= MAX_FIELD:
        refuse("field", gettext_noop("Between {low} and {high}."), low=1, high=MAX_FIELD)
    return {
        "name": name,
        "events": events,
        "date_from": form.date_from,
        "date_to": form.date_to,
        "period": form.period,
        "counted": form.counted,
        "book_id": book,
        "method": form.method,
        "minimum": form.minimum,
        "best": form.best,
        "places": list(form.places) if form.method == Method.PLACES else [],
        "field": form.field,
        "public": form.public,
    }


def _check_lists(ranking: RankingList) -> None:
    """Refuse a list that counts no closed list, and an average whose minimum nobody reaches in any period."""
    lists = counted_lists(ranking)
    if not lists.exists():
        raise Invalid.on("events", gettext_noop("No closed list of these events falls in these dates."))
    if ranking.method != Method.AVERAGE or ranking.minimum == 1:
        return
    reaching = replace_minimum(ranking)
    most = max((row.series for period in ranking_periods(ranking) for row in ranking_rows(reaching, period)), default=0)
    if most < ranking.minimum:
        raise Invalid.on(
            "minimum",
            gettext_noop("Nobody has played {minimum} series in a period of these events: the most is {most}."),
            minimum=ranking.minimum,
            most=most,
        )


def replace_minimum(ranking: RankingList) -> RankingList:
    """The ranking as it would be with no minimum: whom it counts, however many series they played."""
    unbounded = RankingList(
        **{field.attname: getattr(ranking, field.attname) for field in RankingList._meta.concrete_fields}
    )
    unbounded.minimum = 1
    return unbounded


def ranking_save(*, owner: User, form: RankingForm, ranking: RankingList | None = None) -> RankingList:
    """A ranking list defined by ``owner`` (or ``ranking`` changed), checked whole: every refusal at once."""
    errors: list[FieldError] = []
    values = _checked(owner, form, errors)
    if errors:
        raise Invalid(errors)
    with transaction.atomic():
        saved = ranking or RankingList(owner=owner)
        for name, value in values.items():
            setattr(saved, name, value)
        _check_lists(saved)
        saved.save()
        return saved


def ranking_publish(*, ranking: RankingList, period: str, by: User | None) -> RankingEdition:
    """Keep the period's ranking list as it stands now, as published: later closings change the list as it stands,
    not this. Refused for a period the list has no lists in, and for one published already."""
    if period not in ranking_periods(ranking):
        raise Invalid.on("period", gettext_noop("The list has no lists in this period."))
    with transaction.atomic():
        RankingList.objects.select_for_update().get(pk=ranking.pk)
        if RankingEdition.objects.filter(ranking=ranking, period=period).exists():
            raise Conflict.on("period", gettext_noop("This period's list is published already."))
        rows = [
            asdict(row) | {"person": str(row.person) if row.person else None, "score": str(row.score)}
            for row in ranking_rows(ranking, period)
        ]
        return RankingEdition.objects.create(ranking=ranking, period=period, rows=rows, published_by=by)


def ranking_delete(*, ranking: RankingList) -> None:
    ranking.delete()
