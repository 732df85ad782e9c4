"""Static files as production serves them: the project's own scripts and styles without comments and whitespace,
then named by their content and compressed ahead, with Brotli and gzip, by WhiteNoise (``collectstatic``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import rcssmin
import rjsmin
from django.core.files.base import ContentFile, File
from whitenoise.storage import CompressedManifestStaticFilesStorage

# The project's own files (``static/``); vendored and third-party ones are left as their authors ship them.
OWN = ("css/", "js/")
MINIFIERS: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def minified(name: str, content: bytes) -> bytes:
    """The static file ``name`` as served: one of the project's own scripts or style sheets minified, any other file
    (a vendored ``.min.js`` too) as it is."""
    minify = MINIFIERS.get(PurePosixPath(name).suffix)
    if minify is None or not name.startswith(OWN) or ".min." in name:
        return content
    return minify(content.decode()).encode()


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # whitenoise is untyped
    def _save(self, name: str, content: File[Any]) -> str:
        # Read from the start: the manifest's hashing has read the file before it is saved under its hashed name.
        saved: str = super()._save(name, ContentFile(minified(name, b"".join(content.chunks()))))
        return saved
