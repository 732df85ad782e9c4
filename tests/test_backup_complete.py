"""Nothing a club, a league, a tournament or a person kept is lost in a backup and restore: every field of every model
of the core, of the club app, of the league app and of the tournament app comes back as it was, or is named here
with the reason it is left out. A field added later is caught: it is either kept by the backup, or said here why
not. The corrections a secretary makes (a night re-dated, a series dropped, a paper table turned back to its phones,
a season's settings changed) come back with their history, and a backup made before those were kept still
restores."""

from __future__ import annotations

import datetime
import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import models
from django.test import Client
from django.urls import reverse

from matches.backup import VERSION
from matches.clubs import services as clubs
from matches.clubs.backup import club_backup
from matches.clubs.models import Club, ClubTable, Night, NightLog, Season, SeasonLog
from matches.errors import Invalid
from matches.interclub import services as leagues
from matches.interclub.backup import league_backup
from matches.interclub.models import CheckIn, League, RosterEntry, VenueTable, VenueTeam
from matches.models import Game, Keeper, Match, PaperLine, Player
from matches.restore import restore
from matches.services import DERIVED, Submission, game_delete, game_edit, match_link_renew, match_redo, match_undo
from matches.tournaments import services as tournaments
from matches.tournaments.backup import tournament_backup
from matches.tournaments.models import Entry, Series, Table, TableSeat, Tournament

from .factories import add, make_match, make_user
from .interclub_setup import check_in_all, enter_series, league_setup, roster_player
from .tournaments_setup import SETTINGS, enter_field, enter_paper, play_series

pytestmark = pytest.mark.django_db

OLD_CLUB = Path(__file__).parent / "backups" / "club-version-1.json"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

# What a backup leaves out on purpose, field by field, and why.
NOT_KEPT = {
    # Accounts belong to an instance: a backup names none, and a restore links nobody.
    "matches.Player.account": "an account",
    "matches.Match.created_by": "an account",
    "matches.Game.created_by": "an account",
    "matches.MatchEvent.user": "an account",
    "leagues.NightLog.user": "an account",
    "leagues.SeasonLog.user": "an account",
    "interclub.Team.captain": "an account",
    "interclub.Venue.accepted_by": "an account",
    "interclub.ReportConfirmation.captain": "an account",
    "interclub.Correction.user": "an account",
    "interclub.CheckIn.checked_in_by": "an account",
    "tournaments.Tournament.organiser": "an account (the restoring account organises the tournament)",
    "tournaments.Entry.account": "an account",
    "tournaments.Payment.taken_by": "an account",
    "tournaments.Series.drawn_by": "an account",
    # Links are given out by the instance that serves them: a restore gives out new ones (a locked list none).
    "matches.Player.link_token": "a link",
    # Who a book's player is across the books of this instance is for its people to join: a book names nobody else.
    "matches.Player.person": "a join across this instance's books",
    "matches.Match.invite_token": "a link",
    "matches.Match.share_token": "a link",
    "leagues.Club.screen_token": "a link",
    # What this instance counts for its own pages and phones, not what anybody entered.
    "matches.Match.token": "the token of a retried start, answered by the instance that saw it",
    "matches.Match.version": "counts the changes seen here; a restore starts from its games' last change",
    "matches.Match.updated_at": "the moment of the last write here",
    "leagues.Night.version": "counts the changes seen here, as a match's version does",
    "leagues.Season.version": "counts the rescores of its kept sums seen here, which a restore sums afresh",
    "interclub.Venue.version": "counts the changes seen here, as a match's version does",
    "interclub.Venue.results_version": "the version seen here at which its results last changed, as its version",
    "interclub.Correction.reopened_version": "the venue's version seen here while it was open, as its version",
    "interclub.Correction.closed_version": "the venue's version seen here while it was open, as its version",
    "interclub.Correction.results": "a digest of the results by this instance's ids, to tell whether they changed",
    "interclub.Group.version": "counts the rescores of its kept standings seen here, which a restore sums afresh",
    "tournaments.Tournament.version": "counts the changes seen here, as a match's version does",
}
# Whole models a backup leaves out, and why.
MODELS_NOT_KEPT = {
    "matches.Profile": "an account's preferences",
    "matches.Keeper": "the book a restore writes into is the restoring account's or the club's",
    "matches.ResetRequest": "a password reset asked for here",
    "matches.LoginFailure": "a failed login here",
    "matches.RestoreJob": "a restore run here",
    "matches.RestorePart": "a part of a file uploaded here to restore",
    "matches.FileJob": "a file made here in the background, kept a day",
    "matches.KeptAnswer": "the answers this instance gave to changes asked through its API, for their retries",
    "matches.Person": "a person across this instance's books, joined here",
    "matches.Join": "a join across this instance's books, made here",
    "matches.RankingList": "a ranking list over this instance's events, of an account",
    "matches.RankingEdition": "a ranking list as an account published it here",
    "matches.RankingEvent": "an event a ranking list of this instance counts",
    "matches.RankingPlace": "a place of a ranking list of this instance as it stands",
    "matches.RankingDue": "a period of a ranking list of this instance waiting to be kept anew",
    "matches.MemberImport": "a member list brought into a book here, with the joins it made here",
    "leagues.Membership": "accounts",
    "interclub.LeagueManager": "accounts",
}
# Fields that hold one value in every row for now, kept by the backup all the same: a league and a tournament play
# Skat by Seeger-Fabian, the only variant and scheme either can have yet.
ONE_VALUE = {
    "interclub.League.variant",
    "interclub.League.scheme",
    "tournaments.Tournament.variant",
    "tournaments.Tournament.scheme",
}
APPS = ("matches", "leagues", "interclub", "tournaments")


