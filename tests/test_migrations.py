"""The migrations keep what was stored: everything a table entered through the move to keepers, public ids and
canonical entries; the answers kept by key, the paper lines and the links of closed nights' tables through their
move into the core; the closed lists of the events closed before the core kept them."""

import datetime
import uuid

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.interclub import services as leagues
from matches.interclub.models import VenueTable
from matches.models import (
    ClosedList,
    Game,
    KeptAnswer,
    Match,
    MatchEvent,
    PaperLine,
    Player,
    RankingEvent,
    RankingList,
    RecordMonth,
)
from matches.rankings import ranking_periods, ranking_shown
from matches.services import match_rescore
from matches.services.rankings import RankingForm, ranking_save
from matches.tournaments import services as tournaments

from .factories import make_user
from .interclub_setup import check_in_all, enter_series, league_setup
from .test_closed_lists import night_played
from .test_interclub_exports import played as league_played
from .test_tournaments_backup import played as tournament_played
from .tournaments_setup import announce, enter_field, enter_paper

BEFORE = [("matches", "0001_initial_matches_and_games")]
API_SHAPED = {
    "contract": "null",
    "matadors": None,
    "declarer_card_points": None,
    "schwarz": None,
    "hand": False,
    "ouvert": False,
    "announced": None,
    "won": True,
    "bid": None,
    "kontra": False,
    "re": False,
    "conceded": False,
    "ramsch": None,
}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_stored_matches_come_through_the_migration_whole() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="anna")
    players = old.get_model("matches", "Player")
    anna = players.objects.create(owner=user, name="Anna")
    ben = players.objects.create(owner=user, name="Ben")
    cleo = players.objects.create(owner=user, name="Cleo")
    # Two spellings of one person that never met at a table (the old constraint compared lower case only): they
    # become one player.
    players.objects.create(owner=user, name="Strauß")
    players.objects.create(owner=user, name="STRAUSS")
    match = old.get_model("matches", "Match").objects.create(
        owner=user, variant="skat", scheme="standard", rules={"kontra_re": False}, first_dealer=0
    )
    for position, player in enumerate((anna, ben, cleo)):
        old.get_model("matches", "Seat").objects.create(match=match, position=position, player=player)
    games = old.get_model("matches", "Game")
    first = games.objects.create(
        match=match, position=1, declarer=0, entry={"contract": "clubs", "matadors": 1, "declarer_card_points": 70}
    )
    second = games.objects.create(match=match, position=2, declarer=2, entry=API_SHAPED)
    lost = games.objects.create(match=match, position=3, declarer=1, entry={"contract": "null", "won": False})
    events = old.get_model("matches", "MatchEvent")
    for game in (first, second, lost):
        state = {"passed": False, "declarer": game.declarer, "entry": game.entry, "deleted": False}
        events.objects.create(match=match, game=game, action="add", after=state)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    migrated = Match.objects.get()
    assert migrated.keeper.user is not None
    assert migrated.keeper.user.username == "anna"
    assert migrated.created_by == migrated.keeper.user
    assert migrated.players == 3
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna", "Ben", "Cleo", "Strauß"]
    null = Game.objects.get(position=2)
    assert null.entry == {"contract": "null", "won": True}
    assert null.entry_version == 1
    assert null.number == 2
    event = MatchEvent.objects.get(game=null)
    assert event.after is not None
    assert event.after["entry"] == {"contract": "null", "won": True}
    assert event.version == 2
    assert migrated.version == 3
    assert Game.objects.get(position=3).entry == {"contract": "null", "won": False}
    assert len({game.public_id for game in Game.objects.all()}) == 3
    # The derived scores were never computed for these rows: a rescore fills them in from what was entered.
    report = match_rescore(migrated)
    assert report.problems == ()
    assert migrated.totals == [24, -46, 23]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_lost_null_game_left_without_its_result_gets_it_back() -> None:
    """An earlier form of the entry migration dropped "won: false"; the next migration mends what it finds."""
    executor = MigrationExecutor(connection)
    executor.migrate([("matches", "0005_game_points_and_indexes")])
    old = executor.loader.project_state([("matches", "0005_game_points_and_indexes")]).apps
    user = old.get_model("auth", "User").objects.create(username="anna")
    keeper = old.get_model("matches", "Keeper").objects.create(user=user)
    match = old.get_model("matches", "Match").objects.create(
        keeper=keeper, variant="skat", scheme="standard", rules={}, players=3, totals=[0, 0, 0]
    )
    games = old.get_model("matches", "Game")
    damaged = games.objects.create(match=match, position=1, declarer=0, entry={"contract": "null"})
    conceded = games.objects.create(match=match, position=2, declarer=0, entry={"contract": "null", "conceded": True})
    state = {"v": 1, "passed": False, "declarer": 0, "entry": {"contract": "null"}, "deleted": False}
    old.get_model("matches", "MatchEvent").objects.create(match=match, game=damaged, action="add", after=state)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Game.objects.get(pk=damaged.pk).entry == {"contract": "null", "won": False}
    assert Game.objects.get(pk=conceded.pk).entry == {"contract": "null", "conceded": True}
    event = MatchEvent.objects.get(game_id=damaged.pk)
    assert event.after is not None
    assert event.after["entry"] == {"contract": "null", "won": False}


