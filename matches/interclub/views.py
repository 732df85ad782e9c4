"""The league pages: a venue's match day (check-in, seating, tables with their QR codes, paper lists, results,
closing), its match report (confirmed, accepted, corrected), a group's public table, a team's match days and
roster, the players' ranking, and the league manager's setup. Thin: the services write, the selectors read, the
league's permission answers say who may do what."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from matches.clubs.models import Club, Membership
from matches.errors import ServiceError
from matches.labels import met_again_text
from matches.models import Player
from matches.permissions import Action, on_subject, request_account, signed_in, signed_in_account, visitor_of
from matches.qr import table_join
from matches.records import record_links
from matches.refusals import done_or_refused, refusal_as_messages, refusal_on_form, refusal_texts
from matches.screens import followed_page, screen_response
from matches.services.events import account_named
from matches.services.paper import PaperTotals, TableVersion
from matches.views.common import made_by_form
from matches.views.paper import PaperTable, paper_page

from . import services
from .forms import (
    CaptainForm,
    CheckInForm,
    DivisionForm,
    GroupForm,
    LeagueForm,
    ManagerForm,
    MatchDayForm,
    ReopenForm,
    ReportReadForm,
    RosterForm,
    TeamForm,
    VenueForm,
)
from .models import Division, Group, League, LeagueRole, MatchDay, RosterEntry, Team, Venue, VenueTable
from .permissions import (
    captains,
    league_role,
    manages_league,
    may_accept,
    may_check_in,
    may_confirm,
    may_keep_roster,
    may_seat,
)
from .selectors import (
    group_state,
    group_table,
    met_again_in,
    players_ranking,
    screen_state,
    team_match_days,
    venue_report,
)

# The match days a group's page lists at a time: the latest, and the older ones a page at a time on request.
MATCH_DAYS_SHOWN = 10


def _series_of(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("series") or request.GET.get("series") or 1)
    except ValueError:
        return 1


def _venue_url(venue: Venue, anchor: str = "") -> str:
    return reverse("interclub_venue", args=[venue.public_id]) + anchor


def _captain_named(name: str) -> User | None:
    """The account a team's captain field names (in any case, as ``account_named`` finds it), None when left empty."""
    return account_named(name, "captain") if name.strip() else None


# --- The venue's match day --------------------------------------------------------------------------------------------


def _venue_team(venue: Venue, public_id: str) -> Team | None:
    """The team of the venue of that public id (None for anything else, a malformed id included)."""
    try:
        return Team.objects.filter(public_id=uuid.UUID(public_id), venues__venue=venue).first()
    except ValueError:
        return None


def _roster_of(team: Team) -> list[RosterEntry]:
    return list(team.roster.select_related("player").order_by("substitute", "created_at", "id"))


def _venue_context(
    request: HttpRequest, venue: Venue, forms: dict[tuple[int, int], CheckInForm] | None = None
) -> dict[str, Any]:
    visitor = visitor_of(request)
    report = venue_report(venue)
    seats = may_seat(visitor, venue)
    rosters = {team.pk: _roster_of(team) for team in report.teams}
    checks_in = {team.pk: may_check_in(visitor, venue, team) for team in report.teams}
    series = []
    for result in report.series:
        checked = {team.pk: [player.pk for player in players] for team, players in result.line_ups}
        check_ins = []
        if not result.seated and venue.closed_at is None:
            for team in report.teams:
                # A refused check-in is shown with its reason, even for a team the visitor may not check in.
                if (result.number, team.pk) not in (forms or {}) and not checks_in[team.pk]:
                    continue
                form = (forms or {}).get((result.number, team.pk)) or CheckInForm(
                    series=result.number,
                    team=team,
                    entries=rosters[team.pk],
                    initial={
                        "entries": [
                            str(entry.pk) for entry in rosters[team.pk] if entry.league_player_id in checked[team.pk]
                        ]
                    },
                )
                # The line-up the form is made over goes with it, so that one checked in meanwhile is not replaced
                # unseen.
                check_ins.append((team, form, ",".join(str(player) for player in checked[team.pk])))
        tables = []
        for table in result.tables:
            offered = bool(seats) and not table.complete and venue.closed_at is None
            tables.append(
                {"result": table, "join": table_join(request, table.table.match.invite_token, offered=offered)}
            )
        # Its seating can be dropped until a table entered something.
        entered = any(table.table.paper or table.games for table in result.tables)
        # A series is offered for seating once a team is checked in; a team that is not is left out, and named.
        left_out = [team for team, players in result.line_ups if not players]
        series.append(
            {
                "result": result,
                "check_ins": check_ins,
                "tables": tables,
                "entered": entered,
                "seatable": len(left_out) < len(result.line_ups),
                "left_out": left_out,
            }
        )
    return {
        "venue": venue,
        "match_day": venue.match_day,
        "group": venue.match_day.group,
        "report": report,
        "series": series,
        "may_seat": seats,
        "may_accept": may_accept(visitor, venue),
        "complete": all(one.complete for one in report.series),
        "shared": True,
    }


