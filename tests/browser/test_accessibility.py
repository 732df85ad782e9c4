"""axe-core (vendored: tests/browser/vendor) finds nothing on any page, in light and in dark mode, and every tap
target on a phone is at least 44 px high and wide."""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from pathlib import Path
from typing import Any, Literal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page

from matches.clubs import services as clubs
from matches.clubs.models import ClubTable
from matches.models import FileJob, Game, Match, MemberImport, Person, Player
from matches.services import Submission, game_add, match_create, player_link, player_link_invite
from matches.services.rankings import RankingForm, ranking_publish, ranking_save

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PASSWORD = "a-long-enough-password-1"
# Tap targets: what a thumb presses (links inside running text excepted, as WCAG 2.5.8 does).
TARGETS = "a, button, summary, input:not([type=hidden]), select, textarea, label.choice, label.toggle"


def _table() -> dict[str, str]:
    """An owner's match with games, a second player book entry, and the addresses of every page."""
    owner = User.objects.create_user("owner", password=PASSWORD)
    match = match_create(
        owner=owner,
        variant="skat",
        scheme="standard",
        rules={"kontra_re": True, "bock": True},
        player_names=["Anna", "Ben", "Cleo"],
    ).match
    for number, declarer in enumerate((1, 2, 0), start=1):
        entry = {"contract": "clubs", "matadors": 1, "outcome": "won" if number != 2 else "lost"}
        game_add(match=match, user=owner, token=uuid.uuid4(), submission=Submission(declarer=declarer, entry=entry))
    match = Match.objects.get(pk=match.pk)
    game = Game.objects.filter(match=match, deleted=False).first()
    assert game is not None
    anna, ben = Player.objects.get(name="Anna"), Player.objects.get(name="Ben")
    claim = player_link_invite(player=anna)
    club = clubs.club_create(owner=owner, name="Skatclub Herz Dame")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026", stake=500, list_fee=200))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Ida", "Jan", "Kai", "Lea", "Mo", "Nils", "Ole"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.filter(night=night).select_related("match").first()
    assert table is not None
    # A night of the week before, closed from its paper list: the owner played it, and their record shows it.
    closed = clubs.night_create(season=season, date=datetime.date(2026, 11, 17))
    for name in ("Ida", "Jan", "Kai"):
        clubs.check_in(night=closed, name=name)
    clubs.night_draw(night=closed, series=1, user=owner)
    paper = ClubTable.objects.select_related("match").get(night=closed)
    seated = [seat.player for seat in paper.match.seats.order_by("position")]
    clubs.paper_enter(table=paper, lines=[(seated[0], 72, 1, 0), (seated[1], 0, 0, 0), (seated[2], 0, 0, 0)])
    clubs.night_close(night=closed, user=owner)
    player_link(player=seated[0], account=owner)
    monthly = RankingForm(name="Monatsrangliste", events=[str(season.public_id)], period="month", minimum=1)
    ranking = ranking_save(owner=owner, form=monthly)
    # A yearly list published, then ranked by another method and published anew: two editions of 2026.
    yearly = RankingForm(name="Jahresrangliste", events=[str(season.public_id)], period="year")
    anew = ranking_save(owner=owner, form=yearly)
    ranking_publish(ranking=anew, period="2026", by=owner)
    ranking_save(owner=owner, form=dataclasses.replace(yearly, method="best"), ranking=anew)
    ranking_publish(ranking=anew, period="2026", by=owner, reason="Ranked by the best result, as the club decided.")
    person = Person.objects.get(account=owner)
    game_add(
        match=table.match,
        user=owner,
        token=uuid.uuid4(),
        submission=Submission(declarer=1, entry={"contract": "grand", "matadors": 1, "declarer_card_points": 40}),
    )
    making, made = (
        FileJob.objects.create(
            user=owner,
            kind="tournament-cards",
            title="Preisskat Serie 2 Tischkarten",
            language="de",
            state=state,
            done=done,
            total=80,
            file_name="Preisskat Serie 2 Tischkarten.pdf",
        )
        for state, done in ((FileJob.State.MAKING, 50), (FileJob.State.DONE, 80))
    )
    rows = [("Ida", "4711"), ("Zoe Neu", "12"), ("Otto Bad", "1;2")]
    member_list = MemberImport.objects.create(
        keeper=club.keeper,
        uploaded_by=owner,
        file_name="mitglieder.csv",
        rows=[{"row": row, "name": name, "number": number} for row, (name, number) in enumerate(rows, start=2)],
    )
    pages = {
        "home": "/",
        "file being made": f"/files/{making.public_id}/",
        "file made": f"/files/{made.public_id}/",
        "presets": "/matches/new/",
        "new match": "/matches/new/?preset=skat-pub",
        "match": f"/matches/{match.public_id}/",
        "all games": f"/matches/{match.public_id}/list/",
        "history": f"/matches/{match.public_id}/history/",
        "share": f"/matches/{match.public_id}/share/",
        "fix": f"/matches/{match.public_id}/games/{game.public_id}/edit/",
        "delete": f"/matches/{match.public_id}/games/{game.public_id}/delete/",
        "players": "/players/",
        "player": f"/players/{anna.public_id}/",
        "head to head": f"/players/{anna.public_id}/vs/{ben.public_id}/",
        "own statistics": "/players/me/",
        "person": f"/people/{person.public_id}/",
        "ranking lists": "/rankings/",
        "ranking list": f"/rankings/{ranking.public_id}/",
        "ranking list changed": f"/rankings/{ranking.public_id}/edit/",
        "ranking list published anew": f"/rankings/{anew.public_id}/?period=2026",
        "ranking list replaced": f"/rankings/{anew.public_id}/?period=2026&edition=1",
        "ranking list as it stands": f"/rankings/{anew.public_id}/?period=2026&edition=standing",
        "backup": "/backup/",
        "account": "/accounts/",
        "delete account": "/accounts/delete/",
        "change password": "/accounts/password_change/",
        "claim": f"/claim/{claim}/",
        "offline": "/offline/",
        "language and cards": f"/preferences/?next=/matches/{match.public_id}/",
        "offline reset": "/offline/reset/",
        "clubs": "/clubs/",
        "club": f"/clubs/{club.public_id}/",
        "new season": f"/clubs/{club.public_id}/seasons/new/",
        "club players": f"/clubs/{club.public_id}/roster/",
        "member imports": f"/books/{club.keeper_id}/member-imports/",
        "member list preview": f"/member-imports/{member_list.public_id}/",
        "season": f"/seasons/{season.public_id}/",
        "club night": f"/nights/{night.public_id}/",
        "season of a player": f"/seasons/{season.public_id}/players/{table.match.seats.all()[0].player.public_id}/",
        "paper list": f"/nights/{night.public_id}/tables/2/paper/?series=1",
    }
    public = {
        "watch": f"/watch/{match.share_token}/",
        "join": f"/join/{match.invite_token}/",
        "log in": "/accounts/login/",
        "sign up": "/accounts/signup/",
        "password reset": "/accounts/password_reset/",
        "landing": "/",
        "club screen": f"/screen/{club.screen_token}/",
        "language and cards": "/preferences/",
        "not found": "/no-such-page/",
    }
    return {**pages, **{f"anonymous {name}": address for name, address in public.items()}}


