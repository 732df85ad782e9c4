"""The steps a following page asks by (``matches.following``), for its polling element to carry to entry.js."""

from django import template

from ..following import follow_steps_text

register = template.Library()


@register.simple_tag
def follow_steps() -> str:
    return follow_steps_text()
