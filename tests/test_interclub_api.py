"""The league between clubs through the API: every read (leagues, groups, teams, match days, venues, reports, the
group's table, a team's match days, the players' ranking) and every change at a venue (check-in, seating and
unseating, a paper list, closing, a captain's confirmation, the manager's acceptance and a correction), each with
its retry by Idempotency-Key, its change on a stale version, its bad input, and who may make it: the league's
manager, a captain, the host's secretary, a member of another club, a stranger and somebody without an account."""

import datetime
import html
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.accounts import account_delete
from matches.clubs import services as clubs
from matches.interclub import services as leagues
from matches.interclub.models import (
    CheckIn,
    Correction,
    ReportConfirmation,
    RosterEntry,
    Venue,
    VenueTable,
)
from matches.interclub.selectors import met_again_in, venue_report
from matches.models import KeptAnswer, Player

from .conftest import ModuleData, fresh
from .factories import make_user
from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup

pytestmark = pytest.mark.django_db

SCORES = (3000, 3100, 3200, 3300)


def signed(user: User | None) -> APIClient:
    """A client that sends a token of ``user``'s, as a script would (none: no credentials at all)."""
    client = APIClient()
    if user is not None:
        _, token = AuthToken.objects.create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def address(venue: Venue, what: str = "") -> str:
    return f"/api/v1/venues/{venue.public_id}/" + (f"{what}/" if what else "")


def send(
    client: APIClient, where: str, body: dict[str, Any], *, key: str | None = None, seen: int | None = None
) -> Any:
    headers = {"Idempotency-Key": key or str(uuid.uuid4())}
    if seen is not None:
        headers["If-Match"] = f'"{seen}"'
    method = client.put if where.endswith("/paper/") else client.post
    return method(where, body, format="json", headers=headers)


def version(venue: Venue) -> int:
    return Venue.objects.get(pk=venue.pk).version


def line_up(setup: LeagueSetup, team: int, *seats: int) -> dict[str, Any]:
    """A check-in body for series 1: the team's roster players at ``seats`` (all four regulars when none)."""
    chosen = seats or (0, 1, 2, 3)
    return {
        "series": 1,
        "team": str(setup.teams[team].public_id),
        "players": [str(setup.rosters[team][seat].player.public_id) for seat in chosen],
    }


def played(setup: LeagueSetup) -> None:
    """Every series of the venue checked in, seated and entered from paper, the teams scoring ``SCORES``."""
    for number in range(1, setup.venue.series + 1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.secretaries[0])
        enter_series(setup, number, {team.name: score for team, score in zip(setup.teams, SCORES, strict=True)}, None)


def closed(setup: LeagueSetup) -> Venue:
    played(setup)
    return leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])


@pytest.fixture(scope="module")
def league(module_data: ModuleData) -> LeagueSetup:
    return module_data.build(league_setup, series=2)


@pytest.fixture
def setup(league: LeagueSetup, db: None) -> LeagueSetup:
    return fresh(league)


# --- Reads -----------------------------------------------------------------------------------------------------------


def test_the_leagues_are_listed_in_pages_for_everybody(setup: LeagueSetup) -> None:
    leagues.league_create(owner=make_user("lena"), settings=leagues.LeagueSettings(name="Bezirksliga"))
    first = APIClient().get("/api/v1/leagues/", {"page_size": 1})
    assert first.status_code == 200
    second = APIClient().get(first.json()["next"])
    names = [one["name"] for one in first.json()["results"] + second.json()["results"]]
    assert names == ["Bezirksliga", "Verbandsliga Nord"]
    assert APIClient().get("/api/v1/leagues/", {"page_size": 0}).status_code == 400


def test_a_league_answers_its_rules_divisions_groups_and_your_role(setup: LeagueSetup) -> None:
    where = f"/api/v1/leagues/{setup.league.public_id}/"
    body = signed(setup.manager).get(where).json()
    assert (body["name"], body["scheme"], body["role"], body["series_per_day"]) == (
        "Verbandsliga Nord",
        "seeger-fabian",
        "owner",
        3,
    )
    assert body["divisions"] == [
        {
            "name": "Verbandsliga",
            "level": 1,
            "groups": [{"id": str(setup.group.public_id), "name": "Staffel 1", "promoted": 1, "relegated": 1}],
        }
    ]
    assert APIClient().get(where).json()["role"] is None


def test_a_group_answers_its_teams_and_match_days(setup: LeagueSetup) -> None:
    body = signed(setup.captains[1]).get(f"/api/v1/groups/{setup.group.public_id}/").json()
    assert [team["name"] for team in body["teams"]] == sorted(team.name for team in setup.teams)
    assert [team["name"] for team in body["teams"] if team["yours"]] == ["Kreuz Bube I"]
    assert body["match_days"] == [{"id": str(setup.match_day.public_id), "number": 1, "date": "2026-10-03"}]
    assert (body["league"], body["division"]) == (str(setup.league.public_id), "Verbandsliga")


def test_a_team_answers_its_roster_with_the_substitute_last(setup: LeagueSetup) -> None:
    team = setup.teams[0]
    body = APIClient().get(f"/api/v1/teams/{team.public_id}/").json()
    assert body["club"] == {"id": str(setup.clubs[0].public_id), "name": "Herz Dame"}
    assert [(one["name"], one["substitute"]) for one in body["roster"]] == [
        ("Herz 1", False),
        ("Herz 2", False),
        ("Herz 3", False),
        ("Herz 4", False),
        ("Herz Ersatz", True),
    ]
    assert body["roster"][0]["player"] == str(setup.rosters[0][0].player.public_id)
    assert body["roster"][0]["league_player"] == str(setup.rosters[0][0].league_player.public_id)


def test_a_team_answers_the_league_player_of_one_taken_off_its_roster_and_put_on_again(setup: LeagueSetup) -> None:
    team, entry = setup.teams[1], setup.rosters[1][4]
    leagues.roster_remove(entry=entry)
    leagues.roster_add(team=team, player=entry.player, substitute=True, by=setup.secretaries[1])
    body = APIClient().get(f"/api/v1/teams/{team.public_id}/").json()
    assert body["roster"][-1] == {
        "player": str(entry.player.public_id),
        "league_player": str(entry.league_player.public_id),
        "name": "Kreu Ersatz",
        "substitute": True,
    }


