"""The users of a federation's match day, for Locust (``python -m loadtest`` runs them; the plan of the seeded day
is in the file ``LOADTEST_PLAN`` names):

- a scorer at every table: the phone that opened the table's scoring link, saving the next game every
  ``LOADTEST_SAVE_EVERY`` seconds (60–120 unless told), now and then sending a save twice with its key (an answer
  lost on the way), and now and then taking the last game back (undo) and entering it again;
- three more phones at every table, following it every 5 to 30 seconds as the page does (``matches.following``);
- a captain or secretary on each venue's page, signed in, following it every 30 seconds;
- a room screen at each venue, the club's and the tournament's, following every 30 seconds;
- the spectators: the rest of the users, without an account, opening a group's table, a venue's page, the
  tournament's live page or the club's screen every 10 to 30 seconds.

Every save the server answered is written, with its key, to ``LOADTEST_TOLD`` when the run ends (with the keys of
every save sent, answered or not: one under way when the run stopped may be kept unanswered), with how many
answers to the spectators a shared cache gave (nginx's ``X-Cache-Status``), for ``loadtest`` to check the database
against."""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

from locust import HttpUser, between, events, task

from loadtest.pages import FOLLOW, UNDO, entry_of, next_game

PLAN: dict[str, Any] = json.loads(Path(os.environ["LOADTEST_PLAN"]).read_text())
TOLD: list[dict[str, str]] = []
SENT: list[str] = []
CACHE: Counter[str] = Counter()
SAVE_EVERY = tuple(float(part) for part in os.environ.get("LOADTEST_SAVE_EVERY", "60-120").split("-"))
FOLLOWERS_AT_A_TABLE = 3
# One save in this many is sent twice with its key; one in this many is taken back and entered again.
TWICE_EVERY = 8
UNDO_EVERY = 12
HTMX = {"HX-Request": "true"}
_tables = itertools.count()
_followers = itertools.count()
_venues = itertools.count()
_screens = itertools.count()


class Phone(HttpUser):
    """A phone at a table, joined through the table's scoring link."""

    abstract = True

    def join(self, table: dict[str, str]) -> str:
        """Open the table's scoring link and tap to score there, as its QR code makes a phone do."""
        self.client.get(table["join"], name="join")
        headers = {"X-CSRFToken": self.client.cookies.get("csrftoken", "")}
        self.client.post(table["join"], headers=headers, name="join", allow_redirects=False)
        return f"/matches/{table['match']}/"


class Scorer(Phone):
    fixed_count = len(PLAN["tables"])
    wait_time = between(*SAVE_EVERY)

    def on_start(self) -> None:
        self.table = PLAN["tables"][next(_tables) % len(PLAN["tables"])]
        self.match = self.join(self.table)
        self.saves = 0
        self.read()

    def read(self) -> None:
        page = self.client.get(self.match, name="match page")
        self.next = entry_of(page.text)
        self.page = page.text

    @task
    def save(self) -> None:
        if self.next is None:
            self.read()
            return
        self.saves += 1
        data = next_game(*self.next)
        headers = {**HTMX, "X-CSRFToken": self.client.cookies.get("csrftoken", "")}
        url = f"{self.match}games/"
        SENT.append(data["token"])
        with self.client.post(url, data, headers=headers, name="save", catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"save answered {answer.status_code}")
                self.read()
                return
        TOLD.append({"match": self.table["match"], "token": data["token"]})
        if self.saves % TWICE_EVERY == 0:
            # The answer was lost on the way: the phone sends the same save again, with the same key.
            with self.client.post(url, data, headers=headers, name="save again", catch_response=True) as again:
                if again.status_code != 200:
                    again.failure(f"save sent again answered {again.status_code}")
        self.next = entry_of(answer.text) or None
        if self.next is None:
            self.read()
        if self.saves % UNDO_EVERY == 0:
            self.undo()

    def undo(self) -> None:
        """The last game taken back, as the page's undo does, and the page read again to enter it anew."""
        page = self.client.get(self.match, name="match page")
        found = UNDO.search(page.text)
        if found is None:
            return
        action, token, change, version = found.groups()
        data = {"token": token, "change": change, "version": version}
        headers = {"X-CSRFToken": self.client.cookies.get("csrftoken", "")}
        self.client.post(action, data, headers=headers, name="undo")
        self.read()


class Follower(Phone):
    fixed_count = len(PLAN["tables"]) * FOLLOWERS_AT_A_TABLE
    wait_time = between(5, 30)

    def on_start(self) -> None:
        table = PLAN["tables"][next(_followers) % len(PLAN["tables"])]
        self.match = self.join(table)
        self.version = ""

    @task
    def follow(self) -> None:
        answer = self.client.get(f"{self.match}follow/?version={self.version}", headers=HTMX, name="follow")
        if answer.status_code == 200:
            found = FOLLOW.search(answer.text)
            self.version = found[1] if found else self.version


class Watcher(HttpUser):
    """What asks a page again with the ETag it got (htmx's follow): a room's screen, a captain's venue page."""

    abstract = True
    etag = ""

    def ask(self, address: str, name: str) -> None:
        headers = HTMX | ({"If-None-Match": self.etag} if self.etag else {})
        answer = self.client.get(address, headers=headers, name=name)
        self.etag = answer.headers.get("ETag", self.etag)


class Captain(Watcher):
    fixed_count = len(PLAN["venues"])
    wait_time = between(25, 35)

    def on_start(self) -> None:
        index = next(_venues) % len(PLAN["venues"])
        self.venue = PLAN["venues"][index]
        self.client.cookies.set("sessionid", PLAN["sessions"][index])

    @task
    def venue_page(self) -> None:
        self.ask(self.venue, "venue page (captain)")


SCREENS = [*PLAN["pages"]["screen"], *PLAN["pages"]["club screen"], *PLAN["pages"]["live"]]


class Screen(Watcher):
    fixed_count = len(SCREENS)
    wait_time = between(25, 35)

    def on_start(self) -> None:
        self.screen = SCREENS[next(_screens) % len(SCREENS)]

    @task
    def follow(self) -> None:
        self.ask(self.screen, "room screen")


# What spectators open, and how often each: a group's table most.
SPECTATED = {"group": 4, "venue": 3, "live": 2, "club screen": 1}


class Spectator(HttpUser):
    weight = 1
    wait_time = between(10, 30)

    @task
    def look(self) -> None:
        kind = random.choices(list(SPECTATED), weights=list(SPECTATED.values()))[0]
        address = random.choice(PLAN["pages"][kind])
        answer = self.client.get(address, name=f"spectator: {kind}")
        CACHE[answer.headers.get("X-Cache-Status", "none")] += 1


def _told(environment: Any, **kwargs: Any) -> None:
    Path(os.environ["LOADTEST_TOLD"]).write_text(json.dumps({"saves": TOLD, "sent": SENT, "cache": CACHE}))


events.quitting.add_listener(_told)  # type: ignore[no-untyped-call]
