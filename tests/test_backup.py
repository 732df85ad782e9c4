"""Backup and restore: a file with everything of an account or a club, restored into an empty database, gives the
same lists, totals, histories and standings; restoring it twice changes nothing."""

import datetime
import io
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from matches.backup import account_backup
from matches.clubs import services as clubs
from matches.clubs.backup import club_backup
from matches.clubs.models import Club, ClubTable, Membership, Night, NightStanding, Season, SeasonStanding
from matches.clubs.selectors import night_results, season_table
from matches.errors import Invalid
from matches.models import Game, GameScore, Keeper, Match, MatchEvent, Player
from matches.restore import restore
from matches.selectors import match_sheet
from matches.services import Submission, game_delete, game_edit, match_redo, match_undo

from .factories import add, make_match, make_user, run_tasks

pytestmark = pytest.mark.django_db


def _book(owner: User) -> None:
    """An owner's matches with every kind of change in their history."""
    match = make_match(owner, rules={"bock": True, "kontra_re": True}, title="Donnerstag")
    games = [
        add(match, declarer=(number + 1) % 3, contract="clubs", matadors=1, declarer_card_points=70)
        for number in range(5)
    ]
    add(match, passed=True)
    game_edit(
        game=games[1],
        user=owner,
        token=uuid.uuid4(),
        submission=Submission(
            declarer=games[1].declarer, entry={"contract": "grand", "matadors": 2, "declarer_card_points": 40}
        ),
    )
    game_delete(game=games[3], user=owner, token=uuid.uuid4())
    match_undo(match=match, user=owner, token=uuid.uuid4())
    match_redo(match=match, user=owner, token=uuid.uuid4())
    officers = make_match(owner, variant="officers-skat", names=("Anna", "Dora"))
    add(officers, declarer=1, contract="hearts", matadors=1, declarer_card_points=80)


def _state(keeper_of: Any) -> dict[str, Any]:
    """What a person sees of every match: its list, totals and history, by public id."""
    state = {}
    for match in Match.objects.filter(keeper__in=keeper_of).order_by("public_id"):
        sheet = match_sheet(match)
        state[str(match.public_id)] = {
            "title": match.title,
            "rows": [(row.number, row.scores, row.totals, row.bock, row.won) for row in sheet.rows],
            "totals": match.totals,
            "history": list(
                MatchEvent.objects.filter(match=match)
                .order_by("version", "id")
                .values_list("public_id", "action", "number")
            ),
            "seats": list(match.seats.order_by("position").values_list("player__public_id", "player__name")),
        }
    return state


def _wipe() -> None:
    for model in (Match, Player, Keeper):
        model.objects.all().delete()


def test_an_accounts_backup_restored_into_an_empty_database_gives_the_same_lists() -> None:
    owner = make_user("olga")
    _book(owner)
    before = _state(Keeper.objects.filter(user=owner))
    scores = sorted(GameScore.objects.values_list("game__public_id", "seat", "player__public_id", "points"))
    data = json.loads(json.dumps(account_backup(owner)))
    _wipe()
    counts = restore(data, user=owner)
    assert counts == {"players": 4, "matches": 2, "games": 7, "nights": 0}  # the deleted game comes along
    assert _state(Keeper.objects.filter(user=owner)) == before
    assert sorted(GameScore.objects.values_list("game__public_id", "seat", "player__public_id", "points")) == scores


def test_restoring_the_same_file_twice_changes_nothing() -> None:
    owner = make_user("olga")
    _book(owner)
    data = json.loads(json.dumps(account_backup(owner)))
    _wipe()
    restore(data, user=owner)
    rows = (Match.objects.count(), Game.objects.count(), MatchEvent.objects.count(), Player.objects.count())
    versions = list(Match.objects.order_by("pk").values_list("version", flat=True))
    assert restore(data, user=owner) == {"players": 0, "matches": 0, "games": 0, "nights": 0}
    assert (Match.objects.count(), Game.objects.count(), MatchEvent.objects.count(), Player.objects.count()) == rows
    assert list(Match.objects.order_by("pk").values_list("version", flat=True)) == versions


def _club(owner: User) -> Club:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026", stake=500, list_fee=100))
    for date in (datetime.date(2026, 11, 17), datetime.date(2026, 11, 24)):
        night = clubs.night_create(season=season, date=date)
        for name in ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus"):
            clubs.check_in(night=night, name=name, guest=name == "Gus")
        clubs.night_draw(night=night, series=1, user=owner)
        first, second = ClubTable.objects.filter(night=night).select_related("match").order_by("number")
        for number in range(3):
            declarer = (first.match.first_dealer + number + 1) % first.match.players
            if declarer == (first.match.first_dealer + number) % 4:
                declarer = (declarer + 1) % 4
            add(
                first.match,
                declarer=declarer,
                contract="grand",
                matadors=1,
                declarer_card_points=40 + 20 * (number % 2),
            )
        seated = [seat.player for seat in second.match.seats.order_by("position")]
        clubs.paper_enter(table=second, lines=[(seated[0], 48, 1, 0), (seated[1], -96, 0, 1), (seated[2], 0, 0, 0)])
        if date.day == 17:
            clubs.night_close(night=night, user=owner, unfinished=True)
    return club


