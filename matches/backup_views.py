"""The backup page: a person's book as one file to download, and a file to restore, which the task worker restores
while the page shows how far it has come (``matches.tasks``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import number_format
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .backup import account_backup, backup_parts
from .engine.messages import Message
from .exports.base import backup_response
from .forms.backup import RestoreForm
from .labels import render_step
from .models import RestoreJob
from .permissions import Action, on_restore, signed_in, signed_in_account
from .preferences import deck_of
from .tasks import restore_job_checked, restore_job_waiting_long, restore_queue

RECENT_RESTORES = 5  # the account's last restores, listed on the backup page
ASK_AGAIN_MS = 1000  # how often a restore's page asks how far it has come


@signed_in
def backup_page(request: HttpRequest) -> HttpResponse:
    """Download everything of your own book as one file, or restore such a file (yours, or a club's, which becomes
    a club you own): the file is checked for being a backup at once, then restored in the background."""
    user = signed_in_account(request)
    form = RestoreForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        job = restore_queue(user=user, file_name=upload.name, size=upload.size, parts=backup_parts(upload))
        return redirect("restore_job", job.public_id)
    recent = RestoreJob.objects.filter(user=user)[:RECENT_RESTORES]
    context = {"form": form, "recent": recent}
    return render(request, "matches/backup.html", context, status=400 if form.errors else 200)


@signed_in
@require_safe
def backup_download(request: HttpRequest) -> HttpResponse:
    user = signed_in_account(request)
    return backup_response(account_backup(user), f"scorekeeper-{user.username}")


@on_restore(Action.VIEW)
@require_safe
@never_cache
def restore_job_page(request: HttpRequest, job: RestoreJob) -> HttpResponse:
    """How far a restore has come, asked again every second while it runs (htmx takes the part that changes; without
    scripts the page refreshes itself); at the end what was restored, or why nothing was. Only the account that
    asked for it sees it."""
    job = restore_job_checked(job)
    problem = render_step(Message.from_data(job.problem), deck_of(request)) if job.problem else ""
    context = {
        "job": job,
        "restored": _restored(job.counts) if job.state == RestoreJob.State.DONE else "",
        "problem": problem,
        "waiting_long": restore_job_waiting_long(job),
        "percent": 100 * job.done // job.total if job.total else 0,
        "ask_again": ASK_AGAIN_MS,
    }
    return render(request, "matches/restore_job.html", context)


# Each kind of thing a restore adds, in words (the calls are written out, so that makemessages finds them).
PLURALS: dict[str, Callable[[int], str]] = {
    "players": lambda n: ngettext("%(count)s player", "%(count)s players", n),
    "matches": lambda n: ngettext("%(count)s match", "%(count)s matches", n),
    "games": lambda n: ngettext("%(count)s game", "%(count)s games", n),
    "nights": lambda n: ngettext("%(count)s club night", "%(count)s club nights", n),
}


def _restored(counts: dict[str, int]) -> str:
    """What a restore added, in words: "3 players, 1 match, 14,000 games, 0 club nights"."""
    return ", ".join(
        said(counts.get(kind, 0)) % {"count": number_format(counts.get(kind, 0), force_grouping=True)}
        for kind, said in PLURALS.items()
    )
