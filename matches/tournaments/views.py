"""The tournament pages: announcing a tournament, the organiser's desk (entries at the door, payments by code,
tandems and teams, drawing each series, its tables with their QR codes, paper lists, closing), online entry with the
confirmation an entrant shows at the door, and the results, the prize list and the cashier's list. Thin: the
services write, the selectors read, the tournament's permission answers say who may do what."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import wraps
from typing import Any, TypeVar

from django.contrib import messages
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from matches.accounts import code_askers, code_failure_record, codes_locked_out
from matches.accounts_views import client_address
from matches.clubs.models import Club, Membership
from matches.clubs.permissions import CLUB_RUNNERS
from matches.engine import RuleError
from matches.engine.league import Place
from matches.engine.tournaments import CashierLine, Payout, Prize, PrizeKind, Seating
from matches.errors import Conflict, Invalid, ServiceError
from matches.htmx import from_htmx
from matches.labels import euros, met_again_text
from matches.names import name_key
from matches.paging import page_of
from matches.permissions import (
    LINKS_SESSION_KEY,
    Action,
    Rule,
    declared,
    on_subject,
    public,
    request_account,
    signed_in,
    signed_in_account,
    subject_for,
    visitor_of,
)
from matches.qr import TableJoin, table_join
from matches.records import record_links
from matches.refusals import done_or_refused, refusal_as_messages, refusal_on_form, refusal_texts
from matches.screens import followed_page
from matches.services.paper import PaperTotals, TableVersion
from matches.views.common import made_by_form
from matches.views.paper import PaperTable, paper_page

from . import services
from .exports import finished
from .forms import (
    CodeForm,
    DoorForm,
    DrawForm,
    HandOverForm,
    OnlineEntryForm,
    PayForm,
    SideForm,
    TournamentForm,
    announce_field,
    side_field,
)
from .models import Category, Entry, Payment, Series, Side, Table, TableSeat, Tournament
from .permissions import holds_entry, manages_tournament
from .selectors import (
    TournamentResults,
    cashier_line_of,
    cashier_lines_by_entry,
    desk_tables_state,
    drawn_series,
    entrant_result,
    entry_by_code,
    met_again_in,
    schedule_of,
    series_progress,
    tournament_results,
)

R = TypeVar("R")


def on_entry(action: Action) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A view on one entry (``entry_id`` in its address, as the project's addresses name an entry), for visitors
    the tournament lets ``action`` it; it receives the entry."""

    def wrap(view: Callable[..., R]) -> Callable[..., R]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> R:
            entry = subject_for(visitor_of(request), action, "tournament_entry", kwargs.pop("entry_id"))
            return view(request, entry, *args, **kwargs)

        return declared(Rule(action, "tournament_entry"))(checked)

    return wrap


def _desk_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("tournaments:desk", args=[tournament.public_id]) + anchor


def _categories(tournament: Tournament) -> list[Category]:
    return list(Category.objects.filter(tournament=tournament).order_by("order", "id"))


def _keep_entry_link(request: HttpRequest, entry: Entry) -> None:
    """The browser holds the entry's code among its links, so that it sees the confirmation again without an
    account (``permissions.holds_entry``)."""
    links = dict(request.session.get(LINKS_SESSION_KEY, {}))
    links[str(entry.public_id)] = entry.code
    request.session[LINKS_SESSION_KEY] = links


# --- The organiser's desk ---------------------------------------------------------------------------------------------

# The desk lists this many entries and this many tables at a time; it names who has not paid the entry fee up to
# this many, and counts them beyond.
DESK_ENTRIES = 50
DESK_TABLES = 20
NAMED_NOT_PAID = 3


@dataclass(frozen=True)
class DeskTable:
    """A table of the series being played as the desk shows it: its seats, how far its list is, its scoring link."""

    table: Table
    players: list[Entry]
    complete: bool
    join: TableJoin


@dataclass(frozen=True)
class DeskEntry:
    """An entry as the desk lists it, with what its cashier's line says (``None``: it counts for nothing, having
    withdrawn before the first series without paying)."""

    entry: Entry
    line: CashierLine | None
    # The entrant's last payment, where it is money taken (not a correction): what the desk may take back.
    last_payment: int = 0

    @property
    def owed(self) -> int:
        return self.line.owed if self.line is not None else 0

    @property
    def paid(self) -> int:
        return self.line.paid if self.line is not None else 0


