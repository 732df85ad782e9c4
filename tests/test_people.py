"""One person across books: a club's player, a league's and a tournament's joined by an account, a team's roster, a
federation number and an entry's code, and split again; who sees a person's record. The figures of the one record
that follows from the three kinds of event are worked out by hand here (``docs/rules.md``, "A player's record")."""

from __future__ import annotations

import datetime
import html
import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.backup import club_backup
from matches.clubs.models import Night
from matches.errors import Conflict, Invalid
from matches.interclub import services as leagues
from matches.interclub.backup import league_backup
from matches.interclub.models import Team
from matches.models import ClosedList, Join, Keeper, Person, Player
from matches.restore import restore
from matches.services import player_link, player_unlink
from matches.services.people import join_number, join_roster, join_undo
from matches.tournaments import services as tournaments
from matches.tournaments.backup import tournament_backup
from matches.tournaments.models import Entry, Series, Table, TableSeat

from .factories import make_match, make_user
from .interclub_setup import LeagueSetup, check_in_all, enter_series, league_setup, roster_player
from .test_backup_complete import _wiped
from .test_record import paper_night
from .tournaments_setup import announce

pytestmark = pytest.mark.django_db


def text_of(page: Any) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).split())


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def league_day(setup: LeagueSetup) -> None:
    """The match day's two series, every team's players 100 points each time (a table of four, 48 games: 50 game
    points and one game won, none lost), and the venue closed."""
    secretary = setup.secretaries[0]
    for series in (1, 2):
        check_in_all(setup, series)
        leagues.series_seat(venue=setup.venue, series=series, user=secretary)
        enter_series(setup, series, {team.name: 400 for team in setup.teams}, secretary)
    setup.venue = leagues.venue_close(venue=setup.venue, user=secretary)


def tournament_at_the_door(names: list[tuple[str, str]]) -> tuple[Any, list[Entry]]:
    """A tournament of eight entered at the door (two tables of four, 16 games), its one series on paper: the first
    entrant 36 game points with two games won, everybody else nothing; the series closed."""
    tournament = announce()
    entries = [
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name, club=club))
        for name, club in names
    ]
    tournaments.series_draw(tournament=tournament, number=1, user=None)
    series = Series.objects.get(tournament=tournament, number=1)
    for table in Table.objects.filter(series=series):
        seated = [seat.entry for seat in TableSeat.objects.filter(table=table).select_related("entry")]
        lines = [(entry, 36, 2, 0) if entry == entries[0] else (entry, 0, 0, 0) for entry in seated]
        tournaments.table_paper_enter(table=table, lines=lines, user=None)
    tournaments.series_close(series=series, user=None)
    return tournament, entries


