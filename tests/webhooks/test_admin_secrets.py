"""No admin page shows a live password-reset link or a webhook secret in full, to staff who
may view everything (nor to a superuser): the outbox keeps the link out of the stored e-mail,
and endpoints show their secret masked (it is shown once, at creation or rotation)."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.urls import reverse

from jobs.models import OutboundEmail
from tests.jobs.support import run_jobs
from tests.storefront.factories import CustomerFactory
from webhooks.models import Endpoint
from webhooks.services import deliveries_create, endpoint_secret_rotate

pytestmark = pytest.mark.django_db


@pytest.fixture
def viewer():
    """Staff, not a superuser, with the view permission of every model."""
    user = get_user_model().objects.create_user(
        "viewer", "viewer@store.example", "x", is_staff=True
    )
    user.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    return user


@pytest.fixture
def superuser():
    return get_user_model().objects.create_superuser("chief", "chief@store.example", "x")


@pytest.fixture
def secrets(api_client, django_capture_on_commit_callbacks, staff_client, receiver):
    """Two reset e-mails (one sent, one still queued), an endpoint whose secret was rotated in
    the admin (history), and deliveries to it."""
    endpoint = Endpoint.objects.create(url=receiver.url, events=["comment.created"])
    staff_client.post(reverse("admin:webhooks_endpoint_new_secret", args=[endpoint.pk]))
    endpoint.refresh_from_db()
    deliveries_create(event_type="comment.created", data={"id": 1}, endpoints=[endpoint])
    run_jobs()
    old = Endpoint.objects.create(url="https://old.example/in", events=["review.created"])
    old_secret = old.secret
    endpoint_secret_rotate(endpoint=old)

    customer = CustomerFactory(email="joana@example.com")
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client.post(
                "/publics/customers/password-reset", {"email": customer.email}, format="json"
            )
        assert response.status_code == 202
        if not mail.outbox:
            run_jobs()  # the first one is sent; the second stays queued
    (sent,) = mail.outbox
    queued = OutboundEmail.objects.get(status="queued")
    links = [sent.body.split("token=")[1].split()[0], *queued.hidden.values()]
    assert len(links) == 2 and all(len(link) > 20 for link in links)
    return [*links, endpoint.secret, old.secret, old_secret]


def admin_pages():
    for model in admin.site._registry:
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        yield reverse(f"{name}_changelist")
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            yield reverse(f"{name}_change", args=[first.pk])
            yield reverse(f"{name}_history", args=[first.pk])
        last = model._default_manager.order_by("pk").last()
        if last is not None and last != first:
            yield reverse(f"{name}_change", args=[last.pk])


@pytest.mark.parametrize("who", ["viewer", "superuser"])
def test_no_admin_page_shows_a_reset_link_or_a_webhook_secret(client, secrets, who, request):
    client.force_login(request.getfixturevalue(who))
    pages = list(admin_pages())
    assert len(pages) > 50

    leaks = []
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        leaks += [f"{url}: {secret[:12]}…" for secret in secrets if secret in body]

    assert not leaks, "Secrets shown in the admin:\n" + "\n".join(leaks)
    outbox = client.get(reverse("admin:jobs_outboundemail_changelist")).content.decode()
    assert "Reset your password" in outbox  # the e-mails are listed, without their links
