"""The league's services: what each stores, and every refusal naming what is wrong with nothing stored halfway."""

from __future__ import annotations

import datetime
import threading
import uuid
from itertools import combinations

import pytest
from django.db import connection

from matches.clubs import services as clubs
from matches.engine import setup_match
from matches.errors import Conflict, Invalid, ServiceError
from matches.interclub import services as leagues
from matches.interclub.models import (
    CheckIn,
    Correction,
    League,
    MatchDay,
    ReportConfirmation,
    RosterEntry,
    ScoreChange,
    Venue,
    VenueTable,
    VenueTeam,
)
from matches.interclub.selectors import venue_report
from matches.interclub.services.common import entered_elsewhere, same_number
from matches.models import Match, Player
from matches.names import name_key
from matches.services import Submission, game_add

from .factories import make_user
from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup, roster_player

pytestmark = pytest.mark.django_db


def _texts(error: ServiceError) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for one in error.errors:
        found.setdefault(one.field, []).append(one.message.render())
    return found


def _second_venue(setup: LeagueSetup, *teams: object) -> Venue:
    """A second venue of the same match day."""
    return leagues.venue_create(match_day=setup.match_day, teams=list(teams), place="Gasthof Krone")  # type: ignore[arg-type]


def _played_series(setup: LeagueSetup, scores: int = 3000) -> None:
    for number in range(1, setup.venue.series + 1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=setup.secretaries[0])
        enter_series(setup, number, {team.name: scores + 100 * index for index, team in enumerate(setup.teams)}, None)


# --- The league ------------------------------------------------------------------------------------------------------


def test_a_league_plays_skat_by_seeger_fabian_with_its_rules_stored_complete() -> None:
    league = leagues.league_create(owner=make_user(), settings=leagues.LeagueSettings(name="Landesliga"))
    assert (league.variant, league.scheme, league.series_per_day) == ("skat", "seeger-fabian", 3)
    assert (league.games_at_four, league.games_at_three) == (48, 36)
    assert league.rules == setup_match("skat", scheme="seeger-fabian", rules={}, players=4).stored_rules()
    assert league.managers.get().role == "owner"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"series_per_day": 5}, "series_per_day"),
        ({"series_tie": "coin"}, "series_tie"),
        ({"per_team_beaten": 3}, "per_team_beaten"),
        ({"games_at_four": 0}, "games_at_four"),
        ({"name": "  "}, "name"),
    ],
)
def test_a_league_with_a_bad_setting_is_refused_and_not_stored(changes: dict[str, object], field: str) -> None:
    settings = leagues.LeagueSettings(**{"name": "Landesliga", **changes})  # type: ignore[arg-type]
    with pytest.raises(Invalid) as refused:
        leagues.league_create(owner=make_user(), settings=settings)
    assert field in _texts(refused.value)
    assert not Player.objects.exists()
    assert not League.objects.exists()


# --- Divisions, groups and teams ------------------------------------------------------------------------------------


def test_a_division_group_or_team_is_stored_on_one_line_with_single_spaces() -> None:
    setup = league_setup()
    division = leagues.division_create(league=setup.league, name="  Landesliga   Süd ")
    group = leagues.group_create(division=division, name=" Staffel \t 2 ")
    team = leagues.team_enter(group=group, club=setup.clubs[0], name="Herz  Dame II ")
    assert (division.name, group.name, team.name) == ("Landesliga Süd", "Staffel 2", "Herz Dame II")


def test_a_division_group_or_team_named_as_one_there_in_other_letters_or_spacing_is_refused() -> None:
    setup = league_setup()
    with pytest.raises(Invalid) as refused:
        leagues.division_create(league=setup.league, name="  verbandsliga ")
    assert _texts(refused.value) == {"name": ["The league has a division of that name already."]}
    with pytest.raises(Invalid) as refused:
        leagues.group_create(division=setup.group.division, name="STAFFEL  1")
    assert _texts(refused.value) == {"name": ["The division has a group of that name already."]}
    with pytest.raises(Invalid) as refused:
        leagues.team_enter(group=setup.group, club=setup.clubs[1], name="kreuz bube i ")
    assert _texts(refused.value) == {"name": ["The group has a team of that name already."]}
    # "Jörg" as a Mac types it (o and a combining diaeresis) is the "JÖRG" entered before.
    leagues.team_enter(group=setup.group, club=setup.clubs[2], name="JÖRG")
    with pytest.raises(Invalid):
        leagues.team_enter(group=setup.group, club=setup.clubs[2], name="Jo\u0308rg")
    assert setup.league.divisions.count() == 1
    assert setup.group.division.groups.count() == 1
    assert setup.group.teams.count() == 5


