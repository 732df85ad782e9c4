"""The club pages: the club, a season and its table, a club night (check-in, draw, tables with their QR codes,
paper lists, results, closing), and the public screen. Thin: the services write, the selectors read."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from matches.engine.presets import PRESETS
from matches.errors import Conflict, Invalid, ServiceError
from matches.exports.base import backup_response
from matches.exports.pdf import blank_lists_pdf, pdf_response
from matches.exports.picture import picture_response
from matches.following import csrf_cookie_kept, unchanged
from matches.htmx import from_htmx
from matches.labels import euros, preset_label, render_step, scheme_label, variant_label
from matches.models import Player
from matches.paging import page_of
from matches.permissions import Action, public, signed_in, signed_in_account, visitor_of
from matches.qr import table_join
from matches.records import record_links
from matches.refusals import done_or_refused, refusal_as_messages, refusal_on_form, refusal_texts
from matches.screens import screen_response
from matches.services.events import account_named
from matches.services.paper import PaperTotals, TableVersion
from matches.views.common import made_by_form
from matches.views.paper import PaperTable, paper_page

from . import services
from .backup import club_backup
from .forms import (
    ClubForm,
    DrawForm,
    GuestForm,
    MemberForm,
    NightCloseForm,
    NightDateForm,
    NightForm,
    NightRemoveForm,
    PlayerForm,
    RosterForm,
    SeasonEditForm,
    SeasonForm,
)
from .models import Club, ClubRole, ClubTable, Membership, Night, NightLog, Season, SeasonLog
from .permissions import CLUB_GRANTS, club_can, club_role, on_club, on_night, on_season, visible_clubs
from .pictures import night_picture
from .prints import blank_lists
from .selectors import (
    NightResults,
    Top,
    night_on_screen,
    night_results,
    night_tables,
    night_version,
    player_season,
    public_names,
    screen_state,
    screen_tops,
    season_table,
    unfinished,
)
from .standings import SCORE, StandingRow, full_names, standing_rows


def _may(request: HttpRequest, club: Club) -> dict[str, bool]:
    """What the visitor may do at the club, from the one role they hold there (read once)."""
    granted = CLUB_GRANTS[club_role(visitor_of(request), club)]
    return {
        "can_manage": Action.MANAGE in granted,
        "can_score": Action.SCORE in granted,
        "can_reopen": Action.REOPEN in granted,
        "can_back_up": Action.BACKUP in granted,
        "can_manage_roles": Action.ROLES in granted,
    }


@signed_in
def club_list(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            owner, name = signed_in_account(request), form.cleaned_data["name"]
            club = made_by_form(request, form, Club, lambda: services.club_create(owner=owner, name=name))
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("club_detail", club_id=club.public_id)
    clubs = page_of(visible_clubs(visitor_of(request)), by="name", after=request.GET.get("after"), size=LIST_PAGE)
    context = {"clubs": clubs.items, "page": clubs, "form": form}
    return render(request, "clubs/club_list.html", context, status=400 if form.errors else 200)


@on_club(Action.VIEW)
@require_safe
def club_detail(request: HttpRequest, club: Club) -> HttpResponse:
    return _club_page(request, club)


def _club_page(
    request: HttpRequest,
    club: Club,
    *,
    player_form: PlayerForm | None = None,
    member_form: MemberForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "club": club,
        "role": club_role(visitor_of(request), club),
        "seasons": club.seasons.all(),
        "open_nights": Night.objects.filter(season__club=club, closed_at__isnull=True).select_related("season")[:5],
        "members": page_of(
            Membership.objects.filter(club=club).select_related("user"),
            by="user__username",
            after=request.GET.get("members"),
            size=LIST_PAGE,
        ),
        "players": page_of(
            Player.objects.filter(keeper=club.keeper).select_related("roster"),
            by="name",
            after=request.GET.get("players"),
            size=LIST_PAGE,
        ),
        "member_form": member_form or MemberForm(),
        "player_form": player_form or PlayerForm(),
        # The player just added (or found) on this page, said at its form.
        "added": _club_player(club, request.GET.get("added", "")) if "added" in request.GET else None,
        **_may(request, club),
    }
    if context["can_manage"] and club.screen_token:
        context["screen_url"] = request.build_absolute_uri(reverse("club_screen", args=[club.screen_token]))
    return render(request, "clubs/club_detail.html", context, status=status)


@on_club(Action.MANAGE)
@require_POST
def club_member(request: HttpRequest, club: Club) -> HttpResponse:
    """Add a member or change a role. Secretaries add members and scorers; giving or taking the roles of owner and
    secretary, and taking members off, are the owner's alone."""
    form = MemberForm(request.POST)
    remove = request.POST.get("remove") == "1"
    if not form.is_valid():
        return _club_page(request, club, member_form=form, status=400)
    try:
        named: User | None = account_named(form.cleaned_data["username"])
    except Invalid:
        named = None  # the service says why, next to the name
    held = Membership.objects.filter(club=club, user=named).first() if named is not None else None
    managing = {ClubRole.OWNER, ClubRole.SECRETARY}
    owners_only = remove or form.cleaned_data["role"] in managing or (held is not None and held.role in managing)
    if owners_only and not club_can(visitor_of(request), Action.ROLES, club):
        form.add_error(
            None, _("Only the club's owner gives and takes the roles of owner and secretary and takes members off.")
        )
        return _club_page(request, club, member_form=form, status=403)
    try:
        if remove:
            services.member_remove(club=club, user=account_named(form.cleaned_data["username"]))
        else:
            services.member_set(club=club, **form.cleaned_data)
    except ServiceError as error:
        # Each problem next to its field (no such account, the club's last owner), the rest above the form.
        refusal_on_form(form, error, lambda field: field if field in form.fields else None)
        return _club_page(request, club, member_form=form, status=error.status)
    return redirect("club_detail", club_id=club.public_id)


