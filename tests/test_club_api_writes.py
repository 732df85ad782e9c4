"""What a secretary does to a club night: each change moves the night's version on."""

import datetime
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.clubs.models import Attendance, Club, ClubTable, Night
from matches.models import Player, Seat

from .factories import make_user

pytestmark = pytest.mark.django_db

WON_CLUBS: dict[str, Any] = {"contract": "clubs", "matadors": 2, "declarer_card_points": 70}
NAMES = ("Ida", "Jan", "Kai", "Lea", "Max", "Nils", "Ole")


@dataclass(frozen=True)
class ClubNight:
    """A club with its owner, a secretary, a scorer and a member; an open night of its season with seven of its
    players checked in (not drawn yet) and an eighth, Pia, on its roster but not come."""

    owner: User
    secretary: User
    scorer: User
    member: User
    club: Club
    night: Night
    players: dict[str, Player]


@pytest.fixture
def club_night() -> ClubNight:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Herz Dame")
    users = {role: make_user(name) for role, name in (("secretary", "sara"), ("scorer", "sven"), ("member", "mia"))}
    for role, user in users.items():
        clubs.member_set(club=club, username=user.username, role=role)
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in NAMES:
        clubs.check_in(night=night, name=name)
    players = {player.name: player for player in Player.objects.filter(keeper=club.keeper)}
    players["Pia"] = clubs.club_player_add(club=club, name="Pia")
    return ClubNight(owner, users["secretary"], users["scorer"], users["member"], club, night, players)


def signed(user: User) -> APIClient:
    """A client that sends a token of ``user``'s, as a script would."""
    client = APIClient()
    _, token = AuthToken.objects.create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def address(night: Night, what: str) -> str:
    return f"/api/v1/nights/{night.public_id}/{what}/"


def send(
    client: APIClient, where: str, body: dict[str, Any], *, key: str | None = None, seen: int | None = None
) -> Any:
    headers = {"Idempotency-Key": key or str(uuid.uuid4())}
    if seen is not None:
        headers["If-Match"] = f'"{seen}"'
    method = client.put if where.endswith("/paper/") else client.post
    return method(where, body, format="json", headers=headers)


def version(night: Night) -> int:
    return Night.objects.get(pk=night.pk).version


def checked_in(night: Night) -> list[str]:
    return list(
        Attendance.objects.filter(night=night).order_by("created_at", "pk").values_list("player__name", flat=True)
    )


def drawn(setting: ClubNight) -> list[ClubTable]:
    clubs.night_draw(night=setting.night, series=1, user=setting.owner)
    return list(ClubTable.objects.filter(night=setting.night).select_related("match").order_by("number"))


def seated(table: ClubTable) -> list[Player]:
    return [
        seat.player for seat in Seat.objects.filter(match=table.match).select_related("player").order_by("position")
    ]


# --- The night's version -------------------------------------------------------------------------------------------


def test_every_change_the_nights_page_makes_moves_the_night_on(club_night: ClubNight) -> None:
    night, owner, players = club_night.night, club_night.owner, club_night.players
    changes: list[Callable[[], object]] = [
        lambda: clubs.check_in(night=night, player=players["Pia"]),
        lambda: clubs.pot_set(night=night, player=players["Pia"], in_pot=False),
        lambda: clubs.check_out(night=night, player=players["Pia"]),
        lambda: clubs.night_draw(night=night, series=1, user=owner),
        lambda: clubs.seats_swap(night=night, series=1, first=players["Ida"], second=players["Jan"], user=owner),
        lambda: clubs.series_drop(night=night, series=1, user=owner),
        lambda: clubs.night_redate(night=night, date=datetime.date(2026, 11, 25), user=owner),
        lambda: clubs.night_close(night=night, user=owner),
        lambda: clubs.night_reopen(night=night, user=owner),
    ]
    for change in changes:
        before = version(night)
        change()
        assert version(night) == before + 1


def test_a_change_that_changes_nothing_leaves_the_version(club_night: ClubNight) -> None:
    night = club_night.night
    before = version(night)
    clubs.check_in(night=night, player=club_night.players["Ida"])
    clubs.night_reopen(night=night, user=club_night.owner)
    assert version(night) == before
