"""Every player's closed list of a series, kept once in the core for every kind of event: a club night, a league's
venue and a tournament's series each report their tables when they close and take them back when they reopen; a
restore brings them back with the events; ``rescore --check`` reports a row changed behind the services' back, and a
rescore puts it right; a season renamed after its nights closed names its lists anew."""

from __future__ import annotations

import datetime
import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from matches.clubs import services as clubs
from matches.clubs.backup import club_backup
from matches.clubs.models import Club, ClubTable, Night
from matches.interclub import services as leagues
from matches.interclub.backup import league_backup
from matches.interclub.models import PlayerSeries
from matches.models import ClosedList, Match, RecordMonth
from matches.restore import restore
from matches.tournaments.backup import tournament_backup
from matches.tournaments.models import SeriesList

from .factories import add, make_user
from .test_backup_complete import _wiped
from .test_interclub_exports import played as league_played
from .test_tournaments_backup import played as tournament_played

pytestmark = pytest.mark.django_db

FIGURES = ("table_size", "games", "won", "lost", "others_lost", "game_points", "total")


def rows(**where: Any) -> list[tuple[Any, ...]]:
    """The closed lists, each with its player's name, its place and its figures, in a fixed order."""
    found = ClosedList.objects.filter(**where).order_by("date", "series", "player__name")
    return list(found.values_list("player__name", "kind", "event", "within", "date", "series", *FIGURES))