@on_subject(Action.VIEW, "venue")
@require_safe
def venue_detail(request: HttpRequest, venue: Venue) -> HttpResponse:
    """The venue's page; asked again by its follow, a bare 304 while nothing it shows moved."""
    return followed_page(
        request,
        lambda: (screen_state(venue), request.user.pk),
        lambda: render(request, "interclub/venue_detail.html", _venue_context(request, venue)),
    )


@on_subject(Action.VIEW, "venue")
@require_safe
def venue_screen(request: HttpRequest, venue: Venue) -> HttpResponse:
    """The venue's screen for the host's hall: the series under way with its tables, the series' results, the
    day's league points and the group's table, in type read from across the room, following by itself and
    answered with a bare 304 while nothing changed."""

    def draw(fragment: bool) -> HttpResponse:
        report = venue_report(venue)
        begun = [one for one in report.series if one.seated]
        under_way = next((one for one in begun if not one.complete), begun[-1] if begun else None)
        context = {
            "venue": venue,
            "match_day": venue.match_day,
            "group": venue.match_day.group,
            "report": report,
            "under_way": under_way,
            "ranked": [one for one in report.series if one.places],
            "days": report.days_best_first(),
            "table": group_table(venue.match_day.group),
            "shared": True,
        }
        return render(request, "interclub/_venue_screen.html" if fragment else "interclub/venue_screen.html", context)

    return screen_response(request, screen_state(venue), draw)


def _line_up_shown(request: HttpRequest) -> list[int] | None:
    """The line-up the check-in form was made over (its players' ids in seat order, none for a team not checked
    in), or None for a form that does not say."""
    shown = request.POST.get("shown")
    if shown is None:
        return None
    return [int(one) for one in shown.split(",") if one.isascii() and one.isdigit()]


@on_subject(Action.SCORE, "venue")
@require_POST
def venue_check_in(request: HttpRequest, venue: Venue) -> HttpResponse:
    """A team's line-up for a series; a refusal (a line-up checked in meanwhile that the form did not show, too) is
    said next to the players' choice of that team."""
    series = _series_of(request)
    team = _venue_team(venue, request.POST.get("team", ""))
    if team is None:
        messages.error(request, _("Choose a team of this venue."))
        return redirect(_venue_url(venue, f"#series-{series}"))
    form = CheckInForm(request.POST, series=series, team=team, entries=_roster_of(team))
    status = 400
    if not may_check_in(visitor_of(request), venue, team):
        form.is_valid()
        form.add_error("entries", _("The team's captain, the host's secretaries or the league's managers check it in."))
    elif form.is_valid():
        try:
            services.series_check_in(
                venue=venue,
                series=series,
                team=team,
                entries=form.chosen(),
                user=signed_in_account(request),
                shown=_line_up_shown(request),
            )
        except ServiceError as error:
            refusal_on_form(form, error, lambda field: "entries" if field.startswith("entries") else None)
            status = error.status
        else:
            messages.success(
                request, _("%(team)s is checked in for series %(series)s.") % {"team": team.name, "series": series}
            )
            return redirect(_venue_url(venue, f"#series-{series}"))
    # The refused line-up takes the focus when the page opens, so a phone shows its reason, not the page's top.
    form.fields["entries"].widget.attrs["autofocus"] = True
    context = _venue_context(request, venue, {(series, team.pk): form})
    return render(request, "interclub/venue_detail.html", context, status=status)


def _seating_refused(request: HttpRequest, venue: Venue) -> bool:
    """Seating, paper lists and closing are for the host's secretaries and the league's managers: anybody else who
    scores at the venue (a captain) is told so."""
    if may_seat(visitor_of(request), venue):
        return False
    messages.error(request, _("Only the host's secretaries and the league's managers seat, enter and close a venue."))
    return True


