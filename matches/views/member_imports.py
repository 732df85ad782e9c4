"""Member numbers in bulk: a book's keeper (a club's secretary) brings in the federation's member list, decides each
doubt of its preview with a tap, joins the players at once, and can undo the whole import."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..engine.messages import Message
from ..errors import ServiceError
from ..forms.member_imports import DoubtsForm, MemberListForm
from ..labels import render_step
from ..models import Keeper, MemberImport
from ..paging import page_of
from ..permissions import Action, on_subject, request_account, signed_in_account
from ..preferences import deck_of
from ..refusals import refusal_as_messages, refusal_texts
from ..registry import lists_circles
from ..services.member_imports import (
    SKIP,
    Kind,
    Preview,
    member_import_apply,
    member_import_discard,
    member_import_preview,
    member_import_undo,
)

# The book's past imports listed at a time.
IMPORTS_PER_PAGE = 20


def _book_name(request: HttpRequest, book: Keeper) -> str:
    """What the book is called for whoever keeps it: their own, or (a club's) the club's name."""
    account = signed_in_account(request)
    if book.user_id == account.pk:
        return _("Your players")
    return next((name for _key, pk, name in lists_circles(account) if pk == book.pk), _("The book's players"))


@on_subject(Action.MANAGE, "book")
@require_http_methods(["GET", "HEAD", "POST"])
def member_imports(request: HttpRequest, book: Keeper) -> HttpResponse:
    """The book's past imports, and a member list to bring in: read at once, and shown as a preview (nothing is
    joined before the keeper confirms it)."""
    form = MemberListForm(request.POST, request.FILES) if request.method == "POST" else MemberListForm()
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        # The name as the browser sent it, without what no file name holds (a database keeps no NUL).
        name = "".join(char for char in upload.name or "" if char.isprintable())[:255]
        made = MemberImport.objects.create(
            keeper=book, uploaded_by=request_account(request), file_name=name, rows=form.rows
        )
        return redirect("member_import", made.public_id)
    past = page_of(
        MemberImport.objects.filter(keeper=book).select_related("uploaded_by").defer("rows", "decisions"),
        by="-created_at",
        after=request.GET.get("after"),
        size=IMPORTS_PER_PAGE,
    )
    context = {"book": book, "book_name": _book_name(request, book), "form": form, "past": past}
    return render(request, "matches/member_imports.html", context, status=400 if form.errors else 200)


def _text(message: Message | None, deck: str) -> str:
    return render_step(message, deck) if message is not None else ""


def _preview_page(
    request: HttpRequest,
    member_import: MemberImport,
    preview: Preview,
    *,
    data: Any = None,
    refused: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    deck = deck_of(request)
    if data is not None:
        # The preview as it is now, with the answers sent kept where they still are answers.
        data = data.copy()
        data["plan"] = preview.plan
        for row in preview.of(Kind.DOUBT):
            if data.get(f"d-{row.row}") not in {choice.code for choice in row.choices}:
                data[f"d-{row.row}"] = SKIP
    joining = len(preview.of(Kind.MATCH)) + len(preview.of(Kind.NEW))
    context = {
        "member_import": member_import,
        "book_name": _book_name(request, member_import.keeper),
        "form": DoubtsForm(preview, data, deck=deck),
        "matched": preview.of(Kind.MATCH),
        "new": preview.of(Kind.NEW),
        "doubts": len(preview.of(Kind.DOUBT)),
        "done": preview.of(Kind.DONE),
        "refused_rows": [(row, _text(row.problem, deck)) for row in preview.of(Kind.REFUSED)],
        "joining": joining,
        "refused": refused or [],
    }
    return render(request, "matches/member_import.html", context, status=status)


def _summary_page(request: HttpRequest, member_import: MemberImport) -> HttpResponse:
    deck = deck_of(request)
    rows = [
        row | {"why": _text(Message.from_data(row["problem"]), deck) if row.get("problem") else ""}
        for row in member_import.decisions
    ]
    context = {
        "member_import": member_import,
        "book_name": _book_name(request, member_import.keeper),
        "joined": [row for row in rows if row["joined"]],
        "added": sum(1 for row in rows if row["added"]),
        "others": [row for row in rows if not row["joined"]],
        "live": member_import.state == MemberImport.State.APPLIED,
    }
    return render(request, "matches/member_import_done.html", context)


@on_subject(Action.MANAGE, "member_import")
@require_safe
def member_import_page(request: HttpRequest, member_import: MemberImport) -> HttpResponse:
    """An import not yet applied: its preview, every row as it matches the book now. Applied or undone: what it did."""
    if member_import.state != MemberImport.State.READ:
        return _summary_page(request, member_import)
    return _preview_page(request, member_import, member_import_preview(member_import))


def _decisions(request: HttpRequest) -> dict[int, str]:
    """The keeper's answer to each doubt, by row (``d-<row>``)."""
    decided: dict[int, str] = {}
    for key in request.POST:
        value = request.POST.get(key, "")
        row = key.removeprefix("d-")
        if key.startswith("d-") and row.isascii() and row.isdigit() and len(row) < 10:
            decided[int(row)] = value
    return decided