def night_played() -> tuple[Night, Any]:
    """A club night of three: series 1 by phone (one grand with one matador won by the second seat), series 2 from
    its paper list."""
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24), series=2)
    for name in ("Anna", "Ben", "Cleo"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    add(Match.objects.get(club_table__night=night), declarer=1, contract="grand", matadors=1, declarer_card_points=70)
    clubs.night_draw(night=night, series=2, user=owner)
    paper = ClubTable.objects.select_related("match").get(night=night, series=2)
    by_name = {seat.player.name: seat.player for seat in paper.match.seats.all()}
    footer = {"Anna": (72, 1, 0), "Ben": (-48, 0, 1), "Cleo": (0, 0, 0)}
    clubs.paper_enter(table=paper, lines=[(by_name[name], *line) for name, line in footer.items()], user=owner)
    return night, owner


def test_a_club_nights_lists_are_kept_in_the_core_when_it_closes_and_taken_back_when_it_reopens() -> None:
    night, owner = night_played()
    assert not ClosedList.objects.exists()

    clubs.night_close(night=night, user=owner, unfinished=True)

    season = night.season
    declarer = Match.objects.get(club_table__night=night, club_table__series=1).seats.get(position=1).player.name
    # Series 1: a grand with one matador, 70 card points: 24 × 2 = 48 game points; Seeger-Fabian adds 50 for the
    # game won. Series 2 from paper at a table of three: 50 for each game won, less 50 for each lost, and 40 for
    # each game another player lost (one: Ben's).
    scored = [
        (name, "club", night.public_id, season.public_id, night.date, 1, 3, 1, *figures)
        for name, figures in sorted(
            {
                name: (1, 0, 0, 48, 98) if name == declarer else (0, 0, 0, 0, 0) for name in ("Anna", "Ben", "Cleo")
            }.items()
        )
    ]
    paper = [
        ("Anna", "club", night.public_id, season.public_id, night.date, 2, 3, 36, 1, 0, 1, 72, 162),
        ("Ben", "club", night.public_id, season.public_id, night.date, 2, 3, 36, 0, 1, 0, -48, -98),
        ("Cleo", "club", night.public_id, season.public_id, night.date, 2, 3, 36, 0, 0, 1, 0, 40),
    ]
    assert rows() == scored + paper
    assert set(ClosedList.objects.values_list("event_name", flat=True)) == {"Skatclub Herz Dame · 2026"}

    clubs.night_reopen(night=night, user=owner)
    assert not ClosedList.objects.exists()
    clubs.night_close(night=night, user=owner, unfinished=True)
    assert rows() == scored + paper


def test_a_season_renamed_after_its_nights_closed_names_its_closed_lists_anew() -> None:
    night, owner = night_played()
    clubs.night_close(night=night, user=owner, unfinished=True)
    before = rows()

    clubs.season_update(season=night.season, settings=clubs.SeasonSettings(name="2026/27"), user=owner)

    assert set(ClosedList.objects.values_list("event_name", flat=True)) == {"Skatclub Herz Dame · 2026/27"}
    assert rows() == before
    assert rescore("--check").strip().endswith("0 differences")


def test_a_league_venues_lists_are_kept_in_the_core_as_its_players_series_totals() -> None:
    setup = league_played()
    venue = setup.venue
    group = venue.match_day.group
    kept = sorted(PlayerSeries.objects.filter(venue=venue).values_list("league_player__name", "series", "total"))
    core = sorted(ClosedList.objects.filter(event=venue.public_id).values_list("player__name", "series", "total"))
    assert core == kept
    assert len(core) == Match.objects.filter(venue_table__venue=venue).count() * 4
    assert set(ClosedList.objects.values_list("kind", "within", "date")) == {
        ("league", group.public_id, venue.match_day.date)
    }

    leagues.venue_reopen(venue=venue, user=setup.manager)
    assert not ClosedList.objects.exists()


def test_a_tournaments_closed_series_is_kept_in_the_core_as_its_series_lists_and_an_open_one_is_not() -> None:
    tournament = tournament_played(make_user("olga"))
    kept = sorted(
        SeriesList.objects.filter(series__tournament=tournament).values_list(
            "entry__player__name", "series__number", "table_size", "won", "lost", "others_lost", "game_points"
        )
    )
    core = sorted(
        ClosedList.objects.values_list(
            "player__name", "series", "table_size", "won", "lost", "others_lost", "game_points"
        )
    )
    assert core == kept
    assert {series for _, series, *_ in core} == {1}  # the second series is still being played
    assert set(ClosedList.objects.values_list("kind", "event", "within", "event_name", "date")) == {
        ("tournament", tournament.public_id, tournament.public_id, tournament.name, tournament.date)
    }


def by_public_ids() -> list[tuple[Any, ...]]:
    """The closed lists as a backup knows them: by their matches' and players' public ids."""
    found = ClosedList.objects.order_by("match__public_id", "player__public_id")
    return list(
        found.values_list(
            "match__public_id", "player__public_id", "kind", "event", "event_name", "within", "date", "series", *FIGURES
        )
    )


def test_a_restore_brings_every_kinds_closed_lists_back_with_its_events() -> None:
    night, owner = night_played()
    clubs.night_close(night=night, user=owner, unfinished=True)
    setup = league_played()
    organiser = make_user("tom")
    tournament = tournament_played(organiser)
    before = by_public_ids()
    assert {kind for _, _, kind, *_ in before} == {"club", "league", "tournament"}
    files = [json.loads(json.dumps(club_backup(club))) for club in Club.objects.order_by("pk")]
    files.append(json.loads(json.dumps(league_backup(setup.league))))
    files.append(json.loads(json.dumps(tournament_backup(tournament))))
    _wiped()
    assert not ClosedList.objects.exists()

    for data in files:
        restore(data, user=organiser if "tournament" in data else owner)
    assert by_public_ids() == before


def rescore(*args: str) -> str:
    out = io.StringIO()
    call_command("rescore", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_rescore_reports_a_closed_list_changed_or_lost_behind_the_services_back_and_puts_it_right() -> None:
    night, owner = night_played()
    clubs.night_close(night=night, user=owner, unfinished=True)
    before = rows()
    assert rescore("--check").strip().endswith("0 differences")

    paper = Match.objects.get(club_table__night=night, club_table__series=2)
    ClosedList.objects.filter(match=paper, player__name="Anna").update(total=1000)
    ClosedList.objects.filter(match=paper, player__name="Ben").delete()
    out = io.StringIO()
    # The months a record reads no longer sum the lists as they stand either.
    with pytest.raises(CommandError, match=r"^4 differences"):
        call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
    assert f"closed lists {paper.public_id} ({paper}): 2 players' closed lists differ" in out.getvalue()
    assert "record months: 2 players' months differ" in out.getvalue()

    assert f"closed lists {paper.public_id} ({paper}): 2 players' closed lists rewritten" in rescore()
    assert rows() == before
    assert rescore("--check").strip().endswith("0 differences")


def months() -> set[tuple[object, ...]]:
    return set(
        RecordMonth.objects.values_list(
            "player__name", "month", "kind", "games", "series", "won", "lost", "total", "best"
        )
    )


def test_a_records_months_sum_the_closed_lists_as_they_close_reopen_and_are_put_right() -> None:
    night, owner = night_played()
    assert not RecordMonth.objects.exists()
    clubs.night_close(night=night, user=owner, unfinished=True)
    month = night.date.replace(day=1)
    expected = set()
    # A player's lists of one month are summed by the length of their series (the phone's and the paper's).
    for name, games in set(ClosedList.objects.values_list("player__name", "games")):
        lists = ClosedList.objects.filter(player__name=name, games=games)
        totals = [row.total for row in lists]
        won, lost = sum(row.won for row in lists), sum(row.lost for row in lists)
        expected.add((name, month, "club", games, len(totals), won, lost, sum(totals), max(totals)))
    assert len(expected) == 6
    assert months() == expected

    RecordMonth.objects.filter(player__name="Anna").update(total=0)
    RecordMonth.objects.filter(player__name="Ben").delete()
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"^2 differences"):
        call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
    assert "record months: 2 players' months differ" in out.getvalue()
    assert "record months: 2 players' months rewritten" in rescore()
    assert months() == expected

    clubs.night_reopen(night=night, user=owner)
    assert not RecordMonth.objects.exists()
