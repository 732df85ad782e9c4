"""The page templates are read without their indentation: only where white space carries no meaning."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.template import engines

from matches.forms import games as forms
from scorekeeper.template_loader import Loader, without_indentation

PAGES = sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))
# Where white space is content: preformatted text and text areas, and translations written over several lines
# (without "trimmed" a message's line breaks and indentation are part of its text, and the catalogue would not find
# it once they are gone).
VERBATIM = re.compile(r"<pre\b|<textarea\b", re.IGNORECASE)
TRANSLATION = re.compile(
    r"\{%\s*blocktrans(?:late)?\b(?P<arguments>[^%]*)%\}(?P<text>.*?)\{%\s*endblocktrans", re.DOTALL
)


def white_space_that_counts(source: str) -> list[str]:
    found = VERBATIM.findall(source)
    for block in TRANSLATION.finditer(source):
        if "\n" in block["text"] and "trimmed" not in block["arguments"].split():
            found.append(block.group(0))
    return found


@pytest.mark.parametrize("path", PAGES, ids=lambda path: str(path.relative_to(settings.BASE_DIR)))
def test_no_page_template_holds_text_whose_white_space_counts(path: Path) -> None:
    assert white_space_that_counts(path.read_text()) == []


def test_text_whose_white_space_counts_is_found() -> None:
    assert white_space_that_counts("<pre>a</pre>")
    assert white_space_that_counts("{% blocktranslate with a=b %}Hello {{ a }},\n  there{% endblocktranslate %}")
    assert white_space_that_counts("{% blocktrans count n=c %}One{% plural %}\n  {{ n }}{% endblocktrans %}")
    assert not white_space_that_counts("{% blocktranslate trimmed %}Hello,\n  there{% endblocktranslate %}")
    assert not white_space_that_counts("{% blocktranslate %}Hello, there{% endblocktranslate %}\n  <p>")


def test_indentation_and_blank_lines_go_and_line_breaks_stay() -> None:
    source = '<ul>\n  <li>{% translate "One" %}</li>\n\n    <li>\tTwo</li>\n</ul>\n'
    assert without_indentation(source) == '<ul>\n<li>{% translate "One" %}</li>\n<li>\tTwo</li>\n</ul>\n'


def test_the_project_pages_are_read_without_indentation_and_other_files_as_they_are(tmp_path: Path) -> None:
    engine = engines["django"].engine  # type: ignore[attr-defined]
    own = engine.get_template("base.html").source
    assert "\n  <" not in own
    assert "<footer" in own
    admin = engine.get_template("admin/base.html").source
    assert "\n    <" in admin
    indented = "<svg>\n  <line/>\n</svg>\n"
    for name in ("x.svg", "x.html"):
        (tmp_path / name).write_text(indented)
    loader = Loader(engine, dirs=[tmp_path])
    assert loader.get_contents(next(loader.get_template_sources("x.svg"))) == indented
    assert loader.get_contents(next(loader.get_template_sources("x.html"))) == "<svg>\n<line/>\n</svg>\n"


def test_the_kept_fields_html_is_keyed_by_what_draws_it(tmp_path: Path, settings: Any) -> None:
    """The entry's fields are kept in the cache between requests; their key names a digest of the templates that draw
    them, so a release that draws them differently does not meet HTML an earlier one kept."""
    assert forms._release() == forms.RELEASE
    partials = tmp_path / "templates" / "matches" / "partials"
    partials.mkdir(parents=True)
    for name in ("_fields.html", "_field.html"):
        (partials / name).write_text("<div>{{ field }}</div>")
    settings.BASE_DIR = tmp_path
    before = forms._release()
    (partials / "_fields.html").write_text("<div hx-trigger=\"change from:'closest form'\">{{ field }}</div>")
    assert forms._release() != before
