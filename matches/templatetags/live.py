"""The live parts of the match page, written out rather than through templates of their own: the status with the
totals and the next deal, the notice with the way back, the chart, the sheet's totals and the page's follow marker.
Every save's answer draws them all, and through Django's templates they were most of what answering a save cost; the
answer itself is put together here too (``saved_answer``), without a template around the parts.

Each tag writes what its template wrote, and escapes as it did, by construction: every part is put together with
``format_html`` (or ``format_html_join``), which escapes each value it is given unless it is already safe HTML, so a
value cannot reach the page as markup; sentences with values are filled as ``{% blocktranslate %}`` fills them
(``filled``: the values escaped, and the sentence too), and parts are put side by side escaped unless already safe
(``joined``).
"""

from typing import Any

from django import template
from django.contrib.messages import get_messages
from django.http import HttpRequest
from django.template import Context
from django.template.context_processors import csrf
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from ..addresses import address
from ..following import follow_steps_text
from ..htmx import from_htmx
from ..labels import bock_label, total_label
from ..preferences import deck_of
from ..selectors import Sheet
from .scores import NOTHING, filled, joined, match_share_text, sheet_row, signed

register = template.Library()

OOB = mark_safe(' hx-swap-oob="true"')


def _oob(oob: bool) -> SafeString:
    return OOB if oob else NOTHING


def _csrf_input(context: Context) -> SafeString:
    """The form's CSRF field, as ``{% csrf_token %}`` writes it."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return NOTHING
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


@register.simple_tag(takes_context=True)
def match_status(context: Context, oob: bool = False) -> SafeString:
    """The match's name and kind, the totals in seat order, and who deals and leads next (or that the list is done)."""
    match, sheet = context["match"], context["sheet"]
    name = str(match.title or context.get("variant_name", ""))
    heading = [format_html("<strong>{}</strong>", name), str(context.get("scheme_name", ""))]
    left = sheet.games_left
    if left is not None:
        heading.append(filled(ngettext("%(left)s game left", "%(left)s games left", left), left=left))
    if sheet.paper:
        heading.append(gettext("kept on paper"))
    totals = format_html_join(
        "",
        '<li><span class="name">{}</span> <span class="total">{}</span></li>',
        ((seat.player.name, total_label(total)) for seat, total in sheet.standings),
    )
    return format_html(
        '<div class="status" id="status"{}><div class="title-row"><h1 class="title">{}</h1>'
        '<button type="button" class="table-mode-toggle" data-table-mode aria-pressed="false">{}</button></div>'
        '<ol class="totals" aria-label="{}" data-share-text="{}">{}</ol>{}</div>',
        _oob(oob),
        joined(" · ", heading),
        gettext("Table mode"),
        gettext("Totals"),
        match_share_text(name, sheet.standings),
        totals,
        _deal_line(context, sheet),
    )


def _deal_line(context: Context, sheet: Sheet) -> SafeString:
    if sheet.finished:
        if sheet.paper:
            done = gettext("The list was kept on paper: the totals are as they were entered from it.")
        else:
            done = gettext("The series is complete.")
        return format_html('<p class="deal">{}</p>', done)
    said = [
        filled(
            gettext("Game %(number)s: %(dealer)s deals, %(forehand)s leads."),
            number=sheet.next_number,
            dealer=sheet.next_dealer_name,
            forehand=sheet.next_forehand_name,
        )
    ]
    if sheet.next_sitting_out_name:
        said.append(filled(gettext("%(name)s sits out."), name=sheet.next_sitting_out_name))
    if sheet.next_bock:
        on_this = filled(gettext("%(bock)s on this game."), bock=bock_label(sheet.next_bock))
        after = sheet.bock_games_after
        if after:
            more: str = filled(
                ngettext("%(after)s more Bock game after it.", "%(after)s more Bock games after it.", after),
                after=after,
            )
        else:
            more = gettext("The last Bock game for now.")
        said.append(format_html('<strong class="bock">{}</strong> <span class="bock">{}</span>', on_this, more))
    access = context.get("access")
    passing = NOTHING
    if access is not None and access.can_score and sheet.next.can_pass:
        url = address("game_pass", context["match"].public_id)
        passing = format_html(
            '<form method="post" class="pass" action="{}" hx-post="{}" hx-swap="none">{}'
            '<input type="hidden" name="token" value="{}">'
            '<input type="hidden" name="number" value="{}">'
            '<button type="submit">{}</button></form>',
            url,
            url,
            _csrf_input(context),
            context.get("pass_token", ""),
            sheet.next_number,
            gettext("All passed"),
        )
    return format_html('<div class="deal-line"><p class="deal">{}</p>{}</div>', joined(" ", said), passing)


