from typing import Any

from playwright.sync_api import Route, expect


def test_the_api_docs_render_offline_on_a_phone(phone: Any, live_server: Any) -> None:
    outside: list[str] = []

    def only_this_server(route: Route) -> None:
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    phone.route("**/*", only_this_server)
    phone.goto(f"{live_server.url}/api/v1/docs/")
    expect(phone.get_by_role("heading", name="Scorekeeper API")).to_be_visible()
    expect(phone.get_by_text("Score one game")).to_be_visible()
    assert outside == []


def test_the_home_page_switches_to_german(phone: Any, live_server: Any) -> None:
    phone.goto(f"{live_server.url}/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Scores for Skat and its two-player relatives")
    phone.get_by_role("contentinfo").get_by_role("link", name="Language and cards", exact=True).click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Language and cards")
    phone.get_by_role("combobox", name="Language").select_option("de")
    phone.get_by_role("button", name="Switch language").click()
    # Back on the page it came from, in German.
    expect(phone).to_have_url(f"{live_server.url}/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Spielabrechnung für Skat und seine Verwandten zu zweit")
    expect(phone.get_by_role("main").get_by_role("link", name="Registrieren")).to_be_visible()
