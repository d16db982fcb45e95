"""Operator commands of the store app."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from storefront.models import PaymentOption, SalesChannel

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
    option = PaymentOption.objects.get(name="Credit card (12x)")
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


def test_demo_admin_info_without_admin_explains_how_to_create_one(data_dir):
    out = StringIO()
    call_command("demo_admin_info", stdout=out)
    assert "createsuperuser" in out.getvalue()
