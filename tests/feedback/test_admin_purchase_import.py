"""The admin's purchase back-fill (CSV): checked first, imported on confirmation, the
buyers' reviews marked verified; a repeated order id changes nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from feedback.models import PurchaseItem, PurchaseOrder
from feedback.purchase_csv import PurchaseFileError, purchase_file_read
from tests.catalog.factories import ProductFactory
from tests.feedback.factories import ProductReviewFactory
from tests.storefront.factories import CustomerFactory

pytestmark = pytest.mark.django_db

URL = reverse("admin:feedback_purchaseorder_import")


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x")
    client.force_login(user)
    return client


def upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("orders.csv", text.encode(), content_type="text/csv")


def test_check_then_import_marks_reviews_and_skips_known_orders(staff_client):
    product, other = ProductFactory(), ProductFactory()
    buyer = CustomerFactory(email="ana@example.com")
    review = ProductReviewFactory(product=product, customer=buyer)
    PurchaseOrder.objects.create(order_id="OLD-1", event="order.paid", email="x@example.com")
    csv_text = (
        "order_id,customer_id,email,product_ids,event\n"
        f"N-1,{buyer.pk},,{product.pk};{other.pk},order.delivered\n"
        "OLD-1,,x@example.com,5,\n"
        "BAD-1,,,5,\n"
        "BAD-2,abc,,5,\n"
        "BAD-3,1,,x,\n"
    )
    page = staff_client.post(URL, {"file": upload(csv_text)})
    assert page.status_code == 200
    assert page.context["report"].created == 1 and page.context["report"].known == 1
    assert [line for line, _ in page.context["rejections"]] == [4, 5, 6]
    assert PurchaseOrder.objects.count() == 1  # a dry run: nothing written
    token = page.context["token"]

    done = staff_client.post(URL, {"confirm": "1", "token": token})
    assert done.status_code == 200
    assert done.context["report"].created == 1
    assert done.context["report"].reviews_verified == 1
    review.refresh_from_db()
    assert review.verified_purchase is True
    assert set(PurchaseItem.objects.values_list("product_id", flat=True)) == {product.pk, other.pk}
    # the kept file is gone: a second confirmation imports nothing
    again = staff_client.post(URL, {"confirm": "1", "token": token})
    assert again.context["refusal"]
    assert PurchaseOrder.objects.count() == 2


def test_import_page_is_in_portuguese(staff_client):
    staff_client.cookies["django_language"] = "pt-br"
    page = staff_client.get(URL, HTTP_ACCEPT_LANGUAGE="pt-br")
    assert page.status_code == 200
    assert "Importar compras" in page.content.decode()


def test_unreadable_files_are_refused():
    with pytest.raises(PurchaseFileError):
        purchase_file_read(b"\xff\xfe\x00bad")
    with pytest.raises(PurchaseFileError):
        purchase_file_read(b"customer_id,email\n1,a@b.co\n")


def test_purchase_orders_list_links_the_import_and_is_read_only(staff_client):
    PurchaseOrder.objects.create(order_id="Z-1", event="order.paid", email="z@example.com")
    page = staff_client.get(reverse("admin:feedback_purchaseorder_changelist"))
    assert page.status_code == 200
    assert URL in page.content.decode()
    assert staff_client.get(reverse("admin:feedback_purchaseorder_add")).status_code == 403
