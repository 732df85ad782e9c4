"""A restore never stops the club: it runs on the task worker, checks and scores the whole file before it writes,
writes in short steps that a save at a table waits for at most one of, shows nothing until everything is in, and
leaves nothing behind when it fails or its worker dies."""

from __future__ import annotations

import datetime
import json
import threading
import uuid
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bench.large_backup import large_backup
from matches import backup as backup_module
from matches import restore as restoring
from matches.backup import account_backup
from matches.errors import Invalid
from matches.forms import backup as forms
from matches.models import Game, GameScore, Keeper, Match, MatchEvent, Player, RestoreJob, RestorePart
from matches.restore import restore
from matches.services import Submission, game_add
from matches.tasks import STALLED, forget_old_run

from .factories import add, make_match, make_user, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 1200  # more than one step of writing


def _upload(client: Client, data: dict[str, Any], name: str = "olga.json") -> str:
    answer = client.post(reverse("backup"), {"file": SimpleUploadedFile(name, json.dumps(data).encode())})
    assert answer.status_code == 302
    return str(answer["Location"])


def _upload_text(client: Client, text: str) -> str:
    answer = client.post(reverse("backup"), {"file": SimpleUploadedFile("olga.json", text.encode())})
    assert answer.status_code == 302, answer.content
    return str(answer["Location"])


def _rows() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Keeper, Player, Match, Game, GameScore, MatchEvent)}


def test_a_refused_file_says_why_on_its_page_in_the_readers_language(client: Client) -> None:
    owner = make_user("olga")
    client.force_login(owner)
    data = large_backup(3, "refused")
    data["matches"][0]["games"][1]["entry"] = {"contract": "clubs", "matadors": 99}
    page = _upload(client, data)
    run_tasks()
    english = client.get(page)
    assert "This backup is damaged; nothing was restored." in english.content.decode()
    german = client.get(page, headers={"accept-language": "de"})
    assert "Diese Sicherung ist beschädigt" in german.content.decode()
    job = RestoreJob.objects.get()
    assert job.state == RestoreJob.State.FAILED
    assert not RestorePart.objects.exists()
    assert not Match.objects.exists()


def test_only_the_account_that_uploaded_a_restore_sees_it(client: Client) -> None:
    client.force_login(make_user("olga"))
    page = _upload(client, large_backup(2, "mine"))
    assert client.get(page).status_code == 200
    client.force_login(make_user("sven"))
    assert client.get(page).status_code == 404
    client.logout()
    assert client.get(page)["Location"].startswith(reverse("login"))


def test_a_restore_that_fails_while_writing_leaves_nothing_behind() -> None:
    owner = make_user("olga")
    before = _rows()
    data = large_backup(GAMES, "twice")
    history = data["matches"][0]["history"]
    # Two changes with one token: only the database's constraint finds it, when the history is written.
    history[-1]["token"] = history[0]["token"]
    with pytest.raises(Invalid, match="does not fit"):
        restore(data, user=owner)
    assert _rows() == before


def test_a_save_at_a_table_goes_through_while_a_restore_writes_and_the_restore_shows_only_when_complete() -> None:
    owner, scorer = make_user("olga"), make_user("sven")
    table = make_match(scorer)
    restored_id = large_backup(GAMES, "busy")["matches"][0]["id"]
    saved: list[object] = []
    seen: list[tuple[int, bool]] = []

    def save_elsewhere() -> None:
        try:
            submission = Submission(declarer=1, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70})
            saved.append(game_add(match=table, user=scorer, token=uuid.uuid4(), submission=submission))
        except Exception as error:  # the thread reports, the test asserts
            saved.append(error)
        finally:
            connection.close()

    def told(step: str, done: int, total: int) -> None:
        if step == restoring.WRITING and not seen:
            # Between two steps of writing: another phone's save must not wait for the rest of the restore.
            other = threading.Thread(target=save_elsewhere)
            other.start()
            other.join(timeout=30)
            seen.append((done, Match.objects.filter(keeper__user=owner, public_id=restored_id).exists()))

    counts = restore(large_backup(GAMES, "busy"), user=owner, progress=told)
    assert counts["games"] == GAMES
    assert len(saved) == 1
    assert not isinstance(saved[0], BaseException), saved[0]
    done, shown = seen[0]
    assert 0 < done < 2 * GAMES
    assert not shown, "the restored match was in the book before it was complete"
    assert Match.objects.get(public_id=restored_id).keeper.user == owner
    assert table.games.count() == 1


def test_what_a_restore_writes_scores_as_the_services_score_it() -> None:
    owner = make_user("olga")
    match = make_match(owner, rules={"bock": True, "kontra_re": True})
    for number in range(30):
        add(match, declarer=number % 3, contract="grand", matadors=1 + number % 3, declarer_card_points=40 + number)
    data = json.loads(json.dumps(account_backup(owner)))
    derived = ("number", "bock", "won", "game_value", "points", "breakdown", "rules_version")
    stored = list(Game.objects.order_by("position").values(*derived))
    scores = sorted(GameScore.objects.values_list("game__position", "seat", "points", "declarer", "played"))
    totals = Match.objects.get().totals
    Match.objects.all().delete()
    Player.objects.all().delete()
    restore(data, user=owner)
    assert list(Game.objects.order_by("position").values(*derived)) == stored
    assert sorted(GameScore.objects.values_list("game__position", "seat", "points", "declarer", "played")) == scores
    assert Match.objects.get().totals == totals


