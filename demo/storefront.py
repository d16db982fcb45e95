"""Demo data of the store app: channel, payment options and a staff account."""

import secrets
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model

from demo import say_created
from storefront.models import PaymentOption, PaymentOptionKind, SalesChannel

DEMO_ADMIN_USERNAME = "admin"


def demo_admin_password_file() -> Path:
    return Path(settings.DATA_DIR) / "demo-admin-password.txt"


def _payment_option(stdout, kind: str, name: str, **terms) -> None:
    """The option of `kind` named `name`; the default of its kind when there is none yet."""
    first_of_kind = not PaymentOption.objects.filter(kind=kind, is_default=True).exists()
    option, created = PaymentOption.objects.get_or_create(
        kind=kind, name=name, defaults={**terms, "is_default": first_of_kind}
    )
    say_created(stdout, f"payment option {option}", created)


def seed(*, stdout) -> None:
    stdout.write("Store: sales channel, payment options, demo admin")
    channel, created = SalesChannel.objects.get_or_create(
        domain="127.0.0.1", defaults={"name": "Demo store (127.0.0.1)"}
    )
    say_created(stdout, f"sales channel {channel}", created)

    _payment_option(
        stdout,
        PaymentOptionKind.CASH_DISCOUNT,
        "Pix / boleto (5% de desconto)",
        discount_percentage=Decimal("5.00"),
    )
    _payment_option(
        stdout,
        PaymentOptionKind.INSTALLMENTS,
        "Cartão de crédito (12x)",
        max_installments=12,
        interest_free_installments=3,
        monthly_interest_rate=Decimal("1.99"),
        min_installment_value=Decimal("5.00"),
    )

    user_model = get_user_model()
    if not user_model.objects.filter(username=DEMO_ADMIN_USERNAME).exists():
        password = secrets.token_urlsafe(12)
        user_model.objects.create_superuser(
            username=DEMO_ADMIN_USERNAME, email="admin@store.example", password=password
        )
        password_file = demo_admin_password_file()
        password_file.parent.mkdir(parents=True, exist_ok=True)
        password_file.write_text(password + "\n")
        password_file.chmod(0o600)
        say_created(stdout, f"staff user '{DEMO_ADMIN_USERNAME}' (password in {password_file})")
