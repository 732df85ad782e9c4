from typing import Any

import pytest
from playwright.sync_api import expect

from .flow import Entry, fill_game, sheet_rows, sign_up, start_match

REQUESTS_AT_ONCE = """async ({base, sent}) => {
    const post = (path) => fetch(base + path, {
        method: "POST", body: new URLSearchParams(sent), headers: {"HX-Request": "true"},
    });
    const answers = await Promise.all([post("preview/"), post("games/"), post("preview/")]);
    return answers.map((answer) => answer.status);
}"""


@pytest.mark.django_db(transaction=True)
def test_previews_and_a_save_at_the_same_moment_all_succeed(phone: Any, live_server: Any) -> None:
    sign_up(phone, live_server.url, "anna")
    match = start_match(phone, "Skat, ISkO", ("Anna", "Ben", "Cleo"))
    for saved in range(1, 6):
        fill_game(phone, Entry("♣ Clubs", "Ben", matadors=1, points=70))
        sent = phone.get_by_role("button", name="Save game", exact=True).evaluate("b => [...new FormData(b.form)]")
        statuses = phone.evaluate(REQUESTS_AT_ONCE, {"base": f"{live_server.url}/matches/{match}/", "sent": sent})
        assert statuses == [200, 200, 200]
        phone.reload()
        expect(sheet_rows(phone)).to_have_count(saved)
