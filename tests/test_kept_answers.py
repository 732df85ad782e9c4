"""The API answers kept by Idempotency-Key, of every kind of event: the daily cleanup starts the task worker, which
drops the answers older than a retry can come and keeps their keys (so that a late retry is refused, not taken as
new); newer answers stay whole."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.db import models
from django.utils import timezone

from matches.clubs import services as clubs
from matches.clubs.models import NightRequest
from matches.interclub.models import VenueRequest
from matches.registry import kept_answers
from matches.tasks import ANSWERS_KEPT, forget_expired
from matches.tournaments.models import TournamentRequest

from .factories import make_user, run_tasks
from .interclub_setup import league_setup
from .tournaments_setup import announce


@pytest.mark.django_db(transaction=True)
def test_the_daily_cleanup_drops_old_answers_of_every_kind_and_keeps_their_keys() -> None:
    assert set(kept_answers()) == {NightRequest, VenueRequest, TournamentRequest}
    owner = make_user("olga")
    season = clubs.season_create(
        club=clubs.club_create(owner=owner, name="Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    owners: list[tuple[type[models.Model], dict[str, object]]] = [
        (NightRequest, {"night": night}),
        (VenueRequest, {"venue": league_setup(series=2).venue}),
        (TournamentRequest, {"tournament": announce()}),
    ]
    old = timezone.now() - ANSWERS_KEPT - datetime.timedelta(minutes=1)
    for model, owner_of in owners:
        for age in (old, timezone.now()):
            row = model._default_manager.create(**owner_of, key=uuid.uuid4(), asked="x", answer={"version": 1})
            model._default_manager.filter(pk=row.pk).update(created_at=age)
    forget_expired()
    run_tasks()
    for model, _ in owners:
        kept = sorted(model._default_manager.values_list("created_at", "answer"), key=lambda row: row[0])
        assert [answer for _, answer in kept] == [None, {"version": 1}]
