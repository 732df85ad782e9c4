"""What a secretary does on a night's page, through the API: check-in and check-out, the draw, a swap of seats, a
paper list, closing and reopening. Each write, its retry with the same Idempotency-Key (the first answer, nothing
changed twice), a change made on a version of the night that is no longer current (409 with the current one), its
bad input (400 with messages by field), and who may make it."""

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
from matches.models import KeptAnswer, Match, PaperLine, Player, Seat

from .factories import add, make_user

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


def test_the_night_answers_with_its_version_as_etag_and_who_came(club_night: ClubNight) -> None:
    response = signed(club_night.member).get(f"/api/v1/nights/{club_night.night.public_id}/")
    assert response.status_code == 200
    body = response.json()
    assert response["ETag"] == f'"{body["version"]}"'
    assert body["version"] == version(club_night.night)
    assert [attendee["name"] for attendee in body["attendees"]] == list(NAMES)
    assert {attendee["in_pot"] for attendee in body["attendees"]} == {True}


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


# --- Check-in and check-out ----------------------------------------------------------------------------------------


def test_a_secretary_checks_a_player_of_the_club_in(club_night: ClubNight) -> None:
    night = club_night.night
    before = version(night)
    response = send(
        signed(club_night.secretary), address(night, "check-in"), {"player": str(club_night.players["Pia"].public_id)}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["attendees"][-1]["name"] == "Pia"
    assert (body["version"], body["replayed"]) == (before + 1, False)
    assert response["ETag"] == f'"{before + 1}"'
    assert checked_in(night) == [*NAMES, "Pia"]


def test_a_walk_in_guest_is_checked_in_by_name_and_joins_the_clubs_players(club_night: ClubNight) -> None:
    response = send(signed(club_night.secretary), address(club_night.night, "check-in"), {"name": "  Walter  "})
    assert response.status_code == 201, response.content
    assert response.json()["attendees"][-1] == {
        "player": str(Player.objects.get(keeper=club_night.club.keeper, name="Walter").public_id),
        "name": "Walter",
        "guest": True,
        "in_pot": True,
    }


def test_a_retried_check_in_gets_the_first_answer_and_checks_in_once(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    key = str(uuid.uuid4())
    first = send(client, address(night, "check-in"), {"name": "Walter"}, key=key)
    clubs.check_in(night=night, player=club_night.players["Pia"])  # the night moves on meanwhile
    again = send(client, address(night, "check-in"), {"name": "Walter"}, key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == {**first.json(), "replayed": True}
    assert again["ETag"] == first["ETag"]
    assert checked_in(night) == [*NAMES, "Walter", "Pia"]
    assert night.kept_answers.count() == 1


def test_a_key_sent_again_with_another_change_is_a_409(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    key = str(uuid.uuid4())
    assert send(client, address(night, "check-in"), {"name": "Walter"}, key=key).status_code == 201
    other = send(client, address(night, "check-in"), {"name": "Xenia"}, key=key)
    assert other.status_code == 409
    assert "Idempotency-Key" in other.json()
    assert "Xenia" not in checked_in(night)


def test_a_check_in_made_on_a_version_no_longer_current_is_a_409_with_the_current_one(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    seen = version(night)
    clubs.check_in(night=night, name="Walter")
    response = send(client, address(night, "check-in"), {"player": str(club_night.players["Pia"].public_id)}, seen=seen)
    assert response.status_code == 409
    assert response.json()["version"] == seen + 1
    assert list(response.json()) == ["night", "version"]
    assert "Pia" not in checked_in(night)
    current = send(
        client, address(night, "check-in"), {"player": str(club_night.players["Pia"].public_id)}, seen=seen + 1
    )
    assert current.status_code == 201


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"player": str(uuid.uuid4())}, "player"),
        ({}, "player"),
        ({"player": None, "name": " "}, "player"),
        ({"name": "Walter", "player": "__pia__"}, "player"),
        ({"player": "not-a-uuid"}, "player"),
        ({"name": "x" * 61}, "name"),
        ({"name": "Walter", "guest": True}, "guest"),
    ],
    ids=["unknown", "nobody", "blank name", "both", "not a uuid", "name too long", "unknown field"],
)
def test_a_check_in_of_nobody_the_club_knows_is_a_400_naming_the_field(
    club_night: ClubNight, body: dict[str, Any], field: str
) -> None:
    night = club_night.night
    if body.get("player") == "__pia__":
        body = {**body, "player": str(club_night.players["Pia"].public_id)}
    before = version(night)
    response = send(signed(club_night.secretary), address(night, "check-in"), body)
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert (version(night), checked_in(night)) == (before, list(NAMES))


def test_a_player_of_another_club_is_not_checked_in(club_night: ClubNight) -> None:
    elsewhere = clubs.club_create(owner=make_user("otto"), name="Kreuz Bube")
    stranger = clubs.club_player_add(club=elsewhere, name="Pia")
    response = send(
        signed(club_night.secretary), address(club_night.night, "check-in"), {"player": str(stranger.public_id)}
    )
    assert response.status_code == 400
    assert response.json() == {"player": ["Not a player of this club."]}


@pytest.mark.parametrize("by", ["player", "name"])
def test_a_player_checked_in_twice_is_a_400(club_night: ClubNight, by: str) -> None:
    night = club_night.night
    body = {"player": str(club_night.players["Ida"].public_id)} if by == "player" else {"name": "ida"}
    before = version(night)
    response = send(signed(club_night.secretary), address(night, "check-in"), body)
    assert response.status_code == 400
    assert response.json() == {by: ["Ida is checked in already."]}
    assert version(night) == before


def test_a_secretary_checks_a_player_out_and_a_retry_changes_nothing_more(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    key = str(uuid.uuid4())
    body = {"player": str(club_night.players["Ida"].public_id)}
    first = send(client, address(night, "check-out"), body, key=key)
    assert first.status_code == 200, first.content
    assert "Ida" not in [attendee["name"] for attendee in first.json()["attendees"]]
    clubs.check_in(night=night, player=club_night.players["Ida"])  # back again: a retry must not check her out
    again = send(client, address(night, "check-out"), body, key=key)
    assert (again.status_code, again.json()) == (200, {**first.json(), "replayed": True})
    assert "Ida" in checked_in(night)


def test_a_check_out_on_a_stale_version_is_a_409(club_night: ClubNight) -> None:
    night = club_night.night
    seen = version(night)
    clubs.check_in(night=night, name="Walter")
    response = send(
        signed(club_night.owner),
        address(night, "check-out"),
        {"player": str(club_night.players["Ida"].public_id)},
        seen=seen,
    )
    assert (response.status_code, response.json()["version"]) == (409, seen + 1)
    assert "Ida" in checked_in(night)


def test_checking_out_somebody_not_checked_in_or_seated_is_refused(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    absent = send(client, address(night, "check-out"), {"player": str(club_night.players["Pia"].public_id)})
    assert (absent.status_code, absent.json()) == (400, {"player": ["Pia is not checked in."]})
    unknown = send(client, address(night, "check-out"), {"player": str(uuid.uuid4())})
    assert (unknown.status_code, list(unknown.json())) == (400, ["player"])
    drawn(club_night)
    at_a_table = send(client, address(night, "check-out"), {"player": str(club_night.players["Ida"].public_id)})
    assert at_a_table.status_code == 409
    assert at_a_table.json()["player"] == ["Ida sits at a table already."]


# --- The draw and the seats ----------------------------------------------------------------------------------------


def test_a_secretary_draws_a_series_from_the_nights_seed(club_night: ClubNight) -> None:
    night = club_night.night
    response = send(signed(club_night.secretary), address(night, "draw"), {"series": 1})
    assert response.status_code == 201, response.content
    tables = response.json()["tables"]
    assert sorted(len(table["seats"]) for table in tables) == [3, 4]
    assert {table["seed"] for table in tables} == {f"{night.seed}/1"}
    assert {seat["name"] for table in tables for seat in table["seats"]} == set(NAMES)
    assert Match.objects.filter(club_table__night=night).count() == 2


def test_a_retried_draw_draws_once(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    key = str(uuid.uuid4())
    first = send(client, address(night, "draw"), {"series": 1, "again": True}, key=key)
    again = send(client, address(night, "draw"), {"series": 1, "again": True}, key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["tables"] == first.json()["tables"]
    assert Match.objects.filter(club_table__night=night).count() == 2


def test_a_series_is_drawn_anew_only_when_asked(club_night: ClubNight) -> None:
    client, night = signed(club_night.secretary), club_night.night
    first = send(client, address(night, "draw"), {})
    twice = send(client, address(night, "draw"), {})
    assert twice.status_code == 409
    assert twice.json()["series"] == ["Series 1 is drawn already: send again: true to draw it anew before play."]
    anew = send(client, address(night, "draw"), {"again": True})
    assert anew.status_code == 201
    assert {table["seed"] for table in anew.json()["tables"]} != {table["seed"] for table in first.json()["tables"]}
    table = ClubTable.objects.filter(night=night, series=1).order_by("number").first()
    assert table is not None
    add(table.match, declarer=table.match.setup().seating(1).forehand, **WON_CLUBS)
    played = send(client, address(night, "draw"), {"again": True})
    assert (played.status_code, played.json()["series"]) == (409, ["Series 1 is being played; its tables stay."])


def test_a_series_seated_by_ranking_with_the_guests_from_a_table(club_night: ClubNight) -> None:
    night = club_night.night
    clubs.check_in(night=night, name="Walter", guest=True)
    response = send(signed(club_night.owner), address(night, "draw"), {"seating": "ranking", "guests_from": 2})
    assert response.status_code == 201, response.content
    tables = response.json()["tables"]
    assert [(table["seed"], table["guests_from"]) for table in tables] == [("", 2), ("", 2)]
    assert "Walter" in {seat["name"] for seat in tables[1]["seats"]}


def test_a_series_seated_by_the_one_before_is_a_409_until_that_one_has_a_result(club_night: ClubNight) -> None:
    night = club_night.night
    Night.objects.filter(pk=night.pk).update(series=2)
    client, by_series = signed(club_night.secretary), {"series": 2, "seating": "series"}
    undrawn = send(client, address(night, "draw"), by_series)
    assert undrawn.status_code == 409, undrawn.content
    assert undrawn.json()["seating"] == [
        "Series 1 is not drawn yet: it has no result to seat by. Draw this series or seat it by the season's ranking."
    ]
    first, second = drawn(club_night)
    add(first.match, declarer=first.match.setup().seating(1).forehand, **WON_CLUBS)
    clubs.paper_enter(table=second, lines=[(player, 0, 0, 0) for player in seated(second)])
    unfinished = send(client, address(night, "draw"), by_series)
    assert unfinished.status_code == 409, unfinished.content
    assert unfinished.json()["seating"] == [
        "Series 1 has no result yet: table 1 has not played all its games. Draw this series or seat it by the "
        "season's ranking, or wait until that table has finished."
    ]
    assert not ClubTable.objects.filter(night=night, series=2).exists()


def test_a_series_whose_table_stopped_early_is_seated_by_it_with_unfinished_true(club_night: ClubNight) -> None:
    night = club_night.night
    Night.objects.filter(pk=night.pk).update(series=2)
    client, by_series = signed(club_night.secretary), {"series": 2, "seating": "series"}
    first, second = drawn(club_night)
    winner = first.match.setup().seating(1).forehand
    add(first.match, declarer=winner, **WON_CLUBS)
    clubs.paper_enter(table=second, lines=[(player, 0, 0, 0) for player in seated(second)])
    refused = send(client, address(night, "draw"), by_series)
    assert refused.status_code == 409, refused.content
    assert refused.json()["unfinished"] == [
        "Table 1 of series 1 has 1 of its 48 games on the list.",
        "Send unfinished: true to seat by the lists as they stand.",
    ]
    assert not ClubTable.objects.filter(night=night, series=2).exists()
    response = send(client, address(night, "draw"), {**by_series, "unfinished": True})
    assert response.status_code == 201, response.content
    top = response.json()["tables"][2]
    assert (top["series"], top["number"]) == (2, 1)
    assert seated(first)[winner].name in {seat["name"] for seat in top["seats"]}


def test_a_draw_on_a_stale_version_is_a_409_and_draws_nothing(club_night: ClubNight) -> None:
    night = club_night.night
    seen = version(night)
    clubs.check_in(night=night, player=club_night.players["Pia"])
    response = send(signed(club_night.secretary), address(night, "draw"), {}, seen=seen)
    assert (response.status_code, response.json()["version"]) == (409, seen + 1)
    assert not ClubTable.objects.filter(night=night).exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"series": 2}, "series"),
        ({"seating": "by-age"}, "seating"),
        ({"series": 0}, "series"),
        ({"again": "yes"}, "again"),
    ],
    ids=[
        "a series the night has not",
        "unknown seating",
        "series 0",
        "again not a boolean",
    ],
)
def test_a_draw_the_night_cannot_make_is_a_400(club_night: ClubNight, body: dict[str, Any], field: str) -> None:
    response = send(signed(club_night.secretary), address(club_night.night, "draw"), body)
    assert response.status_code == 400, response.content
    assert field in response.json()


NOT_A_BOOLEAN = "Must be true or false."


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("true", NOT_A_BOOLEAN),
        ("yes", NOT_A_BOOLEAN),
        (1, NOT_A_BOOLEAN),
        ("on", NOT_A_BOOLEAN),
        (None, "This field may not be null."),
    ],
    ids=["true", "yes", "1", "on", "null"],
)
def test_a_draw_takes_unfinished_as_true_or_false_only(club_night: ClubNight, value: Any, said: str) -> None:
    # What a lenient reader would take for true is refused under unfinished, as a value it does not take.
    response = send(signed(club_night.secretary), address(club_night.night, "draw"), {"unfinished": value})
    assert response.status_code == 400, response.content
    assert response.json() == {"unfinished": [said]}
    assert not ClubTable.objects.filter(night=club_night.night).exists()


