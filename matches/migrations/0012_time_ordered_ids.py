# A field's Python default lives in no table: the change is made to the state alone, so that SQLite does not copy
# the games and the history into new tables for it.

import matches.ids
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0011_restore_jobs'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='game',
                    name='public_id',
                    field=models.UUIDField(default=matches.ids.time_ordered_id, editable=False, unique=True),
                ),
                migrations.AlterField(
                    model_name='matchevent',
                    name='public_id',
                    field=models.UUIDField(default=matches.ids.time_ordered_id, editable=False, unique=True),
                ),
            ],
        ),
    ]
