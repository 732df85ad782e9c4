"""A club night as the API answers it, read and after every change: who came, its tables and the version the night
has, also as the answer's ``ETag``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from matches.api.resources.matches import seats_data
from matches.api.shapes import replayed_field
from matches.models import Seat

from ..models import Attendance, ClubTable, Night, Season
from ..shapes import NightShape, TableShape

IF_MATCH_NIGHT = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The night\'s version the change was made on, as its ETag gave it ("12"): if the night changed '
    "since, the answer is 409 with the current version.",
)


class AttendeeShape(serializers.Serializer):  # type: ignore[type-arg]  # generic in the stubs only
    player = serializers.UUIDField()
    name = serializers.CharField()
    guest = serializers.BooleanField(help_text=_("A guest of the club, not a member."))
    in_pot = serializers.BooleanField(help_text=_("Plays for the prizes (and pays the stake)."))


class DrawnTableShape(TableShape):
    seed = serializers.CharField(
        help_text=_(
            "The seed the table's series was drawn from: the same seed draws the same tables. Empty for a "
            "series seated by a ranking."
        )
    )
    guests_from = serializers.IntegerField(allow_null=True, help_text=_("The table the guests sat from, if asked."))


class NightStateShape(NightShape):
    version = serializers.IntegerField(
        help_text=_("Grows with every change to the night; send it as If-Match to change the night safely.")
    )
    attendees = AttendeeShape(many=True, help_text=_("Who is checked in, in the order they came."))
    tables = DrawnTableShape(many=True)


class NightChangedShape(NightStateShape):
    replayed = replayed_field()


def night_data(night: Night, season: Season) -> dict[str, Any]:
    return {
        "id": night.public_id,
        "season": season.public_id,
        "date": night.date,
        "series": night.series,
        "closed": night.closed_at is not None,
    }


def night_state(night: Night) -> dict[str, Any]:
    """The night as it stands in the database (its version read afresh), in four queries."""
    fresh = Night.objects.select_related("season").get(pk=night.pk)
    seats = Seat.objects.filter(match__club_table__night=fresh).select_related("player").order_by("position")
    by_match: dict[int, list[Seat]] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    tables = [
        {
            "series": table.series,
            "number": table.number,
            "match": table.match.public_id,
            "paper": table.paper,
            "seats": seats_data(by_match.get(table.match_id, [])),
            "seed": table.seed,
            "guests_from": table.guests_from,
        }
        for table in ClubTable.objects.filter(night=fresh).select_related("match")
    ]
    attendees = [
        {
            "player": attendance.player.public_id,
            "name": attendance.player.name,
            "guest": bool(getattr(getattr(attendance.player, "roster", None), "guest", False)),
            "in_pot": attendance.in_pot,
        }
        for attendance in Attendance.objects.filter(night=fresh).select_related("player__roster")
    ]
    return {**night_data(fresh, fresh.season), "version": fresh.version, "attendees": attendees, "tables": tables}
