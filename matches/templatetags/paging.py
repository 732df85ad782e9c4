"""The one pager of every list that grows (``paging.page_of``): a link back to the first page and one to the next,
keeping whatever else the address asks for (another list's place on the same page, a filter)."""

from __future__ import annotations

from typing import Any

from django import template

from ..paging import Page

register = template.Library()


@register.inclusion_tag("partials/_pager.html", takes_context=True)
def pager(
    context: dict[str, Any], page: Page, label: str, first: str, more: str, param: str = "after"
) -> dict[str, Any]:
    """``{% pager page _("Players, page by page") _("From A") _("More players") %}``; ``param`` names the list's
    place in the address when a page shows two lists."""
    request = context["request"]
    query = request.GET.copy()
    query.pop(param, None)
    first_url = f"?{query.urlencode()}" if query else request.path
    query[param] = page.after or ""
    return {
        "page": page,
        "label": label,
        "first": first,
        "more": more,
        "first_url": first_url,
        "more_url": f"?{query.urlencode()}",
    }
