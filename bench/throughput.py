"""Requests per second under gunicorn, for ``make bench``: saving a game through the API against the health
check, side by side.

gunicorn serves the bench's temporary database in production settings, with two workers per core; twice as many
clients as workers, each a thread with an API token and a match of its own, keep every worker busy. The two kinds of
request take turns in phases of a few seconds (which goes first alternates); a phase counts the answers its clients
get, and each side's figure is the median of its phases. A save is ``POST /api/v1/matches/<id>/games/`` with an
``Idempotency-Key``, as the load test sends it: the match grows by one game with each (what a save costs does not
grow with the match: see "save at game 1000 / game 10"). The health check answers after one trivial query and no
session: a bare view with a database behind it.
"""

from __future__ import annotations

import os
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from django.contrib.auth.models import User
from django.db import connection
from knox.models import get_token_model

from matches.services import match_create

from . import BenchError
from .serving import Server, gunicorn

PHASE_SECONDS = 3.0
WARM_UP_SECONDS = 1.0
GAME = {"contract": "clubs", "matadors": 1, "outcome": "won"}


@dataclass(frozen=True)
class Throughput:
    workers: int
    clients: int
    save: float  # requests per second, the median of the save phases
    bare: float


def database_url() -> str:
    """The URL of the database this process uses (the bench's temporary one), for gunicorn's processes."""
    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    if connection.vendor == "postgresql":
        login = f"{quote(config['USER'], safe='')}:{quote(config['PASSWORD'], safe='')}"
        return f"postgres://{login}@{config['HOST'] or 'localhost'}:{config['PORT'] or 5432}/{config['NAME']}"
    raise BenchError(f"gunicorn cannot be given a {connection.vendor} database")


class Client:
    """One phone: a token and a match of its own."""

    def __init__(self, server: Server, scorer: User) -> None:
        self.server = server
        match = match_create(
            owner=scorer, variant="skat", scheme="standard", rules={}, player_names=("Anna", "Ben", "Cleo")
        ).match
        _, token = get_token_model().objects.create(user=scorer)
        self.token = token
        self.games = f"/api/v1/matches/{match.public_id}/games/"
        self.deals = 0

    def save(self) -> None:
        self.deals += 1
        headers = {"Authorization": f"Token {self.token}", "Idempotency-Key": str(uuid.uuid4())}
        body = {"number": self.deals, "declarer": self.deals % 3, "game": GAME}
        answer = self.server.request("POST", self.games, body, headers)
        if answer.status != 201:
            raise BenchError(f"save under gunicorn: status {answer.status}: {answer.body!r}")

    def bare(self) -> None:
        answer = self.server.request("GET", "/health/")
        if answer.status != 200:
            raise BenchError(f"health check under gunicorn: status {answer.status}")


def _phase(clients: list[Client], send: Callable[[Client], None], seconds: float) -> float:
    """Every client sends one request after another for ``seconds``; the answers per second, all together."""
    counts = [0] * len(clients)
    failures: list[BaseException] = []
    until = time.monotonic() + seconds

    def run(index: int) -> None:
        try:
            while time.monotonic() < until:
                send(clients[index])
                counts[index] += 1
        except (OSError, BenchError) as failure:
            failures.append(failure)

    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise BenchError(str(failures[0]))
    return sum(counts) / (time.monotonic() - started)


def measure(scorer: User, rounds: int) -> Throughput:
    """Saves and bare views per second under gunicorn, ``rounds`` phases of each, taking turns."""
    workers = 2 * (os.cpu_count() or 1)
    samples: dict[str, list[float]] = {"save": [], "bare": []}
    sides: tuple[tuple[str, Callable[[Client], None]], ...] = (("save", Client.save), ("bare", Client.bare))
    with gunicorn(database_url(), workers=workers) as server:
        clients = [Client(server, scorer) for _ in range(2 * workers)]
        for _, send in sides:
            _phase(clients, send, WARM_UP_SECONDS)
        for round_number in range(rounds):
            for name, send in sides if round_number % 2 else reversed(sides):
                samples[name].append(_phase(clients, send, PHASE_SECONDS))
    return Throughput(workers, len(clients), statistics.median(samples["save"]), statistics.median(samples["bare"]))
