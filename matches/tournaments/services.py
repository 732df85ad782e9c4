"""Every write of an open tournament: announcing it, entries online and at the door, payments, withdrawals, the
tandems and teams of its side rankings, drawing a series, a table's paper list and closing a series.

Each table of a series is started through the core's ``table_match`` in the tournament's book and locked through
the core's ``match_lock``, so a tournament's match is checked like any other; games at the tables are entered
through the core's game services, which refuse every change to a locked list. Every change locks the tournament's
row first, so two draws (or an entry and a draw) wait for each other, and moves its version on. Every refusal is a
``ServiceError`` naming the field that is wrong, raised before anything is written, so nothing is stored halfway.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from matches.clubs.models import Club
from matches.clubs.permissions import runs_club
from matches.engine import FieldError, RuleError, Scheme, setup_match
from matches.engine.messages import gettext_noop, msg
from matches.engine.tournaments import (
    LOST_GAME_TIERS,
    MAX_SERIES,
    MIN_SERIES,
    WHOLE,
    Doubles,
    Dues,
    Entrant,
    Payout,
    PrizeSchedule,
    Rankings,
    ScheduleKind,
    Seating,
    ShareKind,
    TournamentRules,
    check_entrants,
    check_entry,
    money,
    pot,
    prize_list,
    schedule_amounts,
    seat_series,
    series_seed,
)
from matches.engine.tournaments import Side as SideRule
from matches.errors import Conflict, Invalid
from matches.models import Keeper, Match
from matches.names import BadName, name_key, normalize_name
from matches.services import match_lock, paper_enter, player_named
from matches.services.events import bracketed_name, one_line_name
from matches.services.events import federation_number as checked_federation_number
from matches.services.tables import moved_on, table_match, table_title
from matches.standings import rows_differ

from .models import (
    Category,
    Channel,
    Entry,
    EntryStanding,
    Payment,
    Series,
    SeriesList,
    Side,
    SideKind,
    SideMember,
    Table,
    TableSeat,
    Tournament,
)
from .selectors import (
    drawn_series,
    entry_key,
    seatings,
    standings_over_closed_series,
    table_lines,
    tournament_rules,
)

MAX_TEXT_LENGTH = 100
MAX_SERIES_GAMES = 96
# The variant and scheme of every open tournament: Skat by Seeger-Fabian (clubs digest, "Open tournaments").
TOURNAMENT_VARIANT, TOURNAMENT_SCHEME = "skat", Scheme.SEEGER_FABIAN.value
# A confirmation code is read out and typed at the door: no letters that look alike (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row, locked for this change: entries, draws, paper lists and closings of one tournament wait
    for each other, so that a series drawn twice at once is drawn once and the second is refused."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _text(raw: str, field_name: str) -> str:
    text = " ".join(raw.split())
    if len(text) > MAX_TEXT_LENGTH:
        raise Invalid.on(field_name, gettext_noop("At most {count} characters."), count=MAX_TEXT_LENGTH)
    return text


# --- Announcing a tournament ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule:
    """A prize schedule as the organiser enters it: the values by place (amounts in cents or shares in basis
    points, as ``kind`` says) and how much of the money it pays out."""

    values: tuple[int, ...] = ()
    kind: str = ScheduleKind.SHARES.value
    payout: str = Payout.IN_FULL.value


@dataclass(frozen=True)
class TournamentSettings:
    """An open tournament as its organiser announces it (docs/rules.md, "Open tournaments", names each option and
    its default). Amounts are in cents; ``categories``: each category's name and its prizes by place; ``seats``:
    the most players the room takes (0: no limit), which fixes the largest pot a schedule of amounts is checked
    against."""

    name: str
    date: datetime.date
    venue: str = ""
    rules: dict[str, Any] | None = None
    series: int = 3
    games_at_four: int = 48
    games_at_three: int = 36
    seats: int = 0
    entry_fee: int = 0
    list_fee: int = 0
    lost_game_tiers: tuple[tuple[int, int], ...] = LOST_GAME_TIERS
    tandem_fee: int = 0
    team_fee: int = 0
    share_kind: str = ShareKind.PERCENT.value
    share_value: int = 0
    keeps_list_fees: bool = True
    keeps_lost_game_fees: bool = True
    places: Schedule = field(default_factory=Schedule)
    best_series: tuple[int, ...] = ()
    tandem_prizes: Schedule = field(default_factory=Schedule)
    team_prizes: Schedule = field(default_factory=Schedule)
    categories: tuple[tuple[str, tuple[int, ...]], ...] = ()
    doubles: str = Doubles.BETTER.value
    late_entries: bool = True


def _choice(value: str, choices: type[StrEnum], field_name: str) -> str:
    if value not in {choice.value for choice in choices}:
        raise Invalid.on(field_name, gettext_noop("Must be one of: {choices}."), choices=", ".join(choices))
    return value


def _not_negative(values: Sequence[int], field_name: str) -> None:
    if any(value < 0 for value in values):
        raise Invalid.on(field_name, gettext_noop("Amounts and counts cannot be negative."))


def _schedule(schedule: Schedule, field_name: str) -> dict[str, Any]:
    _not_negative(schedule.values, field_name)
    return {
        "values": list(schedule.values),
        "kind": _choice(schedule.kind, ScheduleKind, f"{field_name}.kind"),
        "payout": _choice(schedule.payout, Payout, f"{field_name}.payout"),
    }


def _tiers(tiers: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The lost-game tiers, each from the n-th lost game of a list on, in order."""
    starts = [start for start, _ in tiers]
    if any(start < 1 for start in starts) or starts != sorted(set(starts)):
        raise Invalid.on(
            "lost_game_tiers", gettext_noop("Each tier starts at a later lost game than the one before, from 1.")
        )
    _not_negative([cents for _, cents in tiers], "lost_game_tiers")
    return [[start, cents] for start, cents in tiers]


