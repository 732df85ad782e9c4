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


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a template for a count of one and one for every other count without translating them (the web layer
    chooses and translates them by the count)."""
    return singular, plural


def identity(message: str) -> str:
    return message


def english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


@dataclass(frozen=True)
class Message:
    """A template such as ``"with {n}"`` and the values to fill in; values may be messages themselves. A message
    with a ``plural`` template is said in the words for its ``count`` parameter: ``template`` for one, ``plural``
    for any other (each language has its own forms)."""

    template: str
    params: dict[str, int | str | Message] = field(default_factory=dict)
    plural: str | None = None

    def render(
        self,
        translate: Callable[[str], str] = identity,
        translate_plural: Callable[[str, str, int], str] = english_plural,
    ) -> str:
        values = {
            key: value.render(translate, translate_plural) if isinstance(value, Message) else _format_value(value)
            for key, value in self.params.items()
        }
        if self.plural is None:
            return translate(self.template).format(**values)
        count = self.params["count"]
        assert isinstance(count, int), "a plural message counts by its whole number count"
        return translate_plural(self.template, self.plural, count).format(**values)

    def __str__(self) -> str:
        return self.render()

    def to_data(self) -> dict[str, object]:
        """A JSON-ready form, so that a stored breakdown can be shown later in any language."""
        data: dict[str, object] = {
            "template": self.template,
            "params": {
                key: value.to_data() if isinstance(value, Message) else value for key, value in self.params.items()
            },
        }
        if self.plural is not None:
            data["plural"] = self.plural
        return data

    @classmethod
    def from_data(cls, data: dict[str, object]) -> Message:
        template = data["template"]
        params = data["params"]
        plural = data.get("plural")
        if not isinstance(template, str) or not isinstance(params, dict) or not isinstance(plural, str | None):
            raise ValueError("not a stored message")
        return cls(
            template,
            {key: cls.from_data(value) if isinstance(value, dict) else value for key, value in params.items()},
            plural,
        )


def _format_value(value: int | str) -> str:
    if isinstance(value, int) and value < 0:
        return f"\N{MINUS SIGN}{-value}"
    return str(value)


def msg(template: str, **params: int | str | Message) -> Message:
    """Build a message; ``template`` must be a literal wrapped in ``gettext_noop`` at the call site."""
    return Message(template, dict(params))


def msg_count(templates: tuple[str, str], count: int, **params: int | str | Message) -> Message:
    """Build a message said in the words for ``count`` (its ``{count}``); ``templates`` must be two literals wrapped
    in ``ngettext_noop`` at the call site."""
    singular, plural = templates
    return Message(singular, {"count": count, **params}, plural)