def test_one_person_through_a_club_night_a_league_day_and_a_tournament_has_one_record() -> None:
    setup = league_setup(series=2)
    club = setup.clubs[0]
    roster = setup.rosters[0][0]
    assert roster.player.name == "Herz 1"
    # The club night: a table of three, 36 games on paper; Herz 1 wins one game of 72 game points: 72 + 50 = 122.
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    paper_night(season, datetime.date(2026, 9, 15), [{"Herz 1": (72, 1, 0), "Herz 2": (0, 0, 0), "Herz 3": (0, 0, 0)}])
    # The league day: 50 + 50 = 100 at a table of four, twice.
    league_day(setup)
    # The tournament: Herz 1 of Herz Dame, entered at the door, 36 + 2 × 50 = 136; another Herz 1, of Pik As, is
    # another person of the same name.
    names = [("Herz 1", "Herz Dame"), ("Herz 1", "Pik As")] + [(f"Gast {n}", "") for n in range(6)]
    tournament, (entry, namesake, *_) = tournament_at_the_door(names)
    assert ClosedList.objects.filter(player=namesake.player).exists()

    jorg = make_user("jorg")
    player_link(player=roster.player, account=jorg)
    client = signed_in(jorg)
    # Joined by the account (the club's player) and the roster (the league's): three series, the tournament not yet.
    text = text_of(client.get(reverse("player_me")))
    assert "Series 3" in text
    assert "Average per series 107.3" in text  # (122 + 100 + 100) / 3

    # A wrong code is refused next to nothing joined; the entry's own code joins it.
    wrong = client.post(reverse("tournaments:claim", args=[tournament.public_id]), {"code-code": "ZZZZZZ"}, follow=True)
    assert "No entry of this tournament has that code." in text_of(wrong)
    assert Person.objects.get(account=jorg).players.count() == 2
    claim = client.post(reverse("tournaments:claim", args=[tournament.public_id]), {"code-code": entry.code.lower()})
    assert claim.status_code == 302
    person = Person.objects.get(account=jorg)
    assert set(person.players.all()) == {roster.player, roster.league_player, entry.player}
    assert not Player.objects.filter(pk=namesake.player.pk, person=person).exists()

    text = text_of(client.get(reverse("player_me")))
    # 122 + 100 + 100 + 136 = 458 over four series: 114.5 a series. Series of 36, 48, 48 and 16 games mix:
    # 458 × 48 / 148 = 148.5 per 48 games. Best: the tournament's 136. Won 1 + 1 + 1 + 2 = 5, lost none.
    assert "Series 4" in text
    assert "Average per series 114.5" in text
    assert "Average per 48 games 148.5" in text
    assert "Best series 136" in text
    assert "Won : lost 5 : 0" in text
    assert "Games lost 0 %" in text
    assert "Club nights 1 122 122 1 0" in text
    assert "League match days 2 100 100 2 0" in text
    assert "Tournaments 1 136 136 2 0" in text

    # Once he shows his record, his name in the tournament's results and the league's players' ranking links to it;
    # the namesake's does not.
    record = reverse("person_detail", args=[person.public_id])
    assert (
        f'href="{record}"'
        not in Client().get(reverse("tournaments:results", args=[tournament.public_id])).content.decode()
    )
    client.post(reverse("player_me_shown"), {"shown": "full"})
    results = Client().get(reverse("tournaments:results", args=[tournament.public_id])).content.decode()
    assert results.count(f'<a href="{record}">Herz 1</a> <small>Herz Dame</small>') == 3  # total, series, best
    assert results.count('<a href="/people/') == 3
    league = Client().get(reverse("interclub_group", args=[setup.group.public_id])).content.decode()
    assert f'<a href="{record}">Herz 1</a>' in league

    # The namesake's entry cannot be claimed by him too: one person is one player of a book.
    client.post(reverse("tournaments:claim", args=[tournament.public_id]), {"code-code": namesake.code})
    assert not Person.objects.get(account=jorg).players.filter(pk=namesake.player.pk).exists()

    # The club's ranking lists over the season, the league's group and the tournament, by its owner.
    secretary = signed_in(club.memberships.get(role="owner").user)
    events = [str(season.public_id), str(setup.group.public_id), str(tournament.public_id)]

    def ranked(**options: Any) -> list[tuple[int, str, str]]:
        form = {"name": "Jahresrangliste", "events": events, "period": "whole", "counted": "everybody"}
        answer = secretary.post(reverse("ranking_list"), form | {"minimum": "1", "best": "1", "field": "100"} | options)
        assert answer.status_code == 302, text_of(answer)
        page = text_of(secretary.get(answer["Location"]))
        rows = re.findall(
            r"(\d+) (Herz \d(?: \(Pik As\))?|Kreu \d|Pik \d|Karo \d|Gast \d) ([\d.]+) (\d+) (\d+) (\d+)", page
        )
        return [(int(place), name, score) for place, name, score, _, _, _ in rows]

    # By the average with at least two series: Herz 1 458 / 4 = 114.5; the other teams' players and Herz 4 two
    # series of 100; Herz 2 and Herz 3 200 / 3 = 66.7 (their club night's nothing counts); one series is too few.
    average = ranked(method="average", minimum="2")
    assert average[0] == (1, "Herz 1", "114.5")
    assert (2, "Herz 4", "100") in average
    assert (2, "Karo 1", "100") in average
    assert [row for row in average if row[1] == "Herz 2"] == [(15, "Herz 2", "66.7")]
    assert len(average) == 16
    # The sum of the best two results (a result: one's series at one event): 200 (the league day) + 136 = 336.
    best = ranked(method="best", best="2")
    assert best[0] == (1, "Herz 1", "336")
    assert best[1][0] == 2
    assert best[1][2] == "200"
    assert (2, "Herz 1 (Pik As)", "0") not in best
    assert best[-1][2] == "0"
    # Placement points 10, 6, 3 for a field of 8: the club night (3 players) 10 × 3/8 = 3.75, the league day (16, all
    # first with 200) 10 × 16/8 = 20, the tournament (8) 10: 33.75. Herz 2: 6 × 3/8 + 20 = 22.25; the tournament's
    # others second: 6.
    places = ranked(method="places", places="10 6 3", field="8")
    assert places[0] == (1, "Herz 1", "33.8")
    assert places[1:3] == [(2, "Herz 2", "22.3"), (2, "Herz 3", "22.3")]
    assert (4, "Herz 4", "20") in places
    assert (17, "Herz 1 (Pik As)", "6") in places