@pytest.mark.django_db(transaction=True)
def test_two_divisions_of_one_name_in_other_letters_entered_at_once_are_one() -> None:
    league = leagues.league_create(owner=make_user(), settings=leagues.LeagueSettings(name="Landesliga"))
    barrier = threading.Barrier(2)
    made: list[str] = []
    refused: list[dict[str, list[str]]] = []
    failures: list[BaseException] = []

    def enter(name: str) -> None:
        try:
            barrier.wait(timeout=10)
            made.append(leagues.division_create(league=league, name=name).name)
        except Invalid as error:
            refused.append(_texts(error))
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(name,)) for name in ("Bezirksliga", "BEZIRKSLIGA")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []
    assert len(made) == 1
    assert refused == [{"name": ["The league has a division of that name already."]}]
    assert list(league.divisions.values_list("name", flat=True)) == made


# --- Venues ----------------------------------------------------------------------------------------------------------


def test_a_fifth_team_at_a_venue_is_refused_and_nothing_is_stored() -> None:
    setup = league_setup()
    club = clubs.club_create(owner=make_user("fifth"), name="Skatfreunde Fünf")
    fifth = leagues.team_enter(group=setup.group, club=club, name="Skatfreunde Fünf I")
    with pytest.raises(Invalid) as refused:
        leagues.venue_team_add(venue=setup.venue, team=fifth)
    assert _texts(refused.value) == {"teams": ["A venue seats 2 to 4 teams, not 5."]}
    assert VenueTeam.objects.filter(venue=setup.venue).count() == 4
    with pytest.raises(Invalid):
        leagues.venue_create(match_day=setup.match_day, teams=[*setup.teams, fifth])
    assert Venue.objects.count() == 1


def test_a_team_plays_at_one_venue_a_match_day() -> None:
    setup = league_setup()
    with pytest.raises(Invalid) as refused:
        _second_venue(setup, setup.teams[0])
    assert _texts(refused.value) == {"teams.0": ["Herz Dame I plays at Vereinsheim Herz Dame on this match day."]}
    assert Venue.objects.count() == 1


# --- Rosters ---------------------------------------------------------------------------------------------------------


def test_a_player_on_another_clubs_roster_is_refused_by_federation_number() -> None:
    setup = league_setup()
    roster_player(setup.teams[0], "Greta Grand", federation_number="1010004")
    player = clubs.club_player_add(club=setup.clubs[1], name="G. Grand")
    with pytest.raises(Invalid) as refused:
        leagues.roster_add(team=setup.teams[1], player=player, federation_number="1010004")
    assert _texts(refused.value) == {
        "federation_number": [
            "1010004 is the federation number of Greta Grand, on the roster of Herz Dame I (Herz Dame): a player plays "
            "for one club in a league."
        ]
    }
    assert not RosterEntry.objects.filter(player=player).exists()


def test_a_federation_number_stands_for_one_player_of_a_club_too() -> None:
    setup = league_setup()
    roster_player(setup.teams[0], "Greta Grand", federation_number="1010004")
    player = clubs.club_player_add(club=setup.clubs[0], name="Gerd Grau")
    with pytest.raises(Invalid) as refused:
        leagues.roster_add(team=setup.teams[0], player=player, federation_number="1010 004")
    assert _texts(refused.value) == {
        "federation_number": [
            "1010004 is the federation number of Greta Grand, on the roster of Herz Dame I: a number stands for one "
            "player."
        ]
    }
    assert not RosterEntry.objects.filter(player=player).exists()
    second = leagues.team_enter(group=setup.group, club=setup.clubs[0], name="Herz Dame II")
    greta = RosterEntry.objects.get(federation_number="1010004").player
    assert leagues.roster_add(team=second, player=greta, federation_number="1010004").federation_number == "1010004"


