"""A backup file of one long match, made in memory: for the benchmark's and the load test's restores.

The games are drawn by a seeded ``DealMaker`` (Skat at three with Bock rounds, the way a pub table plays it), each
with the one history entry a save writes, so that the file is what a table that kept one list for years would
download: every game is checked and scored again when it is restored.
"""

from __future__ import annotations

import datetime
import random
import uuid
from typing import Any

from matches.backup import FORMAT, VERSION, when
from matches.engine import deal_state, setup_match
from matches.engine.entry import stored_version
from matches.ids import time_ordered_id
from matches.management.deals import DealMaker

NAMES = ("Anna", "Ben", "Cleo")
RULES: dict[str, bool | int | str] = {"bock": True}
START = datetime.datetime(2020, 1, 1, 19, tzinfo=datetime.UTC)


def large_backup(games: int, seed: str) -> dict[str, Any]:
    """A person's backup of three players and one match of ``games`` games, the same for the same seed."""
    rng = random.Random(seed)

    def new_id() -> str:
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))

    def new_id_at(moment: datetime.datetime) -> str:
        """A game's or history entry's id, as the app makes it: it begins with its moment."""
        return str(time_ordered_id(moment, rng.getrandbits))

    players = [{"id": new_id(), "name": name, "created_at": when(START)} for name in NAMES]
    maker = DealMaker(setup_match("skat", scheme="standard", rules=RULES, players=len(NAMES)), rng)
    game_entries: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    for number in range(1, games + 1):
        deal = maker.deal(number).deal()
        state = {"v": stored_version(deal), **deal_state(deal), "deleted": False}
        played = START + datetime.timedelta(minutes=3 * number)
        moment = when(played)
        game = {
            "id": new_id_at(played),
            "position": number,
            "passed": state["passed"],
            "declarer": state["declarer"],
            "entry": state["entry"],
            "entry_version": state["v"],
            "deleted": False,
            "version": number,
            "created_at": moment,
        }
        game_entries.append(game)
        history.append(
            {
                "id": new_id_at(played),
                "game": game["id"],
                "action": "add",
                "token": new_id(),
                "version": number,
                "number": number,
                "created_at": moment,
                "before": None,
                "after": state,
                "undo_of": None,
            }
        )
    match = {
        "id": new_id(),
        "title": f"{games} games",
        "variant": "skat",
        "scheme": "standard",
        "rules": RULES,
        "preset": "",
        "first_dealer": 0,
        "planned_games": None,
        "locked": False,
        "ended_link": "",
        "created_at": when(START),
        "seats": [player["id"] for player in players],
        "games": game_entries,
        "history": history,
    }
    return {"format": FORMAT, "version": VERSION, "created": when(START), "players": players, "matches": [match]}
