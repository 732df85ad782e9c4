"""The paper lines of tournaments' tables move into the core's one table of paper lines, each under its table's match,
for every kind of event; nothing entered is lost."""

from django.db import migrations

from matches.moves import paper_lines_moved


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0019_paper_lines_of_every_kind"),
        ("tournaments", "0006_kept_answers_in_the_core"),
    ]

    operations = [
        migrations.RunPython(*paper_lines_moved("tournaments", "PaperLine", "Table", "tournament_table", by_entry=True)),
        migrations.DeleteModel(name="PaperLine"),
    ]