def _categories(categories: Sequence[tuple[str, Sequence[int]]]) -> list[tuple[str, list[int]]]:
    found: list[tuple[str, list[int]]] = []
    for index, (name, prizes) in enumerate(categories):
        clean = one_line_name(name, f"categories.{index}")
        if name_key(clean) in {name_key(one) for one, _ in found}:
            raise Invalid.on(f"categories.{index}", gettext_noop("{name} is named twice."), name=clean)
        _not_negative(prizes, f"categories.{index}")
        found.append((clean, list(prizes)))
    return found


def _tournament_values(settings: TournamentSettings) -> dict[str, Any]:
    """The tournament's fields from ``settings``, checked: the rules as a table of it would check them."""
    try:
        setup = setup_match(TOURNAMENT_VARIANT, scheme=TOURNAMENT_SCHEME, rules=dict(settings.rules or {}), players=4)
    except RuleError as error:
        raise Invalid.from_rules(error) from error
    if not MIN_SERIES <= settings.series <= MAX_SERIES:
        raise Invalid.on("series", gettext_noop("Between {low} and {high}."), low=MIN_SERIES, high=MAX_SERIES)
    for name in ("games_at_four", "games_at_three"):
        if not 1 <= getattr(settings, name) <= MAX_SERIES_GAMES:
            raise Invalid.on(name, gettext_noop("Between 1 and {most}."), most=MAX_SERIES_GAMES)
    for name in ("seats", "entry_fee", "list_fee", "tandem_fee", "team_fee", "share_value"):
        _not_negative([getattr(settings, name)], name)
    if settings.share_kind == ShareKind.PERCENT and settings.share_value > WHOLE:
        raise Invalid.on("share_value", gettext_noop("The organiser's share lies between 0 and the whole pot."))
    _not_negative(settings.best_series, "best_series")
    return {
        "name": one_line_name(settings.name),
        "date": settings.date,
        "venue": _text(settings.venue, "venue"),
        "variant": TOURNAMENT_VARIANT,
        "scheme": TOURNAMENT_SCHEME,
        "rules": setup.stored_rules(),
        "series": settings.series,
        "games_at_four": settings.games_at_four,
        "games_at_three": settings.games_at_three,
        "seats": settings.seats,
        "entry_fee": settings.entry_fee,
        "list_fee": settings.list_fee,
        "lost_game_tiers": _tiers(settings.lost_game_tiers),
        "tandem_fee": settings.tandem_fee,
        "team_fee": settings.team_fee,
        "share_kind": _choice(settings.share_kind, ShareKind, "share_kind"),
        "share_value": settings.share_value,
        "keeps_list_fees": settings.keeps_list_fees,
        "keeps_lost_game_fees": settings.keeps_lost_game_fees,
        "places": _schedule(settings.places, "places"),
        "best_series": list(settings.best_series),
        "tandem_prizes": _schedule(settings.tandem_prizes, "tandem_prizes"),
        "team_prizes": _schedule(settings.team_prizes, "team_prizes"),
        "doubles": _choice(settings.doubles, Doubles, "doubles"),
        "late_entries": settings.late_entries,
    }


