"""Ranking lists over closed lists: who counts, month by month with each month kept as published, the files and the
printed list, who sees a list, and the refusals of a list that cannot rank anybody."""

from __future__ import annotations

import datetime
import html
import io
import re
import threading
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night
from matches.errors import Conflict, Invalid, ServiceError
from matches.models import Join, MemberImport, Player, RankingDue, RankingEdition, RankingList, RankingPlace
from matches.paging import place_token
from matches.rankings import ranking_rows
from matches.services import rankings as ranking_services
from matches.services.member_imports import member_import_undo, member_rows_read
from matches.services.people import join_number, join_undo
from matches.services.rankings import RankingForm, ranking_publish, ranking_save, rankings_catch_up
from matches.views import rankings as ranking_views

from .factories import make_user, run_tasks
from .test_closed_lists import rescore
from .test_interclub_exports import body
from .test_member_imports import applied, csv_file
from .test_people import signed_in, text_of
from .test_record import paper_night

pytestmark = pytest.mark.django_db

NOVEMBER = {"Anna": (72, 1, 0), "Ben": (0, 0, 0), "Cleo": (0, 0, 0)}  # Anna 122
# November's night as it was really played: the grand was Ben's, entered on Anna's line by mistake.
CORRECTED = {"Anna": (0, 0, 0), "Ben": (72, 1, 0), "Cleo": (0, 0, 0)}  # Ben 122
DECEMBER = {"Anna": (0, 0, 0), "Ben": (96, 2, 0), "Cleo": (0, 0, 0)}  # Ben 196


@pytest.fixture
def club() -> dict[str, Any]:
    """A club's season with a night in November and one in December (one series at a table of three each)."""
    owner = make_user("olga")
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    paper_night(season, datetime.date(2026, 11, 3), [NOVEMBER])
    december = paper_night(season, datetime.date(2026, 12, 1), [DECEMBER])
    return {"owner": owner, "club": club, "season": season, "december": december}


def defined(owner: Any, season: Any, **options: Any) -> RankingList:
    return ranking_save(owner=owner, form=RankingForm(name="Rangliste", events=[str(season.public_id)], **options))


