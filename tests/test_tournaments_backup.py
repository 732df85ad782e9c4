"""A tournament's backup: everything of it in one file (its book, settings, categories, entries with their payments,
tandems and teams, every drawn series with its tables, seats and paper lists), and a restore that brings it back
with nothing lost, its closed series' lists summed afresh; for those who manage it, from the page or the command
line."""

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

from matches.clubs import services as clubs
from matches.clubs.models import Club
from matches.errors import Invalid
from matches.models import Keeper, Match, PaperLine, Player
from matches.restore import restore
from matches.tournaments import services as tournaments
from matches.tournaments.backup import tournament_backup
from matches.tournaments.models import Entry, Series, SeriesList, Table, TableSeat, Tournament
from matches.tournaments.selectors import TournamentResults, tournament_results

from .factories import make_user
from .tournaments_setup import announce, enter_field, enter_paper, play_by_phone, play_series

pytestmark = pytest.mark.django_db


def played(organiser: User, **changes: Any) -> Tournament:
    """A tournament of 14 entrants in a tandem and a team, one of them withdrawn after the first series, a payment
    corrected: its first series played (one table by phone, the others on paper) and closed, its second drawn and
    half played (one table on paper)."""
    tournament = announce(organiser, tandem_fee=300, team_fee=400, **changes)
    entries = enter_field(tournament, 14, online=2)
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Herz Dame", entries=entries[:2])
    tournaments.side_enter(tournament=tournament, kind="team", name="Die Vier", entries=entries[2:6])
    tournaments.entry_pay(entry=entries[2], amount=500, user=organiser)
    tournaments.entry_pay(entry=entries[2], amount=-200, user=organiser)
    tournaments.series_draw(tournament=tournament, number=1, user=organiser)
    first = Series.objects.get(tournament=tournament, number=1)
    play_series(first, phones=(1,))
    tournaments.series_close(series=first, user=organiser)
    tournaments.entry_withdraw(entry=entries[13])
    tournaments.series_draw(tournament=tournament, number=2, user=organiser)
    second = Table.objects.select_related("match").get(series__tournament=tournament, series__number=2, number=1)
    enter_paper(second, salt=1)
    return tournament


def results_of(results: TournamentResults) -> tuple[Any, ...]:
    """What the results say, without the rows' database ids."""
    entries = {key: (str(entry.public_id), entry.code) for key, entry in results.entries.items()}
    return (entries, results.rankings, results.prizes, results.cashier, results.problems)