def test_a_draw_with_too_few_players_is_a_400(club_night: ClubNight) -> None:
    night = club_night.night
    for name in NAMES[2:]:
        clubs.check_out(night=night, player=club_night.players[name])
    response = send(signed(club_night.secretary), address(night, "draw"), {})
    assert response.status_code == 400
    assert list(response.json()) == ["attendees"]
    assert not ClubTable.objects.filter(night=night).exists()


def test_a_secretary_swaps_two_players_seats_before_play(club_night: ClubNight) -> None:
    first_table, second_table = drawn(club_night)
    one, other = seated(first_table)[0], seated(second_table)[0]
    client, night = signed(club_night.secretary), club_night.night
    key = str(uuid.uuid4())
    body = {"first": str(one.public_id), "second": str(other.public_id)}
    response = send(client, address(night, "swap"), body, key=key)
    assert response.status_code == 200, response.content
    assert (seated(first_table)[0], seated(second_table)[0]) == (other, one)
    again = send(client, address(night, "swap"), body, key=key)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert (seated(first_table)[0], seated(second_table)[0]) == (other, one)


def test_a_swap_on_a_stale_version_is_a_409(club_night: ClubNight) -> None:
    first_table, second_table = drawn(club_night)
    one, other = seated(first_table)[0], seated(second_table)[0]
    seen = version(club_night.night)
    clubs.pot_set(night=club_night.night, player=one, in_pot=False)
    body = {"first": str(one.public_id), "second": str(other.public_id)}
    response = send(signed(club_night.secretary), address(club_night.night, "swap"), body, seen=seen)
    assert (response.status_code, response.json()["version"]) == (409, seen + 1)
    assert seated(first_table)[0] == one