def test_a_federation_number_joins_a_roster_a_tournament_entry_and_a_club_player() -> None:
    setup = league_setup(series=2)
    team = setup.teams[1]
    on_roster = roster_player(team, "Kreu Neu", federation_number="DSKV 4711")
    tournament = announce()
    entry = tournaments.entry_at_door(
        tournament=tournament, form=tournaments.EntryForm("K. Neu", club="Kreuz Bube", federation_number="DSKV4711")
    )
    person = Person.objects.get(federation_number="DSKV4711")
    assert set(person.players.all()) == {on_roster.player, on_roster.league_player, entry.player}
    # The roster joined its two players, the number named them and joined the entry, as the history says.
    assert Join.objects.filter(player=on_roster.league_player, how="roster").exists()
    assert set(Join.objects.filter(person=person).values_list("how", flat=True)) == {"roster", "number"}

    # A second club player with the same number is refused: a person is one player of a book.
    other = clubs.club_player_add(club=setup.clubs[1], name="Kreu Alt")
    with pytest.raises(Conflict) as refused:
        join_number(player=other, number="DSKV4711")
    assert refused.value.errors[0].field == "federation_number"
    assert other.joins.count() == 0
    with pytest.raises(Invalid):
        join_number(player=other, number="47;11")
    with pytest.raises(Invalid):
        join_number(player=other, number="  ")
    # A number is no guess at a typo: one without a digit, or a sign or separator at either end, is refused.
    for typo in ("-5", "abc", "5-", "/12", "12.", "--"):
        with pytest.raises(Invalid) as wrong:
            join_number(player=other, number=typo)
        assert wrong.value.errors[0].field == "federation_number", typo
    assert join_number(player=other, number="at-12/3.4").federation_number == "AT-12/3.4"


def test_a_secretary_joins_a_club_player_to_a_number_on_the_players_page_and_sees_a_refusal_next_to_it() -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    first = clubs.club_player_add(club=club, name="Jörg Schmidt")
    second = clubs.club_player_add(club=club, name="Jörg Schmidt (jun.)")
    client = signed_in(owner)
    done = client.post(reverse("player_number", args=[first.public_id]), {"federation_number": "12 345"}, follow=True)
    assert "Federation number: 12345" in text_of(done)
    assert Person.objects.get(federation_number="12345").players.get() == first
    refused = client.post(reverse("player_number", args=[second.public_id]), {"federation_number": "12345"})
    assert refused.status_code == 409
    assert 'id="federation-number_error"' in refused.content.decode()
    assert "Jörg Schmidt is this person in this book already" in text_of(refused)
    bad = client.post(reverse("player_number", args=[second.public_id]), {"federation_number": "12;345"})
    assert bad.status_code == 400
    assert "A federation number has up to 20 letters and digits." in text_of(bad)
    # Somebody who does not keep the book joins nobody.
    stranger = signed_in(make_user("mallory"))
    assert stranger.post(reverse("player_number", args=[second.public_id]), {"federation_number": "9"}).status_code in (
        403,
        404,
    )
    assert not Person.objects.filter(federation_number="9").exists()

    # The secretary undoes the join: the player is nobody's again, and the join is kept as undone.
    join = Join.objects.get(player=first)
    client.post(reverse("player_join_undo", args=[first.public_id]), {"join": join.pk})
    first.refresh_from_db()
    join.refresh_from_db()
    assert first.person_id is None
    assert join.undone_at is not None
    assert join.undone_by == owner


