"""The benchmark's two figures of a restore: how a restore of a long list compares with the engine's scoring of the
same games (the least any restore must do), and how long a save at a table waits, at worst, while another process
restores a backup into the same database (as the task worker does beside the web server)."""

from __future__ import annotations

import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User

from matches.engine import deal_from_data, score_deals, setup_match
from matches.restore import restore

from .large_backup import RULES, large_backup
from .throughput import database_url

ENGINE_ROUNDS = 2  # the engine's scoring, before and after the restore
# The saves during a restore come this often (in seconds): twenty a second, more than a full club room ever sends.
SAVES_EVERY = 0.05


def restore_against_engine(owner: User, games: int) -> float:
    """A restore of one match of ``games`` games, against the engine scoring the same games from the same file
    (each game read and scored in order), measured before and after it."""
    data = large_backup(games, "bench-restore")
    engine = [_engine_scoring(data)]
    started = time.perf_counter()
    restore(data, user=owner)
    restored = time.perf_counter() - started
    engine.extend(_engine_scoring(data) for _ in range(ENGINE_ROUNDS - 1))
    return restored / statistics.median(engine)


def _engine_scoring(data: Mapping[str, Any]) -> float:
    match = data["matches"][0]
    started = time.perf_counter()
    setup = setup_match(match["variant"], scheme=match["scheme"], rules=RULES, players=len(match["seats"]))
    deals = (
        deal_from_data(
            passed=game["passed"], declarer=game["declarer"], entry=game["entry"], version=game["entry_version"]
        )
        for game in match["games"]
    )
    for _ in score_deals(setup, deals):
        pass
    return time.perf_counter() - started


def slowest_save_during_restore(
    owner: User, games: int, save: Callable[[], int], bare: Callable[[], int]
) -> tuple[int, float]:
    """The slowest of the saves (``save``, in nanoseconds), one every ``SAVES_EVERY`` seconds, made while ``manage.py
    restore`` writes a backup of ``games`` games into this database from a process of its own; and the median of the
    bare views (``bare``) sent right after each save, side by side with the saves."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "restore.json"
        path.write_text(json.dumps(large_backup(games, "bench-restore-during")), encoding="utf-8")
        # The file's hundreds of thousands of objects were this process's own, which a web server never makes: the
        # full collection they leave due is made now, not in the middle of a save, where it would be counted.
        gc.collect()
        restoring = subprocess.Popen(
            [sys.executable, "manage.py", "restore", str(path), "--user", owner.username],
            cwd=settings.BASE_DIR,
            env={**os.environ, "DATABASE_URL": database_url(), "DEBUG": "true"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        saves = []
        bares = []
        while restoring.poll() is None:
            began = time.perf_counter()
            saves.append(save())
            bares.append(bare())
            time.sleep(max(0.0, SAVES_EVERY - (time.perf_counter() - began)))
        _, errors = restoring.communicate()
    if restoring.returncode != 0:
        raise RuntimeError(f"the restore failed: {errors.decode(errors='replace')[-2000:]}")
    return max(saves), statistics.median(bares)
