"""The answers to league venues' changes through the API move into the core's one table of kept answers, for every kind of
event; nothing kept is lost."""

from django.db import migrations


def _moved(apps, schema_editor):
    old = apps.get_model("interclub", "VenueRequest")
    if not old.objects.exists():
        return
    kind, _ = apps.get_model("contenttypes", "ContentType").objects.get_or_create(app_label="interclub", model="venue")
    kept = apps.get_model("matches", "KeptAnswer")
    rows = old.objects.order_by("pk").values_list("venue_id", "key", "asked", "answer", "created_at")
    kept.objects.bulk_create(
        (
            kept(kind=kind, thing_id=thing, key=key, asked=asked, answer=answer, created_at=created_at)
            for thing, key, asked, answer, created_at in rows.iterator()
        ),
        batch_size=500,
    )


def _moved_back(apps, schema_editor):
    old = apps.get_model("interclub", "VenueRequest")
    kept = apps.get_model("matches", "KeptAnswer").objects.filter(kind__app_label="interclub", kind__model="venue")
    old.objects.bulk_create(
        (
            old(venue_id=row.thing_id, key=row.key, asked=row.asked, answer=row.answer, created_at=row.created_at)
            for row in kept.iterator()
        ),
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("matches", "0018_kept_answers_of_every_kind"),
        ("interclub", "0004_kept_answers_pruned"),
    ]

    operations = [
        migrations.RunPython(_moved, _moved_back),
        migrations.DeleteModel(name="VenueRequest"),
    ]