@pytest.mark.parametrize("typed", ["1010004", "1010.004", "10/10-004"])
def test_a_federation_number_written_otherwise_is_the_same_number(typed: str) -> None:
    setup = league_setup()
    roster_player(setup.teams[0], "Greta Grand", federation_number="1010-004")
    player = clubs.club_player_add(club=setup.clubs[0], name="Gerd Grau")
    with pytest.raises(Invalid) as refused:
        leagues.roster_add(team=setup.teams[0], player=player, federation_number=typed)
    assert _texts(refused.value) == {
        "federation_number": [
            "1010-004 is the federation number of Greta Grand, on the roster of Herz Dame I: a number stands for one "
            "player."
        ]
    }
    assert not RosterEntry.objects.filter(player=player).exists()


def test_a_number_of_separators_alone_kept_from_before_is_nobody_elses_number() -> None:
    """A roster kept from before numbers were checked, with "-" typed for none: no number is left of it to compare,
    so it is not the number of every player of another club's roster who has none."""
    setup = league_setup()
    RosterEntry.objects.filter(pk=setup.rosters[1][0].pk).update(federation_number="-")
    entry = RosterEntry.objects.select_related("team").get(pk=setup.rosters[1][0].pk)
    assert RosterEntry.objects.filter(federation_number="").count() > 1
    assert not RosterEntry.objects.filter(same_number("./")).exists()
    assert entered_elsewhere(setup.league, entry.team.club_id, entry.player, entry.federation_number) is None


def test_a_player_on_another_clubs_roster_is_refused_by_linked_account() -> None:
    setup = league_setup()
    account = make_user("greta")
    first = clubs.club_player_add(club=setup.clubs[0], name="Greta")
    Player.objects.filter(pk=first.pk).update(account=account)
    leagues.roster_add(team=setup.teams[0], player=Player.objects.get(pk=first.pk))
    second = clubs.club_player_add(club=setup.clubs[1], name="Greta G.")
    Player.objects.filter(pk=second.pk).update(account=account)
    with pytest.raises(Invalid):
        leagues.roster_add(team=setup.teams[1], player=Player.objects.get(pk=second.pk))


def test_two_players_of_one_name_from_two_clubs_are_two_players_in_the_league_book() -> None:
    setup = league_setup()
    first = roster_player(setup.teams[0], "Anna Schmidt")
    second = roster_player(setup.teams[1], "anna schmidt")
    assert first.league_player != second.league_player
    assert (first.league_player.name, second.league_player.name) == ("Anna Schmidt", "anna schmidt (Kreuz Bube)")
    keys = Player.objects.filter(keeper=setup.league.keeper).values_list("name_key", flat=True)
    assert len(set(keys)) == len(keys)
    assert name_key("anna schmidt (kreuz bube)") in keys


def test_a_player_of_two_teams_of_one_club_is_one_player_in_the_league_book() -> None:
    setup = league_setup()
    second = leagues.team_enter(group=setup.group, club=setup.clubs[0], name="Herz Dame II")
    entry = setup.rosters[0][0]
    again = leagues.roster_add(team=second, player=entry.player)
    assert again.league_player == entry.league_player


@pytest.mark.parametrize("by_the_club", [True, False])
def test_a_player_taken_off_the_roster_and_put_on_again_is_the_league_player_they_were(by_the_club: bool) -> None:
    setup = league_setup()
    team = setup.teams[1]
    entry = roster_player(team, "Uwe", federation_number="0101001")
    leagues.roster_remove(entry=entry)
    by = setup.secretaries[1] if by_the_club else setup.manager
    again = leagues.roster_add(team=team, player=entry.player, federation_number="0101001", by=by)
    assert again.league_player == entry.league_player
    named = Player.objects.filter(keeper=setup.league.keeper, name_key__startswith=name_key("Uwe"))
    assert [player.name for player in named] == ["Uwe"]


def test_a_namesake_of_another_club_never_takes_the_league_player_of_one_taken_off() -> None:
    setup = league_setup()
    first = roster_player(setup.teams[0], "Uwe")
    leagues.roster_remove(entry=first)
    namesake = roster_player(setup.teams[1], "Uwe")
    again = roster_player(setup.teams[0], "Uwe")
    assert again.player == first.player
    assert again.league_player == first.league_player
    assert (again.league_player.name, namesake.league_player.name) == ("Uwe", "Uwe (Kreuz Bube)")


