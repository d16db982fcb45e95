"""No public response reveals a customer's full e-mail address."""

import pytest
from django.contrib.auth import get_user_model

from tests.feedback.factories import (
    CommentFactory,
    ProductReviewFactory,
    ReplyFactory,
    SalesChannelReviewFactory,
    StaffReplyFactory,
)
from tests.storefront.factories import CustomerFactory

PUBLIC_LISTS = ["/review/product", "/review/sales-channel", "/publics/products/comments"]


@pytest.mark.django_db
def test_no_public_list_contains_a_full_customer_or_staff_email(api_client):
    staff = get_user_model().objects.create_user("lia", "lia.staff@store.example", "x")
    customers = [CustomerFactory(email=f"private.person{n}@example.com") for n in range(3)]
    ProductReviewFactory(customer=customers[0])
    ProductReviewFactory(customer=customers[1], masked=True)
    SalesChannelReviewFactory(customer=customers[2])
    comment = CommentFactory(customer=customers[0], customer_email=customers[0].email)
    CommentFactory(customer_email="anonymous.asker@example.com")
    ReplyFactory(parent=comment, customer_email="second.voice@example.com")
    StaffReplyFactory(parent=comment, user=staff, user_email=staff.email)
    secrets = [c.email for c in customers] + [
        "anonymous.asker@example.com",
        "second.voice@example.com",
        staff.email,
    ]

    for url in PUBLIC_LISTS:
        for path in (url, f"/api/v3{url}"):
            response = api_client.get(path, {"limit": 100})
            assert response.status_code == 200
            text = response.content.decode().lower()
            for email in secrets:
                assert email.lower() not in text, f"{email} leaked by {path}"
            assert "@example.com" in text or "@store.example" in text  # masked ones are there