def test_a_swap_after_play_started_is_refused_with_its_reason(club_night: ClubNight) -> None:
    first_table, second_table = drawn(club_night)
    add(first_table.match, declarer=first_table.match.setup().seating(1).forehand, **WON_CLUBS)
    one, other = seated(first_table)[0], seated(second_table)[0]
    body = {"first": str(one.public_id), "second": str(other.public_id)}
    response = send(signed(club_night.secretary), address(club_night.night, "swap"), body)
    assert response.status_code == 409
    assert response.json()["series"] == ["Series 1 is being played; its tables stay."]
    assert seated(first_table)[0] == one


def test_a_swap_of_players_not_seated_or_not_known_is_a_400(club_night: ClubNight) -> None:
    [table, _] = drawn(club_night)
    one = seated(table)[0]
    client, night = signed(club_night.secretary), club_night.night
    for body, field in (
        ({"first": str(one.public_id), "second": str(uuid.uuid4())}, "second"),
        ({"first": str(one.public_id), "second": str(one.public_id)}, "second"),
        ({"first": str(one.public_id), "second": str(club_night.players["Pia"].public_id)}, "player"),
        ({"first": str(one.public_id)}, "second"),
    ):
        response = send(client, address(night, "swap"), body)
        assert response.status_code == 400, body
        assert field in response.json(), body
    itself = send(client, address(night, "swap"), {"first": str(one.public_id), "second": str(one.public_id)})
    assert itself.json()["second"] == [f"Choose a player other than {one.name} to swap with."]