def test_a_player_of_another_club_is_not_put_on_a_roster() -> None:
    setup = league_setup()
    with pytest.raises(Invalid) as refused:
        leagues.roster_add(team=setup.teams[0], player=setup.rosters[1][0].player)
    assert _texts(refused.value) == {"player": ["Not a player of this club."]}


def test_a_player_who_played_stays_on_the_roster() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    with pytest.raises(Conflict):
        leagues.roster_remove(entry=setup.rosters[0][0])
    leagues.roster_remove(entry=setup.rosters[0][4])
    assert not RosterEntry.objects.filter(pk=setup.rosters[0][4].pk).exists()


# --- Check-in --------------------------------------------------------------------------------------------------------


def test_a_line_up_is_checked_in_in_its_order_and_replaced_before_seating() -> None:
    setup = league_setup()
    team, roster = setup.teams[0], setup.rosters[0]
    leagues.series_check_in(venue=setup.venue, series=1, team=team, entries=roster[:4])
    leagues.series_check_in(venue=setup.venue, series=1, team=team, entries=[roster[4], *roster[1:4]])
    checked = CheckIn.objects.filter(venue=setup.venue, series=1, team=team).order_by("position")
    assert [one.entry for one in checked] == [roster[4], *roster[1:4]]


def test_a_line_up_checked_in_meanwhile_refuses_a_check_in_made_without_seeing_it() -> None:
    """The captain's form still said the team was not checked in while the host's secretary checked it in: the
    captain is told who checked it in and with whom, and nothing is replaced; sent again over that line-up, it is."""
    setup = league_setup()
    team, roster = setup.teams[1], setup.rosters[1]
    leagues.series_check_in(
        venue=setup.venue, series=2, team=team, entries=roster[:3], user=setup.secretaries[0], shown=[]
    )
    with pytest.raises(Conflict) as refused:
        leagues.series_check_in(
            venue=setup.venue, series=2, team=team, entries=roster[:4], user=setup.captains[1], shown=[]
        )
    assert _texts(refused.value) == {
        "entries": [
            "secretary0 checked Kreuz Bube I in for series 2 meanwhile: Kreu 1, Kreu 2, Kreu 3. "
            "Look at the line-up, then check the team in again."
        ]
    }
    checked = CheckIn.objects.filter(venue=setup.venue, series=2, team=team).order_by("position")
    assert [one.entry for one in checked] == roster[:3]
    standing = [entry.league_player_id for entry in roster[:3]]
    leagues.series_check_in(
        venue=setup.venue, series=2, team=team, entries=roster[:4], user=setup.captains[1], shown=standing
    )
    checked = CheckIn.objects.filter(venue=setup.venue, series=2, team=team).order_by("position")
    assert [(one.entry, one.checked_in_by) for one in checked] == [(entry, setup.captains[1]) for entry in roster[:4]]


def test_a_line_up_checked_in_meanwhile_by_nobody_known_is_named_without_a_name() -> None:
    setup = league_setup()
    team, roster = setup.teams[1], setup.rosters[1]
    leagues.series_check_in(venue=setup.venue, series=1, team=team, entries=roster[:3])
    with pytest.raises(Conflict) as refused:
        leagues.series_check_in(venue=setup.venue, series=1, team=team, entries=roster[:4], shown=[])
    assert _texts(refused.value)["entries"][0].startswith(
        "Kreuz Bube I was checked in for series 1 meanwhile: Kreu 1, Kreu 2, Kreu 3."
    )


def test_a_check_in_is_not_refused_for_what_did_not_change_its_line_up() -> None:
    """Another team checked in meanwhile, and the same line-up sent twice (a button tapped twice), refuse nobody."""
    setup = league_setup()
    leagues.series_check_in(venue=setup.venue, series=1, team=setup.teams[0], entries=setup.rosters[0][:4], shown=[])
    for _twice in range(2):
        leagues.series_check_in(
            venue=setup.venue, series=1, team=setup.teams[1], entries=setup.rosters[1][:4], shown=[]
        )
    assert CheckIn.objects.filter(venue=setup.venue, series=1).count() == 8


def test_a_player_checked_in_twice_is_refused_and_nothing_is_stored() -> None:
    setup = league_setup()
    roster = setup.rosters[0]
    with pytest.raises(Invalid) as refused:
        leagues.series_check_in(
            venue=setup.venue, series=1, team=setup.teams[0], entries=[roster[0], roster[1], roster[0]]
        )
    assert _texts(refused.value) == {"entries.2": ["Herz 1 is checked in for Herz Dame I twice."]}
    assert not CheckIn.objects.exists()