MOVED = [
    ("matches", "0017_restore_jobs_uploading"),
    ("leagues", "0006_kept_answers_pruned"),
    ("interclub", "0004_kept_answers_pruned"),
    ("tournaments", "0005_kept_answers_pruned"),
]
OLD_MODELS = {"night": ("leagues", "NightRequest"), "venue": ("interclub", "VenueRequest")}
OLD_MODELS["tournament"] = ("tournaments", "TournamentRequest")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_answers_each_app_kept_by_key_move_into_the_core_whole_and_back() -> None:
    """The club night's, the venue's and the tournament's kept answers, each in a table of its app before, come into
    the core's one table with their things, keys, digests, answers (a dropped one included) and ages; a step back
    puts them where they were."""
    season = clubs.season_create(
        club=clubs.club_create(owner=make_user("olga"), name="Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    things = {
        "night": clubs.night_create(season=season, date=datetime.date(2026, 11, 24)),
        "venue": league_setup(series=2).venue,
        "tournament": announce(),
    }
    for model, thing in things.items():
        kind = ContentType.objects.get_by_natural_key(OLD_MODELS[model][0], model)
        KeptAnswer.objects.create(kind=kind, thing_id=thing.pk, key=uuid.uuid4(), asked="new", answer={"version": 2})
    now_kept = {(row[0], row[1:]) for row in KeptAnswer.objects.values_list("kind__model", "thing_id", "key", "asked")}

    executor = MigrationExecutor(connection)
    executor.migrate(MOVED)
    old = executor.loader.project_state(MOVED).apps
    then = timezone.now() - datetime.timedelta(days=9)
    for model, (label, name) in OLD_MODELS.items():
        rows = old.get_model(label, name).objects
        assert {(model, row) for row in rows.values_list(f"{model}_id", "key", "asked")} == {
            kept for kept in now_kept if kept[0] == model
        }
        dropped = rows.create(**{f"{model}_id": things[model].pk}, key=uuid.uuid4(), asked="old", answer=None)
        rows.filter(pk=dropped.pk).update(created_at=then)
    kept_apart = sorted(
        (
            (model, *row)
            for model, (label, name) in OLD_MODELS.items()
            for row in old.get_model(label, name).objects.values_list(
                f"{model}_id", "key", "asked", "answer", "created_at"
            )
        ),
        key=str,
    )
    assert len(kept_apart) == 6

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = KeptAnswer.objects.values_list("kind__model", "thing_id", "key", "asked", "answer", "created_at")
    assert sorted(moved, key=str) == kept_apart
    assert KeptAnswer.objects.get(kind__model="night", asked="old").created_at == then


PAPER_BEFORE = [
    ("matches", "0018_kept_answers_of_every_kind"),
    ("leagues", "0007_kept_answers_in_the_core"),
    ("interclub", "0005_kept_answers_in_the_core"),
    ("tournaments", "0006_kept_answers_in_the_core"),
]


def _paper_tables() -> list[tuple[str, int]]:
    """A club night's table, a league venue's and a tournament's, each entered from paper: (the app's table model,
    the table's match)."""
    owner = make_user("olga")
    season = clubs.season_create(
        club=clubs.club_create(owner=owner, name="Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.select_related("match").get(night=night)
    seats = [seat.player for seat in table.match.seats.order_by("position")]
    footer = [(72, 1, 0), (-48, 0, 1), (0, 0, 0), (0, 0, 0)]
    clubs.paper_enter(table=table, lines=[(player, *line) for player, line in zip(seats, footer, strict=True)])
    setup = league_setup(series=2)
    check_in_all(setup, 1)
    leagues.series_seat(venue=setup.venue, series=1, user=setup.manager)
    enter_series(setup, 1, {team.name: 3000 + 100 * index for index, team in enumerate(setup.teams)}, setup.manager)
    tournament = announce()
    enter_field(tournament, 8)
    drawn = tournaments.series_draw(tournament=tournament, number=1)[0]
    enter_paper(drawn)
    venue_table = VenueTable.objects.filter(venue=setup.venue).first()
    assert venue_table is not None
    return [("ClubTable", table.match_id), ("VenueTable", venue_table.match_id), ("Table", drawn.match_id)]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_paper_lines_each_app_kept_move_into_the_core_whole_and_back() -> None:
    """The paper lines of a club night's table, a venue's and a tournament's, each in a table of its app before,
    come into the core's one table under their tables' matches, each player's totals as entered; a step back puts
    them where they were."""
    tables = _paper_tables()
    entered = sorted(PaperLine.objects.values_list("match_id", "player_id", "game_points", "won", "lost"))
    assert {match for _, match in tables} <= {match for match, *_ in entered}

    executor = MigrationExecutor(connection)
    executor.migrate(PAPER_BEFORE)
    old = executor.loader.project_state(PAPER_BEFORE).apps
    assert PaperLine._meta.db_table not in connection.introspection.table_names()
    apart = sorted(
        [
            *old.get_model("leagues", "PaperLine").objects.values_list(
                "table__match_id", "player_id", "game_points", "won", "lost"
            ),
            *old.get_model("interclub", "VenuePaperLine").objects.values_list(
                "table__match_id", "player_id", "game_points", "won", "lost"
            ),
            *old.get_model("tournaments", "PaperLine").objects.values_list(
                "table__match_id", "entry__player_id", "game_points", "won", "lost"
            ),
        ]
    )
    assert apart == entered

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert sorted(PaperLine.objects.values_list("match_id", "player_id", "game_points", "won", "lost")) == entered


LINKS_BEFORE = [("leagues", "0008_paper_lines_in_the_core")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_links_of_closed_nights_tables_move_onto_their_matches_whole_and_back() -> None:
    """A night closed before the core kept the links it turned off kept them on its tables only: each comes onto
    its table's match (a match that keeps a link of its own keeps it), and a phone that opens it is still told that
    the night is closed; a step back puts them on the tables again."""
    owner = make_user("olga")
    season = clubs.season_create(
        club=clubs.club_create(owner=owner, name="Herz Dame"), settings=clubs.SeasonSettings(name="2026")
    )
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fred", "Gus", "Hanna"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    tables = list(ClubTable.objects.filter(night=night).select_related("match"))
    assert len(tables) == 2
    links = [table.match.invite_token for table in tables]
    clubs.night_close(night=night, user=owner, unfinished=True)
    assert [Match.objects.get(pk=table.match_id).ended_link for table in tables] == links

    executor = MigrationExecutor(connection)
    executor.migrate(LINKS_BEFORE)
    old = executor.loader.project_state(LINKS_BEFORE).apps
    old_tables = old.get_model("leagues", "ClubTable").objects
    assert [old_tables.get(pk=table.pk).closed_link for table in tables] == links
    # The first table's night closed before the core kept the link: it is on the table only. The second's match
    # keeps a link of its own.
    old.get_model("matches", "Match").objects.filter(pk=tables[0].match_id).update(ended_link="")
    old_tables.filter(pk=tables[1].pk).update(closed_link="another")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert [Match.objects.get(pk=table.match_id).ended_link for table in tables] == links
    closed = Client().get(reverse("match_join", args=[links[0]]))
    assert closed.status_code == 410
    assert "Herz Dame" in closed.content.decode()


LISTS_BEFORE = [
    ("matches", "0019_paper_lines_of_every_kind"),
    ("leagues", "0009_closed_links_in_the_core"),
    ("interclub", "0006_paper_lines_in_the_core"),
    ("tournaments", "0007_paper_lines_in_the_core"),
]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_events_closed_before_the_core_kept_closed_lists_have_them_after_the_migration() -> None:
    """A club night (one table by phone, one from paper), a league's venue and a tournament's series closed before
    the core kept every player's closed list: migrated, each has the rows its closing keeps now; a step back drops
    them."""
    night, owner = night_played()
    clubs.night_close(night=night, user=owner, unfinished=True)
    league_played()
    tournament_played(make_user("tom"))
    fields = [field.name for field in ClosedList._meta.fields if field.name != "id"]
    kept = sorted(ClosedList.objects.values_list(*fields))
    assert {row[fields.index("kind")] for row in kept} == {"club", "league", "tournament"}
    month_fields = [field.name for field in RecordMonth._meta.fields if field.name != "id"]
    months = sorted(RecordMonth.objects.values_list(*month_fields))
    assert {row[month_fields.index("kind")] for row in months} == {"club", "league", "tournament"}

    executor = MigrationExecutor(connection)
    executor.migrate(LISTS_BEFORE)
    assert ClosedList._meta.db_table not in connection.introspection.table_names()

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert sorted(ClosedList.objects.values_list(*fields)) == kept
    # The months a record reads, summed whichever of the apps' migrations and the core's ran first.
    assert sorted(RecordMonth.objects.values_list(*month_fields)) == months


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_ranking_list_defined_before_its_places_were_kept_is_indexed_and_read_as_it_stands() -> None:
    night, owner = night_played()
    clubs.night_close(night=night, user=owner, unfinished=True)
    ranking = ranking_save(owner=owner, form=RankingForm(name="Rangliste", events=[str(night.season.public_id)]))
    shown = ranking_shown(ranking, "")[0]

    executor = MigrationExecutor(connection)
    executor.migrate([("matches", "0023_ranking_lists")])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    ranking = RankingList.objects.get(pk=ranking.pk)
    assert ranking.kept_at is None
    assert list(RankingEvent.objects.filter(ranking=ranking).values_list("within", flat=True)) == [
        night.season.public_id
    ]
    assert ranking_shown(ranking, "")[0] == shown
    assert ranking_periods(ranking) == [""]


PEOPLE_BEFORE = [
    ("matches", "0020_closed_lists"),
    ("leagues", "0010_closed_lists_in_the_core"),
    ("interclub", "0007_closed_lists_in_the_core"),
    ("tournaments", "0008_closed_lists_in_the_core"),
]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_players_linked_rostered_and_numbered_before_people_were_kept_are_joined_by_the_migration() -> None:
    """Players linked to an account, a roster's club and league players (one with a federation number) and a
    tournament entry with the same number, stored before the core kept people: migrated, each is joined as linking,
    putting on a roster and entering join them now."""
    setup = league_setup(series=2)
    roster = setup.rosters[0][0]
    numbered = setup.rosters[1][0]
    anna = make_user("anna")
    tournament = announce()
    entry = tournaments.entry_at_door(
        tournament=tournament, form=tournaments.EntryForm("Kreu 1", club="Kreuz Bube", federation_number="4711")
    )

    executor = MigrationExecutor(connection)
    executor.migrate(PEOPLE_BEFORE)
    old = executor.loader.project_state(PEOPLE_BEFORE).apps
    old.get_model("matches", "Player").objects.filter(pk=roster.player_id).update(account_id=anna.pk)
    old.get_model("interclub", "RosterEntry").objects.filter(pk=numbered.pk).update(federation_number="4711")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from matches.models import Person

    person = Person.objects.get(account=anna)
    assert set(person.players.values_list("pk", flat=True)) == {roster.player_id, roster.league_player_id}
    number = Person.objects.get(federation_number="4711")
    assert set(number.players.values_list("pk", flat=True)) == {
        numbered.player_id,
        numbered.league_player_id,
        entry.player_id,
    }
