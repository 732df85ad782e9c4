"""A team's captain confirms a corrected report anew: a confirmation made before a correction is kept beside it."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('interclub', '0008_people_of_rosters'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='reportconfirmation',
            name='report_confirmation_unique',
        ),
    ]
