from typing import Any

from django.db import migrations, models

from matches.names import name_key


def keys_of_names(apps: Any, schema_editor: Any) -> None:
    """Each entry's name as names are compared, as entering now keeps it."""
    entries = apps.get_model("tournaments", "Entry")
    changed = []
    for entry in entries.objects.only("pk", "name").order_by("pk").iterator(chunk_size=2000):
        entry.name_key = name_key(entry.name)
        changed.append(entry)
    entries.objects.bulk_update(changed, ["name_key"], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_entry_standings_kept_over_the_closed_series"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=240),
            preserve_default=False,
        ),
        migrations.RunPython(keys_of_names, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="entry",
            index=models.Index(fields=["tournament", "name_key"], name="tournament_entry_name_key"),
        ),
    ]
