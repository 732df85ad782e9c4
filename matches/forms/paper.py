"""A table's paper list as typed at the table or the desk, for every kind of event: a row per player seated (game
points, games won, games lost), filled with the totals entered before, refusals next to the number they name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from ..engine import RuleError
from ..models import Match, PaperLine
from ..refusals import refusal_on_form
from ..services.paper import MAX_SERIES_GAMES, MOST_GAME_POINTS, PaperTotals, TableVersion
from .fields import WholeNumberField


def _line_field(field: str) -> str | None:
    """A paper list's field as its form names it: ``lines.2.won`` is ``won_2``."""
    parts = field.split(".")
    if len(parts) != 3 or parts[0] != "lines":
        return None
    column = {"game_points": "points", "won": "won", "lost": "lost"}.get(parts[2])
    return None if column is None else f"{column}_{parts[1]}"


class PaperForm(forms.Form):
    """One row per player of the table: game points, won, lost; and, hidden, the table it was made out on: its match
    (``match``, the public id), its players in seat order (``seats``, their public ids) and the match's version
    (``version``), so that a list is not entered over another that its sender did not see, on a table drawn again,
    nor beside players who changed seats. ``match``: the public id of the match whose players are the rows."""

    def __init__(self, *args: Any, players: list[Any], match: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.match_public_id = match
        for index, player in enumerate(players):
            self.fields[f"points_{index}"] = WholeNumberField(
                label=_("Game points of %(name)s") % {"name": player.name},
                min_value=-MOST_GAME_POINTS,
                max_value=MOST_GAME_POINTS,
            )
            self.fields[f"won_{index}"] = WholeNumberField(label=_("won"), min_value=0, max_value=MAX_SERIES_GAMES)
            self.fields[f"lost_{index}"] = WholeNumberField(label=_("lost"), min_value=0, max_value=MAX_SERIES_GAMES)
        # Typed with the number keys alone: Enter moves on to the next field (static/js/entry.js) and, from the last,
        # saves; the phone's key says which. The first field has the focus when the list opens.
        names = list(self.fields)
        for name in names:
            self.fields[name].widget.attrs |= {"enterkeyhint": "next", "autocomplete": "off"}
        if names:
            self.fields[names[-1]].widget.attrs["enterkeyhint"] = "done"
            self.fields[names[0]].widget.attrs["autofocus"] = True
        self.fields["version"] = WholeNumberField(widget=forms.HiddenInput, required=False, min_value=0)
        self.fields["match"] = forms.CharField(widget=forms.HiddenInput, required=False)
        self.fields["seats"] = forms.CharField(widget=forms.HiddenInput, required=False)

    @classmethod
    def of_table(cls, data: QueryDict | None, match: Match) -> PaperForm:
        """The form for the players seated at ``match`` (a table of any kind of event), filled with the totals
        entered from its paper list before, if any, and made out on the table as it stands (its match, its players in
        their seats, the match's version)."""
        players = [seat.player for seat in match.seats.select_related("player").order_by("position")]
        by_player = {line.player_id: line for line in PaperLine.objects.filter(match=match)}
        initial: dict[str, Any] = cls._made_out(str(match.public_id), players, match.version)
        for index, player in enumerate(players):
            line = by_player.get(player.pk)
            if line is not None:
                initial |= {f"points_{index}": line.game_points, f"won_{index}": line.won, f"lost_{index}": line.lost}
        return cls(data, players=players, match=str(match.public_id), initial=initial)

    @staticmethod
    def _made_out(match: str, players: list[Any], version: int) -> dict[str, str]:
        """The hidden fields of a form made out on the table of ``match`` seating ``players`` at ``version``."""
        seats = " ".join(str(player.public_id) for player in players)
        return {"match": match, "seats": seats, "version": str(version)}

    def rows(self) -> list[tuple[Any, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (player, self[f"points_{index}"], self[f"won_{index}"], self[f"lost_{index}"])
            for index, player in enumerate(self.players)
        ]

    def renew(self, *, version: int) -> None:
        """Make the form out anew on its rows' players in their seats now and the match's ``version``, what was typed
        kept beside the player it was typed for (by the seats the form carried): after a refusal because the table
        moved on (another list entered, two seats swapped, the series drawn again), sending it again enters each
        player's totals as typed over the list as it stands now. A player no longer seated loses what was typed for
        them; one seated since gets an empty row."""
        columns = ("points", "won", "lost")
        carried = str(self.data.get("seats", "")).split()
        typed = {
            player: {column: self.data.get(f"{column}_{index}", "") for column in columns}
            for index, player in enumerate(carried)
        }
        data = QueryDict(mutable=True)
        data.update(self.data)
        for index in range(max(len(carried), len(self.players))):
            for column in columns:
                data.pop(f"{column}_{index}", None)
        for index, player in enumerate(self.players):
            for column, value in typed.get(str(player.public_id), {}).items():
                data[f"{column}_{index}"] = value
        for name, value in self._made_out(self.match_public_id, self.players, version).items():
            data[name] = value
        self.data = data

    def seen(self) -> TableVersion | None:
        """The table the form was made out on (None from a form that does not say its version)."""
        data = self.cleaned_data
        if data.get("version") is None:
            return None
        return TableVersion(data.get("match", ""), tuple(data.get("seats", "").split()), data["version"])

    def lines(self) -> list[PaperTotals]:
        data = self.cleaned_data
        return [
            PaperTotals(player, data[f"points_{index}"], data[f"won_{index}"], data[f"lost_{index}"])
            for index, player in enumerate(self.players)
        ]

    def summary(self) -> list[tuple[str, str]]:
        """What stops the list, for the top of the page: the problems of the list as a whole, then each field's in
        the page's order, with its player; each as the id of its field ("" for the whole list) and the text."""
        problems = [("", str(error)) for error in [*self.non_field_errors(), *self["version"].errors]]
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
