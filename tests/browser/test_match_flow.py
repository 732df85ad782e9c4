"""A whole evening in the browser, on a phone: matches started, games entered, fixed, retried and watched.

Expected scores are worked out by hand from docs/rules.md, one comment per game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .flow import (
    CARD_POINTS,
    Entry,
    expect_status,
    expect_totals,
    fill_game,
    open_share_tools,
    save_game,
    settle,
    sheet_rows,
    sign_up,
    start_match,
    track_requests,
)

SKAT_PUB = "Skat, pub rules (Kontra/Re, Ramsch, Bock)"
SKAT_ISKO = "Skat, ISkO"
SKAT = ("Anna", "Ben", "Cleo")

# Seat 1 (Anna) deals game 1; the deal moves on clockwise, and forehand is the seat after the dealer:
# game n is dealt by SKAT[(n - 1) % 3] and led by SKAT[n % 3].
SKAT_EVENING: list[tuple[Entry, tuple[int, int, int]]] = [
    # 1, Anna deals: Ben ♣ with 1, 70: 12 × (1 + 1) = 24, won → +24
    (Entry("♣ Clubs", "Ben", matadors=1, points=70), (0, 24, 0)),
    # 2, Ben deals: Cleo ♠ without 2, 50: 11 × (2 + 1) = 33, lost → −66
    (Entry("♠ Spades", "Cleo", matadors=-2, points=50), (0, 24, -66)),
    # 3, Cleo deals: Anna ♥ with 1, 75: 10 × (1 + 1) = 20, won → +20
    (Entry("♥ Hearts", "Anna", matadors=1, points=75), (20, 24, -66)),
    # 4, Anna deals: Ben grand with 1, hand, Schneider announced, 95 (opponents 25 ≤ 30: Schneider made):
    #    24 × (1 + game 1 + hand 1 + Schneider 1 + announced 1) = 24 × 5 = 120, won → +120
    (Entry("Grand", "Ben", matadors=1, points=95, hand=True, announced="Schneider"), (20, 144, -66)),
    # 5, Ben deals: Cleo null, won → +23
    (Entry("Null", "Cleo", won=True), (20, 144, -43)),
    # 6, Cleo deals: Anna ♦ without 1, 80, bid 22: 9 × 2 = 18 < 22, overbid; 9 × 3 = 27 reaches 22, lost → −54
    (Entry("♦ Diamonds", "Anna", matadors=-1, points=80, bid=22), (-34, 144, -43)),
    # 7, Anna deals: Ramsch, Anna 0 (Jungfrau), Ben 72, Cleo 48: Ben has the most, −72, one Jungfrau ×2 → −144
    (Entry("Ramsch", ramsch={"Anna": 0, "Ben": 72, "Cleo": 48}, jungfrau=("Anna",)), (-34, 0, -43)),
    # 8, Ben deals: Cleo ♣ with 1, Kontra, 55: 12 × 2 = 24, Kontra ×2 = 48, lost → −96
    (Entry("♣ Clubs", "Cleo", matadors=1, points=55, kontra=True), (-34, 0, -139)),
    # 9, Cleo deals: Anna ♥ without 3, 88: 10 × (3 + 1) = 40, won → +40
    (Entry("♥ Hearts", "Anna", matadors=-3, points=88), (6, 0, -139)),
    # 10, Anna deals: Ben ♠ with 2, 61: 11 × (2 + 1) = 33, won → +33
    (Entry("♠ Spades", "Ben", matadors=2, points=61), (6, 33, -139)),
]


def skat_totals(values: tuple[int, int, int]) -> dict[str, int]:
    return dict(zip(SKAT, values, strict=True))


@pytest.mark.django_db(transaction=True)
def test_a_pub_skat_evening_of_ten_games_scores_rotates_the_deal_and_rescores_a_fix(
    phone: Any, live_server: Any
) -> None:
    sign_up(phone, live_server.url, "anna")
    start_match(phone, SKAT_PUB, SKAT, first_dealer=1, untick=["Bock rounds"])
    expect_status(phone, 1, "Anna", "Ben")
    expect_totals(phone, skat_totals((0, 0, 0)))
    # Ramsch replaces the passed deal, so there is nothing to pass.
    expect(phone.get_by_role("button", name="All passed", exact=True)).to_have_count(0)

    for number, (game, after) in enumerate(SKAT_EVENING, start=1):
        save_game(phone, game)
        expect_status(phone, number + 1, SKAT[number % 3], SKAT[(number + 1) % 3])
        expect_totals(phone, skat_totals(after))
        expect(sheet_rows(phone)).to_have_count(number)

    # Fix game 3: Anna's hearts had 55, not 75: 10 × 2 = 20, lost → −40 instead of +20, so Anna 6 − 20 − 40 = −54.
    row = sheet_rows(phone).filter(has=phone.get_by_role("cell", name="3", exact=True))
    row.get_by_text("Anna · ♥ Hearts", exact=False).click()
    row.get_by_role("link", name="Fix", exact=True).click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Fix game 3")
    expect(phone.get_by_role("spinbutton", name=CARD_POINTS)).to_have_value("75")
    fill_game(phone, Entry("♥ Hearts", "Anna", matadors=1, points=55))
    phone.get_by_role("button", name="Save the fix", exact=True).click()

    expect(phone.get_by_role("status").get_by_text("Game 3 fixed.", exact=True)).to_be_visible()
    expect_totals(phone, skat_totals((-54, 33, -139)))
    expect_status(phone, 11, "Ben", "Cleo")
    expect(sheet_rows(phone)).to_have_count(10)


OFFICERS = ("Anna", "Ben")

# Seat 1 (Anna) deals first; in the two-player games the non-dealer leads and declares: Ben, Anna, Ben, Anna.
OFFICERS_GAMES = [
    # 1: Ben ♣ with 2, 95 (Anna 25, under 30: Schneider)
    Entry("♣ Clubs", matadors=2, points=95),
    # 2: Anna ♥ without 1, 50 (Ben 70): lost, nobody Schneider
    Entry("♥ Hearts", matadors=-1, points=50),
    # 3: Ben grand with 1, 60:60: lost (the player who did not choose trumps wins), a draw under "simple"
    Entry("Grand", matadors=1, points=60),
    # 4: Anna ♦ with 1, 80, Kontra: won
    Entry("♦ Diamonds", matadors=1, points=80, kontra=True),
]


@pytest.mark.parametrize(
    ("scheme", "label", "running"),
    [
        pytest.param(
            "standard",
            "Standard",
            [
                (0, 72),  # Ben ♣: (2 + 1) × 12 = 36, loser Schneider ×2 = 72 → Ben +72
                (-40, 72),  # Anna ♥: (1 + 1) × 10 = 20, lost → −40
                (-40, -24),  # Ben grand: (1 + 1) × 24 = 48, lost at 60:60 → −96: 72 − 96 = −24
                (-4, -24),  # Anna ♦: (1 + 1) × 9 = 18, Kontra ×2 = 36, won → +36: −40 + 36 = −4
            ],
            id="standard",
        ),
        pytest.param(
            "base-value",
            "Base value",
            [
                (0, 24),  # Ben wins ♣: base 12, Anna Schneider ×2 → Ben +24
                (0, 34),  # Anna loses ♥: the winner Ben scores the base 10 → 34
                (24, 34),  # 60:60, Ben loses grand: the winner Anna scores 24
                (42, 34),  # Anna wins ♦: 9, Kontra ×2 = 18 → 24 + 18 = 42
            ],
            id="base-value",
        ),
        pytest.param(
            "card-points",
            "Card points",
            [
                (0, 95),  # Ben wins with 95 card points → +95
                (0, 165),  # Anna loses with 50: the winner Ben took 70 → 95 + 70 = 165
                (60, 165),  # 60:60: the opponent Anna wins 60
                (220, 165),  # Anna wins with 80, Kontra ×2 = 160 → 60 + 160 = 220
            ],
            id="card-points",
        ),
        pytest.param(
            "simple",
            "Simple (2/3/4)",
            [
                (0, 3),  # Ben wins, Anna Schneider → 3
                (0, 5),  # Ben wins (Anna lost, no Schneider) → 2: 3 + 2 = 5
                (1, 6),  # 60:60 is a draw: 1 each
                (5, 6),  # Anna wins → 2, Kontra ×2 = 4: 1 + 4 = 5
            ],
            id="simple",
        ),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_officers_skat_scores_the_same_games_under_each_scheme(
    phone: Any, live_server: Any, scheme: str, label: str, running: list[tuple[int, int]]
) -> None:
    sign_up(phone, live_server.url, "anna")
    start_match(phone, "Officers' Skat", OFFICERS, first_dealer=1, scheme=label)
    expect(phone.get_by_text(f"Officers' Skat · {label}", exact=True)).to_be_visible()
    expect_status(phone, 1, "Anna", "Ben")
    expect_totals(phone, {"Anna": 0, "Ben": 0})

    for number, (game, after) in enumerate(zip(OFFICERS_GAMES, running, strict=True), start=1):
        forehand = OFFICERS[number % 2]
        declarer = phone.get_by_role("group", name="Declarer", exact=True)
        expect(declarer.get_by_role("radio", name=forehand, exact=True)).to_be_checked()
        save_game(phone, game)
        expect_status(phone, number + 1, forehand, OFFICERS[(number + 1) % 2])
        expect_totals(phone, dict(zip(OFFICERS, after, strict=True)))

    expect(sheet_rows(phone)).to_have_count(len(OFFICERS_GAMES))


@pytest.mark.django_db(transaction=True)
def test_a_retried_submission_adds_the_game_once(phone: Any, live_server: Any) -> None:
    sign_up(phone, live_server.url, "anna")
    match = start_match(phone, SKAT_ISKO, SKAT)
    game = Entry("♣ Clubs", "Ben", matadors=1, points=70)  # 12 × (1 + 1) = 24, won → Ben +24
    track_requests(phone)
    fill_game(phone, game)
    settle(phone)
    save = phone.get_by_role("button", name="Save game", exact=True)
    # The form exactly as the browser would send it, token and CSRF token included.
    sent: list[list[str]] = save.evaluate("button => [...new FormData(button.form)]")
    assert any(name == "token" for name, _ in sent)
    save.click()
    expect_status(phone, 2, "Ben", "Cleo")
    expect_totals(phone, skat_totals((0, 24, 0)))

    # The phone lost the answer and sends the same form again, once as htmx and once as a plain post.
    answers = phone.evaluate(
        """async ({url, sent}) => {
            const answers = [];
            for (const headers of [{"HX-Request": "true"}, {}]) {
                const answer = await fetch(url, {method: "POST", body: new URLSearchParams(sent), headers});
                const text = await answer.text();
                answers.push({status: answer.status, url: answer.url, refused: text.includes('class="error"')});
            }
            return answers;
        }""",
        {"url": f"{live_server.url}/matches/{match}/games/", "sent": sent},
    )
    # Both retries are accepted as the game already saved (a plain post is sent back to the match), not refused.
    assert answers == [
        {"status": 200, "url": f"{live_server.url}/matches/{match}/games/", "refused": False},
        {"status": 200, "url": f"{live_server.url}/matches/{match}/", "refused": False},
    ]

    phone.reload()
    expect(sheet_rows(phone)).to_have_count(1)
    expect_status(phone, 2, "Ben", "Cleo")
    expect_totals(phone, skat_totals((0, 24, 0)))


@pytest.mark.django_db(transaction=True)
def test_the_spectators_link_reads_and_follows_but_cannot_change_anything(
    phone: Any, browser: Any, live_server: Any
) -> None:
    sign_up(phone, live_server.url, "anna")
    match = start_match(phone, SKAT_ISKO, SKAT)
    save_game(phone, Entry("♣ Clubs", "Ben", matadors=1, points=70))  # 12 × 2 = 24, won → Ben +24
    expect_totals(phone, skat_totals((0, 24, 0)))
    expect(phone.get_by_role("link", name="Fix", exact=True, include_hidden=True)).to_have_count(1)
    open_share_tools(phone)
    link = phone.get_by_role("textbox", name="Spectators' link (read only, updates by itself)", exact=True)
    expect(link).to_have_attribute("readonly", "")
    url = link.input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/watch/[^/]+/", url)

    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    try:
        spectator = context.new_page()
        spectator.goto(url)
        expect(spectator.get_by_text("Read only: this page follows the match by itself.", exact=True)).to_be_visible()
        expect_totals(spectator, skat_totals((0, 24, 0)))
        expect_status(spectator, 2, "Ben", "Cleo")
        expect(spectator.get_by_role("button", name="Save game", exact=True)).to_have_count(0)
        expect(spectator.get_by_role("link", name="Fix", exact=True, include_hidden=True)).to_have_count(0)
        expect(spectator.get_by_role("link", name="Delete", exact=True, include_hidden=True)).to_have_count(0)
        expect(spectator.get_by_role("button", name=re.compile("^Undo"))).to_have_count(0)

        # Hand-made posts from the spectator's browser, with a valid CSRF token, to every URL that changes the match:
        # the spectator is no scorer, so each is sent to the login page and nothing happens.
        csrf = next(cookie["value"] for cookie in context.cookies() if cookie["name"] == "csrftoken")
        fix = phone.get_by_role("link", name="Fix", exact=True, include_hidden=True).get_attribute("href")
        assert fix is not None
        game_url = fix.removesuffix("edit/")
        entry = {
            "token": "6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5",
            "contract": "grand",
            "declarer": "2",
            "matadors": "4",
            "declarer_card_points": "120",
        }
        changes = [f"/matches/{match}/{action}/" for action in ("games", "undo", "pass")] + [fix, f"{game_url}delete/"]
        for path in changes:
            answer = spectator.request.post(
                f"{live_server.url}{path}", form={"csrfmiddlewaretoken": csrf, **entry}, max_redirects=0
            )
            assert answer.status == 302, path
            assert answer.headers["location"].startswith("/accounts/login/"), path
        phone.reload()
        expect(sheet_rows(phone)).to_have_count(1)
        expect_totals(phone, skat_totals((0, 24, 0)))
        expect_totals(spectator, skat_totals((0, 24, 0)))

        # The owner enters game 2; the spectator's page follows by itself within a poll or two, without a reload.
        save_game(phone, Entry("♠ Spades", "Cleo", matadors=-2, points=50))  # 11 × 3 = 33, lost → Cleo −66
        expect_totals(phone, skat_totals((0, 24, -66)))
        expect_totals(spectator, skat_totals((0, 24, -66)), timeout=12_000)
        expect_status(spectator, 3, "Cleo", "Anna")
        expect(sheet_rows(spectator)).to_have_count(2)
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_refused_save_puts_the_thumb_on_the_first_field_to_fix(phone: Any, live_server: Any) -> None:
    sign_up(phone, live_server.url, "anna")
    start_match(phone, SKAT_ISKO, SKAT)
    track_requests(phone)
    # Clubs with 1, won, but no declarer chosen: refused, with the reason at the declarer's chips.
    fill_game(phone, Entry("♣ Clubs", matadors=1, outcome="won"))
    settle(phone)
    phone.get_by_role("button", name="Save game", exact=True).click()
    declarer = phone.get_by_role("group", name="Declarer", exact=True)
    expect(declarer.get_by_role("radio").first).to_be_focused()
    assert sheet_rows(phone).count() == 0
