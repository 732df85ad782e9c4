"""Forms of the pages: starting a match and entering a game, shaped by the variant and the rules in force."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from .engine import OPTIONS, Contract, RuleError, Rules, find_variant, rules_for
from .engine.presets import PRESETS, Preset
from .engine.table import Seating
from .engine.variants import Family, VariantSpec
from .labels import OPTION_CHOICE_LABELS, contract_label, render_step, scheme_label
from .models import Deck, Match
from .services import Submission

WITH, WITHOUT = "with", "without"


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}


class MatchForm(forms.Form):
    """A new match from a preset: scheme, options (shown with the preset's values), players, first dealer, length."""

    title = forms.CharField(label=_("Title (optional)"), max_length=100, required=False)
    planned_games = forms.IntegerField(
        label=_("Fixed number of games (optional)"),
        min_value=1,
        max_value=999,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, preset: Preset, known_players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.preset = preset
        spec = find_variant(preset.variant)
        assert spec is not None
        self.spec = spec
        self.fields["scheme"] = forms.ChoiceField(
            label=_("Scoring"),
            choices=[(scheme.value, scheme_label(scheme)) for scheme in spec.schemes],
            initial=preset.scheme.value,
        )
        seats = max(spec.players)
        for seat in range(seats):
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Seat %(number)d") % {"number": seat + 1},
                max_length=60,
                required=seat < min(spec.players),
                widget=forms.TextInput(attrs={"list": "known-players", "autocomplete": "off"}),
            )
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("First dealer"),
            coerce=int,
            empty_value=None,
            choices=[(seat, _("Seat %(number)d") % {"number": seat + 1}) for seat in range(seats)],
            initial=0,
            widget=forms.RadioSelect,
        )
        for name, default in spec.options.items():
            self.fields[f"rule_{name}"] = _option_field(name, preset.rules.get(name, default))
        self.known_players = known_players

    def player_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("player_")]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("rule_")]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        names = [data.get(f"player_{seat}", "").strip() for seat in range(max(self.spec.players))]
        names = [name for name in names if name]
        if len({name.lower() for name in names}) != len(names):
            self.add_error(None, _("Each player can sit at the table only once."))
        if len(names) not in self.spec.players:
            counts = ", ".join(str(count) for count in self.spec.players)
            self.add_error(None, _("This variant is played by %(counts)s players.") % {"counts": counts})
        dealer = data.get("first_dealer")
        if dealer is not None and names and dealer >= len(names):
            self.add_error("first_dealer", _("Choose one of the seats that has a player."))
        data["player_names"] = names
        data["rules"] = {name: data.get(f"rule_{name}") for name in self.spec.options}
        try:
            rules_for(self.spec.variant, data["rules"])
        except RuleError as error:
            for problem in error.errors:
                self.add_error(None, render_step(problem.message))
        return data


def _option_field(name: str, initial: bool | int | str) -> forms.Field:
    spec = OPTIONS[name]
    label, help_text = render_step(spec.label), render_step(spec.help)
    if spec.kind == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False, initial=initial)
    if spec.kind == "choice":
        return forms.ChoiceField(
            label=label,
            help_text=help_text,
            choices=[(choice, OPTION_CHOICE_LABELS.get(choice, choice)) for choice in spec.choices],
            initial=initial,
        )
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        min_value=spec.minimum,
        max_value=spec.maximum,
        initial=initial,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def preset_or_none(key: str | None) -> Preset | None:
    return PRESETS.get(key or "")


# Engine field paths that belong to a form field; anything else is shown above the form.
ERROR_FIELDS = {
    "declarer": "declarer",
    "game.contract": "contract",
    "game.matadors": "matadors",
    "game.declarer_card_points": "declarer_card_points",
    "game.schwarz": "schwarz",
    "game.hand": "hand",
    "game.ouvert": "ouvert",
    "game.announced": "announced",
    "game.won": "won",
    "game.bid": "bid",
    "game.kontra": "kontra",
    "game.re": "re",
    "game.conceded": "conceded",
    "game.ramsch": "ramsch_points",
    "game.ramsch.card_points": "ramsch_points",
    "game.ramsch.jungfrau": "jungfrau",
    "game.ramsch.pushes": "pushes",
    "game.ramsch.durchmarsch": "durchmarsch",
}


