"""Change lists fit a 1366 px screen with the sidebar open (issue 13, docs/decisions.md).

The checkable rule, for every change list of the project's admin:
- at most MAX_COLUMNS columns;
- the columns a person acts on (status badges, active / approved flags, start and end of a
  schedule, row actions like Reply or Preview, columns edited in the list) come first,
  before every other column;
- no column shows a long text as is: a TextField, or a CharField longer than
  LONG_TEXT_CHARS, goes through storefront.admin_utils.truncated() (full text on hover);
- no "by <relation>" filter lists a model that grows with the store (products, customers,
  comments...): those are searched, or filtered by clicking a row's link.
"""

import pytest
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db import models

from storefront.admin_utils import truncated

PROJECT_APPS = {"storefront", "catalog", "marketing", "shipping", "feedback"}
MAX_COLUMNS = 8
LONG_TEXT_CHARS = 100
ACTION_COLUMNS = {
    "active",
    "is_default",
    "status",
    "status_badge",
    "moderation",
    "start_at",
    "end_at",
    "reply_link",
    "preview_link",
}
# Models with thousands of rows in a real store: never a list filter's choices.
GROWING_MODELS = {
    "catalog.Product",
    "storefront.Customer",
    "feedback.Comment",
    "feedback.ProductReview",
    "shipping.PostalCode",
    "shipping.ShippingRow",
}


def project_admins():
    return sorted(
        (
            (model, model_admin)
            for model, model_admin in admin.site._registry.items()
            if model._meta.app_label in PROJECT_APPS
        ),
        key=lambda pair: pair[0]._meta.label,
    )


ADMINS = project_admins()
IDS = [model._meta.label for model, _admin in ADMINS]


def column_name(item) -> str:
    return item if isinstance(item, str) else item.__name__


@pytest.mark.parametrize(("model", "model_admin"), ADMINS, ids=IDS)
def test_a_change_list_has_at_most_max_columns(model, model_admin):
    assert len(model_admin.list_display) <= MAX_COLUMNS, model_admin.list_display


@pytest.mark.parametrize(("model", "model_admin"), ADMINS, ids=IDS)
def test_the_columns_a_person_acts_on_come_first(model, model_admin):
    names = [column_name(item) for item in model_admin.list_display]
    acting = ACTION_COLUMNS | set(model_admin.list_editable)
    flags = [name in acting for name in names]

    # every acting column before every other one: True... then False...
    assert flags == sorted(flags, reverse=True), names


@pytest.mark.parametrize(("model", "model_admin"), ADMINS, ids=IDS)
def test_long_texts_are_truncated(model, model_admin):
    raw_long_texts = []
    for item in model_admin.list_display:
        if not isinstance(item, str):
            continue
        try:
            field = model._meta.get_field(item)
        except FieldDoesNotExist:  # a display method: it truncates itself (admin_utils)
            continue
        long_char = isinstance(field, models.CharField) and (field.max_length or 0) > (
            LONG_TEXT_CHARS
        )
        if isinstance(field, models.TextField) or long_char:
            raw_long_texts.append(item)

    assert not raw_long_texts, f"use storefront.admin_utils.truncated(): {raw_long_texts}"


@pytest.mark.parametrize(("model", "model_admin"), ADMINS, ids=IDS)
def test_no_filter_lists_a_model_that_grows_with_the_store(model, model_admin):
    growing = []
    for item in model_admin.list_filter:
        name = item[0] if isinstance(item, tuple) else item
        if not isinstance(name, str):
            continue
        field = model._meta.get_field(name.split("__")[0])
        related = field.related_model
        if related is not None and related._meta.label in GROWING_MODELS:
            growing.append(name)

    assert not growing, growing


def test_truncated_keeps_the_full_text_on_hover():
    text = "Chegou antes do prazo e funciona perfeitamente. " * 3

    html = str(truncated(text, 20))

    assert html.startswith('<span title="Chegou antes do prazo e funciona')
    assert ">Chegou antes do pra…</span>" in html
    assert truncated("curto", 20) == "curto"
    assert str(truncated('<b>"x"</b>' * 10, 5)).count("<b>") == 0  # escaped
