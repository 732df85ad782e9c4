"""The league between clubs through the API: every read (leagues, groups, teams, match days, venues, reports, the
group's table, a team's match days, the players' ranking) and every change at a venue (check-in, seating and
unseating, a paper list, closing, a captain's confirmation, the manager's acceptance and a correction), each with
its retry by Idempotency-Key, its change on a stale version, its bad input, and who may make it: the league's
manager, a captain, the host's secretary, a member of another club, a stranger and somebody without an account."""

import datetime
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from knox.models import AuthToken
from rest_framework.test import APIClient

from matches.clubs import services as clubs
from matches.interclub import services as leagues
from matches.interclub.models import (
    CheckIn,
    Correction,
    ReportConfirmation,
    Team,
    Venue,
    VenueRequest,
    VenueTable,
)
from matches.models import Player

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


@pytest.fixture
def setup() -> LeagueSetup:
    return league_setup(series=2)


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
    assert [(day["number"], day["points"], day["game_points"], day["closed"]) for day in days] == [(1, "0:6", 6000, True)]

    ranking = client.get(f"/api/v1/leagues/{setup.league.public_id}/ranking/").json()
    assert len(ranking["rows"]) == 16
    assert ranking["rows"][0]["series"] == 2
    assert all(row["provisional"] for row in ranking["rows"])


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
        lambda: (check_in_all(setup, 2), leagues.series_seat(venue=venue, series=2, user=manager)),
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
