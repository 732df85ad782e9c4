"""Messages the engine speaks in: English templates that the web layer translates.

The engine knows nothing of Django. Templates are marked with ``gettext_noop`` so that ``makemessages`` collects
them; the pages and the API render them through Django's ``gettext`` in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (the web layer does that)."""
    return message


def identity(message: str) -> str:
    return message


@dataclass(frozen=True)
class Message:
    """A template such as ``"with {n}"`` and the values to fill in; values may be messages themselves."""

    template: str
    params: dict[str, int | str | Message] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = identity) -> str:
        values = {
            key: value.render(translate) if isinstance(value, Message) else _format_value(value)
            for key, value in self.params.items()
        }
        return translate(self.template).format(**values)

    def __str__(self) -> str:
        return self.render()

    def to_data(self) -> dict[str, object]:
        """A JSON-ready form, so that a stored breakdown can be shown later in any language."""
        return {
            "template": self.template,
            "params": {
                key: value.to_data() if isinstance(value, Message) else value for key, value in self.params.items()
            },
        }

    @classmethod
    def from_data(cls, data: dict[str, object]) -> Message:
        template = data["template"]
        params = data["params"]
        if not isinstance(template, str) or not isinstance(params, dict):
            raise ValueError("not a stored message")
        return cls(
            template,
            {key: cls.from_data(value) if isinstance(value, dict) else value for key, value in params.items()},
        )


def _format_value(value: int | str) -> str:
    if isinstance(value, int) and value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return str(value)


def msg(template: str, **params: int | str | Message) -> Message:
    """Build a message; ``template`` must be a literal wrapped in ``gettext_noop`` at the call site."""
    return Message(template, dict(params))
