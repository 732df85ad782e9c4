"""A knockout's part of a backup (the section ``"knockout"``, beside its book's players and matches): its settings and
tables with their paper lists. Its organiser is an account, not part of it; its kept standings are derived, and
summed afresh from the restored lists."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from matches.backup import (
    ByName,
    PaperWhere,
    Restored,
    Section,
    Unfit,
    book_backup,
    flag,
    items,
    moment,
    named,
    paper_lines,
    paper_lines_read,
    paper_restored,
    when,
)
from matches.errors import Invalid
from matches.models import Keeper

from . import services
from .models import Knockout, KnockoutTable


def knockout_backup(knockout: Knockout) -> dict[str, Any]:
    data = book_backup(knockout.keeper)
    tables = KnockoutTable.objects.filter(knockout=knockout).select_related("match").order_by("series", "number")
    data["knockout"] = {
        "id": str(knockout.public_id),
        "name": knockout.name,
        "variant": knockout.variant,
        "scheme": knockout.scheme,
        "rules": knockout.rules,
        "games": knockout.games,
        "created_at": when(knockout.created_at),
        "tables": [
            {
                "series": table.series,
                "number": table.number,
                "match": str(table.match.public_id),
                "paper": table.paper,
                "paper_lines": paper_lines(table.match),
            }
            for table in tables
        ],
    }
    return data


def knockout_book(data: Mapping[str, Any], user: User, version: int) -> Keeper | None:
    """The knockout's book, if it is here already (``Unfit`` unless ``user`` organises it)."""
    knockout = Knockout.objects.filter(public_id=uuid.UUID(data["id"])).first()
    if knockout is None:
        return None
    if knockout.organiser_id != user.pk:
        raise Unfit(data["id"])
    return knockout.keeper


def knockout_made(data: Mapping[str, Any], user: User, version: int) -> Keeper:
    """The knockout made anew with ``user`` its organiser: its book."""
    if data["variant"] != services.VARIANT or data["scheme"] != services.SCHEME:
        raise ValueError(data["variant"])
    try:
        knockout = services.knockout_create(organiser=user, name=str(data["name"]), games=int(data["games"]))
    except Invalid as error:
        raise ValueError(str(error)) from error
    Knockout.objects.filter(pk=knockout.pk).update(
        public_id=uuid.UUID(data["id"]), rules=dict(data["rules"]), created_at=moment(data["created_at"])
    )
    return knockout.keeper


def restore_knockout(data: Mapping[str, Any], restored: Restored) -> dict[str, int]:
    """The knockout's tables and paper lists, into the knockout ``knockout_made`` made (one with tables here already
    is left as it is); its standings summed afresh."""
    knockout = Knockout.objects.get(keeper=restored.keeper)
    if knockout.tables.exists():
        return {}
    for one in items(data, "tables"):
        table = KnockoutTable(
            knockout=knockout,
            series=int(one["series"]),
            number=int(one["number"]),
            match=restored.matches[one["match"]],
            paper=flag(one["paper"]),
        )
        table.full_clean(exclude=["knockout", "match"], validate_unique=False, validate_constraints=False)
        table.save()
        lines = paper_lines_read(one, restored)
        where = PaperWhere(table.number, table.series, knockout.name, knockout.games, skat_values=True)
        paper_restored(table.match, lines, where=where)
    services.knockout_standings_rescore(knockout)
    return {}


KNOCKOUT_SECTION = Section(
    key="knockout",
    book=knockout_book,
    make_book=knockout_made,
    restore=restore_knockout,
    by_name=ByName(
        flag="knockout",
        help="the knockout (by name) whose tables and paper lists are backed up",
        find=named(Knockout.objects.all(), "knockouts"),
        backup=knockout_backup,
    ),
)
