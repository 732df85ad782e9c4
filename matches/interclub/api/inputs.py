"""What the changes to a venue take in the API: checked in shape here, against the venue by the league's
services."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from matches.api.paper import PaperListInput
from matches.api.serializers import CheckedText, StrictInput
from matches.engine.match_days import MAX_TEAMS, SHORT_TEAM_SIZE, TEAM_SIZE

from ..services import MAX_SERIES

# More tables than a series at a venue can have: four teams of four players, every one at a table of three.
MOST_TABLES = MAX_TEAMS * TEAM_SIZE // SHORT_TEAM_SIZE
# Room for a line-up the services refuse by name (two players, or five): anything longer is no line-up at all.
MOST_IN_A_LINE_UP = 2 * TEAM_SIZE
MAX_REASON_LENGTH = 500


class SeriesInput(StrictInput):
    """A series of the venue."""

    series = serializers.IntegerField(min_value=1, max_value=MAX_SERIES)


class LineUpInput(SeriesInput):
    """A team's line-up for a series, in seat order."""

    team = serializers.UUIDField(help_text=_("A team playing at the venue."))
    players = serializers.ListField(
        child=serializers.UUIDField(),
        min_length=1,
        max_length=MOST_IN_A_LINE_UP,
        help_text=_(
            "Three or four players of the team's roster or substitution list, by their id in the club's book, in "
            "the order of the line-up."
        ),
    )


class VenuePaperInput(PaperListInput):
    """A table's paper list, of a series and a table a venue can have."""

    series = serializers.IntegerField(min_value=1, max_value=MAX_SERIES)
    table = serializers.IntegerField(
        min_value=1, max_value=MOST_TABLES, help_text=_("The table's number in its series.")
    )


class ConfirmInput(StrictInput):
    """The team whose captain confirms the report."""

    team = serializers.UUIDField(help_text=_("A team playing at the venue, whose captain you are."))


class VenueReopenInput(StrictInput):
    """Why an accepted report is corrected."""

    reason = CheckedText(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_REASON_LENGTH,
        help_text=_("Why the results are corrected: required once the report was accepted."),
    )


class NothingInput(StrictInput):
    """Closing a venue and accepting its report take nothing but the headers."""