# --- A table's paper list ------------------------------------------------------------------------------------------


def paper_body(table: ClubTable, rows: list[tuple[int, int, int]], series: int = 1) -> dict[str, Any]:
    lines = [
        {"player": str(player.public_id), "game_points": points, "won": won, "lost": lost}
        for player, (points, won, lost) in zip(seated(table), rows, strict=True)
    ]
    return {"series": series, "table": table.number, "lines": lines}


def test_a_scorer_enters_a_tables_paper_list(club_night: ClubNight) -> None:
    [table, _] = drawn(club_night)
    rows = [(18, 1, 0), (0, 0, 0), (-36, 0, 1), (0, 0, 0)][: len(seated(table))]
    key = str(uuid.uuid4())
    client = signed(club_night.scorer)
    response = send(client, address(club_night.night, "paper"), paper_body(table, rows), key=key)
    assert response.status_code == 200, response.content
    assert response.json()["tables"][0]["paper"] is True
    stored = {
        line.player_id: (line.game_points, line.won, line.lost) for line in PaperLine.objects.filter(match=table.match)
    }
    assert stored == {player.pk: row for player, row in zip(seated(table), rows, strict=True)}
    again = send(client, address(club_night.night, "paper"), paper_body(table, rows), key=key)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert PaperLine.objects.filter(match=table.match).count() == len(rows)


