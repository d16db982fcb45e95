import secrets
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model

from demo import load_data, say_created
from storefront.models import PaymentOption, SalesChannel

DATA = load_data("storefront")
DEMO_ADMIN_USERNAME = "admin"


def demo_admin_password_file() -> Path:
    return Path(settings.DATA_DIR) / "demo-admin-password.txt"


def seed(*, stdout) -> None:
    stdout.write("Store: sales channel, payment options, demo admin")
    spec = DATA["sales_channel"]
    channel, created = SalesChannel.objects.get_or_create(
        domain=spec["domain"], defaults={"name": spec["name"]}
    )
    say_created(stdout, f"sales channel {channel}", created)

    for option in DATA["payment_options"]:
        terms = dict(option)
        kind, name = terms.pop("kind"), terms.pop("name")
        terms = {k: Decimal(v) if isinstance(v, str) else v for k, v in terms.items()}
        # the default of its kind when there is none yet
        first_of_kind = not PaymentOption.objects.filter(kind=kind, is_default=True).exists()
        payment, created = PaymentOption.objects.get_or_create(
            kind=kind, name=name, defaults={**terms, "is_default": first_of_kind}
        )
        say_created(stdout, f"payment option {payment}", created)

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
