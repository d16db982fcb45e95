"""Carrier integrations: a shipping table of kind "live" priced by a freight aggregator's
API (Melhor Envio's shipment calculate; shipping/carriers.py), and the log of its calls."""

import re

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from infra.models import ZERO, money_field, percentage_field

from .tables import ShippingTable, ShippingTableKind

_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*\Z")


class CarrierIntegration(models.Model):
    """How a live table asks a freight aggregator for prices (its token stays in the
    environment: the database keeps only the variable's name)."""

    table = models.OneToOneField(
        ShippingTable,
        verbose_name=_("shipping table"),
        on_delete=models.CASCADE,
        related_name="integration",
        limit_choices_to={"kind": ShippingTableKind.LIVE},
    )
    base_url = models.URLField(
        _("base URL"),
        default="https://www.melhorenvio.com.br",
        help_text=_("The API's address, e.g. https://sandbox.melhorenvio.com.br for tests."),
    )
    token_variable = models.CharField(
        _("token variable"),
        max_length=100,
        help_text=_(
            "Name of the environment variable holding the API token, e.g. MELHOR_ENVIO_TOKEN "
            "(the token itself is never stored)."
        ),
    )
    services = models.CharField(
        _("enabled services"),
        max_length=100,
        blank=True,
        help_text=_("The service ids to offer, comma-separated, e.g. 1,2,17. Empty: all."),
    )
    markup_percent = percentage_field(
        _("markup (%)"), default=ZERO, help_text=_("Added to the carrier's price.")
    )
    markup_fixed = money_field(
        _("markup (fixed)"), default=ZERO, help_text=_("Added to the carrier's price, in BRL.")
    )
    extra_days = models.PositiveSmallIntegerField(
        _("extra handling days"),
        default=0,
        help_text=_("Days added before the carrier's delivery range."),
    )
    calls_per_minute = models.PositiveIntegerField(
        _("calls per minute"),
        default=250,  # Melhor Envio's limit per account
        help_text=_("Most calls to the API per minute, all processes together."),
    )

    class Meta:
        verbose_name = _("carrier integration")
        verbose_name_plural = _("carrier integrations")
        ordering = ["table_id"]

    def __str__(self) -> str:
        return str(self.table) if self.table_id else str(self._meta.verbose_name)

    @property
    def service_ids(self) -> frozenset[int]:
        return frozenset(int(part) for part in self.services.split(",") if part.strip())

    def clean(self) -> None:
        super().clean()
        errors = {}
        self.token_variable = (self.token_variable or "").strip()
        if not _ENV_NAME.match(self.token_variable):
            errors["token_variable"] = _(
                "Enter a variable name (capital letters, digits and _), not the token."
            )
        parts = [part.strip() for part in (self.services or "").split(",") if part.strip()]
        if not all(part.isdigit() for part in parts):
            errors["services"] = _("Enter service ids separated by commas, e.g. 1,2,17.")
        else:
            self.services = ",".join(parts)
        if self.table_id and self.table.kind != ShippingTableKind.LIVE:
            errors["table"] = _("Choose a shipping table of the live kind.")
        if errors:
            raise ValidationError(errors)


class CallStatus(models.TextChoices):
    OK = "ok", _("Answered")
    ERROR = "error", _("Failed")
    TIMEOUT = "timeout", _("Timed out")


class CarrierCall(models.Model):
    """One call to a carrier's API (a quote's or the admin's connection test)."""

    created_at = models.DateTimeField(_("when"), default=timezone.now, db_index=True)
    integration = models.ForeignKey(
        CarrierIntegration,
        verbose_name=_("carrier integration"),
        on_delete=models.CASCADE,
        related_name="calls",
    )
    latency_ms = models.PositiveIntegerField(_("latency (ms)"))
    status = models.CharField(_("status"), max_length=10, choices=CallStatus.choices)
    http_status = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    options = models.PositiveSmallIntegerField(_("options"), default=0)
    error = models.CharField(_("error"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("carrier call")
        verbose_name_plural = _("carrier calls")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.integration_id} {self.created_at:%Y-%m-%d %H:%M:%S} {self.status}"