@register.simple_tag(takes_context=True)
def match_notice(context: Context, oob: bool = False) -> SafeString:
    """What was just done (the page's messages, the game a save added and what it gave whom), and the way back: the
    undo and redo of the last change. Hidden while there is nothing to say."""
    request = context.get("request")
    messages = context.get("messages") if request is not None and from_htmx(request) else None
    new_row, undo, redo = context.get("new_row"), context.get("undo"), context.get("redo")
    said = []
    if messages:
        listed = format_html_join("", '<li class="{}">{}</li>', ((message.tags, message) for message in messages))
        said.append(format_html('<ul class="messages" role="status">{}</ul>', listed))
    if new_row:
        said.append(format_html('<p class="saved" role="status">{}</p>', _saved_text(context, new_row)))
    backs = []
    if undo:
        backs.append(_step_back(context, "match_undo", "undo", undo))
    if redo:
        backs.append(_step_back(context, "match_redo", "redo", redo))
    shown = NOTHING if new_row or undo or redo or messages else mark_safe(" hidden")
    return format_html(
        '<div id="notice" class="notice"{}{}>{}<div class="step-backs">{}</div></div>',
        _oob(oob),
        shown,
        joined("", said),
        joined("", backs),
    )


def _saved_text(context: Context, new_row: Any) -> SafeString:
    if new_row.game.passed:
        return filled(gettext("Game %(number)s saved: all passed."), number=new_row.number)
    scores = context.get("saved_scores") or []
    gains = format_html_join(
        ", ", "<strong>{} {}</strong>", ((seat.player.name, signed(points)) for seat, points in scores)
    )
    headline = filled(gettext("Game %(number)s saved:"), number=new_row.number)
    return format_html("{} {}", headline, gains or gettext("nobody scores."))


def _step_back(context: Context, url_name: str, way: str, change: Any) -> SafeString:
    """The form that takes the last change back (``undo``) or does again what an undo took back (``redo``)."""
    described = f"{way}-what"
    return format_html(
        '<form method="post" action="{}" class="step-back">{}'
        '<input type="hidden" name="token" value="{}">'
        '<input type="hidden" name="change" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<button type="submit" aria-describedby="{}">{}</button>'
        '<span class="help" id="{}">{}</span></form>',
        address(url_name, context["match"].public_id),
        _csrf_input(context),
        context.get(f"{way}_token", ""),
        change.public_id,
        context["match"].version,
        described,
        context.get(f"{way}_label", ""),
        described,
        context.get(f"{way}_text", ""),
    )


@register.simple_tag(takes_context=True)
def match_chart(context: Context, oob: bool = False) -> SafeString:
    """The running totals as a picture (fetched anew with each version), its key with each seat's total."""
    match = context["match"]
    body = NOTHING
    if match.deals:
        share_token = context.get("share_token")
        if share_token:
            url = reverse("match_spectate_chart", args=[share_token])
        else:
            url = address("match_chart", match.public_id)
        key = format_html_join(
            "",
            '<span class="key seat-{}">{} {}</span>',
            (
                (place, seat.player.name, total_label(total))
                for place, (seat, total) in enumerate(context["sheet"].standings)
            ),
        )
        body = format_html(
            '<img src="{}?v={}" alt="{}" width="320" height="160" loading="lazy"><figcaption>{}</figcaption>',
            url,
            match.version,
            gettext("Running totals over the match"),
            key,
        )
    return format_html('<figure class="chart" id="chart"{}>{}</figure>', _oob(oob), body)