def _check_prizes(rules: TournamentRules, seats: int) -> None:
    """Refuse a prize schedule that cannot be paid: shares above the whole, and (where the room's seats fix the
    largest pot: every seat taken, every list played, no game lost) prizes that pay out more than that pot. The
    side rankings' pots depend on how many tandems and teams enter: only their shares are checked."""
    for schedule, field_name in ((rules.tandems, "tandem_prizes"), (rules.teams, "team_prizes")):
        if schedule.kind is ScheduleKind.SHARES and schedule.payout is Payout.AS_ANNOUNCED:
            schedule_amounts(schedule, 0, field_name=field_name)
    if seats == 0:
        if rules.places.kind is ScheduleKind.SHARES and rules.places.payout is Payout.AS_ANNOUNCED:
            schedule_amounts(rules.places, 0)
        return
    fees = rules.fees
    full_room = [Dues("", fees.entry, fees.per_list * rules.series, 0) for _ in range(seats)]
    nobody_yet = Rankings((), (), (), {category.name: () for category in rules.categories}, (), ())
    prize_list(replace(rules, tandems=PrizeSchedule(), teams=PrizeSchedule()), nobody_yet, pot(full_room, rules.share))


def tournament_announce(*, organiser: User, settings: TournamentSettings, club: Club | None = None) -> Tournament:
    """Announce an open tournament with a book of its own, organised by ``organiser`` (for ``club``, whose owners
    and secretaries run it too, and only they announce one for it): its settings are checked and stored as
    entered, its rules complete, and its prize schedule against the pot where the room's seats fix it ("pays out
    more than the pot" is refused)."""
    if club is not None and not runs_club(organiser, club.pk):
        raise Invalid.on(
            "club",
            gettext_noop("Only the owners and secretaries of {club} announce a tournament for it."),
            club=club.name,
        )
    values = _tournament_values(settings)
    categories = _categories(settings.categories)
    unsaved = Tournament(**values)
    try:
        _check_prizes(
            tournament_rules(unsaved, [Category(name=name, prizes=prizes) for name, prizes in categories]),
            settings.seats,
        )
    except RuleError as error:
        raise Invalid.from_rules(error) from error
    with transaction.atomic():
        unsaved.keeper = Keeper.objects.create()
        unsaved.organiser, unsaved.club = organiser, club
        unsaved.save()
        Category.objects.bulk_create(
            Category(tournament=unsaved, name=name, prizes=prizes, order=order)
            for order, (name, prizes) in enumerate(categories)
        )
    return unsaved


def tournament_hand_over(*, tournament: Tournament, username: str) -> Tournament:
    """Make the account named ``username`` the tournament's organiser, in place of the one it had: the organiser's
    desk, money and lists pass to them (the club's owners and secretaries, for a club's tournament, keep theirs)."""
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise Invalid.on("username", gettext_noop("There is no account of that name."))
    with transaction.atomic():
        _lock(tournament)
        Tournament.objects.filter(pk=tournament.pk).update(organiser=user)
        moved_on(tournament)
    tournament.refresh_from_db(fields=["organiser", "version"])
    return tournament


def tournaments_organised_leave(*, user: User) -> None:
    """``user`` no longer organises any tournament (their account is deleted): a club's tournament stays with the
    club's owners and secretaries."""
    Tournament.objects.filter(organiser=user).update(organiser=None)


# --- Entries ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryForm:
    """An entry as the entrant (online) or the door gives it: a name, and optionally a club, a category of the
    tournament's and a federation number."""

    name: str
    club: str = ""
    category: str = ""
    federation_number: str = ""


def _name(raw: str) -> str:
    try:
        return normalize_name(raw)
    except BadName as bad:
        raise Invalid([FieldError("name", bad.message)]) from None


