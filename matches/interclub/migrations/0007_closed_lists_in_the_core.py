"""Every player's list at the tables of the venues closed before the core kept closed lists, kept there now: each
venue's lists, as its closing would have reported them."""

from collections.abc import Iterable
from typing import Any

from django.db import migrations

from matches.moves import Place, closed_lists_kept


def closed_tables(apps: Any) -> Iterable[Place]:
    tables = apps.get_model("interclub", "VenueTable").objects.filter(venue__closed_at__isnull=False)
    for match, series, venue, date, group, group_name, league in tables.values_list(
        "match_id",
        "series",
        "venue__public_id",
        "venue__match_day__date",
        "venue__match_day__group__public_id",
        "venue__match_day__group__name",
        "venue__match_day__group__division__league__name",
    ).iterator():
        yield match, venue, f"{league} · {group_name}", group, date, series


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0020_closed_lists"),
        ("interclub", "0006_paper_lines_in_the_core"),
    ]

    operations = [migrations.RunPython(*closed_lists_kept("league", closed_tables))]
