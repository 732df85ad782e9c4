"""The answers to tournaments' changes through the API move into the core's one table of kept answers, for every kind of
event; nothing kept is lost."""

from django.db import migrations

from matches.moves import kept_answers_moved


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("matches", "0018_kept_answers_of_every_kind"),
        ("tournaments", "0005_kept_answers_pruned"),
    ]

    operations = [
        migrations.RunPython(*kept_answers_moved("tournaments", "TournamentRequest", "tournament")),
        migrations.DeleteModel(name="TournamentRequest"),
    ]
