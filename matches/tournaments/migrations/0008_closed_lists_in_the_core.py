"""Every player's list at the tables of the tournaments' series closed before the core kept closed lists, kept there
now: each series' lists, as its closing would have reported them."""

from collections.abc import Iterable
from typing import Any

from django.db import migrations

from matches.moves import Place, closed_lists_kept


def closed_tables(apps: Any) -> Iterable[Place]:
    tables = apps.get_model("tournaments", "Table").objects.filter(series__closed_at__isnull=False)
    for match, series, tournament, name, date in tables.values_list(
        "match_id",
        "series__number",
        "series__tournament__public_id",
        "series__tournament__name",
        "series__tournament__date",
    ).iterator():
        yield match, tournament, name, tournament, date, series


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0020_closed_lists"),
        ("tournaments", "0007_paper_lines_in_the_core"),
    ]

    operations = [migrations.RunPython(*closed_lists_kept("tournament", closed_tables))]
