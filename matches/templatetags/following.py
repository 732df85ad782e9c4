"""The script that makes a page follow its match or night, with the steps it asks by (``matches.following``)."""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ..following import follow_steps_text

register = template.Library()


@register.simple_tag
def follow_script() -> SafeString:
    return format_html('<script src="{}" defer data-steps="{}"></script>', static("js/follow.js"), follow_steps_text())