def test_a_monthly_list_keeps_each_month_as_published(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    november = ranking_rows(ranking, "2026-11")
    assert [(row.place, row.name, int(row.score)) for row in november] == [
        (1, "Anna", 122),
        (2, "Ben", 0),
        (2, "Cleo", 0),
    ]
    edition = ranking_publish(ranking=ranking, period="2026-11", by=club["owner"])
    # A list that closes later in November changes the list as it stands, not the one published.
    late = paper_night(club["season"], datetime.date(2026, 11, 24), [DECEMBER])
    assert ranking_rows(ranking, "2026-11")[0].name == "Ben"
    owner = signed_in(club["owner"])
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-11"))
    assert "Published on" in page
    assert "1 Anna 122 1 122 1" in page
    assert RankingEdition.objects.get(pk=edition.pk).rows[0]["name"] == "Anna"
    # Publishing the changed list is publishing it anew, which says why.
    with pytest.raises(Invalid, match="Say why the list is published anew"):
        ranking_publish(ranking=ranking, period="2026-11", by=club["owner"])
    # December stands as it is until published; reopening a night takes its lists out of the list as it stands.
    december = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-12"))
    assert "As it stands" in december
    assert "1 Ben 196 1 196 1" in december
    clubs.night_reopen(night=late, user=club["owner"])
    assert ranking_rows(ranking, "2026-11")[0].name == "Anna"


def test_the_list_downloads_in_every_format_and_prints(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="year")
    owner = signed_in(club["owner"])
    csv = owner.get(reverse("download-ranking-list", args=[ranking.public_id, 2026, "csv"]))
    assert csv.status_code == 200
    lines = body(csv).decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Place,Name,Average,Series,Points,Events")
    assert lines[1] == "1,Ben,98,2,196,2"
    assert lines[2] == "2,Anna,61,2,122,2"
    printed = owner.get(reverse("download-ranking-list", args=[ranking.public_id, 2026, "pdf"]))
    assert printed.status_code == 200
    assert printed.content.startswith(b"%PDF")
    # Nobody else has a private list, in any format.
    stranger = signed_in(make_user("mallory"))
    assert stranger.get(reverse("download-ranking-list", args=[ranking.public_id, 2026, "csv"])).status_code == 404
    assert stranger.get(reverse("ranking_detail", args=[ranking.public_id])).status_code == 404


def test_who_sees_a_list_and_who_counts(club: dict[str, Any]) -> None:
    ben = Player.objects.get(keeper=club["club"].keeper, name="Ben")
    join_number(player=ben, number="4711")
    numbered = defined(club["owner"], club["season"], counted="numbered")
    assert [row.name for row in ranking_rows(numbered)] == ["Ben"]
    circle = str(club["club"].public_id)
    of_club = defined(club["owner"], club["season"], counted="book", circle=circle)
    assert len(ranking_rows(of_club)) == 3
    member = make_user("max")
    clubs.member_set(club=club["club"], username="max", role="member")
    shown = signed_in(member).get(reverse("ranking_detail", args=[of_club.public_id]))
    assert shown.status_code == 200
    # The page says whose players count: a member of two clubs tells their lists apart.
    assert "the players of Skatclub Herz Dame" in text_of(shown)
    assert Client().get(reverse("ranking_detail", args=[numbered.public_id])).status_code == 302
    # A club's nights are for its members: a list over them is shown to nobody else.
    with pytest.raises(Invalid, match="not shown to everybody"):
        defined(club["owner"], club["season"], public=True)
    # Somebody else's club is no circle of theirs to rank.
    with pytest.raises(Invalid) as refused:
        defined(
            member,
            club["season"],
            counted="book",
            circle=str(clubs.club_create(owner=make_user("x"), name="X").public_id),
        )
    assert "circle" in {error.field for error in refused.value.errors}


def test_a_list_that_cannot_rank_anybody_is_refused_next_to_its_field(club: dict[str, Any]) -> None:
    owner = signed_in(club["owner"])
    form: dict[str, Any] = {"name": "Rangliste", "period": "whole", "counted": "everybody", "method": "average"}
    form |= {"best": "1", "field": "100", "events": [str(club["season"].public_id)]}
    # Nobody played three series: the most is two.
    refused = owner.post(reverse("ranking_list"), form | {"minimum": "3"})
    assert refused.status_code == 400
    assert "Nobody has played 3 series in a period of these events: the most is 2." in text_of(refused)
    assert 'id="id_minimum_error"' in refused.content.decode() or "aria-invalid" in refused.content.decode()
    # Dates in which no list closed: a list over no events.
    empty = owner.post(reverse("ranking_list"), form | {"minimum": "1", "date_from": "2027-01-01"})
    assert "No closed list of these events falls in these dates." in text_of(empty)
    # No events, a stranger's event, placement points not written as numbers.
    none = owner.post(reverse("ranking_list"), form | {"minimum": "1", "events": []})
    assert "Choose the events to count from those offered." in text_of(none)
    other = make_user("mallory")
    with pytest.raises(Invalid):
        defined(other, club["season"])
    bad = owner.post(reverse("ranking_list"), form | {"minimum": "1", "method": "places", "places": "10 sechs"})
    assert "Write the points as whole numbers, the first place's first." in text_of(bad)
    assert not RankingList.objects.exists()


def test_a_list_changed_by_its_owner_only(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"])
    owner = signed_in(club["owner"])
    form = owner.get(reverse("ranking_edit", args=[ranking.public_id]))
    assert form.status_code == 200
    assert "Rangliste" in text_of(form)
    # The events offered are dated as the reader writes dates.
    assert "Skatclub Herz Dame · 2026 (Club nights, 12/01/2026)" in text_of(form)
    german = Client(headers={"accept-language": "de"})
    german.force_login(club["owner"])
    offered = text_of(german.get(reverse("ranking_edit", args=[ranking.public_id])))
    assert "Skatclub Herz Dame · 2026 (Vereinsabende, 01.12.2026)" in offered
    data = {"name": "Bestenliste", "events": [str(club["season"].public_id)], "period": "whole"}
    data |= {"counted": "everybody", "method": "best", "minimum": "1", "best": "1", "field": "100"}
    assert owner.post(reverse("ranking_edit", args=[ranking.public_id]), data).status_code == 302
    ranking.refresh_from_db()
    assert (ranking.name, ranking.method) == ("Bestenliste", "best")
    member = make_user("max")
    clubs.member_set(club=club["club"], username="max", role="member")
    assert (
        signed_in(member).post(reverse("ranking_delete", args=[ranking.public_id]), {"confirm": "on"}).status_code
        == 404
    )
    # One tap is not enough: the list and what was published of it go only once the box is ticked.
    ranking_publish(ranking=ranking, period="", by=club["owner"])
    unticked = owner.post(reverse("ranking_delete", args=[ranking.public_id]))
    assert unticked.status_code == 400
    assert "Tick this to delete the list." in text_of(unticked)
    assert "Its published list goes with it." in text_of(unticked)
    assert RankingList.objects.exists()
    assert owner.post(reverse("ranking_delete", args=[ranking.public_id]), {"confirm": "on"}).status_code == 302
    assert not RankingList.objects.exists()


def test_publishing_on_the_page_waits_for_a_tick_and_keeps_the_period_asked_for(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    owner = signed_in(club["owner"])
    address = reverse("ranking_publish", args=[ranking.public_id])
    page = owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-11")
    assert "Yes, publish: this period&#x27;s list stays as it is now, for good" in page.content.decode()
    # One tap is not enough: a list published stays so, whatever closes later.
    unticked = owner.post(address, {"period": "2026-11"})
    assert unticked.status_code == 400
    assert "Tick this to publish the list." in text_of(unticked)
    assert "Publish the list of November 2026" in text_of(unticked)  # the period asked for, not the latest
    assert not RankingEdition.objects.exists()
    assert owner.post(address, {"period": "2026-11", "confirm": "on"}).status_code == 302
    assert list(RankingEdition.objects.values_list("period", flat=True)) == ["2026-11"]


def places(ranking: RankingList, period: str) -> list[tuple[int, str, int, str]]:
    """The kept places of a period: place, the player's name, series and score."""
    kept = RankingPlace.objects.filter(ranking=ranking, period=period).order_by("place", "pk")
    return [(place.place, place.player.name, place.series, place.score) for place in kept]


def test_the_list_as_it_stands_is_kept_as_lists_close_and_reopen_and_people_join(club: dict[str, Any]) -> None:
    other = clubs.club_create(owner=club["owner"], name="Skatfreunde Kreuz Bube")
    away = clubs.season_create(club=other, settings=clubs.SeasonSettings(name="2026"))
    paper_night(away, datetime.date(2026, 11, 10), [{"Benjamin": (48, 1, 0), "Dora": (0, 0, 0), "Emil": (0, 0, 0)}])
    ranking = ranking_save(
        owner=club["owner"],
        form=RankingForm(name="Rangliste", events=[str(club["season"].public_id), str(away.public_id)], period="month"),
    )
    assert ranking.periods == ["2026-12", "2026-11"]
    assert places(ranking, "2026-11") == [
        (1, "Anna", 1, "122"),
        (2, "Benjamin", 1, "98"),
        (3, "Ben", 1, "0"),
        (3, "Cleo", 1, "0"),
        (3, "Dora", 1, "0"),
        (3, "Emil", 1, "0"),
    ]
    december = list(RankingPlace.objects.filter(ranking=ranking, period="2026-12").values_list("pk", flat=True))

    # A night closing in November moves November's places, and no other month's: Ben 196 in 2 series, Anna 122.
    late = paper_night(club["season"], datetime.date(2026, 11, 24), [DECEMBER])
    rankings_catch_up()
    assert places(ranking, "2026-11")[:3] == [(1, "Ben", 2, "98"), (2, "Benjamin", 1, "98"), (3, "Anna", 2, "61")]
    assert list(RankingPlace.objects.filter(ranking=ranking, period="2026-12").values_list("pk", flat=True)) == december

    # Ben of the club and Benjamin of the other are one person once a number joins them: one place, two books.
    ben = Player.objects.get(keeper=club["club"].keeper, name="Ben")
    benjamin = Player.objects.get(keeper=other.keeper, name="Benjamin")
    join_number(player=ben, number="4711")
    join_number(player=benjamin, number="4711")
    rankings_catch_up()
    joined = places(ranking, "2026-11")
    assert joined[0][2:] == (3, "98")  # (0 + 196 + 98) / 3
    assert [row[1] for row in joined].count("Benjamin") + [row[1] for row in joined].count("Ben") == 1
    assert places(ranking, "2026-12")[0] == (1, "Ben", 1, "196")
    join_undo(join=Join.objects.filter(player=benjamin).latest("pk"), by=None)
    rankings_catch_up()
    assert {row[1] for row in places(ranking, "2026-11")} >= {"Ben", "Benjamin"}

    # Reopening the late night takes its lists out again.
    clubs.night_reopen(night=late, user=club["owner"])
    rankings_catch_up()
    assert places(ranking, "2026-11")[:2] == [(1, "Anna", 1, "122"), (2, "Benjamin", 1, "98")]
    # Its page reads what is kept.
    owner = signed_in(club["owner"])
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-11"))
    assert "1 Anna 122 1 122 1 2 Benjamin 98 1 98 1" in page


def test_rescore_checks_the_places_kept_and_keeps_a_list_never_kept(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    assert rescore("--check").strip().endswith("0 differences")
    RankingPlace.objects.filter(ranking=ranking, period="2026-11", player__name="Anna").update(score="7")
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"^1 differences"):
        call_command("rescore", "--check", stdout=out, stderr=io.StringIO())
    assert f"ranking list {ranking.public_id} (Rangliste): 1 periods' places differ" in out.getvalue()
    assert f"ranking list {ranking.public_id} (Rangliste): 1 periods' places rewritten" in rescore()
    assert places(ranking, "2026-11")[0] == (1, "Anna", 1, "122")

    # A list whose places were never kept (defined before they were) is worked out as it is read, then kept.
    RankingPlace.objects.all().delete()
    RankingList.objects.update(kept_at=None, periods=[])
    owner = signed_in(club["owner"])
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-12"))
    assert "1 Ben 196 1 196 1" in page
    assert rescore("--check").strip().endswith("0 differences")
    rescore()
    ranking.refresh_from_db()
    assert ranking.periods == ["2026-12", "2026-11"]
    assert places(ranking, "2026-12")[0] == (1, "Ben", 1, "196")


def test_a_long_list_is_shown_a_page_of_places_at_a_time(club: dict[str, Any], monkeypatch: Any) -> None:
    monkeypatch.setattr(ranking_views, "PLACES_PER_PAGE", 2)
    ranking = defined(club["owner"], club["season"])
    owner = signed_in(club["owner"])
    first = owner.get(reverse("ranking_detail", args=[ranking.public_id]))
    assert "1 Ben 98 2 196 2 2 Anna 61 2 122 2 Further places" in text_of(first)
    more = re.search(r'href="(\?[^"]*after=[^"]+)"', first.content.decode())
    assert more is not None
    second = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + html.unescape(more.group(1))))
    assert "3 Cleo 0 2 0 2" in second
    assert "Anna" not in second
    # A published list, read whole from its edition, is shown a page at a time as well.
    ranking_publish(ranking=ranking, period="", by=club["owner"])
    published = owner.get(reverse("ranking_detail", args=[ranking.public_id]))
    assert "1 Ben 98 2 196 2 2 Anna 61 2 122 2 Further places" in text_of(published)
    assert "Cleo" not in text_of(published)
    more = re.search(r'href="(\?[^"]*after=[^"]+)"', published.content.decode())
    assert more is not None
    rest = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + html.unescape(more.group(1))))
    assert "3 Cleo 0 2 0 2" in rest
    assert "Further places" not in rest
    assert "Ben" not in rest
    # A place not made here: no place at all, a row beyond the list, a row that is not where the place says, a place
    # of the list as it stood before it was published, of another period.
    for place in ("e30=", whole(place_token(1, 5)), whole(place_token(2, 0)), place_token(["", "kept", "x"], 0)):
        assert owner.get(reverse("ranking_detail", args=[ranking.public_id]) + f"?after={place}").status_code == 404
    after_ben = text_of(
        owner.get(reverse("ranking_detail", args=[ranking.public_id]) + f"?after={whole(place_token(1, 0))}")
    )
    assert "2 Anna 61 2 122 2 3 Cleo 0 2 0 2" in after_ben
    other = place_token(["2026", "whole", place_token(1, 0)], 0)
    assert owner.get(reverse("ranking_detail", args=[ranking.public_id]) + f"?period=&after={other}").status_code == 404


