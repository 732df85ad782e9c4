"""What the apps' data migrations share when a table of theirs moves into the core's one table for every kind of
event: the rows copied over with nothing lost, and back; and the closed lists of the events closed before the core
kept them. Each works on the migration's historical models only, so
that it runs the same whatever the models look like today."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import Count, Q, Sum

from .engine import Scheme
from .engine.league import PaperLine as Paper
from .engine.league import SeriesLine, game_points_of_total, lines_from_paper

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


# A closed table's place, as a kind's migration reads it from its historical models: the match, the event's public
# id and name, what it counts in, the day and the series.
Place = tuple[int, uuid.UUID, str, uuid.UUID, datetime.date, int]


def closed_lists_kept(kind: str, places: Callable[[Any], Iterable[Place]]) -> tuple[Step, Step]:
    """Keep in the core's ``ClosedList`` every player's list at the tables of the kind ``kind`` whose events closed
    them before the core kept them (``places`` reads those tables from the historical apps), summed from the games
    or the paper lines as ``services.closed_lists_report`` sums them; and the way back, which drops the kind's rows."""

    def forward(apps: Any, schema_editor: Any) -> None:
        found = {match: place for match, *place in places(apps)}
        ids = sorted(found)
        for start in range(0, len(ids), BATCH):
            chunk = ids[start : start + BATCH]
            rows = _closed_lists(apps, {match: found[match] for match in chunk})
            apps.get_model("matches", "ClosedList").objects.bulk_create(rows, batch_size=BATCH)
        record_months_kept(apps, kind=kind)

    def backward(apps: Any, schema_editor: Any) -> None:
        apps.get_model("matches", "ClosedList").objects.filter(kind=kind).delete()
        record_months_kept(apps, kind=kind)

    def _closed_lists(apps: Any, chunk: dict[int, list[Any]]) -> list[Any]:
        model = apps.get_model("matches", "ClosedList")
        matches = {
            pk: (scheme, deals, planned or 0)
            for pk, scheme, deals, planned in apps.get_model("matches", "Match")
            .objects.filter(pk__in=list(chunk))
            .values_list("pk", "scheme", "deals", "planned_games")
        }
        sums = (
            apps.get_model("matches", "GameScore")
            .objects.filter(game__match_id__in=list(chunk), game__deleted=False)
            .values("game__match_id", "game__match__players", "player_id")
            .annotate(
                points=Sum("points"),
                won=Count("id", filter=Q(declarer=True, game__won=True)),
                lost=Count("id", filter=Q(declarer=True, game__won=False)),
                others_lost=Count("id", filter=Q(declarer=False, game__won=False, game__passed=False)),
            )
            .order_by()
        )
        # By match and player, as the service keeps them: a paper line stands for the games of its table.
        rows: dict[tuple[int, int], Any] = {}
        for row in sums:
            match, size = row["game__match_id"], row["game__match__players"]
            scheme, deals, _ = matches[match]
            points, won, lost, others = row["points"] or 0, row["won"], row["lost"], row["others_lost"]
            if scheme == Scheme.SEEGER_FABIAN:
                points = game_points_of_total(points, won=won, lost=lost, others_lost=others, table_size=size)
            line = SeriesLine(str(row["player_id"]), size, points, won, lost, others)
            rows[match, row["player_id"]] = _row(model, match, chunk[match], line, deals, scheme)
        papers: dict[int, list[Paper]] = {}
        written = apps.get_model("matches", "PaperLine").objects.filter(match_id__in=list(chunk))
        for match, player, *totals in written.order_by("id").values_list(
            "match_id", "player_id", "game_points", "won", "lost"
        ):
            papers.setdefault(match, []).append(Paper(str(player), *totals))
        for match, lines in papers.items():
            scheme, _, planned = matches[match]
            for line in lines_from_paper(lines):
                rows[match, int(line.player)] = _row(model, match, chunk[match], line, planned, scheme)
        return list(rows.values())

    def _row(model: Any, match: int, place: list[Any], line: SeriesLine, games: int, scheme: str) -> Any:
        event, name, within, date, series = place
        return model(
            match_id=match,
            player_id=int(line.player),
            kind=kind,
            event=event,
            event_name=name[:200],
            within=within,
            date=date,
            series=series,
            sequence=date.toordinal() * 1000 + series,
            scheme=scheme,
            table_size=line.table_size,
            games=games,
            won=line.won,
            lost=line.lost,
            others_lost=line.others_lost,
            game_points=line.game_points,
            total=line.total if scheme == Scheme.SEEGER_FABIAN else line.game_points,
        )

    return forward, backward


