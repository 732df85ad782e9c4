"""The club pages' forms: what a secretary types, read into the services' terms; the services check the rest."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from django import forms
from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.engine import RuleError, find_variant
from matches.engine.draw import TablePlan
from matches.engine.league import RankingRule
from matches.engine.presets import PRESETS
from matches.engine.variants import VariantSpec
from matches.forms import WholeNumberField, option_field
from matches.labels import preset_label, scheme_label
from matches.models import Match
from matches.refusals import first_part, refusal_on_form

from .models import ClubRole, Season
from .services import FIXED_ONCE_DRAWN, SeasonSettings, Seating, night_dates

CENTS = Decimal(100)
MAX_EUROS = Decimal(1000)
MAX_LOST = 96  # a tier starts at a lost game of one list, which has at most this many games
MAX_COUNT = 1000
TIER_FORMAT = _("Write each tier as “lost game: euros”, e.g. 1: 0.50, 4: 1.00.")


def _cents(value: Decimal | None) -> int:
    return int((value or Decimal(0)) * CENTS)


def _money_field(label: Any) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=Decimal(0), max_value=MAX_EUROS, decimal_places=2, initial=Decimal(0)
    )


def _season_field(field: str) -> str:
    """A season's field as its form names it: a rule option (``rules.<option>``) is ``rule_<option>``."""
    return f"rule_{field.removeprefix('rules.')}" if field.startswith("rules.") else first_part(field)


def _line_field(field: str) -> str | None:
    """A paper list's field as its form names it: ``lines.2.won`` is ``won_2``."""
    parts = field.split(".")
    if len(parts) != 3 or parts[0] != "lines":
        return None
    column = {"game_points": "points", "won": "won", "lost": "lost"}.get(parts[2])
    return None if column is None else f"{column}_{parts[1]}"


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


DEFAULT_PRESET = "skat-tournament"


class SeasonForm(forms.Form):
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
    stake = _money_field(_("Stake per series (€), paid out by placing"))
    list_fee = _money_field(_("Fee per list (€)"))
    lost_fees = forms.CharField(
        label=_("Fee per lost game (€), tiered: from which lost game, e.g. 1: 0.50, 4: 1.00"),
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
            self.fields[f"rule_{name}"] = option_field(name, initial, spec.option_choices(name))

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


class SeasonEditForm(SeasonForm):
    """A season's settings as they stand, its rules option by option; what is played and paid cannot be changed
    (the fields are shown, not sent) once a table of the season was drawn."""

    preset = None  # type: ignore[assignment]

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
            "stake": Decimal(season.stake) / CENTS,
            "list_fee": Decimal(season.list_fee) / CENTS,
            "lost_fees": ", ".join(f"{start}: {Decimal(cents) / CENTS:.2f}" for start, cents in season.lost_fees),
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
    name = forms.CharField(label=_("Walk-in guest"), max_length=60)


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
    )
    again = forms.BooleanField(required=False, widget=forms.HiddenInput)
    guests_from = WholeNumberField(
        label=_("Guests from table (optional)"),
        required=False,
        min_value=1,
        max_value=MAX_COUNT,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class NightDateForm(NightForm):
    """Another date for a night opened with the wrong one."""

    series = None  # type: ignore[assignment]


class NightRemoveForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, remove this night with its check-ins and drawn tables"))


class PaperTotals(Protocol):
    """A player's totals entered from a paper list (a club table's line, or an app's)."""

    player_id: int
    game_points: int
    won: int
    lost: int


class PaperForm(forms.Form):
    """One row per player of the table: game points, won, lost."""

    def __init__(self, *args: Any, players: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for index, player in enumerate(players):
            self.fields[f"points_{index}"] = WholeNumberField(
                label=_("Game points of %(name)s") % {"name": player.name}, min_value=-100_000, max_value=100_000
            )
            self.fields[f"won_{index}"] = WholeNumberField(label=_("won"), min_value=0, max_value=96)
            self.fields[f"lost_{index}"] = WholeNumberField(label=_("lost"), min_value=0, max_value=96)
        # Typed with the number keys alone: Enter moves on to the next field (static/js/entry.js) and, from the last,
        # saves; the phone's key says which. The first field has the focus when the list opens.
        names = list(self.fields)
        for name in names:
            self.fields[name].widget.attrs |= {"enterkeyhint": "next", "autocomplete": "off"}
        if names:
            self.fields[names[-1]].widget.attrs["enterkeyhint"] = "done"
            self.fields[names[0]].widget.attrs["autofocus"] = True

    @classmethod
    def of_table(cls, data: QueryDict | None, match: Match, entered: Iterable[PaperTotals]) -> PaperForm:
        """The form for the players seated at ``match`` (a table of a night or of an app's event), filled with the
        totals ``entered`` from its paper list before, if any."""
        players = [seat.player for seat in match.seats.select_related("player").order_by("position")]
        by_player = {line.player_id: line for line in entered}
        initial: dict[str, int] = {}
        for index, player in enumerate(players):
            line = by_player.get(player.pk)
            if line is not None:
                initial |= {f"points_{index}": line.game_points, f"won_{index}": line.won, f"lost_{index}": line.lost}
        return cls(data, players=players, initial=initial)

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
        for unbound in self.fields.values():
            unbound.widget.attrs.pop("autofocus", None)
        for _player, *fields in self.rows():
            for field in fields:
                if field.errors:
                    field.field.widget.attrs["autofocus"] = True
                    return

    def add_line_errors(self, error: RuleError) -> None:
        """Each refusal next to the player's number it names (``lines.<row>.<column>``); the rest above the form."""
        refusal_on_form(self, error, _line_field)