@on_subject(Action.MANAGE, "member_import")
@require_POST
def member_import_apply_view(request: HttpRequest, member_import: MemberImport) -> HttpResponse:
    """Join the players as the preview shows them, with the doubts as decided: all at once, or (a row changed since
    the preview) nothing, with the row and why above the preview as it is now."""
    try:
        applied = member_import_apply(
            member_import=member_import,
            by=request_account(request),
            plan=request.POST.get("plan", ""),
            decisions=_decisions(request),
        )
    except ServiceError as error:
        still = MemberImport.objects.filter(pk=member_import.pk).first()
        if still is None:
            refusal_as_messages(request, error)
            return redirect("member_imports", member_import.keeper_id)
        member_import = still
        if member_import.state != MemberImport.State.READ:
            messages.info(request, _("This import was applied already."))
            return redirect("member_import", member_import.public_id)
        preview = member_import_preview(member_import)
        refused = refusal_texts(error, request)
        return _preview_page(request, member_import, preview, data=request.POST, refused=refused, status=error.status)
    joined = sum(1 for row in applied.decisions if row["joined"])
    messages.success(
        request, ngettext("%(count)s player joined.", "%(count)s players joined.", joined) % {"count": joined}
    )
    return redirect("member_import", applied.public_id)


@on_subject(Action.MANAGE, "member_import")
@require_POST
def member_import_undo_view(request: HttpRequest, member_import: MemberImport) -> HttpResponse:
    """Take the whole import back: its joins, and the players it added that have played nothing since."""
    try:
        undone = member_import_undo(member_import=member_import, by=request_account(request))
    except ServiceError as error:
        refusal_as_messages(request, error)
        return redirect("member_import", member_import.public_id)
    messages.success(request, _("The import is undone: every player is joined as before it."))
    if undone.removed:
        messages.info(request, _("Players removed: %(names)s.") % {"names": ", ".join(undone.removed)})
    if undone.kept:
        messages.warning(
            request,
            _("Players kept, as they have played or were linked since: %(names)s.") % {"names": ", ".join(undone.kept)},
        )
    return redirect("member_import", member_import.public_id)


@on_subject(Action.MANAGE, "member_import")
@require_POST
def member_import_discard_view(request: HttpRequest, member_import: MemberImport) -> HttpResponse:
    """Throw away a member list read and not applied: nothing was joined, and its names and numbers go with it."""
    try:
        member_import_discard(member_import=member_import)
    except ServiceError as error:
        refusal_as_messages(request, error)
        return redirect("member_import", member_import.public_id)
    messages.success(request, _("The member list is thrown away: nothing was joined."))
    return redirect("member_imports", member_import.keeper_id)
