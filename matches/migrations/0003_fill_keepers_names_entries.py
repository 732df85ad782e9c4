"""Fill in what the previous migration added, from what is stored.

- Every user who owned players or matches gets a keeper; matches remember their creator.
- Player names are normalised (NFC, single spaces, no invisible characters) and keyed by their case fold; two players
  of one keeper whose names now coincide are merged when they never sat at one table, and numbered otherwise.
- Stored entries, and the entries in the history, are brought to the canonical sparse form (entry version 1): values
  at their default are left out, and a Ramsch has no declarer.
- Games get their deal number, matches their deal count, totals and version, events their version.

The conversions are written out here, as they were at the time, so that later changes to the code cannot change
what this migration does.
"""

import re
import unicodedata
import uuid

from django.db import migrations

SPACES = re.compile(r"\s+")
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
RAMSCH = "ramsch"


def clean_name(raw, fallback):
    name = SPACES.sub(" ", unicodedata.normalize("NFC", raw)).strip()
    name = "".join(char for char in name if unicodedata.category(char) not in REFUSED_CATEGORIES)
    return name[:60] or fallback


def name_key(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def sparse_entry(entry):
    if entry is None:
        return None
    data = {"contract": entry.get("contract")}
    for name, value in entry.items():
        if name in ("contract", "ramsch", "bock") or value is None or value == "":
            continue
        # A flag at false is left out; a null's result "won: false" is what was entered, and stays.
        if value is False and name != "won":
            continue
        data[name] = value
    ramsch = entry.get("ramsch")
    if ramsch:
        kept = {"card_points": list(ramsch.get("card_points") or [])}
        if ramsch.get("jungfrau"):
            kept["jungfrau"] = list(ramsch["jungfrau"])
        if ramsch.get("pushes"):
            kept["pushes"] = ramsch["pushes"]
        if ramsch.get("durchmarsch") is not None:
            kept["durchmarsch"] = ramsch["durchmarsch"]
        data["ramsch"] = kept
    return data


def canonical_state(state):
    if state is None:
        return None
    entry = sparse_entry(state.get("entry"))
    declarer = state.get("declarer")
    if state.get("passed") or (entry is not None and entry.get("contract") == RAMSCH):
        declarer = None
    return {**state, "v": 1, "entry": entry, "declarer": declarer}


def forward(apps, schema_editor):
    Keeper = apps.get_model("matches", "Keeper")
    Player = apps.get_model("matches", "Player")
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    Game = apps.get_model("matches", "Game")
    GameScore = apps.get_model("matches", "GameScore")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    keepers = {}

    def keeper_of(user_id):
        if user_id not in keepers:
            keepers[user_id], _ = Keeper.objects.get_or_create(user_id=user_id)
        return keepers[user_id]

    seen = {}
    for player in Player.objects.order_by("created_at", "id"):
        player.keeper = keeper_of(player.owner_id)
        player.public_id = uuid.uuid4()
        player.name = clean_name(player.name, f"Player {player.pk}")
        key = (player.keeper.pk, name_key(player.name))
        kept = seen.get(key)
        if kept is not None and not _share_a_match(Seat, kept, player):
            Seat.objects.filter(player=player).update(player=kept)
            GameScore.objects.filter(player=player).update(player=kept)
            player.delete()
            continue
        number = 2
        base = player.name
        while key in seen:
            player.name = f"{base[:54]} ({number})"
            key = (player.keeper.pk, name_key(player.name))
            number += 1
        player.name_key = key[1]
        seen[key] = player
        player.save()

    for match in Match.objects.all():
        match.keeper = keeper_of(match.owner_id)
        match.created_by_id = match.owner_id
        match.public_id = uuid.uuid4()
        match.players = Seat.objects.filter(match=match).count()
        games = list(Game.objects.filter(match=match).order_by("position"))
        number = 0
        for game in games:
            game.public_id = uuid.uuid4()
            state = canonical_state({"passed": game.passed, "declarer": game.declarer, "entry": game.entry})
            game.entry, game.declarer, game.entry_version = state["entry"], state["declarer"], 1
            game.rules_version = 1
            if game.deleted:
                game.number = None
            else:
                number += 1
                game.number = number
        totals = [0] * match.players
        for seat, points in GameScore.objects.filter(game__match=match, game__deleted=False).values_list(
            "seat", "points"
        ):
            totals[seat] += points
        by_pk = {game.pk: game for game in games}
        events = list(MatchEvent.objects.filter(match=match).order_by("created_at", "id"))
        for version, event in enumerate(events, start=1):
            event.public_id = uuid.uuid4()
            event.version = version
            event.before = canonical_state(event.before)
            event.after = canonical_state(event.after)
            game = by_pk[event.game_id]
            event.number = game.number
            game.version = version
        MatchEvent.objects.bulk_update(events, ["public_id", "version", "before", "after", "number"])
        Game.objects.bulk_update(
            games,
            ["public_id", "entry", "declarer", "entry_version", "rules_version", "number", "version"],
        )
        match.deals = number
        match.totals = totals
        match.version = len(events)
        match.save()


def _share_a_match(Seat, first, second):
    return Seat.objects.filter(player=first, match__seats__player=second).exists()


class Migration(migrations.Migration):
    dependencies = [("matches", "0002_keepers_public_ids_versions")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
