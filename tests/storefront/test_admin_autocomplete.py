"""Autocomplete fields of every admin refuse ids that cannot be ids as a form error: the
widget Django gives them looks the submitted value up to validate and re-display it, and
"abc" or a number past the 64-bit range was a 500 there."""

import pytest
from django.contrib import admin
from django.urls import reverse

from infra.admin import SafeAutocompleteMixin

pytestmark = pytest.mark.django_db

BAD_IDS = ("abc", "99999999999999999999999", "-1")


def _autocomplete_fields(owner, request) -> list[str]:
    """Declared or chosen at runtime (get_autocomplete_fields), as the admin asks."""
    if isinstance(owner, type):  # an inline class: what it declares
        return list(owner.autocomplete_fields)
    return list(owner.get_autocomplete_fields(request))


def _admins_with_autocomplete(request):
    for model, model_admin in admin.site._registry.items():
        if _autocomplete_fields(model_admin, request):
            yield model, model_admin
        for inline in model_admin.inlines:
            if inline.autocomplete_fields:
                yield model, inline


def test_every_admin_and_inline_with_autocomplete_fields_uses_the_safe_fields(rf, admin_user):
    request = rf.get("/")
    request.user = admin_user
    found = list(_admins_with_autocomplete(request))
    assert {model._meta.model_name for model, _ in found} >= {"bannergroup", "upsell"}
    assert found
    unsafe = [
        getattr(owner, "__name__", type(owner).__name__)
        for _, owner in found
        if not isinstance(owner, SafeAutocompleteMixin)
        and not (isinstance(owner, type) and issubclass(owner, SafeAutocompleteMixin))
    ]
    assert unsafe == []


@pytest.mark.parametrize("bad", BAD_IDS)
def test_a_garbage_id_in_an_autocomplete_field_is_a_form_error_not_a_500(
    admin_client, admin_user, rf, bad
):
    request = rf.get("/")
    request.user = admin_user
    answers = []
    for model, model_admin in admin.site._registry.items():
        for name in _autocomplete_fields(model_admin, request):
            meta = model._meta
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
            answers.append((meta.model_name, name, admin_client.post(url, {name: bad}).status_code))
    assert answers
    assert [a for a in answers if a[2] != 200] == []
