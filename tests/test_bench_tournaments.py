"""The benchmark's open tournaments, seeded small: what ``make bench`` measures at full size must stay a
tournament the pages read as any other (two series closed with their standings kept, the third drawn and partly
entered), its draw must leave the tournament as it found it, and the draw's work must grow with the room alone."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.test import Client
from django.urls import reverse

from bench.figures import Requests, Seeds
from bench.tournaments import DONE_EVERY, SERIES, seed_room, seed_tournament
from matches.engine import draw as draw_engine
from matches.engine.tournaments import TournamentRules, seat_series
from matches.models import Match, Player
from matches.tournaments.models import Entry, EntryStanding, Payment, Series, Table, TableSeat
from matches.tournaments.selectors import series_progress, tournament_results

from .factories import make_user

pytestmark = pytest.mark.django_db


def test_a_bench_tournament_has_two_series_closed_and_the_third_being_played() -> None:
    bench = seed_tournament(make_user("organiser"), "Preisskat", 14)
    tournament = bench.tournament
    series = list(Series.objects.filter(tournament=tournament).order_by("number"))
    assert [one.closed_at is not None for one in series] == [True, True, False]
    assert EntryStanding.objects.filter(tournament=tournament, series=2, lists=2).count() == 14
    # The results count the series being played as far as its tables are: its entered tables' lists too.
    assert len(tournament_results(tournament).standings) == 14
    progress = series_progress(tournament)
    assert progress is not None
    assert (progress.number, progress.tables, progress.done) == (SERIES, 4, 4 // DONE_EVERY)
    # The field spreads out: not everybody on the same total.
    assert len(set(EntryStanding.objects.filter(tournament=tournament).values_list("total", flat=True))) > 5


def test_the_benchs_draw_draws_the_last_series_and_takes_it_back() -> None:
    organiser = make_user("bench-scorer")
    seeds = Seeds(organiser, lambda line: None)
    bench = seed_tournament(organiser, "Preisskat", 13, playing=False)
    assert Series.objects.filter(tournament=bench.tournament).count() == 2
    matches = Match.objects.filter(keeper=bench.tournament.keeper).count()
    requests = Requests(organiser, seeds)
    for _ in range(2):
        assert requests.tournament_draw(bench) > 0
        assert Series.objects.filter(tournament=bench.tournament).count() == 2
        assert Match.objects.filter(keeper=bench.tournament.keeper).count() == matches
    assert TableSeat.objects.filter(series__tournament=bench.tournament).count() == 2 * 13


def test_the_benchs_live_page_answers_as_a_phone_opens_it() -> None:
    organiser = make_user("bench-scorer")
    bench = seed_tournament(organiser, "Preisskat", 12)
    requests = Requests(organiser, Seeds(organiser, lambda line: None))
    assert requests.tournament_live(bench) > 0
    page = Client().get(reverse("tournaments:live", args=[bench.tournament.public_id])).content.decode()
    assert "Standings after series 2 of 3" in page
    assert "1 of 3 tables done" in page
    assert Table.objects.filter(series__tournament=bench.tournament).count() == 9


def _draw_work(players: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times the draw of series 3 weighs a player against a table, after two series drawn."""
    names = [f"Spieler {number:03d}" for number in range(players)]
    rules = TournamentRules(seed="bench")
    before = [seat_series(names, number=1, rules=rules)]
    before.append(seat_series(names, number=2, rules=rules, before=before))
    weighed = [0]
    against = draw_engine._against

    def counted(person: str, others: Sequence[str], met: dict[str, dict[str, float]]) -> float:
        weighed[0] += 1
        return against(person, others, met)

    monkeypatch.setattr(draw_engine, "_against", counted)
    seat_series(names, number=3, rules=rules, before=before)
    monkeypatch.setattr(draw_engine, "_against", against)
    return weighed[0]


def test_the_draw_avoiding_repeats_grows_no_faster_than_the_room(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten times the players, at most ten times the work (the benchmark's goal allows fifteen)."""
    assert _draw_work(300, monkeypatch) <= 10 * _draw_work(30, monkeypatch)


def test_the_benchs_entry_at_the_door_is_taken_back_and_its_desk_answers() -> None:
    organiser = make_user("bench-scorer")
    requests = Requests(organiser, Seeds(organiser, lambda line: None))
    room = seed_room(organiser, "Preisskat", 9, drawn=False)
    players = Player.objects.filter(keeper=room.tournament.keeper).count()
    for _ in range(2):
        assert requests.tournament_entry(room) > 0
        assert Entry.objects.filter(tournament=room.tournament).count() == 9
        assert Player.objects.filter(keeper=room.tournament.keeper).count() == players
        assert not Payment.objects.filter(entry__tournament=room.tournament, entry__name__startswith="Nachz").exists()
    drawn = seed_room(organiser, "Preisskat gezogen", 9, drawn=True)
    assert Table.objects.filter(series__tournament=drawn.tournament).count() == 3
    assert requests.tournament_desk(drawn) > 0