def _label(field: models.Field[Any, Any]) -> str:
    return f"{field.model._meta.label}.{field.name}"


def _models() -> Iterator[type[models.Model]]:
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            if model._meta.label not in MODELS_NOT_KEPT:
                yield model


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields a round trip must keep: every concrete one but the database id and those named above."""
    return [field for field in model._meta.concrete_fields if not field.primary_key and _label(field) not in NOT_KEPT]


def _reference(row: models.Model) -> Any:
    """What a row is called by another, the same in any database: its public id, or what it holds."""
    if isinstance(row, User):
        return row.username
    if isinstance(row, Keeper):
        club = Club.objects.filter(keeper=row).first()
        return ("club", str(club.public_id)) if club else ("user", row.user.username if row.user else None)
    public_id = getattr(row, "public_id", None)
    if public_id is not None:
        return str(public_id)
    return tuple(_value(row, field) for field in _fields(type(row)))


def _value(row: models.Model, field: models.Field[Any, Any]) -> Any:
    if isinstance(row, Game) and row.deleted and field.name in DERIVED:
        # A deleted game keeps what it was scored at until then; nothing reads it, and a restore scores the live ones.
        return None
    if field.is_relation:
        target = getattr(row, field.name)
        return None if target is None else _reference(target)
    value = getattr(row, field.attname)
    if isinstance(value, datetime.datetime | datetime.date | uuid.UUID):
        return str(value)
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def _snapshot() -> dict[str, dict[str, list[Any]]]:
    """Every kept field of every row of the core and the club app, as each model's column of values, in order."""
    columns: dict[str, dict[str, list[Any]]] = {}
    for model in _models():
        rows = list(model._default_manager.all())
        columns[model._meta.label] = {
            field.name: sorted((_value(row, field) for row in rows), key=repr) for field in _fields(model)
        }
        columns[model._meta.label]["rows"] = sorted(
            (tuple(_value(row, field) for field in _fields(model)) for row in rows), key=repr
        )
    return columns


def _book(owner: User) -> None:
    """An owner's own matches: a preset, another first dealer, Bock, a game by value, and every kind of change."""
    match = make_match(
        owner, preset="skat-pub", rules={"bock": True, "kontra_re": True}, title="Donnerstag", first_dealer=1
    )
    games = [
        add(match, declarer=(number + 2) % 3, contract="grand", hand=True, matadors=1, declarer_card_points=70)
        for number in range(4)
    ]
    add(match, declarer=0, contract="value", value=18, won=True)
    add(make_match(owner, names=("Anna", "Dora", "Emil")), passed=True)
    edited = Submission(
        declarer=games[1].declarer, entry={"contract": "clubs", "matadors": 2, "declarer_card_points": 40}
    )
    game_edit(game=games[1], user=owner, token=uuid.uuid4(), submission=edited)
    game_delete(game=games[3], user=owner, token=uuid.uuid4())
    match_undo(match=match, user=owner, token=uuid.uuid4())
    match_redo(match=match, user=owner, token=uuid.uuid4())