@on_subject(Action.SCORE, "venue")
@require_POST
def venue_seat(request: HttpRequest, venue: Venue) -> HttpResponse:
    """Seat a series; the pairs it seats together again, where it could not avoid them all, are named."""
    series = _series_of(request)
    if not _seating_refused(request, venue) and done_or_refused(
        request,
        lambda: services.series_seat(venue=venue, series=series, user=signed_in_account(request)),
        _("Series %(series)s is seated.") % {"series": series},
    ):
        pairs = met_again_in(venue, series)
        if pairs:
            messages.warning(request, met_again_text(pairs))
    return redirect(_venue_url(venue, f"#series-{series}"))


@on_subject(Action.SCORE, "venue")
@require_POST
def venue_unseat(request: HttpRequest, venue: Venue) -> HttpResponse:
    series = _series_of(request)
    if not _seating_refused(request, venue):
        done_or_refused(
            request,
            lambda: services.series_unseat(venue=venue, series=series),
            _("The seating of series %(series)s is dropped.") % {"series": series},
        )
    return redirect(_venue_url(venue, f"#series-{series}"))


@on_subject(Action.SCORE, "venue")
def venue_paper(request: HttpRequest, venue: Venue, number: int) -> HttpResponse:
    """A table that kept its list on paper: each player's game points, won and lost games."""
    if _seating_refused(request, venue):
        return redirect(_venue_url(venue))
    series = _series_of(request)
    table = VenueTable.objects.filter(venue=venue, series=series, number=number).select_related("match").first()
    if table is None:
        raise Http404
    day = _("Match day %(number)s") % {"number": venue.match_day.number}
    back = " · ".join(part for part in (day, venue.place) if part)
    paper = PaperTable(
        table.match,
        series,
        number,
        venue.place or venue.match_day.group.name,
        "interclub/_base.html",
        _venue_url(venue, f"#series-{series}"),
        back,
        _("This venue is closed: its lists stay as they are.") if venue.closed_at else "",
    )

    def enter(lines: list[PaperTotals], version: TableVersion | None) -> None:
        services.table_paper_enter(table=table, lines=lines, user=signed_in_account(request), version=version)

    return paper_page(request, paper, enter=enter, done=_venue_url(venue, f"#series-{series}"))


@on_subject(Action.SCORE, "venue")
@require_POST
def venue_close(request: HttpRequest, venue: Venue) -> HttpResponse:
    if not _seating_refused(request, venue):
        try:
            services.venue_close(venue=venue, user=signed_in_account(request))
        except ServiceError as error:
            refusal_as_messages(request, error)
        else:
            messages.success(request, _("The venue is closed: every list is locked and its report is ready."))
            return redirect("interclub_report", venue_id=venue.public_id)
    return redirect(_venue_url(venue, "#close"))


# --- The match report -------------------------------------------------------------------------------------------------


def _report_page(
    request: HttpRequest,
    venue: Venue,
    reopen: ReopenForm | None = None,
    status: int = 200,
    refused: list[str] | None = None,
) -> HttpResponse:
    """The report; ``refused``: why a confirmation or acceptance was refused, said at their buttons."""
    visitor = visitor_of(request)
    # The venue's version, read before its report, goes with the page's confirmation and acceptance: a report whose
    # results changed since (or in between) is refused, as through the API.
    version = venue.version
    report = venue_report(venue)
    confirmed = {one.team_id for one in report.confirmed}
    context = {
        "venue": venue,
        "match_day": venue.match_day,
        "group": venue.match_day.group,
        "report": report,
        "version": version,
        "refused": refused or [],
        "days": report.days_best_first(),
        "to_confirm": [team for team in report.teams if team.pk not in confirmed and may_confirm(visitor, venue, team)],
        "confirmed_before": {one.team_id for one, _correction in report.confirmed_before},
        "may_accept": may_accept(visitor, venue),
        "may_reopen": may_accept(visitor, venue) if venue.accepted_at else may_seat(visitor, venue),
        "reopen_form": reopen or ReopenForm(),
    }
    return render(request, "interclub/venue_report.html", context, status=status)


@on_subject(Action.VIEW, "venue")
@require_safe
def venue_report_page(request: HttpRequest, venue: Venue) -> HttpResponse:
    return _report_page(request, venue)


