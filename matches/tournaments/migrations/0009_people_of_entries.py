"""Every entrant who gave a federation number joined to that number's person, as entering does from now on."""

from collections.abc import Iterable
from typing import Any

from django.db import migrations

from matches.moves import Numbered, Pair, people_joined


def no_pairs(apps: Any) -> Iterable[Pair]:
    return ()


def numbers(apps: Any) -> Iterable[Numbered]:
    entries = apps.get_model("tournaments", "Entry").objects.exclude(federation_number="").order_by("pk")
    yield from entries.values_list("player_id", "federation_number").iterator()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0022_people_of_accounts"),
        ("tournaments", "0008_closed_lists_in_the_core"),
    ]

    operations = [migrations.RunPython(people_joined("number", no_pairs, numbers), migrations.RunPython.noop)]
