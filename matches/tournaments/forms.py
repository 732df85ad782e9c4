"""The tournament pages' forms: what an organiser, the door desk or an entrant types, read into the services' terms
(amounts in euros and cents as people type them, stored in cents; shares in percent, stored in basis points); the
services check the rest and their refusals are put next to these fields."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.clubs.forms import IsoDateInput
from matches.engine.tournaments import (
    LOST_GAME_TIERS,
    MAX_SERIES,
    MIN_SERIES,
    Doubles,
    Payout,
    PrizeSchedule,
    ScheduleKind,
    Seating,
)
from matches.forms.fields import EuroField, MakesOnce, WholeNumberField, as_euros
from matches.numbers import TooMuch, hundredths, lost_game_tiers
from matches.services.paper import MAX_SERIES_GAMES

from .models import Category, Entry, SideKind
from .services import EntryForm, Schedule, TournamentSettings

# Amounts by place are separated by semicolons, spaces or line breaks ("200; 160; 140,50"), or by a comma that a
# space follows ("200, 160, 140.50"): a comma between digits is the decimal comma.
SEPARATORS = re.compile(r"[;\s]+|,(?=\s)")
AMOUNTS_FORMAT = _("Write the amounts best place first, separated by semicolons or spaces: 200; 160; 140,50.")
TIERS_FORMAT = _("Write each tier as “lost game: euros”, separated by semicolons: 1: 0,50; 4: 1; 6: 3.")
CATEGORIES_FORMAT = _("One category a line: its name, a colon and its prizes, e.g. “Damen: 30; 15”.")
# The prizes by place are shares by default (docs/rules.md): the example gives both.
PLACES_HELP = _(
    "Best place first, separated by semicolons or spaces: in percent 50; 30; 20, in euros 200; 160; 140,50."
)
CATEGORY_LINE = _("“%(line)s”: write the name, a colon and its prizes, e.g. Damen: 30; 15.")
CATEGORY_NO_COLON = _(
    "“%(line)s”: write the name, a colon and its prizes, e.g. Damen: 30; 15. A name that ends in a number and has no "
    "prizes ends in a colon: Senioren 60:"
)

# A € or % that says otherwise than the kind chosen beside the field: refused, never read as the kind says.
PRIZES_NOT_IN_EUROS = _(
    "These prizes are shares in percent, but “%(part)s” is written in euros: choose “%(kind)s” or write the shares "
    "without €."
)
PRIZES_NOT_IN_PERCENT = _(
    "These prizes are amounts in euros, but “%(part)s” is written in percent: choose “%(kind)s” or write the amounts "
    "without %%."
)
SHARE_NOT_IN_EUROS = _(
    "The share is in percent of the pot, but “%(part)s” is written in euros: choose “%(kind)s” or write the share "
    "without €."
)
SHARE_NOT_IN_PERCENT = _(
    "The share is a fixed amount in euros, but “%(part)s” is written in percent: choose “%(kind)s” or write the "
    "amount without %%."
)
EUROS_NOT_IN_PERCENT = _(
    "These prizes are amounts in euros, but “%(part)s” is written in percent: write each prize in euros."
)
CATEGORY_IN_PERCENT = _(
    "“%(line)s”: a category's prizes are amounts in euros, but “%(part)s” is written in percent: write each prize in "
    "euros."
)

# A fee is at most 1000 €: more is a slip (a German "2,500" meant as 2,50).
MOST_FEE = 100_000
SCHEDULE_KIND_LABELS = {ScheduleKind.AMOUNTS: _("amounts in euros"), ScheduleKind.SHARES: _("shares in percent")}
PAYOUT_LABELS = {
    Payout.IN_FULL: _("all of the prize money, in these proportions"),
    Payout.AS_ANNOUNCED: _("as written; what is left stays with the organiser"),
}
SHARE_KIND_LABELS = {"percent": _("percent of the pot"), "fixed": _("a fixed amount in euros")}
# For each kind of a prize schedule and of the organiser's share: the sign that says otherwise, its refusal, and the
# kind that sign would be right for.
SCHEDULE_SIGNS = {
    ScheduleKind.SHARES: ("€", PRIZES_NOT_IN_EUROS, SCHEDULE_KIND_LABELS[ScheduleKind.AMOUNTS]),
    ScheduleKind.AMOUNTS: ("%", PRIZES_NOT_IN_PERCENT, SCHEDULE_KIND_LABELS[ScheduleKind.SHARES]),
}
SHARE_SIGNS = {
    "percent": ("€", SHARE_NOT_IN_EUROS, SHARE_KIND_LABELS["fixed"]),
    "fixed": ("%", SHARE_NOT_IN_PERCENT, SHARE_KIND_LABELS["percent"]),
}
DOUBLES_LABELS = {Doubles.BETTER: _("the better prize; the other passes down"), Doubles.BOTH: _("both prizes")}
SEATING_LABELS = {
    Seating.DRAW: _("drawn (avoiding the pairings of the series before)"),
    Seating.STANDINGS: _("by the standings (the leaders at table 1)"),
}


def _parts(text: str) -> list[str]:
    parts = [part.strip(",") for part in SEPARATORS.split(text.replace("€", " ").replace("%", " "))]
    return [part for part in parts if part]


def _signed(text: str, sign: str) -> str | None:
    """The first amount of ``text`` written with ``sign`` (``"200 €"`` of ``"50; 200 €"``, ``"€20"``), as typed, or the
    sign alone where no amount is beside it; ``None`` if ``text`` has no ``sign``."""
    if sign not in text:
        return None
    found = re.search(rf"\d[\d.,]*[^\S\n]*{re.escape(sign)}|{re.escape(sign)}[^\S\n]*\d[\d.,]*", text)
    return found[0] if found else sign


def hundredths_list(text: str) -> tuple[int, ...]:
    """``"200; 160; 140,50"`` → (20000, 16000, 14050); ``ValueError`` if a part is no amount."""
    return tuple(hundredths(part) for part in _parts(text))


def _ends_in_amount(text: str) -> bool:
    """Whether the last word of ``text`` is an amount (``"Damen 30 €"``), not a name's own (``"Jugend U18"``)."""
    words = _parts(text)
    try:
        hundredths(words[-1] if words else "")
    except TooMuch:
        return True
    except ValueError:
        return False
    return True