@on_subject(Action.SCORE, "venue")
@require_POST
def venue_confirm(request: HttpRequest, venue: Venue) -> HttpResponse:
    """A captain confirms the report for their team; refused (a report changed since the page showed it, too), the
    report is shown as it stands, the reason at its buttons."""
    team = _venue_team(venue, request.POST.get("team", ""))
    if team is None or not captains(visitor_of(request), team):
        messages.error(request, _("A team's captain confirms its report."))
        return redirect("interclub_report", venue_id=venue.public_id)
    read = ReportReadForm(request.POST)
    if not read.is_valid():
        return _report_page(request, venue, status=400, refused=[str(error) for error in read.errors["version"]])
    try:
        services.report_confirm(
            venue=venue, team=team, user=signed_in_account(request), shown=read.cleaned_data["version"]
        )
    except ServiceError as error:
        return _report_page(request, venue, status=error.status, refused=refusal_texts(error, request))
    messages.success(request, _("%(team)s confirmed the report.") % {"team": team.name})
    return redirect("interclub_report", venue_id=venue.public_id)


@on_subject(Action.MANAGE, "venue")
@require_POST
def venue_accept(request: HttpRequest, venue: Venue) -> HttpResponse:
    """The league's manager accepts the report; refused, as a confirmation is."""
    read = ReportReadForm(request.POST)
    if not read.is_valid():
        return _report_page(request, venue, status=400, refused=[str(error) for error in read.errors["version"]])
    try:
        services.report_accept(venue=venue, user=signed_in_account(request), shown=read.cleaned_data["version"])
    except ServiceError as error:
        return _report_page(request, venue, status=error.status, refused=refusal_texts(error, request))
    messages.success(request, _("The report is accepted: its results are no longer provisional."))
    return redirect("interclub_report", venue_id=venue.public_id)


@on_subject(Action.SCORE, "venue")
@require_POST
def venue_reopen(request: HttpRequest, venue: Venue) -> HttpResponse:
    """Reopen a closed venue so that its lists can be corrected (recorded as a correction): before acceptance
    those who seat it, after acceptance the league's managers, with a reason, said next to its field when missing."""
    visitor = visitor_of(request)
    allowed = may_accept(visitor, venue) if venue.accepted_at else may_seat(visitor, venue)
    if not allowed:
        messages.error(request, _("Only the league's managers correct an accepted report."))
        return redirect("interclub_report", venue_id=venue.public_id)
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.venue_reopen(venue=venue, user=signed_in_account(request), reason=form.cleaned_data["reason"])
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            messages.success(request, _("The venue is open again: its lists can be corrected."))
            return redirect(_venue_url(venue))
    return _report_page(request, venue, form, status=400)


# --- The group's table, a team, the league ----------------------------------------------------------------------------