def test_a_paper_list_on_a_stale_version_is_a_409(club_night: ClubNight) -> None:
    [table, _] = drawn(club_night)
    seen = version(club_night.night)
    clubs.check_in(night=club_night.night, player=club_night.players["Pia"])
    body = paper_body(table, [(0, 0, 0)] * len(seated(table)))
    response = send(signed(club_night.secretary), address(club_night.night, "paper"), body, seen=seen)
    assert (response.status_code, response.json()["version"]) == (409, seen + 1)
    assert not PaperLine.objects.exists()


def test_a_paper_list_that_cannot_be_right_is_a_400_naming_its_line(club_night: ClubNight) -> None:
    [table, _] = drawn(club_night)
    count = len(seated(table))
    client, where = signed(club_night.secretary), address(club_night.night, "paper")
    unreachable = send(client, where, paper_body(table, [(5, 0, 0)] + [(0, 0, 0)] * (count - 1)))
    assert unreachable.status_code == 400
    assert unreachable.json() == {
        "lines": {"0": {"game_points": ["No 0 won and 0 lost games add up to 5 game points."]}}
    }
    too_many = send(client, where, paper_body(table, [(0, 30, 0), (0, 30, 0)] + [(0, 0, 0)] * (count - 2)))
    assert too_many.status_code == 400
    assert list(too_many.json()) == ["lines"]
    short = paper_body(table, [(0, 0, 0)] * count)
    short["lines"] = short["lines"][:-1]
    assert send(client, where, short).json() == {"lines": ["One line for each player at the table."]}
    unknown = paper_body(table, [(0, 0, 0)] * count)
    unknown["lines"][0]["player"] = str(uuid.uuid4())
    assert send(client, where, unknown).json() == {
        "lines": {"0": {"player": ["One line for each player at the table."]}}
    }
    negative = paper_body(table, [(0, -1, 0)] + [(0, 0, 0)] * (count - 1))
    assert send(client, where, negative).status_code == 400
    assert not PaperLine.objects.exists()


def test_a_paper_list_for_a_table_the_night_has_not_is_a_400_naming_it(club_night: ClubNight) -> None:
    [table, _] = drawn(club_night)
    client, where = signed(club_night.secretary), address(club_night.night, "paper")
    other_series = paper_body(table, [(0, 0, 0)] * len(seated(table)), series=2)
    other_series_answer = send(client, where, other_series)
    assert (other_series_answer.status_code, other_series_answer.json()) == (
        400,
        {"table": ["Series 2 has no table 1."]},
    )
    ninth = {**paper_body(table, [(0, 0, 0)] * len(seated(table))), "table": 9}
    assert send(client, where, ninth).json() == {"table": ["Series 1 has no table 9."]}
    assert send(client, where, {"lines": ninth["lines"]}).json() == {"table": ["This field is required."]}