@on_club(Action.BACKUP)
@require_safe
def club_backup_download(request: HttpRequest, club: Club) -> HttpResponse:
    """Everything of the club in one file (the club's owner only): restored elsewhere, it becomes a club there."""
    return backup_response(club_backup(club), f"scorekeeper-{club.name}")


@on_club(Action.MANAGE)
@require_POST
def club_screen_link(request: HttpRequest, club: Club) -> HttpResponse:
    """A new address for the club's public screen, or none (the old one shows nothing from now on)."""
    services.club_screen_link(club=club, revoke=request.POST.get("action") == "revoke")
    return redirect(reverse("club_detail", args=[club.public_id]) + "#screen")


@on_club(Action.MANAGE)
@require_POST
def club_player(request: HttpRequest, club: Club) -> HttpResponse:
    """Add a player to the club (or find the one of that name): said at the form, since the list of players, page by
    page, may not show them; a name refused is said next to its field, which keeps it as typed."""
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.club_player_add(club=club, **form.cleaned_data)
        except ServiceError as error:
            refusal_on_form(form, error, request=request)
        else:
            added = urlencode({"added": player.public_id})
            return redirect(reverse("club_detail", args=[club.public_id]) + f"?{added}#players")
    return _club_page(request, club, player_form=form, status=400)