MEMBERS = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred")
GUESTS = ("Gus",)


def _club(owner: User) -> Club:
    """A club whose secretary corrected what can be corrected: a season's settings changed, a series dropped and
    drawn again with the guests at the last table, a paper table turned back to its phones, a night re-dated, closed,
    reopened and closed again, and a night opened by mistake removed."""
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    changed = clubs.SeasonSettings(
        name="Saison 2026",
        rules={"kontra_re": True},
        plan="threes",
        games_at_four=3,  # the table of four plays its series in three games: series 2 is seated by series 1
        games_at_three=24,
        games_at_two=16,
        ranking="best-nights",
        minimum_lists=1,
        best_nights=3,
        guests_ranked=False,
        categories=["Damen"],
        stake=500,
        list_fee=100,
        lost_fees=[(1, 50)],
    )
    clubs.season_update(season=season, settings=changed, user=owner)
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 10), series=2)
    for name in (*MEMBERS, *GUESTS):
        clubs.check_in(night=night, name=name, guest=name in GUESTS)
    anna = Player.objects.get(keeper=club.keeper, name="Anna")
    clubs.roster_set(club=club, player=anna, guest=False, first_name_only=True, categories=["Damen"])
    clubs.pot_set(night=night, player=Player.objects.get(keeper=club.keeper, name="Ben"), in_pot=False)
    clubs.night_draw(night=night, series=1, user=owner, guests_from=2)
    clubs.series_drop(night=night, series=1, user=owner)
    clubs.night_draw(night=night, series=1, user=owner, guests_from=2)
    played, on_paper = ClubTable.objects.filter(night=night, series=1).select_related("match").order_by("number")
    four = played if played.match.players == 4 else on_paper
    three = on_paper if four is played else played
    for number in range(3):
        dealer = (four.match.first_dealer + number) % 4
        add(four.match, declarer=(dealer + 1) % 4, contract="grand", matadors=1, declarer_card_points=70)
    seated = [seat.player for seat in three.match.seats.order_by("position")]
    paper = [(seated[0], 48, 1, 0), (seated[1], -96, 0, 1), (seated[2], 0, 0, 0)]
    clubs.paper_enter(table=three, lines=paper)
    clubs.paper_to_phones(table=three, user=owner)
    clubs.paper_enter(table=three, lines=[(seated[0], 72, 2, 0), (seated[1], 0, 0, 0), (seated[2], -48, 0, 1)])
    clubs.night_draw(night=night, series=2, user=owner, seating="series")
    clubs.night_redate(night=night, date=datetime.date(2026, 11, 17), user=owner)
    clubs.night_close(night=night, user=owner, unfinished=True)
    clubs.night_reopen(night=night, user=owner)
    clubs.night_close(night=night, user=owner, unfinished=True)
    mistaken = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    clubs.check_in(night=mistaken, name="Anna")
    clubs.night_remove(night=mistaken, user=owner)
    later = clubs.night_create(season=season, date=datetime.date(2026, 12, 1))
    clubs.check_in(night=later, name="Anna")
    return club


LEAGUE_SCORES = (
    {"Herz Dame I": 3683, "Kreuz Bube I": 3000, "Pik As I": 2900, "Karo Sieben I": 2800},
    {"Herz Dame I": 3283, "Kreuz Bube I": 3400, "Pik As I": 3300, "Karo Sieben I": 3000},
)


