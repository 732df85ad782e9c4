"""Sharing a match's standings as text (the phone's share sheet where it has one, else the clipboard; the text
follows every save) and as a picture (the share sheet where it takes files, else a download)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, expect

from .flow import Entry, open_share_tools, save_game, sign_up, start_match


@pytest.mark.django_db(transaction=True)
def test_the_standings_go_to_the_clipboard_as_text_after_each_save(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    # No share sheet (as on a desktop), so that the text goes to the clipboard where the test can read it.
    context.add_init_script("delete Navigator.prototype.share;")
    page = context.new_page()
    sign_up(page, live_server.url, "dora")
    start_match(page, "Skat, ISkO", ("Anna", "Ben", "Cleo"), title="Donnerstag")
    save_game(page, Entry("♣ Clubs", "Ben", matadors=1, outcome="won"))
    expect(page.get_by_role("list", name="Totals", exact=True)).to_contain_text("Ben 24")
    open_share_tools(page)
    button = page.get_by_role("button", name="Share the results as text", exact=True)
    button.click()
    expect(page.get_by_role("button", name="Copied: paste it into the chat.", exact=True)).to_be_visible()
    shared = page.evaluate("() => navigator.clipboard.readText()")
    assert shared == "Donnerstag\n1. Ben 24\n2. Anna 0\n2. Cleo 0"
    save_game(page, Entry("♠ Spades", "Cleo", matadors=1, outcome="won"))
    expect(page.get_by_role("list", name="Totals", exact=True)).to_contain_text("Cleo 22")
    page.get_by_role("button", name="Copied: paste it into the chat.", exact=True).click()
    page.wait_for_function("async () => (await navigator.clipboard.readText()).includes('Cleo 22')")
    assert page.evaluate("() => navigator.clipboard.readText()") == "Donnerstag\n1. Ben 24\n2. Cleo 22\n3. Anna 0"
    context.close()


# A share sheet that takes files, as a phone's does: it keeps what it was handed for the test to read.
SHARE_SHEET = """
Navigator.prototype.canShare = function (data) { return Boolean(data && data.files && data.files.length); };
Navigator.prototype.share = function (data) {
  window.sharedFiles = data.files.map(function (file) {
    return { name: file.name, type: file.type, size: file.size };
  });
  return Promise.resolve();
};
"""
NO_SHARE_SHEET = "delete Navigator.prototype.canShare; delete Navigator.prototype.share;"


@pytest.mark.django_db(transaction=True)
def test_the_results_go_to_the_share_sheet_as_a_picture_or_download_as_one(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, accept_downloads=True)
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    sign_up(page, live_server.url, "dora")
    start_match(page, "Skat, ISkO", ("Anna", "Ben", "Cleo"), title="Donnerstag")
    save_game(page, Entry("♣ Clubs", "Ben", matadors=1, outcome="won"))
    expect(page.get_by_role("list", name="Totals", exact=True)).to_contain_text("Ben 24")
    open_share_tools(page)
    picture = page.get_by_role("link", name="Share the results as a picture", exact=True)
    picture.click()
    shared = page.wait_for_function("() => window.sharedFiles").json_value()
    assert len(shared) == 1
    assert shared[0]["name"] == "Donnerstag.png"
    assert shared[0]["type"] == "image/png"
    assert shared[0]["size"] > 10_000

    # Where the phone cannot share files, the same link downloads the picture.
    context.add_init_script(NO_SHARE_SHEET)
    page.reload()
    open_share_tools(page)
    with page.expect_download() as downloading:
        page.get_by_role("link", name="Share the results as a picture", exact=True).click()
    download = downloading.value
    assert download.suggested_filename == "Donnerstag.png"
    with Image.open(download.path()) as image:
        assert (image.format, image.width) == ("PNG", 1080)
    context.close()
