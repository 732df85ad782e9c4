"""A table's scoring link as a QR code, the same on every page that seats tables (a club night, a league's venue, an
open tournament), so that a phone scans each alike."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url``, with the error correction every page and print of a table's link uses."""
    return segno.make(url, error="m")


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (made here, never fetched from elsewhere)."""
    return mark_safe(qr_code(url).svg_inline(scale=4, border=2))