def _league() -> League:
    """A league whose venue of two series was played, closed, confirmed, reopened before acceptance, closed and
    confirmed again, accepted and corrected, and a second match day's venue closed and not accepted yet, a player on
    a roster with a federation number, one taken off a roster; and another league with every setting changed and a
    second division."""
    setup = league_setup(series=2)
    roster_player(setup.teams[0], "Herz Fünf", federation_number="10100042", substitute=True)
    leagues.roster_remove(entry=roster_player(setup.teams[1], "Kreuz Fünf"))
    secretary = setup.secretaries[0]
    for number, scores in enumerate(LEAGUE_SCORES, start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=secretary)
        enter_series(setup, number, scores, secretary)
    leagues.venue_close(venue=setup.venue, user=secretary)
    leagues.report_confirm(venue=setup.venue, team=setup.teams[0], user=setup.captains[0])
    leagues.venue_reopen(venue=setup.venue, user=secretary)
    leagues.venue_close(venue=setup.venue, user=secretary)
    leagues.report_confirm(venue=setup.venue, team=setup.teams[0], user=setup.captains[0])
    leagues.report_accept(venue=setup.venue, user=setup.manager)
    leagues.venue_reopen(venue=setup.venue, user=setup.manager, reason="Tisch 2 falsch übertragen")
    leagues.venue_close(venue=setup.venue, user=setup.manager)
    # A second match day, closed and not accepted yet: the standings count it as provisional.
    day = leagues.match_day_create(group=setup.group, number=2, date=datetime.date(2026, 10, 17))
    setup.venue = leagues.venue_create(match_day=day, teams=setup.teams, host_team=setup.teams[1], series=2)
    for number, scores in enumerate(LEAGUE_SCORES, start=1):
        check_in_all(setup, number)
        leagues.series_seat(venue=setup.venue, series=number, user=secretary)
        enter_series(setup, number, scores, secretary)
    leagues.venue_close(venue=setup.venue, user=secretary)
    settings = leagues.LeagueSettings(
        name="Landesliga",
        rules={"kontra_re": True},
        series_per_day=2,
        games_at_four=40,
        games_at_three=30,
        series_tie="better-place",
        short_venue="absent-beaten",
        per_team_beaten=2,
        minus_counts=True,
        table_tie="lot",
        minimum_series=2,
    )
    other = leagues.league_create(owner=setup.manager, settings=settings)
    leagues.division_create(league=other, name="Landesliga B", level=2)
    return setup.league


def _tournament(owner: User, club: Club) -> None:
    """A club's tournament with a tandem and a team, an entrant with a federation number, a payment corrected, a
    first series played (a table by phone, the others on paper) and closed, an entrant withdrawn, and a second
    series seated by the standings and half played; and another tournament with every other setting changed."""
    tournament = tournaments.tournament_announce(
        organiser=owner,
        settings=replace(SETTINGS, tandem_fee=300, team_fee=400, tandem_prizes=tournaments.Schedule((6000, 4000))),
        club=club,
    )
    entries = enter_field(tournament, 13, online=2)
    form = tournaments.EntryForm("Fritz", club="SC Pik", federation_number="10100042")
    entries.append(tournaments.entry_at_door(tournament=tournament, form=form, user=owner))
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Herz Dame", entries=entries[:2])
    tournaments.side_enter(tournament=tournament, kind="team", name="Die Vier", entries=entries[2:6])
    tournaments.entry_pay(entry=entries[2], amount=500, user=owner)
    tournaments.entry_pay(entry=entries[2], amount=-200, user=owner)
    tournaments.series_draw(tournament=tournament, number=1, user=owner)
    first = Series.objects.get(tournament=tournament, number=1)
    play_series(first, phones=(1,))
    tournaments.series_close(series=first, user=owner)
    tournaments.entry_withdraw(entry=entries[13])
    tournaments.series_draw(tournament=tournament, number=2, seating="standings", user=owner)
    enter_paper(Table.objects.select_related("match").get(series__tournament=tournament, series__number=2, number=1))
    other = replace(
        SETTINGS,
        name="Skat-Open",
        series=2,
        seats=40,
        share_kind="fixed",
        share_value=1000,
        keeps_list_fees=False,
        keeps_lost_game_fees=False,
        doubles="both",
        late_entries=False,
        categories=(),
    )
    tournaments.tournament_announce(organiser=owner, settings=other)


