"""The one family of service failures: each carries messages by field, like the engine's, and one HTTP status.

Pages show the messages next to their fields (or above the form); the API answers with the status and the messages
by field. ``match`` is the field of a message about the match as a whole.
"""

from __future__ import annotations

from typing import ClassVar, Self

from .engine import FieldError, Message, RuleError
from .engine.messages import msg


class ServiceError(RuleError):
    """A change the services refuse. ``status`` is its HTTP status: 400 for rules, 409 when the match is not as the
    request saw it or a change conflicts with it, 410 when what it names is gone."""

    status: ClassVar[int] = 400

    @classmethod
    def about_match(cls, message: Message) -> ServiceError:
        return cls([FieldError("match", message)])

    @classmethod
    def on(cls, field: str, template: str, **params: int | str | Message) -> Self:
        """A refusal named by ``field``, in the words of ``template`` (a literal in ``gettext_noop``) with
        ``params``."""
        return cls([FieldError(field, msg(template, **params))])


class Invalid(ServiceError):
    """What was entered breaks the rules, or is not a valid value."""

    status = 400

    @classmethod
    def from_rules(cls, error: RuleError) -> Invalid:
        return cls(error.errors)


class Conflict(ServiceError):
    """The match moved on since the request was made, or the change would contradict it."""

    status = 409


class Gone(ServiceError):
    """What the request names no longer exists (a deleted game, a revoked link)."""

    status = 410
