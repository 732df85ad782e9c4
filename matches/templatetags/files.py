"""The files a page offers of its list: ``{% downloads route id %}`` links the list in every format the core writes
and, with ``printed``, its printed page (a registered list's address with ``pdf``). ``route`` is the address's name: a
registered list's (``matches.downloads``) or the core's own exports'; ``part`` the part of the thing (a series)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import gettext

from ..downloads import PDF
from ..exports.base import Format

register = template.Library()


@register.inclusion_tag("matches/partials/_downloads.html")
def downloads(
    route: str, thing_id: Any, part: int | None = None, printed: bool = False, label: str = "", query: str = ""
) -> dict[str, Any]:
    """``label``: the links' name where a page offers more than one list (else "Download"); ``query``: what the list
    takes from the address's query (``Download.query``), encoded, as the page shows it."""
    where = [thing_id] if part is None else [thing_id, part]
    asked = f"?{query}" if query else ""
    labels = {
        Format.CSV: ("CSV", ""),
        Format.CSV_SEMICOLON: (gettext("CSV (;)"), gettext("semicolons, as German spreadsheet programs open it")),
        Format.XLSX: ("XLSX", ""),
        Format.ODS: ("ODS", ""),
        Format.JSON: ("JSON", ""),
    }
    files = [(label, hint, reverse(route, args=[*where, fmt.value]) + asked) for fmt, (label, hint) in labels.items()]
    if printed:
        files.append(("PDF", gettext("to print"), reverse(route, args=[*where, PDF]) + asked))
    return {"files": files, "label": label or gettext("Download")}
