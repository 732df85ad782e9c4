"""Every player linked to an account joined to the account's person, as linking does from now on."""

from typing import Any

from django.db import migrations


def accounts_joined(apps: Any, schema_editor: Any) -> None:
    players = apps.get_model("matches", "Player").objects
    person_model = apps.get_model("matches", "Person")
    join_model = apps.get_model("matches", "Join")
    books: dict[int, set[int]] = {}
    people: dict[int, Any] = {}
    for player in players.filter(account__isnull=False).order_by("account_id", "created_at", "pk").iterator():
        person = people.get(player.account_id)
        if person is None:
            person = people[player.account_id] = person_model.objects.create(account_id=player.account_id, name=player.name)
        if player.keeper_id in books.setdefault(person.pk, set()):
            continue
        books[person.pk].add(player.keeper_id)
        player.person = person
        player.save(update_fields=["person"])
        join_model.objects.create(player=player, person=person, how="account")



class Migration(migrations.Migration):
    dependencies = [("matches", "0021_people_joined_across_books")]

    operations = [migrations.RunPython(accounts_joined, migrations.RunPython.noop)]
