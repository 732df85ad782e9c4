"""Domain errors: impossible inputs, reported per field."""

from __future__ import annotations

from dataclasses import dataclass

from .messages import Message


@dataclass(frozen=True)
class FieldError:
    """One problem with one input field, named by its path in the request (``game.matadors``)."""

    field: str
    message: Message


class RuleError(ValueError):
    """The input cannot be scored: it breaks the rules of the variant or asks for something it does not have."""

    def __init__(self, errors: list[FieldError]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{error.field}: {error.message}" for error in errors))


class Problems:
    """Collects field errors so that one response can name every bad field at once."""

    def __init__(self) -> None:
        self._errors: list[FieldError] = []

    def add(self, field: str, message: Message) -> None:
        self._errors.append(FieldError(field, message))

    def extend(self, errors: list[FieldError]) -> None:
        self._errors.extend(errors)

    @property
    def errors(self) -> list[FieldError]:
        return list(self._errors)

    def raise_if_any(self) -> None:
        if self._errors:
            raise RuleError(list(self._errors))
