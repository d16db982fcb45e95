import pytest
from django.contrib.auth import get_user_model

from tests.jobs.support import DATABASE_TASKS
from webhooks.models import Endpoint

from .receiver import Receiver

SECRET = "whsec_test-secret"


@pytest.fixture(autouse=True)
def development_rule(settings):
    """The development/test rule (what HTTPS=0 sets): plain http and loopback receivers are
    allowed, so the local receiver can be used. Tests of the production rule set both off."""
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.TASKS = DATABASE_TASKS
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def receiver():
    server = Receiver(secret=SECRET).start()
    yield server
    server.stop()


@pytest.fixture
def endpoint(receiver):
    return Endpoint.objects.create(
        url=receiver.url,
        secret=SECRET,
        events=["comment.created", "comment.replied", "interest.created", "review.created",
                "review.approved", "product.back_in_stock"],
    )  # fmt: skip


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client
