"""Work that runs off the request, on the task worker (``manage.py db_worker``, started beside the web server by
``make run`` and ``make serve``): restoring a backup uploaded on the backup page, making a file too large to make
while a page waits (``FileJob``, each kind made by the maker an app registered), and keeping the places of the
ranking lists as lists close (``services.rankings.rankings_catch_up_run``).

The page queues a ``RestoreJob`` holding the file and answers at once; the worker checks, scores and writes it
(``matches.restore``), telling the job how far it has come, and the job's page shows that until it says what was
restored or why nothing was. A restore whose worker died halfway is noticed by its page once it has told nothing for
``STALLED``: it is marked as stopped and what it had staged is removed by the worker.
"""

from __future__ import annotations

import datetime
import json
import logging
from collections.abc import Iterable, Mapping
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django_tasks import task

from .accounts import LOGIN_FAILURE_WINDOW, RESET_WINDOW
from .engine.messages import gettext_noop, msg
from .errors import ServiceError
from .models import FileJob, Keeper, KeptAnswer, LoginFailure, ResetRequest, RestoreJob, RestorePart
from .registry import MadeFile, file_maker
from .restore import restore
from .services.member_imports import member_imports_forget
from .services.restored import staging_discard

logger = logging.getLogger(__name__)

# A restore tells its job how far it has come at least every few seconds; one silent this long has stopped.
STALLED = datetime.timedelta(minutes=10)
# A job nobody has started after this long: the worker is probably not running, and the page says so.
UNSTARTED = datetime.timedelta(minutes=1)
STOPPED = gettext_noop("The restore stopped before it finished (the server was restarted); nothing was restored.")
BROKE = gettext_noop("The restore stopped on an error in the server; nothing was restored.")


NOT_A_BACKUP = gettext_noop("This is not a backup file (JSON) of Scorekeeper; nothing was restored.")


def restore_queue(*, user: User, file_name: str, size: int, parts: Iterable[str]) -> RestoreJob:
    """Keep an uploaded backup, its text a part at a time as it streams from the upload (each part its own short
    write, so that the tables playing never wait for a large file), and queue its restore for the worker once every
    part is in; a file that breaks off halfway leaves nothing."""
    job = RestoreJob.objects.create(user=user, file_name=file_name[:255], size=size, state=RestoreJob.State.UPLOADING)
    try:
        for number, text in enumerate(parts):
            RestorePart.objects.create(job=job, number=number, text=text)
    except BaseException:
        job.delete()
        raise
    # Queued once every part is in, and waiting from now; a job whose upload broke off stays uploading and goes
    # with the daily cleanup (``forget_old_run``).
    RestoreJob.objects.filter(pk=job.pk).update(state=RestoreJob.State.QUEUED, created_at=timezone.now())
    restore_job_run.enqueue(job.pk)
    job.refresh_from_db()
    return job


@task()
def restore_job_run(job_id: int) -> None:
    """Restore the file a job holds, telling the job how far it has come and, at the end, what happened."""
    job = RestoreJob.objects.filter(pk=job_id, state=RestoreJob.State.QUEUED).select_related("user").first()
    if job is None:  # done already (a task run twice), or removed with its account
        return
    RestoreJob.objects.filter(pk=job.pk).update(
        state=RestoreJob.State.CHECKING, started_at=timezone.now(), updated_at=timezone.now()
    )
    text = "".join(RestorePart.objects.filter(job=job).order_by("number").values_list("text", flat=True))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        _finished(job, RestoreJob.State.FAILED, problem=msg(NOT_A_BACKUP).to_data())
        return
    del text
    try:
        counts = restore(
            data,
            user=job.user,
            progress=lambda step, done, total: _told(job, step, done, total),
            staging=lambda staged: RestoreJob.objects.filter(pk=job.pk).update(staging=staged),
        )
    except ServiceError as error:
        _finished(job, RestoreJob.State.FAILED, problem=error.errors[0].message.to_data())
    except Exception:
        logger.exception("restore %s stopped", job.public_id)
        _finished(job, RestoreJob.State.FAILED, problem=msg(BROKE).to_data())
        raise
    else:
        _finished(job, RestoreJob.State.DONE, counts=counts)


@task()
def staging_discard_run(keeper_id: int) -> None:
    """Remove what a stopped restore had staged."""
    staged = Keeper.objects.filter(pk=keeper_id, user=None, guest_key=None).first()
    if staged is not None:
        staging_discard(staged)


def _told(job: RestoreJob, step: str, done: int, total: int) -> None:
    RestoreJob.objects.filter(pk=job.pk).update(state=step, done=done, total=total, updated_at=timezone.now())


def _finished(
    job: RestoreJob, state: str, *, counts: dict[str, int] | None = None, problem: dict[str, object] | None = None
) -> None:
    RestorePart.objects.filter(job=job).delete()
    RestoreJob.objects.filter(pk=job.pk).update(
        state=state,
        counts=counts or {},
        problem=problem,
        staging=None,
        updated_at=timezone.now(),
        finished_at=timezone.now(),
    )