def _category(tournament: Tournament, name: str) -> Category | None:
    if not name.strip():
        return None
    found = next(
        (one for one in Category.objects.filter(tournament=tournament) if name_key(one.name) == name_key(name)), None
    )
    if found is None:
        raise Invalid.on("category", gettext_noop("The tournament has no category {name}."), name=name.strip())
    return found


def _same_entrant(entry: Entry, name: str, club: str, number: str) -> bool:
    """Whether ``entry`` is the player entering again: the same federation number, or (where either has none) the
    same name and club."""
    if number and entry.federation_number:
        return number == entry.federation_number
    return entry.name_key == name_key(name) and name_key(entry.club or "-") == name_key(club or "-")


def _entered_already(tournament: Tournament, name: str, club: str, number: str) -> list[str]:
    """``name`` once for each entry still in that is the player entering again (``check_entry`` refuses a name
    among them): read by name and by federation number alone, so that an entry costs the same in a room of thirty
    and of three thousand."""
    same = Q(name_key=name_key(name)) | (Q(federation_number=number) if number else Q(pk__in=[]))
    present = Entry.objects.filter(tournament=tournament, withdrawn_after__isnull=True).filter(same)
    return [name for entry in present if _same_entrant(entry, name, club, number)]


def _book_name(tournament: Tournament, name: str, club: str) -> str:
    """A name for the entrant in the tournament's book that nobody there has yet (the core seats a table by name):
    their own, or with their club in brackets, or numbered; the name is cut where the addition would not fit."""
    players = tournament.keeper.players
    candidates = [name, *([bracketed_name(name, club)] if club else [])]
    number = 2
    while True:
        keys = [name_key(one) for one in candidates]
        taken = set(players.filter(name_key__in=keys).values_list("name_key", flat=True))
        free = next((one for one in candidates if name_key(one) not in taken), None)
        if free is not None:
            return free
        # Numbered names are tried a few at a time: there are as many as entrants of the same name and club.
        candidates = [bracketed_name(name, str(one)) for one in range(number, number + 8)]
        number += 8


def _new_code(tournament: Tournament) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Entry.objects.filter(tournament=tournament, code=code).exists():
            return code


def _enter(tournament: Tournament, form: EntryForm, channel: Channel, account: User | None) -> Entry:
    name = _name(form.name)
    club = _text(form.club, "club")
    number = checked_federation_number(form.federation_number)
    with transaction.atomic():
        locked = _lock(tournament)
        category = _category(locked, form.category)
        if channel is Channel.DOOR and not locked.late_entries:
            raise Conflict.on("name", gettext_noop("This tournament takes entries online only."))
        try:
            check_entry(
                name,
                entrants=_entered_already(locked, name, club, number),
                drawn=Series.objects.filter(tournament=locked).count(),
            )
        except RuleError as error:
            raise Invalid([FieldError("name", one.message) for one in error.errors]) from error
        present = Entry.objects.filter(tournament=locked, withdrawn_after__isnull=True)
        if locked.seats and present.count() >= locked.seats:
            raise Conflict.on(
                "name", gettext_noop("The room seats {count} players: the tournament is full."), count=locked.seats
            )
        entry = Entry.objects.create(
            tournament=locked,
            player=player_named(locked.keeper, _book_name(locked, name, club)),
            name=name,
            name_key=name_key(name),
            club=club,
            category=category,
            federation_number=number,
            channel=channel,
            code=_new_code(locked),
            account=account,
        )
        moved_on(locked)
        return entry


def entry_register_online(*, tournament: Tournament, form: EntryForm, account: User | None = None) -> Entry:
    """An entry made ahead, online, with the confirmation code the entrant shows at the door. Refused once the
    first series is drawn, for a player entered already, and when the room is full."""
    return _enter(tournament, form, Channel.ONLINE, account)


def entry_at_door(*, tournament: Tournament, form: EntryForm, paid: bool = True, user: User | None = None) -> Entry:
    """An entry at the door, in seconds: a name is enough, and with ``paid`` the entrant pays what is due on entry
    (the entry fee, where there is one) at once. Refused once the first series is drawn (or always, where the
    organiser takes entries online only), for a player entered already, and when the room is full."""
    with transaction.atomic():
        entry = _enter(tournament, form, Channel.DOOR, None)
        if paid and tournament.entry_fee:
            entry_pay(entry=entry, user=user)
        return entry


