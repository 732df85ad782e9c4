"""Ranking lists: defined (and changed) by anybody with an account over the events they may count, published period
by period (and anew, a period's list corrected, keeping what was published before), deleted. Every option is
checked, and a list over no closed list or with a minimum nobody reaches is refused, with nothing stored."""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict, Invalid
from ..models import (
    ClosedList,
    Counted,
    Method,
    Period,
    Player,
    RankingDue,
    RankingEdition,
    RankingEvent,
    RankingList,
    RankingPlace,
)
from ..rankings import (
    STANDING,
    countable_events,
    counted_lists,
    counted_periods,
    current_edition,
    period_of,
    ranking_periods,
    ranking_shown,
    ranking_standing,
    rules_of,
)
from ..registry import lists_circles, lists_countable_by

MAX_NAME = 100
# What a list's options take at most: series, best results, places in a table, the field the points are for.
MAX_COUNT = 999
MAX_PLACES = 200
MAX_FIELD = 10000
# The reason given for publishing a period anew, at most.
MAX_REASON = 200
# Places written at a time.
PLACES_WRITTEN = 2000


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
    most = max(
        (row.series for period in counted_periods(ranking) for row in ranking_standing(reaching, period)), default=0
    )
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
        RankingEvent.objects.filter(ranking=saved).delete()
        RankingEvent.objects.bulk_create(RankingEvent(ranking=saved, within=within) for within in set(saved.events))
        ranking_keep(saved)
        return saved


def ranking_publish(*, ranking: RankingList, period: str, by: User | None, reason: str = "") -> RankingEdition:
    """Keep the period's ranking list as it stands now, as published: later closings change the list as it stands,
    not this, with every list closed until now in it. A period published already is published anew (a list of it
    corrected since): the new edition is the period's list, the one before is kept as it was and marked replaced, and
    ``reason`` says why (asked for then, and only then). Refused for a period the list has no lists in, for publishing
    anew without a reason, and for publishing anew what is published already: the same rows ranked by the same
    rules."""
    rankings_catch_up(ranking)
    if period not in ranking_periods(ranking):
        raise Invalid.on("period", gettext_noop("The list has no lists in this period."))
    reason = " ".join(reason.split())
    if len(reason) > MAX_REASON:
        raise Invalid.on("reason", gettext_noop("At most {count} characters."), count=MAX_REASON)
    with transaction.atomic():
        RankingList.objects.select_for_update().get(pk=ranking.pk)
        # Read under the list's lock: of two publishings at once, the second finds the first's edition.
        current = current_edition(ranking, period)
        rows = [
            asdict(row) | {"person": str(row.person) if row.person else None, "score": str(row.score)}
            for row in ranking_shown(ranking, period, STANDING)[0]
        ]
        rules = rules_of(ranking)
        now = timezone.now()
        if current is not None:
            if current.rows == rows and current.rules == rules:
                raise Conflict.on(
                    "period", gettext_noop("This period's list is published already, and nothing changed since.")
                )
            if not reason:
                raise Invalid.on("reason", gettext_noop("Say why the list is published anew: what was corrected."))
            RankingEdition.objects.filter(pk=current.pk).update(replaced_at=now, replaced_by=by)
        elif reason:
            raise Invalid.on(
                "reason", gettext_noop("This period's list is not published yet: a reason goes with publishing anew.")
            )
        return RankingEdition.objects.create(
            ranking=ranking,
            period=period,
            number=current.number + 1 if current is not None else 1,
            rows=rows,
            rules=rules,
            published_at=now,
            published_by=by,
            reason=reason,
        )


def ranking_delete(*, ranking: RankingList) -> None:
    ranking.delete()


def ranking_keep(ranking: RankingList, periods: Collection[str] | None = None) -> None:
    """Keep the ranking's places as they stand (``RankingPlace``), of ``periods`` (None: of every period, as for a
    list just defined or changed), with the periods that have lists: what its page reads."""
    with transaction.atomic():
        locked = RankingList.objects.select_for_update().get(pk=ranking.pk)
        if periods is None or locked.kept_at is None:
            having = set(counted_periods(locked))
            kept = RankingPlace.objects.filter(ranking=locked)
            wanted = having
        else:
            having, wanted = set(locked.periods), set(periods)
            for period in wanted:
                if counted_lists(locked, period).exists():
                    having.add(period)
                else:
                    having.discard(period)
            kept = RankingPlace.objects.filter(ranking=locked, period__in=list(wanted))
        kept.delete()
        RankingPlace.objects.bulk_create(
            (
                RankingPlace(
                    ranking=locked,
                    period=period,
                    place=row.place,
                    player_id=row.player,
                    person_id=row.person,
                    series=row.series,
                    events=row.events,
                    total=row.total,
                    score=str(row.score),
                )
                for period in sorted(wanted & having)
                for row in ranking_standing(locked, period)
            ),
            batch_size=PLACES_WRITTEN,
        )
        locked.periods = sorted(having, reverse=True)
        locked.kept_at = timezone.now()
        locked.save(update_fields=["periods", "kept_at"])
        ranking.periods, ranking.kept_at = locked.periods, locked.kept_at


