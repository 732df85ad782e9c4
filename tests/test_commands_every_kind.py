"""The management commands for every kind of event: ``rescore`` sums afresh the standings each app keeps (a club
night's and season's sums, a league venue's results and its group's standings, a tournament's series lists and
places), reporting what was changed behind the services' back and putting it right; ``backup`` writes a club, a
league or a tournament by name with the option its app registered. Neither command names an app: each asks what the
apps registered."""

from __future__ import annotations

import datetime
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command, load_command_class
from django.db.models import F
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.backup import club_backup
from matches.clubs.models import Club, Night, NightStanding, Season, SeasonStanding
from matches.interclub.backup import league_backup
from matches.interclub.models import PlayerSeries, PlayerStanding, SeriesScore, TeamStanding
from matches.models import Match
from matches.tournaments.backup import tournament_backup
from matches.tournaments.models import EntryStanding, SeriesList, Tournament

from .factories import add, make_user
from .interclub_setup import LeagueSetup
from .test_interclub_exports import accepted
from .test_interclub_exports import played as league_played
from .test_tournaments_backup import played as tournament_played
from .tournaments_setup import announce

pytestmark = pytest.mark.django_db

COMMANDS = Path(__file__).resolve().parents[1] / "matches" / "management" / "commands"
APPS = ("matches.clubs", "matches.interclub", "matches.tournaments")