def _due_on_entry(tournament: Tournament, entry: Entry) -> int:
    """What an entrant pays before play: the entry fee and the fees of the side rankings they are in."""
    kinds = set(SideMember.objects.filter(entry=entry).values_list("kind", flat=True))
    return (
        tournament.entry_fee
        + (tournament.tandem_fee if SideKind.TANDEM in kinds else 0)
        + (tournament.team_fee if SideKind.TEAM in kinds else 0)
    )


def entry_pay(
    *, entry: Entry, amount: int | None = None, paid_before: int | None = None, user: User | None = None
) -> Payment:
    """Record money an entrant handed the cashier (``amount`` in cents; none given: what is still due on entry).
    ``paid_before``: what the cashier saw the entrant had paid when they took the money; a payment recorded since
    (a second cashier, a double tap, the API) refuses this one, so that the same money is never taken twice. A payment
    is never changed: a correction is a payment of a negative amount, kept beside it. Refused for nothing to pay, and
    for a correction that takes back more than was paid."""
    with transaction.atomic():
        locked = _lock(entry.tournament)
        paid = Payment.objects.filter(entry=entry).aggregate(paid=Sum("amount"))["paid"] or 0
        if paid_before is not None and paid != paid_before:
            raise Conflict.on(
                "paid",
                gettext_noop(
                    "{player} has paid {paid} meanwhile (the list showed {seen}): nothing more was taken. The list "
                    "shows what is still owed."
                ),
                player=entry.name,
                paid=money(paid),
                seen=money(paid_before),
            )
        amount = max(_due_on_entry(locked, entry) - paid, 0) if amount is None else amount
        if amount == 0:
            raise Invalid.on("amount", gettext_noop("{player} has nothing to pay."), player=entry.name)
        if paid + amount < 0:
            raise Invalid.on(
                "amount",
                gettext_noop("{player} has paid {paid}: a correction takes back no more."),
                player=entry.name,
                paid=money(paid),
            )
        payment = Payment.objects.create(entry=entry, amount=amount, taken_by=user)
        moved_on(locked)
        return payment


def entry_withdraw(*, entry: Entry) -> Entry:
    """An entrant withdraws between series: they play none of the series still to be drawn, and keep the lists of
    those they played. Refused while a series they are seated in is being played, once every series is drawn, for
    an entrant who withdrew already, and before the first series for a player of a tandem or team (entered for the
    whole tournament, it would be left a player short)."""
    with transaction.atomic():
        locked = _lock(entry.tournament)
        current = Entry.objects.select_for_update().get(pk=entry.pk)
        if current.withdrawn_after is not None:
            raise Conflict.on(
                "entry",
                gettext_noop("{player} withdrew after series {number}."),
                player=current.name,
                number=current.withdrawn_after,
            )
        series = drawn_series(locked)
        playing = next((one for one in series if one.closed_at is None), None)
        if playing is not None and TableSeat.objects.filter(series=playing, entry=current).exists():
            raise Conflict.on(
                "entry",
                gettext_noop("Series {number} is being played: {player} withdraws once it is closed."),
                number=playing.number,
                player=current.name,
            )
        if len(series) >= locked.series:
            raise Conflict.on("entry", gettext_noop("Every series is drawn: there is none left to withdraw from."))
        member = SideMember.objects.filter(entry=current).select_related("side").first() if not series else None
        if member is not None:
            raise Conflict.on(
                "entry",
                gettext_noop("{player} plays in the {kind} {side}: its players play at least the first series."),
                player=current.name,
                kind=member.side.get_kind_display(),
                side=member.side.name,
            )
        current.withdrawn_after = len(series)
        current.save(update_fields=["withdrawn_after"])
        moved_on(locked)
        return current


# --- Tandems and teams ------------------------------------------------------------------------------------------------


