"""Ranking lists: one's own and one's clubs', defining and changing one, a period's list as it stands or as it was
published (and each edition it replaced), publishing it (anew, a list of it corrected), and deleting the list."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST, require_safe

from ..downloads import Printed
from ..errors import ServiceError
from ..exports.rankings import part_period, period_part, ranking_sheet
from ..exports.sheets import SheetExport, sheet_pdf
from ..forms.fields import WholeNumberField
from ..models import Counted, Method, Period, RankingEdition, RankingList
from ..permissions import Action, on_subject, signed_in, signed_in_account, visitor_of
from ..rankings import (
    NoSuchEdition,
    Ranked,
    countable_events,
    current_edition,
    cursor_period,
    period_editions,
    period_known,
    ranked_by,
    ranking_page,
    ranking_periods,
    ranking_shown,
)
from ..refusals import refusal_on_form
from ..registry import closed_lists_label, lists_circles, lists_circles_of
from ..services.rankings import MAX_REASON, RankingForm, ranking_delete, ranking_due, ranking_publish, ranking_save

# The places of a ranking list shown at a time.
PLACES_PER_PAGE = 100


class RankingListForm(forms.Form):
    """A ranking list's definition, with the events and clubs the account may count offered."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events that count"), widget=forms.CheckboxSelectMultiple, required=False
    )
    date_from = forms.DateField(
        label=gettext_lazy("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(label=gettext_lazy("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    period = forms.ChoiceField(
        label=gettext_lazy("Lists"), choices=Period.choices, initial=Period.WHOLE, widget=forms.RadioSelect
    )
    counted = forms.ChoiceField(
        label=gettext_lazy("Who counts"), choices=Counted.choices, initial=Counted.EVERYBODY, widget=forms.RadioSelect
    )
    circle = forms.ChoiceField(label=gettext_lazy("Club"), required=False)
    method = forms.ChoiceField(
        label=gettext_lazy("Method"), choices=Method.choices, initial=Method.AVERAGE, widget=forms.RadioSelect
    )
    minimum = WholeNumberField(
        label=gettext_lazy("Minimum number of series"),
        initial=1,
        help_text=gettext_lazy("By the average: who played fewer series in a period is not ranked."),
    )
    best = WholeNumberField(
        label=gettext_lazy("Best results counted"),
        initial=1,
        help_text=gettext_lazy("By the best results: a result is one's series at one event, summed."),
    )
    places = forms.CharField(
        label=gettext_lazy("Points per place"),
        required=False,
        help_text=gettext_lazy("By placement points: the first place's points first, e.g. 100 80 65 55 50."),
    )
    field = WholeNumberField(
        label=gettext_lazy("Field the points are for"),
        initial=100,
        help_text=gettext_lazy("A place's points count in full at an event of this many players, in proportion else."),
    )
    public = forms.BooleanField(label=gettext_lazy("Everybody sees the list"), required=False)

    def __init__(self, *args: Any, account: Any, kept: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        events, circles = self.fields["events"], self.fields["circle"]
        assert isinstance(events, forms.ChoiceField)
        assert isinstance(circles, forms.ChoiceField)
        events.choices = [
            (
                str(event.within),
                f"{event.name} ({closed_lists_label(event.kind)}, {date_format(event.last, 'SHORT_DATE_FORMAT')})",
            )
            for event in countable_events(account, keep=kept or [])
        ]
        circles.choices = [("", "—")] + [(str(key), name) for key, _, name in lists_circles(account)]

    def clean_places(self) -> list[int]:
        raw = self.cleaned_data.get("places", "").replace(",", " ").replace(";", " ").split()
        if not all(part.isascii() and part.isdigit() and len(part) <= 5 for part in raw):
            raise forms.ValidationError(_("Write the points as whole numbers, the first place's first."))
        return [int(part) for part in raw]

    def definition(self) -> RankingForm:
        data = self.cleaned_data
        return RankingForm(
            name=data["name"],
            events=data["events"],
            date_from=data["date_from"],
            date_to=data["date_to"],
            period=data["period"],
            counted=data["counted"],
            circle=data["circle"],
            method=data["method"],
            minimum=data["minimum"],
            best=data["best"],
            places=data["places"],
            field=data["field"],
            public=data["public"],
        )


def _initial(ranking: RankingList) -> dict[str, Any]:
    circles = lists_circles(ranking.owner) if ranking.owner is not None else []
    circle = next((str(key) for key, book, _ in circles if book == ranking.book_id), "")
    return {
        "name": ranking.name,
        "events": ranking.events,
        "date_from": ranking.date_from,
        "date_to": ranking.date_to,
        "period": ranking.period,
        "counted": ranking.counted,
        "circle": circle,
        "method": ranking.method,
        "minimum": ranking.minimum,
        "best": ranking.best,
        "places": " ".join(str(points) for points in ranking.places),
        "field": ranking.field,
        "public": ranking.public,
    }


def _saved(request: HttpRequest, form: RankingListForm, ranking: RankingList | None) -> RankingList | None:
    if not form.is_valid():
        return None
    try:
        return ranking_save(owner=signed_in_account(request), form=form.definition(), ranking=ranking)
    except ServiceError as error:
        refusal_on_form(form, error, request=request)
        return None


def period_label(period: str) -> str:
    """A period as the reader reads it: "October 2026" (in the reader's language), "2026", or nothing."""
    if len(period) == len("2026-11"):
        return date_format(datetime.date(int(period[:4]), int(period[5:]), 1), "YEAR_MONTH_FORMAT")
    return period


def edition_label(edition: RankingEdition) -> str:
    """An edition as the list of a period's editions names it: when it was published, and replaced where it was."""
    published = date_format(timezone.localtime(edition.published_at), "SHORT_DATETIME_FORMAT")
    if edition.replaced_at is None:
        return _("Published %(date)s") % {"date": published}
    replaced = date_format(timezone.localtime(edition.replaced_at), "SHORT_DATETIME_FORMAT")
    return _("Published %(date)s, replaced %(replaced)s") % {"date": published, "replaced": replaced}


@signed_in
def ranking_list(request: HttpRequest) -> HttpResponse:
    """Your ranking lists and your clubs', and a new one defined."""
    account = signed_in_account(request)
    form = RankingListForm(request.POST or None, account=account)
    if request.method == "POST":
        saved = _saved(request, form, None)
        if saved is not None:
            return redirect("ranking_detail", ranking_id=saved.public_id)
    books = [book for _, book, _ in lists_circles(account)]
    rankings = RankingList.objects.filter(owner=account) | RankingList.objects.filter(book__in=books)
    context = {"rankings": rankings.distinct().order_by("name", "id"), "form": form}
    return render(request, "matches/ranking_list.html", context, status=400 if form.errors else 200)


@on_subject(Action.MANAGE, "ranking")
def ranking_edit(request: HttpRequest, ranking: RankingList) -> HttpResponse:
    account = signed_in_account(request)
    form = RankingListForm(request.POST or None, account=account, kept=ranking.events, initial=_initial(ranking))
    if request.method == "POST" and _saved(request, form, ranking) is not None:
        messages.success(request, _("The list is saved."))
        return redirect("ranking_detail", ranking_id=ranking.public_id)
    return _edit_page(request, ranking, form, RankingDeleteForm(), status=400 if form.errors else 200)


class RankingDeleteForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("Yes, delete this list with its published lists"),
        error_messages={"required": gettext_lazy("Tick this to delete the list.")},
    )


def _edit_page(
    request: HttpRequest, ranking: RankingList, form: RankingListForm, delete_form: RankingDeleteForm, *, status: int
) -> HttpResponse:
    context = {"ranking": ranking, "form": form, "delete_form": delete_form, "published": ranking.editions.count()}
    return render(request, "matches/ranking_edit.html", context, status=status)


class RankingPublishForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("Yes, publish: this period's list stays as it is now, for good"),
        error_messages={"required": gettext_lazy("Tick this to publish the list.")},
    )


class RankingPublishAnewForm(forms.Form):
    """Publishing a period published already anew: the list as it stands replaces the published one, which is kept,
    and the members reading it are told why."""

    reason = forms.CharField(
        label=gettext_lazy("Why it is published anew"),
        max_length=MAX_REASON,
        help_text=gettext_lazy("What was corrected: shown with both lists, e.g. a score of 3 November put right."),
        error_messages={"required": gettext_lazy("Say why the list is published anew: what was corrected.")},
    )
    confirm = forms.BooleanField(
        label=gettext_lazy("Yes, publish anew: the list as it stands replaces the published one, which stays readable"),
        error_messages={"required": gettext_lazy("Tick this to publish the list anew.")},
    )


def publish_form_for(current: RankingEdition | None, data: Any = None) -> forms.Form:
    """The form that publishes a period's list: for the first time, or anew where it is published (``current``)."""
    return RankingPublishAnewForm(data) if current is not None else RankingPublishForm(data)


@on_subject(Action.VIEW, "ranking")
@require_safe
def ranking_detail(request: HttpRequest, ranking: RankingList) -> HttpResponse:
    """A period's list: as published, where it was, else as it stands; an earlier edition of it, or the list as it
    stands, where ``?edition=`` asks; the periods with lists to choose from."""
    return _detail_page(request, ranking, None, asked=request.GET.get("period"), status=200)


# The figure's column heading on the page, which a phone may break inside a word (the files' is ``FIGURES``).
HEADINGS = {
    Method.AVERAGE: pgettext_lazy("column heading", "Average"),
    Method.BEST: pgettext_lazy("column heading", "Best results"),
    Method.PLACES: pgettext_lazy("column heading", "Placement points"),
}


def _circle_name(ranking: RankingList) -> str | None:
    """The name of the club whose players the list counts (None where that club is gone)."""
    if ranking.book_id is None:
        return None
    _, name = lists_circles_of([ranking.book_id]).get(ranking.book_id, (None, None))
    return name


def _detail_page(
    request: HttpRequest, ranking: RankingList, publish_form: forms.Form | None, *, asked: str | None, status: int
) -> HttpResponse:
    periods = ranking_periods(ranking)
    after = request.GET.get("after")
    # The period asked for; else the one the page continues; else the latest.
    continued = cursor_period(after)
    if asked is not None and period_known(ranking, asked):
        period = asked
    else:
        period = continued if continued is not None else (periods[0] if periods else "")
    chosen = request.GET.get("edition") or None
    try:
        page, edition = ranking_page(ranking, period, asked=chosen, after=after, size=PLACES_PER_PAGE)
    except NoSuchEdition:
        raise Http404 from None
    editions = period_editions(ranking, period)
    current = editions[0] if editions and editions[0].replaced_at is None else None
    replaced = edition is not None and edition.replaced_at is not None
    rules = ranked_by(ranking, edition)
    owner = visitor_of(request).account
    context = {
        "ranking": ranking,
        "periods": [(one, period_label(one)) for one in periods],
        "period": period,
        "period_label": period_label(period),
        "part": period_part(period),
        "rows": page.items,
        "page": page,
        "edition": edition,
        "editions": editions,
        "edition_links": [(one, edition_label(one)) for one in editions],
        "current": current,
        # The edition that replaced the one shown: when, and why.
        "successor": next((one for one in editions if edition and one.number == edition.number + 1), None),
        # The list as it stands, asked for on a period published: not the list published.
        "standing": edition is None and current is not None,
        # The files give the list the page shows: the edition asked for, where one is.
        "query": urlencode({"edition": chosen}) if chosen else "",
        "due": edition is None and ranking_due(ranking),
        "rules": rules,
        "figure": HEADINGS[Method(rules.method)],
        "manage": owner is not None and ranking.owner_id == owner.pk,
        "publishable": period in periods and not replaced,
        "publish_form": publish_form or publish_form_for(current),
        "circle": _circle_name(ranking) if rules.counted == Counted.BOOK else None,
    }
    return render(request, "matches/ranking_detail.html", context, status=status)


@on_subject(Action.MANAGE, "ranking")
@require_POST
def ranking_publish_view(request: HttpRequest, ranking: RankingList) -> HttpResponse:
    """Keep the period's list as it stands now, as published (anew, with the reason, where it was published
    already), once its owner ticked that they mean it."""
    period = request.POST.get("period", "")
    publish_form = publish_form_for(current_edition(ranking, period), request.POST)
    if not publish_form.is_valid():
        return _detail_page(request, ranking, publish_form, asked=period, status=400)
    anew = isinstance(publish_form, RankingPublishAnewForm)
    try:
        ranking_publish(
            ranking=ranking,
            period=period,
            by=signed_in_account(request),
            reason=publish_form.cleaned_data["reason"] if anew else "",
        )
    except ServiceError as error:
        # Next to the reason, or above the form: nothing changed since the list was published, say.
        refusal_on_form(publish_form, error, lambda field: field if field in publish_form.fields else None)
        return _detail_page(request, ranking, publish_form, asked=period, status=error.status)
    if anew:
        messages.success(request, _("Published anew: this list is the period's list now, the one before is kept."))
    else:
        messages.success(request, _("Published: this list stays as it is now."))
    return redirect(reverse("ranking_detail", args=[ranking.public_id]) + "?" + urlencode({"period": period}))


@on_subject(Action.MANAGE, "ranking")
@require_POST
def ranking_delete_view(request: HttpRequest, ranking: RankingList) -> HttpResponse:
    """Delete the list with its published lists, once its owner ticked that they mean it."""
    delete_form = RankingDeleteForm(request.POST)
    if not delete_form.is_valid():
        account = signed_in_account(request)
        form = RankingListForm(account=account, kept=ranking.events, initial=_initial(ranking))
        return _edit_page(request, ranking, form, delete_form, status=400)
    ranking_delete(ranking=ranking)
    messages.success(request, _("The list is deleted."))
    return redirect("ranking_list")


def _period(ranking: RankingList, part: int | None) -> str:
    """The period a download's part names, if the list has a list of it (``period_known``; 404 for another)."""
    period = part_period(part)
    if not period_known(ranking, period):
        raise Http404
    return period


def ranking_file(ranking: RankingList, part: int | None, edition: str | None = None) -> SheetExport:
    """The period's ranking list as a file: as its page shows it (``edition``: as ``?edition=`` asks there)."""
    period = _period(ranking, part)
    rows, published = _shown(ranking, period, edition)
    return SheetExport(ranking_sheet(ranking, period, rows, published))


def ranking_printed(ranking: RankingList, part: int | None, edition: str | None = None) -> Printed:
    """The period's ranking list to print, as its page shows it, saying whether it is published (when, and when it
    was replaced where it was) or as it stands."""
    period = _period(ranking, part)
    rows, published = _shown(ranking, period, edition)
    sheet = ranking_sheet(ranking, period, rows, published)
    if published is None:
        when = _("as it stands")
    elif published.replaced_at is None:
        when = _("published on %(date)s") % {"date": _short_date(published.published_at)}
    else:
        when = _("published on %(date)s, replaced on %(replaced)s") % {
            "date": _short_date(published.published_at),
            "replaced": _short_date(published.replaced_at),
        }
    return Printed(sheet_pdf(sheet, ranking.name, f"{period or _('the whole time')} · {when}"), sheet.name)


def _shown(ranking: RankingList, period: str, edition: str | None) -> tuple[list[Ranked], RankingEdition | None]:
    try:
        return ranking_shown(ranking, period, edition or None)
    except NoSuchEdition:
        raise Http404 from None


def _short_date(moment: datetime.datetime) -> str:
    return date_format(timezone.localtime(moment), "SHORT_DATE_FORMAT")
