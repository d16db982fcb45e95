"""Template tags of the admin's language switcher."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def languages_in_own_names() -> list[tuple[str, str]]:
    """settings.LANGUAGES as written there: each language named in itself ("English",
    "Português (Brasil)"), where Django's `get_available_languages` translates the names
    into the page's language ("Inglês")."""
    return list(settings.LANGUAGES)