class AmountsField(forms.Field):
    """Amounts (or shares) by place, best first, each in hundredths."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.TextInput(attrs={"autocomplete": "off"}))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> tuple[int, ...]:
        try:
            return hundredths_list(str(value or ""))
        except TooMuch as too_much:
            # Written as an amount, only too large: a slip to point at ("20.160" for 20 and 160), not a format.
            raise forms.ValidationError(
                _("“%(part)s” is more than a prize can be."), code="max_value", params={"part": too_much.args[0]}
            ) from None
        except ValueError:
            raise forms.ValidationError(AMOUNTS_FORMAT, code="invalid") from None


def _labelled(labels: dict[Any, Any]) -> list[tuple[str, Any]]:
    return [(str(value), label) for value, label in labels.items()]


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


def announce_field(field: str) -> str | None:
    """A service's or the engine's field as the announcing form names it: ``places.kind`` is ``places``, the
    engine's ``share`` the share's value, its ``tandems`` and ``teams`` their prize schedules."""
    first = field.split(".")[0]
    return {"share": "share_value", "tandems": "tandem_prizes", "teams": "team_prizes"}.get(first, first)


class TournamentForm(MakesOnce):
    """An open tournament as its organiser announces it: the essentials first, the rest (categories, best-series
    prizes, tandems and teams, fees per lost game, options) in a part of its own (``extra_fields``)."""

    name = forms.CharField(label=_("Name of the tournament"), max_length=100)
    date = forms.DateField(label=_("Date"), widget=IsoDateInput)
    venue = forms.CharField(label=_("Venue"), max_length=100, required=False)
    club = forms.ChoiceField(label=_("Organised for the club"), required=False)
    series = WholeNumberField(label=_("Series"), min_value=MIN_SERIES, max_value=MAX_SERIES, initial=3)
    games_at_four = WholeNumberField(
        label=_("Games per series at a table of four"), min_value=1, max_value=MAX_SERIES_GAMES, initial=48
    )
    games_at_three = WholeNumberField(
        label=_("Games per series at a table of three"), min_value=1, max_value=MAX_SERIES_GAMES, initial=36
    )
    entry_fee = EuroField(label=_("Entry fee (€)"), most=MOST_FEE)
    list_fee = EuroField(label=_("Fee per list (€)"), most=MOST_FEE)
    seats = WholeNumberField(
        label=_("Most players the room seats"),
        help_text=_("0: no limit. With a limit, prizes in euros are checked against the pot of a full room."),
        min_value=0,
        max_value=10_000,
        initial=0,
        required=False,
    )
    places = AmountsField(label=_("Prizes by place"), help_text=PLACES_HELP)
    places_kind = forms.ChoiceField(
        label=_("The prizes are"), choices=_labelled(SCHEDULE_KIND_LABELS), initial=PrizeSchedule().kind.value
    )
    places_payout = forms.ChoiceField(
        label=_("Paid out"), choices=_labelled(PAYOUT_LABELS), initial=PrizeSchedule().payout.value
    )
    share_kind = forms.ChoiceField(label=_("The organiser's share"), choices=_labelled(SHARE_KIND_LABELS))
    share_value = EuroField(label=_("The organiser's share (percent or €)"), percent=True)
    keeps_list_fees = forms.BooleanField(label=_("The organiser keeps the list fees"), required=False, initial=True)
    keeps_lost_game_fees = forms.BooleanField(
        label=_("The organiser keeps the fees for lost games"), required=False, initial=True
    )
    # The second part.
    categories = forms.CharField(
        label=_("Categories and their prizes (€)"),
        help_text=CATEGORIES_FORMAT,
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=2000,
    )
    best_series = AmountsField(label=_("Prizes for the best single series (€)"))
    lost_game_tiers = forms.CharField(
        label=_("Fees for lost games"),
        help_text=TIERS_FORMAT,
        required=False,
        max_length=200,
    )
    tandem_fee = EuroField(label=_("Tandem fee per player (€)"), most=MOST_FEE)
    tandem_prizes = AmountsField(label=_("Tandem prizes"))
    tandem_kind = forms.ChoiceField(
        label=_("The tandem prizes are"), choices=_labelled(SCHEDULE_KIND_LABELS), initial=ScheduleKind.SHARES.value
    )
    team_fee = EuroField(label=_("Team fee per player (€)"), most=MOST_FEE)
    team_prizes = AmountsField(label=_("Team prizes"))
    team_kind = forms.ChoiceField(
        label=_("The team prizes are"), choices=_labelled(SCHEDULE_KIND_LABELS), initial=ScheduleKind.SHARES.value
    )
    doubles = forms.ChoiceField(label=_("A player placed for two prizes wins"), choices=_labelled(DOUBLES_LABELS))
    late_entries = forms.BooleanField(label=_("Entries at the door until the first draw"), required=False, initial=True)

    EXTRA = (
        "categories",
        "best_series",
        "lost_game_tiers",
        "tandem_fee",
        "tandem_prizes",
        "tandem_kind",
        "team_fee",
        "team_prizes",
        "team_kind",
        "doubles",
        "late_entries",
    )

    def __init__(self, *args: Any, clubs: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # In the reader's language, as each form is made: "1: 0,50" in German, "1: 0.50" in English.
        self.fields["lost_game_tiers"].initial = "; ".join(
            f"{start}: {as_euros(cents)}" for start, cents in LOST_GAME_TIERS
        )
        _choice_field(self, "club").choices = [("", _("none: I organise it myself")), *clubs]
        if not clubs:
            del self.fields["club"]

    def essential_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if field.name not in self.EXTRA]

    def extra_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if field.name in self.EXTRA]

    def clean_categories(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """``"Damen: 30; 15"`` a line → (("Damen", (3000, 1500)),); a name alone (``"Jugend"``, ``"Senioren:"``) is a
        category ranked without prizes. A line without its colon that ends in an amount (``"Damen 30"``), without a
        name, or with prizes that are none, is refused naming the line: its prizes would be lost in its name."""
        found = []
        for line in filter(None, (line.strip() for line in self.cleaned_data["categories"].splitlines())):
            name, colon, prizes = (part.strip() for part in line.partition(":"))
            if name and not colon and _ends_in_amount(name):
                raise forms.ValidationError(CATEGORY_NO_COLON, code="invalid", params={"line": line})
            try:
                if not name:
                    raise ValueError(line)
                found.append((name, hundredths_list(prizes)))
            except ValueError:
                raise forms.ValidationError(CATEGORY_LINE, code="invalid", params={"line": line}) from None
            if percent := _signed(prizes, "%"):
                raise forms.ValidationError(CATEGORY_IN_PERCENT, code="invalid", params={"line": line, "part": percent})
        return tuple(found)

    def clean_best_series(self) -> tuple[int, ...]:
        """The best series' prizes are amounts in euros: one written in percent is refused, not read as euros."""
        if percent := _signed(str(self["best_series"].data or ""), "%"):
            raise forms.ValidationError(EUROS_NOT_IN_PERCENT, code="invalid", params={"part": percent})
        best_series: tuple[int, ...] = self.cleaned_data["best_series"]
        return best_series

    def clean_lost_game_tiers(self) -> tuple[tuple[int, int], ...]:
        """``"1: 0,50; 4: 1"`` → ((1, 50), (4, 100)): from which lost game of a list, how much a game."""
        try:
            return lost_game_tiers(self.cleaned_data["lost_game_tiers"])
        except ValueError:
            raise forms.ValidationError(TIERS_FORMAT) from None

    def clean(self) -> dict[str, Any]:
        """Prizes or a share written with the sign of the other kind than the one chosen beside them (``"200 €"``
        where the prizes are shares in percent, ``"10 %"`` where the share is a fixed amount) are refused next to
        them: the organiser chooses the kind or writes them without the sign."""
        data = super().clean() or {}
        for field, kind_field, signs in (
            ("places", "places_kind", SCHEDULE_SIGNS),
            ("tandem_prizes", "tandem_kind", SCHEDULE_SIGNS),
            ("team_prizes", "team_kind", SCHEDULE_SIGNS),
            ("share_value", "share_kind", SHARE_SIGNS),
        ):
            if field not in data or kind_field not in data:
                continue
            sign, refusal, other_kind = signs[data[kind_field]]
            if part := _signed(str(self[field].data or ""), sign):
                self.add_error(
                    field,
                    forms.ValidationError(refusal, code="invalid", params={"part": part, "kind": other_kind}),
                )
        return data

    def settings(self) -> TournamentSettings:
        data = self.cleaned_data
        return TournamentSettings(
            name=data["name"],
            date=data["date"],
            venue=data["venue"],
            series=data["series"],
            games_at_four=data["games_at_four"],
            games_at_three=data["games_at_three"],
            seats=data["seats"] or 0,
            entry_fee=data["entry_fee"],
            list_fee=data["list_fee"],
            lost_game_tiers=data["lost_game_tiers"],
            tandem_fee=data["tandem_fee"],
            team_fee=data["team_fee"],
            share_kind=data["share_kind"],
            share_value=data["share_value"],
            keeps_list_fees=data["keeps_list_fees"],
            keeps_lost_game_fees=data["keeps_lost_game_fees"],
            places=Schedule(data["places"], data["places_kind"], data["places_payout"]),
            best_series=data["best_series"],
            tandem_prizes=Schedule(data["tandem_prizes"], data["tandem_kind"], Payout.IN_FULL.value),
            team_prizes=Schedule(data["team_prizes"], data["team_kind"], Payout.IN_FULL.value),
            categories=data["categories"],
            doubles=data["doubles"],
            late_entries=data["late_entries"],
        )