def rescore(*args: str) -> str:
    out = io.StringIO()
    call_command("rescore", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def refused_check(differences: int | None = None) -> str:
    """What ``rescore --check`` reports, refused for ``differences`` differences (None: for some)."""
    out = io.StringIO()
    with pytest.raises(CommandError, match=rf"^{differences or '[1-9][0-9]*'} differences"):
        call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def without_moment(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    data.pop("created")
    return data


def closed_night() -> Night:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    add(Match.objects.get(club_table__night=night), declarer=1, contract="grand", matadors=1, declarer_card_points=70)
    return clubs.night_close(night=night, user=owner, unfinished=True)


def league_standings(setup: LeagueSetup) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    teams = TeamStanding.objects.filter(team__group=setup.group).order_by("team_id")
    players = PlayerStanding.objects.filter(group=setup.group).order_by("league_player_id")
    return (
        list(teams.values_list("team_id", "plus_halves", "minus_halves", "game_points", "match_days", "open_days")),
        list(players.values_list("league_player_id", "total", "series", "open_series")),
    )


def tournament_kept(tournament: Tournament) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    lists = SeriesList.objects.filter(series__tournament=tournament).order_by("series_id", "entry_id")
    places = EntryStanding.objects.filter(tournament=tournament).order_by("place")
    return (
        list(lists.values_list("series_id", "entry_id", "table_size", "game_points", "won", "lost", "others_lost")),
        list(places.values_list("entry_id", "series", "place", "by_lot", "total", "game_points", "won", "lost")),
    )


# --- rescore ----------------------------------------------------------------------------------------------------------


def test_a_clubs_kept_sums_changed_behind_its_back_are_reported_as_before_and_put_right() -> None:
    night = closed_night()
    season = Season.objects.get()
    assert rescore("--check").strip().endswith("1 matches, 0 differences")
    NightStanding.objects.filter(night=night, score=98).update(score=9800)
    report = refused_check(2)  # the night's row, and the season's that no longer sums it
    assert f"club night {night.public_id} ({night}): 1 players' kept sums differ" in report
    assert f"season {season.public_id} ({season}): 1 players' kept sums differ" in report
    SeasonStanding.objects.filter(season=season, score=0).update(lists=7)
    assert f"season {season.public_id} ({season}): 3 players' kept sums differ" in refused_check(4)
    report = rescore()
    assert f"club night {night.public_id} ({night}): 1 players' kept sums rewritten" in report
    assert f"season {season.public_id} ({season}): 2 players' kept sums rewritten" in report
    assert sorted(NightStanding.objects.filter(night=night).values_list("score", flat=True)) == [0, 0, 98]
    assert rescore("--check").strip().endswith("0 differences")


def test_a_league_venues_kept_results_changed_behind_its_back_are_reported_and_put_right() -> None:
    setup = league_played()
    venue, group = setup.venue, setup.group
    before = league_standings(setup)
    scores = sorted(SeriesScore.objects.filter(venue=venue).values_list("series", "team_id", "score"))
    assert all(before)
    assert rescore("--check").strip().endswith("0 differences")

    SeriesScore.objects.filter(venue=venue, series=1, team=setup.teams[0]).update(score=F("score") + 100)
    PlayerSeries.objects.filter(venue=venue, series=2).order_by("pk")[:1].get().delete()
    report = refused_check()
    assert f"venue {venue.public_id} ({venue}): 2 kept series scores and players' series totals differ" in report
    # The group's standings, as they are summed from the venue's kept rows, differ too.
    assert f"group {group.public_id} ({group}): " in report

    report = rescore()
    assert f"venue {venue.public_id} ({venue}): 2 kept series scores and players' series totals rewritten" in report
    assert sorted(SeriesScore.objects.filter(venue=venue).values_list("series", "team_id", "score")) == scores
    assert league_standings(setup) == before
    assert rescore("--check").strip().endswith("0 differences")


def test_a_league_groups_kept_standings_changed_behind_its_back_are_reported_and_put_right() -> None:
    setup = league_played()
    accepted(setup)
    before = league_standings(setup)
    assert all(row[-1] == 0 for row in before[0] + before[1])  # accepted: nothing provisional
    assert rescore("--check").strip().endswith("0 differences")
    TeamStanding.objects.filter(team=setup.teams[1]).update(game_points=F("game_points") - 7, open_days=1)
    PlayerStanding.objects.filter(group=setup.group).order_by("pk")[:1].get().delete()
    report = refused_check(2)
    assert f"group {setup.group.public_id} ({setup.group}): 2 teams' and players' kept standings differ" in report
    assert "venue " not in report
    assert "teams' and players' kept standings rewritten" in rescore()
    assert league_standings(setup) == before
    assert rescore("--check").strip().endswith("0 differences")


def test_a_tournaments_kept_lists_and_places_changed_behind_its_back_are_reported_and_put_right() -> None:
    tournament = tournament_played(make_user("olga"))
    before = tournament_kept(tournament)
    assert all(before)
    assert rescore("--check").strip().endswith("0 differences")

    EntryStanding.objects.filter(tournament=tournament, place=2).update(total=F("total") + 1)
    report = refused_check(1)
    assert f"tournament {tournament.public_id} ({tournament}): 1 entrants' kept places differ" in report
    assert "kept series lists" not in report
    assert "1 entrants' kept places rewritten" in rescore()
    assert tournament_kept(tournament) == before

    last = EntryStanding.objects.get(tournament=tournament, place=len(before[1]))
    SeriesList.objects.filter(entry_id=last.entry_id).update(game_points=F("game_points") + 5000)
    report = refused_check()
    assert f"tournament {tournament.public_id} ({tournament}): 1 players' kept series lists differ" in report
    # Ranked from the list as kept, the last entrant comes first: every place above it moves.
    assert f"tournament {tournament.public_id} ({tournament}): {len(before[1])} entrants' kept places differ" in report
    report = rescore()
    assert "1 players' kept series lists rewritten" in report
    assert tournament_kept(tournament) == before
    assert rescore("--check").strip().endswith("0 differences")


def followed(address: str) -> Callable[[], Any]:
    """A page that follows by itself (a room's screen, a live board, a group's table), asking again with the ETag of
    what it showed last: each call says whether it was shown afresh."""
    client = Client()
    shown = {"etag": client.get(address, headers={"HX-Request": "true"})["ETag"]}

    def asks() -> Any:
        answer = client.get(address, headers={"HX-Request": "true", "If-None-Match": shown["etag"]})
        if answer.status_code == 200:
            shown["etag"] = answer["ETag"]
        return answer

    return asks


def test_the_pages_that_show_a_clubs_kept_sums_follow_them_rewritten_by_a_rescore() -> None:
    night = closed_night()
    club = night.season.club
    screen = followed(reverse("club_screen", args=[club.screen_token]))
    # Written behind the services' back, as a release summing differently would leave them: nothing the screen
    # follows moved, so it keeps what it shows.
    SeasonStanding.objects.filter(season=night.season, score=98).update(score=9800)
    assert screen().status_code == 304
    rescore()
    shown = screen()
    assert shown.status_code == 200
    assert ">98<" in shown.content.decode()
    assert screen().status_code == 304
    # The night's kept sums, which a season ranked by its best nights reads.
    clubs.season_update(
        season=night.season,
        settings=clubs.SeasonSettings(name="2026", ranking="best-nights", best_nights=1),
        user=User.objects.get(username="olga"),
    )
    assert screen().status_code == 200
    NightStanding.objects.filter(night=night, score=98).update(score=9800)
    SeasonStanding.objects.filter(season=night.season, score=98).update(score=9800)
    rescore()
    assert screen().status_code == 200


def test_the_pages_that_show_a_leagues_kept_results_follow_them_rewritten_by_a_rescore() -> None:
    setup = league_played()
    accepted(setup)
    venue_screen = followed(reverse("interclub_venue_screen", args=[setup.venue.public_id]))
    group_page = followed(reverse("interclub_group", args=[setup.group.public_id]))
    SeriesScore.objects.filter(venue=setup.venue, series=1, team=setup.teams[0]).update(score=F("score") + 100)
    assert venue_screen().status_code == 304
    rescore()
    assert venue_screen().status_code == 200
    group_page()  # its table shows the venue's results too
    TeamStanding.objects.filter(team=setup.teams[1]).update(game_points=F("game_points") - 7)
    assert group_page().status_code == 304
    rescore()
    assert group_page().status_code == 200
    assert venue_screen().status_code == 200  # it shows the group's table too
    assert group_page().status_code == 304


def test_the_pages_that_show_a_tournaments_kept_places_follow_them_rewritten_by_a_rescore() -> None:
    tournament = tournament_played(make_user("olga"))
    live = followed(reverse("tournaments:live", args=[tournament.public_id]))
    EntryStanding.objects.filter(tournament=tournament, place=2).update(total=F("total") + 1)
    assert live().status_code == 304
    rescore()
    assert live().status_code == 200
    assert live().status_code == 304
    last = EntryStanding.objects.filter(tournament=tournament).order_by("-place")[:1].get()
    SeriesList.objects.filter(entry_id=last.entry_id).update(game_points=F("game_points") + 5000)
    rescore()
    assert live().status_code == 200


# --- backup -----------------------------------------------------------------------------------------------------------


def backed_up(**named: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("backup", "-", stdout=out, **named)
    return without_moment(json.loads(out.getvalue()))


def test_the_backup_command_has_an_option_for_every_kind_of_book() -> None:
    parser = load_command_class("matches", "backup").create_parser("manage.py", "backup")
    options = [string for action in parser._actions for string in action.option_strings if string.startswith("--")]
    assert {"--user", "--club", "--league", "--tournament"} <= set(options)


def test_the_backup_command_writes_a_club_a_league_and_a_tournament_by_name(tmp_path: Path) -> None:
    club = Club.objects.get(pk=closed_night().season.club_id)
    setup = league_played()
    tournament = tournament_played(make_user("tom"), name="Preisskat zum Advent")
    assert backed_up(club="Skatclub Herz Dame") == without_moment(club_backup(club))
    assert backed_up(league="Verbandsliga Nord") == without_moment(league_backup(setup.league))
    assert backed_up(tournament="Preisskat zum Advent") == without_moment(tournament_backup(tournament))
    file = tmp_path / "league.json"
    out = io.StringIO()
    call_command("backup", str(file), league="Verbandsliga Nord", stdout=out)
    assert out.getvalue().strip() == f"12 matches, 20 players written to {file}"
    assert without_moment(json.loads(file.read_text(encoding="utf-8"))) == without_moment(league_backup(setup.league))


def test_the_backup_command_says_how_many_books_have_a_name_when_not_one() -> None:
    announce(name="Preisskat")
    announce(name="Preisskat")
    for named, said in (
        ({"club": "Nowhere"}, "0 clubs named 'Nowhere'"),
        ({"league": "Nowhere"}, "0 leagues named 'Nowhere'"),
        ({"tournament": "Nowhere"}, "0 tournaments named 'Nowhere'"),
        ({"tournament": "Preisskat"}, "2 tournaments named 'Preisskat'"),
        ({"user": "nobody"}, "no account named 'nobody'"),
    ):
        with pytest.raises(CommandError, match=f"^{said}$"):
            call_command("backup", "-", stdout=io.StringIO(), **named)


# --- what the commands import -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["backup", "rescore", "restore"])
def test_the_commands_name_no_app(command: str) -> None:
    source = (COMMANDS / f"{command}.py").read_text(encoding="utf-8")
    assert [app for app in APPS if app in source] == []
