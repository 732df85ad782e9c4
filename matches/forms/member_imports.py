"""Member numbers in bulk: the member list to read, and the keeper's answer to each doubt of its preview."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..errors import Invalid
from ..labels import render_step
from ..models import Deck
from ..refusals import refusal_texts
from ..services.member_imports import MAX_BYTES, NEW, SKIP, Kind, Preview, member_rows_read

# What the file field offers to pick: the endings and the types of CSV, XLSX and ODS files.
ACCEPTED = ",".join(
    (
        ".csv",
        ".xlsx",
        ".ods",
        "text/csv",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.oasis.opendocument.spreadsheet",
    )
)


class MemberListForm(forms.Form):
    """A federation's member list, read at once: a file that cannot be read, has no columns of names and numbers,
    no rows, or is too large is refused next to the field. ``rows``: what it holds, once valid."""

    file = forms.FileField(
        label=_("Member list (CSV, XLSX or ODS)"),
        help_text=_(
            "The first row names the columns: Name (or Vorname and Nachname) and Mitgliedsnummer (or Mitglieds-Nr., "
            "DSkV-Nr., ISPA-Nr., Member number). At most 2 MB and 5,000 rows."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ACCEPTED}),
    )

    rows: list[dict[str, Any]]

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size is not None and upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("A member list is at most %(size)s MB.") % {"size": MAX_BYTES // 2**20}, code="too_large"
            )
        try:
            self.rows = member_rows_read(upload.read(MAX_BYTES + 1))
        except Invalid as error:
            raise forms.ValidationError(refusal_texts(error)) from None
        finally:
            upload.seek(0)
        return upload


class DoubtsForm(forms.Form):
    """The preview as the keeper confirms it: ``plan`` (every row as shown) and, for each doubt, one choice by
    row (``d-<row>``), skipping preselected."""

    plan = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, preview: Preview, *args: Any, deck: str = Deck.FRENCH, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["plan"].initial = preview.plan
        for row in preview.of(Kind.DOUBT):
            choices = []
            for choice in row.choices:
                if choice.code == SKIP:
                    label = gettext("Skip: join nobody to this number")
                elif choice.code == NEW:
                    label = gettext("Add %(name)s as a new player") % {"name": row.name}
                else:
                    assert choice.player is not None
                    label = gettext("Join %(name)s") % {"name": choice.player.name}
                if choice.doubt is not None and choice.doubt != row.problem:
                    label += f" ({render_step(choice.doubt, deck)})"
                choices.append((choice.code, label))
            self.fields[f"d-{row.row}"] = forms.ChoiceField(
                label=gettext("Row %(row)s: %(name)s, %(number)s")
                % {"row": row.row, "name": row.name, "number": row.number},
                help_text=render_step(row.problem, deck) if row.problem is not None else "",
                choices=choices,
                initial=SKIP,
                widget=forms.RadioSelect,
                required=False,
            )
