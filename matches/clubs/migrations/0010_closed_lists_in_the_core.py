"""Every player's list at the tables of the club nights closed before the core kept closed lists, kept there now:
each night's lists, as its closing would have reported them."""

from collections.abc import Iterable
from typing import Any

from django.db import migrations

from matches.moves import Place, closed_lists_kept


def closed_tables(apps: Any) -> Iterable[Place]:
    tables = apps.get_model("leagues", "ClubTable").objects.filter(night__closed_at__isnull=False)
    for match, series, night, date, season, season_name, club in tables.values_list(
        "match_id",
        "series",
        "night__public_id",
        "night__date",
        "night__season__public_id",
        "night__season__name",
        "night__season__club__name",
    ).iterator():
        yield match, night, f"{club} · {season_name}", season, date, series


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0020_closed_lists"),
        ("leagues", "0009_closed_links_in_the_core"),
    ]

    operations = [migrations.RunPython(*closed_lists_kept("club", closed_tables))]