def test_undoing_a_join_puts_the_player_back_and_a_person_undoes_every_join_of_theirs() -> None:
    setup = league_setup(series=2)
    roster = setup.rosters[0][0]
    roster_person = Player.objects.get(pk=roster.player.pk).person
    anna = make_user("anna")
    player_link(player=roster.player, account=anna)
    person = Person.objects.get(account=anna)
    assert set(person.players.all()) == {roster.player, roster.league_player}
    # The account's join took the roster's person along; undoing it puts the club's player back there.
    join = Join.objects.filter(player=roster.player, undone_at__isnull=True).latest("created_at")
    join_undo(join=join, by=anna)
    club_player = Player.objects.get(pk=roster.player.pk)
    assert club_player.person == roster_person
    assert Player.objects.get(pk=roster.league_player.pk).person == roster_person
    assert club_player.account is None
    with pytest.raises(Conflict):
        join_undo(join=join, by=anna)

    player_link(player=club_player, account=anna)
    client = signed_in(anna)
    page = client.get(reverse("player_me"))
    assert "Players joined to you" in text_of(page)
    client.post(reverse("player_me_joins"), {"every": "1", "confirm": "on"})
    assert not Player.objects.filter(person__account=anna).exists()
    assert not Player.objects.filter(account=anna).exists()
    # Nothing anybody entered changed: the roster stands.
    roster.refresh_from_db()
    assert roster.player_id == club_player.pk


def _juergen_in_several_books() -> tuple[Any, LeagueSetup]:
    """Jürgen's account linked to a player of his own matches, a club's and (with it) the league's of that club's
    roster."""
    juergen = make_user("juergen")
    own = make_match(juergen, names=("Jürgen", "Ben", "Cleo")).seats.get(player__name="Jürgen").player
    player_link(player=own, account=juergen)
    setup = league_setup(series=2)
    player_link(player=setup.rosters[0][0].player, account=juergen)
    return juergen, setup


def test_the_players_joined_to_you_each_name_their_book() -> None:
    juergen, setup = _juergen_in_several_books()
    roster = setup.rosters[0][0]
    club, league = setup.clubs[0].name, setup.league.name
    page = html.unescape(signed_in(juergen).get(reverse("player_me")).content.decode())
    lines = re.findall(r"<li><strong>([^<]+)</strong> · ([^·]+) · linked to the account", page)
    expected = [("Jürgen", "your own matches"), (roster.player.name, club), (roster.player.name, league)]
    assert sorted(lines) == sorted(expected)
    german = Client(headers={"accept-language": "de"})
    german.force_login(juergen)
    assert "Jürgen · deine eigenen Spiele · Verknüpfung mit dem Konto" in text_of(german.get(reverse("player_me")))
    record = json.loads(signed_in(juergen).get(reverse("player_me_record")).content)
    assert sorted(join["book"] for join in record["joins"]) == sorted(["your own matches", club, league])


def test_naming_the_books_of_the_joins_costs_no_query_a_line(django_assert_num_queries: Any) -> None:
    juergen = make_user("juergen")
    first = clubs.club_create(owner=make_user("olga"), name="Skatclub Herz Dame")
    player_link(player=clubs.club_player_add(club=first, name="Jürgen"), account=juergen)
    client = signed_in(juergen)
    address = reverse("player_me")
    client.get(address)
    with CaptureQueriesContext(connection) as one:
        client.get(address)
    for index in range(3):
        club = clubs.club_create(owner=make_user(f"owner{index}"), name=f"Skatclub {index}")
        player_link(player=clubs.club_player_add(club=club, name="Jürgen"), account=juergen)
    with django_assert_num_queries(len(one)):
        page = text_of(client.get(address))
    assert all(f"Jürgen · Skatclub {index} · " in page for index in range(3))


def test_undoing_every_join_waits_for_the_tick() -> None:
    juergen, _ = _juergen_in_several_books()
    client = signed_in(juergen)
    page = client.get(reverse("player_me")).content.decode()
    assert '<input type="checkbox" name="confirm" id="every_confirm" required>' in page
    refused = client.post(reverse("player_me_joins"), {"every": "1"}, follow=True)
    assert "Nothing was undone: tick the box to undo every join." in text_of(refused)
    assert Player.objects.filter(person__account=juergen).count() == 3
    done = client.post(reverse("player_me_joins"), {"every": "1", "confirm": "on"}, follow=True)
    assert "Joins undone" in text_of(done)
    assert not Player.objects.filter(person__account=juergen).exists()


def test_unlinking_an_account_takes_the_player_out_of_its_person() -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    player = clubs.club_player_add(club=club, name="Anna")
    anna = make_user("anna")
    player_link(player=player, account=anna)
    assert Person.objects.get(account=anna).players.get() == player
    player_unlink(player=player)
    assert not Person.objects.get(account=anna).players.exists()