def _tournament_files() -> list[dict[str, Any]]:
    """The backups of the tournaments, without the moment they were made."""
    made = [tournament_backup(one) for one in Tournament.objects.order_by("name")]
    for data in made:
        data.pop("created")
    copies: list[dict[str, Any]] = json.loads(json.dumps(made))
    return copies


def _league_files() -> list[dict[str, Any]]:
    """The backups of the leagues' clubs, then of the leagues, without the moment they were made."""
    clubs = Club.objects.filter(league_teams__isnull=False).distinct().order_by("name")
    made = [club_backup(club) for club in clubs] + [league_backup(league) for league in League.objects.order_by("name")]
    for data in made:
        data.pop("created")
    copies: list[dict[str, Any]] = json.loads(json.dumps(made))
    return copies


def _downloaded(client: Client, club: Club) -> tuple[dict[str, Any], dict[str, Any]]:
    """The owner's own backup and the club's, as the pages give them, without the moment they were made."""
    made = []
    for address in (reverse("backup_download"), reverse("club_backup", args=[club.public_id])):
        answer = client.get(address)
        assert answer.status_code == 200
        data = json.loads(answer.content)
        data.pop("created")
        made.append(data)
    return made[0], made[1]


def _wiped() -> None:
    # A league's rows that hold on to a team, a roster entry or a match go first, as the database protects those.
    protected: tuple[type[models.Model], ...] = (CheckIn, VenueTeam, VenueTable, RosterEntry, League)
    protected += (TableSeat, PaperLine, Table, Entry, Tournament)
    for league_model in protected:
        league_model._default_manager.all().delete()
    Club.objects.all().delete()
    for model in (Match, Player, Keeper):
        model.objects.all().delete()


@pytest.fixture
def owner() -> User:
    return make_user("olga")


@pytest.mark.slow
def test_every_field_of_every_model_comes_back_from_a_backup_or_is_named_as_left_out(
    client: Client, owner: User
) -> None:
    _book(owner)
    club = _club(owner)
    _league()
    _tournament(owner, club)
    client.force_login(owner)
    own, clubs_own = _downloaded(client, club)
    leagues_own = _league_files()
    tournaments_own = _tournament_files()
    before = _snapshot()
    for label, columns in before.items():
        for name, column in columns.items():
            if name == "rows" or f"{label}.{name}" in ONE_VALUE:
                continue
            field = apps.get_model(label)._meta.get_field(name)
            # A field the scene leaves at its default everywhere would pass whether it is kept or not.
            assert any(value not in (None, _default(field)) for value in column), f"{label}.{name} is never set"
    _wiped()
    for data in (own, clubs_own, *leagues_own, *tournaments_own):
        restore(json.loads(json.dumps(data)), user=owner)
    after = _snapshot()
    for label, columns in before.items():
        for name, column in columns.items():
            assert after[label][name] == column, f"{label}.{name}"
    assert _downloaded(client, Club.objects.get(public_id=club.public_id)) == (own, clubs_own)
    assert _league_files() == leagues_own
    assert _tournament_files() == tournaments_own


def _default(field: models.Field[Any, Any]) -> Any:
    default = field.get_default()
    return json.dumps(default) if isinstance(default, dict | list) else default


def test_what_is_named_as_left_out_is_a_field_there_is() -> None:
    labels = {_label(field) for model in apps.get_models() for field in model._meta.concrete_fields}
    assert set(NOT_KEPT) <= labels
    assert set(MODELS_NOT_KEPT) <= {model._meta.label for model in apps.get_models()}
    assert labels >= ONE_VALUE


def _history(client: Client, address: str) -> list[str]:
    """The entries of a page's history as a secretary reads them, each without its author (accounts are not in a
    backup)."""
    page = client.get(address).content.decode()
    section = page.split('id="history-title"', 1)[1].split("</section>", 1)[0]
    entries = re.findall(r"<li>(.*?)</li>", section, re.S)
    return [" · ".join(part for index, part in enumerate(entry.split(" · ")) if index != 1) for entry in entries]