def test_a_player_plays_for_one_team_a_match_day() -> None:
    setup = league_setup()
    second = leagues.team_enter(group=setup.group, club=setup.clubs[0], name="Herz Dame II")
    shared = leagues.roster_add(team=second, player=setup.rosters[0][0].player)
    others = [roster_player(second, f"Zweite {seat}") for seat in range(3)]
    other_venue = _second_venue(setup, second)
    leagues.series_check_in(venue=setup.venue, series=1, team=setup.teams[0], entries=setup.rosters[0][:4])
    with pytest.raises(Invalid) as refused:
        leagues.series_check_in(venue=other_venue, series=2, team=second, entries=[shared, *others])
    assert _texts(refused.value) == {
        "entries.0": ["Herz 1 plays for Herz Dame I today: a player plays for one team a match day."]
    }
    assert not CheckIn.objects.filter(team=second).exists()


def test_a_substitute_not_on_the_roster_is_refused() -> None:
    setup = league_setup()
    stranger = setup.rosters[1][4]
    with pytest.raises(Invalid) as refused:
        leagues.series_check_in(
            venue=setup.venue, series=2, team=setup.teams[0], entries=[*setup.rosters[0][:3], stranger]
        )
    assert _texts(refused.value) == {
        "entries.3": ["Kreu Ersatz is neither in the line-up nor on the substitution list of Herz Dame I."]
    }
    assert not CheckIn.objects.exists()


def test_a_substitute_comes_in_between_series() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.secretaries[0])
    roster = setup.rosters[0]
    leagues.series_check_in(venue=setup.venue, series=2, team=setup.teams[0], entries=[roster[4], *roster[1:4]])
    assert CheckIn.objects.filter(series=2, entry=roster[4]).exists()


@pytest.mark.parametrize(("count", "players"), [(1, "1 player"), (2, "2 players"), (5, "5 players")])
def test_a_team_checks_in_three_or_four_players(count: int, players: str) -> None:
    setup = league_setup()
    extra = roster_player(setup.teams[0], "Herz Extra", substitute=True)
    entries = [*setup.rosters[0], extra][:count]
    with pytest.raises(Invalid) as refused:
        leagues.series_check_in(venue=setup.venue, series=1, team=setup.teams[0], entries=entries)
    assert _texts(refused.value) == {"entries": [f"Herz Dame I brings {players}: a team plays with 3 or 4."]}


def test_a_seated_series_keeps_its_line_ups() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=None)
    with pytest.raises(Conflict):
        leagues.series_check_in(venue=setup.venue, series=1, team=setup.teams[0], entries=setup.rosters[0][1:])


def test_a_series_the_venue_does_not_play_is_refused() -> None:
    setup = league_setup(series=2)
    with pytest.raises(Invalid) as refused:
        leagues.series_check_in(venue=setup.venue, series=3, team=setup.teams[0], entries=setup.rosters[0][:4])
    assert _texts(refused.value) == {"series": ["This venue plays 2 series."]}


# --- Seating ---------------------------------------------------------------------------------------------------------


def test_a_series_seats_four_teams_of_four_at_four_tables_with_no_two_of_a_team_together() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    tables = leagues.series_seat(venue=setup.venue, series=1, user=setup.secretaries[0])
    team_of = {
        entry.league_player_id: team.pk
        for team, roster in zip(setup.teams, setup.rosters, strict=True)
        for entry in roster
    }
    assert len(tables) == 4
    for table in tables:
        match = table.match
        seated = list(match.seats.values_list("player_id", flat=True))
        assert len({team_of[player] for player in seated}) == 4
        assert (match.keeper_id, match.planned_games, match.scheme) == (setup.league.keeper_id, 48, "seeger-fabian")
        assert match.title.startswith(f"Table {table.number}, series 1 · Staffel 1")


def test_a_team_of_three_gets_a_table_of_three() -> None:
    setup = league_setup()
    for index, (team, roster) in enumerate(zip(setup.teams, setup.rosters, strict=True)):
        leagues.series_check_in(venue=setup.venue, series=1, team=team, entries=roster[: 3 if index == 3 else 4])
    tables = leagues.series_seat(venue=setup.venue, series=1, user=None)
    assert sorted(table.match.players for table in tables) == [3, 4, 4, 4]
    assert sorted(table.match.planned_games or 0 for table in tables) == [36, 48, 48, 48]


