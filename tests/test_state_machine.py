"""A state machine over adding, fixing, deleting, passing, undoing, redoing and retrying games, and over closing and
reopening the list and reseating its players.

After every step the stored scores must equal a fresh scoring of the match, the history must replay to the games,
the seats and the list's state as they stand, and every change must have bumped the version exactly once. A refused
step must change nothing.
"""

import contextlib
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from matches.errors import ServiceError
from matches.models import Game, Match, MatchEvent, Player, Seat
from matches.services import (
    Submission,
    game_add,
    game_delete,
    game_edit,
    match_create,
    match_lock,
    match_redo,
    match_rescore,
    match_reseat,
    match_undo,
    match_unlock,
    player_named,
)

CONTRACTS = ["diamonds", "hearts", "spades", "clubs", "grand"]

entries = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(CONTRACTS),
        "matadors": st.sampled_from([1, 2, -1, -3]),
        "declarer_card_points": st.sampled_from([0, 30, 60, 61, 90, 120]),
        "hand": st.booleans(),
        "kontra": st.booleans(),
    }
)


class MatchMachine(RuleBasedStateMachine):
    """Four players with Kontra and Bock: deleting a game shifts the dealer who sits out, and Bock reaches ahead."""

    def __init__(self) -> None:
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        self.user = User.objects.create_user(username=f"scorer-{uuid.uuid4().hex[:8]}")
        self.last: tuple[uuid.UUID, Submission] | None = None

    @initialize(players=st.sampled_from([3, 4]))
    def start(self, players: int) -> None:
        self.match = match_create(
            owner=self.user,
            variant="skat",
            scheme="standard",
            rules={"kontra_re": True, "bock": True},
            player_names=["Anna", "Ben", "Cleo", "Dora"][:players],
        ).match
        self.first_seats = self._seats()
        self.book = [*Player.objects.filter(pk__in=self._seat_pks()), player_named(self.match.keeper, "Erik")]

    def _seat_pks(self) -> list[int]:
        return list(Seat.objects.filter(match=self.match).order_by("position").values_list("player_id", flat=True))

    def _seats(self) -> list[str]:
        return [
            str(player)
            for player in Seat.objects.filter(match=self.match)
            .order_by("position")
            .values_list("player__public_id", flat=True)
        ]

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    def _version(self) -> int:
        return Match.objects.get(pk=self.match.pk).version

    def _attempt(self, change: Any) -> None:
        """Run one change; a refusal must leave the match exactly as it was."""
        before = self._version()
        events = MatchEvent.objects.filter(match=self.match).count()
        try:
            change()
        except ServiceError:
            assert self._version() == before
            assert MatchEvent.objects.filter(match=self.match).count() == events

    def _live(self) -> list[Game]:
        return list(Game.objects.filter(match=self.match, deleted=False).order_by("position"))

    @rule(entry=entries, declarer=st.integers(0, 3))
    def add(self, entry: dict[str, Any], declarer: int) -> None:
        token = uuid.uuid4()
        submission = Submission(declarer=declarer, entry=entry)

        def saved() -> None:
            game_add(match=self.match, user=self.user, token=token, submission=submission)
            self.last = (token, submission)

        self._attempt(saved)

    @rule()
    def pass_deal(self) -> None:
        submission = Submission(passed=True)
        self._attempt(lambda: game_add(match=self.match, user=self.user, token=uuid.uuid4(), submission=submission))

    @rule()
    def retry_the_last_add(self) -> None:
        """A saved game sent again (a phone that lost the answer) changes nothing, whatever happened since."""
        if self.last is None:
            return
        token, submission = self.last
        before = self._version()
        with contextlib.suppress(ServiceError):
            game_add(match=self.match, user=self.user, token=token, submission=submission)
        assert self._version() == before

    @rule(index=st.integers(0, 50), entry=entries, declarer=st.integers(0, 3))
    def fix(self, index: int, entry: dict[str, Any], declarer: int) -> None:
        live = self._live()
        if not live:
            return
        game = live[index % len(live)]
        submission = Submission(declarer=declarer, entry=entry)
        self._attempt(lambda: game_edit(game=game, user=self.user, token=uuid.uuid4(), submission=submission))

    @rule(index=st.integers(0, 50))
    def delete(self, index: int) -> None:
        live = self._live()
        if not live:
            return
        game = live[index % len(live)]
        self._attempt(lambda: game_delete(game=game, user=self.user, token=uuid.uuid4()))

    @rule()
    def undo(self) -> None:
        self._attempt(lambda: match_undo(match=self.match, user=self.user, token=uuid.uuid4()))

    @rule()
    def redo(self) -> None:
        self._attempt(lambda: match_redo(match=self.match, user=self.user, token=uuid.uuid4()))

    @rule()
    def lock(self) -> None:
        self._attempt(lambda: match_lock(match=self.match, user=self.user))

    @rule()
    def unlock(self) -> None:
        self._attempt(lambda: match_unlock(match=self.match, user=self.user))

    @rule(order=st.permutations(range(5)))
    def reseat(self, order: list[int]) -> None:
        """Seats given to the book's players in another order (with Erik, who sat nowhere, among them): refused
        once a game was saved or the list is closed."""
        if not hasattr(self, "match"):
            return
        players = [self.book[index] for index in order if index < len(self.book)][: self.match.players]
        self._attempt(lambda: match_reseat(match=self.match, players=players, user=self.user))

    @invariant()
    def stored_scores_equal_a_fresh_scoring(self) -> None:
        if not hasattr(self, "match"):
            return
        report = match_rescore(self.match, check=True)
        assert report.problems == ()
        assert report.changed == 0

    @invariant()
    def the_history_replays_to_the_games_as_they_stand(self) -> None:
        if not hasattr(self, "match"):
            return
        replayed: dict[int, object] = {}
        seats, locked = self.first_seats, False
        versions = []
        for event in MatchEvent.objects.filter(match=self.match).order_by("version"):
            if event.game_id is not None:
                replayed[event.game_id] = event.after
            elif event.action == MatchEvent.Action.RESEAT:
                assert event.before == {"seats": seats}
                seats = (event.after or {})["seats"]
            elif event.action in (MatchEvent.Action.LOCK, MatchEvent.Action.UNLOCK):
                assert (event.before or {})["locked"] == locked
                locked = (event.after or {})["locked"]
            versions.append(event.version)
        current = {game.pk: game.snapshot() for game in Game.objects.filter(match=self.match)}
        assert replayed == current
        assert seats == self._seats()
        assert locked == Match.objects.get(pk=self.match.pk).locked
        assert versions == list(range(1, self._version() + 1))


@pytest.mark.django_db
def test_the_match_stays_consistent_through_any_sequence_of_changes() -> None:
    run_state_machine_as_test(MatchMachine, settings=settings(max_examples=20, stateful_step_count=20, deadline=None))