def test_a_match_day_answers_its_venues(setup: LeagueSetup) -> None:
    body = APIClient().get(f"/api/v1/match-days/{setup.match_day.public_id}/").json()
    assert body["venues"] == [
        {
            "id": str(setup.venue.public_id),
            "place": "Vereinsheim Herz Dame",
            "host_club": str(setup.clubs[0].public_id),
            "series": 2,
            "closed": False,
            "accepted": False,
            "teams": [str(team.public_id) for team in setup.teams],
        }
    ]


def test_the_venue_answers_its_line_ups_and_tables_whose_matches_are_scored_through_the_games(
    setup: LeagueSetup,
) -> None:
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.secretaries[0])
    response = APIClient().get(address(setup.venue))
    body = response.json()
    assert response["ETag"] == f'"{body["version"]}"'
    assert body["version"] == version(setup.venue)
    assert [line["team"] for line in body["check_ins"]] == [str(team.public_id) for team in setup.teams]
    assert [player["name"] for player in body["check_ins"][0]["players"]] == ["Herz 1", "Herz 2", "Herz 3", "Herz 4"]
    assert [(table["series"], table["number"], len(table["seats"])) for table in body["tables"]] == [
        (1, number, 4) for number in range(1, 5)
    ]
    match = body["tables"][0]["match"]
    manager = signed(setup.manager)
    assert manager.get(f"/api/v1/matches/{match}/").status_code == 200
    declarer = manager.get(f"/api/v1/matches/{match}/").json()["next"]["playing"][0]
    game = {"contract": "clubs", "matadors": 2, "declarer_card_points": 70}
    entered = manager.post(f"/api/v1/matches/{match}/games/", {"declarer": declarer, "game": game}, format="json")
    assert entered.status_code == 201, entered.content


def test_the_report_table_match_days_and_ranking_of_a_closed_venue(setup: LeagueSetup) -> None:
    venue = closed(setup)
    client = APIClient()
    report = client.get(address(venue, "report")).json()
    assert (report["ready"], report["provisional"]) == (True, True)
    assert (report["accepted_at"], report["accepted_by"]) == (None, None)
    assert [place["score"] for place in report["series"][0]["places"]] == sorted(SCORES, reverse=True)
    best = report["day"][0]
    assert (best["team"], best["points"], best["game_points"]) == (str(setup.teams[3].public_id), "6:0", 6600)
    assert sum(len(table["lines"]) for table in report["series"][1]["tables"]) == 16

    table = client.get(f"/api/v1/groups/{setup.group.public_id}/table/").json()
    assert [row["name"] for row in table["rows"]] == [team.name for team in reversed(setup.teams)]
    assert (table["rows"][0]["mark"], table["rows"][-1]["mark"], table["provisional"]) == (
        "promotion",
        "relegation",
        True,
    )

    days = client.get(f"/api/v1/teams/{setup.teams[0].public_id}/match-days/").json()
    assert [(day["number"], day["points"], day["game_points"], day["closed"]) for day in days] == [
        (1, "0:6", 6000, True)
    ]

    ranking = client.get(f"/api/v1/leagues/{setup.league.public_id}/ranking/").json()
    assert len(ranking["rows"]) == 16
    assert ranking["rows"][0]["series"] == 2
    assert all(row["provisional"] for row in ranking["rows"])


def test_a_team_yet_to_play_has_no_place_nor_mark_in_the_table(setup: LeagueSetup) -> None:
    """As on the page and in the files: the last team that played holds the place down, the one yet to play none."""
    closed(setup)
    club = clubs.club_create(owner=make_user("owner-lippstadt"), name="Lippstadt")
    leagues.team_enter(group=setup.group, club=club, name="Lippstadt I")
    table = APIClient().get(f"/api/v1/groups/{setup.group.public_id}/table/").json()
    assert [(row["rank"], row["name"], row["mark"]) for row in table["rows"][-2:]] == [
        (4, setup.teams[0].name, "relegation"),
        (None, "Lippstadt I", None),
    ]
    schema = APIClient().get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    assert schema["components"]["schemas"]["TableRowShape"]["properties"]["rank"]["nullable"] is True


@pytest.mark.parametrize(
    "where", ["leagues/{id}/", "leagues/{id}/ranking/", "groups/{id}/", "groups/{id}/table/", "teams/{id}/"]
)
def test_a_read_of_nothing_is_a_404(where: str) -> None:
    assert signed(make_user("xaver")).get("/api/v1/" + where.format(id=uuid.uuid4())).status_code == 404


# --- The venue's version -------------------------------------------------------------------------------------------


def test_every_change_at_a_venue_moves_it_on(setup: LeagueSetup) -> None:
    venue, manager = setup.venue, setup.manager
    other_day = leagues.match_day_create(group=setup.group, number=2, date=datetime.date(2026, 11, 7))
    spare = leagues.venue_create(match_day=other_day, teams=setup.teams[:3], place="Gasthof Krone")
    scores = {team.name: score for team, score in zip(setup.teams, SCORES, strict=True)}
    changes: list[Callable[[], object]] = [
        lambda: check_in_all(setup, 1),
        lambda: leagues.series_seat(venue=venue, series=1, user=manager),
        lambda: leagues.series_unseat(venue=venue, series=1),
        lambda: leagues.series_seat(venue=venue, series=1, user=manager),
        lambda: enter_series(setup, 1, scores, None),
        lambda: check_in_all(setup, 2),
        lambda: leagues.series_seat(venue=venue, series=2, user=manager),
        lambda: enter_series(setup, 2, scores, None),
        lambda: leagues.venue_close(venue=venue, user=manager),
        lambda: leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0]),
        lambda: leagues.report_accept(venue=venue, user=manager),
        lambda: leagues.venue_reopen(venue=venue, user=manager, reason="Tischliste 2 falsch addiert"),
    ]
    for change in changes:
        before = version(venue)
        change()
        assert version(venue) > before
    before = version(spare)
    leagues.venue_team_add(venue=spare, team=setup.teams[3])
    assert version(spare) == before + 1


def test_a_change_that_changes_nothing_leaves_the_version(setup: LeagueSetup) -> None:
    venue = setup.venue
    check_in_all(setup, 1)
    leagues.series_seat(venue=venue, series=1, user=setup.manager)
    before = version(venue)
    leagues.series_seat(venue=venue, series=1, user=setup.manager)
    leagues.venue_reopen(venue=venue, user=setup.manager)
    assert version(venue) == before


# --- Check-in ------------------------------------------------------------------------------------------------------


