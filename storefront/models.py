"""The store itself: sales channels, payment options, customer accounts and the
database fallback of the sign-in rate limits."""

from typing import TYPE_CHECKING

from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from infra.models import (
    ZERO,
    ActiveQuerySet,
    TimestampedModel,
    money_field,
    one_default,
    percentage_field,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _is_default(help_text: "StrOrPromise") -> models.BooleanField:
    return models.BooleanField(_("default"), default=False, help_text=help_text)


class SalesChannel(TimestampedModel):
    """A storefront domain of this store. Requests are matched to one by their host."""

    name = models.CharField(_("name"), max_length=100)
    domain = models.CharField(
        _("domain"),
        max_length=253,
        unique=True,
        help_text=_("Host name the storefront is served on, without port (e.g. shop.example.com)."),
    )
    active = models.BooleanField(_("active"), default=True)
    is_default = _is_default(_("Used when no channel's domain matches the request's host."))

    objects = ActiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("sales channel")
        verbose_name_plural = _("sales channels")
        ordering = ["-is_default", "name"]
        constraints = [one_default("one_default_sales_channel")]

    def __str__(self) -> str:
        return self.name if self.domain in self.name else f"{self.name} ({self.domain})"

    def clean(self):
        self.domain = (self.domain or "").strip().lower().rstrip(".")
        if ":" in self.domain or "/" in self.domain:
            raise ValidationError({"domain": _("Enter a host name only, without scheme or port.")})


class PaymentOptionKind(models.TextChoices):
    CASH_DISCOUNT = "cash_discount", _("Cash discount")
    INSTALLMENTS = "installments", _("Installments")


class PaymentOption(TimestampedModel):
    """A way to pay with its terms: a cash discount or an installment plan."""

    kind = models.CharField(_("kind"), max_length=20, choices=PaymentOptionKind.choices)
    name = models.CharField(_("name"), max_length=100)
    active = models.BooleanField(_("active"), default=True)
    is_default = _is_default(
        _("Used by payment conditions when the request names no option of this kind.")
    )
    discount_percentage = percentage_field(
        _("discount percentage"),
        default=ZERO,
        help_text=_("Cash discount, in percent of the value (cash-discount options)."),
    )
    max_installments = models.PositiveSmallIntegerField(
        _("max installments"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text=_("Largest number of installments offered (installment options)."),
    )
    min_installment_value = money_field(
        _("min installment value"),
        default=ZERO,
        help_text=_(
            "An installment count is offered only while each installment is at least this."
        ),
    )
    interest_free_installments = models.PositiveSmallIntegerField(
        _("interest free installments"),
        default=1,
        validators=[MaxValueValidator(99)],
        help_text=_("Installment counts up to this one carry no interest."),
    )
    monthly_interest_rate = percentage_field(
        _("monthly interest rate"),
        max_digits=6,
        decimal_places=4,
        default=ZERO,
        help_text=_("Monthly compound interest rate in percent (e.g. 1.99), Tabela Price."),
    )

    objects = ActiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("payment option")
        verbose_name_plural = _("payment options")
        ordering = ["kind", "name"]
        constraints = [
            one_default("one_default_payment_option_per_kind", fields=("kind",)),
            models.CheckConstraint(
                condition=models.Q(discount_percentage__gte=0, discount_percentage__lte=100),
                name="payment_option_discount_0_100",
            ),
            models.CheckConstraint(
                condition=models.Q(max_installments__gte=1),
                name="payment_option_max_installments_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(monthly_interest_rate__gte=0),
                name="payment_option_rate_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()})"

    def clean(self):
        if (
            self.kind == PaymentOptionKind.INSTALLMENTS
            and self.interest_free_installments > self.max_installments
        ):
            message = _("Cannot exceed the maximum number of installments.")
            raise ValidationError({"interest_free_installments": message})


class CustomerQuerySet(ActiveQuerySet):
    def by_email(self, email: str):
        return self.filter(email__iexact=email.strip())


class Customer(TimestampedModel):
    """A storefront account (separate from staff users, who sign in to the admin)."""

    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("email"), max_length=254)
    password = models.CharField(_("password"), max_length=128, editable=False)
    active = models.BooleanField(_("active"), default=True)
    last_login = models.DateTimeField(_("last login"), null=True, blank=True, editable=False)

    objects = CustomerQuerySet.as_manager()

    class Meta:
        verbose_name = _("customer")
        verbose_name_plural = _("customers")
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(Lower("email"), name="customer_email_unique_ci")]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"

    def set_password(self, raw_password: str) -> None:
        self.password = make_password(raw_password)

    # A signed-in customer is the API's `request.user`: DRF's permission checks read these.
    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def is_anonymous(self) -> bool:
        return False


class IdempotencyRecord(models.Model):
    """The first answer to a public POST per `Idempotency-Key` and caller (empty
    `status_code`: still running); storefront/idempotency.py."""

    key = models.CharField(_("key"), max_length=255)
    caller = models.CharField(
        _("caller"), max_length=100, help_text=_("customer:<id> when signed in, else ip:<address>.")
    )
    fingerprint = models.CharField(
        _("request fingerprint"),
        max_length=64,
        help_text=_("SHA-256 of the endpoint and the JSON body: another body is refused."),
    )
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True, blank=True)
    content_type = models.CharField(_("content type"), max_length=100, blank=True)
    body = models.BinaryField(_("body"), blank=True, default=b"")
    created_at = models.DateTimeField(_("created at"))
    locked_until = models.DateTimeField(
        _("locked until"),
        help_text=_("A request still in flight after this moment is taken to have died."),
    )
    expires_at = models.DateTimeField(_("expires at"), db_index=True)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(fields=["key", "caller"], name="idempotency_key_per_caller")
        ]

    def __str__(self) -> str:
        return f"{self.caller} {self.key}"


class ThrottleCounter(models.Model):
    """A sign-in rate-limit counter kept in the database while the shared cache is down:
    `count` hits in the window ending at `window_end` (Unix time)."""

    key = models.CharField(_("key"), max_length=255, primary_key=True)
    count = models.PositiveIntegerField(_("count"), default=0)
    window_end = models.FloatField(_("window end"), db_index=True)

    class Meta:
        verbose_name = _("throttle counter")
        verbose_name_plural = _("throttle counters")

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
