"""A table's paper list through the API, for every kind of event: the body (the table by its series and number, and
a line of totals for each player at it), each line's player found among the table's seats, and the list entered by
the kind's own service under its protocol of a change (``matches.api.replays``: a retried key gets its first answer,
a stale ``If-Match`` a 409). A kind's view declares its tables and its service (``PaperTables``) and names its
answer; the refusals read the same at every kind of event."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from django.contrib.auth.models import User
from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Invalid
from ..models import Player
from ..permissions import signed_in_account
from .replays import Made, VersionedChangeView
from .resources.common import bounded_body
from .serializers import PaperLineInput, StrictInput

NO_SUCH_TABLE = gettext_noop("Series {series} has no table {number}.")
NOT_AT_THE_TABLE = gettext_noop("One line for each player at the table.")

# Room for any event's series, tables and seats: a table the body names that its event has not is refused by name
# (``NO_SUCH_TABLE``), not by a bound.
MOST_SERIES = 100
MOST_TABLES = 1000
MOST_AT_A_TABLE = 4

# A line of a paper list as a kind's service takes it: who, game points, games won, games lost.
Line = tuple[Any, int, int, int]


class PaperTable(Protocol):
    """A table of an event: the match it is played as."""

    match_id: int


class PaperEnter(Protocol):
    """A kind's service that enters a table's paper list (through the core's ``table_paper_enter``)."""

    def __call__(self, *, table: Any, lines: list[Line], user: User) -> object: ...


@dataclass(frozen=True)
class PaperTables:
    """A kind's tables as its paper-list view finds them and enters their lists: its table ``model``, the field (or
    the path of fields) ``owner`` from a table to the view's subject (``night``, ``venue``, ``series__tournament``),
    and its service ``enter``."""

    model: type[models.Model]
    owner: str
    enter: PaperEnter


class PaperListInput(StrictInput):
    """A table's paper list: the table by its series and number, and a line for each player at it."""

    series = serializers.IntegerField(min_value=1, max_value=MOST_SERIES)
    table = serializers.IntegerField(
        min_value=1, max_value=MOST_TABLES, help_text=_("The table's number in its series.")
    )
    lines = serializers.ListField(
        child=PaperLineInput(),
        min_length=1,
        max_length=MOST_AT_A_TABLE,
        help_text=_("One line for each player at the table: game points, games won and lost."),
    )


class PaperListView(VersionedChangeView):
    """``PUT`` a table's paper list. A kind's view declares its tables and its service (``paper_tables``: the table
    the body names is found among the subject's, the list entered by the service) and answers as its other changes do
    (``paper_changed``); a kind whose address or body names the table or its players otherwise takes its own
    ``paper_input`` with ``paper_table`` and ``paper_lines``."""

    paper_input: ClassVar[type[serializers.Serializer[Any]]] = PaperListInput
    paper_tables: ClassVar[PaperTables]

    def put(self, request: Request, **ids: Any) -> Response:
        data = bounded_body(self.paper_input, request)
        user = signed_in_account(request)

        def change() -> Made:
            table = self.paper_table(data, ids)
            self.paper_enter(table, self.paper_lines(table, data), user)
            return Made()

        return self.paper_changed(request, change, ids)

    def table_of(self, series: int, number: int) -> PaperTable | None:
        """The subject's table ``number`` of series ``series`` with its event, None if it has none."""
        tables = self.paper_tables
        found: models.QuerySet[Any] = tables.model._default_manager.filter(
            **{tables.owner: self.subject}, series=series, number=number
        )
        return found.select_related(tables.owner).first()

    def paper_enter(self, table: Any, lines: list[Line], user: User) -> None:
        """Enter ``lines`` on ``table`` by the kind's service, which refuses what the table's games cannot make."""
        self.paper_tables.enter(table=table, lines=lines, user=user)

    def paper_changed(self, request: Request, change: Callable[[], Made], ids: Mapping[str, Any]) -> Response:
        """``change`` made under the kind's protocol, answered as its other changes are."""
        raise NotImplementedError

    def paper_table(self, data: Mapping[str, Any], ids: Mapping[str, Any]) -> PaperTable:
        """The table the body names; 400 naming ``table`` for one the event has not."""
        series, number = data["series"], data["table"]
        table = self.table_of(series, number)
        if table is None:
            raise Invalid([FieldError("table", msg(NO_SUCH_TABLE, series=series, number=number))])
        return table

    def paper_lines(self, table: PaperTable, data: Mapping[str, Any]) -> list[Line]:
        """Each line with its player, one seated at ``table``; 400 naming each line whose player sits elsewhere."""
        lines: Sequence[Mapping[str, Any]] = data["lines"]
        wanted = [line["player"] for line in lines]
        seated = {
            player.public_id: player
            for player in Player.objects.filter(seats__match_id=table.match_id, public_id__in=wanted)
        }
        problems = [
            FieldError(f"lines.{index}.player", msg(NOT_AT_THE_TABLE))
            for index, player in enumerate(wanted)
            if player not in seated
        ]
        if problems:
            raise Invalid(problems)
        return [(seated[line["player"]], line["game_points"], line["won"], line["lost"]) for line in lines]