def test_a_captain_checks_their_teams_line_up_in(setup: LeagueSetup) -> None:
    venue = setup.venue
    before = version(venue)
    response = send(signed(setup.captains[1]), address(venue, "check-in"), line_up(setup, 1, 4, 0, 1, 2))
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["version"], body["replayed"]) == (before + 1, False)
    assert response["ETag"] == f'"{before + 1}"'
    assert [player["name"] for player in body["check_ins"][0]["players"]] == [
        "Kreu Ersatz",
        "Kreu 1",
        "Kreu 2",
        "Kreu 3",
    ]
    assert body["check_ins"][0]["players"][0]["substitute"] is True
    again = send(signed(setup.captains[1]), address(venue, "check-in"), line_up(setup, 1))
    assert again.status_code == 200
    checked = CheckIn.objects.filter(venue=venue, team=setup.teams[1])
    assert [one.checked_in_by for one in checked] == [setup.captains[1]] * 4


def test_a_retried_check_in_gets_the_first_answer_and_checks_in_once(setup: LeagueSetup) -> None:
    client, venue = signed(setup.secretaries[0]), setup.venue
    key = str(uuid.uuid4())
    first = send(client, address(venue, "check-in"), line_up(setup, 0), key=key)
    leagues.series_check_in(venue=venue, series=1, team=setup.teams[1], entries=setup.rosters[1][:4])
    again = send(client, address(venue, "check-in"), line_up(setup, 0), key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == {**first.json(), "replayed": True}
    assert again["ETag"] == first["ETag"]
    assert venue.kept_answers.count() == 1
    assert CheckIn.objects.filter(venue=venue).count() == 8


def test_a_key_sent_again_with_another_change_is_a_409(setup: LeagueSetup) -> None:
    client, venue = signed(setup.secretaries[0]), setup.venue
    key = str(uuid.uuid4())
    assert send(client, address(venue, "check-in"), line_up(setup, 0), key=key).status_code == 201
    other = send(client, address(venue, "check-in"), line_up(setup, 1), key=key)
    assert other.status_code == 409
    assert "Idempotency-Key" in other.json()
    assert not CheckIn.objects.filter(team=setup.teams[1]).exists()


def test_a_check_in_on_a_version_no_longer_current_is_a_409_with_the_current_one(setup: LeagueSetup) -> None:
    client, venue = signed(setup.secretaries[0]), setup.venue
    seen = version(venue)
    leagues.series_check_in(venue=venue, series=1, team=setup.teams[1], entries=setup.rosters[1][:4])
    response = send(client, address(venue, "check-in"), line_up(setup, 0), seen=seen)
    assert response.status_code == 409
    assert list(response.json()) == ["venue", "version"]
    assert response.json()["version"] == seen + 1
    assert not CheckIn.objects.filter(team=setup.teams[0]).exists()
    assert send(client, address(venue, "check-in"), line_up(setup, 0), seen=seen + 1).status_code == 201


def test_a_player_checked_in_twice_is_a_400_naming_the_player(setup: LeagueSetup) -> None:
    response = send(signed(setup.secretaries[0]), address(setup.venue, "check-in"), line_up(setup, 0, 0, 1, 2, 0))
    assert response.status_code == 400
    assert response.json() == {"players": {"3": ["Herz 1 is checked in for Herz Dame I twice."]}}
    assert not CheckIn.objects.exists()


def test_a_substitute_not_on_the_roster_is_a_400_naming_the_player(setup: LeagueSetup) -> None:
    outsider = clubs.club_player_add(club=setup.clubs[0], name="Herz Gast")
    body = line_up(setup, 0, 0, 1, 2)
    body["players"].append(str(outsider.public_id))
    body["players"].append(str(uuid.uuid4()))
    response = send(signed(setup.secretaries[0]), address(setup.venue, "check-in"), body)
    assert response.status_code == 400
    assert response.json() == {
        "players": {
            "3": ["Herz Gast is neither in the line-up nor on the substitution list of Herz Dame I."],
            "4": ["Not a player of this club."],
        }
    }


def test_a_player_whose_federation_number_another_clubs_roster_holds_written_otherwise_is_a_400(
    setup: LeagueSetup,
) -> None:
    # Rosters kept from before numbers were compared by their letters and digits may hold one number twice.
    RosterEntry.objects.filter(pk=setup.rosters[0][0].pk).update(federation_number="12-345")
    RosterEntry.objects.filter(pk=setup.rosters[1][0].pk).update(federation_number="12.345")
    response = send(signed(setup.captains[1]), address(setup.venue, "check-in"), line_up(setup, 1))
    assert response.status_code == 400
    assert response.json() == {
        "players": {
            "0": ["Kreu 1 is on the roster of Herz Dame I (Herz Dame): a player plays for one club in a league."]
        }
    }
    assert not CheckIn.objects.exists()


def test_a_player_of_another_team_that_day_is_a_400(setup: LeagueSetup) -> None:
    body = line_up(setup, 0, 0, 1, 2)
    body["players"].append(str(setup.rosters[1][0].player.public_id))
    response = send(signed(setup.manager), address(setup.venue, "check-in"), body)
    assert response.status_code == 400
    assert response.json() == {
        "players": {"3": ["Kreu 1 is neither in the line-up nor on the substitution list of Herz Dame I."]}
    }


@pytest.mark.parametrize("seats", [(0, 1), (0, 1, 2, 3, 4)], ids=["two", "five"])
def test_a_line_up_of_too_few_or_too_many_is_a_400(setup: LeagueSetup, seats: tuple[int, ...]) -> None:
    response = send(signed(setup.manager), address(setup.venue, "check-in"), line_up(setup, 0, *seats))
    assert response.status_code == 400
    assert list(response.json()) == ["players"]


def test_a_fifth_team_is_not_checked_in_at_a_venue_of_four(setup: LeagueSetup) -> None:
    fifth = leagues.team_enter(group=setup.group, club=setup.clubs[0], name="Herz Dame II")
    body = {"series": 1, "team": str(fifth.public_id), "players": [str(uuid.uuid4())] * 3}
    response = send(signed(setup.manager), address(setup.venue, "check-in"), body)
    assert response.status_code == 400
    assert response.json() == {"team": ["Herz Dame II does not play at this venue."]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"series": 9}, "series"),
        ({"series": 0}, "series"),
        ({"team": "not-a-uuid"}, "team"),
        ({"team": "__new__"}, "team"),
        ({"players": []}, "players"),
        ({"players": ["x"]}, "players"),
        ({"guest": True}, "guest"),
    ],
    ids=["series too high", "series zero", "team not a uuid", "team unknown", "nobody", "not a uuid", "unknown field"],
)
def test_a_check_in_that_does_not_fit_is_a_400_naming_the_field(
    setup: LeagueSetup, body: dict[str, Any], field: str
) -> None:
    if body.get("team") == "__new__":
        body = {"team": str(uuid.uuid4())}
    before = version(setup.venue)
    response = send(signed(setup.manager), address(setup.venue, "check-in"), {**line_up(setup, 0), **body})
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert version(setup.venue) == before


