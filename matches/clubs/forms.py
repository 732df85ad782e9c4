"""The club pages' forms: what a secretary types, read into the services' terms; the services check the rest."""

from __future__ import annotations

import datetime
from dataclasses import replace
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from matches.engine import RuleError, find_variant
from matches.engine.draw import TablePlan
from matches.engine.league import RankingRule
from matches.engine.presets import PRESETS
from matches.engine.variants import VariantSpec
from matches.forms.fields import EuroField, MakesOnce, WholeNumberField, option_field
from matches.labels import preset_label, scheme_label
from matches.numbers import lost_game_tiers
from matches.refusals import first_part, refusal_on_form

from .models import ClubRole, Season
from .services import FIXED_ONCE_DRAWN, SeasonSettings, Seating, night_dates

CENTS = Decimal(100)
MAX_EUROS = Decimal(1000)
MAX_LOST = 96  # a tier starts at a lost game of one list, which has at most this many games
MAX_COUNT = 1000
TIER_FORMAT = _("Write each tier as “lost game: euros”, e.g. 1: 0.50; 4: 1.00.")


def _season_field(field: str) -> str:
    """A season's field as its form names it: a rule option (``rules.<option>``) is ``rule_<option>``."""
    return f"rule_{field.removeprefix('rules.')}" if field.startswith("rules.") else first_part(field)


class ClubForm(MakesOnce):
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


DEFAULT_PRESET = "skat-tournament"


class SeasonForm(MakesOnce):
    """A new season: the preset chosen (on the page before), its rules option by option, the tables, ranking and
    money. ``options_shown``: the page showed the options (a post without them takes the preset's rules)."""

    name = forms.CharField(label=_("Name"), max_length=100, initial=lambda: str(datetime.date.today().year))
    preset = forms.ChoiceField(label=_("Rules"), initial=DEFAULT_PRESET, widget=forms.HiddenInput)
    options_shown = forms.BooleanField(required=False, widget=forms.HiddenInput)
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
    games_at_four = WholeNumberField(
        label=_("Games per series at a table of four"), initial=48, min_value=1, max_value=MAX_LOST
    )
    games_at_three = WholeNumberField(
        label=_("Games per series at a table of three"), initial=36, min_value=1, max_value=MAX_LOST
    )
    games_at_two = WholeNumberField(
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
    minimum_lists = WholeNumberField(
        label=_("Minimum number of lists for the average (missing ones count 0)"),
        initial=0,
        min_value=0,
        max_value=MAX_COUNT,
    )
    best_nights = WholeNumberField(
        label=_("Nights that count (best nights)"), initial=0, min_value=0, max_value=MAX_COUNT
    )
    guests_ranked = forms.BooleanField(label=_("Guests are ranked"), required=False, initial=True)
    categories = forms.CharField(
        label=_("Categories (comma-separated, e.g. women, seniors)"), required=False, max_length=300
    )
    stake = EuroField(label=_("Stake per series (€), paid out by placing"), most=int(MAX_EUROS * CENTS), initial=0)
    list_fee = EuroField(label=_("Fee per list (€)"), most=int(MAX_EUROS * CENTS), initial=0)
    lost_fees = forms.CharField(
        label=_("Fee per lost game (€), tiered: from which lost game, e.g. 1: 0.50; 4: 1.00"),
        required=False,
        max_length=200,
    )

    def __init__(self, *args: Any, preset: str = DEFAULT_PRESET, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = PRESETS.get(self.data.get("preset") or preset) or PRESETS[DEFAULT_PRESET]
        spec = find_variant(chosen.variant)
        assert spec is not None
        if "preset" in self.fields:
            field = self.fields["preset"]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [(key, preset_label(key)) for key in PRESETS]
            field.initial = chosen.key
        self.add_rule_fields(spec, {**spec.options, **chosen.rules})

    def add_rule_fields(self, spec: VariantSpec, rules: dict[str, Any]) -> None:
        """The variant's schemes to choose from, and a field for each of its rule options, set to ``rules``."""
        scheme = self.fields["scheme"]
        assert isinstance(scheme, forms.ChoiceField)
        scheme.choices = [("", _("as the rules have it"))] + [
            (value.value, scheme_label(value.value)) for value in spec.schemes
        ]
        self.fields["options_shown"].initial = True
        self.rule_initial = {name: rules.get(name, default) for name, default in spec.options.items()}
        for name, initial in self.rule_initial.items():
            self.fields[f"rule_{name}"] = option_field(name, initial, spec.option_choices(name), kontra=spec.kontra)

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("rule_")]

    def other_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if not field.name.startswith("rule_")]

    def rules(self) -> dict[str, Any]:
        """The rules as chosen option by option; none when the page did not show them (the preset's then)."""
        if not self.cleaned_data.get("options_shown"):
            return {}
        chosen = {name: self.cleaned_data.get(f"rule_{name}") for name in self.rule_initial}
        return {name: self.rule_initial[name] if value in (None, "") else value for name, value in chosen.items()}

    def add_service_errors(self, error: RuleError) -> None:
        """Each refusal next to its field, a rule option's (``rules.<option>``) next to its own."""
        refusal_on_form(self, error, _season_field)

    def clean_lost_fees(self) -> list[tuple[int, int]]:
        """ "1: 0,50; 4: 1" or "1: 0.50, 4: 1" → [(1, 50), (4, 100)]: from which lost game of a list, how much per
        game."""
        try:
            tiers = lost_game_tiers(self.cleaned_data["lost_fees"])
        except ValueError:
            raise forms.ValidationError(TIER_FORMAT) from None
        if any(not 1 <= first <= MAX_LOST or cents > MAX_EUROS * CENTS for first, cents in tiers):
            raise forms.ValidationError(TIER_FORMAT)
        return list(tiers)

    def settings(self) -> SeasonSettings:
        data = self.cleaned_data
        return SeasonSettings(
            name=data["name"],
            preset=data.get("preset", ""),
            rules=self.rules(),
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
            stake=data["stake"],
            list_fee=data["list_fee"],
            lost_fees=data["lost_fees"],
        )


