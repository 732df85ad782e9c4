"""The club pages' forms: what a secretary types, read into the services' terms; the services check the rest."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.engine import RuleError
from matches.engine.draw import TablePlan
from matches.engine.league import RankingRule
from matches.engine.presets import PRESETS
from matches.engine.variants import SCHEME_LABELS
from matches.labels import preset_label, render_step, scheme_label

from .models import ClubRole
from .services import SeasonSettings, Seating

CENTS = Decimal(100)
MAX_EUROS = Decimal(1000)
MAX_LOST = 96  # a tier starts at a lost game of one list, which has at most this many games
MAX_COUNT = 1000
TIER_FORMAT = _("Write each tier as “lost game: euros”, e.g. 1: 0.50, 4: 1.00.")


def add_service_errors(form: forms.Form, error: RuleError) -> None:
    """Each refusal next to its field (by the first part of its name); the rest above the form."""
    for problem in error.errors:
        name = problem.field.split(".")[0]
        form.add_error(name if name in form.fields else None, render_step(problem.message))


def _cents(value: Decimal | None) -> int:
    return int((value or Decimal(0)) * CENTS)


def _money_field(label: Any) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=Decimal(0), max_value=MAX_EUROS, decimal_places=2, initial=Decimal(0)
    )


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=100)


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Account name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.choices, initial=ClubRole.MEMBER)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    guest = forms.BooleanField(label=_("Guest"), required=False)


class RosterForm(forms.Form):
    player = forms.UUIDField(widget=forms.HiddenInput)
    guest = forms.BooleanField(label=_("Guest"), required=False)
    first_name_only = forms.BooleanField(label=_("First name only in public"), required=False)
    categories = forms.CharField(label=_("Categories (comma-separated)"), required=False, max_length=300)

    def category_names(self) -> list[str]:
        return [part.strip() for part in self.cleaned_data["categories"].split(",") if part.strip()]


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, initial=lambda: str(datetime.date.today().year))
    preset = forms.ChoiceField(label=_("Rules"), initial="skat-tournament")
    scheme = forms.ChoiceField(label=_("Scoring"), required=False)
    plan = forms.ChoiceField(
        label=_("Tables"),
        required=False,
        choices=[
            ("", _("as the variant is played")),
            (TablePlan.FOURS.value, _("as many tables of four as possible")),
            (TablePlan.THREES.value, _("as many tables of three as possible")),
            (TablePlan.PAIRS.value, _("pairs")),
        ],
    )
    games_at_four = forms.IntegerField(
        label=_("Games per series at a table of four"), initial=48, min_value=1, max_value=MAX_LOST
    )
    games_at_three = forms.IntegerField(
        label=_("Games per series at a table of three"), initial=36, min_value=1, max_value=MAX_LOST
    )
    games_at_two = forms.IntegerField(
        label=_("Games per series at a table of two"), initial=24, min_value=1, max_value=MAX_LOST
    )
    ranking = forms.ChoiceField(
        label=_("Ranking"),
        choices=[
            (RankingRule.TOTAL.value, _("total of all lists")),
            (RankingRule.AVERAGE.value, _("average per list")),
            (RankingRule.BEST_NIGHTS.value, _("best nights")),
        ],
    )
    minimum_lists = forms.IntegerField(
        label=_("Minimum number of lists for the average (missing ones count 0)"),
        initial=0,
        min_value=0,
        max_value=MAX_COUNT,
    )
    best_nights = forms.IntegerField(
        label=_("Nights that count (best nights)"), initial=0, min_value=0, max_value=MAX_COUNT
    )
    guests_ranked = forms.BooleanField(label=_("Guests are ranked"), required=False, initial=True)
    categories = forms.CharField(
        label=_("Categories (comma-separated, e.g. women, seniors)"), required=False, max_length=300
    )
    stake = _money_field(_("Stake per series (€), paid out by placing"))
    list_fee = _money_field(_("Fee per list (€)"))
    lost_fees = forms.CharField(
        label=_("Fee per lost game (€), tiered: from which lost game, e.g. 1: 0.50, 4: 1.00"),
        required=False,
        max_length=200,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset, scheme = self.fields["preset"], self.fields["scheme"]
        assert isinstance(preset, forms.ChoiceField)
        assert isinstance(scheme, forms.ChoiceField)
        preset.choices = [(key, preset_label(key)) for key in PRESETS]
        scheme.choices = [("", _("as the rules have it"))] + [
            (value.value, scheme_label(value.value)) for value in SCHEME_LABELS
        ]

    def clean_lost_fees(self) -> list[tuple[int, int]]:
        """ "1: 0.50, 4: 1" → [(1, 50), (4, 100)]: from which lost game of a list, how much per game."""
        tiers = []
        for part in filter(None, (piece.strip() for piece in self.cleaned_data["lost_fees"].split(","))):
            start, sep, euros = part.partition(":")
            try:
                first, amount = int(start), Decimal(euros.strip().replace("€", ""))
            except (ValueError, InvalidOperation):
                first, amount = 0, Decimal(-1)
            if not sep or not 1 <= first <= MAX_LOST or not amount.is_finite() or not 0 <= amount <= MAX_EUROS:
                raise forms.ValidationError(TIER_FORMAT)
            tiers.append((first, _cents(amount)))
        return tiers

    def settings(self) -> SeasonSettings:
        data = self.cleaned_data
        return SeasonSettings(
            name=data["name"],
            preset=data["preset"],
            scheme=data["scheme"],
            plan=data["plan"],
            games_at_four=data["games_at_four"],
            games_at_three=data["games_at_three"],
            games_at_two=data["games_at_two"],
            ranking=data["ranking"],
            minimum_lists=data["minimum_lists"],
            best_nights=data["best_nights"],
            guests_ranked=data["guests_ranked"],
            categories=[part.strip() for part in data["categories"].split(",") if part.strip()],
            stake=_cents(data["stake"]),
            list_fee=_cents(data["list_fee"]),
            lost_fees=data["lost_fees"],
        )


class IsoDateInput(forms.DateInput):
    """A date picker: its value is written as ISO (YYYY-MM-DD) in every language, the only form a browser's date
    input reads (a date written the language's way leaves it empty, and the form refused until a date is picked)."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class NightForm(forms.Form):
    date = forms.DateField(label=_("Date"), initial=datetime.date.today, widget=IsoDateInput())
    series = forms.IntegerField(label=_("Series"), initial=1, min_value=1, max_value=6)


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Walk-in guest"), max_length=60)


class DrawForm(forms.Form):
    series = forms.IntegerField(min_value=1, max_value=6, widget=forms.HiddenInput)
    seating = forms.ChoiceField(
        label=_("Seats"),
        choices=[
            (Seating.DRAW, _("drawn (avoiding recent pairings)")),
            (Seating.RANKING, _("by the season's ranking")),
            (Seating.SERIES, _("by the series before")),
        ],
        initial=Seating.DRAW,
    )
    again = forms.BooleanField(required=False, widget=forms.HiddenInput)


class PaperForm(forms.Form):
    """One row per player of the table: game points, won, lost."""

    def __init__(self, *args: Any, players: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for index, player in enumerate(players):
            self.fields[f"points_{index}"] = forms.IntegerField(
                label=_("Game points of %(name)s") % {"name": player.name}, min_value=-100_000, max_value=100_000
            )
            self.fields[f"won_{index}"] = forms.IntegerField(label=_("won"), min_value=0, max_value=96)
            self.fields[f"lost_{index}"] = forms.IntegerField(label=_("lost"), min_value=0, max_value=96)

    def rows(self) -> list[tuple[Any, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (player, self[f"points_{index}"], self[f"won_{index}"], self[f"lost_{index}"])
            for index, player in enumerate(self.players)
        ]

    def lines(self) -> list[tuple[Any, int, int, int]]:
        data = self.cleaned_data
        return [
            (player, data[f"points_{index}"], data[f"won_{index}"], data[f"lost_{index}"])
            for index, player in enumerate(self.players)
        ]

    def summary(self) -> list[tuple[str, str]]:
        """What stops the list, for the top of the page: the problems of the list as a whole, then each field's in
        the page's order, with its player; each as the id of its field ("" for the whole list) and the text."""
        problems = [("", str(error)) for error in self.non_field_errors()]
        for player, *fields in self.rows():
            for field in fields:
                what = _("game points") if field.name.startswith("points_") else field.label
                problems += [
                    (
                        field.auto_id,
                        _("%(name)s, %(field)s: %(message)s") % {"name": player.name, "field": what, "message": error},
                    )
                    for error in field.errors
                ]
        return problems

    def focus_first_error(self) -> None:
        """The first field in error takes the focus when the page opens (``autofocus``: without a script too), so a
        mistake below the fold is where the phone shows it."""
        for _player, *fields in self.rows():
            for field in fields:
                if field.errors:
                    field.field.widget.attrs["autofocus"] = True
                    return

    def add_line_errors(self, error: RuleError) -> None:
        for problem in error.errors:
            parts = problem.field.split(".")
            name = None
            if len(parts) == 3 and parts[0] == "lines":
                name = {"game_points": "points", "won": "won", "lost": "lost"}[parts[2]] + f"_{parts[1]}"
            self.add_error(name if name in self.fields else None, render_step(problem.message))
