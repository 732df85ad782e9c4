"""The statements written once (``matches.rows``) write exactly what the ORM writes: every field prepared as the ORM
prepares it (moments, uuids, JSON, flags), on either database."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import models

from matches.models import Match, MatchEvent
from matches.rows import row_inserted, row_updated

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


def _fields(instance: models.Model) -> dict[str, Any]:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_a_row_inserted_and_updated_is_what_the_orm_would_have_written() -> None:
    match = make_match(make_user("dora"))
    game = add(match, declarer=0, contract="hearts", matadors=2, declarer_card_points=80)
    change = MatchEvent(
        match=match,
        game=game,
        action=MatchEvent.Action.EDIT,
        token=uuid.uuid4(),
        version=7,
        number=1,
        before={"passed": False, "entry": {"contract": "hearts"}},
        after=None,
    )
    row_inserted(change)
    assert change.pk is not None
    assert not change._state.adding
    assert _fields(MatchEvent.objects.get(pk=change.pk)) == _fields(change)

    match.totals, match.version, match.deals = [1, -2, 3], match.version + 1, 5
    before = match.updated_at
    row_updated(match, ["version", "deals", "totals", "updated_at"])
    stored = Match.objects.get(pk=match.pk)
    assert (stored.totals, stored.version, stored.deals) == ([1, -2, 3], match.version, 5)
    assert stored.updated_at == match.updated_at > before