def _seated(venue: Venue, series: int) -> list[set[int]]:
    return [
        set(table.match.seats.values_list("player_id", flat=True))
        for table in VenueTable.objects.filter(venue=venue, series=series).select_related("match")
    ]


def test_a_series_after_a_short_one_seats_nobody_together_again_who_sat_together_before() -> None:
    # The seed of the venue's seating, fixed: one under which the fixed plan of series 2 seats pairs of series 1
    # together again.
    setup = league_setup(series=2)
    MatchDay.objects.filter(pk=setup.match_day.pk).update(seed="Spieltag")
    Venue.objects.filter(pk=setup.venue.pk).update(public_id=uuid.UUID(int=3))
    venue = Venue.objects.get(pk=setup.venue.pk)
    substitute = setup.rosters[3][4]
    for series, short in ((1, setup.rosters[3][:3]), (2, [*setup.rosters[3][:3], substitute])):
        for team, roster in zip(setup.teams[:3], setup.rosters[:3], strict=True):
            leagues.series_check_in(venue=venue, series=series, team=team, entries=roster[:4])
        leagues.series_check_in(venue=venue, series=series, team=setup.teams[3], entries=short)
        leagues.series_seat(venue=venue, series=series, user=setup.secretaries[0])
    first, second = _seated(venue, 1), _seated(venue, 2)
    assert sorted(len(table) for table in first) == [3, 4, 4, 4]
    assert sorted(len(table) for table in second) == [4, 4, 4, 4]
    assert not [
        (one, other)
        for table in second
        for one, other in combinations(sorted(table), 2)
        if any({one, other} <= before for before in first)
    ]


def test_series_2_is_not_seated_before_series_1() -> None:
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    check_in_all(setup, 2)
    with pytest.raises(Conflict) as refused:
        leagues.series_seat(venue=setup.venue, series=2, user=setup.manager)
    assert _texts(refused.value) == {"series": ["Series 1 is not seated yet: the series are seated in order, 1 first."]}
    assert not VenueTable.objects.filter(venue=setup.venue).exists()
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    assert leagues.series_seat(venue=setup.venue, series=2, user=setup.manager)


def test_a_series_seated_twice_is_seated_once() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    first = leagues.series_seat(venue=setup.venue, series=1, user=None)
    again = leagues.series_seat(venue=setup.venue, series=1, user=None)
    assert [table.pk for table in again] == [table.pk for table in first]
    assert Match.objects.count() == 4


def test_a_series_with_one_team_checked_in_is_not_seated() -> None:
    setup = league_setup()
    leagues.series_check_in(venue=setup.venue, series=1, team=setup.teams[0], entries=setup.rosters[0][:4])
    with pytest.raises(Invalid) as refused:
        leagues.series_seat(venue=setup.venue, series=1, user=None)
    assert _texts(refused.value) == {"teams": ["A venue seats 2 to 4 teams, not 1."]}
    assert not Match.objects.exists()


def test_an_unplayed_seating_is_dropped_and_a_played_one_stays() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=None)
    leagues.series_unseat(venue=setup.venue, series=1)
    assert not Match.objects.exists()
    assert not VenueTable.objects.exists()
    tables = leagues.series_seat(venue=setup.venue, series=1, user=None)
    game_add(
        match=tables[2].match,
        user=None,
        token=uuid.uuid4(),
        submission=Submission(declarer=1, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70}),
    )
    with pytest.raises(Conflict) as refused:
        leagues.series_unseat(venue=setup.venue, series=1)
    assert _texts(refused.value) == {"series": ["Table 3 of series 1 has entered its list: the series stays as drawn."]}
    assert VenueTable.objects.count() == 4


# --- Paper lists -----------------------------------------------------------------------------------------------------


