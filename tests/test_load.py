"""Sixteen scorers at once against gunicorn, on the suite's database engine, while its workers are killed.

gunicorn serves the app in production settings (``bench.serving``) on a database of its own: a SQLite
file, or a fresh PostgreSQL database when the suite runs on PostgreSQL. Sixteen scorers, each in a thread of its
own with an API token of its own, enter games through ``POST /api/v1/matches/<id>/games/``; eight of them share four
matches in pairs. Every save names the deal it was made for and carries an ``Idempotency-Key``, and is sent twice
with the same key, as a phone does when an answer is lost. A request whose connection fails (its worker was killed)
is sent again with the same key until it is answered. On a shared match both phones may enter the same deal: the
second is refused with 409, reads the match and enters the next deal (with a new key, as it is a new entry).
Meanwhile a worker is killed every half second or so with SIGKILL, whatever it is doing; the master starts another;
and the task worker beside gunicorn restores a backup of ``RESTORED`` games, queued as the backup page queues it.

Afterwards: no answer was a 5xx, every request was answered in the end, every retry got the first answer, and the
database holds each successful save exactly once (one game and one change per key), the matches' games numbered 1 to
n without a gap; the restore ran while the scorers saved, and restored every game.
"""

import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from bench.large_backup import large_backup
from bench.serving import Answer, Server, gunicorn

from .postgres import fresh_database, postgres_admin_url

pytestmark = pytest.mark.load

ROOT = Path(settings.BASE_DIR)
SCORERS = 16
SHARED = 8  # the first eight scorers share matches in pairs
GAMES = 15  # each scorer's successful saves
WORKERS = 4
KILLS = 6
MOST_KILLS = 12
DEADLINE = 120.0  # seconds for the scorers, all together
ATTEMPTS = 10  # sends of one request whose connection keeps failing
USERNAME, PASSWORD = "scorer", "load-test-password-4711"
PLAYERS = ["Anna", "Ben", "Cleo"]
GAME = {"contract": "clubs", "matadors": 1, "outcome": "won"}

RESTORED = 20_000  # games in the backup restored meanwhile
# What the database holds afterwards (the restored match left out), printed as JSON by ``manage.py shell``.
STORED = """
import json
from matches.models import Game, Match, MatchEvent
adds = MatchEvent.objects.filter(action=MatchEvent.Action.ADD).exclude(match__title="{restored} games")
print(json.dumps({{
    "changes": [[str(token), str(game)] for token, game in adds.values_list("token", "game__public_id")],
    "matches": {{
        str(match.public_id): {{
            "deals": match.deals,
            "numbers": sorted(match.games.filter(deleted=False).values_list("number", flat=True)),
        }}
        for match in Match.objects.exclude(title="{restored} games")
    }},
}}))
"""
# The backup page's restore, queued for the task worker: the job's id.
QUEUE = """
from django.contrib.auth.models import User
from matches.tasks import restore_queue
with open({path!r}, encoding="utf-8") as file:
    text = file.read()
owner = User.objects.get(username={user!r})
print(restore_queue(user=owner, file_name="load.json", size=len(text), parts=[text]).public_id)
"""
# How the restore went, printed as JSON.
RESTORE = """
import json
from matches.models import RestoreJob
job = RestoreJob.objects.get(public_id={job!r})
moments = (job.started_at, job.finished_at)
print(json.dumps({{"state": job.state, "counts": job.counts, "moments": [m and m.timestamp() for m in moments]}}))
"""
RESTORE_WITHIN = 300.0  # seconds for the restore to finish after the scorers