def _paid_entry_fee(line: CashierLine | None) -> bool:
    """Whether an entrant paid the entry fee, what they pay before they play: their tandem's or team's fee and the
    list and lost-game fees that come due with each series are counted in what is still owed, not against it."""
    if line is None:
        return False
    return line.paid >= line.dues.entry


def _tables_of(request: HttpRequest, series: Series, tables: Sequence[Table]) -> list[DeskTable]:
    seated: dict[int, list[Entry]] = {}
    seats = TableSeat.objects.filter(table__in=list(tables)).select_related("entry").order_by("table_id", "position")
    for seat in seats:
        seated.setdefault(seat.table_id, []).append(seat.entry)
    found = []
    for table in tables:
        match = table.match
        complete = table.paper or match.deals >= (match.planned_games or 0)
        join = table_join(request, match.invite_token, offered=series.closed_at is None and not table.paper)
        found.append(DeskTable(table, seated.get(table.pk, []), complete, join))
    return found


def _door_form(tournament: Tournament, categories: list[Category], *, focus: bool) -> DoorForm:
    """The door desk's form, paid at once where there is a fee; ``focus``: its name field takes the focus, so that
    the next player is typed at once."""
    form = DoorForm(categories=categories, initial={"category": "", "paid": bool(tournament.entry_fee)})
    if focus:
        form.fields["name"].widget.attrs["autofocus"] = True
    return form


def _number(raw: str | None) -> int | None:
    return int(raw) if raw is not None and raw.isascii() and raw.isdigit() and len(raw) < 7 else None


@dataclass(frozen=True)
class DeskFind:
    """What the desk's list of entries shows: all of them by name, those found by a name or a code, or those
    who still owe money (``owing``); a page of them at a time."""

    find: str
    owing: bool

    @classmethod
    def of(cls, request: HttpRequest) -> DeskFind:
        # A null character is no part of any name or code (and PostgreSQL takes none in a text).
        find = " ".join(request.GET.get("find", "").replace("\x00", "").split())[:100]
        return cls(find, request.GET.get("owing") == "1")

    def entries(self, tournament: Tournament, lines: dict[int, CashierLine]) -> QuerySet[Entry]:
        found = Entry.objects.filter(tournament=tournament).select_related("category")
        if self.find:
            code = "".join(self.find.split()).upper()
            found = found.filter(Q(name_key__contains=name_key(self.find)) | Q(code=code))
        if self.owing:
            found = found.filter(pk__in=[pk for pk, line in lines.items() if line.owed > 0])
        return found


def _tables_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The series drawn and the one being played, with how far it is and a page of its tables, from the one asked
    for by its number: the part of the desk that follows the phones' saves."""
    series = drawn_series(tournament)
    playing = next((one for one in series if one.closed_at is None), None)
    progress = series_progress(tournament) if playing is not None else None
    wanted = _number(request.GET.get("table"))
    tables = (
        page_of(
            Table.objects.filter(series=playing, number__gte=wanted or 1).select_related("match"),
            by="number",
            after=request.GET.get("tables"),
            size=DESK_TABLES,
        )
        if playing is not None
        else None
    )
    return {
        "tournament": tournament,
        "series": series,
        "playing": playing,
        "progress": progress,
        "tables": _tables_of(request, playing, tables.items) if playing and tables else [],
        "tables_page": tables,
        "table_asked": wanted,
        "complete": progress is not None and progress.tables == progress.done,
    }