def whole(inner: str) -> str:
    """A place in the list of the whole time as first published, around ``inner``."""
    return place_token(["", "edition-1", inner], 0)


def test_a_numbered_list_follows_a_member_list_brought_in_and_taken_back(club: dict[str, Any]) -> None:
    numbered = defined(club["owner"], club["season"], counted="numbered")
    assert places(numbered, "") == []
    rows = [("Name", "Mitgliedsnummer"), ("Anna", "4711"), ("Cleo", "4712")]
    member_import = MemberImport.objects.create(
        keeper=club["club"].keeper, file_name="mitglieder.csv", rows=member_rows_read(csv_file(rows))
    )
    member_import = applied(member_import, club["owner"])
    rankings_catch_up()
    assert [row[1] for row in places(numbered, "")] == ["Anna", "Cleo"]
    member_import_undo(member_import=member_import, by=club["owner"])
    rankings_catch_up()
    assert places(numbered, "") == []
    assert rescore("--check").strip().endswith("0 differences")


@pytest.mark.django_db(transaction=True)
def test_a_close_leaves_the_sums_to_the_worker_and_the_page_says_so(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    run_tasks()
    paper_night(club["season"], datetime.date(2026, 11, 24), [DECEMBER])
    # The close is in, the places are not yet: the page and the API say the list is being counted.
    assert places(ranking, "2026-11")[0] == (1, "Anna", 1, "122")
    owner = signed_in(club["owner"])
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-11"))
    assert "Lists closed a moment ago are still being counted" in page
    api = owner.get(reverse("api:ranking", args=[ranking.public_id]), {"period": "2026-11"}).json()
    assert api["updating"] is True
    # The worker's round keeps them, and nothing is left waiting.
    run_tasks()
    assert places(ranking, "2026-11")[:3] == [(1, "Ben", 2, "98"), (2, "Anna", 2, "61"), (3, "Cleo", 2, "0")]
    assert not RankingDue.objects.exists()
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-11"))
    assert "still being counted" not in page
    assert (
        owner.get(reverse("api:ranking", args=[ranking.public_id]), {"period": "2026-11"}).json()["updating"] is False
    )


def test_a_close_landing_while_the_worker_sums_waits_for_the_next_round(club: dict[str, Any], monkeypatch: Any) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    keep = ranking_services.ranking_keep
    landed: list[Night] = []

    def summing(kept: RankingList, periods: Any = None) -> None:
        keep(kept, periods)
        if not landed:  # a night closes after the worker read what was due, before it is done
            landed.append(paper_night(club["season"], datetime.date(2026, 11, 24), [DECEMBER]))

    monkeypatch.setattr(ranking_services, "ranking_keep", summing)
    clubs.night_reopen(night=club["december"], user=club["owner"])
    rankings_catch_up()
    # The reopened December is kept; the November close that landed meanwhile still waits, and is kept next round.
    assert places(ranking, "2026-12") == []
    assert places(ranking, "2026-11")[0] == (1, "Anna", 1, "122")
    assert list(RankingDue.objects.values_list("period", flat=True)) == ["2026-11"]
    assert rankings_catch_up() == 1
    assert places(ranking, "2026-11")[0] == (1, "Ben", 2, "98")
    assert not RankingDue.objects.exists()


def test_publishing_and_rescoring_count_what_closed_a_moment_ago(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    paper_night(club["season"], datetime.date(2026, 11, 24), [DECEMBER])
    # Waiting for the worker is not a difference.
    assert rescore("--check").strip().endswith("0 differences")
    edition = ranking_publish(ranking=ranking, period="2026-11", by=club["owner"])
    assert edition.rows[0]["name"] == "Ben"
    assert places(ranking, "2026-11")[0] == (1, "Ben", 2, "98")
    paper_night(club["season"], datetime.date(2026, 12, 15), [NOVEMBER])
    assert rescore().strip().endswith("0 differences rewritten")
    assert places(ranking, "2026-12")[:2] == [(1, "Ben", 2, "98"), (2, "Anna", 2, "61")]
    assert not RankingDue.objects.exists()


def test_a_published_list_is_shown_with_the_method_it_was_ranked_by(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="year", minimum=1)
    ranking_publish(ranking=ranking, period="2026", by=club["owner"])
    events = [str(club["season"].public_id)]
    form = RankingForm(name="Rangliste", events=events, period="year", method="places", places=[10, 5, 2])
    ranking_save(owner=club["owner"], form=form, ranking=ranking)
    owner = signed_in(club["owner"])
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026"))
    assert "average per series · everybody" in page
    assert "Place Name Average Series Points Events 1 Ben 98 2" in page
    assert "lacement points" not in page
    csv = owner.get(reverse("download-ranking-list", args=[ranking.public_id, 2026, "csv"]))
    assert body(csv).decode("utf-8-sig").splitlines()[0].startswith("Place,Name,Average,")
    api = owner.get(reverse("api:ranking", args=[ranking.public_id]), {"period": "2026"}).json()
    assert (api["method"], api["rows"][0]["score"]) == ("average", 98)
    # The list as it stands is ranked by its new method, and says so.
    RankingEdition.objects.all().delete()
    page = text_of(owner.get(reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026"))
    assert "placement points · everybody" in page
    assert "Place Name Placement points Series Points Events 1 Anna 0.5 2" in page


def corrected(club: dict[str, Any]) -> None:
    """November's night reopened, its paper list put right (``CORRECTED``) and closed again, and counted in."""
    night = Night.objects.get(season=club["season"], date=datetime.date(2026, 11, 3))
    clubs.night_reopen(night=night, user=club["owner"])
    table = ClubTable.objects.select_related("match").get(night=night, series=1)
    seated = {seat.player.name: seat.player for seat in table.match.seats.all()}
    clubs.paper_enter(
        table=table, lines=[(seated[name], *line) for name, line in CORRECTED.items()], user=club["owner"]
    )
    clubs.night_close(night=night, user=club["owner"])
    rankings_catch_up()


REASON = "The grand of 3 November was Ben's, entered on Anna's line."


def test_a_corrected_period_is_published_anew_and_the_list_published_before_stays_readable(
    club: dict[str, Any],
) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    owner = signed_in(club["owner"])
    address = reverse("ranking_publish", args=[ranking.public_id])
    detail = reverse("ranking_detail", args=[ranking.public_id]) + "?period=2026-11"
    assert owner.post(address, {"period": "2026-11", "confirm": "on"}).status_code == 302
    corrected(club)

    # The period shows what was published; its owner sees the list as it stands now, and may publish it anew.
    page = text_of(owner.get(detail))
    assert "1 Anna 122 1 122 1" in page
    assert "Publish the list of November 2026 anew" in page
    standing = text_of(owner.get(detail + "&edition=standing"))
    assert "As it stands" in standing
    assert "1 Ben 122 1 122 1" in standing
    # One tap is not enough, and a list published anew says why.
    unticked = owner.post(address, {"period": "2026-11"})
    assert unticked.status_code == 400
    assert "Tick this to publish the list anew." in text_of(unticked)
    assert "Say why the list is published anew: what was corrected." in text_of(unticked)
    assert RankingEdition.objects.count() == 1
    assert owner.post(address, {"period": "2026-11", "confirm": "on", "reason": REASON}).status_code == 302

    # The period's list is the new one; the one published before is kept as it was, marked replaced, one link away.
    page = text_of(owner.get(detail))
    assert "1 Ben 122 1 122 1" in page
    assert "Published anew on" in page
    assert REASON in page
    first, second = RankingEdition.objects.filter(ranking=ranking).order_by("published_at", "pk")
    assert (first.number, first.replaced_by, second.number, second.replaced_at) == (1, club["owner"], 2, None)
    assert first.replaced_at == second.published_at
    assert first.rows[0]["name"] == "Anna"
    earlier = owner.get(detail)
    assert f'href="?period=2026-11&amp;edition={first.number}"' in earlier.content.decode()
    old = text_of(owner.get(detail + "&edition=1"))
    assert "1 Anna 122 1 122 1" in old
    assert "replaced on" in old
    assert f"Why it was replaced: {REASON}" in old
    # The files follow the page: the period's list, or the edition asked for.
    files = reverse("download-ranking-list", args=[ranking.public_id, 202611, "csv"])
    assert body(owner.get(files)).decode("utf-8-sig").splitlines()[1] == "1,Ben,122,1,122,1"
    earlier_file = owner.get(files + "?edition=1")
    assert body(earlier_file).decode("utf-8-sig").splitlines()[1] == "1,Anna,122,1,122,1"
    assert "Rangliste 2026-11 (edition 1).csv" in earlier_file["Content-Disposition"]
    printed = owner.get(reverse("download-ranking-list", args=[ranking.public_id, 202611, "pdf"]) + "?edition=1")
    assert printed.content.startswith(b"%PDF")
    assert owner.get(files + "?edition=3").status_code == 404
    assert owner.get(detail + "&edition=3").status_code == 404

    # Nothing changed since: publishing anew is refused, and says so.
    again = owner.post(address, {"period": "2026-11", "confirm": "on", "reason": REASON})
    assert again.status_code == 409
    assert "This period's list is published already, and nothing changed since." in text_of(again)
    assert RankingEdition.objects.count() == 2
    # Nobody but the list's owner publishes it anew.
    stranger = signed_in(make_user("mallory"))
    assert stranger.post(address, {"period": "2026-11", "confirm": "on", "reason": REASON}).status_code == 404


def test_publishing_anew_takes_a_change_of_the_rows_or_the_rules(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    ranking_publish(ranking=ranking, period="2026-12", by=club["owner"])
    with pytest.raises(Conflict, match="nothing changed since"):
        ranking_publish(ranking=ranking, period="2026-12", by=club["owner"], reason=REASON)
    # The same rows ranked by another method are another list.
    events = [str(club["season"].public_id)]
    ranking_save(
        owner=club["owner"], form=RankingForm(name="R", events=events, period="month", method="best"), ranking=ranking
    )
    with pytest.raises(Invalid, match="Say why"):
        ranking_publish(ranking=ranking, period="2026-12", by=club["owner"])
    anew = ranking_publish(ranking=ranking, period="2026-12", by=club["owner"], reason="Ranked by the best result.")
    assert (anew.number, anew.rules["method"], anew.reason) == (2, "best", "Ranked by the best result.")
    assert RankingEdition.objects.filter(ranking=ranking, replaced_at__isnull=True).get() == anew


@pytest.mark.django_db(transaction=True)
def test_two_publishings_anew_at_once_make_one_edition(club: dict[str, Any]) -> None:
    ranking = defined(club["owner"], club["season"], period="month")
    ranking_publish(ranking=ranking, period="2026-11", by=club["owner"])
    corrected(club)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def publish() -> None:
        try:
            barrier.wait(timeout=10)
            ranking_publish(ranking=ranking, period="2026-11", by=club["owner"], reason=REASON)
            outcomes.append("published")
        except ServiceError as refused:
            outcomes.append(type(refused).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=publish) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["Conflict", "published"]
    assert RankingEdition.objects.filter(ranking=ranking).count() == 2
    assert RankingEdition.objects.get(ranking=ranking, replaced_at__isnull=True).rows[0]["name"] == "Ben"