# --- Closing and reopening -----------------------------------------------------------------------------------------


def test_closing_a_night_with_a_table_unfinished_is_a_400_naming_it(club_night: ClubNight) -> None:
    tables = drawn(club_night)
    clubs.paper_enter(table=tables[0], lines=[(player, 0, 0, 0) for player in seated(tables[0])])
    response = send(signed(club_night.secretary), address(club_night.night, "close"), {})
    assert response.status_code == 400
    assert response.json() == {
        "unfinished": [
            "Table 2 of series 1 has no games: its players get no list.",
            "Send unfinished: true to close the night as it stands.",
        ]
    }
    assert not Night.objects.get(pk=club_night.night.pk).closed


def test_a_secretary_closes_the_night_and_a_retry_closes_it_once(club_night: ClubNight) -> None:
    drawn(club_night)
    client, night = signed(club_night.secretary), club_night.night
    key = str(uuid.uuid4())
    first = send(client, address(night, "close"), {"unfinished": True}, key=key)
    assert first.status_code == 200, first.content
    assert first.json()["closed"] is True
    again = send(client, address(night, "close"), {"unfinished": True}, key=key)
    assert (again.status_code, again.json()) == (200, {**first.json(), "replayed": True})
    late = send(client, address(night, "check-in"), {"name": "Walter"})
    assert late.status_code == 409
    assert late.json()["version"] == first.json()["version"]


def test_a_night_whose_tables_are_all_in_closes_without_asking(club_night: ClubNight) -> None:
    for table in drawn(club_night):
        clubs.paper_enter(table=table, lines=[(player, 0, 0, 0) for player in seated(table)])
    response = send(signed(club_night.owner), address(club_night.night, "close"), {})
    assert (response.status_code, response.json()["closed"]) == (200, True)


def test_closing_on_a_stale_version_is_a_409(club_night: ClubNight) -> None:
    seen = version(club_night.night)
    clubs.check_in(night=club_night.night, player=club_night.players["Pia"])
    response = send(signed(club_night.owner), address(club_night.night, "close"), {"unfinished": True}, seen=seen)
    assert (response.status_code, response.json()["version"]) == (409, seen + 1)
    assert not Night.objects.get(pk=club_night.night.pk).closed


def test_the_owner_reopens_a_closed_night_a_secretary_cannot(club_night: ClubNight) -> None:
    night = club_night.night
    clubs.night_close(night=night, user=club_night.owner)
    assert send(signed(club_night.secretary), address(night, "reopen"), {}).status_code == 404
    seen = version(night)
    stale = send(signed(club_night.owner), address(night, "reopen"), {}, seen=seen - 1)
    assert (stale.status_code, stale.json()["version"]) == (409, seen)
    key = str(uuid.uuid4())
    response = send(signed(club_night.owner), address(night, "reopen"), {}, key=key, seen=seen)
    assert (response.status_code, response.json()["closed"], response.json()["version"]) == (200, False, seen + 1)
    clubs.night_close(night=night, user=club_night.owner)
    again = send(signed(club_night.owner), address(night, "reopen"), {}, key=key, seen=seen)
    assert (again.status_code, again.json()["replayed"]) == (200, True)
    assert Night.objects.get(pk=night.pk).closed
    assert send(signed(club_night.owner), address(night, "reopen"), {"now": True}).status_code == 400


# --- Who may -------------------------------------------------------------------------------------------------------


def writes(setting: ClubNight) -> dict[str, dict[str, Any]]:
    """Each write with a body that would change the night, by its address."""
    night = setting.night
    return {
        address(night, "check-in"): {"player": str(setting.players["Pia"].public_id)},
        address(night, "check-out"): {"player": str(setting.players["Ida"].public_id)},
        address(night, "draw"): {"series": 1},
        address(night, "swap"): {
            "first": str(setting.players["Ida"].public_id),
            "second": str(setting.players["Jan"].public_id),
        },
        address(night, "paper"): {"table": 1, "lines": []},
        address(night, "close"): {"unfinished": True},
        address(night, "reopen"): {},
    }