def test_a_series_the_venue_does_not_play_is_a_400(setup: LeagueSetup) -> None:
    response = send(signed(setup.manager), address(setup.venue, "check-in"), {**line_up(setup, 0), "series": 3})
    assert response.status_code == 400
    assert response.json() == {"series": ["This venue plays 2 series."]}


def test_a_captain_checks_in_no_other_team(setup: LeagueSetup) -> None:
    response = send(signed(setup.captains[1]), address(setup.venue, "check-in"), line_up(setup, 0))
    assert response.status_code == 400
    assert response.json() == {
        "team": ["Herz Dame I is checked in by its captain, the host's secretaries or the league's managers."]
    }


# --- Seating -------------------------------------------------------------------------------------------------------


def test_the_host_seats_a_series_and_a_second_seating_keeps_its_tables(setup: LeagueSetup) -> None:
    check_in_all(setup, 1)
    client = signed(setup.secretaries[0])
    response = send(client, address(setup.venue, "seat"), {"series": 1})
    assert response.status_code == 201, response.content
    matches = [table["match"] for table in response.json()["tables"]]
    assert len(matches) == 4
    again = send(client, address(setup.venue, "seat"), {"series": 1})
    assert again.status_code == 200
    assert [table["match"] for table in again.json()["tables"]] == matches


def test_seating_a_series_names_at_each_table_the_pairs_that_sit_together_again(setup: LeagueSetup) -> None:
    """Four teams of three at three tables of four: two of the four at each table of series 1 sit together again in
    series 2; the seating's answer names those pairs at their table, by their seats' player, as the venue's page
    names them."""
    client = signed(setup.secretaries[0])
    answers = []
    for series in (1, 2):
        for team, roster in zip(setup.teams, setup.rosters, strict=True):
            leagues.series_check_in(venue=setup.venue, series=series, team=team, entries=roster[:3])
        answers.append(send(client, address(setup.venue, "seat"), {"series": series}).json())
    assert all(table["met_again"] == [] for table in answers[0]["tables"])
    tables = answers[1]["tables"]
    named = {seat["player"]: seat["name"] for table in tables for seat in table["seats"]}
    pairs = [f"{named[one]} & {named[other]}" for table in tables for one, other in table["met_again"]]
    assert pairs == [f"{one} & {other}" for one, other in met_again_in(setup.venue, 2)]
    assert len(pairs) == 3
    assert APIClient().get(address(setup.venue)).json()["tables"] == tables


