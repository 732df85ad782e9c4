"""An open tournament as the API answers it, read and after every change: the tournament as announced, entries
with their payments, tandems and teams, series with their tables (each a match, scored through the core's games),
rankings, the prize list and the cashier's list, each in a fixed number of queries however many players there
are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from matches.engine import RuleError
from matches.engine.league import Place
from matches.engine.tournaments import Cashier, Prize, PrizeKind
from matches.scoring import error_tree

from ..models import Entry, Payment, Series, Side, SideMember, Table, TableSeat, Tournament
from ..selectors import TournamentResults

IF_MATCH_TOURNAMENT = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The tournament\'s version the change was made on, as its ETag gave it ("12"): if the tournament '
    "changed since, the answer is 409 with the current version.",
)


def schedule_data(stored: dict[str, Any]) -> dict[str, Any]:
    return {
        "values": list(stored.get("values", [])),
        "kind": stored.get("kind", "shares"),
        "payout": stored.get("payout", "in-full"),
    }


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    club = tournament.club
    return {
        "id": tournament.public_id,
        "name": tournament.name,
        "date": tournament.date,
        "venue": tournament.venue,
        "club": {"id": club.public_id, "name": club.name} if club is not None else None,
        "announced_at": tournament.announced_at,
    }


def tournament_data(tournament: Tournament, *, manages: bool) -> dict[str, Any]:
    """The tournament as announced, with how many are in, the series drawn and its version read afresh."""
    fresh = Tournament.objects.select_related("club").get(pk=tournament.pk)
    series = Series.objects.filter(tournament=fresh).order_by("number")
    return {
        **tournament_summary(fresh),
        "variant": fresh.variant,
        "scheme": fresh.scheme,
        "rules": fresh.rules,
        "series": fresh.series,
        "games_at_four": fresh.games_at_four,
        "games_at_three": fresh.games_at_three,
        "seats": fresh.seats,
        "fees": {
            "entry": fresh.entry_fee,
            "list": fresh.list_fee,
            "lost_games": [{"start": start, "cents": cents} for start, cents in fresh.lost_game_tiers],
            "tandem": fresh.tandem_fee,
            "team": fresh.team_fee,
        },
        "share": {
            "kind": fresh.share_kind,
            "value": fresh.share_value,
            "keeps_list_fees": fresh.keeps_list_fees,
            "keeps_lost_game_fees": fresh.keeps_lost_game_fees,
        },
        "places": schedule_data(fresh.places),
        "best_series": list(fresh.best_series),
        "tandem_prizes": schedule_data(fresh.tandem_prizes),
        "team_prizes": schedule_data(fresh.team_prizes),
        "categories": [{"name": one.name, "prizes": list(one.prizes)} for one in fresh.categories.order_by("order")],
        "doubles": fresh.doubles,
        "late_entries": fresh.late_entries,
        "entrants": Entry.objects.filter(tournament=fresh, withdrawn_after__isnull=True).count(),
        "drawn": [series_summary(one) for one in series],
        "manages": manages,
        "version": fresh.version,
    }


def series_summary(series: Series) -> dict[str, Any]:
    return {"number": series.number, "seating": series.seating, "closed": series.closed_at is not None}


def entries_data(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """The entries with their payments (one query for every payment of them), in the order given."""
    payments: dict[int, list[Payment]] = {}
    for payment in Payment.objects.filter(entry__in=list(entries)).order_by("created_at", "id"):
        payments.setdefault(payment.entry_id, []).append(payment)
    return [
        {
            "id": entry.public_id,
            "name": entry.name,
            "club": entry.club,
            "category": entry.category.name if entry.category is not None else None,
            "federation_number": entry.federation_number,
            "channel": entry.channel,
            "code": entry.code,
            "withdrawn_after": entry.withdrawn_after,
            "paid": sum(one.amount for one in payments.get(entry.pk, [])),
            "payments": [{"amount": one.amount, "created_at": one.created_at} for one in payments.get(entry.pk, [])],
            "created_at": entry.created_at,
        }
        for entry in entries
    ]


def entry_data(entry: Entry) -> dict[str, Any]:
    """One entry as it stands in the database."""
    fresh = Entry.objects.select_related("category").get(pk=entry.pk)
    return entries_data([fresh])[0]


def sides_data(sides: Sequence[Side]) -> list[dict[str, Any]]:
    """The tandems and teams with their members in the order named (one query for every member of them)."""
    members: dict[int, list[dict[str, Any]]] = {}
    rows = SideMember.objects.filter(side__in=list(sides)).select_related("entry").order_by("side_id", "position")
    for one in rows:
        members.setdefault(one.side_id, []).append({"entry": one.entry.public_id, "name": one.entry.name})
    return [{"kind": side.kind, "name": side.name, "members": members.get(side.pk, [])} for side in sides]


def series_data(series: Sequence[Series]) -> list[dict[str, Any]]:
    """Each series with its tables, each table's match and who sits where, in three queries however many tables."""
    tables = list(Table.objects.filter(series__in=list(series)).select_related("match").order_by("number"))
    seats: dict[int, list[dict[str, Any]]] = {}
    rows = TableSeat.objects.filter(table__in=tables).select_related("entry__player").order_by("table_id", "position")
    for seat in rows:
        seats.setdefault(seat.table_id, []).append(
            {
                "seat": seat.position,
                "entry": seat.entry.public_id,
                "player": seat.entry.player.public_id,
                "name": seat.entry.name,
                "club": seat.entry.club,
            }
        )
    by_series: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        by_series.setdefault(table.series_id, []).append(
            {
                "number": table.number,
                "match": table.match.public_id,
                "paper": table.paper,
                "planned_games": table.match.planned_games,
                "deals": table.match.deals,
                "seats": seats.get(table.pk, []),
            }
        )
    return [
        {
            **series_summary(one),
            "seed": one.seed,
            "drawn_at": one.drawn_at,
            "closed_at": one.closed_at,
            "tables": by_series.get(one.pk, []),
        }
        for one in series
    ]


