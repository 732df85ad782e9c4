"""Reads that feed the pages, the API and the exports."""

from __future__ import annotations

from typing import Any

from .engine import OPTIONS, VARIANTS
from .scoring import render


def variant_catalogue() -> list[dict[str, Any]]:
    """Every variant with its seats, schemes, contracts and rule options (defaults included), in the active language."""
    return [
        {
            "variant": spec.variant.value,
            "title": render(spec.label),
            "players": list(spec.players),
            "schemes": [scheme.value for scheme in spec.schemes],
            "contracts": [contract.value for contract in spec.contracts],
            "options": [
                {
                    "name": name,
                    "title": render(OPTIONS[name].label),
                    "help": render(OPTIONS[name].help),
                    "kind": OPTIONS[name].kind,
                    "choices": list(OPTIONS[name].choices),
                    "default": default,
                }
                for name, default in spec.options.items()
            ],
        }
        for spec in VARIANTS.values()
    ]
