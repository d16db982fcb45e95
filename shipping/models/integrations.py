"""Carrier integrations: a shipping table of kind "live" priced by a freight aggregator's
API (Melhor Envio's shipment calculate; shipping/carriers.py), and the log of its calls."""

import os
import re

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from infra.models import ZERO, money_field, percentage_field

from ..secrets import decrypted, encrypted, masked
from .tables import ShippingTable, ShippingTableKind

_ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]*\Z")


class CarrierIntegration(models.Model):
    """How a live table asks a freight aggregator for prices. Its API token is typed in the
    admin (stored encrypted: shipping/secrets.py) or read from an environment variable."""

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
        blank=True,
        help_text=_(
            "Or the name of the environment variable holding the API token, e.g. "
            "MELHOR_ENVIO_TOKEN (used when no token is typed above)."
        ),
    )
    token_encrypted = models.TextField(_("API token (encrypted)"), blank=True, editable=False)
    # Counts the saves: part of the key of the carrier's cached answers, so a fixed
    # integration is asked again at once instead of its cached failure answering.
    revision = models.PositiveIntegerField(_("revision"), default=0, editable=False)
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

    def save(self, *args, **kwargs) -> None:
        self.revision += 1
        super().save(*args, **kwargs)

    def token(self) -> str:
        """The API token: the one typed in the admin, else the environment variable's; empty
        when there is none (or the stored one cannot be decrypted with SECRETS_KEY)."""
        if self.token_encrypted:
            return decrypted(self.token_encrypted) or ""
        return os.environ.get(self.token_variable, "") if self.token_variable else ""

    def token_set(self, token: str) -> None:
        """Store `token` encrypted (empty: forget it, the environment variable is used)."""
        self.token_encrypted = encrypted(token) if token else ""

    @property
    def token_unreadable(self) -> bool:
        return bool(self.token_encrypted) and decrypted(self.token_encrypted) is None

    def token_shown(self) -> str:
        """The stored token as staff see it: masked."""
        return masked(decrypted(self.token_encrypted) or "") if self.token_encrypted else ""

    @property
    def service_ids(self) -> frozenset[int]:
        return frozenset(int(part) for part in self.services.split(",") if part.strip())

    def clean(self) -> None:
        super().clean()
        errors = {}
        self.token_variable = (self.token_variable or "").strip()
        if self.token_variable and not _ENV_NAME.match(self.token_variable):
            errors["token_variable"] = _(
                "Enter a variable name (capital letters, digits and _), not the token: type "
                "the token in its own field."
            )
        elif not self.token_variable and not self.token_encrypted:
            errors["token_variable"] = _(
                "Type the API token, or the name of the environment variable holding it."
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