@pytest.fixture
def herz() -> dict[str, Any]:
    """A club night of three players; Anna's player linked to her account; Ben a member of the club."""
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    paper_night(season, datetime.date(2026, 11, 3), [{"Anna Berg": (72, 1, 0), "Ben": (0, 0, 0), "Cleo": (0, 0, 0)}])
    anna = make_user("anna")
    player_link(player=Player.objects.get(keeper=club.keeper, name="Anna Berg"), account=anna)
    ben = make_user("ben")
    clubs.member_set(club=club, username="ben", role="member")
    return {"anna": anna, "ben": ben, "person": Person.objects.get(account=anna)}


def test_a_record_is_private_by_default_and_shown_as_its_person_says(herz: dict[str, Any]) -> None:
    person = herz["person"]
    url = reverse("person_detail", args=[person.public_id])
    assert Client().get(url).status_code == 302  # to sign in
    assert signed_in(make_user("mallory")).get(url).status_code == 404
    assert signed_in(make_user("eve")).get(reverse("person_chart", args=[person.public_id])).status_code == 404
    # A member of the club sees the lists of the club's nights.
    seen = signed_in(herz["ben"]).get(url)
    assert seen.status_code == 200
    assert "The series played at your club's nights" in text_of(seen)
    assert "Series 1" in text_of(seen)
    own = signed_in(herz["anna"])
    assert own.get(url).status_code == 200

    refused = own.post(reverse("player_me_shown"), {"shown": "everybody"}, follow=True)
    assert "Choose who sees your record." in text_of(refused)
    own.post(reverse("player_me_shown"), {"shown": "first"})
    public = Client().get(url)
    assert public.status_code == 200
    assert "<h1>Anna</h1>" in public.content.decode()
    assert "Berg" not in text_of(public)
    assert "Average per series 122" in text_of(public)
    own.post(reverse("player_me_shown"), {"shown": "full"})
    assert "<h1>Anna Berg</h1>" in Client().get(url).content.decode()
    own.post(reverse("player_me_shown"), {"shown": "private"})
    assert Client().get(url).status_code == 302


def test_the_whole_record_downloads_with_its_joins(herz: dict[str, Any]) -> None:
    data = signed_in(herz["anna"]).get(reverse("player_me_record")).json()
    assert data["person"] == str(herz["person"].public_id)
    assert data["shown"] == "private"
    assert [(join["player"], join["how"]) for join in data["joins"]] == [("Anna Berg", "account")]
    assert [row["total"] for row in data["lists"]] == [122]


def test_a_typed_federation_number_never_brings_somebody_elses_lists_into_an_account() -> None:
    """Mallory types Vera's federation number for a player of her own book, and enters a tournament with it: what
    the number joined stays with the number, and her record holds her own lists alone."""
    tournament, (vera, *_) = tournament_at_the_door(
        [(f"Vera {n}", "") for n in range(1)] + [(f"Gast {n}", "") for n in range(7)]
    )
    join_number(player=vera.player, number="999")
    mallory = make_user("mallory")
    own = Player.objects.create(keeper=Keeper.objects.create(user=mallory), name="Vera", name_key="vera")
    join_number(player=own, number="999", by=mallory)
    player_link(player=own, account=mallory)
    person = Person.objects.get(account=mallory)
    assert list(person.players.all()) == [own]
    assert not ClosedList.objects.filter(player__person=person).exists()
    # Once her account holds a person, a number somebody holds is refused, and so is a claim of Vera's entry made
    # online by Vera's account.
    with pytest.raises(Conflict):
        join_number(player=own, number="999", by=mallory)
    assert Person.objects.get(federation_number="999").players.filter(pk=vera.player.pk).exists()
    # Undoing the link puts her player back where it was: with the number, Vera's entry untouched.
    join = Join.objects.filter(player=own, undone_at__isnull=True).latest("created_at")
    join_undo(join=join, by=mallory)
    own.refresh_from_db()
    assert own.person == Person.objects.get(federation_number="999")
    assert tournament.entries.count() == 8


def test_merging_two_players_of_a_book_keeps_the_account_and_the_person() -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    first = clubs.club_player_add(club=club, name="Anna")
    second = clubs.club_player_add(club=club, name="Anna B.")
    join_number(player=first, number="12")
    anna = make_user("anna")
    player_link(player=second, account=anna)
    from matches.services import player_merge

    # Two people (a number, an account): the one who stays is joined as the one who goes was, alone.
    merged = player_merge(into=first, other=second, by=owner)
    assert merged.account == anna
    assert merged.person == Person.objects.get(account=anna)


