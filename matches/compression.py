"""Pages and answers compressed for the wire: Brotli where the browser takes it (every current browser does, over
HTTPS), gzip where it takes only that; downloads that are streamed as they are written get gzip.

Like Django's gzip, a Brotli answer carries a random number of random bytes, so that its length cannot be used to
guess a secret in the page a character at a time (BREACH; the mitigation is "Heal the Breach"). They travel in a
metadata block at the start of the stream, which decoders skip (RFC 7932, section 9.2): the page itself is unchanged.
Static files are compressed ahead by WhiteNoise instead (``collectstatic``)."""

from __future__ import annotations

import re
import secrets

import brotli
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers

# "br", unless refused with a quality of zero ("br;q=0").
ACCEPTS_BROTLI = re.compile(r"\bbr\b(?!\s*;\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$))")
# About half a millisecond for a match page of 30 KB; quality 11 makes it a tenth smaller at sixty times the cost.
QUALITY = 5
MAX_RANDOM_BYTES = 100  # as Django's gzip
SHORTEST = 200  # as Django's gzip: shorter answers are not worth it


def skippable(length: int) -> bytes:
    """A Brotli metadata block of ``length`` (1 to 256) random bytes. Its header, least significant bit first:
    ISLAST 0, MNIBBLES 0 (coded 3), a reserved 0, MSKIPBYTES 1, MSKIPLEN - 1 in eight bits, two bits of padding."""
    header = (3 << 1) | (1 << 4) | ((length - 1) << 6)
    return header.to_bytes(2, "little") + secrets.token_bytes(length)


def compress(content: bytes) -> bytes:
    """``content`` as a Brotli stream with 1 to 100 random bytes skipped by the decoder ahead of it. The stream's
    header is flushed to a byte boundary first, where a metadata block may stand."""
    compressor = brotli.Compressor(quality=QUALITY, mode=brotli.MODE_TEXT)
    head = compressor.process(b"") + compressor.flush()
    padding = skippable(1 + secrets.randbelow(MAX_RANDOM_BYTES))
    stream: bytes = head + padding + compressor.process(content) + compressor.finish()
    return stream


class CompressionMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.streaming:
            return super().process_response(request, response)
        if len(response.content) < SHORTEST:  # type: ignore[attr-defined]
            return response  # as Django's gzip leaves it
        if response.has_header("Content-Encoding") or not ACCEPTS_BROTLI.search(
            request.META.get("HTTP_ACCEPT_ENCODING", "")
        ):
            return super().process_response(request, response)
        patch_vary_headers(response, ("Accept-Encoding",))
        content: bytes = response.content  # type: ignore[attr-defined]
        compressed = compress(content)
        if len(compressed) >= len(content):
            return response
        response.content = compressed  # type: ignore[attr-defined]
        response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = "br"
        return response
