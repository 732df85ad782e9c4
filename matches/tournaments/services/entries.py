"""Entries: made online with a confirmation code or at the door, the money an entrant pays (a correction a payment
of its own), and a withdrawal between series."""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, Sum

from matches.engine import FieldError, RuleError
from matches.engine.messages import gettext_noop
from matches.engine.tournaments import check_entry, money
from matches.errors import Conflict, Invalid
from matches.names import BadName, name_key, normalize_name
from matches.services import player_named
from matches.services.events import bracketed_name
from matches.services.people import checked_federation_number, join_entry, join_number
from matches.services.tables import moved_on

from ..models import Category, Channel, Entry, Payment, Series, SideKind, SideMember, TableSeat, Tournament
from ..selectors import drawn_series, entry_by_code
from .common import lock_tournament, one_line

# A confirmation code is read out and typed at the door: no letters that look alike (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


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


def _entered_already(tournament: Tournament, name: str, club: str, number: str) -> list[Entry]:
    """The entries still in that are the player entering again: read by name and by federation number alone, so
    that an entry costs the same in a room of thirty and of three thousand."""
    same = Q(name_key=name_key(name)) | (Q(federation_number=number) if number else Q(pk__in=[]))
    present = Entry.objects.filter(tournament=tournament, withdrawn_after__isnull=True).filter(same)
    return [entry for entry in present if _same_entrant(entry, name, club, number)]


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
    club = one_line(form.club, "club")
    number = checked_federation_number(form.federation_number)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        category = _category(locked, form.category)
        if channel is Channel.DOOR and not locked.late_entries:
            raise Conflict.on("name", gettext_noop("This tournament takes entries online only."))
        entered = _entered_already(locked, name, club, number)
        try:
            check_entry(
                name,
                entrants=[name for entry in entered if entry.name_key == name_key(name)],
                drawn=Series.objects.filter(tournament=locked).count(),
            )
        except RuleError as error:
            raise Invalid([FieldError("name", one.message) for one in error.errors]) from error
        if entered:
            # Another name with the same number: a number typed wrong, or somebody else's, whom the refusal does not
            # name to a stranger typing numbers.
            raise Invalid.on("federation_number", gettext_noop("This federation number is entered already."))
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
        if number:
            # The number joins the entrant to whoever else carries it, where it may: a number a person with an
            # account holds is theirs to prove, by claiming the entry with its code.
            with contextlib.suppress(Conflict):
                join_number(player=entry.player, number=number)
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


def entry_claim(*, tournament: Tournament, code: str, account: User) -> Entry:
    """An entrant claims their entry for their record with the entry's code: the entry's player becomes the person
    of ``account``. Refused for a code of no entry of the tournament, for an entry another account entered online,
    and for one claimed by another account."""
    entry = entry_by_code(tournament, code)
    if entry is None:
        raise Invalid.on("code", gettext_noop("No entry of this tournament has that code."))
    if entry.account_id is not None and entry.account_id != account.pk:
        raise Conflict.on("code", gettext_noop("Another account entered this entry online: it is theirs to claim."))
    join_entry(player=entry.player, account=account)
    return entry


def _due_on_entry(tournament: Tournament, entry: Entry) -> int:
    """What an entrant pays before play: the entry fee and the fees of the side rankings they are in."""
    kinds = set(SideMember.objects.filter(entry=entry).values_list("kind", flat=True))
    return (
        tournament.entry_fee
        + (tournament.tandem_fee if SideKind.TANDEM in kinds else 0)
        + (tournament.team_fee if SideKind.TEAM in kinds else 0)
    )


PAID_MEANWHILE = gettext_noop(
    "{player} has paid {paid} meanwhile (the list showed {seen}): nothing more was taken. The list shows what is still "
    "owed."
)
PAID_MEANWHILE_NOT_TAKEN_BACK = gettext_noop(
    "{player} has paid {paid} meanwhile (the list showed {seen}): nothing was taken back. The list shows what is paid "
    "now."
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
        locked = lock_tournament(entry.tournament)
        paid = Payment.objects.filter(entry=entry).aggregate(paid=Sum("amount"))["paid"] or 0
        if paid_before is not None and paid != paid_before:
            meanwhile = PAID_MEANWHILE_NOT_TAKEN_BACK if amount is not None and amount < 0 else PAID_MEANWHILE
            raise Conflict.on("paid", meanwhile, player=entry.name, paid=money(paid), seen=money(paid_before))
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


def entry_payment_take_back(*, entry: Entry, paid_before: int, user: User | None = None) -> Payment:
    """Take back the last money an entrant handed the cashier (a payment taken from the wrong entrant): a
    correction of that amount, kept beside it. ``paid_before`` as ``entry_pay`` has it: a payment recorded since
    refuses this one. Refused where there is no payment, or the last is a correction itself."""
    last = Payment.objects.filter(entry=entry).order_by("-created_at", "-id").first()
    if last is None or last.amount <= 0:
        raise Invalid.on("amount", gettext_noop("{player} has no payment to take back."), player=entry.name)
    return entry_pay(entry=entry, amount=-last.amount, paid_before=paid_before, user=user)


def entry_withdraw(*, entry: Entry) -> Entry:
    """An entrant withdraws between series: they play none of the series still to be drawn, and keep the lists of
    those they played. Refused while a series they are seated in is being played, once every series is drawn, for
    an entrant who withdrew already, and before the first series for a player of a tandem or team (entered for the
    whole tournament, it would be left a player short)."""
    with transaction.atomic():
        locked = lock_tournament(entry.tournament)
        current = Entry.objects.select_for_update().get(pk=entry.pk)
        if current.withdrawn_after == 0:
            raise Conflict.on("entry", gettext_noop("{player} withdrew before series 1."), player=current.name)
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