def test_a_retried_seating_gets_the_first_answer(setup: LeagueSetup) -> None:
    check_in_all(setup, 1)
    client, key = signed(setup.manager), str(uuid.uuid4())
    first = send(client, address(setup.venue, "seat"), {"series": 1}, key=key)
    again = send(client, address(setup.venue, "seat"), {"series": 1}, key=key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == {**first.json(), "replayed": True}
    assert VenueTable.objects.filter(venue=setup.venue).count() == 4


def test_a_seating_on_a_stale_version_is_a_409(setup: LeagueSetup) -> None:
    seen = version(setup.venue)
    check_in_all(setup, 1)
    response = send(signed(setup.manager), address(setup.venue, "seat"), {"series": 1}, seen=seen)
    assert response.status_code == 409
    assert response.json()["version"] == version(setup.venue)
    assert not VenueTable.objects.exists()


def test_a_series_with_nobody_checked_in_is_not_seated(setup: LeagueSetup) -> None:
    response = send(signed(setup.manager), address(setup.venue, "seat"), {"series": 1})
    assert response.status_code == 400
    assert not VenueTable.objects.exists()


def test_an_unplayed_seating_is_dropped_and_a_played_one_stays(setup: LeagueSetup) -> None:
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    client, key = signed(setup.secretaries[0]), str(uuid.uuid4())
    dropped = send(client, address(setup.venue, "unseat"), {"series": 1}, key=key)
    assert dropped.status_code == 200, dropped.content
    assert dropped.json()["tables"] == []
    replayed = send(client, address(setup.venue, "unseat"), {"series": 1}, key=key)
    assert (replayed.status_code, replayed.json()["replayed"]) == (200, True)
    assert send(client, address(setup.venue, "unseat"), {"series": 1}).status_code == 400
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    enter_series(setup, 1, dict(zip([team.name for team in setup.teams], SCORES, strict=True)), None)
    stays = send(client, address(setup.venue, "unseat"), {"series": 1})
    assert stays.status_code == 409
    assert "series" in stays.json()
    assert VenueTable.objects.filter(venue=setup.venue).count() == 4


# --- Paper lists ---------------------------------------------------------------------------------------------------


def seated_table(setup: LeagueSetup) -> VenueTable:
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    return VenueTable.objects.select_related("match").get(venue=setup.venue, series=1, number=1)


def paper_body(table: VenueTable) -> dict[str, Any]:
    players = [seat.player for seat in table.match.seats.select_related("player").order_by("position")]
    return {
        "series": 1,
        "table": table.number,
        "lines": [{"player": str(player.public_id), "game_points": 700, "won": 10, "lost": 0} for player in players],
    }


def test_the_host_enters_a_tables_paper_list_and_a_retry_gets_the_first_answer(setup: LeagueSetup) -> None:
    table = seated_table(setup)
    client, key = signed(setup.secretaries[0]), str(uuid.uuid4())
    first = send(client, address(setup.venue, "paper"), paper_body(table), key=key)
    assert first.status_code == 200, first.content
    assert first.json()["tables"][0]["paper"] is True
    again = send(client, address(setup.venue, "paper"), paper_body(table), key=key)
    assert again.json() == {**first.json(), "replayed": True}
    assert table.match.paper_lines.count() == 4


def test_a_paper_list_on_a_stale_version_is_a_409(setup: LeagueSetup) -> None:
    table = seated_table(setup)
    seen = version(setup.venue) - 1
    response = send(signed(setup.manager), address(setup.venue, "paper"), paper_body(table), seen=seen)
    assert response.status_code == 409
    assert not table.match.paper_lines.exists()


def test_a_paper_list_that_does_not_fit_the_table_is_a_400_naming_the_line(setup: LeagueSetup) -> None:
    table = seated_table(setup)
    client = signed(setup.manager)
    stranger = paper_body(table)
    stranger["lines"][3]["player"] = str(Player.objects.exclude(seats__match=table.match).first().public_id)  # type: ignore[union-attr]
    assert send(client, address(setup.venue, "paper"), stranger).json() == {
        "lines": {"3": {"player": ["One line for each player at the table."]}}
    }
    nowhere = {**paper_body(table), "table": 5}
    assert send(client, address(setup.venue, "paper"), nowhere).json() == {"table": ["Series 1 has no table 5."]}
    too_many = paper_body(table)
    for line in too_many["lines"]:
        line["won"] = 13
    response = send(client, address(setup.venue, "paper"), too_many)
    assert response.status_code == 400
    assert not table.match.paper_lines.exists()


# --- Closing and the report ----------------------------------------------------------------------------------------


def test_an_unfinished_venue_is_not_closed_and_a_finished_one_is(setup: LeagueSetup) -> None:
    client = signed(setup.secretaries[0])
    unfinished = send(client, address(setup.venue, "close"), {})
    assert unfinished.status_code == 409
    assert unfinished.json()["series"] == ["Series 1 is not seated yet.", "Series 2 is not seated yet."]
    played(setup)
    key = str(uuid.uuid4())
    done = send(client, address(setup.venue, "close"), {}, key=key)
    assert done.status_code == 200, done.content
    assert done.json()["closed"] is True
    assert send(client, address(setup.venue, "close"), {}, key=key).json()["replayed"] is True
    assert send(client, address(setup.venue, "close"), {"now": True}).status_code == 400


def test_a_captain_confirms_the_report_once_it_is_ready(setup: LeagueSetup) -> None:
    client = signed(setup.captains[2])
    body = {"team": str(setup.teams[2].public_id)}
    assert send(client, address(setup.venue, "confirm"), body).status_code == 409
    closed(setup)
    key = str(uuid.uuid4())
    first = send(client, address(setup.venue, "confirm"), body, key=key)
    assert first.status_code == 201, first.content
    assert first.json()["confirmed"] == [str(setup.teams[2].public_id)]
    assert send(client, address(setup.venue, "confirm"), body, key=key).json()["replayed"] is True
    assert send(client, address(setup.venue, "confirm"), body).status_code == 200
    assert ReportConfirmation.objects.count() == 1
    stale = send(client, address(setup.venue, "confirm"), body, seen=version(setup.venue) - 2)
    assert stale.status_code == 409


def test_a_confirmation_or_acceptance_meanwhile_refuses_neither_another_captain_nor_the_manager(
    setup: LeagueSetup,
) -> None:
    """Each read the closed venue at one version; each confirmation and the acceptance moves it on, and changes no
    result: as on the report's page, nobody's confirmation or acceptance is refused for them."""
    venue = closed(setup)
    seen = version(venue)
    for number in (1, 2):
        body = {"team": str(setup.teams[number].public_id)}
        response = send(signed(setup.captains[number]), address(venue, "confirm"), body, seen=seen)
        assert response.status_code == 201, response.content
    accepted = send(signed(setup.manager), address(venue, "accept"), {}, seen=seen)
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["confirmed"] == [str(setup.teams[1].public_id), str(setup.teams[2].public_id)]
    assert accepted.json()["accepted"] is True
    assert accepted["ETag"] == f'"{version(venue)}"' == f'"{seen + 3}"'
    body = {"team": str(setup.teams[1].public_id)}
    assert send(signed(setup.captains[1]), address(venue, "confirm"), body, seen=seen).status_code == 200
    # A version the venue never had is refused as ever.
    body = {"team": str(setup.teams[3].public_id)}
    assert send(signed(setup.captains[3]), address(venue, "confirm"), body, seen=seen + 4).status_code == 409


def test_the_report_read_gives_the_version_to_confirm_it_by(setup: LeagueSetup) -> None:
    """The captain reads the report, not the venue, and confirms what it read: the report's ETag is that version."""
    venue = closed(setup)
    captain = signed(setup.captains[1])
    report = captain.get(address(venue, "report"))
    assert report.status_code == 200
    assert report["ETag"] == f'"{version(venue)}"'
    body = {"team": str(setup.teams[1].public_id)}
    headers = {"Idempotency-Key": str(uuid.uuid4()), "If-Match": report["ETag"]}
    assert captain.post(address(venue, "confirm"), body, format="json", headers=headers).status_code == 201


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_confirmation_of_results_changed_since_the_version_read_is_a_409_saying_so(
    setup: LeagueSetup, language: str
) -> None:
    """Pik As I's captain read the report as closed, the league's manager corrected it meanwhile: the confirmation
    naming the version read is refused, with the venue's version now to read the report at; so is one naming a
    version read while the venue still played, and an acceptance from then."""
    played(setup)
    playing = version(setup.venue)
    venue = leagues.venue_close(venue=setup.venue, user=setup.secretaries[0])
    read = version(venue)
    leagues.venue_reopen(venue=venue, user=setup.manager)
    enter_series(setup, 2, {**dict(zip((t.name for t in setup.teams), SCORES, strict=True)), "Herz Dame I": 3100}, None)
    leagues.venue_close(venue=venue, user=setup.manager)
    body = {"team": str(setup.teams[2].public_id)}
    headers = {"Idempotency-Key": str(uuid.uuid4()), "If-Match": f'"{read}"', "Accept-Language": language}
    refused = signed(setup.captains[2]).post(address(venue, "confirm"), body, format="json", headers=headers)
    assert refused.status_code == 409
    said = {
        "en": f"The report's results were changed since version {read} you read (the venue is at version "
        f"{version(venue)} now): read the report as it stands now, then confirm it again.",
        "de": f"Die Ergebnisse des Spielberichts wurden seit Version {read}, die du gelesen hast, geändert (der "
        f"Spielort ist jetzt bei Version {version(venue)}): Lies den Spielbericht, wie er jetzt steht, und "
        "bestätige ihn dann erneut.",
    }
    assert refused.json() == {"venue": [said[language]], "version": version(venue)}
    assert not ReportConfirmation.objects.exists()
    assert send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=playing).status_code == 409
    refused = send(signed(setup.manager), address(venue, "accept"), {}, seen=read)
    assert refused.status_code == 409
    assert refused.json()["venue"][0].endswith("read the report as it stands now, then accept it.")
    assert Venue.objects.get(pk=venue.pk).accepted_at is None
    confirmed = send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=version(venue))
    assert confirmed.status_code == 201, confirmed.content