def without_moment(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    data.pop("created")
    return data


def wiped() -> None:
    # The rows that hold on to an entry, a category or a match go first, as the database protects those.
    models: tuple[type[Model], ...] = (TableSeat, PaperLine, Table, Entry, Tournament, Match, Player, Keeper)
    for model in models:
        model._default_manager.all().delete()


@pytest.fixture
def organiser() -> User:
    return make_user("olga")


def test_a_tournament_comes_back_from_its_backup_with_nothing_lost(organiser: User) -> None:
    tournament = played(organiser)
    before = results_of(tournament_results(tournament))
    lists = sorted(SeriesList.objects.values_list("entry__public_id", "game_points", "won", "lost", "others_lost"))
    data = without_moment(tournament_backup(tournament))
    assert [len(one["tables"]) for one in data["tournament"]["drawn"]] == [4, 4]
    wiped()
    counts = restore(json.loads(json.dumps(data)), user=organiser)
    assert counts["players"] == 14
    again = Tournament.objects.get(public_id=tournament.public_id)
    assert again.organiser == organiser
    assert results_of(tournament_results(again)) == before
    assert sorted(SeriesList.objects.values_list("entry__public_id", "game_points", "won", "lost", "others_lost")) == (
        lists
    )
    assert without_moment(tournament_backup(again)) == data


def test_the_second_series_stays_open_and_is_played_on_after_a_restore(organiser: User) -> None:
    tournament = played(organiser)
    data = tournament_backup(tournament)
    wiped()
    restore(data, user=organiser)
    second = Series.objects.get(tournament__public_id=tournament.public_id, number=2)
    assert second.closed_at is None
    for table in Table.objects.filter(series=second, paper=False).select_related("match").order_by("number"):
        play_by_phone(table)
    tournaments.series_close(series=second, user=organiser)
    assert SeriesList.objects.filter(series=second).count() == 13


def test_a_second_restore_of_the_same_file_changes_nothing(organiser: User) -> None:
    tournament = played(organiser)
    data = tournament_backup(tournament)
    assert restore(data, user=organiser) == {"players": 0, "matches": 0, "games": 0, "nights": 0}
    assert Entry.objects.count() == 14
    assert Series.objects.count() == 2


def test_another_account_may_not_restore_into_a_tournament_here(organiser: User) -> None:
    data = tournament_backup(played(organiser))
    with pytest.raises(Invalid, match="does not fit"):
        restore(data, user=make_user("mal"))


def test_a_backup_whose_shares_paid_out_in_full_add_up_to_more_than_the_pot_still_restores(organiser: User) -> None:
    """Announcing refuses shares above the whole pot; a tournament announced before that was refused comes back from
    its backup as it was, its prize money split in its shares' proportions, while shares paid as announced stay
    refused as they always were."""
    tournament = played(organiser)
    beyond = {"values": [6000, 4000, 5000], "kind": "shares", "payout": "in-full"}
    Tournament.objects.filter(pk=tournament.pk).update(places=beyond)
    before = results_of(tournament_results(Tournament.objects.get(pk=tournament.pk)))
    data = without_moment(tournament_backup(Tournament.objects.get(pk=tournament.pk)))
    wiped()
    restore(json.loads(json.dumps(data)), user=organiser)
    again = Tournament.objects.get(public_id=tournament.public_id)
    assert again.places == beyond
    assert results_of(tournament_results(again)) == before
    wiped()
    data["tournament"]["places"]["payout"] = "as-announced"
    with pytest.raises(Invalid, match="damaged"):
        restore(data, user=organiser)
    assert not Tournament.objects.exists()


def test_a_clubs_tournament_is_refused_until_the_clubs_backup_is_restored(organiser: User) -> None:
    club = clubs.club_create(owner=organiser, name="Skatclub Herz Dame")
    tournament = announce(organiser)
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    data = tournament_backup(Tournament.objects.get(pk=tournament.pk))
    Club.objects.all().delete()
    wiped()
    with pytest.raises(Invalid, match="Skatclub Herz Dame, which is not here"):
        restore(json.loads(json.dumps(data)), user=organiser)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda part: part["entries"][0].update(channel="pigeon"),
        lambda part: part["sides"][0]["members"].append(part["entries"][9]["id"]),
        lambda part: part["drawn"][0]["tables"][1]["paper_lines"][0].update(won=40),
        lambda part: part["drawn"][1]["tables"][0]["seats"].append("no-such-entry"),
        lambda part: part["drawn"][0].update(number=9),
        lambda part: part.update(date="soon"),
    ],
    ids=["channel unknown", "tandem of three", "paper list impossible", "seat unknown", "series beyond", "no date"],
)
def test_a_damaged_file_restores_nothing(organiser: User, damage: Any) -> None:
    data = without_moment(tournament_backup(played(organiser)))
    wiped()
    damage(data["tournament"])
    # Damaged, or (a paper list no series can produce) refused as the paper-list form refuses it, naming the table.
    with pytest.raises(Invalid, match=r"damaged|The paper list of table 2, series 1 \(.*\) cannot be"):
        restore(data, user=organiser)
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()


def test_those_who_manage_a_tournament_download_its_backup_and_nobody_else(client: Client, organiser: User) -> None:
    tournament = played(organiser)
    address = reverse("tournament_backup", args=[tournament.public_id])
    client.force_login(make_user("mal"))
    assert client.get(address).status_code in (403, 404)
    client.force_login(organiser)
    answer = client.get(address)
    assert answer.status_code == 200
    assert without_moment(json.loads(answer.content)) == without_moment(tournament_backup(tournament))


def test_the_command_line_backs_up_one_tournament_by_name(organiser: User) -> None:
    tournament = played(organiser, name="Preisskat zum Advent")
    out = io.StringIO()
    call_command("backup", "-", tournament="Preisskat zum Advent", stdout=out)
    assert without_moment(json.loads(out.getvalue())) == without_moment(tournament_backup(tournament))
