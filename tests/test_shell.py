"""The installable app shell: manifest, service worker and the offline pages."""

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_makes_the_app_installable(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/"))


def test_the_manifest_speaks_the_readers_language(client: Client) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest", headers={"Accept-Language": "de"}).content)
    assert manifest["lang"] == "de"
    assert manifest["description"] == "Skat und seine Verwandten, am Tisch gezählt."


def test_the_service_worker_keeps_this_releases_files_and_the_offline_page(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert '"/offline/"' in body
    assert "/static/js/outbox.js" in body
    assert 'const VERSION = "' in body
    assert "__" not in body


def test_every_page_links_the_manifest_and_the_icons(client: Client) -> None:
    html = client.get("/accounts/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#1d6b3a">' in html
    assert 'rel="icon"' in html


@pytest.mark.parametrize("url", ["/offline/", "/offline/reset/"])
def test_the_offline_pages_need_no_account(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200