def test_only_the_clubs_secretaries_and_owner_change_a_night(club_night: ClubNight) -> None:
    """A scorer enters paper lists only; a member, a member of another club and a stranger meet nothing (404);
    without credentials, or with a token revoked, the answer is 401; a refused request changes nothing."""
    other_club = clubs.club_create(owner=make_user("otto"), name="Kreuz Bube")
    outsider = make_user("oskar")
    clubs.member_set(club=other_club, username="oskar", role="secretary")
    revoked = signed(club_night.secretary)
    AuthToken.objects.filter(user=club_night.secretary).delete()
    refused: list[tuple[str, APIClient, set[int]]] = [
        ("member", signed(club_night.member), {404}),
        ("secretary of another club", signed(outsider), {404}),
        ("stranger", signed(make_user("xaver")), {404}),
        ("anonymous", APIClient(), {401}),
        ("revoked token", revoked, {401}),
    ]
    before = version(club_night.night)
    for where, body in writes(club_night).items():
        for name, client, statuses in [*refused, ("scorer", signed(club_night.scorer), {404})]:
            if name == "scorer" and where.endswith("/paper/"):
                continue
            response = send(client, where, body)
            assert response.status_code in statuses, (name, where, response.status_code)
    assert version(club_night.night) == before
    assert not KeptAnswer.objects.exists()


def test_a_scorer_may_send_a_paper_list_and_a_secretarys_token_writes(club_night: ClubNight) -> None:
    night = club_night.night
    for user in (club_night.secretary, club_night.owner):
        response = send(signed(user), address(night, "check-in"), {"name": f"Guest of {user.username}"})
        assert response.status_code == 201, user.username
    drawn(club_night)
    paper = send(signed(club_night.scorer), address(night, "paper"), {"table": 1, "lines": []})
    assert (paper.status_code, list(paper.json())) == (400, ["lines"])


def test_a_member_reads_the_night_but_changes_nothing(club_night: ClubNight) -> None:
    client = signed(club_night.member)
    assert client.get(f"/api/v1/nights/{club_night.night.public_id}/").status_code == 200
    assert client.get(address(club_night.night, "draw")).status_code == 405
    assert send(client, address(club_night.night, "draw"), {}).status_code == 404


# --- The schema ----------------------------------------------------------------------------------------------------


def test_the_schema_lists_every_change_to_a_night_with_its_answers(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    operations = {
        ("/api/v1/nights/{night_id}/check-in/", "post"): {"201", "200"},
        ("/api/v1/nights/{night_id}/check-out/", "post"): {"200"},
        ("/api/v1/nights/{night_id}/draw/", "post"): {"201", "200"},
        ("/api/v1/nights/{night_id}/swap/", "post"): {"200"},
        ("/api/v1/nights/{night_id}/paper/", "put"): {"200"},
        ("/api/v1/nights/{night_id}/close/", "post"): {"200"},
        ("/api/v1/nights/{night_id}/reopen/", "post"): {"200"},
    }
    for (path, method), answers in operations.items():
        operation = schema["paths"][path][method]
        assert answers | {"400", "401", "404", "409"} <= set(operation["responses"]), path
        assert {"Idempotency-Key", "If-Match"} <= {parameter["name"] for parameter in operation["parameters"]}, path
    night = schema["paths"]["/api/v1/nights/{night_id}/"]["get"]["responses"]["200"]
    shape = night["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert {"version", "attendees"} <= set(schema["components"]["schemas"][shape]["properties"])


def test_a_closed_night_refuses_every_change_under_the_night(club_night: ClubNight) -> None:
    tables = drawn(club_night)
    night, client = club_night.night, signed(club_night.owner)
    clubs.night_close(night=night, user=club_night.owner, unfinished=True)
    first, second = seated(tables[0])[:2]
    changes: dict[str, dict[str, Any]] = {
        "check-in": {"name": "Walter"},
        "check-out": {"player": str(first.public_id)},
        "draw": {"series": 1, "again": True},
        "swap": {"series": 1, "first": str(first.public_id), "second": str(second.public_id)},
        "paper": paper_body(tables[0], [(0, 0, 0)] * len(seated(tables[0]))),
    }
    for what, body in changes.items():
        response = send(client, address(night, what), body)
        assert (response.status_code, response.json()) == (
            409,
            {"night": ["This night is closed; nothing was changed."], "version": version(night)},
        ), what