def restore_job_checked(job: RestoreJob) -> RestoreJob:
    """The job as it is now; one that has told nothing for ``STALLED`` while running is marked as stopped, and what
    it staged is handed to the worker to remove."""
    running = (RestoreJob.State.CHECKING, RestoreJob.State.WRITING)
    if job.state not in running or timezone.now() - job.updated_at <= STALLED:
        return job
    staged = None
    with transaction.atomic():
        stalled = RestoreJob.objects.select_for_update().get(pk=job.pk)
        if stalled.state in running:
            staged = stalled.staging_id
            _finished(stalled, RestoreJob.State.FAILED, problem=msg(STOPPED).to_data())
    if staged is not None:
        staging_discard_run.enqueue(staged)
    job.refresh_from_db()
    return job


def restore_job_waiting_long(job: RestoreJob) -> bool:
    """Whether the job has waited so long for the worker that it is probably not running."""
    return job.state == RestoreJob.State.QUEUED and timezone.now() - job.created_at > UNSTARTED


# --- Files made in the background -------------------------------------------------------------------------------------

# A file made is kept this long for its asker to download; the daily cleanup removes it after.
FILES_KEPT = datetime.timedelta(days=1)
# An API answer kept by its Idempotency-Key is kept this long, longer than a retry can come (a phone that lost its
# connection, an outbox sent days later); the daily cleanup drops it after and keeps the key.
ANSWERS_KEPT = datetime.timedelta(days=7)
# A maker tells its job how far it has come at most this often (in parts), so that a large file costs few writes.
FILE_STEPS = 50


def file_queue(*, user: User, kind: str, title: str, arguments: Mapping[str, Any], total: int) -> FileJob:
    """Queue the file of ``kind`` made of ``arguments`` (``total`` parts) for the worker, in the asker's language;
    the same file asked again while it is being made (a reload) is that job, and a file asked for after it is made
    is made afresh."""
    language = translation.get_language() or "en"
    unfinished = FileJob.objects.filter(
        user=user,
        kind=kind,
        arguments=dict(arguments),
        language=language,
        state__in=(FileJob.State.QUEUED, FileJob.State.MAKING),
        created_at__gt=timezone.now() - FILES_KEPT,
    )
    found = unfinished.defer("content").order_by("-created_at").first()
    if found is not None:
        return found
    job = FileJob.objects.create(
        user=user, kind=kind, title=title[:255], arguments=dict(arguments), language=language, total=total
    )
    file_job_run.enqueue(job.pk)
    return job


@task()
def file_job_run(job_id: int) -> None:
    """Make the file a job asks for with its kind's maker, telling the job how far it has come."""
    job = FileJob.objects.filter(pk=job_id, state=FileJob.State.QUEUED).first()
    if job is None:  # made already (a task run twice), or removed with its account
        return
    maker = file_maker(job.kind)
    jobs = FileJob.objects.filter(pk=job.pk)
    if not jobs.filter(state=FileJob.State.QUEUED).update(state=FileJob.State.MAKING, updated_at=timezone.now()):
        return  # taken by another run of the same task meanwhile

    def told(done: int, total: int) -> None:
        if done == total or done % FILE_STEPS == 0:
            jobs.update(done=done, total=total, updated_at=timezone.now())

    made: MadeFile | None = None
    try:
        with translation.override(job.language):
            made = maker(job.arguments, told) if maker is not None else None
    except Exception:
        logger.exception("file %s stopped", job.public_id)
        jobs.update(state=FileJob.State.FAILED, updated_at=timezone.now())
        raise
    if made is None:
        jobs.update(state=FileJob.State.FAILED, updated_at=timezone.now())
        return
    jobs.update(
        state=FileJob.State.DONE,
        content=made.content,
        file_name=made.file_name[:255],
        content_type=made.content_type,
        done=F("total"),
        updated_at=timezone.now(),
    )


def file_job_waiting_long(job: FileJob) -> bool:
    """Whether the job has waited so long for the worker that it is probably not running."""
    return job.state == FileJob.State.QUEUED and timezone.now() - job.created_at > UNSTARTED


def forget_old_answers() -> None:
    """Drop the API's answers kept by Idempotency-Key (``matches.api.replays``) that are older than ``ANSWERS_KEPT``,
    of every kind of event, keeping their keys: one indexed UPDATE."""
    before = timezone.now() - ANSWERS_KEPT
    KeptAnswer.objects.filter(created_at__lt=before, answer__isnull=False).update(answer=None)


def forget_old_files() -> None:
    """Delete the files made longer than ``FILES_KEPT`` ago (and those that were never made)."""
    FileJob.objects.filter(created_at__lte=timezone.now() - FILES_KEPT).delete()


@task()
def forget_old_run() -> None:
    """The daily cleanup's work that may take a while, off the request that started it: the files made long
    enough ago, the API answers kept by key that no retry can need any more, and the uploads of backups that broke
    off a day ago or more."""
    forget_old_files()
    forget_old_answers()
    RestoreJob.objects.filter(state=RestoreJob.State.UPLOADING, created_at__lte=timezone.now() - FILES_KEPT).delete()


def forget_expired() -> None:
    """The daily cleanup: delete expired sessions, the reset requests and failed logins that no longer count and the
    member lists left unapplied; the files made in the background and the API answers kept long enough go in the
    task worker (``forget_old_run``)."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
    forget_old_run.enqueue()
    ResetRequest.objects.filter(created_at__lte=timezone.now() - RESET_WINDOW).delete()
    LoginFailure.objects.filter(created_at__lte=timezone.now() - LOGIN_FAILURE_WINDOW).delete()
    member_imports_forget()
