"""A person's record of many closed lists, written straight into the database (the services would close 10,000
series one event at a time): every series at a table of four of a club's book, the person with three of forty others,
three series a week. Only the benchmark uses this."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import Scheme
from matches.models import ClosedList, Join, JoinedBy, Keeper, Match, Person, Player
from matches.names import name_key
from matches.records import list_sequence

FIRST_DAY = datetime.date(1990, 1, 2)
OTHERS = 40
SERIES_A_WEEK = 3
BATCH = 2000


def seed_record(name: str, series: int) -> User:
    """An account whose person played ``series`` closed series, each a list of 48 games at a table of four."""
    account = User.objects.create_user(f"record-{name}")
    with transaction.atomic():
        keeper = Keeper.objects.create()
        me, *others = Player.objects.bulk_create(
            Player(keeper=keeper, name=player, name_key=name_key(player))
            for player in ["Jörg Schmidt", *(f"Spieler {number}" for number in range(OTHERS))]
        )
        person = Person.objects.create(account=account, name=me.name)
        Player.objects.filter(pk=me.pk).update(person=person, account=account)
        Join.objects.create(player=me, person=person, how=JoinedBy.ACCOUNT)
        for start in range(0, series, BATCH):
            count = min(BATCH, series - start)
            matches = Match.objects.bulk_create(
                Match(keeper=keeper, variant="skat", scheme=Scheme.SEEGER_FABIAN, players=4, planned_games=48)
                for _ in range(count)
            )
            ClosedList.objects.bulk_create(
                row
                for index, match in enumerate(matches, start=start)
                for row in _lists(match, index, [me, *(others[(index + seat) % OTHERS] for seat in range(3))])
            )
    return account


def _lists(match: Match, index: int, seated: list[Player]) -> list[ClosedList]:
    day = FIRST_DAY + datetime.timedelta(days=7 * (index // SERIES_A_WEEK))
    number = index % SERIES_A_WEEK + 1
    rows = []
    for seat, player in enumerate(seated):
        won, lost = (index + seat) % 7, (index + seat) % 3
        game_points = 30 * won - 40 * lost
        rows.append(
            ClosedList(
                match=match,
                player=player,
                kind="club",
                event=match.public_id,
                event_name="Skatclub · Bench",
                within=match.public_id,
                date=day,
                series=number,
                sequence=list_sequence(day, number),
                scheme=Scheme.SEEGER_FABIAN,
                table_size=4,
                games=48,
                won=won,
                lost=lost,
                others_lost=0,
                game_points=game_points,
                total=game_points + 50 * won - 50 * lost,
            )
        )
    return rows