def _desk_context(request: HttpRequest, tournament: Tournament, **forms: Any) -> dict[str, Any]:
    categories = _categories(tournament)
    lines = cashier_lines_by_entry(tournament)
    present: set[int] = set()
    withdrawn: set[int] = set()
    for pk, withdrawn_after in Entry.objects.filter(tournament=tournament).values_list("pk", "withdrawn_after"):
        (present if withdrawn_after is None else withdrawn).add(pk)
    not_paid = [pk for pk in present if not _paid_entry_fee(lines.get(pk))]
    owing = {pk for pk, line in lines.items() if line.owed > 0}
    named_not_paid = (
        list(Entry.objects.filter(pk__in=not_paid).order_by("name_key", "pk").values_list("name", flat=True))
        if len(not_paid) <= NAMED_NOT_PAID
        else []
    )
    find = DeskFind.of(request)
    page = page_of(find.entries(tournament, lines), by="name_key", after=request.GET.get("after"), size=DESK_ENTRIES)
    last: dict[int, int] = {}
    for entry_id, amount in (
        Payment.objects.filter(entry__in=page.items).order_by("created_at", "id").values_list("entry_id", "amount")
    ):
        last[entry_id] = amount
    shown = [DeskEntry(entry, lines.get(entry.pk), max(last.get(entry.pk, 0), 0)) for entry in page.items]
    tables = _tables_context(request, tournament)
    series, playing = tables["series"], tables["playing"]
    following = len(series) + 1 if playing is None and len(series) < tournament.series else None
    sides = list(Side.objects.filter(tournament=tournament).prefetch_related("members__entry").order_by("kind", "id"))
    return {
        "tournament": tournament,
        "entries": shown,
        "entries_page": page,
        "find": find,
        "present": len(present),
        "withdrawn": len(withdrawn),
        "paid": len(present) - len(not_paid),
        "not_paid": len(not_paid),
        "named_not_paid": named_not_paid,
        "owed": sum(lines[pk].owed for pk in owing),
        "owing": len(owing),
        "owing_withdrawn": len(owing & withdrawn),
        **tables,
        "following": following,
        "open": not series,
        "draw_number": forms.get("draw_number") or following,
        "draw_refused": forms.get("draw_refused", []),
        "sides": sides,
        "door_form": forms.get("door_form") or _door_form(tournament, categories, focus=bool(forms.get("focus_door"))),
        "code_form": forms.get("code_form") or CodeForm(),
        "hand_over_form": forms.get("hand_over_form") or HandOverForm(),
        "side_form": forms.get("side_form")
        or SideForm(entries=[one.entry for one in shown if one.entry.withdrawn_after is None]),
        "draw_form": forms.get("draw_form")
        or (
            DrawForm(
                first=following == 1,
                initial={
                    "series": following,
                    "version": tournament.version,
                    "seating": forms.get("draw_seating") or Seating.DRAW.value,
                },
            )
            if following is not None
            else None
        ),
    }


def _desk(request: HttpRequest, tournament: Tournament, status: int = 200, **forms: Any) -> HttpResponse:
    return render(request, "tournaments/desk.html", _desk_context(request, tournament, **forms), status=status)


@on_subject(Action.MANAGE, "tournament")
@require_safe
def tournament_desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The organiser's desk. Following its tables every 30 seconds (its one ask by htmx), it gets that part alone,
    without the room's money, and a bare 304 while the tables stand as this manager's desk shows them."""

    def page() -> HttpResponse:
        if from_htmx(request):
            return render(request, "tournaments/_desk_tables.html", _tables_context(request, tournament))
        return _desk(request, tournament, focus_door=request.GET.get("next") == "door")

    response = followed_page(request, lambda: (desk_tables_state(tournament), request.user.pk), page)
    patch_vary_headers(response, ["HX-Request"])
    return response


@on_subject(Action.MANAGE, "tournament")
@require_POST
def desk_door(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An entry at the door: the name, club and category; paid at once unless the desk unticked it."""
    form = DoorForm(request.POST, categories=_categories(tournament))
    if form.is_valid():
        try:
            entry = services.entry_at_door(
                tournament=tournament,
                form=form.entry(),
                paid=form.cleaned_data["paid"],
                user=signed_in_account(request),
            )
        except ServiceError as error:
            refusal_on_form(form, error, request=request)
        else:
            # The code is the entrant's way to their entry and its lists (the tournament's page finds it, and a
            # signed-in entrant adds it to their record with it): the desk tells it at once.
            entered = _("%(name)s is entered, with the confirmation code %(code)s.")
            messages.success(request, entered % {"name": entry.name, "code": entry.code})
            # The next player at the door is typed at once: the desk opens with the name field taken (and scrolled
            # to). No fragment: a browser skips autofocus on a page opened at one.
            return redirect(_desk_url(tournament, "?next=door"))
    form.fields["name"].widget.attrs["autofocus"] = True
    return _desk(request, tournament, status=400, door_form=form)


