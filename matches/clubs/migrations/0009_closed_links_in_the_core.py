"""The link each table of a closed night had is kept by the core, as its match's ended link, for every kind of event:
a table's own copy of it goes. A night closed before the core kept the link gives it to its tables' matches first;
nothing a phone could still open is lost."""

from typing import Any

from django.db import migrations
from django.db.models import OuterRef, Subquery


def links_to_matches(apps: Any, schema_editor: Any) -> None:
    """Each table's closed link onto its match, where the match keeps none of its own."""
    tables = apps.get_model("leagues", "ClubTable").objects.exclude(closed_link="")
    link = tables.filter(match_id=OuterRef("pk")).values("closed_link")[:1]
    matches = apps.get_model("matches", "Match").objects
    matches.filter(ended_link="", pk__in=tables.values("match_id")).update(ended_link=Subquery(link))


def links_to_tables(apps: Any, schema_editor: Any) -> None:
    """And back: each match's ended link onto its table, where the table keeps none."""
    matches = apps.get_model("matches", "Match").objects.exclude(ended_link="")
    link = matches.filter(pk=OuterRef("match_id")).values("ended_link")[:1]
    tables = apps.get_model("leagues", "ClubTable").objects
    tables.filter(closed_link="", match_id__in=matches.values("pk")).update(closed_link=Subquery(link))


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0014_match_ended_link"),
        ("leagues", "0008_paper_lines_in_the_core"),
    ]

    operations = [
        migrations.RunPython(links_to_matches, links_to_tables),
        migrations.RemoveField(model_name="clubtable", name="closed_link"),
    ]
