"""A table's scoring link as a QR code, the same on every page that seats tables (a club night, a league's venue, an
open tournament), so that a phone scans each alike; with the link itself, offered beside it
(``templates/matches/_table_join.html``)."""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``, with the error correction every page and print of a table's link uses."""
    return segno.make(url, error="m")


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (made here, never fetched from elsewhere)."""
    return mark_safe(qr_code(url).svg_inline(scale=4, border=2))


@dataclass(frozen=True)
class TableJoin:
    """A table's scoring link as its event's page offers it (with its QR code), or nothing (``link`` empty) where the
    page offers none: to somebody who may not hand it out, or for a table whose list is done or kept on paper."""

    link: str = ""
    qr: str = ""


def table_join(request: HttpRequest, invite_token: str | None, *, offered: bool) -> TableJoin:
    """The scoring link of a table's match (its ``invite_token``), absolute, where the page ``offered`` it and the
    match still has one."""
    if not offered or not invite_token:
        return TableJoin()
    link = request.build_absolute_uri(reverse("match_join", args=[invite_token]))
    return TableJoin(link, qr_svg(link))
