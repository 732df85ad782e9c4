"""The live parts of the match page, written out rather than through templates of their own: the status with the
totals and the next deal, the notice with the way back, the chart, the sheet's totals and the page's follow marker.
Every save's answer draws them all, and through Django's templates they were most of what answering a save cost; the
answer itself is put together here too (``saved_answer``), without a template around the parts.

Each tag writes what its template wrote: translated words as ``{% translate %}`` escapes them, sentences with values
as ``{% blocktranslate %}`` fills them (the values escaped), and every value escaped.
"""

from typing import Any

from django import template
from django.contrib.messages import get_messages
from django.http import HttpRequest
from django.template import Context
from django.template.context_processors import csrf
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from ..addresses import address
from ..following import follow_steps_text
from ..htmx import from_htmx
from ..labels import bock_label, total_label
from ..preferences import deck_of
from ..selectors import Sheet
from .scores import escaped, match_share_text, sheet_row, signed

register = template.Library()

OOB = ' hx-swap-oob="true"'


def _filled(sentence: str, **values: object) -> str:
    """A translated sentence with its values put in, escaped, as ``{% blocktranslate %}`` writes it."""
    return sentence % {name: escaped(value) for name, value in values.items()}


def _csrf_input(context: Context) -> str:
    """The form's CSRF field, as ``{% csrf_token %}`` writes it."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{escaped(token)}">'


@register.simple_tag(takes_context=True)
def match_status(context: Context, oob: bool = False) -> SafeString:
    """The match's name and kind, the totals in seat order, and who deals and leads next (or that the list is done)."""
    match, sheet = context["match"], context["sheet"]
    name = str(match.title or context.get("variant_name", ""))
    title = escaped(name)
    heading = f"<strong>{title}</strong> · {escaped(context.get('scheme_name', ''))}"
    left = sheet.games_left
    if left is not None:
        heading += " · " + _filled(ngettext("%(left)s game left", "%(left)s games left", left), left=left)
    if sheet.paper:
        heading += " · " + escaped(gettext("kept on paper"))
    share_text = match_share_text(name, sheet.standings)
    totals = "".join(
        f'<li><span class="name">{escaped(seat.player.name)}</span> '
        f'<span class="total">{escaped(total_label(total))}</span></li>'
        for seat, total in sheet.standings
    )
    return mark_safe(
        f'<div class="status" id="status"{OOB if oob else ""}>'
        f'<div class="title-row"><h1 class="title">{heading}</h1>'
        f'<button type="button" class="table-mode-toggle" data-table-mode aria-pressed="false">'
        f"{escaped(gettext('Table mode'))}</button></div>"
        f'<ol class="totals" aria-label="{escaped(gettext("Totals"))}" data-share-text="{escaped(share_text)}">'
        f"{totals}</ol>{_deal_line(context, sheet)}</div>"
    )


def _deal_line(context: Context, sheet: Sheet) -> str:
    if sheet.finished:
        if sheet.paper:
            done = gettext("The list was kept on paper: the totals are as they were entered from it.")
        else:
            done = gettext("The series is complete.")
        return f'<p class="deal">{escaped(done)}</p>'
    said = [
        _filled(
            gettext("Game %(number)s: %(dealer)s deals, %(forehand)s leads."),
            number=sheet.next_number,
            dealer=sheet.next_dealer_name,
            forehand=sheet.next_forehand_name,
        )
    ]
    if sheet.next_sitting_out_name:
        said.append(_filled(gettext("%(name)s sits out."), name=sheet.next_sitting_out_name))
    if sheet.next_bock:
        on_this = _filled(gettext("%(bock)s on this game."), bock=bock_label(sheet.next_bock))
        after = sheet.bock_games_after
        if after:
            more = _filled(
                ngettext("%(after)s more Bock game after it.", "%(after)s more Bock games after it.", after),
                after=after,
            )
        else:
            more = escaped(gettext("The last Bock game for now."))
        said.append(f'<strong class="bock">{on_this}</strong> <span class="bock">{more}</span>')
    access = context.get("access")
    passing = ""
    if access is not None and access.can_score and sheet.next.can_pass:
        url = address("game_pass", context["match"].public_id)
        passing = (
            f'<form method="post" class="pass" action="{url}" hx-post="{url}" hx-swap="none">{_csrf_input(context)}'
            f'<input type="hidden" name="token" value="{escaped(context.get("pass_token", ""))}">'
            f'<input type="hidden" name="number" value="{sheet.next_number}">'
            f'<button type="submit">{escaped(gettext("All passed"))}</button></form>'
        )
    return f'<div class="deal-line"><p class="deal">{" ".join(said)}</p>{passing}</div>'


@register.simple_tag(takes_context=True)
def match_notice(context: Context, oob: bool = False) -> SafeString:
    """What was just done (the page's messages, the game a save added and what it gave whom), and the way back: the
    undo and redo of the last change. Hidden while there is nothing to say."""
    request = context.get("request")
    messages = context.get("messages") if request is not None and from_htmx(request) else None
    new_row, undo, redo = context.get("new_row"), context.get("undo"), context.get("redo")
    said = ""
    if messages:
        listed = "".join(f'<li class="{escaped(message.tags)}">{escaped(message)}</li>' for message in messages)
        said += f'<ul class="messages" role="status">{listed}</ul>'
    if new_row:
        said += f'<p class="saved" role="status">{_saved_text(context, new_row)}</p>'
    backs = ""
    if undo:
        backs += _step_back(context, "match_undo", "undo", undo)
    if redo:
        backs += _step_back(context, "match_redo", "redo", redo)
    shown = "" if new_row or undo or redo or messages else " hidden"
    return mark_safe(
        f'<div id="notice" class="notice"{OOB if oob else ""}{shown}>{said}<div class="step-backs">{backs}</div></div>'
    )


