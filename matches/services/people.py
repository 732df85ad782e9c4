"""People across books: the players of a club's book, a league's, a tournament's and one's own that are one person,
joined by an account, a federation number, a team's roster or a tournament entry's code, and split again.

Joining changes nothing anybody entered: it sets which person a player is (``Player.person``) and keeps the join
(``Join``), so that a wrong one can be undone. A person has one player in a book at most: two players of one book
are two people there (a book merges its own players). Two people with the same name stay two until joined."""

from __future__ import annotations

import contextlib
import unicodedata
import uuid
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from ..engine.messages import gettext_noop
from ..errors import Conflict, Invalid, ServiceError
from ..models import Join, JoinedBy, Person, Player, Shown
from .rankings import rankings_follow_people

# The longest federation number taken: DSkV and ISPA member numbers are far shorter.
MAX_FEDERATION_NUMBER = 20


def checked_federation_number(raw: str, field: str = "federation_number") -> str:
    """A federation's number of a player as typed, without its spaces (fullwidth characters read as the plain ones):
    letters and digits of the Latin alphabet and ``-/.``, refused (at ``field``) when it is anything else or too long,
    and when it has no digit or begins or ends with one of ``-/.`` (a typo, such as "-5" or "abc", is no number to
    guess at); empty for none."""
    number = "".join(unicodedata.normalize("NFKC", raw).split()).upper()
    if len(number) > MAX_FEDERATION_NUMBER or not all(
        char.isascii() and (char.isalnum() or char in "-/.") for char in number
    ):
        raise Invalid.on(
            field,
            gettext_noop("A federation number has up to {count} letters and digits."),
            count=MAX_FEDERATION_NUMBER,
        )
    if number and (not any(char.isdigit() for char in number) or not (number[0].isalnum() and number[-1].isalnum())):
        raise Invalid.on(
            field,
            gettext_noop("A federation number has digits, and - / . only between letters and digits."),
        )
    return number


def person_of_account(user: User, name: str) -> Person:
    """The account's own person, made the first time it is asked for, named ``name`` (the first player joined to it:
    a person is never named after an account's user name). Two requests at once get the one person."""
    found = Person.objects.filter(account=user).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Person.objects.create(account=user, name=name[:60])
    except IntegrityError:
        return Person.objects.get(account=user)


def _person_of_number(number: str, name: str) -> Person:
    found = Person.objects.filter(federation_number=number).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Person.objects.create(federation_number=number, name=name[:60])
    except IntegrityError:
        return Person.objects.get(federation_number=number)


