"""Back-in-stock waves: staff's settings, restock episodes, the notices sent, opt-outs."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .fields import product_fk
from .interests import ProductInterest

SETTINGS_ROW = 1


class BackInStockSettings(models.Model):
    """The one row of staff's wave settings (missing: the defaults)."""

    wave_factor = models.PositiveSmallIntegerField(
        _("wave factor"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_(
            "Each wave e-mails at most the units available times this number of "
            "interests, oldest first."
        ),
    )
    wave_wait_hours = models.PositiveSmallIntegerField(
        _("hours between waves"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 30)],
        help_text=_("The next wave goes only after this wait, and only if stock remains."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("back-in-stock settings")
        verbose_name_plural = _("back-in-stock settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pk=SETTINGS_ROW), name="back_in_stock_settings_one_row"
            )
        ]

    def __str__(self) -> str:
        return str(_("Back-in-stock settings"))

    def save(self, *args, **kwargs):
        self.pk = SETTINGS_ROW
        super().save(*args, **kwargs)

    @classmethod
    def current(cls) -> "BackInStockSettings":
        """The saved row, else the defaults (unsaved: a read writes nothing)."""
        return cls.objects.filter(pk=SETTINGS_ROW).first() or cls(pk=SETTINGS_ROW)


class Restock(models.Model):
    """An episode of a product back in stock: open from the stock's return until it has
    been at 0 for BACK_IN_STOCK_COOLDOWN_HOURS (stock flapping stays one episode)."""

    product = product_fk("restocks")
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    waves = models.PositiveSmallIntegerField(_("waves"), default=0)
    next_wave_at = models.DateTimeField(_("next wave at"))
    zero_since = models.DateTimeField(_("out of stock since"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        verbose_name = _("restock")
        verbose_name_plural = _("restocks")
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["product"],
                condition=models.Q(ended_at__isnull=True),
                name="restock_one_open_per_product",
            )
        ]
        indexes = [models.Index(fields=["ended_at", "next_wave_at"], name="restock_due")]

    def __str__(self) -> str:
        return f"{self.product_id} @ {self.started_at:%Y-%m-%d %H:%M}"


class RestockNotice(models.Model):
    """One back-in-stock e-mail: one per interest and restock (and, as the interest is then
    notified, one per interest ever); `visits` counts its signed product link's clicks."""

    restock = models.ForeignKey(
        Restock, verbose_name=_("restock"), on_delete=models.CASCADE, related_name="notices"
    )
    interest = models.ForeignKey(
        ProductInterest,
        verbose_name=_("interest"),
        on_delete=models.CASCADE,
        related_name="restock_notices",
    )
    wave = models.PositiveSmallIntegerField(_("wave"))
    sent_at = models.DateTimeField(_("sent at"), default=timezone.now)
    visits = models.PositiveIntegerField(_("visits"), default=0)
    first_visit_at = models.DateTimeField(_("first visit at"), null=True, blank=True)

    class Meta:
        verbose_name = _("back-in-stock notice")
        verbose_name_plural = _("back-in-stock notices")
        ordering = ["-sent_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["interest", "restock"], name="restock_notice_once_per_interest"
            )
        ]

    def __str__(self) -> str:
        return f"{self.interest_id} / {self.restock_id}"


class BackInStockOptOut(models.Model):
    """An e-mail address (lower case) unsubscribed from back-in-stock notices: its interests
    registered before `created_at` are never e-mailed (a later registration asks anew)."""

    email = models.CharField(_("email"), max_length=254, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("back-in-stock opt-out")
        verbose_name_plural = _("back-in-stock opt-outs")

    def __str__(self) -> str:
        return self.email
