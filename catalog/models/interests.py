"""Product interests: "notify me when back in stock" and "price on request"."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from infra.models import TimestampedModel

from .fields import optional_fk, product_fk


class InterestOrigin(models.TextChoices):
    NOTIFY_ME = "notify-me", _("Notify me (back in stock)")
    ON_REQUEST = "on-request", _("Price on request")


class InterestStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    NOTIFIED = "notified", _("Notified (back in stock e-mail sent)")
    REPLIED = "replied", _("Replied by staff")


class ProductInterestQuerySet(models.QuerySet):
    def pending(self):
        return self.filter(status=InterestStatus.PENDING)

    def awaiting_stock(self):
        return self.pending().filter(origin=InterestOrigin.NOTIFY_ME)


class ProductInterest(TimestampedModel):
    product = product_fk("interests")
    origin = models.CharField(_("origin"), max_length=20, choices=InterestOrigin.choices)
    name = models.CharField(_("name"), max_length=50)
    email = models.EmailField(_("email"), max_length=50)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    message = models.CharField(_("message"), max_length=300, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=InterestStatus.choices, default=InterestStatus.PENDING
    )
    notified_at = models.DateTimeField(_("notified at"), null=True, blank=True)
    reply = models.TextField(
        _("reply"), blank=True, help_text=_("Staff answer e-mailed to the customer.")
    )
    replied_at = models.DateTimeField(_("replied at"), null=True, blank=True)
    replied_by = optional_fk(settings.AUTH_USER_MODEL, _("replied by"), "+", models.SET_NULL)

    objects = ProductInterestQuerySet.as_manager()

    class Meta:
        verbose_name = _("product interest")
        verbose_name_plural = _("product interests")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "origin"], name="interest_status_origin")]
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                "product",
                "origin",
                condition=models.Q(status="pending"),
                name="interest_one_pending_per_email_product_origin",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}> - {self.get_origin_display()}"
