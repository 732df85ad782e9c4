"""A league's backup: its file holds the league, its structure, teams, rosters, match days and venues with their
check-ins, tables, paper lists, confirmations, acceptance and corrections, beside the league's book; restored after
its clubs, it gives the same table, ranking and match report, and a second restore changes nothing."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from matches.clubs.backup import club_backup
from matches.clubs.models import Club
from matches.errors import Invalid
from matches.interclub import services as leagues
from matches.interclub.models import (
    CheckIn,
    Correction,
    FormerPlayer,
    League,
    PlayerSeries,
    ReportConfirmation,
    RosterEntry,
    SeriesScore,
    Team,
    Venue,
    VenueTable,
    VenueTeam,
)
from matches.models import Keeper, Match, PaperLine, Player
from matches.restore import restore

from .factories import make_user
from .interclub_setup import LeagueSetup
from .test_interclub_exports import accepted, body, pdf_text, played

pytestmark = pytest.mark.django_db


def corrected(setup: LeagueSetup) -> None:
    """An accepted venue reopened with a reason and closed again: a correction with what it changed."""
    leagues.venue_reopen(venue=setup.venue, user=setup.manager, reason="Tisch 2 falsch übertragen")
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)


def files(setup: LeagueSetup, client: Client) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The clubs' backups and the league's, the league's as its owner downloads it."""
    client.force_login(setup.manager)
    answer = client.get(reverse("league_backup", args=[setup.league.public_id]))
    assert answer.status_code == 200
    return [json.loads(json.dumps(club_backup(club))) for club in setup.clubs], json.loads(answer.content)


def wiped() -> None:
    # The rows that hold on to a team, a roster entry or a match go first, as the database protects those.
    models: tuple[type[Model], ...] = (CheckIn, VenueTeam, VenueTable, RosterEntry, League, Club, Match, Player, Keeper)
    for model in models:
        model._default_manager.all().delete()


def downloads(client: Client, league: League) -> dict[str, bytes]:
    """What leaves the app of the league: its table, ranking and the report, as files and as printed text."""
    venue = Venue.objects.get(match_day__group__division__league=league)
    group = venue.match_day.group
    answers = {
        "table": client.get(reverse("download-group-table", args=[group.public_id, "json"])),
        "ranking": client.get(reverse("download-league-players", args=[league.public_id, "json"])),
        "report": client.get(reverse("download-venue-report", args=[venue.public_id, "json"])),
    }
    return {name: body(answer) for name, answer in answers.items()}


def restored_from(clubs: list[dict[str, Any]], league: dict[str, Any], user: User) -> dict[str, int]:
    for club in clubs:
        restore(json.loads(json.dumps(club)), user=user)
    return restore(json.loads(json.dumps(league)), user=user)


def rows(venue: Venue) -> dict[str, list[Any]]:
    """The venue's rows that a round trip must keep, each without database ids."""
    return {
        "check_ins": list(
            CheckIn.objects.filter(venue=venue)
            .order_by("series", "team__name", "position")
            .values_list(
                "series",
                "team__public_id",
                "entry__player__public_id",
                "league_player__public_id",
                "position",
                "created_at",
            )
        ),
        "paper": sorted(
            PaperLine.objects.filter(match__venue_table__venue=venue).values_list(
                "match__venue_table__series",
                "match__venue_table__number",
                "match__public_id",
                "player__public_id",
                "game_points",
                "won",
                "lost",
            )
        ),
        "confirmations": sorted(
            ReportConfirmation.objects.filter(venue=venue).values_list("team__public_id", "created_at")
        ),
        "corrections": list(
            Correction.objects.filter(venue=venue).values_list(
                "reason", "accepted", "before", "after", "created_at", "closed_at"
            )
        ),
        "scores": sorted(SeriesScore.objects.filter(venue=venue).values_list("series", "team__public_id", "score")),
        "totals": sorted(
            PlayerSeries.objects.filter(venue=venue).values_list(
                "series", "team__public_id", "league_player__public_id", "total"
            )
        ),
        "roster": sorted(
            RosterEntry.objects.filter(team__venues__venue=venue).values_list(
                "team__public_id",
                "player__public_id",
                "league_player__public_id",
                "federation_number",
                "substitute",
                "created_at",
            )
        ),
        "venue": list(
            Venue.objects.filter(pk=venue.pk).values_list(
                "place",
                "series",
                "closed_at",
                "accepted_at",
                "created_at",
                "host_team__public_id",
                "host_club__public_id",
            )
        ),
    }


