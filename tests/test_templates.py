"""The page templates are read without their indentation: only where white space carries no meaning."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines

from scorekeeper.template_loader import Loader, without_indentation

PAGES = sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))
# Where white space is content: preformatted text, text areas, and translations written over several lines (without
# "trimmed" a message's line breaks and indentation are part of its text, and the catalogue would not find it).
WHITE_SPACE_COUNTS = re.compile(
    r"<pre\b|<textarea\b|\{%\s*blocktranslate(?![^%]*\btrimmed\b)[^%]*%\}[^{]*\n", re.IGNORECASE
)


@pytest.mark.parametrize("path", PAGES, ids=lambda path: str(path.relative_to(settings.BASE_DIR)))
def test_no_page_template_holds_text_whose_white_space_counts(path: Path) -> None:
    assert not WHITE_SPACE_COUNTS.search(path.read_text())


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
