"""A knockout for the persona matrix and the schema fuzzer: organised by the account they ask with, its first
series started (a table of four and one of three)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Model

from .models import Knockout
from .services import knockout_create, series_start

PLAYERS = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gero")


def knockout_things(owner: User) -> dict[str, Model]:
    knockout = Knockout.objects.filter(organiser=owner).first()
    if knockout is None:
        knockout = knockout_create(organiser=owner, name="K.-o.-Abend")
        series_start(knockout=knockout, series=1, players=PLAYERS, user=owner)
    return {"knockout_id": knockout}
