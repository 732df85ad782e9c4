"""The statements written once (``matches.rows``) give and write exactly what the ORM gives and writes: every field
converted as the ORM converts it (moments, uuids, JSON, flags), the one relation read with it, on either database."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import models
from django.utils import timezone

from matches.models import Match, MatchEvent, Profile, Seat
from matches.rows import row_inserted, row_updated, rows_read

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


def _fields(instance: models.Model) -> dict[str, Any]:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_an_account_is_read_with_its_preferences_as_the_orm_reads_it() -> None:
    user = make_user("anna")
    user.last_login = timezone.now()
    user.save()
    Profile.objects.update_or_create(user=user, defaults={"deck": "german"})
    (read,) = rows_read(User, "id", user.pk, joined="profile")
    expected = User.objects.select_related("profile").get(pk=user.pk)
    assert _fields(read) == _fields(expected)
    assert _fields(read.profile) == _fields(expected.profile)
    assert read.profile.user is read
    assert not read._state.adding


def test_an_account_without_preferences_has_none_as_with_the_orm() -> None:
    user = make_user("ben")
    Profile.objects.filter(user=user).delete()
    (read,) = rows_read(User, "id", user.pk, joined="profile")
    with pytest.raises(User.profile.RelatedObjectDoesNotExist):
        read.profile  # noqa: B018
    assert rows_read(User, "id", 10**9, joined="profile") == []


def test_a_match_is_found_by_its_public_id_with_its_book_and_its_seats_in_order() -> None:
    match = make_match(make_user("cleo"), names=("Dora", "Anna", "Emil"))
    add(match, declarer=1, contract="grand", matadors=1, declarer_card_points=70)
    (read,) = rows_read(Match, "public_id", match.public_id, joined="keeper")
    expected = Match.objects.select_related("keeper").get(pk=match.pk)
    assert _fields(read) == _fields(expected)
    assert _fields(read.keeper) == _fields(expected.keeper)
    assert read.totals == expected.totals
    assert isinstance(read.rules, dict)
    seats = rows_read(Seat, "match", match.pk, joined="player", ordered_by="position")
    assert [(seat.position, seat.player.name) for seat in seats] == [(0, "Dora"), (1, "Anna"), (2, "Emil")]
    assert rows_read(Match, "public_id", uuid.uuid4(), joined="keeper") == []


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
