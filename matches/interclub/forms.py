"""The league pages' forms: what a league manager, a secretary or a captain types, read into the services' terms;
the services check the rest and their refusals are put next to these fields."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from matches.engine.match_days import ShortVenue, TableTie, TieRule
from matches.forms.fields import MakesOnce, WholeNumberField

from .models import Division, LeagueRole, RosterEntry, Team
from .services import MAX_SERIES, MIN_SERIES, LeagueSettings

SERIES_TIE_LABELS = {
    TieRule.SHARED: _("they share the league points of their places"),
    TieRule.BETTER_PLACE: _("each gets the points of the better place"),
    TieRule.WORSE_PLACE: _("each gets the points of the worse place"),
}
SHORT_VENUE_LABELS = {
    ShortVenue.PRESENT: _("the teams present are ranked among themselves"),
    ShortVenue.ABSENT_BEATEN: _("every team present has beaten the absent one too"),
}
TABLE_TIE_LABELS = {
    TableTie.SHARED: _("they share the rank"),
    TableTie.DIRECT: _("the series where they met decide"),
    TableTie.LOT: _("a lot drawn from the group's seed decides"),
}


def _labelled(labels: dict[Any, Any], values: type[Any]) -> list[tuple[str, Any]]:
    """Every value of the engine's choice with its label (the value itself where none was written)."""
    return [(value.value, labels.get(value, value.value)) for value in values]


