from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def files_into_parts(apps: Any, schema_editor: Any) -> None:
    """A file still waiting for its restore becomes the first and only part of it."""
    jobs = apps.get_model("matches", "RestoreJob").objects
    parts = apps.get_model("matches", "RestorePart").objects
    for job in jobs.exclude(data="").only("pk", "data").iterator(chunk_size=10):
        parts.create(job=job, number=0, text=job.data)


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0015_file_jobs_made_in_the_background"),
    ]

    operations = [
        migrations.AlterField(
            model_name="restorejob",
            name="size",
            field=models.PositiveBigIntegerField(),
        ),
        migrations.CreateModel(
            name="RestorePart",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("number", models.PositiveIntegerField()),
                ("text", models.TextField()),
                (
                    "job",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="parts", to="matches.restorejob"
                    ),
                ),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("job", "number"), name="restore_part_unique")],
            },
        ),
        migrations.RunPython(files_into_parts, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name="restorejob",
            name="data",
        ),
    ]
