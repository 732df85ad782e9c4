import django.db.models.deletion
import matches.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """Add keepers, public ids, normalised name keys, versions and the derived caches, all still optional: the next
    migration fills them in from what is stored."""

    dependencies = [
        ("matches", "0001_initial_matches_and_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Keeper",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="keeper",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_per_owner"),
        migrations.AddField(
            model_name="player",
            name="keeper",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="players", to="matches.keeper"
            ),
        ),
        migrations.AddField(
            model_name="player", name="name_key", field=models.CharField(default="", editable=False, max_length=240)
        ),
        migrations.AddField(model_name="player", name="public_id", field=models.UUIDField(null=True, editable=False)),
        migrations.AddField(
            model_name="player",
            name="account",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="linked_players",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="link_token",
            field=models.CharField(blank=True, max_length=40, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="match",
            name="keeper",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.PROTECT, related_name="matches", to="matches.keeper"
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(model_name="match", name="public_id", field=models.UUIDField(null=True, editable=False)),
        migrations.AddField(
            model_name="match",
            name="token",
            field=models.UUIDField(blank=True, editable=False, null=True, unique=True),
        ),
        migrations.AddField(
            model_name="match",
            name="players",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="players"),
        ),
        migrations.AddField(model_name="match", name="version", field=models.PositiveIntegerField(default=0)),
        migrations.AddField(
            model_name="match",
            name="deals",
            field=models.PositiveIntegerField(default=0, help_text="Derived: the games on the list."),
        ),
        migrations.AddField(
            model_name="match",
            name="totals",
            field=models.JSONField(default=list, help_text="Derived: each seat's total."),
        ),
        migrations.AlterField(
            model_name="match",
            name="invite_token",
            field=models.CharField(
                blank=True, default=matches.models.new_link_token, max_length=40, null=True, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="share_token",
            field=models.CharField(
                blank=True, default=matches.models.new_link_token, max_length=40, null=True, unique=True
            ),
        ),
        migrations.AddField(model_name="game", name="public_id", field=models.UUIDField(null=True, editable=False)),
        migrations.AddField(model_name="game", name="entry_version", field=models.PositiveSmallIntegerField(default=0)),
        migrations.AddField(model_name="game", name="version", field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name="game", name="number", field=models.PositiveIntegerField(blank=True, null=True)),
        migrations.AddField(model_name="game", name="rules_version", field=models.PositiveSmallIntegerField(default=0)),
        migrations.AddField(
            model_name="matchevent", name="public_id", field=models.UUIDField(null=True, editable=False)
        ),
        migrations.AddField(model_name="matchevent", name="version", field=models.PositiveIntegerField(default=0)),
        migrations.AddField(
            model_name="matchevent", name="number", field=models.PositiveIntegerField(blank=True, null=True)
        ),
        migrations.AlterField(
            model_name="matchevent",
            name="action",
            field=models.CharField(
                choices=[
                    ("add", "added"),
                    ("edit", "edited"),
                    ("delete", "deleted"),
                    ("undo", "undone"),
                    ("redo", "redone"),
                ],
                max_length=10,
            ),
        ),
    ]