def _club_state(club: Club) -> dict[str, Any]:
    season = Season.objects.get(club=club)
    table = season_table(season)
    nights = {}
    for night in Night.objects.filter(season=season).order_by("date"):
        results = night_results(night)
        nights[str(night.public_id)] = (
            night.closed,
            [
                (place.place, results.players[place.standing.player].name, place.standing.score)
                for place in results.night_places
            ],
            [(account.player, account.balance) for account in results.accounts],
        )
    return {
        "table": [
            (place.place, table.players[place.standing.player].name, place.standing.score) for place in table.places
        ],
        "nights": nights,
        "standings": sorted(SeasonStanding.objects.filter(season=season).values_list("player__name", "score", "lists")),
        "kept": sorted(NightStanding.objects.filter(night__season=season).values_list("player__name", "score")),
    }


def test_a_clubs_backup_restored_gives_the_same_nights_and_season_table() -> None:
    owner = make_user("olga")
    club = _club(owner)
    before = _club_state(club)
    matches = _state(Keeper.objects.filter(club=club))
    data = json.loads(json.dumps(club_backup(club)))
    Club.objects.all().delete()
    _wipe()
    counts = restore(data, user=owner)
    assert counts["nights"] == 2
    restored = Club.objects.get()
    assert restored.public_id == club.public_id
    assert _club_state(restored) == before
    assert _state(Keeper.objects.filter(club=restored)) == matches
    assert restore(data, user=owner) == {"players": 0, "matches": 0, "games": 0, "nights": 0}


def test_what_is_not_a_backup_is_refused_and_nothing_is_written() -> None:
    owner = make_user("olga")
    for wrong in ({}, {"format": "something else"}, {"format": "scorekeeper-backup", "version": 99}):
        with pytest.raises(Invalid):
            restore(wrong, user=owner)
    damaged = {
        "format": "scorekeeper-backup",
        "version": 1,
        "players": [{"id": "not-a-uuid", "name": "X"}],
        "matches": [],
    }
    with pytest.raises(Invalid, match="damaged"):
        restore(damaged, user=owner)
    assert not Player.objects.exists()


def test_the_commands_back_up_and_restore_by_those_names(tmp_path: Path) -> None:
    owner = make_user("olga")
    _book(owner)
    before = _state(Keeper.objects.filter(user=owner))
    file = tmp_path / "olga.json"
    call_command("backup", str(file), user="olga", stdout=io.StringIO())
    _wipe()
    out = io.StringIO()
    call_command("restore", str(file), user="olga", stdout=out)
    assert "2 matches" in out.getvalue()
    assert _state(Keeper.objects.filter(user=owner)) == before


@pytest.mark.django_db(transaction=True)
def test_the_backup_page_downloads_and_the_worker_restores_what_it_uploads(client: Client) -> None:
    owner = make_user("olga")
    _book(owner)
    client.force_login(owner)
    download = client.get(reverse("backup_download"))
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    body = download.content
    _wipe()
    upload = SimpleUploadedFile("olga.json", body, content_type="application/json")
    queued = client.post(reverse("backup"), {"file": upload})
    assert queued.status_code == 302
    assert "Waiting to start." in client.get(queued["Location"]).content.decode()
    assert Match.objects.count() == 0
    run_tasks()
    page = client.get(queued["Location"]).content.decode()
    assert "Restored: 4 players, 2 matches, 7 games, 0 club nights." in page
    assert Match.objects.count() == 2
    assert "olga.json" in client.get(reverse("backup")).content.decode()
    bad = client.post(reverse("backup"), {"file": SimpleUploadedFile("x.json", b"{not json")})
    assert bad.status_code == 400
    assert "This is not a backup file" in bad.content.decode()
    other = client.post(reverse("backup"), {"file": SimpleUploadedFile("x.json", b'{"format": "something else"}')})
    assert other.status_code == 400
    assert "This is not a backup file" in other.content.decode()