def test_a_clubs_corrections_come_back_with_their_history(client: Client, owner: User) -> None:
    club = _club(owner)
    client.force_login(owner)
    season = Season.objects.get(club=club)
    night = Night.objects.get(season=season, date=datetime.date(2026, 11, 17))
    pages = (reverse("night_edit", args=[night.public_id]), reverse("season_edit", args=[season.public_id]))
    histories = [_history(client, page) for page in pages]
    assert [entry.action for entry in night.log.all()] == ["drop", "phones", "redate", "close", "reopen", "close"]
    assert [entry.action for entry in season.log.all()] == ["edit", "remove-night"]
    tables = list(
        ClubTable.objects.filter(night=night).values_list("series", "number", "guests_from", "match__ended_link")
    )
    assert all(table[3] for table in tables)
    logs = (
        list(NightLog.objects.filter(night=night).values_list("action", "details", "created_at")),
        list(SeasonLog.objects.filter(season=season).values_list("action", "details", "created_at")),
    )
    _, data = _downloaded(client, club)
    _wiped()
    restore(json.loads(json.dumps(data)), user=owner)
    assert [_history(client, page) for page in pages] == histories
    assert any(": 48 game points, 1 won, 0 lost" in entry for entry in histories[0])
    assert any("from " in entry for entry in histories[0])
    assert (
        list(NightLog.objects.filter(night__public_id=night.public_id).values_list("action", "details", "created_at")),
        list(
            SeasonLog.objects.filter(season__public_id=season.public_id).values_list("action", "details", "created_at")
        ),
    ) == logs
    restored = ClubTable.objects.filter(night__public_id=night.public_id)
    assert list(restored.values_list("series", "number", "guests_from", "match__ended_link")) == tables
    closed = client.get(reverse("match_join", args=[tables[0][3]]))
    assert closed.status_code == 410
    assert "Skatclub Herz Dame" in closed.content.decode()


def test_a_backup_made_before_the_histories_were_kept_still_restores(client: Client, owner: User) -> None:
    data = json.loads(OLD_CLUB.read_text())
    assert data["version"] == 1
    assert restore(data, user=owner) == {"players": 3, "matches": 2, "games": 2, "nights": 2}
    club = Club.objects.get()
    closed = Night.objects.get(season__club=club, closed_at__isnull=False)
    assert list(closed.log.values_list("action", "details")) == [("close", {})]
    assert ClubTable.objects.filter(night=closed, paper=True).count() == 1
    assert closed.standings.count() == 3
    client.force_login(owner)
    assert client.get(reverse("night_edit", args=[closed.public_id])).status_code == 200
    assert restore(data, user=owner) == {"players": 0, "matches": 0, "games": 0, "nights": 0}
    _, again = _downloaded(client, club)
    assert again["version"] == VERSION
    _wiped()
    assert restore(again, user=owner)["nights"] == 2


def _club_file(owner: User, client: Client) -> dict[str, Any]:
    club = _club(owner)
    client.force_login(owner)
    _, data = _downloaded(client, club)
    _wiped()
    return data


def _night_of(data: dict[str, Any]) -> dict[str, Any]:
    nights: list[dict[str, Any]] = data["club"]["seasons"][0]["nights"]
    return next(night for night in nights if night["log"])


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: _night_of(data)["log"][0]["details"].update(tables=[5]),
        lambda data: _night_of(data)["log"][1]["details"]["lines"][0].pop("name"),
        lambda data: _night_of(data)["log"][2].update(details="today"),
        lambda data: _night_of(data)["log"][2]["details"].update(to="soon"),
        lambda data: data["club"]["seasons"][0]["log"][0]["details"].update(before={"password": 1}),
        lambda data: data["club"]["seasons"][0]["log"][0].update(action="explode"),
        lambda data: data["club"]["seasons"][0].pop("log"),
        lambda data: _night_of(data)["tables"][0].update(guests_from=-1),
        lambda data: _night_of(data).update(created_at="yesterday"),
        lambda data: data["matches"][0].update(ended_link=5),
        lambda data: data["matches"][0].update(ended_link="x" * 41),
        lambda data: data["matches"][0].update(ended_link="not/a link"),
    ],
    ids=[
        "dropped tables not names",
        "paper line without name",
        "details not an object",
        "date not a date",
        "setting unknown",
        "action unknown",
        "season history missing",
        "guests from -1",
        "created not a moment",
        "ended link not text",
        "ended link too long",
        "ended link not a link",
    ],
)
def test_a_damaged_history_is_refused_whole(client: Client, owner: User, damage: Any) -> None:
    data = _club_file(owner, client)
    damage(data)
    with pytest.raises(Invalid, match="damaged"):
        restore(data, user=owner)
    assert not Club.objects.exists()


