"""Change lists fit a 1366 px screen with the sidebar open (issue 13, docs/decisions.md).

The checkable rule, for every change list of the project's admin:
- at most MAX_COLUMNS columns;
- the columns a person acts on (status badges, active / approved flags, start and end of a
  schedule, row actions like Reply or Preview, columns edited in the list) come first,
  before every other column;
- no column shows a long text as is: a TextField, or a CharField longer than
  LONG_TEXT_CHARS, goes through infra.admin.truncated() (full text on hover);
- no "by <relation>" filter lists a model that grows with the store (products, customers,
  comments...): those are searched, or filtered by clicking a row's link;
- dates are short (`26/11/2026 10:37`, the full date on hover) in every change list, the
  third-party ones included (issue 20; the browser suite checks that every list fits).
"""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from axes.models import AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.urls import reverse
from django.utils import translation

from infra.admin import ShortDatesMixin, truncated
from storefront.models import Customer

from .factories import CustomerFactory

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
        except FieldDoesNotExist:  # a display method: it truncates itself (infra.admin)
            continue
        long_char = isinstance(field, models.CharField) and (field.max_length or 0) > (
            LONG_TEXT_CHARS
        )
        if isinstance(field, models.TextField) or long_char:
            raw_long_texts.append(item)

    assert not raw_long_texts, f"use infra.admin.truncated(): {raw_long_texts}"


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


# --- Short dates (issue 20) -------------------------------------------------------------

NOV_26 = datetime(2026, 11, 26, 10, 37, tzinfo=ZoneInfo("America/Sao_Paulo"))


@pytest.fixture
def staff_client(client, db):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    yield client
    translation.deactivate()  # the admin's middleware leaves its language active


@pytest.mark.parametrize(
    ("language", "short", "full"),
    [
        ("pt-br", "26/11/2026 10:37", "26 de Novembro de 2026 às 10:37"),
        ("en", "11/26/2026 10:37 a.m.", "Nov. 26, 2026, 10:37 a.m."),
    ],
)
def test_a_change_list_shows_dates_short_with_the_full_date_on_hover(
    staff_client, settings, language, short, full
):
    settings.ADMIN_LANGUAGE_CODE = language
    customer = CustomerFactory(last_login=None)
    Customer.objects.filter(pk=customer.pk).update(created_at=NOV_26)

    page = staff_client.get(reverse("admin:storefront_customer_changelist")).content.decode()

    assert f'title="{full}">{short}</time>' in page
    assert 'datetime="2026-11-26T10:37:00-03:00"' in page
    assert 'class="sortable column-created_at' in page  # still sorted by the field
    assert '<td class="field-last_login">-</td>' in page  # no date: the empty value


def test_a_date_column_sorts_by_its_field(staff_client):
    for day in (3, 1, 2):
        customer = CustomerFactory(name=f"Customer {day}")
        Customer.objects.filter(pk=customer.pk).update(created_at=NOV_26.replace(day=day))
    url = reverse("admin:storefront_customer_changelist")
    created_at = 1 + list(admin.site._registry[Customer].list_display).index("created_at")

    page = staff_client.get(url, {"o": f"-{created_at}"}).content.decode()

    assert page.index("Customer 3") < page.index("Customer 2") < page.index("Customer 1")


def test_third_party_change_lists_show_dates_short_too(staff_client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    log = AccessLog.objects.create(user_agent="x", ip_address="127.0.0.1", username="ana")
    AccessLog.objects.filter(pk=log.pk).update(attempt_time=NOV_26)

    page = staff_client.get(reverse("admin:axes_accesslog_changelist")).content.decode()

    assert ">26/11/2026 10:37</time>" in page
    assert "26 de Novembro de 2026 às 10:37</td>" not in page


def test_a_date_named_as_a_link_stays_a_link(staff_client, monkeypatch):
    customer = CustomerFactory()
    customer_admin = admin.site._registry[Customer]
    monkeypatch.setattr(customer_admin, "list_display_links", ("created_at",))

    page = staff_client.get(reverse("admin:storefront_customer_changelist")).content.decode()

    change = reverse("admin:storefront_customer_change", args=[customer.pk])
    assert f'<th class="field-created_at"><a href="{change}"><time' in page


def test_every_registered_admin_shows_dates_short():
    plain = [
        type(a).__name__
        for a in admin.site._registry.values()
        if not isinstance(a, ShortDatesMixin)
    ]
    assert plain == []