def test_a_correction_that_changed_no_result_refuses_no_confirmation_or_acceptance_of_the_report_read_before_it(
    setup: LeagueSetup,
) -> None:
    """Pik As I's captain and the league's manager read the report as closed; the host reopened it meanwhile and
    closed it again with its lists entered as they were: the results read are the results that stand, so the
    confirmation and the acceptance naming the version read go through, as from the report's page opened then."""
    venue = closed(setup)
    read, shown = version(venue), venue_report(venue).results_digest()
    leagues.venue_reopen(venue=venue, user=setup.secretaries[0])
    enter_series(setup, 2, dict(zip((team.name for team in setup.teams), SCORES, strict=True)), None)
    leagues.venue_close(venue=venue, user=setup.secretaries[0])
    assert version(venue) > read
    assert venue_report(venue).results_digest() == shown
    body = {"team": str(setup.teams[2].public_id)}
    confirmed = send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=read)
    assert confirmed.status_code == 201, confirmed.content
    accepted = send(signed(setup.manager), address(venue, "accept"), {}, seen=read)
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["accepted"] is True


def test_a_report_corrected_and_corrected_back_since_the_version_read_is_not_confirmed_by_it(
    setup: LeagueSetup,
) -> None:
    """Pik As I's captain reads the report; meanwhile it is corrected (Herz Dame I 3000 → 3100) and corrected back
    (3100 → 3000): the results stand as read, but they were changed twice since, so the confirmation naming the
    version read is refused, as from the report's page opened then; one naming the version now goes through."""
    venue = closed(setup)
    read = version(venue)
    scores = dict(zip((team.name for team in setup.teams), SCORES, strict=True))
    for entered in ({**scores, "Herz Dame I": 3100}, scores):
        leagues.venue_reopen(venue=venue, user=setup.secretaries[0])
        enter_series(setup, 2, entered, None)
        leagues.venue_close(venue=venue, user=setup.secretaries[0])
    body = {"team": str(setup.teams[2].public_id)}
    refused = send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=read)
    assert refused.status_code == 409
    assert refused.json() == {
        "venue": [
            f"The report's results were changed since version {read} you read (the venue is at version "
            f"{version(venue)} now): read the report as it stands now, then confirm it again."
        ],
        "version": version(venue),
    }
    assert not ReportConfirmation.objects.exists()
    confirmed = send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=version(venue))
    assert confirmed.status_code == 201, confirmed.content


def test_a_report_read_while_a_correction_was_made_is_not_confirmed_though_the_results_came_back_as_they_were(
    setup: LeagueSetup,
) -> None:
    """The captain read the report while the venue was reopened, with a list entered wrong for a while: those are
    not the results closed again, as they were before, and the confirmation naming that version is refused; one
    naming the version read before the reopening goes through."""
    venue = closed(setup)
    before = version(venue)
    scores = dict(zip((team.name for team in setup.teams), SCORES, strict=True))
    leagues.venue_reopen(venue=venue, user=setup.secretaries[0])
    enter_series(setup, 2, {**scores, "Herz Dame I": 3100}, None)
    during = version(venue)
    enter_series(setup, 2, scores, None)
    leagues.venue_close(venue=venue, user=setup.secretaries[0])
    body = {"team": str(setup.teams[2].public_id)}
    refused = send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=during)
    assert refused.status_code == 409
    assert refused.json() == {
        "venue": [
            f"The report's results were changed since version {during} you read (the venue is at version "
            f"{version(venue)} now): read the report as it stands now, then confirm it again."
        ],
        "version": version(venue),
    }
    assert send(signed(setup.manager), address(venue, "accept"), {}, seen=during).status_code == 409
    confirmed = send(signed(setup.captains[2]), address(venue, "confirm"), body, seen=before)
    assert confirmed.status_code == 201, confirmed.content


@pytest.mark.parametrize("who", ["host secretary", "another captain", "manager"])
def test_a_confirmation_by_somebody_who_is_not_the_captain_is_a_400(setup: LeagueSetup, who: str) -> None:
    closed(setup)
    user = {"host secretary": setup.secretaries[0], "another captain": setup.captains[1], "manager": setup.manager}
    body = {"team": str(setup.teams[0].public_id)}
    response = send(signed(user[who]), address(setup.venue, "confirm"), body)
    assert response.status_code == 400
    assert "is not the captain of Herz Dame I" in response.json()["team"][0]
    assert not ReportConfirmation.objects.exists()


def test_the_manager_accepts_a_report_once_and_a_second_acceptance_is_refused(setup: LeagueSetup) -> None:
    client = signed(setup.manager)
    assert send(client, address(setup.venue, "accept"), {}).status_code == 409
    closed(setup)
    key = str(uuid.uuid4())
    first = send(client, address(setup.venue, "accept"), {}, key=key)
    assert first.status_code == 200, first.content
    assert first.json()["accepted"] is True
    assert send(client, address(setup.venue, "accept"), {}, key=key).json() == {**first.json(), "replayed": True}
    twice = send(client, address(setup.venue, "accept"), {})
    assert twice.status_code == 409
    assert "a correction reopens it with a reason" in twice.json()["venue"][0]
    assert twice.json()["version"] == version(setup.venue)


def test_an_accepted_report_is_corrected_by_the_manager_with_a_reason(setup: LeagueSetup) -> None:
    venue = closed(setup)
    leagues.report_accept(venue=venue, user=setup.manager)
    client = signed(setup.manager)
    without = send(client, address(venue, "reopen"), {})
    assert without.status_code == 400
    assert without.json() == {"reason": ["Say why the accepted results are corrected."]}
    assert send(signed(setup.secretaries[0]), address(venue, "reopen"), {"reason": "Fehler"}).status_code == 404
    in_german = {"Idempotency-Key": str(uuid.uuid4()), "Accept-Language": "de"}
    refused = signed(setup.secretaries[0]).post(address(venue, "reopen"), {}, format="json", headers=in_german)
    assert refused.json() == {"detail": "Nicht gefunden."}
    seen = version(venue)
    reopened = send(client, address(venue, "reopen"), {"reason": "Tisch 2 falsch addiert"}, seen=seen)
    assert reopened.status_code == 200, reopened.content
    assert reopened.json()["closed"] is False
    assert Correction.objects.get(venue=venue).reason == "Tisch 2 falsch addiert"
    assert send(client, address(venue, "reopen"), {"reason": "noch einmal"}, seen=seen).status_code == 409


