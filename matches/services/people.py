"""People across books: the players of a club's book, a league's, a tournament's and one's own that are one person,
joined by an account, a federation number, a team's roster or a tournament entry's code, and split again.

Joining changes nothing anybody entered: it sets which person a player is (``Player.person``) and keeps the join
(``Join``), so that a wrong one can be undone. A person has one player in a book at most: two players of one book
are two people there (a book merges its own players). Two people with the same name stay two until joined."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..engine.messages import gettext_noop
from ..errors import Conflict, Invalid
from ..models import Join, JoinedBy, Person, Player, Shown

# The longest federation number taken: DSkV and ISPA member numbers are far shorter.
MAX_FEDERATION_NUMBER = 20


def checked_federation_number(raw: str, field: str = "federation_number") -> str:
    """A federation's number of a player as typed, without its spaces: letters, digits and ``-/.``, refused (at
    ``field``) when it is anything else or too long; empty for none."""
    number = "".join(raw.split())
    if len(number) > MAX_FEDERATION_NUMBER or not all(char.isalnum() or char in "-/." for char in number):
        raise Invalid.on(
            field,
            gettext_noop("A federation number has up to {count} letters and digits."),
            count=MAX_FEDERATION_NUMBER,
        )
    return number


def person_of_account(user: User, name: str = "") -> Person:
    """The account's own person, made the first time it is asked for: named ``name`` (the first player joined to
    it), else as the account names itself."""
    with transaction.atomic():
        person = Person.objects.select_for_update().filter(account=user).first()
        if person is None:
            named = name or user.get_full_name() or user.get_username()
            person = Person.objects.create(account=user, name=named[:60])
        return person


def _person_of_number(number: str, name: str) -> Person:
    person = Person.objects.select_for_update().filter(federation_number=number).first()
    if person is None:
        person = Person.objects.create(federation_number=number, name=name)
    return person


def _locked_player(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def _refuse_same_book(person: Person, player: Player, field: str) -> None:
    other = Player.objects.filter(person=person, keeper_id=player.keeper_id).exclude(pk=player.pk).first()
    if other is not None:
        raise Conflict.on(
            field,
            gettext_noop("{name} is this person in this book already: a person is one player of a book."),
            name=other.name,
        )


def _unite(player: Player, person: Person, how: JoinedBy, by: User | None, field: str) -> None:
    """Join ``player`` (locked) to ``person``; a player joined to another person brings that person's every player
    along, the two people becoming one, unless they are two (two accounts, two federation numbers, two players of
    one book)."""
    current = player.person
    if current is None:
        _refuse_same_book(person, player, field)
        player.person = person
        player.save(update_fields=["person"])
        Join.objects.create(player=player, person=person, how=how, by=by)
        return
    if current.pk == person.pk:
        return
    current = Person.objects.select_for_update().get(pk=current.pk)
    if current.account_id and person.account_id:
        raise Conflict.on(field, gettext_noop("{name} is joined to another account already."), name=player.name)
    if current.federation_number and person.federation_number:
        raise Conflict.on(
            field,
            gettext_noop("{name} is joined to the federation number {number} already."),
            name=player.name,
            number=current.federation_number,
        )
    moving = list(Player.objects.select_for_update().filter(person=current).order_by("pk"))
    books = set(Player.objects.filter(person=person).values_list("keeper_id", flat=True))
    if any(one.keeper_id in books for one in moving):
        raise Conflict.on(
            field,
            gettext_noop("{name} and this person both play in one book as two players: they stay apart."),
            name=player.name,
        )
    account, number = current.account_id, current.federation_number
    current.account, current.federation_number = None, None
    current.save(update_fields=["account", "federation_number"])
    person.account_id = person.account_id or account
    person.federation_number = person.federation_number or number
    person.save(update_fields=["account", "federation_number"])
    Player.objects.filter(pk__in=[one.pk for one in moving]).update(person=person)
    Join.objects.bulk_create(Join(player=one, person=person, previous=current, how=how, by=by) for one in moving)
    player.person = person


def join_account(*, player: Player, account: User, by: User | None = None) -> Person:
    """``player`` is the person whose account is ``account`` (the player's link to the account)."""
    with transaction.atomic():
        person = person_of_account(account, player.name)
        _unite(_locked_player(player), person, JoinedBy.ACCOUNT, by or account, "account")
        return person


def join_number(*, player: Player, number: str, by: User | None = None, field: str = "federation_number") -> Person:
    """``player`` is the person with the federation number ``number`` (as typed; refused when it is not one). Refused
    when the number is another player's of the same book, or the player is joined to another number."""
    number = checked_federation_number(number, field)
    if not number:
        raise Invalid.on(field, gettext_noop("Enter the federation number."))
    with transaction.atomic():
        locked = _locked_player(player)
        person = _person_of_number(number, locked.name)
        _unite(locked, person, JoinedBy.NUMBER, by, field)
        return person


def join_roster(*, player: Player, league_player: Player) -> None:
    """A team's roster says that a club's player and a league's player are one person."""
    with transaction.atomic():
        club_player, in_league = _locked_player(player), _locked_player(league_player)
        if club_player.person_id is None and in_league.person_id is None:
            club_player.person = Person.objects.create(name=club_player.name)
            club_player.save(update_fields=["person"])
            Join.objects.create(player=club_player, person=club_player.person, how=JoinedBy.ROSTER)
        if club_player.person is not None:
            _unite(in_league, club_player.person, JoinedBy.ROSTER, None, "player")
        else:
            assert in_league.person is not None
            _unite(club_player, in_league.person, JoinedBy.ROSTER, None, "player")


def join_entry(*, player: Player, account: User) -> None:
    """A tournament's entrant, known by the entry's code, claims the entry for their account."""
    with transaction.atomic():
        person = person_of_account(account)
        _unite(_locked_player(player), person, JoinedBy.CODE, account, "code")


def join_undo(*, join: Join, by: User | None) -> Player:
    """Undo ``join``, the last of its player's: the player goes back to the person they were before (nobody, or
    one they were joined to before). What the join took along stays where it went. Refused for a join undone
    already or followed by another."""
    with transaction.atomic():
        player = _locked_player(join.player)
        latest = Join.objects.filter(player=player, undone_at__isnull=True).order_by("-created_at", "-pk").first()
        if latest is None or latest.pk != join.pk or player.person_id != join.person_id:
            raise Conflict.on("join", gettext_noop("This join was undone or changed already."))
        back = join.previous
        if back is not None and Player.objects.filter(person=back, keeper_id=player.keeper_id).exists():
            back = None
        player.person = back
        fields = ["person"]
        if join.how == JoinedBy.ACCOUNT and player.account_id is not None:
            player.account, player.link_token = None, None
            fields += ["account", "link_token"]
        player.save(update_fields=fields)
        join.undone_at, join.undone_by = timezone.now(), by
        join.save(update_fields=["undone_at", "undone_by"])
        return player


def player_leaves(*, player: Player, by: User | None) -> None:
    """``player`` is nobody's any more (their account's link was taken back): every join that holds them is undone."""
    with transaction.atomic():
        locked = _locked_player(player)
        Join.objects.filter(player=locked, undone_at__isnull=True).update(undone_at=timezone.now(), undone_by=by)
        locked.person = None
        locked.save(update_fields=["person"])


def joins_removed(*, account: User) -> int:
    """Every join of the account's person undone (the person asks to be split from every book); how many."""
    person = Person.objects.filter(account=account).first()
    if person is None:
        return 0
    removed = 0
    for player in Player.objects.filter(person=person).order_by("pk"):
        player_leaves(player=player, by=account)
        removed += 1
    Player.objects.filter(account=account).update(account=None, link_token=None)
    return removed


def person_shown(*, person: Person, shown: str) -> Person:
    if shown not in Shown.values:
        raise Invalid.on("shown", gettext_noop("Choose who sees your record."))
    person.shown = shown
    person.save(update_fields=["shown"])
    return person
