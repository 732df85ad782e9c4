"""What the apps' data migrations share when a table of theirs moves into the core's one table for every kind of
event: the rows copied over with nothing lost, and back. Each works on the migration's historical models only, so
that it runs the same whatever the models look like today."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# A migration's RunPython step: the historical apps and the schema editor.
Step = Callable[[Any, Any], None]
BATCH = 500


def kept_answers_moved(label: str, old: str, thing: str) -> tuple[Step, Step]:
    """Copy the answers the app ``label`` kept by key in its model ``old`` (a foreign key to its ``thing``) into the
    core's ``KeptAnswer``, with their ages; and the way back."""

    def forward(apps: Any, schema_editor: Any) -> None:
        rows = apps.get_model(label, old).objects
        if not rows.exists():
            return
        kind, _ = apps.get_model("contenttypes", "ContentType").objects.get_or_create(app_label=label, model=thing)
        kept = apps.get_model("matches", "KeptAnswer")
        found = rows.order_by("pk").values_list(f"{thing}_id", "key", "asked", "answer", "created_at")
        kept.objects.bulk_create(
            (
                kept(kind=kind, thing_id=pk, key=key, asked=asked, answer=answer, created_at=created_at)
                for pk, key, asked, answer, created_at in found.iterator()
            ),
            batch_size=BATCH,
        )

    def backward(apps: Any, schema_editor: Any) -> None:
        model = apps.get_model(label, old)
        kept = apps.get_model("matches", "KeptAnswer").objects.filter(kind__app_label=label, kind__model=thing)
        model.objects.bulk_create(
            (
                model(**{f"{thing}_id": row.thing_id}, key=row.key, asked=row.asked, answer=row.answer)
                for row in kept.iterator()
            ),
            batch_size=BATCH,
        )

    return forward, backward


def paper_lines_moved(label: str, old: str, table: str, link: str, *, by_entry: bool = False) -> tuple[Step, Step]:
    """Copy the paper lines the app ``label`` kept in its model ``old`` (by its ``table`` model, whose match's
    reverse name is ``link``) into the core's ``PaperLine``, each under its table's match; and the way back. A
    line ``by_entry`` names a tournament's entry, whose player it is in the tournament's book."""
    player = "entry__player_id" if by_entry else "player_id"

    def forward(apps: Any, schema_editor: Any) -> None:
        lines = apps.get_model("matches", "PaperLine")
        rows = apps.get_model(label, old).objects.order_by("pk")
        found = rows.values_list("table__match_id", player, "game_points", "won", "lost")
        lines.objects.bulk_create(
            (
                lines(match_id=match, player_id=pk, game_points=points, won=won, lost=lost)
                for match, pk, points, won, lost in found.iterator()
            ),
            batch_size=BATCH,
        )

    def backward(apps: Any, schema_editor: Any) -> None:
        model = apps.get_model(label, old)
        table_of = dict(apps.get_model(label, table).objects.values_list("match_id", "pk"))
        entry_of = dict(apps.get_model(label, "Entry").objects.values_list("player_id", "pk")) if by_entry else {}
        kept = apps.get_model("matches", "PaperLine").objects.filter(**{f"match__{link}__isnull": False})
        model.objects.bulk_create(
            (
                model(
                    table_id=table_of[line.match_id],
                    **({"entry_id": entry_of[line.player_id]} if by_entry else {"player_id": line.player_id}),
                    game_points=line.game_points,
                    won=line.won,
                    lost=line.lost,
                )
                for line in kept.order_by("pk").iterator()
            ),
            batch_size=BATCH,
        )

    return forward, backward