def side_enter(*, tournament: Tournament, kind: str, name: str, entries: Sequence[Entry]) -> Side:
    """A tandem (two entrants) or a team (four) entered in its side ranking for its fee, until the first series is
    drawn. Refused for the wrong number of players, a player in two tandems or two teams, a name taken, and a
    player who has not entered (or withdrew)."""
    _choice(kind, SideKind, "kind")
    name = one_line_name(name)
    with transaction.atomic():
        locked = _lock(tournament)
        if Series.objects.filter(tournament=locked).exists():
            raise Conflict.on("name", gettext_noop("Series 1 is drawn: entries are closed."))
        present = {one.pk: one for one in Entry.objects.filter(tournament=locked, withdrawn_after__isnull=True)}
        sides = [
            SideRule(
                side.name,
                tuple(member.entry.player.name for member in side.members.select_related("entry__player")),
            )
            for side in Side.objects.filter(tournament=locked, kind=kind)
        ]
        stranger = next((entry for entry in entries if entry.tournament_id != locked.pk), None)
        if stranger is not None:
            raise Invalid.on(
                "entries", gettext_noop("{player} has not entered the tournament."), player=stranger.player.name
            )
        new = SideRule(name, tuple(entry.player.name for entry in entries))
        entrants = [Entrant(one.player.name) for one in present.values()]
        try:
            if kind == SideKind.TANDEM:
                check_entrants(entrants, tandems=[*sides, new])
            else:
                check_entrants(entrants, teams=[*sides, new])
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        side = Side.objects.create(tournament=locked, kind=kind, name=name)
        SideMember.objects.bulk_create(
            SideMember(side=side, entry=entry, kind=kind, position=position) for position, entry in enumerate(entries)
        )
        moved_on(locked)
        return side


# --- Drawing a series -------------------------------------------------------------------------------------------------


def _check_version(tournament: Tournament, version: int | None) -> None:
    if version is not None and version != tournament.version:
        raise Conflict.on(
            "version", gettext_noop("The tournament changed since this page was loaded; nothing was changed.")
        )


def _next_series(tournament: Tournament, number: int, series: Sequence[Series]) -> None:
    """Refuse a series drawn already, one not next, and one drawn while the one before is being played."""
    if any(one.number == number for one in series):
        raise Conflict.on("series", gettext_noop("Series {number} is drawn already."), number=number)
    if not 1 <= number <= tournament.series:
        raise Invalid.on(
            "series", gettext_noop("The tournament has {count} series, not more."), count=tournament.series
        )
    if number != len(series) + 1:
        raise Invalid.on("series", gettext_noop("Series {number} is drawn next."), number=len(series) + 1)
    if series and series[-1].closed_at is None:
        raise Conflict.on(
            "series",
            gettext_noop("Series {number} is being played: it is closed before the next is drawn."),
            number=series[-1].number,
        )


def series_draw(
    *,
    tournament: Tournament,
    number: int,
    seating: str = Seating.DRAW.value,
    plan: Sequence[Sequence[Entry]] = (),
    version: int | None = None,
    user: User | None = None,
) -> list[Table]:
    """Draw series ``number`` for the entrants still in: the first from the tournament's recorded seed (or by a
    fixed plan); a later one drawn again avoiding the pairings of every series before, seated by the standings
    (the leaders at table 1), or by a fixed plan; tables of four first, the rest of three. Each table is a match of
    the tournament's book, started through the core with the tournament's rules and length. Refused for a series
    drawn already (two at once: the second waits for the first and is refused), one not next, one while the series
    before is being played, a stale ``version``, the first seated by standings there are not yet, and a plan that
    seats a player twice, leaves one out or seats one not in the series."""
    mode = Seating(_choice(seating, Seating, "seating"))
    with transaction.atomic():
        locked = _lock(tournament)
        _check_version(locked, version)
        series = drawn_series(locked)
        _next_series(locked, number, series)
        if number == 1 and mode is Seating.STANDINGS:
            raise Invalid.on("seating", gettext_noop("Series 1 has no standings to seat by: it is drawn or planned."))
        entries = {
            entry_key(entry): entry
            for entry in Entry.objects.filter(tournament=locked, withdrawn_after__isnull=True).select_related("player")
        }
        _refuse_strangers(locked, plan)
        rules = tournament_rules(locked, [])
        # Every series drawn is closed by now (``_next_series``): the kept standings are the standings.
        standings = (
            list(
                EntryStanding.objects.filter(tournament=locked)
                .order_by("place")
                .values_list("entry__player__name", flat=True)
            )
            if mode is Seating.STANDINGS
            else []
        )
        try:
            tables = seat_series(
                list(entries),
                number=number,
                rules=rules,
                seating=mode,
                before=seatings(series),
                standings=standings,
                plan=tuple(tuple(entry_key(entry) for entry in table) for table in plan),
            )
        except RuleError as error:
            raise Invalid.from_rules(error) from error
        drawn = Series.objects.create(
            tournament=locked,
            number=number,
            seating=mode,
            seed=series_seed(locked.seed, number) if mode is Seating.DRAW else "",
            drawn_by=user,
        )
        started = [_start_table(locked, drawn, index, table, entries, user) for index, table in enumerate(tables, 1)]
        moved_on(locked)
        return started


