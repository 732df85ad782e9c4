"""Big rooms: an entry at the door costs the same with thousands entered as with a few; the organiser's desk lists
its entries and its tables a page at a time, finds an entry by name or by code and lists who still owes, while its
header still counts the whole room; and what the desk says is owed is the cashier's list's figure."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from matches.engine.draw import met_again
from matches.models import FileJob
from matches.tournaments import downloads, views
from matches.tournaments import services as tournaments
from matches.tournaments.models import Entry, Series, Table, Tournament
from matches.tournaments.selectors import (
    cashier_line_of,
    cashier_lines_by_entry,
    entry_key,
    met_again_in,
    tournament_results,
)

from .factories import run_tasks
from .tournaments_setup import announce, enter_field, play_series

pytestmark = pytest.mark.django_db

NO_BREAK = "\N{NO-BREAK SPACE}"


@contextmanager
def rows_read() -> Iterator[list[int]]:
    """The rows each read in the block returns, counted by reading it once more beside it."""
    counted: list[int] = []
    again = [False]

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        if not again[0] and sql.lstrip().upper().startswith("SELECT"):
            again[0] = True
            try:
                with connection.cursor() as cursor:
                    cursor.execute(sql, params)
                    counted.append(len(cursor.fetchall()))
            finally:
                again[0] = False
        return result

    with connection.execute_wrapper(wrapper):
        yield counted


def _enter_one(tournament: Tournament, name: str) -> list[int]:
    with rows_read() as counted:
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name, club="SC Gäste"))
    return counted


def test_an_entry_at_the_door_reads_as_much_in_a_room_of_forty_as_of_five() -> None:
    small, large = announce(), announce()
    enter_field(small, 5)
    enter_field(large, 40)
    read_small = _enter_one(small, "Nachzügler")
    read_large = _enter_one(large, "Nachzügler")
    assert read_small == read_large
    # And the player entering again is still known by name and club.
    assert Entry.objects.filter(tournament=large, name_key="nachzügler").count() == 1


def test_an_entrant_of_a_name_taken_twice_gets_the_next_free_number_in_the_book() -> None:
    tournament = announce()
    names = []
    for club in ("SC A", "SC B", "SC C", "", "SC D"):
        entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Kurt Meier", club=club))
        names.append(entry.player.name)
    assert names == ["Kurt Meier", "Kurt Meier (SC B)", "Kurt Meier (SC C)", "Kurt Meier (2)", "Kurt Meier (SC D)"]


def _organiser(tournament: Tournament) -> Client:
    assert tournament.organiser is not None
    client = Client()
    client.force_login(tournament.organiser)
    return client


def _desk(client: Client, tournament: Tournament, query: str = "") -> str:
    response = client.get(reverse("tournaments:desk", args=[tournament.public_id]) + query)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _listed(page: str) -> list[str]:
    entries = re.search(r'<ul class="desk-entries">(.*?)</ul>', page, re.S)
    return re.findall(r'<span class="who"><strong>([^<]+)</strong>', entries[1]) if entries else []


def _more(page: str, label: str) -> str:
    found = re.search(rf'<a href="(\?[^"]+)">{label}</a>', page)
    assert found is not None, f"no link {label}"
    return found[1]


def test_the_desk_lists_the_entries_a_page_at_a_time_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "DESK_ENTRIES", 4)
    tournament = announce()
    entries = enter_field(tournament, 9)
    client = _organiser(tournament)
    page = _desk(client, tournament)
    names = sorted(entry.name for entry in entries)
    assert _listed(page) == names[:4]
    # The header counts the whole room, not the page.
    assert "9 entries · 9 paid the entry fee" in re.sub(r"<[^>]+>", "", page)
    second = _desk(client, tournament, _more(page, "More entries"))
    assert _listed(second) == names[4:8]
    third = _desk(client, tournament, _more(second, "More entries"))
    assert _listed(third) == names[8:]
    assert "More entries" not in third
    assert "From A" in third


def test_the_desk_finds_an_entry_by_a_part_of_the_name_or_by_the_code() -> None:
    tournament = announce()
    enter_field(tournament, 6)
    kurt = tournaments.entry_register_online(tournament=tournament, form=tournaments.EntryForm("Kurt Müller"))
    client = _organiser(tournament)
    assert _listed(_desk(client, tournament, "?find=MÜLL")) == ["Kurt Müller"]
    spaced = f"{kurt.code[:3].lower()} {kurt.code[3:]}"
    assert _listed(_desk(client, tournament, f"?find={spaced}")) == ["Kurt Müller"]
    nobody = _desk(client, tournament, "?find=Zebra")
    assert _listed(nobody) == []
    assert "No entry matches." in nobody


def test_the_desk_lists_only_who_still_owes_from_its_header() -> None:
    tournament = announce()
    enter_field(tournament, 5)
    late = [
        tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(name), paid=False)
        for name in ("Zora Zander", "Anna Abend")
    ]
    client = _organiser(tournament)
    page = _desk(client, tournament)
    assert f'href="?owing=1#entries">30.00{NO_BREAK}€ still owed by 2 entrants' in page
    assert _listed(_desk(client, tournament, "?owing=1")) == sorted(entry.name for entry in late)
    assert _listed(_desk(client, tournament, "?owing=1&find=zora")) == ["Zora Zander"]


def test_the_desk_lists_the_tables_a_page_at_a_time_and_opens_one_by_its_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(views, "DESK_TABLES", 2)
    tournament = announce()
    enter_field(tournament, 20)
    tournaments.series_draw(tournament=tournament, number=1)
    client = _organiser(tournament)

    def numbers(page: str) -> list[int]:
        return [int(number) for number in re.findall(r'<li class="club-table" id="table-(\d+)"', page)]

    page = _desk(client, tournament)
    assert numbers(page) == [1, 2]
    assert "0 of 5 tables complete" in page
    assert numbers(_desk(client, tournament, _more(page, "More tables"))) == [3, 4]
    asked = _desk(client, tournament, "?table=5")
    assert numbers(asked) == [5]
    assert 'value="5"' in asked
    # What is no table number is not guessed at: the list starts at table 1.
    assert numbers(_desk(client, tournament, "?table=fünf")) == [1, 2]


def test_what_the_desk_says_is_owed_is_the_cashiers_list() -> None:
    """Lists, lost games, a tandem's fee, a payment short, an entrant who withdrew after paying and one who withdrew
    before paying: each line the desk reads is the cashier's list's line, and nobody else has one."""
    tournament = announce(tandem_fee=500)
    entries = enter_field(tournament, 11)
    tournaments.side_enter(tournament=tournament, kind="tandem", name="Die Zwei", entries=entries[:2])
    gone = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Gerd Geht"), paid=False)
    tournaments.entry_withdraw(entry=gone)
    tournaments.entry_withdraw(entry=entries[10])
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament)
    play_series(series, phones=[1])
    tournaments.series_close(series=series, user=None)
    tournaments.series_draw(tournament=tournament, number=2)
    play_series(Series.objects.get(tournament=tournament, number=2), salt=3)
    tournaments.entry_pay(entry=entries[3], amount=150)
    results = tournament_results(tournament)
    expected = {line.player: (line.dues, line.paid, line.owed) for line in results.cashier.lines}
    found = cashier_lines_by_entry(tournament)
    by_key = {entry_key(entry): entry.pk for entry in Entry.objects.filter(tournament=tournament)}
    assert {key: (found[pk].dues, found[pk].paid, found[pk].owed) for key, pk in by_key.items() if pk in found} == (
        expected
    )
    assert gone.pk not in found
    assert any(owed > 0 for _, _, owed in expected.values())
    # An entrant's own page and the desk's Pay read the same line from the entrant's rows alone.
    for entry in Entry.objects.filter(tournament=tournament):
        assert cashier_line_of(entry) == found.get(entry.pk)
    assert Table.objects.filter(series__tournament=tournament).exists()


def test_a_pay_from_the_desks_second_page_takes_what_that_line_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "DESK_ENTRIES", 2)
    tournament = announce()
    enter_field(tournament, 3)
    last = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm("Zora Zander"), paid=False)
    client = _organiser(tournament)
    second = _desk(client, tournament, _more(_desk(client, tournament), "More entries"))
    assert _listed(second) == ["Spieler 03", "Zora Zander"]
    assert f'aria-label="Pay 15.00{NO_BREAK}€ for Zora Zander"' in second
    client.post(reverse("tournaments:entry_pay", args=[last.public_id]), {"paid": "0"})
    assert cashier_lines_by_entry(tournament)[last.pk].owed == 0


def _draw(client: Client, tournament: Tournament, number: int, seating: str = "draw") -> str:
    tournament.refresh_from_db()
    address = reverse("tournaments:draw", args=[tournament.public_id])
    drawn = client.post(address, {"series": str(number), "version": str(tournament.version), "seating": seating})
    assert drawn.status_code == 302
    return html.unescape(client.get(drawn["Location"]).content.decode())


def test_a_draw_that_cannot_avoid_the_pairings_met_before_says_which_sit_together_again() -> None:
    """Eight players at two tables: series 2 cannot keep apart all who met in series 1 (two of each table of
    series 1 sit at each table of series 2: four pairs again), and the desk says who sit together again."""
    tournament = announce()
    enter_field(tournament, 8)
    client = _organiser(tournament)
    first = _draw(client, tournament, 1)
    assert "sit together again" not in first
    assert "sits together again" not in first
    series = Series.objects.get(tournament=tournament, number=1)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    second = _draw(client, tournament, 2)
    pairs = met_again_in(Series.objects.get(tournament=tournament, number=2))
    assert len(pairs) == 4
    named = ", ".join(f"{one} & {other}" for one, other in pairs)
    assert f"4 pairs sit together again, as the draw could not avoid them all: {named}." in second


def test_a_series_seated_by_the_standings_says_nothing_of_a_draw_that_could_not_avoid_pairs() -> None:
    """The leaders sit together by choice: no draw tried to keep apart who met before."""
    tournament = announce()
    enter_field(tournament, 8)
    client = _organiser(tournament)
    _draw(client, tournament, 1)
    series = Series.objects.get(tournament=tournament, number=1)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    second = _draw(client, tournament, 2, seating="standings")
    assert met_again_in(Series.objects.get(tournament=tournament, number=2))
    assert "Series 2 is drawn." in second
    assert "together again" not in second


def test_the_desk_offers_each_way_to_seat_a_later_series_whole_a_tap_each() -> None:
    tournament = announce()
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    series = Series.objects.get(tournament=tournament, number=1)
    play_series(series)
    tournaments.series_close(series=series, user=None)
    page = _desk(_organiser(tournament), tournament)
    # Drawn unless the desk chooses the standings; each way read whole, not cut off in a narrow list.
    assert re.search(r'<input type="radio" name="seating" value="draw"[^>]* checked', page)
    assert re.search(r'<input type="radio" name="seating" value="standings"', page)
    assert "drawn (avoiding the pairings of the series before)" in page
    assert "by the standings (the leaders at table 1)" in page
    assert '<select name="seating"' not in page


def test_met_again_names_each_pair_of_a_table_who_sat_together_before() -> None:
    before = [(("a", "b", "c", "d"), ("e", "f", "g", "h"))]
    assert met_again((("a", "e", "b", "f"), ("c", "g", "d", "h")), before) == [
        ("a", "b"),
        ("e", "f"),
        ("c", "d"),
        ("g", "h"),
    ]
    assert met_again((("a", "e", "c", "g"),), []) == []


def test_a_name_of_many_wide_letters_enters_and_a_null_character_finds_nothing() -> None:
    tournament = announce()
    long_name = "ß" * 51
    entry = tournaments.entry_at_door(tournament=tournament, form=tournaments.EntryForm(long_name))
    assert len(entry.name_key) == 102
    page = _desk(_organiser(tournament), tournament, "?find=%00")
    assert _listed(page) == [long_name]


@pytest.mark.django_db(transaction=True)
def test_a_print_asked_again_while_it_is_made_is_the_same_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(downloads, "BACKGROUND_TABLES", 1)
    tournament = announce()
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    client = _organiser(tournament)
    address = reverse("tournament_table_cards", args=[tournament.public_id, 1])
    first, again = client.get(address)["Location"], client.get(address)["Location"]
    assert first == again
    assert FileJob.objects.count() == 1
    run_tasks()
    assert client.get(address)["Location"] != first
    assert FileJob.objects.count() == 2