@register.simple_tag(takes_context=True)
def sheet_totals(context: Context, oob: bool = False) -> SafeString:
    """The sheet's foot: each seat's total."""
    prefix = context.get("prefix") or "sheet"
    cells = format_html_join(
        "", '<td class="num"><strong>{}</strong></td>', ((total_label(total),) for total in context["sheet"].totals)
    )
    return format_html(
        '<tfoot id="{}-totals"{}><tr><th scope="row" colspan="2">{}</th>{}</tr></tfoot>',
        prefix,
        _oob(oob),
        gettext("Total"),
        cells,
    )


@register.simple_tag(takes_context=True)
def match_follow(context: Context, oob: bool = False) -> SafeString:
    """The marker the scorer's page follows other phones' changes by: it asks with the version it shows, when
    ``entry.js`` says."""
    match = context["match"]
    return format_html(
        '<div id="follow" hx-get="{}?version={}" hx-trigger="follow" data-follow="{}" hx-swap="outerHTML"{}></div>',
        address("match_follow", match.public_id),
        match.version,
        follow_steps_text(),
        _oob(oob),
    )


def saved_answer(request: HttpRequest, values: dict[str, Any]) -> SafeString:
    """A save's answer, everything out of band: the status, the notice, the follow marker and, if the save added a
    row, the row with the sheet's totals (the whole sheet for the first game) and the chart. The next deal's entry
    goes as a marker with its token, number and version where the phone keeps its fields (``next_entry``), otherwise
    as the form. Only the form and the first game's sheet are drawn through their templates."""
    given = {**values, "request": request, "deck": deck_of(request), "messages": get_messages(request), **csrf(request)}
    context = Context(given)
    parts = [match_status(context, oob=True), match_notice(context, oob=True), _next_entry(request, given)]
    parts.append(match_follow(context, oob=True))
    new_row = values.get("new_row")
    if new_row:
        if new_row.number == 1:
            parts.append(_drawn(request, given, "matches/partials/_sheet.html", oob_sheet=True))
        else:
            # Table parts travel as partials (templates to the HTML parser): outside a table it would drop them.
            parts += [
                format_html(
                    '<hx-partial hx-target="#sheet-rows" hx-swap="beforeend">{}</hx-partial>',
                    sheet_row(context, new_row),
                ),
                format_html(
                    '<hx-partial hx-target="#sheet-totals" hx-swap="outerHTML">{}</hx-partial>', sheet_totals(context)
                ),
            ]
        parts.append(match_chart(context, oob=True))
    return joined("\n", parts)


def _next_entry(request: HttpRequest, given: dict[str, Any]) -> SafeString:
    """The next deal's marker for a phone that keeps its fields, or the form."""
    entry = given.get("next_entry")
    if not entry:
        return _drawn(request, given, "matches/partials/_form.html", oob=True)
    sheet, seating = given["sheet"], given["sheet"].next.seating
    return format_html(
        '<div id="entry-next"{} hidden data-token="{}" data-number="{}" data-version="{}" data-dealer="{}" '
        'data-forehand="{}" data-start="{}" data-hint="{}"></div>',
        OOB,
        entry.token,
        sheet.next_number,
        given["match"].version,
        seating.dealer,
        seating.forehand,
        entry.starting_values,
        entry.preselected_hint,
    )


def _drawn(request: HttpRequest, given: dict[str, Any], name: str, **extra: object) -> SafeString:
    """A part drawn through its template, with what the answer's other parts were given (its CSRF token among them:
    one masked token for all the answer's forms)."""
    return render_to_string(name, given | extra, request)
