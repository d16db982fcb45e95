"""Helpers shared by the catalog admin modules."""

from django.db import models

from storefront.admin_utils import HISTORY_FIELDSET

__all__ = ["HISTORY_FIELDSET", "URL_FIELD_OVERRIDES", "https_formfield"]

# Typed addresses without a scheme are taken as https (Django 6's default, said now).
URL_FIELD_OVERRIDES = {models.URLField: {"assume_scheme": "https"}}


def https_formfield(db_field, **kwargs):
    """ModelForm `Meta.formfield_callback` applying URL_FIELD_OVERRIDES."""
    if isinstance(db_field, models.URLField):
        kwargs = {**URL_FIELD_OVERRIDES[models.URLField], **kwargs}
    return db_field.formfield(**kwargs)
