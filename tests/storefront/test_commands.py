"""Operator commands of the store app."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from storefront.models import IdempotencyRecord, PaymentOption, SalesChannel

pytestmark = pytest.mark.django_db


@pytest.fixture
def data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    return tmp_path


def test_migration_creates_the_default_sales_channel():
    assert SalesChannel.objects.filter(is_default=True, active=True).count() == 1


def test_seed_demo_is_idempotent(data_dir, media_root):
    call_command("seed_demo", stdout=StringIO())
    counts = (PaymentOption.objects.count(), SalesChannel.objects.count())
    call_command("seed_demo", stdout=StringIO())
    assert (PaymentOption.objects.count(), SalesChannel.objects.count()) == counts
    assert get_user_model().objects.filter(username="admin", is_superuser=True).count() == 1


def test_seed_demo_never_overwrites_what_staff_changed(data_dir, media_root):
    call_command("seed_demo", stdout=StringIO())
    option = PaymentOption.objects.get(name="Cartão de crédito (12x)")
    option.max_installments = 6
    option.save()
    call_command("seed_demo", stdout=StringIO())
    option.refresh_from_db()
    assert option.max_installments == 6


def test_seed_demo_gives_the_admin_a_random_password_once(data_dir, media_root):
    call_command("seed_demo", stdout=StringIO())
    password = (data_dir / "demo-admin-password.txt").read_text().strip()
    assert len(password) >= 12
    assert get_user_model().objects.get(username="admin").check_password(password)
    call_command("seed_demo", stdout=StringIO())
    assert (data_dir / "demo-admin-password.txt").read_text().strip() == password
    out = StringIO()
    call_command("demo_admin_info", stdout=out)
    assert password in out.getvalue()


def test_demo_admin_info_never_shows_a_password_staff_changed(data_dir, media_root):
    call_command("seed_demo", stdout=StringIO())
    password = (data_dir / "demo-admin-password.txt").read_text().strip()
    admin = get_user_model().objects.get(username="admin")
    admin.set_password("a password of my own")
    admin.save()

    out = StringIO()
    call_command("demo_admin_info", stdout=out)

    assert password not in out.getvalue()
    assert "changepassword admin" in out.getvalue()


def test_demo_admin_info_without_admin_explains_how_to_create_one(data_dir):
    out = StringIO()
    call_command("demo_admin_info", stdout=out)
    assert "createsuperuser" in out.getvalue()


def idempotency_record(key: str, expires_in: timedelta) -> IdempotencyRecord:
    now = timezone.now()
    return IdempotencyRecord.objects.create(
        key=key,
        caller="ip:127.0.0.1",
        fingerprint="f" * 64,
        status_code=201,
        created_at=now,
        locked_until=now,
        expires_at=now + expires_in,
    )


def test_purge_idempotency_records_deletes_only_expired_ones():
    idempotency_record("old", timedelta(seconds=-1))
    idempotency_record("live", timedelta(hours=1))
    out = StringIO()
    call_command("purge_idempotency_records", stdout=out)
    assert out.getvalue().strip() == "1 expired idempotency record(s) deleted."
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["live"]


def test_purge_idempotency_records_dry_run_deletes_nothing():
    idempotency_record("old", timedelta(seconds=-1))
    out = StringIO()
    call_command("purge_idempotency_records", "--dry-run", stdout=out)
    assert out.getvalue().strip() == "1 expired idempotency record(s) would be deleted."
    assert IdempotencyRecord.objects.count() == 1
