"""Template tags of the admin's language switcher."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def languages_in_own_names() -> list[tuple[str, str]]:
    """settings.LANGUAGES, each named in itself (not translated, unlike Django's tag)."""
    return list(settings.LANGUAGES)