def _choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    """The form's choice field of that name, whose choices come from the database when the form is made."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


class LeagueForm(MakesOnce):
    name = forms.CharField(label=_("Name of the league"), max_length=100)
    series_per_day = WholeNumberField(
        label=_("Series per match day"), min_value=MIN_SERIES, max_value=MAX_SERIES, initial=3
    )
    games_at_four = WholeNumberField(label=_("Games per series at a table of four"), min_value=1, initial=48)
    games_at_three = WholeNumberField(label=_("Games per series at a table of three"), min_value=1, initial=36)
    # Choices whose labels are sentences: radio buttons, which wrap on a phone where a select cuts them off.
    series_tie = forms.ChoiceField(
        label=_("Equal series scores"),
        choices=_labelled(SERIES_TIE_LABELS, TieRule),
        widget=forms.RadioSelect,
        initial=LeagueSettings.series_tie,
    )
    short_venue = forms.ChoiceField(
        label=_("A series a team did not play"),
        choices=_labelled(SHORT_VENUE_LABELS, ShortVenue),
        widget=forms.RadioSelect,
        initial=LeagueSettings.short_venue,
    )
    per_team_beaten = forms.TypedChoiceField(
        label=_("League points per team beaten"), choices=[(1, "1"), (2, "2")], coerce=int, initial=1
    )
    minus_counts = forms.BooleanField(label=_("Fewer minus points rank first"), required=False)
    table_tie = forms.ChoiceField(
        label=_("Equal teams in the table"),
        choices=_labelled(TABLE_TIE_LABELS, TableTie),
        widget=forms.RadioSelect,
        initial=LeagueSettings.table_tie,
    )
    minimum_series = WholeNumberField(
        label=_("Minimum series for the players' ranking"), min_value=0, initial=0, required=False
    )

    def settings(self) -> LeagueSettings:
        data = self.cleaned_data
        return LeagueSettings(
            name=data["name"],
            series_per_day=data["series_per_day"],
            games_at_four=data["games_at_four"],
            games_at_three=data["games_at_three"],
            series_tie=data["series_tie"],
            short_venue=data["short_venue"],
            per_team_beaten=data["per_team_beaten"],
            minus_counts=data["minus_counts"],
            table_tie=data["table_tie"],
            minimum_series=data["minimum_series"] or 0,
        )


class ManagerForm(forms.Form):
    """A role at the league given to an account, by its name."""

    username = forms.CharField(label=_("Account name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=LeagueRole.choices, initial=LeagueRole.MANAGER)


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Name of the division"), max_length=100)
    level = WholeNumberField(label=_("Level (1 the highest)"), min_value=1, max_value=20, initial=1)


class GroupForm(forms.Form):
    division = forms.ChoiceField(label=_("Division"))
    name = forms.CharField(label=_("Name of the group"), max_length=100)
    promoted = WholeNumberField(label=_("Promotion places"), min_value=0, max_value=20, initial=0)
    relegated = WholeNumberField(label=_("Relegation places"), min_value=0, max_value=20, initial=0)

    def __init__(self, *args: Any, divisions: list[Division], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.divisions = {str(division.pk): division for division in divisions}
        _choice_field(self, "division").choices = [(key, division.name) for key, division in self.divisions.items()]

    def chosen_division(self) -> Division:
        return self.divisions[self.cleaned_data["division"]]


class TeamForm(forms.Form):
    club = forms.UUIDField(label=_("Club"), widget=forms.Select)
    name = forms.CharField(label=_("Name of the team"), max_length=100)
    captain = forms.CharField(label=_("Captain (username)"), max_length=150, required=False)

    def __init__(self, *args: Any, clubs: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].widget.choices = clubs


class CaptainForm(forms.Form):
    captain = forms.CharField(label=_("Captain (username)"), max_length=150, required=False)


class RosterForm(forms.Form):
    player = forms.UUIDField(label=_("Player of the club"), widget=forms.Select)
    federation_number = forms.CharField(
        label=_("Federation number"),
        max_length=40,
        required=False,
        help_text=_("Its letters and digits make the number: 12-345 and 12345 are one number."),
    )
    substitute = forms.BooleanField(label=_("On the substitution list"), required=False)

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].widget.choices = players


class MatchDayForm(forms.Form):
    number = WholeNumberField(label=_("Number of the match day"), min_value=1, max_value=99)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))


class VenueForm(forms.Form):
    # Where the venue plays, not a place in a table: a word of its own in German.
    place = forms.CharField(label=pgettext_lazy("where a venue plays", "Place"), max_length=100, required=False)
    teams = forms.MultipleChoiceField(label=_("Teams"), widget=forms.CheckboxSelectMultiple)
    host_team = forms.ChoiceField(label=_("Host team"))

    def __init__(self, *args: Any, teams: list[Team], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(str(team.public_id), team.name) for team in teams]
        _choice_field(self, "teams").choices = choices
        _choice_field(self, "host_team").choices = choices


class CheckInForm(forms.Form):
    """A team's line-up for a series: three or four of its roster and substitution list, in the roster's order."""

    entries = forms.MultipleChoiceField(label=_("Players"), widget=forms.CheckboxSelectMultiple, required=False)

    def __init__(self, *args: Any, series: int, team: Team, entries: list[RosterEntry], **kwargs: Any) -> None:
        # One form per series and team on the venue's page: the prefix keeps their inputs' ids apart.
        kwargs["prefix"] = f"s{series}-t{team.pk}"
        super().__init__(*args, **kwargs)
        self.series = series
        self.team = team
        self.roster = entries
        self.fields["entries"].label = _("Players of %(team)s") % {"team": team.name}
        _choice_field(self, "entries").choices = [
            (str(entry.pk), f"{entry.player.name} ({_('substitute')})" if entry.substitute else entry.player.name)
            for entry in entries
        ]

    def chosen(self) -> list[RosterEntry]:
        picked = set(self.cleaned_data["entries"])
        return [entry for entry in self.roster if str(entry.pk) in picked]


class ReopenForm(forms.Form):
    reason = forms.CharField(label=_("Why the results are corrected"), max_length=500, required=False)


class ReportReadForm(forms.Form):
    """A confirmation or an acceptance of a venue's report: ``version``, the venue's version its page showed the
    report at; a form that does not say is refused, never taken for the report as it stands."""

    version = WholeNumberField(
        widget=forms.HiddenInput,
        min_value=0,
        error_messages={
            "required": _(
                "This page did not say which report it showed: read the report as it stands now, then send it again."
            )
        },
    )
