"""Reads that feed the pages, the API and the exports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q, QuerySet, Sum
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from .charts import Chart, totals_chart
from .engine import OPTIONS, VARIANTS, GameEntry, Message, RuleError, rules_for
from .engine.bock import bock_ahead
from .engine.table import Seating, seating
from .labels import contract_label, render_step
from .models import Deck, Game, GameScore, Match, Player, Profile, Seat
from .scoring import game_entry, render
from .services import Submission, score_deal

DECK_SESSION_KEY = "deck"


def deck_of(request: HttpRequest) -> str:
    """The suit names the reader prefers: from the profile, else the session (spectators), else French."""
    cached = getattr(request, "_scorekeeper_deck", None)
    if cached is not None:
        return str(cached)
    deck = str(request.session.get(DECK_SESSION_KEY, Deck.FRENCH))
    if request.user.is_authenticated:
        profile = Profile.objects.filter(user=request.user).values_list("deck", flat=True).first()
        deck = profile or deck
    request._scorekeeper_deck = deck  # type: ignore[attr-defined]
    return deck


def variant_catalogue() -> list[dict[str, Any]]:
    """Every variant with its seats, schemes, contracts and rule options (defaults included), in the active language."""
    return [
        {
            "variant": spec.variant.value,
            "title": render(spec.label),
            "players": list(spec.players),
            "schemes": [scheme.value for scheme in spec.schemes],
            "contracts": [contract.value for contract in spec.contracts],
            "options": [
                {
                    "name": name,
                    "title": render(OPTIONS[name].label),
                    "help": render(OPTIONS[name].help),
                    "kind": OPTIONS[name].kind,
                    "choices": list(OPTIONS[name].choices),
                    "default": default,
                }
                for name, default in spec.options.items()
            ],
        }
        for spec in VARIANTS.values()
    ]


def matches_for_user(user: User | AnonymousUser) -> QuerySet[Match]:
    """The matches a user keeps: his own and those he was invited to score."""
    if not user.is_authenticated:
        return Match.objects.none()
    return Match.objects.filter(Q(owner=user) | Q(scorers=user)).distinct()


def match_for_scorer(user: User | AnonymousUser, pk: int) -> Match:
    """The match if the user may change it (owner or co-scorer), else 404: others never learn it exists."""
    return get_object_or_404(matches_for_user(user), pk=pk)


def match_for_spectator(token: str) -> Match:
    return get_object_or_404(Match, share_token=token)


def players_for_user(user: User) -> QuerySet[Player]:
    return Player.objects.filter(owner=user)


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet."""

    game: Game
    number: int
    seating: Seating
    contract: str
    scores: list[int]
    totals: list[int]
    breakdown: list[str]
    bock: int
    declarer: str
    dealer: str
    value: int
    scorable: bool = True

    @property
    def cells(self) -> list[tuple[int, int]]:
        return list(zip(self.scores, self.totals, strict=True))