def place_data(place: Place, results: TournamentResults, *, sides: bool = False) -> dict[str, Any]:
    """A place of a ranking of entrants (by their entry), or (``sides``) of tandems or teams (by its name), which
    names no entry even where an entrant has the side's name."""
    standing = place.standing
    entry = None if sides else results.entry(standing.player)
    return {
        "place": place.place,
        "entry": entry.public_id if entry is not None else None,
        "name": entry.name if entry is not None else standing.player,
        "club": entry.club if entry is not None else "",
        "score": int(standing.score),
        "won": standing.won,
        "lost": standing.lost,
        "lists": standing.lists,
        "game_points": standing.game_points,
        "by_lot": place.by_lot,
        "withdrawn_after": entry.withdrawn_after if entry is not None else None,
    }


def prize_data(prize: Prize, results: TournamentResults) -> dict[str, Any]:
    entry = results.entry(prize.winner) if prize.kind not in {PrizeKind.TANDEM, PrizeKind.TEAM} else None
    winner = None
    if prize.winner is not None:
        winner = {
            "entry": entry.public_id if entry is not None else None,
            "name": entry.name if entry else prize.winner,
            "withdrawn_after": entry.withdrawn_after if entry is not None else None,
        }
    return {
        "kind": prize.kind.value,
        "category": prize.category,
        "place": prize.place,
        "amount": prize.amount,
        "winner": winner,
    }


def problems_data(results: TournamentResults) -> dict[str, Any]:
    return error_tree(RuleError(list(results.problems))) if results.problems else {}


def prizes_data(results: TournamentResults) -> dict[str, Any]:
    rankings = results.rankings
    return {
        "tournament": results.tournament.public_id,
        "prizes": [prize_data(prize, results) for prize in results.prizes],
        "tandems": [place_data(place, results, sides=True) for place in rankings.tandems],
        "teams": [place_data(place, results, sides=True) for place in rankings.teams],
        "problems": problems_data(results),
    }


def cashier_data(results: TournamentResults) -> dict[str, Any]:
    cashier: Cashier = results.cashier
    lines = []
    for line in cashier.lines:
        entry = results.entry(line.player)
        dues = line.dues
        lines.append(
            {
                "entry": entry.public_id if entry is not None else None,
                "name": entry.name if entry is not None else line.player,
                "entry_fee": dues.entry,
                "list_fees": dues.lists,
                "lost_game_fees": dues.lost_games,
                "tandem_fee": dues.tandem,
                "team_fee": dues.team,
                "due": dues.total,
                "paid": line.paid,
                "owed": line.owed,
                "won": line.won,
                "balance": line.balance,
                "withdrawn_after": entry.withdrawn_after if entry is not None else None,
            }
        )
    pot = cashier.pot
    return {
        "tournament": results.tournament.public_id,
        "lines": lines,
        "pot": {
            "entries": pot.entries,
            "list_fees": pot.list_fees,
            "lost_game_fees": pot.lost_game_fees,
            "tandem_fees": pot.tandem_fees,
            "team_fees": pot.team_fees,
            "total": pot.total,
            "kept": pot.kept,
            "prize_pot": pot.main,
            "share": pot.share,
            "prize_money": pot.prize_money,
        },
        "paid_in": cashier.paid_in,
        "owed": cashier.owed,
        "paid_out": cashier.paid_out,
        "not_paid_out": cashier.not_paid_out,
        "organiser": cashier.organiser,
        "problems": problems_data(results),
    }
