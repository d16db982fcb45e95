"""Catalog admin: seals (image fitted with Pillow, hostile uploads refused, schedule) and
the related and indicated products edited inline on the product."""

import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from catalog.models import Product, ProductRelation, Seal
from catalog.models.merchandising import SEAL_MAX_SIDE

from .factories import CategoryFactory, ProductFactory
from .merchandising_factories import ProductRelationFactory, SealFactory
from .test_admin import _product_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:catalog_{model._meta.model_name}_{action}", args=args)


def upload(width: int, height: int, *, mode: str = "RGBA", name: str = "seal.png"):
    buffer = io.BytesIO()
    Image.new(mode, (width, height), 0).save(buffer, format="PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


def seal_form(**extra) -> dict:
    return {"name": "Free shipping", "active": "on", "position": 0, **extra}


# --- Seals ---------------------------------------------------------------------------


def test_a_seal_upload_is_fitted_and_previewed(staff_client, media_root):
    product = ProductFactory()
    category = CategoryFactory()

    response = staff_client.post(
        admin_url(Seal, "add"),
        seal_form(
            original_image=upload(1600, 800), products=[product.pk], categories=[category.pk]
        ),
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    seal = Seal.objects.get()
    assert (seal.width, seal.height) == (SEAL_MAX_SIDE, SEAL_MAX_SIDE // 2)
    with Image.open(seal.image.path) as fitted:
        assert fitted.size == (SEAL_MAX_SIDE, SEAL_MAX_SIDE // 2)
        assert fitted.format == "PNG"
    assert list(seal.products.all()) == [product]
    assert list(seal.categories.all()) == [category]
    listing = staff_client.get(admin_url(Seal, "changelist")).content.decode()
    assert seal.image.url in listing
    change = staff_client.get(admin_url(Seal, "change", seal.pk)).content.decode()
    assert f"{SEAL_MAX_SIDE} x {SEAL_MAX_SIDE // 2} px" in change
    assert "admin-autocomplete" in change  # products and categories


@pytest.mark.parametrize(
    "bad_file",
    [
        SimpleUploadedFile("seal.png", b"<svg onload=alert(1)>", content_type="image/png"),
        SimpleUploadedFile("seal.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 64, content_type="image/png"),
    ],
    ids=["not-an-image", "truncated-png"],
)
def test_a_file_that_is_not_an_image_is_refused(staff_client, media_root, bad_file):
    response = staff_client.post(admin_url(Seal, "add"), seal_form(original_image=bad_file))

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["original_image"]
    assert not Seal.objects.exists()


def test_a_huge_image_is_refused_before_it_is_decoded(staff_client, media_root):
    # 6000 x 5000 = 30 million pixels (above the 25 million accepted), a tiny 1-bit file
    response = staff_client.post(
        admin_url(Seal, "add"), seal_form(original_image=upload(6000, 5000, mode="1"))
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["original_image"]
    assert "too large" in errors[0]
    assert not Seal.objects.exists()


@pytest.mark.parametrize("garbage", ["not-a-number", "99999999999999999999", "-1", "1e3"])
def test_unknown_or_malformed_targets_of_a_seal_are_refused(staff_client, media_root, garbage):
    response = staff_client.post(
        admin_url(Seal, "add"),
        seal_form(original_image=upload(64, 64), products=[garbage], categories=[garbage]),
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["products"] and errors["categories"]
    assert not Seal.objects.exists()


def test_a_seal_ending_before_it_starts_is_refused(staff_client, media_root):
    response = staff_client.post(
        admin_url(Seal, "add"),
        seal_form(
            original_image=upload(64, 64),
            start_at_0="2026-03-10",
            start_at_1="12:00",
            end_at_0="2026-03-10",
            end_at_1="11:00",
        ),
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["end_at"]
    assert not Seal.objects.exists()


def test_seal_pages_render_with_statuses(staff_client, media_root):
    now = timezone.now()
    SealFactory(name="Live one", start_at=now - timedelta(days=1), end_at=now + timedelta(days=1))
    SealFactory(name="Off one", active=False)
    SealFactory(name="Later one", start_at=now + timedelta(days=1))
    SealFactory(name="Past one", end_at=now - timedelta(seconds=1))

    response = staff_client.get(admin_url(Seal, "changelist"), headers={"accept-language": "en"})

    assert response.status_code == 200
    statuses = re.findall(r'<td class="field-status">(\w+)</td>', response.content.decode())
    assert sorted(statuses) == ["expired", "inactive", "live", "scheduled"]


# --- Related and indicated products on the product ------------------------------------


def test_relations_are_edited_inline_with_autocomplete_and_order(staff_client):
    product = ProductFactory()
    first, second = ProductFactory.create_batch(2)

    response = staff_client.post(
        admin_url(Product, "change", product.pk),
        _product_form(
            product,
            **{
                "relations-TOTAL_FORMS": 2,
                "relations-0-kind": "related",
                "relations-0-target": second.pk,
                "relations-0-position": 2,
                "relations-1-kind": "indicated",
                "relations-1-target": first.pk,
                "relations-1-position": 1,
            },
        ),
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    rows = ProductRelation.objects.filter(product=product).order_by("kind", "position")
    assert [(row.kind, row.target_id) for row in rows] == [
        ("indicated", first.pk),
        ("related", second.pk),
    ]
    page = staff_client.get(admin_url(Product, "change", product.pk)).content.decode()
    assert 'name="relations-0-target"' in page
    assert "admin-autocomplete" in page


@pytest.mark.parametrize(
    ("target", "field"),
    [("self", "target"), ("999999999", "target"), ("not-a-number", "target")],
)
def test_a_relation_to_itself_or_an_unknown_product_is_refused(staff_client, target, field):
    product = ProductFactory()
    target_id = product.pk if target == "self" else target

    response = staff_client.post(
        admin_url(Product, "change", product.pk),
        _product_form(
            product,
            **{
                "relations-TOTAL_FORMS": 1,
                "relations-0-kind": "related",
                "relations-0-target": target_id,
                "relations-0-position": 0,
            },
        ),
    )

    assert response.status_code == 200
    formset = next(
        f for f in response.context["inline_admin_formsets"] if f.formset.prefix == "relations"
    )
    assert formset.formset.errors[0]
    assert not ProductRelation.objects.exists()


def test_a_duplicate_relation_is_refused(staff_client):
    product = ProductFactory()
    target = ProductFactory()
    ProductRelationFactory(product=product, target=target)

    response = staff_client.post(
        admin_url(Product, "change", product.pk),
        _product_form(
            product,
            **{
                "relations-TOTAL_FORMS": 1,
                "relations-0-kind": "related",
                "relations-0-target": target.pk,
                "relations-0-position": 5,
            },
        ),
    )

    assert response.status_code == 200
    assert ProductRelation.objects.count() == 1
