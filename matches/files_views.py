"""A file made in the background (``FileJob``): its page, which says how far it has come until it can be downloaded,
and its download. Only the account that asked for it sees either."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .models import FileJob
from .permissions import Action, on_subject
from .tasks import file_job_waiting_long

ASK_AGAIN_MS = 1000  # how often a file's page asks how far it has come


@on_subject(Action.VIEW, "file")
@require_safe
@never_cache
def file_job_page(request: HttpRequest, job: FileJob) -> HttpResponse:
    """How far the file has come, asked again every second while it is made (htmx takes the part that changes;
    without scripts the page refreshes itself); then its download."""
    job.refresh_from_db(fields=["state", "done", "total", "file_name", "updated_at"])
    context = {
        "job": job,
        "waiting_long": file_job_waiting_long(job),
        "percent": 100 * job.done // job.total if job.total else 0,
        "ask_again": ASK_AGAIN_MS,
    }
    return render(request, "matches/file_job.html", context)


@on_subject(Action.VIEW, "file")
@require_safe
@never_cache
def file_job_download(request: HttpRequest, job: FileJob) -> HttpResponse:
    made = FileJob.objects.filter(pk=job.pk, state=FileJob.State.DONE).values_list("content", flat=True).first()
    if made is None:
        raise Http404
    response = HttpResponse(bytes(made), content_type=job.content_type)
    response["Content-Disposition"] = content_disposition_header(False, job.file_name) or ""
    return response