def test_an_entry_with_a_number_an_account_holds_is_entered_and_left_to_its_code() -> None:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    player = clubs.club_player_add(club=club, name="Anna")
    anna = make_user("anna")
    player_link(player=player, account=anna)
    join_number(player=player, number="77", by=owner)
    assert Person.objects.get(account=anna).federation_number == "77"
    tournament = announce()
    entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Anna", federation_number="77"))
    assert Player.objects.get(pk=entry.player_id).person is None
    assert entry.federation_number == "77"
    # Her code proves it hers.
    signed_in(anna).post(reverse("tournaments:claim", args=[tournament.public_id]), {"code-code": entry.code})
    assert Player.objects.get(pk=entry.player_id).person == Person.objects.get(account=anna)


def test_a_restored_league_and_tournament_join_their_rosters_and_numbers_again() -> None:
    setup = league_setup(series=2)
    rostered = roster_player(setup.teams[1], "Kreu Neu", federation_number="4711")
    tournament = announce()
    tournaments.entry_at_door(
        tournament=tournament, form=tournaments.EntryForm("K. Neu", club="Kreuz Bube", federation_number="4711")
    )
    organiser = tournament.organiser
    assert organiser is not None
    files = [json.loads(json.dumps(club_backup(club))) for club in setup.clubs]
    files.append(json.loads(json.dumps(league_backup(setup.league))))
    files.append(json.loads(json.dumps(tournament_backup(tournament))))
    _wiped()
    Person.objects.all().delete()

    for data in files:
        restore(data, user=organiser if "tournament" in data else setup.manager)
    # The numbers join as numbers do; the file says nothing of who a club's players are: its secretary pairs them
    # by putting them on the roster again.
    person = Person.objects.get(federation_number="4711")
    assert sorted(person.players.values_list("public_id", flat=True)) == sorted(
        [rostered.league_player.public_id, Entry.objects.get().player.public_id]
    )
    first = setup.rosters[0][0]
    club_player = Player.objects.get(public_id=first.player.public_id)
    assert club_player.person is None
    team = Team.objects.get(public_id=setup.teams[0].public_id)
    leagues.roster_add(team=team, player=club_player, by=team.club.memberships.get(role="owner").user)
    joined = Player.objects.get(pk=club_player.pk).person
    assert joined is not None
    assert Player.objects.get(public_id=first.league_player.public_id).person == joined


def test_a_league_rostering_another_clubs_player_joins_nobody_and_a_league_player_brings_no_club_player() -> None:
    setup = league_setup(series=2)
    victim = clubs.club_player_add(club=setup.clubs[1], name="Vera")
    manager = setup.manager
    # The league's manager (who does not run the club) puts the club's player on a roster: no pairing.
    entry = leagues.roster_add(team=setup.teams[1], player=victim, by=manager)
    assert Player.objects.get(pk=victim.pk).person is None
    # Paired by the club's own secretary, then the league's player linked to the manager: it comes alone.
    leagues.roster_add(team=setup.teams[1], player=victim, by=setup.clubs[1].memberships.get(role="owner").user)
    assert Player.objects.get(pk=victim.pk).person is not None
    player_link(player=entry.league_player, account=manager)
    assert list(Person.objects.get(account=manager).players.all()) == [entry.league_player]
    assert Player.objects.get(pk=victim.pk).person != Person.objects.get(account=manager)


def test_taking_a_player_off_a_roster_takes_the_pairing_back() -> None:
    setup = league_setup(series=2)
    entry = roster_player(setup.teams[0], "Herz Neu")
    paired = Player.objects.get(pk=entry.player_id).person
    assert Player.objects.get(pk=entry.league_player_id).person == paired
    leagues.roster_remove(entry=entry)
    assert Player.objects.get(pk=entry.league_player_id).person != paired


def test_a_name_in_a_club_nights_results_links_to_a_record_shown_to_everybody(herz: dict[str, Any]) -> None:
    night = Night.objects.get()
    record = reverse("person_detail", args=[herz["person"].public_id])
    secretary = signed_in(night.season.club.memberships.get(role="owner").user)
    assert f'href="{record}"' not in secretary.get(reverse("night_detail", args=[night.public_id])).content.decode()
    signed_in(herz["anna"]).post(reverse("player_me_shown"), {"shown": "full"})
    page = secretary.get(reverse("night_detail", args=[night.public_id])).content.decode()
    assert f'<a href="{record}">Anna Berg</a>' in page