def rankings_follow(lists: Iterable[tuple[uuid.UUID, datetime.date]]) -> None:
    """The places of every ranking that counts one of ``lists`` (closed or reopened, or their players joined or
    split: each as its event and day) to be kept anew, of the periods those fall in: noted as due, in the caller's
    transaction, and kept by the task worker (``rankings_catch_up``)."""
    days: defaultdict[uuid.UUID, set[datetime.date]] = defaultdict(set)
    for within, day in lists:
        days[within].add(day)
    if not days:
        return
    counting = RankingEvent.objects.filter(within__in=list(days)).values_list("ranking_id", flat=True).distinct()
    due = [
        RankingDue(ranking=ranking, period=period)
        for ranking in RankingList.objects.filter(pk__in=list(counting)).order_by("pk")
        for period in sorted(
            {
                period_of(ranking, day)
                for within in ranking.events
                for day in days.get(uuid.UUID(within), ())
                if (ranking.date_from is None or day >= ranking.date_from)
                and (ranking.date_to is None or day <= ranking.date_to)
            }
        )
    ]
    if due:
        RankingDue.objects.bulk_create(due)
        rankings_catch_up_run.enqueue()


def rankings_catch_up(ranking: RankingList | None = None) -> int:
    """Keep the places of every period due (of ``ranking``'s alone, where given) and remove the rows read: a period
    that falls due meanwhile keeps its row for the next round. Returns how many rankings were kept."""
    due = RankingDue.objects.order_by("pk")
    if ranking is not None:
        due = due.filter(ranking=ranking)
    waiting: defaultdict[int, dict[int, str]] = defaultdict(dict)
    for pk, ranking_id, period in due.values_list("pk", "ranking_id", "period"):
        waiting[ranking_id][pk] = period
    for ranking_id, periods in waiting.items():
        with transaction.atomic():
            kept = RankingList.objects.filter(pk=ranking_id).first()
            if kept is not None:
                ranking_keep(kept, set(periods.values()))
            RankingDue.objects.filter(pk__in=list(periods)).delete()
        if ranking is not None and kept is not None:
            ranking.periods, ranking.kept_at = kept.periods, kept.kept_at
    return len(waiting)


@task()
def rankings_catch_up_run() -> None:
    """The task worker's round of ``rankings_catch_up``: one for every change that made periods due, the first of
    several in a row keeping what all of them made due."""
    rankings_catch_up()


def ranking_due(ranking: RankingList) -> bool:
    """Whether places of the ranking wait to be kept anew: a list closed a moment ago is not in them yet."""
    return RankingDue.objects.filter(ranking=ranking).exists()


def rankings_follow_players(players: Iterable[int]) -> None:
    """The places of every ranking that counts a list of ``players`` kept anew (they were joined or split)."""
    lists = ClosedList.objects.filter(player_id__in=list(players)).order_by().values_list("within", "date")
    rankings_follow(lists.distinct())


def rankings_follow_people(players: Iterable[Player], people: Iterable[int | None] = ()) -> None:
    """The places of every ranking that counts a list of ``players``, of the people they are joined to now, or of
    ``people`` (those they were joined to before) kept anew: who counts as whom changed."""
    moved = {player.pk for player in players}
    now = Player.objects.filter(pk__in=moved, person__isnull=False).values_list("person_id", flat=True)
    persons = {*now, *people} - {None}
    held = Player.objects.filter(person__in=persons).values_list("pk", flat=True) if persons else []
    rankings_follow_players(moved | set(held))


def rankings_rescore(*, check: bool) -> dict[RankingList, int]:
    """Every kept ranking's places worked out afresh and compared with those kept: for each ranking whose places
    differ, how many periods. With ``check`` nothing is written; otherwise those are kept anew, and so is every
    ranking never kept. The periods due are kept first (without ``check``: they wait for the worker, and are not
    compared)."""
    if not check:
        rankings_catch_up()
    differing: dict[RankingList, int] = {}
    for ranking in RankingList.objects.order_by("pk").iterator():
        if ranking.kept_at is None:
            if not check:
                ranking_keep(ranking)
            continue
        due = set(RankingDue.objects.filter(ranking=ranking).values_list("period", flat=True))
        periods = [period for period in counted_periods(ranking) if period not in due]
        changed = int(periods != [period for period in ranking.periods if period not in due])
        for period in periods:
            kept = [
                (place.place, place.player_id, place.person_id, place.series, place.events, place.total, place.score)
                for place in RankingPlace.objects.filter(ranking=ranking, period=period).order_by("place", "pk")
            ]
            fresh = [
                (row.place, row.player, row.person, row.series, row.events, row.total, str(row.score))
                for row in ranking_standing(ranking, period)
            ]
            changed += kept != fresh
        if changed:
            differing[ranking] = changed
            if not check:
                ranking_keep(ranking)
    return differing