def _refuse_strangers(tournament: Tournament, plan: Sequence[Sequence[Entry]]) -> None:
    """Refuse a plan seating an entrant of another tournament (the engine knows entrants by name only)."""
    strangers = [
        FieldError(
            f"tables.{index}", msg(gettext_noop("{player} does not play this series."), player=entry.player.name)
        )
        for index, table in enumerate(plan)
        for entry in table
        if entry.tournament_id != tournament.pk
    ]
    if strangers:
        raise Invalid(strangers)


def _start_table(
    tournament: Tournament,
    series: Series,
    number: int,
    seats: Sequence[str],
    entries: dict[str, Entry],
    user: User | None,
) -> Table:
    players = [entries[key] for key in seats]
    title = table_title(number, series.number, tournament.name)
    match = table_match(
        keeper=tournament.keeper,
        rules=tournament,
        players=[entry.player.name for entry in players],
        title=title,
        user=user,
    )
    table = Table.objects.create(series=series, number=number, match=match)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, series=series, entry=entry, position=position) for position, entry in enumerate(players)
    )
    return table


# --- Paper lists and closing a series ---------------------------------------------------------------------------------


def table_paper_enter(*, table: Table, lines: Sequence[tuple[Entry, int, int, int]], user: User | None) -> Table:
    """Enter a table's paper list as each player's totals (game points, won, lost), checked for what a series can
    produce; replaces totals entered before. A table with games entered keeps its games; a table entered from paper
    takes no games afterwards (its list is locked through the core). Refused once its series is closed."""
    with transaction.atomic():
        locked_tournament = _lock(table.series.tournament)
        locked = Table.objects.select_for_update().select_related("series").get(pk=table.pk)
        if locked.series.closed_at is not None:
            raise Conflict.on(
                "table", gettext_noop("Series {number} is closed: its lists stay."), number=locked.series.number
            )
        match = Match.objects.get(pk=locked.match_id)
        games = locked_tournament.games_at_four if len(lines) == 4 else locked_tournament.games_at_three
        players = [(entry.player, points, won, lost) for entry, points, won, lost in lines]
        # The table's list is its paper totals now: no game is entered on top of them (the phones learn at once).
        paper_enter(match=match, lines=players, games=games, skat_values=True, user=user)
        locked.paper = True
        locked.save(update_fields=["paper"])
        moved_on(locked_tournament)
        return locked


def series_close(*, series: Series, user: User | None) -> Series:
    """Close a series whose every table's list is complete (kept on paper, or all its planned games entered): each
    list is locked and its scoring link turned off through the core, and every player's list of the series is kept
    for the standings. Refused while a table is short of games; closing a closed series leaves it as it is."""
    with transaction.atomic():
        locked_tournament = _lock(series.tournament)
        locked = Series.objects.select_for_update().get(pk=series.pk)
        if locked.closed_at is not None:
            return locked
        tables = list(Table.objects.filter(series=locked).select_related("match").order_by("number"))
        # Every list locked first, and how far each is read under its lock: a game taken back (an undo, a deletion)
        # while the series closes cannot leave a list short of its games; a refusal rolls the locks back.
        for table in tables:
            match_lock(match=table.match, user=user, end_scoring=True)
        deals = dict(Match.objects.filter(pk__in=[table.match_id for table in tables]).values_list("pk", "deals"))
        short = [
            FieldError(
                "tables",
                msg(
                    gettext_noop("Table {number} of series {series} has {count} of {games} games."),
                    number=table.number,
                    series=locked.number,
                    count=deals[table.match_id],
                    games=table.match.planned_games or 0,
                ),
            )
            for table in tables
            if not table.paper and deals[table.match_id] < (table.match.planned_games or 0)
        ]
        if short:
            raise Conflict(short)
        SeriesList.objects.bulk_create(series_lists_summed(locked, tables))
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        standings_kept(locked_tournament, locked.number)
        moved_on(locked_tournament)
        return locked