class IsoDateInput(forms.DateInput):
    """A date picker: its value is written as ISO (YYYY-MM-DD) in every language, the only form a browser's date
    input reads (a date written the language's way leaves it empty, and the form refused until a date is picked)."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class SeasonEditForm(SeasonForm):
    """A season's settings as they stand, its rules option by option; what is played and paid cannot be changed
    (the fields are shown, not sent) once a table of the season was drawn."""

    preset = None  # type: ignore[assignment]
    once = None  # type: ignore[assignment]

    def __init__(self, *args: Any, season: Season, drawn: bool, **kwargs: Any) -> None:
        self.season = season
        initial = {
            "name": season.name,
            "scheme": season.scheme,
            "plan": season.plan,
            "games_at_four": season.games_at_four,
            "games_at_three": season.games_at_three,
            "games_at_two": season.games_at_two,
            "ranking": season.ranking,
            "minimum_lists": season.minimum_lists,
            "best_nights": season.best_nights,
            "guests_ranked": season.guests_ranked,
            "categories": ", ".join(season.categories),
            "stake": season.stake,
            "list_fee": season.list_fee,
            "lost_fees": "; ".join(
                f"{start}: {number_format(Decimal(cents) / CENTS, 2)}" for start, cents in season.lost_fees
            ),
        }
        forms.Form.__init__(self, *args, **{**kwargs, "initial": initial})
        spec = find_variant(season.variant)
        assert spec is not None
        self.add_rule_fields(spec, season.rules)
        if drawn:
            for name, field in self.fields.items():
                if name.startswith("rule_") or name in FIXED_ONCE_DRAWN:
                    field.disabled = True

    def rules(self) -> dict[str, Any]:
        """The rules as chosen option by option; the season's own when the page did not show them."""
        return super().rules() if self.cleaned_data.get("options_shown") else dict(self.season.rules)

    def settings(self) -> SeasonSettings:
        return replace(super().settings(), variant=self.season.variant)


class NightForm(forms.Form):
    date = forms.DateField(label=_("Date"), initial=datetime.date.today, widget=IsoDateInput())
    series = WholeNumberField(label=_("Series"), initial=1, min_value=1, max_value=6)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The date picker offers only the dates the services take, so that a slip of the thumb cannot pick another.
        earliest, latest = night_dates(timezone.localdate())
        self.fields["date"].widget.attrs.update(min=earliest.isoformat(), max=latest.isoformat())


class GuestForm(forms.Form):
    name = forms.CharField(
        label=_("Walk-in guest"),
        max_length=60,
        error_messages={
            "required": _("Name the guest."),
            "max_length": _("Up to %(limit_value)d characters: this name has %(show_value)d."),
        },
    )


class DrawForm(forms.Form):
    series = WholeNumberField(min_value=1, max_value=6, widget=forms.HiddenInput)
    seating = forms.ChoiceField(
        label=_("Seats"),
        choices=[
            (Seating.DRAW, _("drawn (avoiding recent pairings)")),
            (Seating.RANKING, _("by the season's ranking")),
            (Seating.SERIES, _("by the series before")),
        ],
        initial=Seating.DRAW,
        error_messages={
            "required": _("Choose how the seats are taken."),
            "invalid_choice": _("Choose how the seats are taken."),
        },
    )
    again = forms.BooleanField(required=False, widget=forms.HiddenInput)
    guests_from = WholeNumberField(
        label=_("Guests from table (optional)"),
        required=False,
        min_value=1,
        max_value=MAX_COUNT,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    # Seating by the series before while a table of it has not played all its games (it stopped early): offered
    # once the seating was refused, naming those tables, at the form that was sent (a first draw or a draw again).
    unfinished = forms.BooleanField(label=_("Yes, seat by these tables' lists as they stand"), required=False)


class NightDateForm(NightForm):
    """Another date for a night opened with the wrong one."""

    series = None  # type: ignore[assignment]


class NightCloseForm(forms.Form):
    """Closing a night whose drawn tables include some on phones that have not played their series' games: the
    secretary confirms that the night closes with their lists as they stand."""

    confirm = forms.BooleanField(
        label=_("Yes, close the night with these tables' lists as they stand"),
        error_messages={"required": _("The night is still open: tick the box to close it all the same.")},
    )


class NightRemoveForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, remove this night with its check-ins and drawn tables"))