@on_club(Action.MANAGE)
def club_roster(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's players as the club keeps them: guest or member, first name only in public, categories."""
    if request.method == "POST":
        # Each player's form on the page has their id as its prefix, so that its fields' ids are unique.
        form = RosterForm(request.POST, prefix=request.POST.get("prefix", ""))
        player = _club_player(club, str(form.cleaned_data["player"])) if form.is_valid() else None
        if player is None:
            messages.error(request, _("Choose one of the club's players."))
        else:
            try:
                services.roster_set(
                    club=club,
                    player=player,
                    guest=form.cleaned_data["guest"],
                    first_name_only=form.cleaned_data["first_name_only"],
                    categories=form.category_names(),
                )
            except ServiceError as error:
                refusal_as_messages(request, error)
            else:
                messages.success(request, _("%(name)s is saved.") % {"name": player.name})
        back = request.POST.get("after", "")
        return redirect(
            reverse("club_roster", args=[club.public_id])
            + (f"?{urlencode({'after': back})}" if back else "")
            + (f"#player-{player.public_id}" if player else "")
        )
    players = page_of(
        Player.objects.filter(keeper=club.keeper).select_related("roster"),
        by="name",
        after=request.GET.get("after"),
        size=LIST_PAGE,
    )
    rows = []
    for player in players.items:
        roster = getattr(player, "roster", None)
        initial = {
            "player": player.public_id,
            "guest": bool(roster and roster.guest),
            "first_name_only": bool(roster and roster.first_name_only),
            "categories": ", ".join(roster.categories) if roster else "",
        }
        rows.append((player, RosterForm(initial=initial, prefix=str(player.public_id))))
    context = {"club": club, "rows": rows, "page": players}
    return render(request, "clubs/club_roster.html", context)


@on_club(Action.MANAGE)
def season_new(request: HttpRequest, club: Club) -> HttpResponse:
    """A new season: a preset chosen (a GET of this page with ``preset``), then its rules option by option."""
    form = SeasonForm(request.POST or None, preset=request.GET.get("preset", ""))
    if request.method == "POST" and form.is_valid():
        try:
            settings = form.settings()
            season = made_by_form(request, form, Season, lambda: services.season_create(club=club, settings=settings))
        except ServiceError as error:
            form.add_service_errors(error)
        else:
            return redirect("season_detail", season_id=season.public_id)
    presets = [(key, preset_label(key)) for key in PRESETS]
    context = {"club": club, "form": form, "presets": presets, "preset": form["preset"].value()}
    return render(request, "clubs/season_new.html", context, status=400 if form.errors else 200)


@on_season(Action.MANAGE)
def season_edit(request: HttpRequest, season: Season) -> HttpResponse:
    """A season's settings and rules, changed as far as its nights allow; every change recorded."""
    drawn = services.season_drawn(season)
    form = SeasonEditForm(request.POST or None, season=season, drawn=drawn)
    if request.method == "POST" and form.is_valid():
        try:
            services.season_update(season=season, settings=form.settings(), user=signed_in_account(request))
        except ServiceError as error:
            form.add_service_errors(error)
        else:
            messages.success(request, _("The season's settings are saved."))
            return redirect("season_detail", season_id=season.public_id)
    context = {
        "club": season.club,
        "season": season,
        "form": form,
        "drawn": drawn,
        "log": [(entry, _season_change(entry, form)) for entry in season.log.select_related("user")],
    }
    return render(request, "clubs/season_edit.html", context, status=400 if form.errors else 200)


@on_season(Action.VIEW)
@require_safe
def season_detail(request: HttpRequest, season: Season) -> HttpResponse:
    return _season_page(request, season, NightForm())


@on_season(Action.MANAGE)
@require_POST
def night_new(request: HttpRequest, season: Season) -> HttpResponse:
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            night = services.night_create(season=season, **form.cleaned_data)
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("night_detail", night_id=night.public_id)
    return _season_page(request, season, form, status=400)


def _season_page(request: HttpRequest, season: Season, form: NightForm, status: int = 200) -> HttpResponse:
    club = season.club
    category = request.GET.get("category", "")
    table = season_table(season, category=category if category in season.categories else "")
    context = {
        "club": club,
        "season": season,
        "variant": variant_label(season.variant),
        "scheme": scheme_label(season.scheme),
        "table": table,
        "standings": standing_rows(table.places, full_names(table.players)),
        "category": category,
        "nights": page_of(season.nights.all(), by="-date", after=request.GET.get("after"), size=NIGHTS_PER_PAGE),
        "form": form,
        **_may(request, club),
    }
    return render(request, "clubs/season_detail.html", context, status=status)


NIGHTS_PER_PAGE = 12
LIST_PAGE = 100  # members, players and clubs on a page


@on_season(Action.VIEW)
@require_safe
def season_player(request: HttpRequest, season: Season, member_id: uuid.UUID) -> HttpResponse:
    """One player's season: every night with its sums, and the totals."""
    player = Player.objects.filter(keeper=season.club.keeper, public_id=member_id).first()
    if player is None:
        raise Http404
    nights = player_season(season, player)
    lists = sum(row.result.lists for row in nights)
    totals = {
        "score": sum(row.result.score for row in nights),
        "game_points": sum(row.result.game_points for row in nights),
        "won": sum(row.result.won for row in nights),
        "lost": sum(row.result.lost for row in nights),
        "lists": lists,
        "average": Fraction(sum(row.result.score for row in nights), lists) if lists else None,
    }
    # Where the season's table has them, by what it ranks them (an average with its minimum of lists, the best
    # nights), which the sums of every night above need not be.
    table = season_table(season)
    places = [place for place in table.places if place.standing.player == str(player.public_id)]
    ranked = standing_rows(places, full_names(table.players))
    context = {
        "club": season.club,
        "season": season,
        "player": player,
        "nights": nights,
        "totals": totals,
        "ranked": ranked[0] if ranked else None,
        "score": SCORE,
    }
    return render(request, "clubs/season_player.html", context)


@on_night(Action.VIEW)
@require_safe
def night_picture_png(request: HttpRequest, night: Night) -> HttpResponseBase:
    """The night's table as a picture to send to a group chat, first names only where players asked."""
    return picture_response(request, night_picture(night))


@on_night(Action.VIEW)
@require_safe
def night_lists(request: HttpRequest, night: Night) -> HttpResponse:
    """Blank lists to print (PDF) for the night's tables: one page per table, its head and players filled in."""
    name = f"{night.season.club.name} {night.date.isoformat()}"
    return pdf_response(blank_lists_pdf(name, blank_lists(night, night_tables(night))), name)


def _night_context(request: HttpRequest, night: Night, results: NightResults) -> dict[str, Any]:
    club = night.season.club
    may = _may(request, club)
    tables = []
    for view in results.tables:
        tables.append(
            {
                "view": view,
                # A table kept on paper takes no games: its scoring link is not handed out.
                "join": table_join(
                    request, view.table.match.invite_token, offered=may["can_manage"] and not view.table.paper
                ),
            }
        )
    checked_in = {attendance.player_id for attendance in results.attendances}
    players = Player.objects.filter(keeper=club.keeper).select_related("roster").order_by("name")
    # Who was checked in after a series was drawn sits at none of its tables: each drawn series names them.
    seated: dict[int, set[int]] = {}
    for view in results.tables:
        seated.setdefault(view.table.series, set()).update(seat.player_id for seat in view.seats)
    unseated = [
        (series, [attendance.player.name for attendance in results.attendances if attendance.player_id not in seats])
        for series, seats in seated.items()
    ]
    seated_as = {view.table.series: _seated_as(view.table) for view in results.tables}
    return {
        "club": club,
        "season": night.season,
        "night": night,
        "results": results,
        "tables": tables,
        "series": range(1, night.series + 1),
        "drawn": {view.table.series for view in results.tables},
        "playing": {view.table.series for view in results.tables if view.table.paper or view.table.match.deals},
        "players": [(player, player.pk in checked_in) for player in players],
        # The walk-in just checked in by name (``_guest_check_in``), while still here.
        "came": next(
            (one for one in players if one.pk in checked_in and str(one.public_id) == request.GET.get("came")), None
        ),
        "unseated": [(series, ", ".join(names)) for series, names in unseated if names],
        "seated_as": list(seated_as.items()),
        "guest_form": GuestForm(),
        "draw_form": DrawForm(initial={"series": 1}),
        "swap_lists": _swap_lists(),
        # Closing names the tables short of their series' games, as the refusal would, and asks to confirm them.
        "short": [render_step(services.table_short(table)) for table in unfinished(results.tables)],
        "close_form": NightCloseForm(auto_id="close_%s"),
        "names": results.players,
        "records": _records(results.players),
        "standings": standing_rows(results.night_places, full_names(results.players)),
        "public_standings": standing_rows(results.night_places, public_names(results.players)),
        "series_standings": [
            (number, standing_rows(places, full_names(results.players))) for number, places in results.series.items()
        ],
        **may,
    }


def _seated_as(table: ClubTable) -> str:
    """How ``table``'s series was seated, for its draw again: by lot where it has a seed; the first series without
    one by the season's ranking; a later one by a ranking, the season's or the series before's, which the tables do
    not tell apart (empty: the secretary chooses, rather than have it drawn by lot unasked)."""
    if table.seed:
        return services.Seating.DRAW
    return services.Seating.RANKING if table.series == 1 else ""


def _records(players: Mapping[str, Player]) -> dict[str, uuid.UUID]:
    """The records of the night's players who show theirs to everybody, by the players' public ids."""
    links = record_links(player.pk for player in players.values())
    return {key: links[player.pk] for key, player in players.items() if player.pk in links}


@on_night(Action.VIEW)
@require_safe
def night_detail(request: HttpRequest, night: Night) -> HttpResponse:
    return _night_page(request, night)


@on_night(Action.VIEW)
@require_safe
@csrf_cookie_kept
def night_follow(request: HttpRequest, night: Night) -> HttpResponse:
    """What the night's page asks every few seconds: nothing (204) while none of its tables changed since the
    version it shows; otherwise the page as it stands, whose results the page takes in place."""
    if request.GET.get("version") == night_version(night):
        return unchanged()
    return _night_page(request, night)


def _night_page(
    request: HttpRequest,
    night: Night,
    *,
    guest_form: GuestForm | None = None,
    close_form: NightCloseForm | None = None,
    status: int = 200,
) -> HttpResponse:
    # The version is read before the results: a game saved in between is shown again at the next ask, never missed.
    version = night_version(night)
    context = _night_context(request, night, night_results(night)) | {"version": version}
    if guest_form is not None:
        context["guest_form"] = guest_form
    if close_form is not None:
        context["close_form"] = close_form
    return render(request, "clubs/night_detail.html", context, status=status)


@on_night(Action.MANAGE)
@require_POST
def night_check_in(request: HttpRequest, night: Night) -> HttpResponse:
    """Check a player in or out (a tap on their name), or a walk-in guest by name."""
    club = night.season.club
    if "name" in request.POST:
        return _guest_check_in(request, night)
    player = _club_player(club, request.POST.get("player", ""))
    if player is None:
        raise Http404
    if request.POST.get("out") == "1":
        done = done_or_refused(request, lambda: services.check_out(night=night, player=player))
    else:
        done = done_or_refused(request, lambda: services.check_in(night=night, player=player))
    return _night_at(night, "check-in", done=done)


def _night_at(night: Night, part: str, *, done: bool) -> HttpResponse:
    """The night's page after a tap: at ``part`` (the check-in, the pot, the tables) where the tap was made, or,
    refused, at its top, where the refusal is said (the page would open below it, out of sight)."""
    return redirect(reverse("night_detail", args=[night.public_id]) + (f"#{part}" if done else ""))


def _guest_check_in(request: HttpRequest, night: Night) -> HttpResponse:
    """A walk-in guest checked in by name; a name refused (among them the name of a player checked in already) is
    said next to the field, which keeps it as typed."""
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            came = services.check_in(night=night, name=form.cleaned_data["name"], guest=True, once=True).player
        except ServiceError as error:
            refusal_on_form(form, error, request=request)
            return _night_page(request, night, guest_form=form, status=error.status)
        # The page says next to the name who was checked in: a name typed may be a player of the club's already.
        page = reverse("night_detail", args=[night.public_id])
        return redirect(f"{page}?{urlencode({'came': came.public_id})}#check-in")
    return _night_page(request, night, guest_form=form, status=400)


@on_night(Action.MANAGE)
@require_POST
def night_pot(request: HttpRequest, night: Night) -> HttpResponse:
    """A checked-in player plays for the prizes (and pays the stake), or not."""
    player = _club_player(night.season.club, request.POST.get("player", ""))
    if player is None:
        raise Http404
    done = done_or_refused(
        request, lambda: services.pot_set(night=night, player=player, in_pot=request.POST.get("in_pot") == "1")
    )
    return _night_at(night, "pot", done=done)


# The fields of the draw's form that a refusal of the draw may name; of them, the ones its form for drawing again
# shows (it keeps the series and the guests' table hidden).
DRAW_FIELDS = ("seating", "guests_from", "unfinished")
AGAIN_FIELDS = ("seating", "unfinished")


@on_night(Action.MANAGE)
@require_POST
def night_draw(request: HttpRequest, night: Night) -> HttpResponse:
    """Draw or seat a series. A refusal is said at the form that was sent: how the seats are taken or the table
    the guests cannot sit from next to its field, the tables of the series before that have not played all their
    games next to the box that seats by them as they stand, the rest above the form. Drawing again, a form among the
    tables, says above the page what its form does not show (the series being played by now, a page out of date)."""
    form = DrawForm(request.POST)
    valid = form.is_valid()
    # How the seats were asked to be taken (none where the choice was refused), for the form that draws again.
    asked = form.cleaned_data.get("seating", "")
    if valid:
        try:
            services.night_draw(night=night, user=signed_in_account(request), **form.cleaned_data)
        except ServiceError as error:
            refusal_on_form(form, error, lambda field: field if field in DRAW_FIELDS else None)
        else:
            return _night_at(night, "tables", done=True)
    again = form.cleaned_data.get("again", False)
    if again:
        for name, problems in form.errors.get_json_data().items():
            if name not in AGAIN_FIELDS:
                for problem in problems:
                    messages.error(request, problem["message"])
        if not any(name in AGAIN_FIELDS for name in form.errors):
            return _night_at(night, "tables", done=False)
    series = _series(request)
    context = _night_context(request, night, night_results(night)) | {"draw_form": form, "draw_series": series}
    if again:
        context["seated_as"] = [(number, asked if number == series else how) for number, how in context["seated_as"]]
    return render(request, "clubs/night_detail.html", context, status=400)


@on_night(Action.MANAGE)
@require_POST
def night_series_drop(request: HttpRequest, night: Night) -> HttpResponse:
    """Drop a series' tables before its first game, so that it can be drawn again."""
    series = _series(request)
    done = done_or_refused(
        request,
        lambda: services.series_drop(night=night, series=series, user=signed_in_account(request)),
        _("The tables of series %(series)s are dropped: draw them again.") % {"series": series},
    )
    return _night_at(night, "tables", done=done)


@on_night(Action.MANAGE)
@require_POST
def night_table_phones(request: HttpRequest, night: Night, number: int) -> HttpResponse:
    """A table entered from paper scores on its phones again; its paper totals stay in the night's history."""
    table = (
        ClubTable.objects.filter(night=night, series=_series(request), number=number).select_related("night").first()
    )
    if table is None:
        raise Http404
    done = done_or_refused(
        request,
        lambda: services.paper_to_phones(table=table, user=signed_in_account(request)),
        _("Table %(number)s scores on its phones again; its paper totals are kept in the night's history.")
        % {"number": number},
    )
    return _night_at(night, "tables", done=done)


def _kept_date(value: object) -> str:
    """A date a history entry keeps (as ``2026-11-24``), written for the reader as the pages write a night's date;
    anything else as it is kept."""
    try:
        return date_format(datetime.date.fromisoformat(str(value)))
    except ValueError:
        return "" if value is None else str(value)


def _season_change(entry: SeasonLog, form: forms.Form) -> str:
    """What a season's history entry changed, in words: the settings by their labels, each with the value it had
    (the rules, option by option many, as the rules), or the night removed."""
    if entry.action == SeasonLog.Action.REMOVE_NIGHT:
        return _("the night of %(date)s") % {"date": _kept_date(entry.details.get("date"))}
    changes = []
    for name, value in entry.details.get("before", {}).items():
        if name == "rules":
            changes.append(_("the rules"))
            continue
        field = form.fields.get(name)
        label = str(field.label) if field is not None else name
        changes.append(
            _("%(setting)s (was %(value)s)") % {"setting": label, "value": _setting_text(name, value, field)}
        )
    return ", ".join(changes)


def _setting_text(name: str, value: Any, field: forms.Field | None) -> str:
    """A season's setting as it was kept (cents, a choice's value, tiers), in the words its form shows it."""
    if name in ("stake", "list_fee"):
        return euros(int(value), unbroken=True)
    if name == "lost_fees":
        return "; ".join(f"{start}: {euros(cents, unbroken=True)}" for start, cents in value) or _("none")
    if name == "categories":
        return ", ".join(value) or _("none")
    if name == "variant":
        return variant_label(value)
    if isinstance(field, forms.BooleanField):
        return _("yes") if value else _("no")
    if isinstance(field, forms.ChoiceField):
        return next((str(label) for key, label in field.widget.choices if key == value), str(value))
    return str(value)


def _night_change(entry: NightLog) -> str:
    """What a night's history entry did, in words: the dates, the tables dropped, the paper totals set aside."""
    details = entry.details
    if entry.action == NightLog.Action.REDATE:
        return _("from %(before)s to %(after)s") % {
            "before": _kept_date(details.get("from")),
            "after": _kept_date(details.get("to")),
        }
    if entry.action == NightLog.Action.DROP:
        tables = "; ".join(", ".join(table) for table in details.get("tables", []))
        return _("series %(series)s, drawn as: %(tables)s") % {"series": details.get("series"), "tables": tables}
    if entry.action == NightLog.Action.PHONES:
        lines = "; ".join(
            _("%(name)s: %(points)s game points, %(won)s won, %(lost)s lost")
            % {"name": line["name"], "points": line["game_points"], "won": line["won"], "lost": line["lost"]}
            for line in details.get("lines", [])
        )
        return _("series %(series)s, table %(number)s; its paper totals were: %(lines)s") % {
            "series": details.get("series"),
            "number": details.get("table"),
            "lines": lines,
        }
    return ""


def _night_edit_page(
    request: HttpRequest, night: Night, date_form: NightDateForm, remove_form: NightRemoveForm, status: int = 200
) -> HttpResponse:
    context = {
        "club": night.season.club,
        "season": night.season,
        "night": night,
        "date_form": date_form,
        "remove_form": remove_form,
        "log": [(entry, _night_change(entry)) for entry in night.log.select_related("user")],
    }
    return render(request, "clubs/night_edit.html", context, status=status)


@on_night(Action.MANAGE)
def night_edit(request: HttpRequest, night: Night) -> HttpResponse:
    """A night's date, changed; the night removed if it was opened by mistake; what was done to it so far."""
    form = NightDateForm(request.POST or None, initial={"date": night.date})
    if request.method == "POST" and form.is_valid():
        try:
            redated = services.night_redate(
                night=night, date=form.cleaned_data["date"], user=signed_in_account(request)
            )
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            messages.success(request, _("The night is dated %(date)s now.") % {"date": date_format(redated.date)})
            return redirect("night_detail", night_id=night.public_id)
    return _night_edit_page(request, night, form, NightRemoveForm(), status=400 if form.errors else 200)


@on_night(Action.MANAGE)
@require_POST
def night_remove(request: HttpRequest, night: Night) -> HttpResponse:
    """Remove a night opened by mistake (nothing entered at its tables), after the secretary confirmed it."""
    form = NightRemoveForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            services.night_remove(night=night, user=signed_in_account(request))
        except ServiceError as error:
            refusal_on_form(form, error)
            status = error.status
        else:
            messages.success(request, _("The night of %(date)s is removed.") % {"date": date_format(night.date)})
            return redirect("season_detail", season_id=night.season.public_id)
    return _night_edit_page(request, night, NightDateForm(initial={"date": night.date}), form, status=status)


@on_night(Action.MANAGE)
@require_POST
def night_swap(request: HttpRequest, night: Night) -> HttpResponse:
    """Swap two players' seats before play; a swap refused is said at its form, the players chosen kept."""
    club = night.season.club
    series = _series(request)
    chosen = (request.POST.get("first", ""), request.POST.get("second", ""))
    first, second = (_club_player(club, public_id) for public_id in chosen)
    # Each refusal by the list it is about ("first", "second"), or the form's as a whole ("").
    errors: dict[str, list[str]] = {}
    if first is None:
        errors["first"] = [_("Choose the player who swaps seats.")]
    if second is None:
        errors["second"] = [_("Choose the player to swap seats with.")]
    status = 400
    if first is not None and second is not None:
        try:
            services.seats_swap(night=night, series=series, first=first, second=second, user=signed_in_account(request))
        except Conflict as error:
            # The series is being played: its tables, and the form, stay as they are.
            refusal_as_messages(request, error)
            return _night_at(night, "tables", done=False)
        except ServiceError as error:
            status = error.status
            for problem, text in zip(error.errors, refusal_texts(error, request), strict=True):
                errors.setdefault(problem.field if problem.field in SWAP_FIELDS else "", []).append(text)
        else:
            return redirect(reverse("night_detail", args=[night.public_id]) + "#tables")
    context = _night_context(request, night, night_results(night))
    context |= {"swap_series": series, "swap_errors": errors.get("", []), "swap_lists": _swap_lists(chosen, errors)}
    return render(request, "clubs/night_detail.html", context, status=status)


# The lists of the swap's form that a refusal of the swap may name.
SWAP_FIELDS = ("first", "second")


def _swap_lists(chosen: tuple[str, str] = ("", ""), errors: Mapping[str, list[str]] | None = None) -> list[SwapList]:
    """The two lists of the swap's form: nobody chosen on the page, or, refused, the players chosen and the refusals
    next to their list."""
    labels = (_("Swap"), _("with"))
    return [
        SwapList(name, label, choice, (errors or {}).get(name, []))
        for name, label, choice in zip(SWAP_FIELDS, labels, chosen, strict=True)
    ]


class SwapList(NamedTuple):
    name: str
    label: str
    chosen: str
    errors: list[str]


def _club_player(club: Club, public_id: str) -> Player | None:
    try:
        key = uuid.UUID(public_id)
    except ValueError:
        return None
    return Player.objects.filter(keeper=club.keeper, public_id=key).first()


def _series(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("series") or request.GET.get("series") or 1)
    except ValueError:
        return 0


@on_night(Action.SCORE)
def night_paper(request: HttpRequest, night: Night, number: int) -> HttpResponse:
    """A table that kept its list on paper: each player's game points, won and lost games."""
    tables = ClubTable.objects.filter(night=night, series=_series(request), number=number)
    table = tables.select_related("match").first()
    if table is None:
        raise Http404
    back = reverse("night_detail", args=[night.public_id])
    night_of = _("Club night of %(date)s") % {"date": date_format(night.date)}
    closed = _("This night is closed: its lists stay as they are.") if night.closed_at else ""
    paper = PaperTable(table.match, table.series, number, night.season.name, "clubs/_base.html", back, night_of, closed)

    def enter(lines: list[PaperTotals], version: TableVersion | None) -> None:
        services.paper_enter(table=table, lines=lines, user=signed_in_account(request), version=version)

    return paper_page(request, paper, enter=enter, done=back + "#results")


@on_night(Action.MANAGE)
@require_POST
def night_close(request: HttpRequest, night: Night) -> HttpResponse:
    """Close the night; where a table on phones has not played its series' games, only once the secretary ticked
    the box, each such table named next to the box otherwise (the rest of a refusal above the page)."""
    form = NightCloseForm(request.POST, auto_id="close_%s")
    try:
        services.night_close(night=night, user=signed_in_account(request), unfinished=form.is_valid())
    except ServiceError as error:
        if any(problem.field == "unfinished" for problem in error.errors):
            # Under the box's own error (not ticked: the night is still open), each table it would close short.
            refusal_on_form(form, error, lambda field: "confirm" if field == "unfinished" else None, request=request)
            return _night_page(request, night, close_form=form, status=error.status)
        refusal_as_messages(request, error)
    else:
        messages.success(request, _("The night is closed: every list is locked."))
    return redirect("night_detail", night_id=night.public_id)


@on_night(Action.REOPEN)
@require_POST
def night_reopen(request: HttpRequest, night: Night) -> HttpResponse:
    services.night_reopen(night=night, user=signed_in_account(request))
    messages.success(request, _("The night is open again; the tables' scoring links stay off until renewed."))
    return redirect("night_detail", night_id=night.public_id)


def closed_table_link(request: HttpRequest, token: str) -> HttpResponse | None:
    """What a table's scoring link opens once its night is closed or its list was entered on paper (the core asks
    when the link opens no match, and when a phone that scored by it asks for the table's page or saves there): that
    the night is closed, with the night's table, first names only where asked; or that the table's list was entered
    on paper, with the way to the night. 410: the link is gone for good. None for a link no such table had."""
    if not token:
        return None
    # The core keeps the link a table had when its night closed or its paper list was entered, and turned it off (a
    # table whose link was off already keeps the one it closed with before); a table entered from paper before the
    # core turned its link off still gives it out.
    ended = Q(match__ended_link=token) & (Q(night__closed_at__isnull=False) | Q(paper=True))
    table = (
        ClubTable.objects.filter(ended | Q(match__invite_token=token, paper=True))
        .select_related("night__season__club")
        .first()
    )
    if table is None:
        return None
    if table.night.closed_at is None:
        return _paper_table_link(request, table)
    night = table.night
    results = night_results(night)
    names = public_names(results.players)
    context = {
        "night": night,
        "club": night.season.club,
        "table": table,
        "rows": standing_rows(results.night_places, names),
    }
    # A save from the table's phone gets the form's place, the page the whole page.
    template = "clubs/night_closed_entry.html" if from_htmx(request) else "clubs/night_closed.html"
    response = render(request, template, context, status=410)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _paper_table_link(request: HttpRequest, table: ClubTable) -> HttpResponse:
    night = table.night
    context = {"night": night, "club": night.season.club, "table": table}
    template = "clubs/table_on_paper_entry.html" if from_htmx(request) else "clubs/table_on_paper.html"
    response = render(request, template, context, status=410)
    patch_vary_headers(response, ("HX-Request",))
    return response


# The places a board of the club's screen shows: a screen from 1280 × 720 to 1920 × 1080 holds that many without
# scrolling, in its large type while neither board has more, else in its smaller one (the smallest read from across
# the room) with the first SCREEN_ROWS_SMALL places and a note of how many more.
SCREEN_ROWS = 12
SCREEN_ROWS_SMALL = 18


class ScreenBoard(NamedTuple):
    """A board of the club's screen: the rows it shows, best first, of ``ranked`` players in all."""

    rows: list[StandingRow]
    ranked: int

    @property
    def by_lot(self) -> bool:
        """Whether a place shown was shared and decided by lot (its star is explained under the board)."""
        return any(row.by_lot for row in self.rows)


@public
@require_safe
def club_screen(request: HttpRequest, token: str) -> HttpResponse:
    """The club's public screen: the night under way (tonight's, else the last one played) and its season's table,
    or the latest season's without one, refreshing itself; players who asked are shown by their first name only.
    Asked again with the ETag of what it shows, a bare 304 while none of it changed, else (asked by htmx) the boards
    alone, without the page around them."""
    club = Club.objects.filter(screen_token=token).first() if token else None
    if club is None:
        raise Http404
    today = timezone.localdate()
    night = night_on_screen(club, today)
    season = night.season if night else club.seasons.first()

    def draw(fragment: bool) -> HttpResponse:
        context: dict[str, Any] = {"club": club, "season": season, "night": night, "today": today, "shared": True}
        # Each board's first places (at least as many as it may show) and how many players it ranks.
        boards: dict[str, Top] = {}
        names: dict[str, str] = {}
        if season is not None:
            tops = screen_tops(season, night, SCREEN_ROWS_SMALL)
            names = public_names(tops.players)
            boards["season"] = tops.season
            if tops.night is not None:
                boards["night"] = tops.night
        small = any(top.ranked > SCREEN_ROWS for top in boards.values())
        shown = SCREEN_ROWS_SMALL if small else SCREEN_ROWS
        context["small"] = small
        for key, top in boards.items():
            context[f"{key}_board"] = ScreenBoard(standing_rows(top.places[:shown], names), top.ranked)
        return render(request, "clubs/_screen_boards.html" if fragment else "clubs/screen.html", context)

    return screen_response(request, screen_state(club, today, night, season), draw)
