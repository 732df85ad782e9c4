"""The core of the matches app never imports the club app: it asks its registries, where the club app answers."""

import ast
import datetime
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver

from matches import accounts, permissions, registry
from matches.accounts import account_deletion
from matches.clubs import services as clubs
from matches.clubs.models import Club, ClubTable
from matches.exports.pdf import match_header
from matches.labels import match_label
from matches.models import Match
from matches.permissions import Action, Role, Visitor, allowed, match_role

from .factories import make_user

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "matches"
CLUB_APP = "matches.clubs"
LEAGUE_APP = "matches.interclub"
# The demo data is tooling over the whole installation, not the core (the other commands, a backup, a restore and a
# rescore, ask the registries, and are held like the core; the benchmarks live outside the app, in ``bench/``); the
# league and tournament apps are apps on the core and the club app, as the club app is on the core.
OUTSIDE_THE_CORE = (
    CORE / "clubs",
    CORE / "interclub",
    CORE / "tournaments",
    CORE / "management" / "commands" / "demo.py",
)


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _named(path: Path, tree: ast.Module) -> list[str]:
    """Every module ``path`` imports (relative imports resolved), and every string naming a module by its path."""
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    named: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            named.extend([module, *(f"{module}.{alias.name}" for alias in node.names)])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named.append(node.value)
    return named


def _core_files() -> list[Path]:
    return [
        path
        for path in sorted(CORE.rglob("*.py"))
        if not any(path.is_relative_to(outside) for outside in OUTSIDE_THE_CORE)
    ]


def test_the_core_never_names_the_club_app() -> None:
    offending = sorted(
        {
            (_module_of(path), name)
            for path in _core_files()
            for name in _named(path, ast.parse(path.read_text(encoding="utf-8")))
            if name == CLUB_APP or name.startswith(f"{CLUB_APP}.")
        }
    )
    assert offending == []


def test_the_core_and_the_club_app_never_name_the_league_app() -> None:
    files = [*_core_files(), *sorted((CORE / "clubs").rglob("*.py"))]
    offending = sorted(
        {
            (_module_of(path), name)
            for path in files
            for name in _named(path, ast.parse(path.read_text(encoding="utf-8")))
            if name == LEAGUE_APP or name.startswith(f"{LEAGUE_APP}.")
        }
    )
    assert offending == []


def test_the_walk_sees_relative_and_absolute_imports_of_the_club_app() -> None:
    path = CORE / "views.py"
    tree = ast.parse("from .clubs.models import Club\nimport matches.clubs.views\nfrom .models import Match\n")
    assert _named(path, tree) == [
        "matches.clubs.models",
        "matches.clubs.models.Club",
        "matches.clubs.views",
        "matches.models",
        "matches.models.Match",
    ]


def _club_table(owner: User) -> tuple[Club, Match]:
    club = clubs.club_create(owner=owner, name="Grand Hand")
    season = clubs.season_create(club=club, settings=clubs.SeasonSettings(name="2026"))
    night = clubs.night_create(season=season, date=datetime.date(2026, 11, 24))
    for name in ("Anna", "Ben", "Cleo"):
        clubs.check_in(night=night, name=name)
    clubs.night_draw(night=night, series=1, user=owner)
    table = ClubTable.objects.select_related("match").get(night=night)
    return club, table.match


def _what_the_core_says(owner: User, club: Club, match: Match) -> tuple[Role, bool, str, list[str]]:
    visitor = Visitor(owner)
    event = match_header(match, ["Anna", "Ben", "Cleo"]).event
    return (
        match_role(visitor, match),
        allowed(visitor, Action.VIEW, club),
        event,
        [str(said) for said in account_deletion(owner).groups_left],
    )


@pytest.mark.django_db
def test_the_core_learns_of_clubs_only_from_what_the_club_app_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    owner = make_user("olga")
    club, match = _club_table(owner)
    assert _what_the_core_says(owner, club, match) == (
        Role.OWNER,
        True,
        "Grand Hand · 2026",
        ["You leave your clubs: Grand Hand. Their matches and players are the clubs' and stay."],
    )
    monkeypatch.setattr(permissions, "_book_roles", [])
    monkeypatch.setattr(permissions, "SUBJECTS", {name: permissions.SUBJECTS[name] for name in ("match", "player")})
    monkeypatch.setattr(registry, "_table_place_readers", [])
    monkeypatch.setattr(accounts, "_groups", [])
    assert _what_the_core_says(owner, club, match) == (Role.NOBODY, False, match_label(match), [])


def _url_names(patterns: list[URLPattern | URLResolver]) -> set[str]:
    names: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names |= _url_names(list(pattern.url_patterns))
        elif pattern.name:
            names.add(pattern.name)
    return names


def test_the_cores_templates_name_no_page_of_an_app() -> None:
    """The core's pages reach an app's pages through what the app registered (its menu entry), never by the name of
    an address of its own."""
    apps_names = _url_names(registry.app_pages())
    assert {"club_list", "interclub_leagues"} <= apps_names
    core_templates = [
        path for path in (ROOT / "templates").rglob("*.html") if path.parts[-2] not in {"clubs", "interclub"}
    ]
    named = {
        (path.relative_to(ROOT).as_posix(), name)
        for path in core_templates
        for name in re.findall(r"\{% url ['\"]([\w:]+)['\"]", path.read_text())
        if name in apps_names
    }
    assert named == set()


@pytest.mark.django_db
def test_the_main_menu_leads_to_the_apps_pages(client: Client) -> None:
    client.force_login(make_user("menu"))
    page = client.get("/").content.decode()
    assert 'href="/clubs/"' in page
    assert 'href="/leagues/"' in page
