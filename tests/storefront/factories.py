"""factory_boy factories of the store app."""

from decimal import Decimal
from functools import lru_cache

import factory
from django.contrib.auth.hashers import make_password

from storefront.models import Customer, PaymentOption, PaymentOptionKind, SalesChannel


class SalesChannelFactory(factory.django.DjangoModelFactory):
    """An active, non-default channel on its own domain."""

    class Meta:
        model = SalesChannel

    name = factory.Sequence(lambda n: f"Channel {n}")
    domain = factory.Sequence(lambda n: f"shop{n}.example.com")
    active = True
    is_default = False


class PaymentOptionFactory(factory.django.DjangoModelFactory):
    """A cash-discount option (5% off); `installments=True` makes an installment plan
    (12x, 3 interest-free, 1.99%/month, minimum installment 5.00)."""

    class Meta:
        model = PaymentOption

    kind = PaymentOptionKind.CASH_DISCOUNT
    name = factory.Sequence(lambda n: f"Payment option {n}")
    active = True
    is_default = False
    discount_percentage = Decimal("5.00")

    class Params:
        installments = factory.Trait(
            kind=PaymentOptionKind.INSTALLMENTS,
            discount_percentage=Decimal("0"),
            max_installments=12,
            interest_free_installments=3,
            monthly_interest_rate=Decimal("1.99"),
            min_installment_value=Decimal("5.00"),
        )


CUSTOMER_PASSWORD = "correct horse battery staple 42"


@lru_cache(maxsize=1)
def customer_password_hash() -> str:
    # Hashed once per test run: the hasher is deliberately slow.
    return make_password(CUSTOMER_PASSWORD)


class CustomerFactory(factory.django.DjangoModelFactory):
    """An active customer whose password is CUSTOMER_PASSWORD."""

    class Meta:
        model = Customer

    name = factory.Faker("name")
    email = factory.Sequence(lambda n: f"customer{n}@example.com")
    active = True
    password = factory.LazyFunction(customer_password_hash)
