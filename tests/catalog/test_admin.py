"""Catalog admin: pages render, the category tree, media uploads and the interest reply form."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from catalog.models import (
    Attribute,
    AttributeValue,
    Brand,
    CargoType,
    Category,
    InterestStatus,
    PriceRule,
    Product,
    ProductInterest,
    ProductMedia,
    Stock,
    Storage,
    TradePolicy,
)
from catalog.services import WEB_IMAGE_MAX_SIDE

from .factories import (
    AttributeValueFactory,
    CargoTypeFactory,
    CategoryFactory,
    PriceRuleFactory,
    ProductFactory,
    ProductInterestFactory,
    ProductMediaFactory,
    ProductPriceFactory,
    StockFactory,
    VariationFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:catalog_{model._meta.model_name}_{action}", args=args)


@pytest.fixture
def catalog_rows(media_root):
    product = ProductFactory()
    VariationFactory(parent=product, values=[AttributeValueFactory()])
    ProductPriceFactory(product=product)
    StockFactory(product=product)
    ProductMediaFactory(product=product)
    PriceRuleFactory(products=[product])
    CargoTypeFactory()
    ProductInterestFactory(product=product)
    return {
        Category: product.main_category,
        Brand: product.brand,
        Attribute: Attribute.objects.first(),
        AttributeValue: AttributeValue.objects.first(),
        CargoType: CargoType.objects.first(),
        Product: product,
        TradePolicy: TradePolicy.objects.default(),
        PriceRule: PriceRule.objects.first(),
        Storage: Storage.objects.first(),
        Stock: Stock.objects.first(),
        ProductInterest: ProductInterest.objects.first(),
    }


MODELS = [
    Category,
    Brand,
    Attribute,
    AttributeValue,
    CargoType,
    Product,
    TradePolicy,
    PriceRule,
    Storage,
    Stock,
    ProductInterest,
]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_and_change_pages_render(staff_client, catalog_rows, model):
    assert staff_client.get(admin_url(model, "changelist")).status_code == 200
    assert staff_client.get(admin_url(model, "changelist"), {"q": "a"}).status_code == 200
    change = staff_client.get(admin_url(model, "change", catalog_rows[model].pk))
    assert change.status_code == 200


@pytest.mark.parametrize(
    "model", [m for m in MODELS if m is not ProductInterest], ids=lambda m: m.__name__
)
def test_add_pages_render(staff_client, model):
    assert staff_client.get(admin_url(model, "add")).status_code == 200


def test_interests_cannot_be_added_by_staff(staff_client):
    assert staff_client.get(admin_url(ProductInterest, "add")).status_code == 403


def test_product_changelist_has_no_query_per_row(staff_client, django_assert_max_num_queries):
    for _ in range(30):
        StockFactory(product=ProductFactory())
    # 12, plus the selling price column's prices, categories and (cold cache) price rules
    with django_assert_max_num_queries(16):
        response = staff_client.get(admin_url(Product, "changelist"))
    assert response.status_code == 200


def test_category_changelist_is_an_indented_depth_first_tree(staff_client):
    moda = CategoryFactory(name="Moda", slug="moda")
    moda_praia = CategoryFactory(name="Moda praia", slug="moda-praia")
    camisetas = CategoryFactory(name="Camisetas", slug="camisetas", parent=moda)

    response = staff_client.get(admin_url(Category, "changelist"))

    names = [c.name for c in response.context["cl"].result_list]
    assert names == [moda.name, camisetas.name, moda_praia.name]
    assert "padding-left:1.5em" in response.content.decode()


def test_category_cannot_be_moved_under_its_own_descendant(staff_client):
    moda = CategoryFactory(name="Moda", slug="moda")
    camisetas = CategoryFactory(name="Camisetas", slug="camisetas", parent=moda)

    response = staff_client.post(
        admin_url(Category, "change", moda.pk),
        {"name": "Moda", "slug": "moda", "parent": camisetas.pk, "active": "on", "position": 0},
    )

    assert response.status_code == 200
    assert "cannot be placed under itself" in response.content.decode()
    moda.refresh_from_db()
    assert moda.parent_id is None


def _png(width: int, height: int) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, format="PNG")
    return SimpleUploadedFile("photo.png", buffer.getvalue(), content_type="image/png")


def _product_form(product: Product, **extra) -> dict:
    data = {
        "name": product.name,
        "sku": product.sku,
        "slug": product.slug,
        "type": product.type,
        "active": "on",
        "priority": 0,
        "base_price": "100.00",
        "brand": product.brand_id,
        "main_category": product.main_category_id,
        "show_in_site": "on",
        "minimum_stock": 0,
        "additional_time": 0,
        "width": "10",
        "height": "10",
        "length": "10",
        "weight": "0.5",
    }
    for prefix in ("prices", "stocks", "medias", "descriptions", "variations", "relations"):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    data.update(extra)
    return data


@pytest.mark.parametrize(("width", "height"), [(300, 200), (WEB_IMAGE_MAX_SIDE + 400, 100)])
def test_uploaded_media_gets_its_size_read_by_pillow(staff_client, media_root, width, height):
    product = ProductFactory()
    upload = _png(width, height)

    response = staff_client.post(
        admin_url(Product, "change", product.pk),
        _product_form(
            product,
            **{
                "medias-TOTAL_FORMS": 1,
                "medias-0-type": "image",
                "medias-0-original_file": upload,
                "medias-0-title": "Front",
                "medias-0-position": 0,
            },
        ),
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    media = ProductMedia.objects.get(product=product)
    assert media.original_size == upload.size
    if width <= WEB_IMAGE_MAX_SIDE:
        assert (media.width, media.height, media.size) == (width, height, upload.size)
        assert not media.file
    else:
        assert media.width == WEB_IMAGE_MAX_SIDE
        with Image.open(media.file.path) as web:
            assert web.size == (media.width, media.height)


def test_uploading_a_non_image_is_refused(staff_client, media_root):
    product = ProductFactory()
    bogus = SimpleUploadedFile("photo.png", b"not an image", content_type="image/png")

    response = staff_client.post(
        admin_url(Product, "change", product.pk),
        _product_form(
            product,
            **{
                "medias-TOTAL_FORMS": 1,
                "medias-0-type": "image",
                "medias-0-original_file": bogus,
                "medias-0-position": 0,
            },
        ),
    )

    assert response.status_code == 200
    assert ProductMedia.objects.count() == 0


def test_variation_added_inline_becomes_a_variation_of_the_product(staff_client):
    product = ProductFactory()
    blue = AttributeValueFactory(label="Blue")

    response = staff_client.post(
        admin_url(Product, "change", product.pk),
        _product_form(
            product,
            **{
                "variations-TOTAL_FORMS": 1,
                "variations-0-sku": "VAR-BLUE",
                "variations-0-name": "Blue one",
                "variations-0-attribute_values": [blue.pk],
                "variations-0-base_price": "100.00",
                "variations-0-active": "on",
            },
        ),
    )

    assert response.status_code == 302
    variation = Product.objects.get(sku="VAR-BLUE")
    assert variation.type == "variation" and variation.parent == product
    assert variation.brand_id == product.brand_id
    assert list(variation.attribute_values.all()) == [blue]


def test_price_rule_records_who_changed_it_last(staff_client):
    response = staff_client.post(
        admin_url(PriceRule, "add"),
        {
            "name": "Black Friday",
            "active": "on",
            "priority": 1,
            "origin": "admin",
            "value": "10",
            "value_type": "percentage",
            "base_price_field": "sale-price",
            "update_comparison_price": "keep",
            "trigger": "automatic",
            "begin_quantity": 1,
            "end_quantity": 0,
            "rule_target": "all",
        },
    )

    assert response.status_code == 302
    assert PriceRule.objects.get().last_update_user_name == "boss"


def test_staff_reply_to_an_on_request_interest_emails_the_customer(staff_client):
    interest = ProductInterestFactory(
        origin="on-request", email="ana@example.com", name="Ana", message="Price for 10?"
    )
    url = reverse("admin:catalog_productinterest_reply", args=[interest.pk])

    page = staff_client.get(url)
    response = staff_client.post(url, {"reply": "R$ 90 each for 10 units."})

    assert page.status_code == 200 and "Price for 10?" in page.content.decode()
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ana@example.com"]
    assert "R$ 90 each" in mail.outbox[0].body
    interest.refresh_from_db()
    assert interest.status == InterestStatus.REPLIED
    assert interest.replied_at is not None
    assert interest.reply == "R$ 90 each for 10 units."
    assert interest.replied_by.username == "boss"


def test_reply_must_not_be_empty(staff_client):
    interest = ProductInterestFactory(origin="on-request")
    url = reverse("admin:catalog_productinterest_reply", args=[interest.pk])

    response = staff_client.post(url, {"reply": "   "})

    assert response.status_code == 200
    change = reverse("admin:catalog_productinterest_change", args=[interest.pk])
    assert f'<a href="{change}">' in response.content.decode()  # the breadcrumbs
    assert mail.outbox == []
    interest.refresh_from_db()
    assert interest.replied_at is None


def test_notify_me_interests_have_no_reply_form(staff_client):
    interest = ProductInterestFactory(origin="notify-me")

    response = staff_client.post(
        reverse("admin:catalog_productinterest_reply", args=[interest.pk]), {"reply": "Hi"}
    )

    assert response.status_code == 302
    assert mail.outbox == []


def test_interest_changelist_filters_by_origin_and_status(staff_client):
    ProductInterestFactory(origin="on-request")
    ProductInterestFactory(origin="notify-me")

    response = staff_client.get(
        admin_url(ProductInterest, "changelist"), {"origin": "on-request", "status": "pending"}
    )

    assert response.status_code == 200
    assert response.context["cl"].result_count == 1