def _links_on_the_tables(data: dict[str, Any]) -> dict[str, Any]:
    """The club's file as version 3 wrote it, before the core kept the links of closed lists: the link each table
    had when its night closed is the table's (``closed_link``), its match has none."""
    old: dict[str, Any] = json.loads(json.dumps(data))
    links = {match["id"]: match.pop("ended_link") for match in old["matches"]}
    for season in old["club"]["seasons"]:
        for night in season["nights"]:
            for table in night["tables"]:
                table["closed_link"] = links[table["match"]]
    return {**old, "version": 3}


def test_a_file_that_kept_the_links_on_the_tables_gives_them_to_the_matches(client: Client, owner: User) -> None:
    data = _club_file(owner, client)
    old = _links_on_the_tables(data)
    links = [table["closed_link"] for table in _night_of(old)["tables"]]
    assert links
    assert all(links)
    assert "ended_link" not in json.dumps(old)
    assert restore(old, user=owner)["nights"] == 2
    tables = ClubTable.objects.filter(night__public_id=_night_of(old)["id"]).order_by("series", "number")
    assert list(tables.values_list("match__ended_link", flat=True)) == links
    closed = client.get(reverse("match_join", args=[links[0]]))
    assert closed.status_code == 410
    assert "Skatclub Herz Dame" in closed.content.decode()
    # Made again, the file keeps the links on the matches, as a file made before it was restored.
    _, again = _downloaded(client, Club.objects.get())
    assert again == data


@pytest.mark.parametrize("old", [False, True], ids=["on the matches", "on the tables, before version 4"])
def test_a_file_may_not_take_over_the_ended_link_of_a_match_here(client: Client, owner: User, old: bool) -> None:
    data = _club_file(owner, client)
    restore(json.loads(json.dumps(data)), user=owner)
    matches = Match.objects.count()
    mal = make_user("mal")
    # Another club's file in every public id, with the ended links of the club's matches here.
    renamed: dict[str, str] = {}
    shaped = _links_on_the_tables(data) if old else data
    theirs = re.sub(UUID, lambda found: renamed.setdefault(found[0], str(uuid.uuid4())), json.dumps(shaped))
    assert re.search(r'"(ended|closed)_link": "[^"]+"', theirs)
    with pytest.raises(Invalid, match="does not fit"):
        restore(json.loads(theirs), user=mal)
    assert Club.objects.count() == 1
    assert Match.objects.count() == matches
    links = re.sub(r'"(ended|closed)_link": "[^"]*"', r'"\1_link": ""', theirs)
    assert restore(json.loads(links), user=mal)["nights"] == 2


@pytest.mark.parametrize("old", [False, True], ids=["on the matches", "on the tables, before version 4"])
def test_a_file_may_not_take_over_a_scoring_link_given_out_here(client: Client, owner: User, old: bool) -> None:
    data = _club_file(owner, client)
    quentin = make_user("quentin")
    live = match_link_renew(match=make_match(quentin), link="invite", user=quentin).invite_token
    assert live
    # The file gives the link a table's code shows here now to a closed list of its own.
    shaped = _links_on_the_tables(data) if old else data
    first = re.search(r'"(ended|closed)_link": "([^"]+)"', json.dumps(shaped))
    assert first is not None
    theirs = json.dumps(shaped).replace(first[2], live)
    with pytest.raises(Invalid, match="does not fit"):
        restore(json.loads(theirs), user=owner)
    assert not Club.objects.exists()
    assert Match.objects.filter(invite_token=live).count() == 1
    assert not Match.objects.filter(ended_link=live).exists()
    assert restore(json.loads(json.dumps(shaped)), user=owner)["nights"] == 2