def test_a_restore_whose_worker_died_is_said_to_have_stopped_and_what_it_staged_is_removed(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = make_user("olga")
    client.force_login(owner)
    staged: list[Keeper] = []

    def worker_dies(step: str, done: int, total: int) -> None:
        if step == restoring.WRITING:
            raise SystemExit  # as if the process were killed: nothing after this runs in it

    # Nor does the restore's own clean-up.
    monkeypatch.setattr(restoring, "staging_discard", lambda staged: None)
    with pytest.raises(SystemExit):
        restore(large_backup(GAMES, "dies"), user=owner, progress=worker_dies, staging=staged.append)
    monkeypatch.undo()
    assert Game.objects.filter(match__keeper=staged[0]).exists()
    assert not Match.objects.filter(keeper__user=owner).exists()
    job = RestoreJob.objects.create(
        user=owner, file_name="dies.json", size=1, state=RestoreJob.State.WRITING, staging=staged[0]
    )
    RestoreJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - STALLED - datetime.timedelta(seconds=1))
    page = client.get(reverse("restore_job", args=[job.public_id])).content.decode()
    assert "The restore stopped before it finished" in page
    run_tasks()
    assert not Keeper.objects.filter(pk=staged[0].pk).exists()
    assert not Game.objects.exists()
    assert not Player.objects.exists()


def test_a_restore_tells_its_page_how_far_it_has_come(client: Client) -> None:
    owner = make_user("olga")
    client.force_login(owner)
    told: list[tuple[str, int, int]] = []
    restore(large_backup(GAMES, "told"), user=owner, progress=lambda *step: told.append(step))
    checking = [done for step, done, _ in told if step == restoring.CHECKING]
    writing = [(done, total) for step, done, total in told if step == restoring.WRITING]
    assert checking == sorted(checking)
    assert checking[-1] == GAMES
    assert writing[-1] == (2 * GAMES, 2 * GAMES)


# --- A backup of any size -------------------------------------------------------------------------------------------


def _larger(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files above 2,000 bytes count as large, kept in parts of 1,000 bytes (a character is never split)."""
    monkeypatch.setattr(forms, "CHECKED_WHOLE_BYTES", 2000)
    monkeypatch.setattr(backup_module, "RESTORE_PART_BYTES", 1000)


def test_a_backup_larger_than_a_page_reads_whole_streams_in_parts_and_is_restored(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    _larger(monkeypatch)
    owner = make_user("olga")
    client.force_login(owner)
    data = large_backup(40, "Grünkohl")
    text = json.dumps(data, ensure_ascii=False, indent=1)
    assert len(text.encode()) > 5000
    page = _upload_text(client, text)
    job = RestoreJob.objects.get()
    assert job.size == len(text.encode())
    parts = list(RestorePart.objects.filter(job=job).order_by("number").values_list("text", flat=True))
    assert len(parts) > 5
    assert "".join(parts) == text
    run_tasks()
    assert "Restored:" in client.get(page).content.decode()
    assert Game.objects.filter(match__keeper__user=owner).count() == 40
    assert not RestorePart.objects.exists()


@pytest.mark.parametrize(
    "text",
    [
        '{"games": [], "format": "scorekeeper-backup"}' + " " * 3000,
        '{\n "format": "scorekeeper-backup", "x": "' + "a" * 2500 + '\udcff"}',
    ],
)
def test_a_large_file_that_is_plainly_no_backup_is_refused_on_the_page(
    client: Client, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    _larger(monkeypatch)
    client.force_login(make_user("olga"))
    answer = client.post(
        reverse("backup"), {"file": SimpleUploadedFile("big.json", text.encode("utf-8", "surrogateescape"))}
    )
    assert answer.status_code == 400
    assert "This is not a backup file (JSON) of Scorekeeper." in answer.content.decode()
    assert not RestoreJob.objects.exists()


def test_a_large_file_with_a_backups_head_but_broken_after_says_so_on_its_page(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    _larger(monkeypatch)
    client.force_login(make_user("olga"))
    page = _upload_text(client, '{\n "format": "scorekeeper-backup", "matches": [' + "{}, " * 1000)
    run_tasks()
    assert "This is not a backup file (JSON) of Scorekeeper; nothing was restored." in client.get(page).content.decode()
    assert RestoreJob.objects.get().state == RestoreJob.State.FAILED
    assert not RestorePart.objects.exists()


def test_a_large_file_with_a_null_character_is_refused_on_the_page(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    _larger(monkeypatch)
    client.force_login(make_user("olga"))
    text = '{\n "format": "scorekeeper-backup", "x": "' + "a" * 2500 + '\x00"}'
    answer = client.post(reverse("backup"), {"file": SimpleUploadedFile("big.json", text.encode())})
    assert answer.status_code == 400
    assert not RestoreJob.objects.exists()


def test_a_file_above_the_servers_limit_is_refused_with_its_size(client: Client, settings: Any) -> None:
    settings.RESTORE_MAX_MB = 1
    client.force_login(make_user("olga"))
    text = '{"format": "scorekeeper-backup", "x": "' + "a" * 2**20 + '"}'
    answer = client.post(reverse("backup"), {"file": SimpleUploadedFile("big.json", text.encode())})
    assert answer.status_code == 400
    assert "A backup file is at most 1 MB" in answer.content.decode()
    assert not RestoreJob.objects.exists()


def test_an_upload_that_broke_off_goes_with_the_daily_cleanup() -> None:
    owner = make_user("olga")
    broken = RestoreJob.objects.create(user=owner, file_name="a.json", size=10, state=RestoreJob.State.UPLOADING)
    RestorePart.objects.create(job=broken, number=0, text="{")
    fresh = RestoreJob.objects.create(user=owner, file_name="b.json", size=10, state=RestoreJob.State.UPLOADING)
    RestoreJob.objects.filter(pk=broken.pk).update(created_at=timezone.now() - datetime.timedelta(days=2))
    forget_old_run.call()
    assert list(RestoreJob.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not RestorePart.objects.exists()
