import uuid

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Keepers and public ids become required, names unique per keeper by their key; the owner columns go."""

    dependencies = [("matches", "0003_fill_keepers_names_entries")]

    operations = [
        migrations.RemoveField(model_name="player", name="owner"),
        migrations.RemoveField(model_name="match", name="owner"),
        migrations.AlterField(
            model_name="player",
            name="keeper",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="players", to="matches.keeper"
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="keeper",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="matches", to="matches.keeper"
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AlterField(
            model_name="match",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AlterField(
            model_name="game",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AlterField(
            model_name="matchevent",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AlterField(
            model_name="match", name="players", field=models.PositiveSmallIntegerField(verbose_name="players")
        ),
        migrations.AlterField(
            model_name="game", name="entry_version", field=models.PositiveSmallIntegerField(default=1)
        ),
        migrations.AlterField(
            model_name="player", name="name_key", field=models.CharField(editable=False, max_length=240)
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("keeper", "name_key"), name="player_name_unique_per_keeper"),
        ),
        migrations.AlterModelOptions(name="matchevent", options={"ordering": ["-version", "-id"]}),
    ]