def test_a_paper_list_needs_one_line_for_each_player_at_the_table() -> None:
    setup = league_setup()
    check_in_all(setup, 1)
    table = leagues.series_seat(venue=setup.venue, series=1, user=None)[0]
    players = [seat.player for seat in table.match.seats.order_by("position")]
    with pytest.raises(Invalid) as refused:
        leagues.table_paper_enter(table=table, lines=[(player, 100, 2, 0) for player in players[:3]], user=None)
    assert _texts(refused.value) == {"lines": ["One line for each player at the table."]}
    with pytest.raises(Invalid):
        leagues.table_paper_enter(table=table, lines=[(player, 7, 1, 0) for player in players], user=None)
    table.refresh_from_db()
    assert not table.paper
    assert not table.match.locked


# --- The report ------------------------------------------------------------------------------------------------------


def test_a_confirmation_by_somebody_who_is_not_the_captain_is_refused() -> None:
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    with pytest.raises(Invalid) as refused:
        leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.secretaries[0])
    assert _texts(refused.value) == {
        "team": ["secretary0 is not the captain of Herz Dame I: a team's captain confirms its report."]
    }
    assert not ReportConfirmation.objects.exists()


def test_a_captain_confirming_again_confirms_once() -> None:
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    first = leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    assert leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0]) == first
    assert ReportConfirmation.objects.count() == 1


def _corrected_series_2(setup: LeagueSetup, venue: Venue) -> Venue:
    """The closed venue reopened and closed again with a table of series 2 entered anew, one player with a game
    more won: the report reads otherwise than before."""
    leagues.venue_reopen(venue=venue, user=setup.manager, reason="Table 1 of series 2 added a line wrongly")
    table = VenueTable.objects.get(venue=venue, series=2, number=1)
    first, *rest = table.match.paper_lines.all()
    lines = [(first.player, first.game_points + 24, first.won + 1, first.lost)]
    lines += [(line.player, line.game_points, line.won, line.lost) for line in rest]
    leagues.table_paper_enter(table=table, lines=lines, user=setup.manager)
    return leagues.venue_close(venue=Venue.objects.get(pk=venue.pk), user=setup.manager)


def _read_then_corrected() -> tuple[LeagueSetup, Venue, int]:
    """A venue of two series closed, its version as a page showed its report, and the venue corrected since."""
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    read = Venue.objects.get(pk=venue.pk).version
    return setup, _corrected_series_2(setup, venue), read


def test_a_confirmation_of_a_report_read_before_its_correction_is_refused() -> None:
    setup, venue, read = _read_then_corrected()
    with pytest.raises(Conflict) as refused:
        leagues.report_confirm(venue=venue, team=setup.teams[1], user=setup.captains[1], shown=read)
    assert _texts(refused.value) == {
        "venue": [
            "The report's results were changed since this page was opened: read them as they stand now, then "
            "confirm them again."
        ]
    }
    assert not ReportConfirmation.objects.exists()
    now = Venue.objects.get(pk=venue.pk).version
    leagues.report_confirm(venue=venue, team=setup.teams[1], user=setup.captains[1], shown=now)
    assert ReportConfirmation.objects.get().team == setup.teams[1]


def test_an_acceptance_of_a_report_read_before_its_correction_is_refused() -> None:
    setup, venue, read = _read_then_corrected()
    with pytest.raises(Conflict) as refused:
        leagues.report_accept(venue=venue, user=setup.manager, shown=read)
    assert _texts(refused.value) == {
        "venue": [
            "The report's results were changed since this page was opened: read them as they stand now, then "
            "accept them."
        ]
    }
    assert Venue.objects.get(pk=venue.pk).accepted_at is None


def test_a_confirmation_or_acceptance_meanwhile_refuses_no_other_confirmation_or_acceptance() -> None:
    """Only the results count: a captain is not refused because another captain confirmed first, nor because the
    manager accepted meanwhile, and the manager not because a captain confirmed."""
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    read = Venue.objects.get(pk=venue.pk).version
    leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0], shown=read)
    leagues.report_accept(venue=venue, user=setup.manager, shown=read)
    leagues.report_confirm(venue=venue, team=setup.teams[1], user=setup.captains[1], shown=read)
    assert ReportConfirmation.objects.count() == 2
    assert Venue.objects.get(pk=venue.pk).accepted_at is not None


def test_a_report_is_confirmed_only_once_it_is_ready() -> None:
    setup = league_setup(series=2)
    with pytest.raises(Conflict):
        leagues.report_confirm(venue=setup.venue, team=setup.teams[0], user=setup.captains[0])


