"""The project's own page templates (``templates/``) read without the indentation of their source.

Every line loses its leading white space and blank lines go: what a browser renders is the same (a line break still
separates what it separated), and a match page travels a few hundred bytes lighter. Text whose white space counts
(``<pre>``, ``<textarea>``, a ``blocktranslate`` over several lines without ``trimmed``) has no place in these
templates; a test holds them to it. Other files (the chart's SVG, apps' templates) are read as they are."""

from __future__ import annotations

import re

from django.template import Origin
from django.template.loaders.filesystem import Loader as FilesystemLoader

INDENTATION = re.compile(r"\n\s+")


def without_indentation(source: str) -> str:
    return INDENTATION.sub("\n", source)


class Loader(FilesystemLoader):
    def get_contents(self, origin: Origin) -> str:
        contents: str = super().get_contents(origin)
        return without_indentation(contents) if origin.name.endswith(".html") else contents
