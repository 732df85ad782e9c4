from django.db import migrations


def forget_paper_changes(apps, schema_editor):
    """A step back: the release before kept no paper list in a match's history, and has no place for one."""
    apps.get_model("matches", "MatchEvent").objects.filter(action="paper").delete()


class Migration(migrations.Migration):
    """On a step back only, in a transaction of its own before the history's actions narrow again (PostgreSQL alters
    no table with the deletion's checks still pending)."""

    dependencies = [
        ("matches", "0027_paper_lists_in_the_history"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, forget_paper_changes),
    ]