def test_a_report_accepted_twice_is_refused() -> None:
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    accepted = leagues.report_accept(venue=venue, user=setup.manager)
    with pytest.raises(Conflict) as refused:
        leagues.report_accept(venue=venue, user=setup.manager)
    assert "a correction reopens it with a reason" in _texts(refused.value)["venue"][0]
    assert Venue.objects.get(pk=venue.pk).accepted_at == accepted.accepted_at


def test_a_report_is_accepted_by_the_leagues_managers_only() -> None:
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    with pytest.raises(Invalid) as refused:
        leagues.report_accept(venue=venue, user=setup.captains[0])
    assert _texts(refused.value) == {"user": ["Only the league's managers accept a report."]}
    assert Venue.objects.get(pk=venue.pk).accepted_at is None


def test_a_correction_after_acceptance_needs_a_reason_and_records_who_why_and_what_changed() -> None:
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    leagues.report_accept(venue=venue, user=setup.manager)
    with pytest.raises(Invalid) as refused:
        leagues.venue_reopen(venue=venue, user=setup.manager, reason=" ")
    assert "reason" in _texts(refused.value)
    assert Venue.objects.get(pk=venue.pk).closed_at is not None
    leagues.venue_reopen(venue=venue, user=setup.manager, reason="Table 1 of series 2 added a line wrongly")
    setup.venue = Venue.objects.get(pk=venue.pk)
    table = VenueTable.objects.get(venue=venue, series=2, number=1)
    lines = [
        (line.player, line.game_points + 24, line.won + 1, line.lost) for line in table.match.paper_lines.all()[:1]
    ]
    lines += [(line.player, line.game_points, line.won, line.lost) for line in table.match.paper_lines.all()[1:]]
    leagues.table_paper_enter(table=table, lines=lines, user=setup.manager)
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    correction = Correction.objects.get()
    assert (correction.user, correction.reason) == (setup.manager, "Table 1 of series 2 added a line wrongly")
    assert correction.after is not None
    assert correction.after != correction.before
    changed = [team for team, score in correction.after["2"].items() if correction.before["2"][team] != score]
    assert len(changed) == 1
    assert correction.after["2"][changed[0]] == correction.before["2"][changed[0]] + 74
    assert correction.changes() == [
        ScoreChange(2, changed[0], correction.before["2"][changed[0]], correction.after["2"][changed[0]])
    ]
    assert Venue.objects.get(pk=venue.pk).accepted_at is not None


def test_a_correction_still_open_changed_no_score_yet() -> None:
    correction = Correction(before={"1": {"Herz Dame I": 3000, "Pik As I": 3100}}, after=None)
    assert correction.changes() == []
    correction.after = {"1": {"Herz Dame I": 3000, "Pik As I": 3174}}
    assert correction.changes() == [ScoreChange(1, "Pik As I", 3100, 3174)]


def test_a_confirmation_before_a_correction_confirms_the_earlier_result_and_the_captain_confirms_anew() -> None:
    setup = league_setup(series=2)
    _played_series(setup)
    venue = leagues.venue_close(venue=setup.venue, user=None)
    earlier = leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    leagues.report_accept(venue=venue, user=setup.manager)
    leagues.venue_reopen(venue=venue, user=setup.manager, reason="Table 1 of series 2 added wrongly")
    with pytest.raises(Conflict):
        leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    enter_series(setup, 2, {team.name: 3100 + 100 * index for index, team in enumerate(setup.teams)}, setup.manager)
    venue = leagues.venue_close(venue=venue, user=setup.manager)
    correction = Correction.objects.get()
    report = venue_report(venue)
    assert report.confirmed == ()
    assert report.confirmed_before == ((earlier, correction),)
    again = leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0])
    assert again != earlier
    assert leagues.report_confirm(venue=venue, team=setup.teams[0], user=setup.captains[0]) == again
    assert ReportConfirmation.objects.count() == 2
    report = venue_report(venue)
    assert report.confirmed == (again,)
    assert report.confirmed_before == ((earlier, correction),)


def test_a_match_day_number_is_given_once_in_a_group() -> None:
    setup = league_setup()
    with pytest.raises(Invalid) as refused:
        leagues.match_day_create(group=setup.group, number=1, date=datetime.date(2026, 11, 7))
    assert _texts(refused.value) == {"number": ["The group has a match day 1 already."]}
