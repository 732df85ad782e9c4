"""Something new made once per form, for every kind of event: a club, a season, a league, a tournament. The page's
form carries a token of its own (``matches.forms.fields.MakesOnce``); the thing it made is kept by the account and
that token, in the table that keeps the API's answers by ``Idempotency-Key`` (``KeptAnswer``, owned by the account).
The same form sent again (a double tap, a retry after a lost answer, a page the browser restores from its history)
finds what it made the first time and makes nothing more; the token sent with other content is refused, so that
nothing is guessed. The daily cleanup forgets what a token made after ``ANSWERS_KEPT`` and keeps the token, so that
a form sent after that is refused, never taken as new."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction

from ..engine import FieldError
from ..engine.messages import gettext_noop, msg
from ..errors import Conflict
from ..models import KeptAnswer

SENT_AGAIN = gettext_noop(
    "This form was saved already, with other values. Check them and send the form again to make another."
)
MADE_AND_GONE = gettext_noop("This form was saved already, and what it made was deleted since.")

Made = TypeVar("Made", bound=models.Model)


class SentAgain(Conflict):
    """The form's token made something already: with other values, longer ago than it is kept, or since deleted.
    ``form``: no field of the form, so the words stand above it."""

    def __init__(self, words: str = SENT_AGAIN) -> None:
        super().__init__([FieldError("form", msg(words))])


def made_once(
    model: type[Made], *, account: AbstractBaseUser, token: uuid.UUID | None, asked: str, make: Callable[[], Made]
) -> Made:
    """The ``model`` instance that ``make`` made for ``account``'s form with ``token`` (``asked``: a digest of the
    form's values): made now, or made the first time the form was sent. Without a token it is made as asked."""
    if token is None:
        return make()
    accounts = get_user_model()
    owner = {"kind": ContentType.objects.get_for_model(accounts), "thing_id": account.pk}
    with transaction.atomic():
        accounts._default_manager.select_for_update().filter(pk=account.pk).values_list("pk", flat=True).get()
        kept = KeptAnswer.objects.filter(**owner, key=token).first()
        if kept is not None:
            return _made_before(model, kept, asked)
        made = make()
        answer = {"pk": made.pk}
        KeptAnswer.objects.create(**owner, key=token, asked=asked, answer=answer)
    return made


def _made_before(model: type[Made], kept: KeptAnswer, asked: str) -> Made:
    if kept.asked != asked or kept.answer is None:
        raise SentAgain()
    made: Made | None = model._default_manager.filter(pk=kept.answer["pk"]).first()
    if made is None:
        raise SentAgain(MADE_AND_GONE)
    return made