class GameForm(forms.Form):
    """One game, with only the fields the variant and its rules have. Works as a plain form post."""

    token = forms.UUIDField(widget=forms.HiddenInput)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(
        self, *args: Any, match: Match, seats: list[str], seating: Seating, deck: str = Deck.FRENCH, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        spec = find_variant(match.variant)
        assert spec is not None
        self.spec: VariantSpec = spec
        self.rules: Rules = rules_for(match.variant, match.rules)
        self.seating = seating
        self.seat_names = seats
        self.fields["token"].initial = uuid.uuid4()
        self.fields["declarer"] = forms.TypedChoiceField(
            label=_("Declarer"),
            coerce=int,
            empty_value=None,
            required=False,
            # In seat order, so that each player's button stays in its place from game to game.
            choices=[(seat, seats[seat]) for seat in sorted(seating.playing)],
            widget=forms.RadioSelect,
        )
        if spec.family is not Family.SKAT:
            # In the two-player games forehand announces the game.
            self.fields["declarer"].initial = seating.forehand
        contracts = [c for c in spec.contracts if self._offers(c)]
        self.fields["contract"] = forms.ChoiceField(
            label=_("Game"),
            choices=[(c.value, contract_label(c, deck)) for c in contracts],
            widget=forms.RadioSelect,
            initial=contracts[0].value,
        )
        if self.has_matadors:
            self.fields["matadors_kind"] = forms.ChoiceField(
                label=_("Matadors"),
                choices=[(WITH, _("with")), (WITHOUT, _("without"))],
                widget=forms.RadioSelect,
                initial=WITH,
                required=False,
            )
            self.fields["matadors"] = forms.IntegerField(
                label=_("How many"),
                min_value=0 if spec.family is Family.SCHAFKOPF else 1,
                max_value=14,
                initial=0 if spec.family is Family.SCHAFKOPF else 1,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        self.fields["declarer_card_points"] = forms.IntegerField(
            label=_("Declarer's card points"),
            min_value=0,
            max_value=120,
            required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
        )
        if self.rules.schwarz.value == "no-tricks" and spec.family is not Family.LIEUTENANT:
            self.fields["schwarz"] = forms.ChoiceField(
                label=_("Schwarz"),
                choices=[
                    ("", _("nobody")),
                    ("opponents", _("declarer took every trick")),
                    ("declarer", _("declarer took no trick")),
                ],
                required=False,
                widget=forms.RadioSelect,
                initial="",
            )
        if spec.bidding:
            self.fields["hand"] = forms.BooleanField(label=_("Hand"), required=False)
            self.fields["ouvert"] = forms.BooleanField(label=_("Ouvert"), required=False)
            self.fields["announced"] = forms.ChoiceField(
                label=_("Announced"),
                choices=[("", _("nothing")), ("schneider", _("Schneider")), ("schwarz", _("Schwarz"))],
                required=False,
                widget=forms.RadioSelect,
                initial="",
            )
            self.fields["bid"] = forms.IntegerField(
                label=_("Bid (optional)"),
                required=False,
                min_value=0,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.fields["conceded"] = forms.BooleanField(label=_("Conceded"), required=False)
        if Contract.NULL in contracts:
            self.fields["won"] = forms.TypedChoiceField(
                label=_("Null result"),
                choices=[("yes", _("won")), ("no", _("lost"))],
                coerce=lambda value: value == "yes",
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )
        if self.rules.kontra_re:
            kontra = _("Stoß") if spec.family is Family.SCHAFKOPF else _("Kontra")
            self.fields["kontra"] = forms.BooleanField(label=kontra, required=False)
            self.fields["re"] = forms.BooleanField(label=_("Re"), required=False)
        if Contract.RAMSCH in contracts:
            self._add_ramsch_fields()

    def _offers(self, contract: Contract) -> bool:
        if contract is Contract.NULL:
            return self.rules.null
        if contract is Contract.RAMSCH:
            return self.rules.ramsch
        return True

    @property
    def has_matadors(self) -> bool:
        if self.spec.family is Family.SCHAFKOPF:
            return self.rules.laufende
        return self.spec.family is not Family.LIEUTENANT

    def _add_ramsch_fields(self) -> None:
        for seat in self.seating.playing:
            self.fields[f"ramsch_{seat}"] = forms.IntegerField(
                label=self.seat_names[seat],
                min_value=0,
                max_value=120,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        choices = [(seat, self.seat_names[seat]) for seat in self.seating.playing]
        if self.rules.ramsch_jungfrau:
            self.fields["jungfrau"] = forms.TypedMultipleChoiceField(
                label=_("Jungfrau (took no trick)"),
                coerce=int,
                empty_value=None,
                choices=choices,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        if self.rules.ramsch_schieben:
            self.fields["pushes"] = forms.IntegerField(
                label=_("Pushes"),
                min_value=0,
                max_value=len(choices),
                initial=0,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        if self.rules.ramsch_durchmarsch:
            self.fields["durchmarsch"] = forms.TypedChoiceField(
                label=_("Durchmarsch"),
                coerce=int,
                empty_value=None,
                choices=[("", _("nobody")), *choices],
                required=False,
                widget=forms.RadioSelect,
            )

    def opponents_points(self) -> int | None:
        """120 minus the declarer's card points as typed, for the line under the field."""
        try:
            points = int(self["declarer_card_points"].value())
        except (TypeError, ValueError):
            return None
        return 120 - points if 0 <= points <= 120 else None

    def ramsch_fields(self) -> list[forms.BoundField]:
        return [self[f"ramsch_{seat}"] for seat in self.seating.playing if f"ramsch_{seat}" in self.fields]

    def submission(self) -> Submission:
        """The game as entered, in the calculator's shape; only the fields the chosen contract uses."""
        data = self.cleaned_data
        contract = data["contract"]
        if contract == Contract.RAMSCH:
            points = [0] * len(self.seat_names)
            for seat in self.seating.playing:
                points[seat] = data.get(f"ramsch_{seat}") or 0
            ramsch: dict[str, Any] = {"card_points": points}
            if data.get("jungfrau"):
                ramsch["jungfrau"] = data["jungfrau"]
            if data.get("pushes"):
                ramsch["pushes"] = data["pushes"]
            if data.get("durchmarsch") is not None:
                ramsch["durchmarsch"] = data["durchmarsch"]
            return Submission(declarer=None, entry={"contract": contract, "ramsch": ramsch}, number=data.get("number"))
        entry: dict[str, Any] = {"contract": contract}
        if contract == Contract.NULL:
            if data.get("won") is not None:
                entry["won"] = data["won"]
        else:
            self._add_matadors(entry)
            if data.get("declarer_card_points") is not None:
                entry["declarer_card_points"] = data["declarer_card_points"]
            if data.get("schwarz"):
                entry["schwarz"] = data["schwarz"]
            if data.get("announced"):
                entry["announced"] = data["announced"]
        for flag in ("hand", "ouvert", "kontra", "re", "conceded"):
            if data.get(flag):
                entry[flag] = True
        if data.get("bid"):
            entry["bid"] = data["bid"]
        return Submission(declarer=data.get("declarer"), entry=entry, number=data.get("number"))

    def _add_matadors(self, entry: dict[str, Any]) -> None:
        data = self.cleaned_data
        count = data.get("matadors")
        if not self.has_matadors or count is None or (count == 0 and self.spec.family is Family.SCHAFKOPF):
            return
        entry["matadors"] = -count if data.get("matadors_kind") == WITHOUT else count

    def add_rule_errors(self, error: RuleError) -> None:
        """Put each engine message next to its field; the rest above the form."""
        for problem in error.errors:
            field = ERROR_FIELDS.get(problem.field)
            if field == "ramsch_points":
                field = self.ramsch_fields()[0].name if self.ramsch_fields() else None
            self.add_error(field if field in self.fields else None, render_step(problem.message))


def initial_from(submission: Submission) -> dict[str, Any]:
    """Form data for a stored game, to fix it."""
    entry = dict(submission.entry or {})
    initial: dict[str, Any] = {"declarer": submission.declarer, "contract": entry.get("contract")}
    matadors = entry.get("matadors")
    if matadors is not None:
        initial["matadors_kind"] = WITH if matadors > 0 else WITHOUT
        initial["matadors"] = abs(matadors)
    for name in ("declarer_card_points", "schwarz", "announced", "bid", "hand", "ouvert", "kontra", "re", "conceded"):
        if name in entry:
            initial[name] = entry[name]
    if "won" in entry:
        initial["won"] = "yes" if entry["won"] else "no"
    ramsch = entry.get("ramsch")
    if ramsch:
        for seat, points in enumerate(ramsch.get("card_points", [])):
            initial[f"ramsch_{seat}"] = points
        initial["jungfrau"] = ramsch.get("jungfrau", [])
        initial["pushes"] = ramsch.get("pushes", 0)
        initial["durchmarsch"] = ramsch.get("durchmarsch")
    return initial
