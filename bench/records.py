"""A person's record of many closed lists, written straight into the database (the services would close 10,000
series one event at a time) with the months a record reads summed as the core keeps them: every series at a table of
four of a club's book, the person with three of forty others, three series a week. Only the benchmark uses this."""

from __future__ import annotations

import datetime
import uuid

from django.contrib.auth.models import User
from django.db import transaction

from matches.engine import Scheme
from matches.models import ClosedList, Join, JoinedBy, Keeper, Match, Person, Player, RankingList
from matches.names import name_key
from matches.records import list_sequence
from matches.services.closed_lists import record_months_keep
from matches.services.rankings import RankingForm, ranking_save

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
            rows = ClosedList.objects.bulk_create(
                row
                for index, match in enumerate(matches, start=start)
                for row in _lists(match, index, [me, *(others[(index + seat) % OTHERS] for seat in range(3))])
            )
            record_months_keep({(row.player_id, row.date.replace(day=1)) for row in rows})
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


def seed_ranking(name: str, people: int, events: int) -> tuple[User, RankingList]:
    """A ranking list over ``events`` tournaments that ``people`` players each played one series of, at tables of
    four (``people`` × ``events`` closed lists, written straight into the database), defined through the services,
    which keep its places; with its owner."""
    owner = User.objects.create_user(f"ranking-{name}")
    withins = [uuid.uuid4() for _ in range(events)]
    with transaction.atomic():
        keeper = Keeper.objects.create()
        players = Player.objects.bulk_create(
            (
                Player(keeper=keeper, name=f"Spieler {number}", name_key=name_key(f"Spieler {number}"))
                for number in range(people)
            ),
            batch_size=BATCH,
        )
        for event, within in enumerate(withins):
            day = FIRST_DAY + datetime.timedelta(days=7 * event)
            for start in range(0, people, BATCH):
                seated = players[start : start + BATCH]
                matches = Match.objects.bulk_create(
                    Match(keeper=keeper, variant="skat", scheme=Scheme.SEEGER_FABIAN, players=4, planned_games=48)
                    for _ in range(0, len(seated), 4)
                )
                ClosedList.objects.bulk_create(
                    _ranked(matches[index // 4], player, within, day, (index * 37 + event * 11) % 1200)
                    for index, player in enumerate(seated)
                )
    form = RankingForm(name=f"Rangliste {name}", events=[str(within) for within in withins])
    return owner, ranking_save(owner=owner, form=form)


def _ranked(match: Match, player: Player, within: uuid.UUID, day: datetime.date, total: int) -> ClosedList:
    return ClosedList(
        match=match,
        player=player,
        kind="tournament",
        event=within,
        event_name="Turnier · Bench",
        within=within,
        date=day,
        series=1,
        sequence=list_sequence(day, 1),
        scheme=Scheme.SEEGER_FABIAN,
        table_size=4,
        games=48,
        won=total // 50,
        lost=0,
        others_lost=0,
        game_points=total - 50 * (total // 50),
        total=total,
    )
