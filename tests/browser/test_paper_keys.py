"""A table's paper list typed on a phone with the number keys alone: the first field has the focus when the list
opens, Enter moves on to the next field, and Enter on the last saves: no tap at all."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from matches.models import PaperLine
from matches.tournaments import services as tournaments
from matches.tournaments.models import Series, Table

from ..tournaments_setup import announce, enter_field, paper_totals, seated
from .flow import signed_in


@pytest.mark.django_db(transaction=True)
def test_a_paper_list_of_a_table_of_four_is_typed_with_the_keys_alone(browser: Browser, live_server: Any) -> None:
    tournament = announce()
    enter_field(tournament, 8)
    tournaments.series_draw(tournament=tournament, number=1)
    table = Table.objects.get(series=Series.objects.get(tournament=tournament), number=1)
    players = seated(table)
    totals = [paper_totals(2, 0, 0), paper_totals(1, 1, 3), (0, 0, 0), (0, 0, 0)]
    assert tournament.organiser is not None
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = signed_in(context, live_server.url, tournament.organiser)
    page.goto(live_server.url + reverse("tournaments:paper", args=[tournament.public_id, 1, 1]))
    first = page.get_by_label(f"Game points of {players[0].name}")
    expect(first).to_be_focused()
    for points, won, lost in totals:
        for value in (points, won, lost):
            page.keyboard.type(str(value))
            page.keyboard.press("Enter")
    expect(page.get_by_text("The list of table 1 is entered.")).to_be_visible()
    entered = {
        line.player_id: (line.game_points, line.won, line.lost) for line in PaperLine.objects.filter(match=table.match)
    }
    assert entered == {entry.player_id: one for entry, one in zip(players, totals, strict=True)}
    context.close()
