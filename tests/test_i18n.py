"""German is first-class: every string the project shows has a German translation, and the API speaks it."""

import ast
import re
from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.translation.template import templatize
from rest_framework.test import APIClient

from matches.engine.messages import Message, msg_count, ngettext_noop
from matches.scoring import render

from .factories import make_user

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MARKERS = {"gettext_noop", "gettext_lazy", "gettext", "_"}
# What ``templatize`` (the extractor ``makemessages`` uses) makes of {% translate %} and {% blocktranslate %}, and of
# a ``_("…")`` passed to a tag or a filter (kept as written). A literal is quoted with ' or, where the string holds
# an apostrophe, with ".
QUOTED = r"""u?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
TEMPLATE_CALL = re.compile(rf"(?<!\w)(n?p?gettext|_)\(({QUOTED}(?:, {QUOTED})*)")
LITERAL = re.compile(QUOTED)


def source_strings() -> set[tuple[str | None, str]]:
    """Every marked string as (context, text): the same words under a context are another entry of the catalogue."""
    found: set[tuple[str | None, str]] = set()
    for path in [*ROOT.glob("matches/**/*.py"), *ROOT.glob("scorekeeper/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in MARKERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add((None, node.args[0].value))
    for path in ROOT.glob("templates/**/*.html"):
        for function, arguments in TEMPLATE_CALL.findall(templatize(path.read_text())):
            literals = [ast.literal_eval(literal) for literal in LITERAL.findall(arguments)]
            in_context = function.startswith(("pgettext", "npgettext"))
            found.add((literals[0], literals[1]) if in_context else (None, literals[0]))
    return found


PLURAL_MARKERS = {"ngettext_noop", "ngettext_lazy", "ngettext"}


def source_plurals() -> set[tuple[str, str]]:
    """Every string marked with its plural in Python, as (singular, plural)."""
    found: set[tuple[str, str]] = set()
    for path in [*ROOT.glob("matches/**/*.py"), *ROOT.glob("scorekeeper/*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in PLURAL_MARKERS
                and len(node.args) >= 2
                and all(isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in node.args[:2])
            ):
                found.add((node.args[0].value, node.args[1].value))  # type: ignore[attr-defined]
    return found


def test_every_string_marked_with_its_plural_has_german_forms() -> None:
    catalogue = polib.pofile(str(CATALOGUE))
    translated = {
        (entry.msgid, entry.msgid_plural)
        for entry in catalogue.translated_entries()
        if entry.msgid_plural and all(entry.msgstr_plural.values())
    }
    assert sorted(source_plurals() - translated) == []


def test_every_marked_string_has_a_german_translation() -> None:
    catalogue = polib.pofile(str(CATALOGUE))
    translated = {(entry.msgctxt, entry.msgid) for entry in catalogue.translated_entries()}
    missing = sorted(source_strings() - translated, key=str)
    assert missing == []


def test_the_catalogue_has_no_untranslated_or_fuzzy_entries() -> None:
    catalogue = polib.pofile(str(CATALOGUE))
    assert catalogue.untranslated_entries() == []
    assert catalogue.fuzzy_entries() == []


@pytest.mark.parametrize("entry", polib.pofile(str(CATALOGUE)), ids=lambda entry: entry.msgid[:40])
def test_translations_keep_their_placeholders(entry: polib.POEntry) -> None:
    placeholder = re.compile(r"{\w+}|%\(\w+\)[sd]")

    def found(text: str) -> list[str]:
        return sorted(placeholder.findall(text))

    if entry.msgid_plural:
        assert found(entry.msgstr_plural[0]) == found(entry.msgid)
        assert found(entry.msgstr_plural[1]) == found(entry.msgid_plural)
    else:
        assert found(entry.msgstr) == found(entry.msgid)


# The app says "du" to everybody. The formal address is "Sie" and the "Ihr…" and "Ihnen" written with a capital; lower
# case they are "she", "it", "they", "her", "its" and "their", which take a capital only at the start of a sentence.
# There a translation says it otherwise (a comma before it, or the noun named again), so that nobody reads "you":
# only a translation listed here by its msgid keeps a "Sie" (or "Ihr…") that starts a sentence and means somebody else.
FORMAL = re.compile(r"\b(?:Sie|Ihr\w*|Ihnen)\b")
SENTENCE_START = re.compile(r"(?:\A|[.!?:]\s+)[„“\"'(]?\Z")
NOT_YOU: frozenset[str] = frozenset()


def formal_address(text: str, *, msgid: str = "") -> list[str]:
    """The words of ``text`` that address the reader formally, each with what comes before it."""
    found = []
    for match in FORMAL.finditer(text):
        before = text[: match.start()]
        if SENTENCE_START.search(before) and msgid in NOT_YOU:
            continue
        found.append(f"…{before[-30:]}{match[0]}")
    return found


@pytest.mark.parametrize(
    ("text", "formal"),
    [
        ("Das Startgeld zahlen Sie an der Kasse.", True),
        ("Von Ihnen veranstaltet", True),
        ("Ihr Name", True),
        ("Schon gemeldet? Ihre Bestätigung über den Code", True),
        ("Wählen Sie die Regeln.", True),
        ("Serie 2 ist abgeschlossen: Sie wird nicht mehr geändert.", True),
        ("Serie 2 ist abgeschlossen, ihre Listen bleiben.", False),
        ("Eine große Datei: sie wird im Hintergrund erstellt.", False),
        ("Dein Name", False),
        ("Wir danken Ihnen.", True),
        ("Sie nimmt keine Änderungen an.", True),
        ("Die Siegerliste", False),
    ],
)
def test_the_formal_address_is_found(text: str, formal: bool) -> None:
    assert bool(formal_address(text)) is formal


def test_german_says_du_never_sie() -> None:
    formal = []
    for entry in polib.pofile(str(CATALOGUE)):
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            formal += [f"{entry.msgid[:50]}: {found}" for found in formal_address(text, msgid=entry.msgid)]
    assert formal == []


# A thing has one German name everywhere: the word on the left is never written, the one on the right is.
ONE_NAME = {
    r"\bKlubabend": "Vereinsabend",
    r"\babgenommen|\bAbnahme\b|\bnimmt\b.*\bab\b": "genehmigt (a league's manager accepting a report)",
}


def test_german_names_each_thing_by_one_word() -> None:
    found = []
    for entry in polib.pofile(str(CATALOGUE)):
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            found += [f"{entry.msgid[:50]}: {word}" for pattern, word in ONE_NAME.items() if re.search(pattern, text)]
    assert found == []


def test_a_message_with_a_plural_is_said_for_its_count_in_the_readers_language_and_kept_with_its_plural() -> None:
    brings = ngettext_noop(
        "{team} brings {count} player: a team plays with {low} or {high}.",
        "{team} brings {count} players: a team plays with {low} or {high}.",
    )
    one, two = (msg_count(brings, count, team="Pik As I", low=3, high=4) for count in (1, 2))
    assert (one.render(), two.render()) == (
        "Pik As I brings 1 player: a team plays with 3 or 4.",
        "Pik As I brings 2 players: a team plays with 3 or 4.",
    )
    with translation.override("de"):
        assert [render(Message.from_data(message.to_data())) for message in (one, two)] == [
            "Pik As I tritt mit 1 Spieler an: Eine Mannschaft spielt mit 3 oder 4.",
            "Pik As I tritt mit 2 Spielern an: Eine Mannschaft spielt mit 3 oder 4.",
        ]


def test_the_calculator_answers_in_german(api: APIClient) -> None:
    body = {"variant": "skat", "game": {"contract": "clubs", "matadors": 2, "hand": True, "declarer_card_points": 52}}
    response = api.post("/api/v1/calculate/", body, format="json", headers={"Accept-Language": "de"})
    assert response.status_code == 200
    breakdown = response.json()["breakdown"]
    assert breakdown[0] == "mit 2"
    assert "Kreuz" in breakdown[3]


def test_errors_come_in_german_too(api: APIClient) -> None:
    body = {"variant": "skat", "game": {"contract": "clubs", "matadors": 2, "declarer_card_points": 121}}
    response = api.post("/api/v1/calculate/", body, format="json", headers={"Accept-Language": "de"})
    assert response.status_code == 400
    assert response.json()["game"]["declarer_card_points"] == ["Muss zwischen 0 und 120 liegen."]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "Expected a JSON object."), ("de", "Erwartet wird ein JSON-Objekt.")],
    ids=["en", "de"],
)
@pytest.mark.parametrize("body", [[], "skat", 3], ids=["list", "text", "number"])
def test_a_body_that_is_no_json_object_is_refused_in_the_visitors_language(
    language: str, message: str, body: object
) -> None:
    api = APIClient()
    api.force_authenticate(make_user())
    for address in ("/api/v1/matches/", "/api/v1/rankings/"):
        response = api.post(address, body, format="json", headers={"Accept-Language": language})
        assert response.status_code == 400, address
        assert response.json() == {"non_field_errors": [message]}, address