def test_a_league_with_a_closed_reopened_accepted_and_corrected_venue_comes_back_whole(client: Client) -> None:
    setup = played()
    leagues.venue_reopen(venue=setup.venue, user=setup.manager)
    setup.venue = leagues.venue_close(venue=setup.venue, user=setup.manager)
    accepted(setup)
    corrected(setup)
    RosterEntry.objects.filter(pk=setup.rosters[0][0].pk).update(federation_number="10100042")
    before = downloads(client, setup.league)
    kept = rows(setup.venue)
    assert [(reason, accepted) for reason, accepted, *_ in kept["corrections"]] == [
        ("", False),
        ("Tisch 2 falsch übertragen", True),
    ]
    assert kept["corrections"][1][3] is not None
    assert kept["confirmations"]
    assert kept["scores"]
    clubs, league = files(setup, client)
    assert {"divisions", "variant", "rules"} <= set(league["league"])
    wiped()
    owner = make_user("olga")
    counts = restored_from(clubs, league, owner)
    assert counts["matches"] == 12
    venue = Venue.objects.get(public_id=setup.venue.public_id)
    assert rows(venue) == kept
    assert downloads(client, venue.match_day.group.division.league) == before
    printed = pdf_text(client.get(reverse("download-venue-report", args=[venue.public_id, "pdf"])))[0]
    assert "Accepted on" in printed
    assert "by an account that is not here" in printed
    restored = League.objects.get(public_id=setup.league.public_id)
    assert list(restored.managers.values_list("user__username", "role")) == [("olga", "owner")]
    assert restore(json.loads(json.dumps(league)), user=owner) == {"players": 0, "matches": 0, "games": 0, "nights": 0}
    assert rows(venue) == kept
    client.force_login(owner)
    again = json.loads(client.get(reverse("league_backup", args=[restored.public_id])).content)
    assert {key: value for key, value in again.items() if key != "created"} == {
        key: value for key, value in league.items() if key != "created"
    }


def test_a_player_taken_off_the_roster_before_the_backup_is_put_on_again_after_it_as_the_league_player_they_were(
    client: Client,
) -> None:
    setup = played()
    team, entry = setup.teams[1], setup.rosters[1][4]
    leagues.roster_remove(entry=entry)
    clubs, league = files(setup, client)
    assert league["league"]["former_players"] == [
        {"player": str(entry.player.public_id), "league_player": str(entry.league_player.public_id)}
    ]
    wiped()
    restored_from(clubs, league, make_user("olga"))
    again = leagues.roster_add(
        team=Team.objects.get(public_id=team.public_id), player=Player.objects.get(public_id=entry.player.public_id)
    )
    assert (again.league_player.public_id, again.league_player.name) == (entry.league_player.public_id, "Kreu Ersatz")


def test_a_league_file_made_before_the_league_kept_its_former_players_restores(client: Client) -> None:
    setup = played()
    leagues.roster_remove(entry=setup.rosters[1][4])
    clubs, league = files(setup, client)
    del league["league"]["former_players"]
    wiped()
    restored_from(clubs, league, make_user("olga"))
    assert not FormerPlayer.objects.exists()
    assert RosterEntry.objects.count() == 19


def test_a_league_whose_clubs_are_not_here_is_refused_naming_the_club(client: Client) -> None:
    setup = played()
    _, league = files(setup, client)
    wiped()
    with pytest.raises(Invalid, match=r"Herz Dame.*restore the club's backup first"):
        restore(league, user=make_user("olga"))
    assert not League.objects.exists()
    assert not Match.objects.exists()


def test_a_league_is_not_restored_over_somebody_elses(client: Client) -> None:
    setup = played()
    _, league = files(setup, client)
    with pytest.raises(Invalid, match="does not fit"):
        restore(league, user=make_user("mal"))
    assert League.objects.count() == 1


def test_a_damaged_league_file_is_refused_whole(client: Client) -> None:
    setup = played()
    clubs, league = files(setup, client)
    wiped()
    league["league"]["divisions"][0]["groups"][0]["match_days"][0]["venues"][0]["check_ins"][0]["series"] = 9
    with pytest.raises(Invalid, match="damaged"):
        restored_from(clubs, league, make_user("olga"))
    assert not League.objects.exists()


def test_a_league_file_whose_venue_plays_more_series_than_a_match_day_has_is_refused_whole(client: Client) -> None:
    """A match day has two to four series, as the league's page and the API set them: a fifth is a damaged file."""
    setup = played()
    clubs, league = files(setup, client)
    wiped()
    league["league"]["divisions"][0]["groups"][0]["match_days"][0]["venues"][0]["series"] = 5
    with pytest.raises(Invalid, match="damaged"):
        restored_from(clubs, league, make_user("olga"))
    assert not League.objects.exists()


def test_only_the_leagues_owner_downloads_its_backup(client: Client) -> None:
    setup = played()
    address = reverse("league_backup", args=[setup.league.public_id])
    manager = make_user("martha")
    leagues.league_manager_set(league=setup.league, user=manager)
    client.force_login(manager)
    assert client.get(address).status_code == 404
    client.force_login(setup.captains[0])
    assert client.get(address).status_code == 404
    client.force_login(setup.manager)
    answer = client.get(address)
    assert answer.status_code == 200
    assert answer["Content-Disposition"].startswith('attachment; filename="scorekeeper-Verbandsliga Nord-')


def test_the_backup_command_writes_a_league_by_name() -> None:
    setup = played()
    out = io.StringIO()
    call_command("backup", "-", league="Verbandsliga Nord", stdout=out)
    data = json.loads(out.getvalue())
    assert data["league"]["id"] == str(setup.league.public_id)
    assert len(data["matches"]) == 12


def test_a_league_file_whose_corrections_do_not_say_whether_accepted_restores_them_as_corrections_of_accepted_results(
    client: Client,
) -> None:
    setup = played()
    accepted(setup)
    corrected(setup)
    clubs, league = files(setup, client)
    venues = league["league"]["divisions"][0]["groups"][0]["match_days"][0]["venues"]
    for correction in venues[0]["corrections"]:
        del correction["accepted"]
    wiped()
    restored_from(clubs, league, make_user("olga"))
    assert list(Correction.objects.values_list("reason", "accepted")) == [("Tisch 2 falsch übertragen", True)]