def _before(request: HttpRequest) -> int | None:
    """The match day number the page lists the ones before; anything but a number of at most five digits (more
    than any group plays, and more than the database compares) lists the latest."""
    value = request.GET.get("before", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 5 else None


def _group_context(request: HttpRequest, group: Group) -> dict[str, Any]:
    league = group.division.league
    manages = manages_league(visitor_of(request), league)
    before = _before(request)
    days = group.match_days.all() if before is None else group.match_days.filter(number__lt=before)
    # However long the group's history, the page reads and draws as many match days.
    latest = list(days.order_by("-number").prefetch_related("venues")[: MATCH_DAYS_SHOWN + 1])
    match_days = latest[:MATCH_DAYS_SHOWN][::-1]
    last = group.match_days.aggregate(last=Max("number"))["last"] or 0
    clubs = [(str(club.public_id), club.name) for club in Club.objects.order_by("name")] if manages else []
    ranking = players_ranking(league, group=group)
    return {
        "league": league,
        "group": group,
        "table": group_table(group),
        "match_days": match_days,
        "earlier": match_days[0].number if len(latest) > MATCH_DAYS_SHOWN else None,
        "paged": before is not None,
        "ranking": ranking,
        "records": record_links(one.player.pk for one in ranking),
        "manages": manages,
        "team_form": TeamForm(clubs=clubs, prefix="team"),
        "match_day_form": MatchDayForm(prefix="day", initial={"number": last + 1}),
        "shared": True,
    }


@on_subject(Action.VIEW, "group")
@require_safe
def group_detail(request: HttpRequest, group: Group) -> HttpResponse:
    """The group's page; asked again by its follow, a bare 304 while its table did not move."""
    return followed_page(
        request,
        lambda: (group_state(group.pk), request.user.pk),
        lambda: render(request, "interclub/group_detail.html", _group_context(request, group)),
    )


@on_subject(Action.MANAGE, "group")
@require_POST
def team_new(request: HttpRequest, group: Group) -> HttpResponse:
    context = _group_context(request, group)
    form = TeamForm(request.POST, clubs=context["team_form"].fields["club"].widget.choices, prefix="team")
    if form.is_valid():
        club = Club.objects.filter(public_id=form.cleaned_data["club"]).first()
        if club is None:
            form.add_error("club", _("Choose a club."))
        else:
            try:
                captain = _captain_named(form.cleaned_data["captain"])
                services.team_enter(group=group, club=club, name=form.cleaned_data["name"], captain=captain)
            except ServiceError as error:
                refusal_on_form(form, error)
            else:
                messages.success(request, _("%(team)s is entered.") % {"team": form.cleaned_data["name"]})
                return redirect("interclub_group", group_id=group.public_id)
    return render(request, "interclub/group_detail.html", context | {"team_form": form}, status=400)


@on_subject(Action.MANAGE, "group")
@require_POST
def match_day_new(request: HttpRequest, group: Group) -> HttpResponse:
    form = MatchDayForm(request.POST, prefix="day")
    if form.is_valid():
        try:
            day = services.match_day_create(group=group, **form.cleaned_data)
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("interclub_venue_new", match_day_id=day.public_id)
    context = _group_context(request, group) | {"match_day_form": form}
    return render(request, "interclub/group_detail.html", context, status=400)


@on_subject(Action.MANAGE, "match_day")
def venue_new(request: HttpRequest, match_day: MatchDay) -> HttpResponse:
    """A venue of the match day with its teams and host."""
    teams = list(Team.objects.filter(group=match_day.group).order_by("name"))
    form = VenueForm(request.POST or None, teams=teams)
    if request.method == "POST" and form.is_valid():
        by_id = {str(team.public_id): team for team in teams}
        chosen = [by_id[one] for one in form.cleaned_data["teams"]]
        try:
            venue = services.venue_create(
                match_day=match_day,
                teams=chosen,
                host_team=by_id[form.cleaned_data["host_team"]],
                place=form.cleaned_data["place"],
            )
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("interclub_venue", venue_id=venue.public_id)
    context = {"match_day": match_day, "group": match_day.group, "form": form, "venues": match_day.venues.all()}
    return render(request, "interclub/venue_new.html", context, status=400 if form.errors else 200)


def _team_context(request: HttpRequest, team: Team, roster_form: RosterForm | None = None) -> dict[str, Any]:
    keeps = may_keep_roster(visitor_of(request), team)
    on_roster = team.roster.values_list("player_id", flat=True)
    players = Player.objects.filter(keeper=team.club.keeper).exclude(pk__in=on_roster).order_by("name")
    return {
        "team": team,
        "group": team.group,
        "days": team_match_days(team),
        "roster": _roster_of(team),
        "keeps": keeps,
        "roster_form": roster_form
        or RosterForm(players=[(str(player.public_id), player.name) for player in players] if keeps else []),
        "captain_form": CaptainForm(initial={"captain": team.captain.username if team.captain else ""}),
    }


@on_subject(Action.VIEW, "team")
@require_safe
def team_detail(request: HttpRequest, team: Team) -> HttpResponse:
    return render(request, "interclub/team_detail.html", _team_context(request, team))


@on_subject(Action.MANAGE, "team")
@require_POST
def team_roster(request: HttpRequest, team: Team) -> HttpResponse:
    """Add a player of the club's book to the team's roster, or take one off (``remove``)."""
    if "remove" in request.POST:
        remove = request.POST.get("remove", "")
        entry = RosterEntry.objects.filter(team=team, pk=int(remove)).first() if remove.isdigit() else None
        if entry is None:
            raise Http404
        done_or_refused(request, lambda: services.roster_remove(entry=entry))
        return redirect(reverse("interclub_team", args=[team.public_id]) + "#roster")
    players = Player.objects.filter(keeper=team.club.keeper).order_by("name")
    form = RosterForm(request.POST, players=[(str(player.public_id), player.name) for player in players])
    if form.is_valid():
        player = players.filter(public_id=form.cleaned_data["player"]).first()
        if player is None:
            form.add_error("player", _("Not a player of this club."))
        else:
            try:
                services.roster_add(
                    team=team,
                    player=player,
                    federation_number=form.cleaned_data["federation_number"],
                    substitute=form.cleaned_data["substitute"],
                    by=request_account(request),
                )
            except ServiceError as error:
                refusal_on_form(form, error)
            else:
                return redirect(reverse("interclub_team", args=[team.public_id]) + "#roster")
    return render(request, "interclub/team_detail.html", _team_context(request, team, form), status=400)


@on_subject(Action.MANAGE, "team")
@require_POST
def team_captain(request: HttpRequest, team: Team) -> HttpResponse:
    form = CaptainForm(request.POST)
    if form.is_valid():
        try:
            services.team_captain_set(team=team, captain=_captain_named(form.cleaned_data["captain"]))
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("interclub_team", team_id=team.public_id)
    context = _team_context(request, team) | {"captain_form": form}
    return render(request, "interclub/team_detail.html", context, status=400)


def _league_context(request: HttpRequest, league: League) -> dict[str, Any]:
    divisions = list(Division.objects.filter(league=league).prefetch_related("groups"))
    visitor = visitor_of(request)
    manages = manages_league(visitor, league)
    ranking = players_ranking(league)
    return {
        "league": league,
        "divisions": divisions,
        "ranking": ranking,
        "records": record_links(one.player.pk for one in ranking),
        "manages": manages,
        "managers": league.managers.select_related("user").order_by("role", "user__username") if manages else (),
        "gives_roles": league_role(visitor, league) is LeagueRole.OWNER,
        "division_form": DivisionForm(prefix="division"),
        "group_form": GroupForm(divisions=divisions, prefix="group"),
        "manager_form": ManagerForm(prefix="manager"),
    }


@on_subject(Action.VIEW, "league")
@require_safe
def league_detail(request: HttpRequest, league: League) -> HttpResponse:
    return render(request, "interclub/league_detail.html", _league_context(request, league))


@on_subject(Action.ROLES, "league")
@require_POST
def league_manager_new(request: HttpRequest, league: League) -> HttpResponse:
    """Give an account a role at the league: a manager, or an owner who gives roles too (and hands the league on)."""
    form = ManagerForm(request.POST, prefix="manager")
    if form.is_valid():
        try:
            user = account_named(form.cleaned_data["username"])
            services.league_manager_set(league=league, user=user, role=form.cleaned_data["role"])
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            messages.success(request, _("%(name)s runs the league now.") % {"name": user.username})
            return redirect("interclub_league", league_id=league.public_id)
    context = _league_context(request, league) | {"manager_form": form}
    return render(request, "interclub/league_detail.html", context, status=400)


@on_subject(Action.MANAGE, "league")
@require_POST
def division_new(request: HttpRequest, league: League) -> HttpResponse:
    form = DivisionForm(request.POST, prefix="division")
    if form.is_valid():
        try:
            services.division_create(league=league, **form.cleaned_data)
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("interclub_league", league_id=league.public_id)
    context = _league_context(request, league) | {"division_form": form}
    return render(request, "interclub/league_detail.html", context, status=400)


@on_subject(Action.MANAGE, "league")
@require_POST
def group_new(request: HttpRequest, league: League) -> HttpResponse:
    form = GroupForm(request.POST, divisions=list(Division.objects.filter(league=league)), prefix="group")
    if form.is_valid():
        data = form.cleaned_data
        try:
            group = services.group_create(
                division=form.chosen_division(),
                name=data["name"],
                promoted=data["promoted"],
                relegated=data["relegated"],
            )
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("interclub_group", group_id=group.public_id)
    context = _league_context(request, league) | {"group_form": form}
    return render(request, "interclub/league_detail.html", context, status=400)


@signed_in
def league_new(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            owner, settings = signed_in_account(request), form.settings()
            league = made_by_form(request, form, League, lambda: services.league_create(owner=owner, settings=settings))
        except ServiceError as error:
            refusal_on_form(form, error)
        else:
            return redirect("interclub_league", league_id=league.public_id)
    account = signed_in_account(request)
    leagues = League.objects.filter(managers__user=account).order_by("name")
    teams = Team.objects.filter(captain=account).select_related("group")
    clubs = Membership.objects.filter(user=account).values("club_id")
    club_teams = Team.objects.filter(club_id__in=clubs).select_related("group").order_by("name")
    context = {"form": form, "leagues": leagues, "teams": (teams | club_teams).distinct()}
    return render(request, "interclub/league_new.html", context, status=400 if form.errors else 200)
