"""Pages and answers go out compressed: Brotli to a browser that takes it, gzip to one that takes only gzip, each
with a random number of random bytes against length-guessing attacks (BREACH), and the page itself unchanged."""

from __future__ import annotations

import gzip

import brotli
import pytest
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import reverse

from matches.compression import MAX_RANDOM_BYTES, compress, skippable

from .factories import add, make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return make_user("olga")


@pytest.fixture
def page(owner: User) -> str:
    match = make_match(owner, names=("Anna", "Ben", "Cleo"))
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    return reverse("match_detail", args=[match.public_id])


def _client(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _plain(client: Client, address: str) -> bytes:
    response = client.get(address)
    assert response.status_code == 200
    assert "Content-Encoding" not in response
    return response.content


def test_a_browser_that_takes_brotli_gets_the_page_in_brotli(owner: User, page: str) -> None:
    client = _client(owner)
    response = client.get(page, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert response["Content-Encoding"] == "br"
    assert "Accept-Encoding" in response["Vary"]
    assert int(response["Content-Length"]) == len(response.content)
    text = brotli.decompress(response.content).decode()
    assert "Ben" in text
    assert text.startswith("<!doctype html>")
    plain = _plain(client, page).decode()
    # The same page, apart from what differs on every request (the CSRF token's mask, the form tokens).
    assert len(text.splitlines()) == len(plain.splitlines())


def test_a_browser_that_takes_only_gzip_gets_gzip(owner: User, page: str) -> None:
    response = _client(owner).get(page, headers={"Accept-Encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.content).decode().startswith("<!doctype html>")


def test_a_streamed_download_goes_out_in_gzip(owner: User) -> None:
    match = make_match(owner, names=("Anna", "Ben", "Cleo"))
    add(match, declarer=1, contract="clubs", matadors=1, declarer_card_points=70)
    address = reverse("match_export", args=[match.public_id, "csv"])
    response = _client(owner).get(address, headers={"Accept-Encoding": "gzip, br"})
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.getvalue()).decode("utf-8").startswith("\ufeff")


def test_a_short_answer_goes_out_as_it_is(owner: User) -> None:
    response = Client().get(reverse("health"), headers={"Accept-Encoding": "br"})
    assert "Content-Encoding" not in response


def test_the_length_varies_and_the_content_does_not() -> None:
    content = b"<p>The same page, compressed again and again.</p>" * 40
    streams = [compress(content) for _ in range(40)]
    assert all(brotli.decompress(stream) == content for stream in streams)
    lengths = {len(stream) for stream in streams}
    assert len(lengths) > 10
    assert max(lengths) - min(lengths) < MAX_RANDOM_BYTES


@pytest.mark.parametrize("length", [1, 2, 100, 255, 256])
def test_a_metadata_block_of_any_length_is_skipped(length: int) -> None:
    compressor = brotli.Compressor()
    head = compressor.process(b"") + compressor.flush()
    stream = head + skippable(length) + skippable(length) + compressor.process(b"kept") + compressor.finish()
    assert brotli.decompress(stream) == b"kept"
    assert len(skippable(length)) == 2 + length


def test_the_skipped_bytes_are_random() -> None:
    first, second = skippable(64), skippable(64)
    assert first[:2] == second[:2]
    assert first[2:] != second[2:]
