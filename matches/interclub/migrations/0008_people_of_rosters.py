"""Every roster's club player and league player joined as one person, and to the federation number the roster gives
them, as putting a player on a roster does from now on."""

from collections.abc import Iterable
from typing import Any

from django.db import migrations

from matches.moves import Numbered, Pair, people_joined


def rosters(apps: Any) -> Iterable[Pair]:
    entries = apps.get_model("interclub", "RosterEntry").objects.order_by("pk")
    yield from entries.values_list("player_id", "league_player_id").iterator()


def numbers(apps: Any) -> Iterable[Numbered]:
    entries = apps.get_model("interclub", "RosterEntry").objects.exclude(federation_number="").order_by("pk")
    yield from entries.values_list("league_player_id", "federation_number").iterator()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0022_people_of_accounts"),
        ("interclub", "0007_closed_lists_in_the_core"),
    ]

    operations = [migrations.RunPython(people_joined("roster", rosters, numbers), migrations.RunPython.noop)]