def test_only_a_clubs_owner_downloads_its_backup() -> None:
    owner, secretary = make_user("olga"), make_user("sven")
    club = clubs.club_create(owner=owner, name="Grand Hand")
    clubs.member_set(club=club, username="sven", role="secretary")
    browser = Client()
    browser.force_login(secretary)
    assert browser.get(reverse("club_backup", args=[club.public_id])).status_code == 404
    browser.force_login(owner)
    assert browser.get(reverse("club_backup", args=[club.public_id])).status_code == 200


def _damaged(data: dict[str, Any], user: User) -> None:
    with pytest.raises(Invalid):
        restore(data, user=user)


def test_a_file_naming_somebody_elses_club_match_player_or_season_is_refused() -> None:
    olga, mal = make_user("olga"), make_user("mal")
    club = _club(olga)
    own = make_match(olga, names=("Anna", "Ben", "Cleo"))
    stolen_club = json.loads(json.dumps(club_backup(club)))
    with pytest.raises(Invalid, match="does not fit"):
        restore(stolen_club, user=mal)
    assert not Membership.objects.filter(user=mal).exists()
    mals_club = clubs.club_create(owner=mal, name="Grand Hand")
    theirs = json.loads(json.dumps(club_backup(mals_club)))
    season = Season.objects.get(club=club)
    for wrong in (
        {**theirs, "matches": [{**account_backup(olga)["matches"][0]}]},  # olga's match
        {**theirs, "players": [{"id": str(own.seats.first().player.public_id), "name": "Anna"}]},  # type: ignore[union-attr]
        {**theirs, "club": {**theirs["club"], "seasons": [{**stolen_club["club"]["seasons"][0]}]}},  # olga's season
    ):
        with pytest.raises(Invalid, match="does not fit"):
            restore(wrong, user=mal)
    assert Night.objects.filter(season=season).count() == 2
    assert own.keeper.user == olga


def test_accounts_named_nowhere_in_a_backup_and_linked_to_nothing_on_restore() -> None:
    olga, ben = make_user("olga"), make_user("ben")
    make_match(olga, names=("Anna", "Ben", "Cleo"))
    player = Player.objects.get(name="Ben")
    player.account = ben
    player.save()
    data = json.loads(json.dumps(account_backup(olga)))
    assert '"account"' not in json.dumps(data)
    _wipe()
    restore(data, user=olga)
    assert not Player.objects.filter(account__isnull=False).exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data["matches"][0]["games"][0].update(position=10**30),
        lambda data: data["matches"][0]["games"][0].update(passed="no"),
        lambda data: data["matches"][0]["games"][0].update(declarer=7),
        lambda data: data["matches"][0]["history"][0].update(before="zz"),
        lambda data: data["matches"][0].update(variant="nope"),
        lambda data: data["players"][0].update(name=""),
        lambda data: data["players"][0].update(name="x" * 500),
        lambda data: data.update(players="everybody"),
    ],
    ids=[
        "huge position",
        "passed no",
        "declarer 7",
        "history zz",
        "variant nope",
        "empty name",
        "long name",
        "no list",
    ],
)
def test_a_damaged_file_is_refused_whole(damage: Any) -> None:
    owner = make_user("olga")
    _book(owner)
    data = json.loads(json.dumps(account_backup(owner)))
    _wipe()
    damage(data)
    _damaged(data, owner)
    assert not Match.objects.exists()
    assert not Player.objects.exists()


def test_a_clubs_season_that_breaks_the_rules_is_refused() -> None:
    owner = make_user("olga")
    club = _club(owner)
    data = json.loads(json.dumps(club_backup(club)))
    Club.objects.all().delete()
    _wipe()
    data["club"]["seasons"][0]["variant"] = "poker"
    _damaged(data, owner)
    assert not Club.objects.exists()


def test_a_clubs_paper_list_that_no_series_can_produce_is_refused_naming_its_table() -> None:
    owner = make_user("olga")
    club = _club(owner)
    data = json.loads(json.dumps(club_backup(club)))
    Club.objects.all().delete()
    _wipe()
    table = data["club"]["seasons"][0]["nights"][0]["tables"][1]
    table["paper_lines"][0].update(game_points=99_999, won=96, lost=96)
    with pytest.raises(Invalid, match=r"paper list of table 2, series 1 \(2026-11-17\)") as refused:
        restore(data, user=owner)
    assert "Nothing was restored" in str(refused.value)
    assert not Club.objects.exists()
    assert not Match.objects.exists()
    assert not Player.objects.exists()


def test_a_file_nested_too_deep_for_the_json_reader_is_a_form_error(client: Client) -> None:
    client.force_login(make_user("olga"))
    deep = b"[" * 100_000 + b"]" * 100_000
    answer = client.post(reverse("backup"), {"file": SimpleUploadedFile("deep.json", deep)})
    assert answer.status_code == 400