def _saved_text(context: Context, new_row: Any) -> str:
    if new_row.game.passed:
        return _filled(gettext("Game %(number)s saved: all passed."), number=new_row.number)
    scores = context.get("saved_scores") or []
    gains = ", ".join(
        f"<strong>{escaped(seat.player.name)} {escaped(signed(points))}</strong>" for seat, points in scores
    )
    headline = _filled(gettext("Game %(number)s saved:"), number=new_row.number)
    return f"{headline} {gains or escaped(gettext('nobody scores.'))}"


def _step_back(context: Context, url_name: str, way: str, change: Any) -> str:
    """The form that takes the last change back (``undo``) or does again what an undo took back (``redo``)."""
    url = address(url_name, context["match"].public_id)
    described = f"{way}-what"
    return (
        f'<form method="post" action="{url}" class="step-back">{_csrf_input(context)}'
        f'<input type="hidden" name="token" value="{escaped(context.get(f"{way}_token", ""))}">'
        f'<input type="hidden" name="change" value="{escaped(change.public_id)}">'
        f'<input type="hidden" name="version" value="{context["match"].version}">'
        f'<button type="submit" aria-describedby="{described}">{escaped(context.get(f"{way}_label", ""))}</button>'
        f'<span class="help" id="{described}">{escaped(context.get(f"{way}_text", ""))}</span></form>'
    )


@register.simple_tag(takes_context=True)
def match_chart(context: Context, oob: bool = False) -> SafeString:
    """The running totals as a picture (fetched anew with each version), its key with each seat's total."""
    match = context["match"]
    body = ""
    if match.deals:
        share_token = context.get("share_token")
        if share_token:
            url = reverse("match_spectate_chart", args=[share_token])
        else:
            url = address("match_chart", match.public_id)
        key = "".join(
            f'<span class="key seat-{place}">{escaped(seat.player.name)} {escaped(total_label(total))}</span>'
            for place, (seat, total) in enumerate(context["sheet"].standings)
        )
        body = (
            f'<img src="{escaped(url)}?v={match.version}" alt="{escaped(gettext("Running totals over the match"))}" '
            f'width="320" height="160" loading="lazy"><figcaption>{key}</figcaption>'
        )
    return mark_safe(f'<figure class="chart" id="chart"{OOB if oob else ""}>{body}</figure>')


@register.simple_tag(takes_context=True)
def sheet_totals(context: Context, oob: bool = False) -> SafeString:
    """The sheet's foot: each seat's total."""
    prefix = context.get("prefix") or "sheet"
    totals = context["sheet"].totals
    cells = "".join(f'<td class="num"><strong>{escaped(total_label(total))}</strong></td>' for total in totals)
    return mark_safe(
        f'<tfoot id="{escaped(prefix)}-totals"{OOB if oob else ""}><tr>'
        f'<th scope="row" colspan="2">{escaped(gettext("Total"))}</th>{cells}</tr></tfoot>'
    )


@register.simple_tag(takes_context=True)
def match_follow(context: Context, oob: bool = False) -> SafeString:
    """The marker the scorer's page follows other phones' changes by: it asks with the version it shows, when
    ``entry.js`` says."""
    match = context["match"]
    url = address("match_follow", match.public_id)
    return mark_safe(
        f'<div id="follow" hx-get="{url}?version={match.version}" hx-trigger="follow" '
        f'data-follow="{follow_steps_text()}" hx-swap="outerHTML"{OOB if oob else ""}></div>'
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
                f'<hx-partial hx-target="#sheet-rows" hx-swap="beforeend">{sheet_row(context, new_row)}</hx-partial>',
                f'<hx-partial hx-target="#sheet-totals" hx-swap="outerHTML">{sheet_totals(context)}</hx-partial>',
            ]
        parts.append(match_chart(context, oob=True))
    return mark_safe("\n".join(parts))


def _next_entry(request: HttpRequest, given: dict[str, Any]) -> str:
    """The next deal's marker for a phone that keeps its fields, or the form."""
    entry = given.get("next_entry")
    if not entry:
        return _drawn(request, given, "matches/partials/_form.html", oob=True)
    sheet, seating = given["sheet"], given["sheet"].next.seating
    return (
        f'<div id="entry-next"{OOB} hidden data-token="{escaped(entry.token)}" data-number="{sheet.next_number}" '
        f'data-version="{given["match"].version}" data-dealer="{seating.dealer}" data-forehand="{seating.forehand}" '
        f'data-start="{escaped(entry.starting_values)}" data-hint="{escaped(entry.preselected_hint)}"></div>'
    )


def _drawn(request: HttpRequest, given: dict[str, Any], name: str, **extra: object) -> str:
    """A part drawn through its template, with what the answer's other parts were given (its CSRF token among them:
    one masked token for all the answer's forms)."""
    return render_to_string(name, given | extra, request)
