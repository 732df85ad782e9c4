"""The league pages' numbers: league points as the federations write them (halves as ½); and the accounts a report
names, as its printout and the API do."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.contrib.auth.models import User
from django.utils.formats import number_format

from matches.engine.match_days import LeaguePoints
from matches.labels import MINUS, rounded, total_label

from ..exports import lined_up_note, score_change_note
from ..models import ScoreChange
from ..selectors import LinedUp, account_name

register = template.Library()


@register.filter
def account(user: User | None) -> str | None:
    """An account as the report names it everywhere: ``account_name``."""
    return account_name(user)


@register.filter
def half_points(value: Fraction | int) -> str:
    """``3/2`` as ``1½``: a shared place gives half points, and a table of league points writes them so."""
    whole, rest = divmod(Fraction(value), 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return number_format(rounded(value, 2), 2).replace("-", MINUS)


@register.filter
def plus_minus(points: LeaguePoints) -> str:
    """League points as plus:minus."""
    return f"{half_points(points.plus)}:{half_points(points.minus)}"


@register.filter
def score_change(change: ScoreChange) -> str:
    """A series score a correction changed, before and after: the same words as the printed report."""
    return score_change_note(change)


@register.filter
def lined_up(one: LinedUp, series: int) -> str:
    """What the match report says of a player beside the name (their federation number, a substitute and whom
    they came in for): the same words as its files and its printed page."""
    return lined_up_note(one, series)


@register.filter
def total(value: int) -> str:
    """A total with a real minus sign."""
    return total_label(value)
