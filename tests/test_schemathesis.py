"""Property test: schemathesis fuzzes every documented operation through the WSGI app.

The schema is the one drf-spectacular serves at /api/schema/; requests go straight to
the WSGI application (no server). The database holds a small store (categories,
products with variations, stock, shipping, banners, upsell, reviews, comments,
customers), so generated ids and codes sometimes hit real rows. No generated input,
valid or not, may answer a 500; every answer's Content-Type must be one the schema
documents.
"""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import content_type_conformance, not_a_server_error

from storefront.models import Customer
from storefront.tokens import token_issue
from tests.catalog.factories import (
    AttributeValueFactory,
    CargoTypeFactory,
    CategoryFactory,
    ProductDescriptionFactory,
    ProductFactory,
    ProductInterestFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    StorageFactory,
    VariationFactory,
)
from tests.feedback.factories import (
    CommentFactory,
    ProductReviewFactory,
    ReplyFactory,
    SalesChannelReviewFactory,
    StaffReplyFactory,
)
from tests.marketing.factories import BannerFactory, BannerGroupFactory, UpsellFactory
from tests.shipping.factories import (
    PickupFactory,
    PostalCodeFactory,
    ShippingRowFactory,
    ShippingTableFactory,
)
from tests.storefront.factories import CustomerFactory, PaymentOptionFactory

CHECKS = [not_a_server_error, content_type_conformance]
# Operations that answer differently to a signed-in customer: also called with a token.
SIGNED_IN_PATHS = {
    "/publics/customers/me",
    "/publics/products/{productId}/comments",
    "/review/product",
    "/review/sales-channel",
}
# Generous rates: the fuzzer writes far more than a person would in a minute.
UNTHROTTLED = {"public_write": "100000/min", "login": "100000/min", "login_email": "100000/min"}


def seed_store() -> Customer:
    """A small store: enough rows that ids, codes and postal codes sometimes exist."""
    clothing = CategoryFactory(name="Clothing", slug="clothing")
    shirts = CategoryFactory(name="Shirts", slug="shirts", parent=clothing)
    CategoryFactory(name="T-shirts", slug="t-shirts", parent=shirts)
    CategoryFactory(name="Shoes", slug="shoes", parent=clothing, position=1)
    outlet = CategoryFactory(name="Outlet", slug="outlet", active=False)
    CategoryFactory(name="Old stock", slug="old-stock", parent=outlet)

    storage = StorageFactory()
    cargo = CargoTypeFactory(name="Standard")
    products = [
        ProductFactory(main_category=shirts, categories=[clothing, shirts], cargo_type=cargo)
        for _ in range(3)
    ]
    shirt = products[0]
    for size in ("P", "M"):
        variation = VariationFactory(
            parent=shirt, values=[AttributeValueFactory(label=size)], cargo_type=cargo
        )
        ProductPriceFactory(product=variation)
        StockFactory(product=variation, storage=storage, available=5)
    for product in products:
        ProductPriceFactory(product=product)
        ProductDescriptionFactory(product=product)
        ProductMediaFactory(product=product)
        StockFactory(product=product, storage=storage, available=10)
    ProductFactory(main_category=shirts, active=False)
    ProductInterestFactory(product=products[1])

    PostalCodeFactory()
    PostalCodeFactory(code="20040002", city="Rio de Janeiro", state_code="BR-RJ")
    table = ShippingTableFactory(storages=[storage], cargo_types=[cargo])
    ShippingRowFactory(table=table)
    PickupFactory(table=ShippingTableFactory(storages=[storage], kind="pickup"))

    PaymentOptionFactory(is_default=True)
    PaymentOptionFactory(installments=True, is_default=True)

    group = BannerGroupFactory(code="home-main")
    BannerFactory(group=group, order=1)
    BannerFactory(group=group, order=2, end_at=timezone.now() + timedelta(days=7))
    BannerFactory(group=group, active=False)
    UpsellFactory(product=products[2], trigger_products=[shirt], price_rule__value=Decimal("15"))
    UpsellFactory(product=products[1], priority=-1)  # no trigger: offered to any cart

    customer = CustomerFactory(email="joana@example.com")
    ProductReviewFactory(product=shirt, customer=customer)
    ProductReviewFactory(product=products[1], masked=True, score=3)
    SalesChannelReviewFactory(customer=customer)
    comment = CommentFactory(product=shirt, customer=customer)
    ReplyFactory(parent=comment)
    StaffReplyFactory(parent=comment)
    CommentFactory(product=products[1], active=False)
    return customer


def generated_schema() -> dict:
    """The document /api/schema/ serves, built in-process (as JSON, like a client reads it)."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(document))


# Loaded at import, not through schemathesis.pytest.from_fixture: its lazy loader does
# not run under pytest 9 (it sets Node._nodeid, which pytest 9 no longer has).
schema = schemathesis.openapi.from_dict(generated_schema())


@pytest.fixture
def store(db, media_root, settings, monkeypatch) -> Customer:
    """The seeded store, with throttles out of the way; returns a signed-up customer."""
    # The fuzzer signs in and registers often: a fast hasher keeps it quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", UNTHROTTLED)
    return seed_store()


@pytest.fixture
def wsgi_app(store):
    # A fresh handler: middleware reads settings (e.g. SECURE_SSL_REDIRECT) when built.
    # Like Django's test client, keep the request signals from closing the test's database
    # connection (it sits inside the test transaction; PostgreSQL would lose it).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def signed_in(store) -> dict:
    """Headers of the seeded customer's session."""
    token = token_issue(customer_id=store.pk, password_hash=store.password).token
    return {"Authorization": f"Bearer {token}"}


@schema.parametrize()
@hypothesis_settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_generated_request_crashes_the_api(case, wsgi_app, signed_in):
    case.call_and_validate(app=wsgi_app, checks=CHECKS)
    if case.path in SIGNED_IN_PATHS:
        case.call_and_validate(app=wsgi_app, headers=signed_in, checks=CHECKS)


@pytest.mark.django_db
def test_the_fuzzed_schema_is_the_served_one(api_client):
    response = api_client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert json.loads(response.content) == generated_schema()
