"""A club night's date: one a secretary could mean (planned months ahead, or typed in from an old paper list), never
a slip of the date picker; and the club room's screen shows the night under way, not a night planned ahead."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable, Night, Season
from matches.clubs.services import EARLIEST_NIGHT, NIGHT_DAYS_AHEAD
from matches.errors import Invalid

from .factories import make_user
from .test_queries import enter

pytestmark = pytest.mark.django_db

SLIPS = ["0001-01-01", "9999-12-31", "1999-12-31"]


def _today() -> datetime.date:
    return timezone.localdate()


def _season(owner: User) -> Season:
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    return clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))


def _browser(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def _implausible() -> list[datetime.date]:
    return [datetime.date.fromisoformat(slip) for slip in SLIPS] + [_today() + datetime.timedelta(days=365)]


def test_a_night_dated_by_a_slip_of_the_picker_or_a_year_ahead_is_refused_by_its_date() -> None:
    season = _season(make_user("olga"))
    for date in _implausible():
        with pytest.raises(Invalid) as refused:
            clubs.night_create(season=season, date=date)
        assert [problem.field for problem in refused.value.errors] == ["date"], date
    assert not Night.objects.exists()


def test_a_night_is_planned_months_ahead_or_typed_in_from_an_old_list() -> None:
    season = _season(make_user("olga"))
    dates = [_today() + datetime.timedelta(days=days) for days in (0, 7, 90, 180)] + [datetime.date(2001, 3, 2)]
    for date in dates:
        clubs.night_create(season=season, date=date)
    assert sorted(Night.objects.values_list("date", flat=True)) == sorted(dates)


def test_the_window_for_a_nights_date_ends_on_its_named_days() -> None:
    season = _season(make_user("olga"))
    last = _today() + datetime.timedelta(days=NIGHT_DAYS_AHEAD)
    for date in (EARLIEST_NIGHT, last):
        clubs.night_create(season=season, date=date)
    for date in (EARLIEST_NIGHT - datetime.timedelta(days=1), last + datetime.timedelta(days=1)):
        with pytest.raises(Invalid):
            clubs.night_create(season=season, date=date)
    assert Night.objects.count() == 2


def test_the_date_picker_offers_the_window_only() -> None:
    owner = make_user("olga")
    season = _season(owner)
    last = (_today() + datetime.timedelta(days=NIGHT_DAYS_AHEAD)).isoformat()
    page = _browser(owner).get(reverse("season_detail", args=[season.public_id])).content.decode()
    assert f'type="date" name="date" value="{_today().isoformat()}" id="id_date" max="{last}" min="2000-01-01"' in page
    night = clubs.night_create(season=season, date=_today())
    page = _browser(owner).get(reverse("night_edit", args=[night.public_id])).content.decode()
    assert f'id="id_date" max="{last}" min="2000-01-01"' in page


def test_a_night_is_not_re_dated_by_a_slip() -> None:
    owner = make_user("olga")
    night = clubs.night_create(season=_season(owner), date=_today())
    for date in _implausible():
        with pytest.raises(Invalid) as refused:
            clubs.night_redate(night=night, date=date, user=owner)
        assert [problem.field for problem in refused.value.errors] == ["date"], date
    assert Night.objects.get(pk=night.pk).date == _today()


@pytest.mark.parametrize("slip", SLIPS)
def test_a_slip_of_the_date_on_the_pages_is_said_next_to_the_field(slip: str) -> None:
    owner = make_user("olga")
    season = _season(owner)
    secretary = _browser(owner)
    answer = secretary.post(reverse("night_new", args=[season.public_id]), {"date": slip, "series": "1"})
    assert answer.status_code == 400
    assert 'id="id_date_error">Choose a date from Jan. 1, 2000 to ' in answer.content.decode()
    assert not Night.objects.exists()
    night = clubs.night_create(season=season, date=_today())
    answer = secretary.post(reverse("night_edit", args=[night.public_id]), {"date": slip})
    assert answer.status_code == 400
    assert 'id="id_date_error">Choose a date from Jan. 1, 2000 to ' in answer.content.decode()
    assert Night.objects.get(pk=night.pk).date == _today()


def _played(season: Season, date: datetime.date, names: tuple[str, ...]) -> Night:
    night = clubs.night_create(season=season, date=date)
    for name in names:
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=season.club.memberships.get().user)
    enter(ClubTable.objects.get(night=night).match, 3)
    return night


def _screen(season: Season) -> str:
    answer = Client().get(reverse("club_screen", args=[season.club.screen_token]))
    assert answer.status_code == 200
    return answer.content.decode()


def _caption(date: datetime.date) -> str:
    return f"<h2>Club night of {date_format(date, 'DATE_FORMAT')}</h2>"


def test_the_screen_shows_tonights_night_while_a_later_one_is_planned() -> None:
    season = _season(make_user("olga"))
    _played(season, _today(), ("Anna", "Ben", "Cleo"))
    planned = clubs.night_create(season=season, date=_today() + datetime.timedelta(days=14))
    clubs.check_in(night=planned, name="Dora")
    body = _screen(season)
    assert _caption(_today()) in body
    assert "No results yet." not in body


def test_the_screen_shows_the_last_night_played_until_a_planned_one_comes() -> None:
    season = _season(make_user("olga"))
    last_week = _today() - datetime.timedelta(days=7)
    _played(season, last_week, ("Anna", "Ben", "Cleo"))
    clubs.night_create(season=season, date=_today() + datetime.timedelta(days=7))
    body = _screen(season)
    assert _caption(last_week) in body
    assert "No results yet." not in body


def test_the_screen_shows_a_night_under_way_whose_date_was_typed_ahead() -> None:
    season = _season(make_user("olga"))
    _played(season, _today() - datetime.timedelta(days=7), ("Anna", "Ben", "Cleo"))
    mistyped = _today() + datetime.timedelta(days=30)
    _played(season, mistyped, ("Dora", "Emil", "Fred"))
    assert _caption(mistyped) in _screen(season)


def test_the_screen_shows_the_season_of_the_night_under_way_while_the_next_season_waits() -> None:
    owner = make_user("olga")
    season = _season(owner)
    _played(season, _today(), ("Anna", "Ben", "Cleo"))
    clubs.season_create(club=season.club, settings=clubs.SeasonSettings(name="2027"))
    body = _screen(season)
    assert _caption(_today()) in body
    assert "<h2>2026</h2>" in body
    assert "<h2>2027</h2>" not in body