def _locked_player(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def _locked(person: Person) -> Person:
    return Person.objects.select_for_update().get(pk=person.pk)


def _refuse_same_book(person: Person, player: Player, field: str) -> None:
    other = Player.objects.filter(person=person, keeper_id=player.keeper_id).exclude(pk=player.pk).first()
    if other is not None:
        raise Conflict.on(
            field,
            gettext_noop("{name} is this person in this book already: a person is one player of a book."),
            name=other.name,
        )


def _join_one(
    player: Player,
    person: Person,
    how: JoinedBy,
    by: User | None,
    field: str,
    batch: uuid.UUID,
    partner: Player | None = None,
) -> None:
    """``player`` (locked) alone becomes ``person`` (locked), leaving the person they were."""
    _refuse_same_book(person, player, field)
    if not person.name:
        person.name = player.name
        person.save(update_fields=["name"])
    Join.objects.create(
        player=player, person=person, previous=player.person, how=how, by=by, batch=batch, partner=partner
    )
    player.person = person
    player.save(update_fields=["person"])


def _by_number(person: Person, players: list[Player]) -> set[int]:
    """Of ``players`` (of ``person``), those a federation number joined to it: their last join to it is by number,
    and not the number given to the person itself."""
    how: dict[int, str] = {}
    for join in Join.objects.filter(player__in=players, person=person, undone_at__isnull=True).order_by(
        "created_at", "pk"
    ):
        if join.previous_id != join.person_id:
            how[join.player_id] = join.how
    return {player.pk for player in players if how.get(player.pk) == JoinedBy.NUMBER}


def _merge(
    survivor: Person,
    other: Person,
    how: JoinedBy,
    by: User | None,
    field: str,
    name: str,
    partners: dict[int, Player],
    batch: uuid.UUID | None = None,
) -> None:
    """``other`` (locked) becomes ``survivor`` (locked), neither the person of an account: its every player goes
    over (one batch of joins; what a number joined stays joined by the number), its federation number with them.
    Refused for two people: two numbers, two players of one book."""
    assert not survivor.account_id
    assert not other.account_id
    if other.federation_number and survivor.federation_number:
        raise Conflict.on(
            field,
            gettext_noop("{name} is joined to the federation number {number} already."),
            name=name,
            number=survivor.federation_number,
        )
    moving = list(Player.objects.select_for_update().filter(person=other).order_by("pk"))
    books = set(Player.objects.filter(person=survivor).values_list("keeper_id", flat=True))
    if any(one.keeper_id in books for one in moving):
        refused = gettext_noop("{name} and this person both play in one book as two players: they stay apart.")
        raise Conflict.on(field, refused, name=name)
    number = other.federation_number or ""
    if number:
        other.federation_number = None
        other.save(update_fields=["federation_number"])
        survivor.federation_number = number
        survivor.save(update_fields=["federation_number"])
    weak = _by_number(other, moving)
    batch = batch or uuid.uuid4()
    Join.objects.bulk_create(
        Join(
            player=one,
            person=survivor,
            previous=other,
            how=JoinedBy.NUMBER if one.pk in weak else how,
            by=by,
            batch=batch,
            number_carried=number,
            partner=partners.get(one.pk),
        )
        for one in moving
    )
    Player.objects.filter(pk__in=[one.pk for one in moving]).update(person=survivor)


def _partners(player: Player) -> list[Player]:
    """The league's players a team's roster paired the club's player ``player`` with, as long as that pairing holds.
    One way only: linking a club's player brings its league's player along, never the other way round."""
    paired = Join.objects.filter(undone_at__isnull=True, partner=player).values_list("player_id", flat=True)
    return list(Player.objects.select_for_update().filter(pk__in=set(paired) - {player.pk}).order_by("pk"))


def _before(*players: Player | None) -> list[int | None]:
    """The people ``players`` are joined to now, for the rankings to follow them once they move."""
    return [player.person_id for player in players if player is not None]


def join_account(*, player: Player, account: User, by: User | None = None) -> Person:
    """``player`` is the person whose account is ``account`` (the player's link to the account), and so are the
    players a team's roster paired it with. Nobody else comes along: an account's person takes players one by one,
    each proven theirs (a link, a roster's pairing, an entry's code), never what a typed federation number joined,
    and never another person whole."""
    with transaction.atomic():
        locked = _locked_player(player)
        person = _locked(person_of_account(account, locked.name))
        if locked.person is not None and locked.person.account_id not in (None, account.pk):
            raise Conflict.on("account", gettext_noop("{name} is joined to another account already."), name=locked.name)
        batch = uuid.uuid4()
        partners = _partners(locked)
        before = _before(locked, *partners)
        if locked.person_id != person.pk:
            _join_one(locked, person, JoinedBy.ACCOUNT, by or account, "account", batch)
        for partner in partners:
            if partner.person_id != person.pk and (partner.person is None or not partner.person.account_id):
                with contextlib.suppress(Conflict), transaction.atomic():
                    _join_one(partner, person, JoinedBy.ACCOUNT, by or account, "account", batch, partner=locked)
        rankings_follow_people([locked, *partners], before)
        return person


def join_number(
    *,
    player: Player,
    number: str,
    by: User | None = None,
    field: str = "federation_number",
    batch: uuid.UUID | None = None,
    follow: bool = True,
) -> Person:
    """``player`` is the person with the federation number ``number`` (as typed; refused when it is not one): the
    number names them in the ranking lists, and joins the players of other books that carry it.

    A typed number proves nothing: it joins players of no account with one another, and gives the person of an
    account a number nobody holds yet, but never joins anybody to an account's person nor an account's player to
    anybody (those entries are claimed with their codes). Refused, too, for the number of another player of the same
    book and for a person with another number. ``batch``: the joins of several numbers made at once (a member list
    brought in), which one undo takes back together; without ``follow``, the rankings that count the player are
    left for the caller to follow once, all joined (``rankings_follow_people``)."""
    number = checked_federation_number(number, field)
    if not number:
        raise Invalid.on(field, gettext_noop("Enter the federation number."))
    with transaction.atomic():
        before = Person.objects.filter(Q(players=player) | Q(federation_number=number)).values_list("pk", flat=True)
        persons = list(before)
        person = _numbered(player, number, by, field, batch)
        if follow:
            rankings_follow_people([player], persons)
        return person


def _numbered(player: Player, number: str, by: User | None, field: str, batch: uuid.UUID | None) -> Person:
    """``join_number`` within its transaction: the person the player is with the number."""
    locked = _locked_player(player)
    current = _locked(locked.person) if locked.person is not None else None
    holder = Person.objects.select_for_update().filter(federation_number=number).first()
    if current is not None and holder is not None and current.pk == holder.pk:
        return current
    if holder is not None and (holder.account_id or (current is not None and current.account_id)):
        raise Conflict.on(
            field,
            gettext_noop(
                "The federation number {number} is another person's: their entries are claimed with their codes."
            ),
            number=number,
        )
    if current is not None and current.federation_number:
        raise Conflict.on(
            field,
            gettext_noop("{name} is joined to the federation number {number} already."),
            name=locked.name,
            number=current.federation_number,
        )
    batch = batch or uuid.uuid4()
    if holder is None and current is None:
        holder = _locked(_person_of_number(number, locked.name))
        _join_one(locked, holder, JoinedBy.NUMBER, by, field, batch)
        return holder
    if holder is None:
        assert current is not None
        # The number names the person the player is: given, not joined (its join goes back to the same person).
        current.federation_number = number
        current.save(update_fields=["federation_number"])
        Join.objects.create(
            player=locked,
            person=current,
            previous=current,
            how=JoinedBy.NUMBER,
            by=by,
            batch=batch,
            number_carried=number,
        )
        return current
    holder = _locked(holder)
    if current is None:
        _join_one(locked, holder, JoinedBy.NUMBER, by, field, batch)
        return holder
    _refuse_same_book(holder, locked, field)
    _merge(current, holder, JoinedBy.NUMBER, by, field, locked.name, {}, batch)
    return current


def join_roster(*, player: Player, league_player: Player, follow: bool = True) -> None:
    """A team's roster, kept by the club's own secretary, pairs a club's player with the league's player the tables
    seat: one person. The club player's person, an account's, takes the league's player alone; a league's player
    never brings a club's player into an account's person (only the club's own people say who its players are)."""
    with transaction.atomic():
        club_player, in_league = _locked_player(player), _locked_player(league_player)
        ours = _locked(club_player.person) if club_player.person is not None else None
        theirs = _locked(in_league.person) if in_league.person is not None else None
        if (ours is not None and theirs is not None and ours.pk == theirs.pk) or (theirs and theirs.account_id):
            return
        _roster_joined(club_player, in_league, ours, theirs)
        if follow:
            rankings_follow_people([club_player, in_league], [ours.pk if ours else None, theirs.pk if theirs else None])


def _roster_joined(club_player: Player, in_league: Player, ours: Person | None, theirs: Person | None) -> None:
    """``join_roster`` within its transaction: the two players one person."""
    batch = uuid.uuid4()
    if ours is None and theirs is None:
        person = Person.objects.create(name=club_player.name)
        _join_one(club_player, person, JoinedBy.ROSTER, None, "player", batch)
        _join_one(in_league, person, JoinedBy.ROSTER, None, "player", batch, partner=club_player)
    elif theirs is None or (ours is not None and ours.account_id):
        assert ours is not None
        _join_one(in_league, ours, JoinedBy.ROSTER, None, "player", batch, partner=club_player)
    elif ours is None:
        _join_one(club_player, theirs, JoinedBy.ROSTER, None, "player", batch)
        # The pairing, recorded on the league's player (it stays where it is).
        Join.objects.create(
            player=in_league, person=theirs, previous=theirs, how=JoinedBy.ROSTER, batch=batch, partner=club_player
        )
    else:
        _merge(ours, theirs, JoinedBy.ROSTER, None, "player", club_player.name, {in_league.pk: club_player})


def roster_unpaired(*, player: Player, league_player: Player) -> None:
    """A team's roster no longer pairs the two (the entry taken off): the league's player leaves the club player's
    person, where the pairing took them."""
    with transaction.atomic():
        pairing = Join.objects.filter(player=league_player, partner=player, undone_at__isnull=True)
        for join in pairing.order_by("-created_at", "-pk")[:1]:
            with contextlib.suppress(Conflict):
                join_undo(join=join, by=None, keeper=league_player.keeper_id)


def join_entry(*, player: Player, account: User) -> None:
    """A tournament's entrant, known by the entry's code, claims the entry for their account: its player alone
    becomes the account's person (the code proves that entry, not what else a number joined to it)."""
    with transaction.atomic():
        locked = _locked_player(player)
        person = _locked(person_of_account(account, locked.name))
        if locked.person_id == person.pk:
            return
        if locked.person is not None and locked.person.account_id:
            raise Conflict.on("code", gettext_noop("{name} is joined to another account already."), name=locked.name)
        before = _before(locked)
        _join_one(locked, person, JoinedBy.CODE, account, "code", uuid.uuid4())
        rankings_follow_people([locked], before)


def joins_restored(*, pairs: Sequence[tuple[Player, Player]] = (), numbered: Sequence[tuple[Player, str]] = ()) -> None:
    """An event's restored rows join as their making joined them: each roster's two players, each player to the
    federation number the roster or the entry gives (where it may: ``join_roster``, ``join_number``). The rankings
    that count them follow once, all joined."""
    for player, league_player in pairs:
        with contextlib.suppress(Conflict):
            join_roster(player=player, league_player=league_player, follow=False)
    for player, number in numbered:
        if number:
            with contextlib.suppress(ServiceError):
                join_number(player=player, number=number, follow=False)
    rankings_follow_people([*(one for pair in pairs for one in pair), *(player for player, _ in numbered)])


def _given(join: Join) -> bool:
    """Whether ``join`` gave its number to the person the player was already."""
    return join.how == JoinedBy.NUMBER and join.previous_id == join.person_id and bool(join.number_carried)


def _other_numbers(join: Join, batch: Sequence[Join]) -> list[Join]:
    """The joins of ``batch`` that gave or carried a number other than ``join``'s, one for each."""
    seen = {(join.person_id, join.previous_id, join.number_carried)}
    found = []
    for one in batch:
        key = (one.person_id, one.previous_id, one.number_carried)
        if one.number_carried and key not in seen:
            seen.add(key)
            found.append(one)
    return found


def _number_back(join: Join, person: Person) -> None:
    """The number ``join`` gave ``person`` (locked) taken back, or the number it carried over back where it came
    from."""
    carried, back, given = join.number_carried, join.previous, _given(join)
    if carried and person.federation_number == carried:
        if given or (back is not None and not back.federation_number):
            person.federation_number = None
            person.save(update_fields=["federation_number"])
        if not given and back is not None and not back.federation_number:
            back.federation_number = carried
            back.save(update_fields=["federation_number"])


def join_undo(*, join: Join, by: User | None, keeper: int | None = None) -> list[Player]:
    """Undo ``join`` with every join made with it: each player back to the person they were before (nobody, or the
    one they were joined to), the federation number that went over back with them, the account's link taken back
    where the join was one. Undoing a number given to a person undoes what that number joined to it, too.
    ``keeper``: undone by a book's keeper, the players of that book alone move. Refused for a join undone already
    or followed by another."""
    with transaction.atomic():
        joins = Join.objects.select_related("previous", "player").filter(undone_at__isnull=True)
        batch = list(joins.filter(batch=join.batch))
        # A batch of several numbers (a member list brought in) gave or carried each of them: each is undone as the
        # one number of a single join is.
        numbered = [join, *_other_numbers(join, batch)]
        persons = {
            one.pk: one
            for one in Person.objects.select_for_update()
            .filter(pk__in={one.person_id for one in numbered})
            .order_by("pk")
        }
        person = persons[join.person_id]
        for one in numbered:
            if _given(one):
                others = joins.filter(person_id=one.person_id, how=JoinedBy.NUMBER).exclude(batch=join.batch)
                batch += [
                    other
                    for other in others
                    if other.previous_id != other.person_id and other.player.person_id == one.person_id
                ]
        if keeper is not None:
            batch = [one for one in batch if one.player.keeper_id == keeper]
        players = {
            one.pk: one for one in Player.objects.select_for_update().filter(pk__in=[j.player_id for j in batch])
        }
        latest: dict[int, int] = {}
        for one in Join.objects.filter(player__in=list(players), undone_at__isnull=True).order_by("created_at", "pk"):
            latest[one.player_id] = one.pk
        mine = [one for one in batch if one.batch == join.batch]
        if not mine or any(
            latest.get(one.player_id) != one.pk or players[one.player_id].person_id != one.person_id for one in mine
        ):
            raise Conflict.on("join", gettext_noop("This join was undone or changed already."))
        batch = [one for one in batch if latest.get(one.player_id) == one.pk]
        undone = {one.pk for one in mine}
        for one in numbered:
            if one is join or one.pk in undone:
                _number_back(one, persons[one.person_id])
        now = timezone.now()
        for one in batch:
            player = players[one.player_id]
            previous = one.previous
            same_book = Player.objects.filter(person=previous, keeper_id=player.keeper_id).exclude(pk=player.pk)
            if previous is not None and same_book.exists():
                previous = None
            player.person = previous
            fields = ["person"]
            if one.how == JoinedBy.ACCOUNT and player.account_id is not None and player.account_id == person.account_id:
                player.account, player.link_token = None, None
                fields += ["account", "link_token"]
            player.save(update_fields=fields)
            one.undone_at, one.undone_by = now, by
            one.save(update_fields=["undone_at", "undone_by"])
        involved = {one.person_id for one in batch} | {one.previous_id for one in batch} | set(persons)
        rankings_follow_people(players.values(), involved)
        return list(players.values())


def player_leaves(*, player: Player, by: User | None) -> None:
    """``player`` is nobody's any more (their account's link was taken back): every join that holds them is undone."""
    with transaction.atomic():
        locked = _locked_player(player)
        Join.objects.filter(player=locked, undone_at__isnull=True).update(undone_at=timezone.now(), undone_by=by)
        before = _before(locked)
        locked.person = None
        locked.save(update_fields=["person"])
        rankings_follow_people([locked], before)


def joins_removed(*, account: User) -> int:
    """Every join of the account's person undone and every link to the account taken back, at once (the person
    asks to be split from every book); how many players it held."""
    with transaction.atomic():
        person = Person.objects.filter(account=account).first()
        removed = 0
        if person is not None:
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