@on_subject(Action.MANAGE, "tournament")
@require_POST
def desk_hand_over(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Another account becomes the organiser (the one leaving hands the tournament on before deleting theirs)."""
    form = HandOverForm(request.POST)
    if form.is_valid():
        try:
            services.tournament_hand_over(
                tournament=tournament, username=form.cleaned_data["username"], user=signed_in_account(request)
            )
        except ServiceError as error:
            refusal_on_form(form, error, request=request)
        else:
            messages.success(request, _("%(name)s organises the tournament now.") % {"name": tournament.organiser})
            return redirect("tournaments:detail", tournament_id=tournament.public_id)
    return _desk(request, tournament, status=400, hand_over_form=form)


@on_subject(Action.MANAGE, "tournament")
@require_POST
def desk_payment(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An online entrant at the door: found by the code they show, and what they owe on entry taken."""
    form = CodeForm(request.POST)
    if form.is_valid():
        entry = entry_by_code(tournament, form.cleaned_data["code"])
        if entry is None:
            form.add_error("code", _("No entry of this tournament has that code."))
        else:
            try:
                payment = services.entry_pay(entry=entry, user=signed_in_account(request))
            except ServiceError as error:
                refusal_on_form(form, error, lambda field: "code")
            else:
                messages.success(request, _payment_text(entry, payment.amount))
                return redirect(_desk_url(tournament, "#door"))
    form.fields["code"].widget.attrs["autofocus"] = True
    return _desk(request, tournament, status=400, code_form=form)


def _payment_text(entry: Entry, cents: int) -> str:
    # The desk reads back whom it took money from, so that a code typed wrong shows at once.
    what = {"name": entry.name, "amount": euros(cents, unbroken=True)}
    if entry.category is not None:
        return _("%(name)s (%(category)s) paid %(amount)s.") % (what | {"category": entry.category.name})
    return _("%(name)s paid %(amount)s.") % what


@on_entry(Action.MANAGE)
@require_POST
def entry_pay(request: HttpRequest, entry: Entry) -> HttpResponse:
    """What an entrant of the desk's list owes, taken: the amount the desk shows (the entry fee, and after a series
    the list fees and the lost games' fees), worked out again here rather than taken from the form."""
    form = PayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The list had changed: nothing was taken. Here is what is owed now."))
        return redirect(_desk_url(entry.tournament, "#entries"))
    line = cashier_line_of(entry)
    owed = line.owed if line is not None and line.owed > 0 else None
    try:
        payment = services.entry_pay(
            entry=entry, amount=owed, paid_before=form.cleaned_data["paid"], user=signed_in_account(request)
        )
    except ServiceError as error:
        refusal_as_messages(request, error)
    else:
        messages.success(request, _payment_text(entry, payment.amount))
    return redirect(_desk_url(entry.tournament, "#entries"))


@on_entry(Action.MANAGE)
@require_POST
def entry_take_back(request: HttpRequest, entry: Entry) -> HttpResponse:
    """The last payment of an entrant of the desk's list taken back (taken from the wrong entrant): a correction
    beside it, refused where a payment was recorded since the desk showed the list."""
    form = PayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The list had changed: nothing was taken back. Here is what is paid now."))
        return redirect(_desk_url(entry.tournament, "#entries"))
    try:
        payment = services.entry_payment_take_back(
            entry=entry, paid_before=form.cleaned_data["paid"], user=signed_in_account(request)
        )
    except ServiceError as error:
        refusal_as_messages(request, error)
    else:
        what = {"name": entry.name, "amount": euros(-payment.amount, unbroken=True)}
        messages.success(request, _("%(amount)s taken back from %(name)s.") % what)
    return redirect(_desk_url(entry.tournament, "#entries"))


@on_entry(Action.MANAGE)
@require_POST
def entry_withdraw(request: HttpRequest, entry: Entry) -> HttpResponse:
    done_or_refused(
        request,
        lambda: services.entry_withdraw(entry=entry),
        _("%(name)s has withdrawn: the series still to be drawn go without them.") % {"name": entry.name},
    )
    return redirect(_desk_url(entry.tournament, "#entries"))


@on_subject(Action.MANAGE, "tournament")
@require_POST
def desk_side(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A tandem or team, before the first draw."""
    # The players ticked, among those still in: the form offers the entries the desk listed.
    ticked = _uuids(request.POST.getlist(SideForm(entries=[]).add_prefix("entries")))
    present = Entry.objects.filter(tournament=tournament, withdrawn_after__isnull=True, public_id__in=ticked)
    form = SideForm(request.POST, entries=list(present.select_related("player").order_by("name_key", "pk")))
    if form.is_valid():
        try:
            side = services.side_enter(
                tournament=tournament,
                kind=form.cleaned_data["kind"],
                name=form.cleaned_data["name"],
                entries=form.chosen(),
            )
        except ServiceError as error:
            refusal_on_form(form, error, side_field)
        else:
            messages.success(request, _("%(name)s is entered.") % {"name": side.name})
            return redirect(_desk_url(tournament, "#sides"))
    return _desk(request, tournament, status=400, side_form=form)


@on_subject(Action.MANAGE, "tournament")
@require_POST
def desk_draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Draw the next series; a refusal is said next to the button. One that comes from a desk older than the
    tournament (a series drawn meanwhile on another desk, an entry taken since) answers with the desk as it stands
    now, saying what happened where the draw was: the next series' draw, if there is one, with the tournament's
    version as shown, so that the desk is never left with a button that can only be refused again."""
    form = DrawForm(request.POST, first=request.POST.get("series") == "1")
    number = None
    if form.is_valid():
        number = form.cleaned_data["series"]
        try:
            services.series_draw(
                tournament=tournament,
                number=number,
                seating=form.cleaned_data["seating"],
                version=form.cleaned_data["version"],
                user=signed_in_account(request),
            )
        except Conflict as error:
            tournament.refresh_from_db()
            if Series.objects.filter(tournament=tournament, number=number).exists():
                said = [_("Series %(number)s was drawn meanwhile; nothing was changed.") % {"number": number}]
                return _desk(request, tournament, status=error.status, draw_refused=said)
            # The same series offered again keeps the seating chosen: the next tap seats as chosen, never by lot.
            return _desk(
                request,
                tournament,
                status=error.status,
                draw_refused=refusal_texts(error, request),
                draw_seating=form.cleaned_data["seating"],
            )
        except ServiceError as error:
            refusal_on_form(form, error, lambda field: "seating")
        else:
            messages.success(request, _("Series %(number)s is drawn.") % {"number": number})
            if form.cleaned_data["seating"] == Seating.DRAW:
                # Seated by the standings, the leaders sit together by choice: no draw tried to keep them apart.
                _say_met_again(request, Series.objects.get(tournament=tournament, number=number))
            return redirect(_desk_url(tournament, "#tables"))
    return _desk(request, tournament, status=400, draw_form=form, draw_number=number)


def _say_met_again(request: HttpRequest, series: Series) -> None:
    """Say which players sit together again, where a draw avoiding the pairings met before could not avoid them
    all (a small room, or a late series)."""
    pairs = met_again_in(series)
    if pairs:
        messages.warning(request, met_again_text(pairs))


def _series_of(tournament: Tournament, number: int) -> Series:
    series = Series.objects.filter(tournament=tournament, number=number).first()
    if series is None:
        raise Http404
    return series


@on_subject(Action.MANAGE, "tournament")
@require_POST
def series_close(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    try:
        services.series_close(series=_series_of(tournament, series), user=signed_in_account(request))
    except ServiceError as error:
        refusal_as_messages(request, error)
        return redirect(_desk_url(tournament, "#tables"))
    messages.success(request, _("Series %(number)s is closed: its lists are locked.") % {"number": series})
    return redirect(_desk_url(tournament, "#draw"))


@on_subject(Action.MANAGE, "tournament")
def table_paper(request: HttpRequest, tournament: Tournament, series: int, number: int) -> HttpResponse:
    """A table that kept its list on paper: each player's game points, won and lost games, as at a club night."""
    table = (
        Table.objects.filter(series=_series_of(tournament, series), number=number)
        .select_related("match", "series")
        .first()
    )
    if table is None:
        raise Http404
    desk = _desk_url(tournament, "#tables")
    closed = _("Series %(number)s is closed: its lists stay.") % {"number": series} if table.series.closed_at else ""
    paper = PaperTable(
        table.match, series, number, tournament.name, "tournaments/_base.html", desk, tournament.name, closed
    )

    def enter(lines: list[PaperTotals], version: TableVersion | None) -> None:
        by_player = {seat.entry.player_id: seat.entry for seat in table.seats.select_related("entry")}
        entries = [(by_player[line.player.pk], line.game_points, line.won, line.lost) for line in lines]
        services.table_paper_enter(table=table, lines=entries, user=signed_in_account(request), version=version)

    return paper_page(request, paper, enter=enter, done=desk)


# --- Announcing, and the visitor's tournaments ------------------------------------------------------------------------


def _clubs_run_by(request: HttpRequest) -> list[tuple[str, str]]:
    account = signed_in_account(request)
    clubs = Club.objects.filter(memberships__user=account, memberships__role__in=CLUB_RUNNERS).order_by("name")
    return [(str(club.public_id), club.name) for club in clubs.distinct()]


@signed_in
def tournament_new(request: HttpRequest) -> HttpResponse:
    clubs = _clubs_run_by(request)
    form = TournamentForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        club_id = form.cleaned_data.get("club")
        club = Club.objects.filter(public_id=club_id).first() if club_id else None
        try:
            organiser, settings = signed_in_account(request), form.settings()
            tournament = made_by_form(
                request,
                form,
                Tournament,
                lambda: services.tournament_announce(organiser=organiser, settings=settings, club=club),
            )
        except ServiceError as error:
            refusal_on_form(form, error, announce_field)
        else:
            messages.success(request, _("%(name)s is announced.") % {"name": tournament.name})
            return redirect("tournaments:desk", tournament_id=tournament.public_id)
    opened = bool(form.errors and any(field.errors for field in form.extra_fields()))
    context = {"form": form, "extra_open": opened}
    return render(request, "tournaments/new.html", context, status=400 if form.errors else 200)


@signed_in
@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments the visitor organises (or runs for their club) and those they have entered."""
    account = signed_in_account(request)
    clubs = Membership.objects.filter(user=account, role__in=CLUB_RUNNERS).values("club_id")
    organised = Tournament.objects.filter(Q(organiser=account) | Q(club_id__in=clubs)).order_by("-date", "name")
    visitor = visitor_of(request)
    entered = (
        Entry.objects.filter(Q(account=account) | Q(public_id__in=_uuids(list(visitor.links))))
        .select_related("tournament", "category")
        .order_by("-tournament__date", "tournament__name")
    )
    context = {"organised": organised.distinct(), "entered": [one for one in entered if holds_entry(visitor, one)]}
    return render(request, "tournaments/list.html", context)


def _uuids(keys: list[str]) -> list[str]:
    """The keys that are ids (a match's or an entry's), for a query that would refuse anything else."""
    found = []
    for key in keys:
        try:
            found.append(str(uuid.UUID(key)))
        except ValueError:
            continue
    return found


# --- The public pages -------------------------------------------------------------------------------------------------


def _own_entries(request: HttpRequest, tournament: Tournament) -> list[Entry]:
    visitor = visitor_of(request)
    account = visitor.account
    held = _uuids(list(visitor.links))
    mine = Entry.objects.filter(tournament=tournament).filter(
        Q(public_id__in=held) | (Q(account=account) if account is not None else Q(pk__in=[]))
    )
    return [entry for entry in mine if holds_entry(visitor, entry)]


def _entered(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament, withdrawn_after__isnull=True).count()


def _full(tournament: Tournament, entered: int) -> bool:
    """Whether every seat of the room is taken, so that an entrant is told before filling in an entry."""
    return bool(tournament.seats) and entered >= tournament.seats


def _detail(request: HttpRequest, tournament: Tournament, code_form: CodeForm | None = None) -> HttpResponse:
    """The tournament's page; with ``code_form``, a code that found no entry, refused next to it (400)."""
    entered = _entered(tournament)
    context = {
        "tournament": tournament,
        "categories": _categories(tournament),
        # Paid out in full, the prizes by place are proportions of the prize money, whatever it comes to.
        "in_full": schedule_of(tournament.places).payout is Payout.IN_FULL,
        "entered": entered,
        "full": _full(tournament, entered),
        "drawn": Series.objects.filter(tournament=tournament).exists(),
        "manages": manages_tournament(visitor_of(request), tournament),
        "mine": _own_entries(request, tournament),
        "code_form": code_form or CodeForm(),
    }
    return render(request, "tournaments/detail.html", context, status=400 if code_form else 200)


@on_subject(Action.VIEW, "tournament")
@require_safe
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament as announced, for everybody: when and where, the fees, the prizes, how to enter."""
    return _detail(request, tournament)


@public
def entry_new(request: HttpRequest, tournament_id: Any) -> HttpResponse:
    """Online entry, for anybody with the tournament's link: the confirmation follows, and this browser keeps it."""
    tournament = Tournament.objects.filter(public_id=tournament_id).first()
    if tournament is None:
        raise Http404
    form = OnlineEntryForm(request.POST or None, categories=_categories(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.entry_register_online(
                tournament=tournament, form=form.entry(), account=request_account(request)
            )
        except ServiceError as error:
            refusal_on_form(form, error, request=request)
        else:
            _keep_entry_link(request, entry)
            return redirect("tournaments:entry", entry_id=entry.public_id)
    context = {
        "tournament": tournament,
        "form": form,
        "drawn": Series.objects.filter(tournament=tournament).exists(),
        "full": _full(tournament, _entered(tournament)),
    }
    return render(request, "tournaments/enter.html", context, status=400 if form.errors else 200)


@public
@require_POST
def entry_find(request: HttpRequest, tournament_id: Any) -> HttpResponse:
    """An entrant's confirmation again, on another phone or after signing in: by the code they were given."""
    tournament = Tournament.objects.filter(public_id=tournament_id).first()
    if tournament is None:
        raise Http404
    form = CodeForm(request.POST)
    form.fields["code"].widget.attrs["autofocus"] = True
    askers = code_askers(request_account(request), client_address(request))
    if codes_locked_out(*askers):
        form.is_valid()
        form.add_error("code", _("Too many wrong codes: try again in an hour."))
        return _detail(request, tournament, form)
    entry = entry_by_code(tournament, form.cleaned_data["code"]) if form.is_valid() else None
    if entry is None:
        code_failure_record(*askers)
        if not form.errors:
            form.add_error("code", _("No entry of this tournament has that code."))
        return _detail(request, tournament, form)
    _keep_entry_link(request, entry)
    return redirect("tournaments:entry", entry_id=entry.public_id)


@signed_in
@require_POST
def entry_claim(request: HttpRequest, tournament_id: Any) -> HttpResponse:
    """An entrant adds their entry to their record, with its code: signed in, from the confirmation or the
    tournament's page."""
    tournament = Tournament.objects.filter(public_id=tournament_id).first()
    if tournament is None:
        raise Http404
    form = CodeForm(request.POST)
    code = form.cleaned_data["code"] if form.is_valid() else ""
    account = signed_in_account(request)
    askers = code_askers(account, client_address(request))
    if codes_locked_out(*askers):
        messages.error(request, _("Too many wrong codes: try again in an hour."))
    else:
        try:
            services.entry_claim(tournament=tournament, code=code, account=account)
        except ServiceError as error:
            if isinstance(error, Invalid):
                code_failure_record(*askers)
            refusal_as_messages(request, error)
        else:
            messages.success(request, _("Your entry is in your record: its lists count there once its series close."))
            return redirect("player_me")
    return redirect(reverse("tournaments:detail", args=[tournament.public_id]) + "#mine")


@on_entry(Action.VIEW)
@require_safe
def entry_detail(request: HttpRequest, entry: Entry) -> HttpResponse:
    """The confirmation an entrant shows at the door: the code large, the name, the category, paid or not; once
    every series is closed, their place, what they won and what the cashier hands them or still takes."""
    result = entrant_result(entry)
    line = result.line if result is not None else cashier_line_of(entry)
    visitor = visitor_of(request)
    # Whoever runs the tournament sees every entry's page: an entry no account holds yet is the entrant's to add to
    # their record, never theirs by a tap on it.
    claims = visitor.account is not None and (
        entry.account_id == visitor.account.pk
        or (entry.account_id is None and not manages_tournament(visitor, entry.tournament))
    )
    problems = refusal_texts(RuleError(list(result.problems)), request) if result and result.problems else []
    context = {
        "entry": entry,
        "tournament": entry.tournament,
        "line": line,
        "result": result,
        "problems": problems,
        "claims": claims,
    }
    return render(request, "tournaments/entry.html", context)


@dataclass(frozen=True)
class RankRow:
    """A place of a ranking as the results pages write it: the entrant's name and club beside the numbers, and the
    series after which they withdrew (0: before the first; None: still in, or a tandem's or team's place)."""

    place: int
    name: str
    club: str
    score: Fraction
    won: int
    lost: int
    by_lot: bool
    player: int | None
    withdrawn_after: int | None = None


def _rows(results: TournamentResults, places: tuple[Place, ...], *, sides: bool = False) -> list[RankRow]:
    """The rows of a ranking of entrants, or (``sides``) of tandems or teams, which name no entry even where an
    entrant has the side's name."""
    rows = []
    for place in places:
        entry = None if sides else results.entry(place.standing.player)
        rows.append(
            RankRow(
                place.place,
                entry.name if entry is not None else place.standing.player,
                entry.club if entry is not None else "",
                place.standing.score,
                place.standing.won,
                place.standing.lost,
                place.by_lot,
                entry.player_id if entry is not None else None,
                entry.withdrawn_after if entry is not None else None,
            )
        )
    return rows


@on_subject(Action.VIEW, "tournament")
@require_safe
def tournament_results_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The total standings and every series' ranking, as they stand (a series being played as far as its tables
    are)."""
    results = tournament_results(tournament)
    context = {
        "tournament": tournament,
        "total": _rows(results, results.standings),
        "by_series": [
            (series, _rows(results, places))
            for series, places in zip(results.series, results.rankings.series, strict=False)
        ],
        "others": [
            *((name, _rows(results, places)) for name, places in results.rankings.categories.items()),
            *(
                (caption, _rows(results, places, sides=sides))
                for caption, places, sides in _more_rankings(results)
                if places
            ),
        ],
        "manages": manages_tournament(visitor_of(request), tournament),
        "records": record_links(entry.player_id for entry in results.entries.values()),
    }
    return render(request, "tournaments/results.html", context)


def _more_rankings(results: TournamentResults) -> list[tuple[str, tuple[Place, ...], bool]]:
    """The rankings beside the total and the series: each player's best series, the tandems, the teams (each with
    whether it ranks sides)."""
    rankings = results.rankings
    return [
        (_("Best series"), rankings.best_series, False),
        (_("Tandems"), rankings.tandems, True),
        (_("Teams"), rankings.teams, True),
    ]


@dataclass(frozen=True)
class PrizeRow:
    """A prize as the prize list writes it: what it is for, its money, and who won it (empty: nobody is left)."""

    what: str
    amount: int
    winner: str
    withdrawn_after: int | None = None


def _prize_what(prize: Prize) -> str:
    # A no-break space between "place" and its number: a narrow column never leaves the number on a line of its own.
    if prize.kind is PrizeKind.PLACE:
        return _("Place\N{NO-BREAK SPACE}%(place)s") % {"place": prize.place}
    if prize.kind is PrizeKind.BEST_SERIES:
        return _("Best series, place\N{NO-BREAK SPACE}%(place)s") % {"place": prize.place}
    if prize.kind is PrizeKind.CATEGORY:
        return _("%(category)s, place\N{NO-BREAK SPACE}%(place)s") % {"category": prize.category, "place": prize.place}
    if prize.kind is PrizeKind.TANDEM:
        return _("Tandems, place\N{NO-BREAK SPACE}%(place)s") % {"place": prize.place}
    return _("Teams, place\N{NO-BREAK SPACE}%(place)s") % {"place": prize.place}


def _prize_rows(results: TournamentResults) -> list[PrizeRow]:
    rows = []
    for prize in results.prizes:
        entry = results.entry(prize.winner) if prize.kind not in {PrizeKind.TANDEM, PrizeKind.TEAM} else None
        winner = entry.name if entry is not None else prize.winner or ""
        withdrawn = entry.withdrawn_after if entry is not None else None
        rows.append(PrizeRow(_prize_what(prize), prize.amount, winner, withdrawn))
    return rows


def _problems(request: HttpRequest, results: TournamentResults) -> list[str]:
    """Why the prizes cannot be paid as announced, in the reader's words."""
    return refusal_texts(RuleError(list(results.problems)), request) if results.problems else []


@on_subject(Action.VIEW, "tournament")
@require_safe
def tournament_prizes(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The prize list: every prize with its money and its winner as the standings are."""
    results = tournament_results(tournament)
    context = {
        "tournament": tournament,
        "prizes": _prize_rows(results),
        "problems": _problems(request, results),
        # Until every series is closed, the prizes follow the standings as they are, as the picture and the printed
        # list say.
        "provisional": not finished(results),
    }
    return render(request, "tournaments/prizes.html", context)


@dataclass(frozen=True)
class CashierRow:
    name: str
    line: CashierLine
    withdrawn_after: int | None = None


@on_subject(Action.MANAGE, "tournament")
@require_safe
def tournament_cashier(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The cashier's list: per player what is due, paid, owed and won; the pot and the organiser's share."""
    results = tournament_results(tournament)
    rows = []
    for line in results.cashier.lines:
        entry = results.entry(line.player)
        if entry is None:
            rows.append(CashierRow(line.player, line))
        else:
            rows.append(CashierRow(entry.name, line, entry.withdrawn_after))
    rows.sort(key=lambda row: row.name.casefold())
    context = {
        "tournament": tournament,
        "cashier": results.cashier,
        "rows": rows,
        "problems": _problems(request, results),
    }
    return render(request, "tournaments/cashier.html", context)