def test_a_captain_confirms_a_corrected_report_anew_and_the_earlier_confirmation_is_of_the_earlier_result(
    setup: LeagueSetup,
) -> None:
    venue = closed(setup)
    team = str(setup.teams[0].public_id)
    earlier = leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    leagues.report_accept(venue=venue, user=setup.manager)
    leagues.venue_reopen(venue=venue, user=setup.manager, reason="Tisch 1 falsch addiert")
    enter_series(setup, 2, {**dict(zip((t.name for t in setup.teams), SCORES, strict=True)), "Herz Dame I": 3100}, None)
    leagues.venue_close(venue=venue, user=setup.manager)
    correction = Correction.objects.get(venue=venue)
    assert APIClient().get(address(venue)).json()["confirmed"] == []
    report = APIClient().get(address(venue, "report")).json()
    assert report["confirmed"] == []
    moment = datetime.datetime.fromisoformat
    assert [
        (one["team"], one["by"], moment(one["created_at"]), moment(one["corrected_at"]))
        for one in report["confirmed_before"]
    ] == [(team, "captain0", earlier.created_at, correction.created_at)]
    assert (report["corrections"][0]["by"], report["corrections"][0]["accepted"]) == ("manager", True)
    assert report["corrections"][0]["before"]["2"]["Herz Dame I"] == 3000
    assert report["corrections"][0]["after"]["2"]["Herz Dame I"] == 3100
    accepted_at = Venue.objects.get(pk=venue.pk).accepted_at
    assert (moment(report["accepted_at"]), report["accepted_by"]) == (accepted_at, "manager")
    again = send(signed(setup.captains[0]), address(venue, "confirm"), {"team": team})
    assert again.status_code == 201, again.content
    assert again.json()["confirmed"] == [team]
    assert send(signed(setup.captains[0]), address(venue, "confirm"), {"team": team}).status_code == 200
    report = APIClient().get(address(venue, "report")).json()
    assert [(one["team"], one["by"]) for one in report["confirmed"]] == [(team, "captain0")]
    assert [(one["team"], one["by"]) for one in report["confirmed_before"]] == [(team, "captain0")]
    # The confirmations outlive the captain's account, which is named no more.
    account_delete(user=setup.captains[0])
    report = APIClient().get(address(venue, "report")).json()
    assert [(one["team"], one["by"]) for one in report["confirmed"]] == [(team, None)]
    assert [(one["team"], one["by"]) for one in report["confirmed_before"]] == [(team, None)]
    assert (report["corrections"][0]["by"], report["accepted_by"]) == ("manager", "manager")


def test_the_host_reopens_a_report_not_accepted_and_the_confirmations_are_kept_as_of_the_earlier_result(
    setup: LeagueSetup,
) -> None:
    venue = closed(setup)
    team = str(setup.teams[0].public_id)
    earlier = leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    assert send(signed(setup.captains[0]), address(venue, "reopen"), {}).status_code == 404
    response = send(signed(setup.secretaries[0]), address(venue, "reopen"), {})
    assert response.status_code == 200, response.content
    assert response.json()["confirmed"] == []
    enter_series(setup, 2, {**dict(zip((t.name for t in setup.teams), SCORES, strict=True)), "Herz Dame I": 3100}, None)
    leagues.venue_close(venue=venue, user=setup.manager)
    report = APIClient().get(address(venue, "report")).json()
    assert report["confirmed"] == []
    moment = datetime.datetime.fromisoformat
    assert [(one["team"], one["by"], moment(one["created_at"])) for one in report["confirmed_before"]] == [
        (team, "captain0", earlier.created_at)
    ]
    [correction] = report["corrections"]
    assert (correction["accepted"], correction["reason"], correction["by"]) == (False, "", "secretary0")
    assert (correction["before"]["2"]["Herz Dame I"], correction["after"]["2"]["Herz Dame I"]) == (3000, 3100)
    assert (report["accepted_at"], report["accepted_by"]) == (None, None)
    # The correction outlives the account that reopened the venue, and the acceptance the account that accepted it:
    # neither is named any more.
    account_delete(user=setup.secretaries[0])
    assert [one["by"] for one in APIClient().get(address(venue, "report")).json()["corrections"]] == [None]
    helper = make_user("mia")
    leagues.league_manager_set(league=setup.league, user=helper)
    leagues.report_accept(venue=venue, user=helper)
    assert APIClient().get(address(venue, "report")).json()["accepted_by"] == "mia"
    account_delete(user=helper)
    report = APIClient().get(address(venue, "report")).json()
    assert (report["provisional"], report["accepted_by"]) == (False, None)
    assert moment(report["accepted_at"]) == Venue.objects.get(pk=venue.pk).accepted_at
    # The page says that an account is gone where it named it, in English and in German.
    for language, gone in (("en", "[account deleted]"), ("de", "[Konto gelöscht]")):
        page = Client(headers={"Accept-Language": language}).get(reverse("interclub_report", args=[venue.public_id]))
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).split())
        assert text.count(gone) == 2, text
        assert " by ." not in text
        assert "()" not in text


# --- Who may change a venue ----------------------------------------------------------------------------------------

PERSONAS = ("manager", "captain", "host secretary", "other club", "stranger", "anonymous")


def persona(setup: LeagueSetup, name: str) -> User | None:
    if name == "other club":
        member = make_user("otto")
        clubs.member_set(
            club=clubs.club_create(owner=make_user("olaf"), name="Grand Hand"), username="otto", role="secretary"
        )
        return member
    users = {
        "manager": setup.manager,
        "captain": setup.captains[1],
        "host secretary": setup.secretaries[0],
        "stranger": make_user("xaver"),
    }
    return users.get(name)


def prepared(setup: LeagueSetup, change: str) -> tuple[str, dict[str, Any]]:
    """The venue made ready for ``change`` and the body that makes it: check-in of the captain's team, a seating,
    closing a played venue, confirming for the captain's team, accepting and reopening a closed one."""
    if change == "check-in":
        return change, line_up(setup, 1)
    if change == "seat":
        check_in_all(setup, 1)
        return change, {"series": 1}
    if change == "paper":
        return change, paper_body(seated_table(setup))
    if change == "close":
        played(setup)
        return change, {}
    closed(setup)
    if change == "confirm":
        return change, {"team": str(setup.teams[1].public_id)}
    return change, {}


