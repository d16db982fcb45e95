"""Read replicas (issue 14 item 5): with DATABASE_REPLICA_ALIASES set, reads of public GET
requests go to a replica and everything else to the primary. The replica here is
`replica1`, a test mirror of the primary database (config/settings.py): both aliases are
real connections to one server, so each query is seen on the alias that ran it."""

import pytest
from django.core.management import call_command
from django.db import connections
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from infra import db_routing
from infra.caching.versions import cache_namespace_bump
from shipping.models import PostalCode
from tests.shipping.factories import PostalCodeFactory

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "replica1"])

ZIP_URL = "/shipping/zipcode/consult/BRA/01310-100"


@pytest.fixture
def replicas(settings):
    settings.DATABASE_REPLICA_ALIASES = ["replica1"]
    settings.DATABASE_REPLICA_GRACE_SECONDS = 5
    yield settings
    db_routing._skip_until.clear()  # what this process learnt about the replica
    db_routing._replayed.clear()


class Queries:
    """The SQL each alias ran inside the block."""

    def __enter__(self):
        self.primary = CaptureQueriesContext(connections["default"])
        self.replica = CaptureQueriesContext(connections["replica1"])
        self.primary.__enter__()
        self.replica.__enter__()
        return self

    def __exit__(self, *exc):
        self.replica.__exit__(*exc)
        self.primary.__exit__(*exc)


def test_the_replica_is_a_separate_connection_to_the_same_data():
    PostalCodeFactory()
    assert connections["default"] is not connections["replica1"]
    assert PostalCode.objects.using("replica1").count() == 1


def test_a_public_get_reads_from_the_replica(api_client, replicas):
    PostalCodeFactory()
    from django.core.cache import cache

    cache.clear()  # forget the change just made (no grace period) and any cached answer
    with Queries() as queries:
        response = api_client.get(ZIP_URL)
    assert response.status_code == 200
    assert response.json()["data"]["city"] == "São Paulo"
    assert len(queries.replica) >= 1
    assert len(queries.primary) == 0


def test_a_replica_that_does_not_answer_leaves_the_reads_to_the_primary(
    api_client, replicas, monkeypatch
):
    from django.core.cache import cache
    from django.db import OperationalError

    PostalCodeFactory()
    cache.clear()

    attempts = []

    def refused():
        attempts.append(1)
        raise OperationalError("connection refused")

    for attempt in range(2):
        with Queries() as queries, monkeypatch.context() as patch:
            patch.setattr(connections["replica1"], "ensure_connection", refused)
            response = api_client.get(f"{ZIP_URL}?attempt={attempt}")
        assert response.status_code == 200
        assert response.json()["data"]["city"] == "São Paulo"
        assert len(queries.primary) >= 1
        assert len(queries.replica) == 0
        cache.clear()
    assert len(attempts) == 1  # then left alone for a few seconds


def test_without_replicas_configured_everything_reads_the_primary(api_client, settings):
    settings.DATABASE_REPLICA_ALIASES = []
    PostalCodeFactory()
    with Queries() as queries:
        assert api_client.get(ZIP_URL).status_code == 200
    assert len(queries.primary) >= 1
    assert len(queries.replica) == 0


def test_reads_go_to_the_primary_for_a_moment_after_a_change(api_client, replicas):
    PostalCodeFactory()  # its signal bumps the postal-codes namespace: a change
    with Queries() as queries:
        assert api_client.get(ZIP_URL).status_code == 200
    assert len(queries.replica) == 0
    assert len(queries.primary) >= 1


def test_the_grace_period_can_be_turned_off(api_client, replicas):
    replicas.DATABASE_REPLICA_GRACE_SECONDS = 0  # a cache timeout of 0 keeps nothing
    PostalCodeFactory()
    cache_namespace_bump("postal-codes")
    with Queries() as queries:
        assert api_client.get(ZIP_URL).status_code == 200
    assert len(queries.replica) >= 1


def test_a_public_write_and_what_it_reads_use_the_primary(api_client, replicas):
    from django.core.cache import cache

    cache.clear()
    with Queries() as queries:
        response = api_client.post(
            "/publics/customers/login",
            {"email": "nobody@example.com", "password": "wrong-password"},
            format="json",
        )
    assert response.status_code in (400, 401, 422)
    assert len(queries.replica) == 0


def test_the_admin_reads_and_writes_the_primary(client, replicas, django_user_model):
    from django.core.cache import cache

    admin = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-123456!")
    client.force_login(admin)
    cache.clear()
    with Queries() as queries:
        response = client.get(reverse("admin:shipping_postalcode_changelist"))
    assert response.status_code == 200
    assert len(queries.replica) == 0
    assert len(queries.primary) >= 1


def test_management_commands_use_the_primary(replicas):
    PostalCodeFactory()
    with Queries() as queries:
        call_command("check")
        assert PostalCode.objects.count() == 1
    assert len(queries.replica) == 0


def test_migrations_never_run_on_a_replica():
    from infra.db_routing import ReplicaRouter

    assert ReplicaRouter().allow_migrate("replica1", "shipping") is False
    assert ReplicaRouter().allow_migrate("default", "shipping") is True
