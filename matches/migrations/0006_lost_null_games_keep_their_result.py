"""Give a lost null game back its result where an earlier form of migration 0003 left it out.

That migration dropped every false value from stored entries, "won: false" of a lost null game included. A null game
is always entered with its result unless it was conceded, so a null entry without "won" that is not conceded lost.
The games and the states in their history are mended alike; a database migrated since 0003 was corrected finds
nothing to mend.
"""

from django.db import migrations
from django.db.models import Q


def mended(entry):
    if not entry or entry.get("contract") != "null" or "won" in entry or entry.get("conceded"):
        return None
    return {**entry, "won": False}


def forward(apps, schema_editor):
    Game = apps.get_model("matches", "Game")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    games = []
    for game in Game.objects.filter(entry__contract="null"):
        entry = mended(game.entry)
        if entry is not None:
            game.entry = entry
            games.append(game)
    Game.objects.bulk_update(games, ["entry"], batch_size=500)
    events = []
    for event in MatchEvent.objects.filter(Q(before__entry__contract="null") | Q(after__entry__contract="null")):
        changed = False
        for side in ("before", "after"):
            state = getattr(event, side)
            entry = mended(state.get("entry")) if state else None
            if entry is not None:
                setattr(event, side, {**state, "entry": entry})
                changed = True
        if changed:
            events.append(event)
    MatchEvent.objects.bulk_update(events, ["before", "after"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("matches", "0005_game_points_and_indexes")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