def manage(database: str, *arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"manage.py {' '.join(arguments)}: {done.stderr[-2000:]}"
    return done.stdout


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    """A database of the suite's engine, migrated, with the scorers' account."""
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        admin = postgres_admin_url()
        assert admin is not None
        with fresh_database(admin, "scorekeeper_load") as url:
            _prepare(url)
            yield url
    else:
        url = f"sqlite:///{tmp_path / 'load.sqlite3'}"
        _prepare(url)
        yield url


def _prepare(url: str) -> None:
    manage(url, "migrate", "--noinput", "-v", "0")
    create = (
        f"from django.contrib.auth.models import User; User.objects.create_user({USERNAME!r}, password={PASSWORD!r})"
    )
    manage(url, "shell", "--no-imports", "-c", create)


@dataclass
class Tally:
    """What the scorers saw, counted across threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    saved: dict[str, tuple[str, str]] = field(default_factory=dict)  # key: (match id, game id)
    dropped: int = 0  # sends whose connection failed and were sent again
    conflicts: Counter[str] = field(default_factory=Counter)  # by match id
    errors: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Scorer:
    """One phone: a token of its own, one match, ``GAMES`` saves."""

    def __init__(self, server: Server, token: str, match_id: str, tally: Tally) -> None:
        self.server = server
        self.headers = {"Authorization": f"Token {token}"}
        self.match_id = match_id
        self.tally = tally
        self.games = f"/api/v1/matches/{match_id}/games/"

    def send(self, method: str, path: str, body: Any = None, key: str | None = None) -> Answer | None:
        """The request, sent again (with the same key) while its connection fails; None if it never gets through."""
        headers = {**self.headers, **({"Idempotency-Key": key} if key else {})}
        for attempt in range(ATTEMPTS):
            try:
                answer = self.server.request(method, path, body, headers)
            except (OSError, http.client.HTTPException):
                with self.tally.lock:
                    self.tally.dropped += 1
                time.sleep(0.05 * (attempt + 1))
                continue
            if answer.status >= 500:
                self.tally.error(f"{method} {path}: {answer.status} {answer.body!r}")
            return answer
        self.tally.error(f"{method} {path}: no answer in {ATTEMPTS} attempts")
        return None

    def next_deal(self) -> int | None:
        answer = self.send("GET", f"/api/v1/matches/{self.match_id}/")
        if answer is None or answer.status != 200:
            self.tally.error(f"reading the match: {answer}")
            return None
        return int(answer.body["next"]["number"])

    def run(self, deadline: float) -> None:
        number = self.next_deal()
        saved = 0
        while number is not None and saved < GAMES and time.monotonic() < deadline:
            key = str(uuid.uuid4())
            # The declarer follows from the deal, so that two phones entering one deal enter the same game.
            body = {
                "number": number,
                "declarer": number % 3,
                "game": {"contract": "clubs", "matadors": 1, "outcome": "won"},
            }
            first = self.send("POST", self.games, body, key)
            if first is not None and first.status == 409:
                with self.tally.lock:
                    self.tally.conflicts[self.match_id] += 1
                number = self.next_deal()
                continue
            again = self.send("POST", self.games, body, key)
            if not self._saved(key, first, again):
                return
            saved += 1
            number += 1

    def _saved(self, key: str, first: Answer | None, again: Answer | None) -> bool:
        if first is None or again is None or first.status not in {200, 201}:
            self.tally.error(f"a save on {self.match_id}: {first}")
            return False
        game = first.body["game"]["id"]
        if again.status != 200 or not again.body["replayed"] or again.body["game"]["id"] != game:
            self.tally.error(f"the retry of a save on {self.match_id} got another answer: {again}")
            return False
        with self.tally.lock:
            self.tally.saved[key] = (self.match_id, game)
        return True


def _token(server: Server) -> str:
    answer = server.request("POST", "/api/v1/auth/token/", {"username": USERNAME, "password": PASSWORD})
    assert answer.status == 201, answer
    return str(answer.body["token"])


def _match(server: Server, token: str) -> str:
    headers = {"Authorization": f"Token {token}", "Idempotency-Key": str(uuid.uuid4())}
    answer = server.request("POST", "/api/v1/matches/", {"variant": "skat", "players": PLAYERS}, headers)
    assert answer.status == 201, answer
    return str(answer.body["id"])


def _kill_workers(server: Server, running: threading.Event, killed: list[int], tally: Tally) -> None:
    """A worker killed every half second or so while the scorers run, ``KILLS`` in all, and more (up to
    ``MOST_KILLS``) while none of the kills has yet cut off a request: a kill of a worker that was idle tries no
    retry."""
    chance = random.Random()
    while running.is_set() and (len(killed) < KILLS or (not tally.dropped and len(killed) < MOST_KILLS)):
        time.sleep(chance.uniform(0.3, 0.7))
        workers = [pid for pid in server.workers() if pid not in killed]
        if workers and running.is_set():
            victim = chance.choice(workers)
            server.kill_worker(victim)
            killed.append(victim)


def _restore_queued(database: str, folder: Path) -> str:
    """A backup of ``RESTORED`` games, queued for the task worker as the backup page queues it: the job's id."""
    path = folder / "load-backup.json"
    path.write_text(json.dumps(large_backup(RESTORED, "load")), encoding="utf-8")
    return manage(database, "shell", "--no-imports", "-c", QUEUE.format(path=str(path), user=USERNAME)).split()[-1]


def _restore_finished(database: str, job: str) -> dict[str, Any]:
    """How the restore went, once it has finished (or after ``RESTORE_WITHIN``)."""
    deadline = time.monotonic() + RESTORE_WITHIN
    while True:
        done = json.loads(manage(database, "shell", "--no-imports", "-c", RESTORE.format(job=job)).splitlines()[-1])
        if done["state"] in {"done", "failed"} or time.monotonic() > deadline:
            return dict(done)
        time.sleep(1)


def test_sixteen_scorers_lose_nothing_and_duplicate_nothing_while_workers_are_killed_and_a_backup_is_restored(
    database: str, tmp_path: Path
) -> None:
    tally = Tally()
    killed: list[int] = []
    with gunicorn(database, workers=WORKERS, tasks=True) as server:
        tokens = [_token(server) for _ in range(SCORERS)]
        matches = [_match(server, tokens[0]) for _ in range(SHARED // 2 + SCORERS - SHARED)]
        chosen = [
            matches[seat // 2] if seat < SHARED else matches[SHARED // 2 + seat - SHARED] for seat in range(SCORERS)
        ]
        scorers = [Scorer(server, token, match, tally) for token, match in zip(tokens, chosen, strict=True)]
        job = _restore_queued(database, tmp_path)
        saving_from = time.time()
        deadline = time.monotonic() + DEADLINE
        running = threading.Event()
        running.set()
        threads = [threading.Thread(target=scorer.run, args=(deadline,)) for scorer in scorers]
        killer = threading.Thread(target=_kill_workers, args=(server, running, killed, tally))
        for thread in [*threads, killer]:
            thread.start()
        for thread in threads:
            thread.join()
        saving_until = time.time()
        running.clear()
        killer.join()
        restored = _restore_finished(database, job)
        output = server.output()
    stored = json.loads(
        manage(database, "shell", "--no-imports", "-c", STORED.format(restored=RESTORED)).splitlines()[-1]
    )

    assert not tally.errors, "\n".join(tally.errors[:20]) + f"\n{output}"
    assert len(tally.saved) == SCORERS * GAMES, f"{len(tally.saved)} saves within {DEADLINE:g} s"
    assert KILLS <= len(killed) <= MOST_KILLS
    assert tally.dropped > 0, "no request was cut off by a killed worker: the retries went untried"
    assert set(tally.conflicts) <= set(matches[: SHARED // 2])
    changes = Counter(token for token, _ in stored["changes"])
    assert changes == Counter(list(tally.saved)), "a save stored twice, or one missing"
    assert dict(stored["changes"]) == {token: game for token, (_, game) in tally.saved.items()}
    per_match = Counter(match for match, _ in tally.saved.values())
    for match, games in per_match.items():
        assert stored["matches"][match] == {"deals": games, "numbers": list(range(1, games + 1))}
    assert restored["state"] == "done", restored
    assert restored["counts"]["games"] == RESTORED
    started, finished = restored["moments"]
    assert started < saving_until, "the restore started after the scorers had finished"
    assert finished > saving_from, "the restore finished before the scorers began"