def _category_choices(categories: Sequence[Category]) -> list[tuple[str, Any]]:
    return [("", _("none")), *((category.name, category.name) for category in categories)]


class DoorForm(forms.Form):
    """An entry at the door, in seconds: a name is enough; the entrant pays at once unless the desk says not."""

    name = forms.CharField(label=_("Name"), max_length=100, widget=forms.TextInput(attrs={"autocomplete": "off"}))
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    category = forms.ChoiceField(label=_("Category"), required=False)
    paid = forms.BooleanField(label=_("Paid the entry fee"), required=False, initial=True)

    def __init__(self, *args: Any, categories: Sequence[Category], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "door")
        super().__init__(*args, **kwargs)
        _choice_field(self, "category").choices = _category_choices(categories)
        if not categories:
            del self.fields["category"]

    def entry(self) -> EntryForm:
        data = self.cleaned_data
        return EntryForm(data["name"], club=data["club"], category=data.get("category", ""))


class OnlineEntryForm(forms.Form):
    """An entry made ahead: a name, and optionally a club, a category and a federation number."""

    name = forms.CharField(label=_("Your name"), max_length=100)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    category = forms.ChoiceField(label=_("Category"), required=False)
    federation_number = forms.CharField(label=_("Federation number (optional)"), max_length=20, required=False)

    def __init__(self, *args: Any, categories: Sequence[Category], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "category").choices = _category_choices(categories)
        if not categories:
            del self.fields["category"]

    def entry(self) -> EntryForm:
        data = self.cleaned_data
        return EntryForm(
            data["name"],
            club=data["club"],
            category=data.get("category", ""),
            federation_number=data["federation_number"],
        )