# What each persona gets for each change: the status of a change made, or the refusal.
ANSWERS = {
    "check-in": {"manager": 201, "captain": 201, "host secretary": 201},
    "seat": {"manager": 201, "host secretary": 201},
    "paper": {"manager": 200, "host secretary": 200},
    "close": {"manager": 200, "host secretary": 200},
    "confirm": {"captain": 201, "manager": 400, "host secretary": 400},
    "accept": {"manager": 200},
    "reopen": {"manager": 200, "host secretary": 200},
}


@pytest.mark.parametrize("change", list(ANSWERS))
@pytest.mark.parametrize("who", PERSONAS)
def test_each_persona_changes_a_venue_as_the_league_says(setup: LeagueSetup, change: str, who: str) -> None:
    what, body = prepared(setup, change)
    before = version(setup.venue)
    response = send(signed(persona(setup, who)), address(setup.venue, what), body)
    refused = 401 if who == "anonymous" else 404
    assert response.status_code == ANSWERS[change].get(who, refused), response.content
    if response.status_code >= 400:
        assert version(setup.venue) == before
        assert not KeptAnswer.objects.exists()


@pytest.mark.parametrize("who", PERSONAS)
def test_everybody_reads_a_venue_and_its_report_naming_whom_its_page_names(setup: LeagueSetup, who: str) -> None:
    user = persona(setup, who)
    client = signed(user)
    for where in (address(setup.venue), address(setup.venue, "report")):
        assert client.get(where).status_code == 200
    venue = closed(setup)
    leagues.report_confirm(venue=venue, team=setup.teams[1], user=setup.captains[1])
    leagues.report_accept(venue=venue, user=setup.manager)
    report = client.get(address(venue, "report")).json()
    assert [(one["team"], one["by"]) for one in report["confirmed"]] == [(str(setup.teams[1].public_id), "captain1")]
    assert report["accepted_by"] == "manager"
    browser = Client()
    if user is not None:
        browser.force_login(user)
    page = browser.get(reverse("interclub_report", args=[venue.public_id])).content.decode()
    assert "Kreuz Bube I (captain1)" in page
    assert "by manager." in page


# --- The schema ----------------------------------------------------------------------------------------------------


def test_the_schema_lists_every_address_of_the_leagues_with_its_answers() -> None:
    schema = APIClient().get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    reads = [
        "/api/v1/leagues/",
        "/api/v1/leagues/{league_id}/",
        "/api/v1/leagues/{league_id}/ranking/",
        "/api/v1/groups/{group_id}/",
        "/api/v1/groups/{group_id}/table/",
        "/api/v1/teams/{team_id}/",
        "/api/v1/teams/{team_id}/match-days/",
        "/api/v1/match-days/{match_day_id}/",
        "/api/v1/venues/{venue_id}/",
        "/api/v1/venues/{venue_id}/report/",
    ]
    for path in reads:
        operation = schema["paths"][path]["get"]
        assert operation["summary"], path
        assert "200" in operation["responses"], path
    changes = {
        ("check-in", "post"): {"201", "200"},
        ("seat", "post"): {"201", "200"},
        ("unseat", "post"): {"200"},
        ("paper", "put"): {"200"},
        ("close", "post"): {"200"},
        ("confirm", "post"): {"201", "200"},
        ("accept", "post"): {"200"},
        ("reopen", "post"): {"200"},
    }
    for (what, method), answers in changes.items():
        operation = schema["paths"][f"/api/v1/venues/{{venue_id}}/{what}/"][method]
        assert operation["summary"], what
        assert ("requestBody" in operation) == (what not in {"close", "accept"}), what
        assert answers | {"400", "401", "404", "409"} <= set(operation["responses"]), what
        assert {"Idempotency-Key", "If-Match"} <= {parameter["name"] for parameter in operation["parameters"]}, what
    venue = schema["paths"]["/api/v1/venues/{venue_id}/"]["get"]["responses"]["200"]
    shape = venue["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert {"version", "check_ins", "tables"} <= set(schema["components"]["schemas"][shape]["properties"])


def test_a_venue_and_its_report_cost_as_many_queries_however_many_tables_it_has(setup: LeagueSetup) -> None:
    client = signed(setup.manager)

    def counted(where: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(where).status_code == 200
        return len(queries.captured_queries)

    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    one = [counted(address(setup.venue)), counted(address(setup.venue, "report"))]
    check_in_all(setup, 2)
    leagues.series_seat(venue=setup.venue, series=2, user=setup.manager)
    assert [counted(address(setup.venue)), counted(address(setup.venue, "report"))] == one


def test_a_report_costs_as_many_queries_however_many_confirmed_corrected_or_accepted_it(setup: LeagueSetup) -> None:
    client = signed(setup.manager)

    def counted() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(address(setup.venue, "report")).status_code == 200
        return len(queries.captured_queries)

    venue = closed(setup)
    leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    once = counted()
    for _ in range(2):
        leagues.venue_reopen(venue=venue, user=setup.secretaries[0])
        leagues.venue_close(venue=venue, user=setup.manager)
        for team, captain in zip(setup.teams, setup.captains, strict=True):
            leagues.report_confirm(venue=venue, team=team, user=captain)
    leagues.report_accept(venue=venue, user=setup.manager)
    report = client.get(address(venue, "report")).json()
    assert (len(report["confirmed"]), len(report["confirmed_before"]), len(report["corrections"])) == (4, 5, 2)
    assert counted() == once


def test_a_closed_venue_refuses_every_change_under_the_venue(setup: LeagueSetup) -> None:
    venue, client = closed(setup), signed(setup.manager)
    table = VenueTable.objects.select_related("match").get(venue=venue, series=1, number=1)
    changes: dict[str, dict[str, Any]] = {
        "check-in": line_up(setup, 0),
        "seat": {"series": 1},
        "unseat": {"series": 1},
        "paper": paper_body(table),
    }
    for what, body in changes.items():
        response = send(client, address(venue, what), body)
        assert (response.status_code, response.json()) == (
            409,
            {"venue": ["This venue's lists are closed; nothing was changed."], "version": version(venue)},
        ), what