def series_lists_summed(series: Series, tables: Sequence[Table]) -> list[SeriesList]:
    """Every player's list of the series, summed from its ``tables`` (their games or paper totals), as the series
    keeps them once closed; not yet written."""
    lines = table_lines(tables)
    entry_of = dict(TableSeat.objects.filter(series=series).values_list("entry__player__name", "entry_id"))
    return [
        SeriesList(
            series=series,
            entry_id=entry_of[line.player],
            table_size=line.table_size,
            game_points=line.game_points,
            won=line.won,
            lost=line.lost,
            others_lost=line.others_lost,
        )
        for table in tables
        for line in lines[table.pk]
    ]


def standings_kept(tournament: Tournament, closed: int) -> None:
    """Rank every entrant's lists over the ``closed`` series closed so far and keep the places, in place of those
    kept before (a closed series never changes: its lists are locked, so only closing the next one moves them; a
    restore keeps them again from the lists it summed)."""
    EntryStanding.objects.filter(tournament=tournament).delete()
    EntryStanding.objects.bulk_create(_standings(tournament, closed))


def _standings(tournament: Tournament, closed: int) -> list[EntryStanding]:
    """Every entrant's place over the ``closed`` series closed so far, ranked from the lists they kept; not yet
    written."""
    return [
        EntryStanding(
            tournament=tournament,
            entry_id=entry_id,
            series=closed,
            place=place.place,
            by_lot=place.by_lot,
            total=int(place.standing.score),
            game_points=place.standing.game_points,
            won=place.standing.won,
            lost=place.standing.lost,
            lists=place.standing.lists,
        )
        for entry_id, place in standings_over_closed_series(tournament)
    ]


# A series' list of a player, and an entrant's place, as they are compared with those kept.
LIST_FIELDS = ("table_size", "game_points", "won", "lost", "others_lost")
STANDING_FIELDS = ("series", "place", "by_lot", "total", "game_points", "won", "lost", "lists")


def series_lists_rescore(tournament: Tournament, *, check: bool = False) -> int:
    """Sum the lists of a tournament's closed series afresh from their tables, as closing each did, and compare with
    the lists they kept: the number of players' lists that differ; unless ``check``, a series whose lists differ
    keeps them anew (the places follow with ``tournament_standings_rescore``). Done under the tournament's lock."""
    with transaction.atomic():
        locked = _lock(tournament)
        differ = 0
        for series in Series.objects.filter(tournament=locked, closed_at__isnull=False).order_by("number"):
            tables = list(Table.objects.filter(series=series).select_related("match").order_by("number"))
            fresh = series_lists_summed(series, tables)
            kept = SeriesList.objects.filter(series=series).values_list("entry_id", *LIST_FIELDS)
            changed = rows_differ(
                {row.entry_id: tuple(getattr(row, name) for name in LIST_FIELDS) for row in fresh},
                {row[0]: row[1:] for row in kept},
            )
            if changed and not check:
                SeriesList.objects.filter(series=series).delete()
                SeriesList.objects.bulk_create(fresh)
            differ += changed
        return differ


def tournament_standings_rescore(tournament: Tournament, *, check: bool = False) -> int:
    """Rank the lists a tournament's closed series kept afresh, as closing the last of them did, and compare with
    the places kept: the number of entrants whose place or sums differ; unless ``check``, the places are kept anew,
    as ``standings_kept`` keeps them. Done under the tournament's lock."""
    with transaction.atomic():
        locked = _lock(tournament)
        closed = Series.objects.filter(tournament=locked, closed_at__isnull=False).count()
        # Places are kept from the first series closed on.
        fresh = _standings(locked, closed) if closed else []
        kept = EntryStanding.objects.filter(tournament=locked).values_list("entry_id", *STANDING_FIELDS)
        differ = rows_differ(
            {row.entry_id: tuple(getattr(row, name) for name in STANDING_FIELDS) for row in fresh},
            {row[0]: row[1:] for row in kept},
        )
        if differ and not check:
            EntryStanding.objects.filter(tournament=locked).delete()
            EntryStanding.objects.bulk_create(fresh)
        return differ