def _book_player(name: str, user: Any = None) -> Player:
    keeper = Keeper.objects.create(user=user)
    return Player.objects.create(keeper=keeper, name=name, name_key=name.casefold())


def test_no_way_round_through_numbers_rosters_and_undoing_brings_another_persons_players_into_an_account() -> None:
    # Vera: a club's player and a league's player a roster paired, given her number 999 by her secretary.
    vera_club, vera_league = _book_player("Vera"), _book_player("Vera")
    join_roster(player=vera_club, league_player=vera_league)
    join_number(player=vera_club, number="999")
    vera = Person.objects.get(federation_number="999")
    assert set(vera.players.all()) == {vera_club, vera_league}
    mallory = make_user("mallory")

    # 1. A player of her own book typed with Vera's number, then linked to herself: it comes alone.
    own = _book_player("Vera", mallory)
    join_number(player=own, number="999", by=mallory)
    player_link(player=own, account=mallory)
    assert list(Person.objects.get(account=mallory).players.all()) == [own]

    # 2. A club's player of hers typed with the number, rostered in a league of hers, the number undone, the league's
    # player linked: it comes alone (a league's player brings no club's player), none of Vera's.
    hers, her_league = _book_player("Vera"), _book_player("Vera")
    join_number(player=hers, number="999", by=mallory)
    join_roster(player=hers, league_player=her_league)
    join_undo(join=Join.objects.filter(player=hers, how="number").latest("created_at"), by=mallory)
    player_link(player=her_league, account=mallory)
    assert set(Person.objects.get(account=mallory).players.all()) == {own, her_league}
    assert set(Person.objects.get(pk=vera.pk).players.all()) == {vera_club, vera_league}

    # 3. Undoing the number given to Vera's person undoes what the number joined to it.
    other = _book_player("Vera")
    join_number(player=other, number="999")
    assert Player.objects.get(pk=other.pk).person_id == vera.pk
    given = Join.objects.get(person=vera, previous=vera, how="number")
    join_undo(join=given, by=None)
    assert Player.objects.get(pk=other.pk).person is None
    assert Person.objects.get(pk=vera.pk).federation_number is None
    assert set(Person.objects.get(pk=vera.pk).players.all()) == {vera_club, vera_league}


def test_a_federation_number_reads_fullwidth_digits_as_plain_ones() -> None:
    first, second = _book_player("A"), _book_player("B")
    join_number(player=first, number="\uff14\uff17\uff11\uff11")  # fullwidth 4711
    join_number(player=second, number="4711")
    assert Player.objects.get(pk=second.pk).person == Player.objects.get(pk=first.pk).person
    with pytest.raises(Invalid):
        join_number(player=_book_player("C"), number="\u0664\u0667\u0661\u0661")  # Arabic-Indic


def test_ten_wrong_codes_in_an_hour_pause_finding_and_claiming_entries_by_code() -> None:
    tournament = announce()
    entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Anna"))
    client = signed_in(make_user("mallory"))
    claim = reverse("tournaments:claim", args=[tournament.public_id])
    for _ in range(10):
        client.post(claim, {"code-code": "ZZZZZZ"})
    paused = client.post(claim, {"code-code": entry.code}, follow=True)
    assert "Too many wrong codes: try again in an hour." in text_of(paused)
    assert Player.objects.get(pk=entry.player_id).person is None
    # From the same address, finding the entry by its code is paused too.
    found = Client().post(
        reverse("tournaments:find", args=[tournament.public_id]), {"code-code": entry.code}, follow=True
    )
    assert found.status_code == 400
    assert "Too many wrong codes: try again in an hour." in text_of(found)


def test_a_books_keeper_undoing_a_join_moves_that_books_players_alone() -> None:
    club_player, league_player = _book_player("Anna"), _book_player("Anna")
    join_roster(player=club_player, league_player=league_player)
    anna = make_user("anna")
    player_link(player=club_player, account=anna)
    person = Person.objects.get(account=anna)
    assert set(person.players.all()) == {club_player, league_player}
    join = Join.objects.filter(player=league_player, undone_at__isnull=True).latest("created_at", "pk")
    join_undo(join=join, by=None, keeper=league_player.keeper_id)
    assert list(Person.objects.get(account=anna).players.all()) == [club_player]
    assert Player.objects.get(pk=club_player.pk).account == anna