class PayForm(forms.Form):
    """A *Pay* button of the desk's list: what the entrant had paid when the desk showed it, so that a payment taken
    meanwhile (a second cashier, a double tap) refuses this one."""

    paid = WholeNumberField(widget=forms.HiddenInput, min_value=0)


class HandOverForm(forms.Form):
    """The account that becomes the tournament's organiser, by its name."""

    username = forms.CharField(label=_("Account name of the new organiser"), max_length=150)


class CodeForm(forms.Form):
    """The confirmation code an online entrant shows at the door, to take their payment."""

    code = forms.CharField(
        label=_("Confirmation code"),
        max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "code")
        super().__init__(*args, **kwargs)


class SideForm(forms.Form):
    """A tandem (two entrants) or a team (four) for its side ranking."""

    kind = forms.ChoiceField(label=_("Kind"), choices=SideKind.choices)
    name = forms.CharField(label=_("Name"), max_length=100)
    entries = forms.MultipleChoiceField(label=_("Players"), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, entries: Sequence[Entry], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "side")
        super().__init__(*args, **kwargs)
        self.by_id = {str(entry.public_id): entry for entry in entries}
        _choice_field(self, "entries").choices = [(key, entry.name) for key, entry in self.by_id.items()]

    def chosen(self) -> list[Entry]:
        return [self.by_id[key] for key in self.cleaned_data["entries"]]


def side_field(field: str) -> str | None:
    """A side's refusal as the side form names its fields: the players of a tandem or team for its members."""
    first = field.split(".")[0]
    return "entries" if first in {"tandems", "teams", "entrants"} else first


class DrawForm(forms.Form):
    """Draw the next series, seated as the organiser chooses (a fixed plan is the API's); ``version``: the
    tournament as the page showed it, so that a second draw from an older page is refused."""

    series = WholeNumberField(widget=forms.HiddenInput, min_value=1, max_value=MAX_SERIES)
    version = WholeNumberField(widget=forms.HiddenInput, min_value=0, required=False)
    # Two ways, each read whole and chosen with a tap: a list would cut their words off.
    seating = forms.ChoiceField(
        label=_("Seating"), choices=_labelled(SEATING_LABELS), initial=Seating.DRAW.value, widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, first: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if first:
            # Series 1 has no standings: it is drawn.
            self.fields["seating"].widget = forms.HiddenInput()