def _violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [f"{item['id']}: {[node['target'] for node in item['nodes']][:3]}" for item in found]


def _small_targets(page: Page) -> list[str]:
    small: list[str] = page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector)).filter((element) => {
            const box = element.getBoundingClientRect();
            if (!box.width || !box.height || getComputedStyle(element).visibility === "hidden") return false;
            if (element.matches("input[type=radio], input[type=checkbox]")) return false;  // their label is the target
            if (element.closest("p, li, td") && element.matches("a") && element.closest(".prose")) return false;
            return box.height < 43.5 || box.width < 43.5;
        }).map((element) => element.outerHTML.slice(0, 90))""",
        TARGETS,
    )
    return small


# The pages are looked at in parts (the owner's in two halves, the public ones), which the workers of a run share out.
PARTS = {"owner, first half": ("owner", 0), "owner, second half": ("owner", 1), "anonymous": ("anonymous", 0)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("part", PARTS)
def test_no_page_has_an_accessibility_problem(
    browser: Browser, live_server: Any, scheme: Literal["light", "dark"], part: str
) -> None:
    who, half = PARTS[part]
    pages = [
        (name, address) for name, address in _table().items() if name.startswith("anonymous") == (who == "anonymous")
    ]
    if who == "owner":
        pages = pages[half::2]
    # axe-core is put into each page by the test, as an inline script the pages' Content-Security-Policy refuses.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, color_scheme=scheme, bypass_csp=True
    )
    page = context.new_page()
    if who == "owner":
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username", exact=True).fill("owner")
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        page.get_by_role("button", name="Log in", exact=True).click()
        page.wait_for_url(f"{live_server.url}/")
    problems: dict[str, list[str]] = {}
    for name, address in pages:
        page.goto(f"{live_server.url}{address}")
        page.wait_for_load_state("networkidle")
        found = _violations(page) + [f"tap target under 44 px: {item}" for item in _small_targets(page)]
        if found:
            problems[name] = found
    context.close()
    assert pages
    assert not problems, "\n".join(f"{name}: {found}" for name, found in problems.items())