def record_months_kept(apps: Any, schema_editor: Any = None, *, kind: str | None = None) -> None:
    """Sum every closed list (of the kind ``kind`` only, where given) into its player's month as
    ``services.closed_lists`` keeps them (``RecordMonth``), in whatever order the apps' migrations and the core's
    run: nothing where the core keeps no months yet (the core's migration that brings them sums them all)."""
    try:
        months = apps.get_model("matches", "RecordMonth")
    except LookupError:
        return
    lists = apps.get_model("matches", "ClosedList").objects.order_by()
    kept = months.objects.all()
    if kind is not None:
        kept = kept.filter(kind=kind)
        lists = lists.filter(kind=kind)
    kept.delete()
    sums: dict[tuple[int, datetime.date, str, str, int], list[int]] = {}
    for player, date, of_kind, scheme, games, won, lost, total in lists.values_list(
        "player_id", "date", "kind", "scheme", "games", "won", "lost", "total"
    ).iterator(chunk_size=BATCH):
        one = sums.setdefault((player, date.replace(day=1), of_kind, scheme, games), [0, 0, 0, 0, total])
        one[0] += 1
        one[1] += won
        one[2] += lost
        one[3] += total
        one[4] = max(one[4], total)
    months.objects.bulk_create(
        (
            months(
                player_id=player,
                month=month,
                kind=of_kind,
                scheme=scheme,
                games=games,
                series=series,
                won=won,
                lost=lost,
                total=total,
                best=best,
            )
            for (player, month, of_kind, scheme, games), (series, won, lost, total, best) in sums.items()
        ),
        batch_size=BATCH,
    )


def ranking_events_kept(apps: Any, schema_editor: Any) -> None:
    """Index the events every ranking list counts (``RankingEvent``), as ``services.rankings.ranking_save`` does."""
    events = apps.get_model("matches", "RankingEvent")
    for ranking in apps.get_model("matches", "RankingList").objects.order_by("pk"):
        events.objects.bulk_create(events(ranking=ranking, within=uuid.UUID(within)) for within in set(ranking.events))


# --- People joined across books --------------------------------------------------------------------------------------
# A pair of players one source says are one person (an account's linked players, a roster's club and league player),
# or a player and the federation number a source gives them.
Pair = tuple[int, int]
Numbered = tuple[int, str]


def people_joined(
    how: str, pairs: Callable[[Any], Iterable[Pair]], numbered: Callable[[Any], Iterable[Numbered]]
) -> Step:
    """Join the players the app's rows say are one person, as its services join them from now on: ``pairs`` (two
    players a roster pairs), ``numbered`` (a player and a federation number). A join that would give a person two
    players of one book, or a player two people, or a number's player to an account's person, is left out: who they
    are stays for a person to decide."""

    def forward(apps: Any, schema_editor: Any) -> None:
        player_model = apps.get_model("matches", "Player")
        person_model = apps.get_model("matches", "Person")
        join_model = apps.get_model("matches", "Join")

        def join(player: Any, person: Any, joined: str, partner: Any = None) -> None:
            if (
                player.person_id is not None
                or player_model.objects.filter(person=person, keeper_id=player.keeper_id).exists()
            ):
                return
            player.person = person
            player.save(update_fields=["person"])
            join_model.objects.create(player=player, person=person, how=joined, partner=partner)

        for first, second in pairs(apps):
            one, other = player_model.objects.get(pk=first), player_model.objects.get(pk=second)
            # A league's player never brings a club's player into an account's person (``join_roster``).
            if other.person is not None and other.person.account_id:
                continue
            person = one.person or other.person
            if person is None:
                person = person_model.objects.create(name=one.name)
            join(one, person, how)
            join(other, person, how, partner=one)
        for pk, number in numbered(apps):
            player = player_model.objects.get(pk=pk)
            person = person_model.objects.filter(federation_number=number).first()
            if person is None and player.person is not None and not player.person.federation_number:
                player.person.federation_number = number
                player.person.save(update_fields=["federation_number"])
                continue
            if person is None:
                person = person_model.objects.create(name=player.name, federation_number=number)
            # A typed number never joins anybody to the person of an account (``matches.services.people``).
            if not person.account_id:
                join(player, person, "number")

    return forward
