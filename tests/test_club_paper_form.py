"""A paper list that is refused says so at the top of the page, each problem a link to its field, and the first
field in error takes the focus: all written by the server, so that it works without a script too."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night

from .factories import make_user

pytestmark = pytest.mark.django_db


def _four_at_a_table() -> tuple[Client, Night, ClubTable]:
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 26))
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    client = Client()
    client.force_login(owner)
    return client, night, ClubTable.objects.get(night=night)


def _lines(*rows: tuple[str, str, str]) -> dict[str, str]:
    return {
        f"{field}_{seat}": value
        for seat, row in enumerate(rows)
        for field, value in zip(("points", "won", "lost"), row, strict=True)
    }


def test_a_refused_paper_list_sums_up_its_problems_at_the_top_and_focuses_the_first() -> None:
    client, night, table = _four_at_a_table()
    address = reverse("night_paper", args=[night.public_id, table.number]) + "?series=1"
    answer = client.post(address, _lines(("18", "1", "0"), ("0", "0", "0"), ("0", "0", "0"), ("19", "1", "0")))
    assert answer.status_code == 400
    page = answer.content.decode()
    summary = re.search(r'<div class="error-summary" role="alert"[^>]*>(.*?)</div>', page, re.S)
    assert summary is not None
    main = page.split("<main>")[1]
    assert main.index("error-summary") < main.index("<form")
    fourth = table.match.seats.get(position=3).player.name
    assert (
        f'<a href="#id_points_3">{fourth}, game points: No 1 won and 0 lost games add up to 19 game points.</a>'
        in summary[1]
    )
    focused = re.findall(r"<input [^>]*autofocus[^>]*>", page)
    assert len(focused) == 1
    assert 'id="id_points_3"' in focused[0]


def test_a_list_refused_as_a_whole_is_summed_up_without_a_field_to_focus() -> None:
    client, night, table = _four_at_a_table()
    address = reverse("night_paper", args=[night.public_id, table.number]) + "?series=1"
    answer = client.post(address, _lines(("540", "30", "0"), ("0", "0", "0"), ("0", "0", "0"), ("-1080", "0", "30")))
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "60 games won and lost, but the series has 48 games." in page.split("<main>")[1].split("<form")[0]
    assert "autofocus" not in page


def test_a_field_the_form_refuses_is_named_in_the_summary_with_its_player() -> None:
    client, night, table = _four_at_a_table()
    address = reverse("night_paper", args=[night.public_id, table.number]) + "?series=1"
    answer = client.post(address, _lines(("0", "0", "0"), ("0", "x", "0"), ("0", "0", "0"), ("0", "0", "0")))
    assert answer.status_code == 400
    second = table.match.seats.get(position=1).player.name
    page = answer.content.decode()
    assert f'<a href="#id_won_1">{second}, won: Enter a whole number, with the digits 0 to 9.</a>' in page
    assert re.search(r'<input [^>]*id="id_won_1"[^>]*autofocus|<input [^>]*autofocus[^>]*id="id_won_1"', page)


def test_a_paper_list_takes_numbers_written_with_the_digits_0_to_9_only_as_every_form_and_the_api_do() -> None:
    client, night, table = _four_at_a_table()
    address = reverse("night_paper", args=[night.public_id, table.number]) + "?series=1"
    answer = client.post(address, _lines(("0", "0", "0"), ("0", "٣", "0"), ("0", "0", "0"), ("0", "0", "0")))
    assert answer.status_code == 400
    second = table.match.seats.get(position=1).player.name
    assert f'<a href="#id_won_1">{second}, won: Enter a whole number' in answer.content.decode()
