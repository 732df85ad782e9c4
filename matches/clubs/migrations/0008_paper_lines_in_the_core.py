"""The paper lines of club nights' tables move into the core's one table of paper lines, each under its table's match,
for every kind of event; nothing entered is lost."""

from django.db import migrations

from matches.moves import paper_lines_moved


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0019_paper_lines_of_every_kind"),
        ("leagues", "0007_kept_answers_in_the_core"),
    ]

    operations = [
        migrations.RunPython(*paper_lines_moved("leagues", "PaperLine", "ClubTable", "club_table")),
        migrations.DeleteModel(name="PaperLine"),
    ]
