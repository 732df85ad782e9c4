"""The API answers kept by Idempotency-Key, of every kind of event: the daily cleanup starts the task worker, which
drops the answers older than a retry can come and keeps their keys (so that a late retry is refused, not taken as
new); newer answers stay whole."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from matches.clubs import services as clubs
from matches.clubs.models import Night
from matches.models import KeptAnswer
from matches.tasks import ANSWERS_KEPT, forget_expired

from .factories import make_user, run_tasks
from .interclub_setup import league_setup
from .tournaments_setup import announce


@pytest.mark.django_db(transaction=True)
def test_the_daily_cleanup_drops_old_answers_of_every_kind_and_keeps_their_keys() -> None:
    owner = make_user("olga")
    season = clubs.season_create(
        club=clubs.club_create(owner=owner, name="Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    things: list[models.Model] = [
        clubs.night_create(season=season, date=datetime.date(2026, 11, 24)),
        league_setup(series=2).venue,
        announce(),
    ]
    old = timezone.now() - ANSWERS_KEPT - datetime.timedelta(minutes=1)
    for thing in things:
        for age in (old, timezone.now()):
            KeptAnswer.objects.create(thing=thing, key=uuid.uuid4(), asked="x", answer={"version": 1}, created_at=age)
    forget_expired()
    run_tasks()
    for thing in things:
        kept = sorted(
            KeptAnswer.objects.filter(kind=ContentType.objects.get_for_model(thing), thing_id=thing.pk).values_list(
                "created_at", "answer"
            ),
            key=lambda row: row[0],
        )
        assert [answer for _, answer in kept] == [None, {"version": 1}]


@pytest.mark.django_db
def test_a_thing_deleted_takes_its_kept_answers_with_it_and_leaves_the_others() -> None:
    season = clubs.season_create(
        club=clubs.club_create(owner=make_user("olga"), name="Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    gone, staying = (clubs.night_create(season=season, date=datetime.date(2026, 11, day)) for day in (24, 25))
    for night in (gone, staying):
        KeptAnswer.objects.create(thing=night, key=uuid.uuid4(), asked="x", answer={"version": 1})
    # A night deleted (as the admin deletes it, or with its season): its answers go with it, by the relation.
    Night.objects.filter(pk=gone.pk).delete()
    assert list(KeptAnswer.objects.values_list("thing_id", flat=True)) == [staying.pk]
    assert list(staying.kept_answers.values_list("answer", flat=True)) == [{"version": 1}]
