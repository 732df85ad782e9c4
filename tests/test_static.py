"""The static files as ``collectstatic`` leaves them for production: the project's own scripts and styles minified,
every file named by its content and compressed ahead with Brotli and gzip; vendored files as their authors ship them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from scorekeeper.storage import minified

OWN = (
    "css/app.css",
    "css/club.css",
    "css/screen.css",
    "js/entry.js",
    "js/offline.js",
    "js/outbox.js",
    "js/reset.js",
    "js/share.js",
    "js/value.js",
)
THIRD_PARTY = ["admin", "rest_framework", "drf_spectacular_sidecar"]


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("staticfiles")
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "scorekeeper.storage.MinifiedStaticFilesStorage"}}
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        # The admin's and the API pages' files are many and large: compressing them ahead would take most of a minute.
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=THIRD_PARTY)
    return root


def source(name: str) -> bytes:
    path = finders.find(name)
    assert isinstance(path, str)
    return Path(path).read_bytes()


def served(root: Path, name: str) -> Path:
    hashed: str = json.loads((root / "staticfiles.json").read_text())["paths"][name]
    return root / hashed


@pytest.mark.parametrize("name", OWN)
def test_the_own_files_are_served_minified_and_compressed_ahead(collected: Path, name: str) -> None:
    original = source(name)
    path = served(collected, name)
    content = path.read_bytes()
    assert content == minified(name, original)
    assert len(content) < 0.9 * len(original)
    assert b"\n  " not in content  # no indentation left
    assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == content
    assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == content


def test_a_vendored_file_is_served_as_shipped(collected: Path) -> None:
    assert served(collected, "js/htmx.min.js").read_bytes() == source("js/htmx.min.js")


def test_comments_go_and_code_stays() -> None:
    script = b'// a note\nvar pattern = /\\/\\/ not a comment/; // another\nvar text = "/* kept */";\n'
    assert minified("js/x.js", script) == b'var pattern=/\\/\\/ not a comment/;var text="/* kept */";'
    style = b"/* a note */\n.a  >  .b {\n  color: red;\n}\n"
    assert minified("css/x.css", style) == b".a>.b{color:red}"
    assert minified("admin/x.js", script) == script