@dataclass(frozen=True)
class Sheet:
    """A match's score sheet: the rows, the totals, and who deals next."""

    match: Match
    seats: list[Seat]
    rows: list[SheetRow]
    totals: list[int]
    next_number: int
    next_seating: Seating
    next_bock: int
    bock_games_left: int
    scheme: str

    @property
    def games_left(self) -> int | None:
        if self.match.planned_games is None:
            return None
        return max(self.match.planned_games - len(self.rows), 0)

    @property
    def finished(self) -> bool:
        return self.games_left == 0

    def name(self, seat: int | None) -> str:
        return "" if seat is None else self.seats[seat].player.name

    @property
    def chart(self) -> Chart | None:
        return totals_chart([seat.player.name for seat in self.seats], [row.totals for row in self.rows])

    @property
    def standings(self) -> list[tuple[Seat, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def next_dealer_name(self) -> str:
        return self.name(self.next_seating.dealer)

    @property
    def next_forehand_name(self) -> str:
        return self.name(self.next_seating.forehand)

    @property
    def next_sitting_out_name(self) -> str:
        return self.name(self.next_seating.sitting_out)


def match_sheet(match: Match, *, deck: str = Deck.FRENCH, scheme: str | None = None) -> Sheet:
    """The score sheet, as stored, or rescored under another ``scheme`` (what-if) without changing anything."""
    seats = list(match.seats.select_related("player"))
    games = list(match.games.filter(deleted=False).prefetch_related("scores").order_by("position"))
    what_if = scheme is not None and scheme != match.scheme
    scored_as = replace_scheme(match, scheme) if what_if and scheme else match
    totals = [0] * len(seats)
    rows: list[SheetRow] = []
    for number, game in enumerate(games, start=1):
        seats_now = seating(len(seats), match.first_dealer, number)
        if what_if:
            scores, steps, value, scorable = _rescored(scored_as, len(seats), number, game)
        else:
            by_seat = {score.seat: score.points for score in game.scores.all()}
            scores = [by_seat.get(seat.position, 0) for seat in seats]
            steps = [Message.from_data(step) for step in game.breakdown]
            value, scorable = game.game_value, True
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        rows.append(
            SheetRow(
                game=game,
                number=number,
                seating=seats_now,
                contract=contract_label(game.contract, deck),
                scores=scores,
                totals=list(totals),
                breakdown=[render_step(step, deck) for step in steps],
                bock=game.bock,
                declarer=seats[game.declarer].player.name if game.declarer is not None and game.entry else "",
                dealer=seats[seats_now.dealer].player.name,
                value=value,
                scorable=scorable,
            )
        )
    rules = rules_for(match.variant, match.rules)
    ahead = bock_ahead(rules, [_entry(game) for game in games[-len(seats) :]], len(seats))
    return Sheet(
        match=match,
        seats=seats,
        rows=rows,
        totals=totals,
        next_number=len(rows) + 1,
        next_seating=seating(len(seats), match.first_dealer, len(rows) + 1),
        next_bock=ahead[0],
        bock_games_left=sum(1 for count in ahead if count),
        scheme=scored_as.scheme,
    )


def replace_scheme(match: Match, scheme: str) -> Match:
    """An unsaved copy of the match under another scheme, for what-if scoring."""
    copy = Match(**{field.attname: getattr(match, field.attname) for field in Match._meta.concrete_fields})
    copy.scheme = scheme
    return copy


def _entry(game: Game) -> GameEntry | None:
    return None if game.passed or game.entry is None else game_entry(game.entry)


def _rescored(match: Match, players: int, number: int, game: Game) -> tuple[list[int], list[Message], int, bool]:
    submission = Submission(passed=game.passed, declarer=game.declarer, entry=game.entry)
    try:
        result = score_deal(match=match, players=players, deal=number, submission=submission, bock=game.bock)
    except RuleError as error:
        return [0] * players, [problem.message for problem in error.errors], 0, False
    if result is None:
        return [0] * players, [], 0, True
    return list(result.scores), list(result.breakdown), result.game_value, True


@dataclass(frozen=True)
class VariantStats:
    variant: str
    total: int
    games: int
    declared: int
    won: int
    lost: int

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0


def player_stats(player: Player) -> list[VariantStats]:
    """Lifetime totals per variant: points, games played (not sitting out, not passed), declarer games won and lost,
    in one query. Points include what a seat got without playing (Seeger-Fabian pays the sitting-out dealer)."""
    rows = (
        GameScore.objects.filter(player=player, game__deleted=False)
        .values("game__match__variant")
        .annotate(
            total=Sum("points"),
            games=Count("id", filter=Q(played=True)),
            declared=Count("id", filter=Q(declarer=True)),
            won=Count("id", filter=Q(declarer=True, game__won=True)),
            lost=Count("id", filter=Q(declarer=True, game__won=False)),
        )
        .order_by("game__match__variant")
    )
    return [
        VariantStats(
            variant=row["game__match__variant"],
            total=row["total"] or 0,
            games=row["games"],
            declared=row["declared"],
            won=row["won"],
            lost=row["lost"],
        )
        for row in rows
    ]


def player_matches(player: Player, limit: int = 10) -> QuerySet[Match]:
    return Match.objects.filter(seats__player=player).order_by("-created_at")[:limit]


@dataclass(frozen=True)
class HeadToHead:
    matches: int
    games: int
    totals: dict[int, int]


def head_to_head(first: Player, second: Player) -> HeadToHead:
    """Both players' points over every game of every match they played together."""
    shared = Match.objects.filter(seats__player=first).filter(seats__player=second)
    rows = (
        GameScore.objects.filter(game__match__in=shared, game__deleted=False, player__in=[first, second])
        .values("player")
        .annotate(total=Sum("points"), games=Count("id"))
    )
    totals = {first.pk: 0, second.pk: 0}
    games = 0
    for row in rows:
        totals[row["player"]] = row["total"] or 0
        games = max(games, row["games"])
    return HeadToHead(matches=shared.count(), games=games, totals=totals)
