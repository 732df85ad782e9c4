"""Every kind of event takes a table's paper list through the API by the core's view: its body, its lines' players
found among the table's seats and its refusals are the core's; a kind names only its table, its service and its
answer."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

from matches import kinds
from matches.api.paper import PaperListView


def _views(patterns: list[URLPattern | URLResolver]) -> dict[str, type]:
    found: dict[str, type] = {}
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found |= _views(list(pattern.url_patterns))
        elif pattern.name and hasattr(pattern.callback, "cls"):
            found[pattern.name] = pattern.callback.cls
    return found


def test_every_kinds_paper_list_in_the_api_is_the_cores_view() -> None:
    papers = {
        kind.name: {name: view for name, view in _views(list(kind.api)).items() if "paper" in name}
        for kind in kinds.event_kinds()
    }
    assert sorted(papers) == ["club", "knockout", "league", "tournament"]
    for kind, views in papers.items():
        assert len(views) == 1, kind
        [view] = views.values()
        assert issubclass(view, PaperListView), (kind, view)
