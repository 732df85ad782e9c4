"""A table's paper list page, for every kind of event: the event's view finds the table and checks who may enter it,
then hands over here with how to enter the list (its app's service) and where to go once it is in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..forms.paper import PaperForm
from ..models import Match
from ..papers import PaperStanding, paper_standing
from ..services.paper import PaperMoved, PaperTotals, TableVersion


@dataclass(frozen=True)
class PaperTable:
    """The table whose list is entered, as its event's page names it: its match, series and number, the event's
    name (for the title), its layout (``base``: the template the page extends) and the way back to the event;
    ``closed``: why no list is entered now (its night, venue or series closed), said instead of the form."""

    match: Match
    series: int
    number: int
    event: str
    base: str
    back_url: str
    back_label: str
    closed: str = ""


def paper_page(
    request: HttpRequest,
    table: PaperTable,
    *,
    enter: Callable[[list[PaperTotals], TableVersion | None], object],
    done: str,
) -> HttpResponse:
    """The paper list of ``table``: the form, filled with what was entered before and made out on the table as it
    stands (its match, its seats, the match's version); posted, the lines are entered by ``enter`` with the table the
    form was made out on (the app's service, which refuses as it does, each refusal next to the number it names) and
    the page goes on to ``done``. A form made out before the table changed elsewhere (another list entered, two seats
    swapped, the series drawn again) is refused (409) with the list as it stands and who entered it when, what was
    typed kept beside its player and the form made out anew, to send again once looked at. Where the event says the
    list is ``closed``, the page says why and has no form to fill in (a list sent all the same is refused, 409)."""
    if table.closed:
        refused = request.method == "POST"
        status = 409 if refused else 200
        return render(request, "matches/paper.html", {"table": table, "refused": refused}, status=status)
    form = PaperForm.of_table(request.POST or None, table.match)
    standing: PaperStanding | None = None
    status = 400
    if request.method == "POST" and form.is_valid():
        try:
            enter(form.lines(), form.seen())
        except PaperMoved as error:
            form.renew(version=error.version)
            form.add_line_errors(error)
            standing = paper_standing(table.match)
            status = error.status
        except ServiceError as error:
            form.add_line_errors(error)
            status = error.status
        else:
            messages.success(request, _("The list of table %(number)s is entered.") % {"number": table.number})
            return redirect(done)
    if form.errors:
        form.focus_first_error()
    context = {"table": table, "form": form, "standing": standing}
    return render(request, "matches/paper.html", context, status=status if form.errors else 200)
