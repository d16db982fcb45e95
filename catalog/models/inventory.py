"""Storages (stock locations), stock per product and storage, cargo types."""

from typing import Self

from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.models import (
    ALPHA_3,
    ActiveQuerySet,
    ShownByName,
    TimestampedModel,
    coordinate_constraints,
    degrees_field,
    one_default,
)

from .fields import product_fk

# Created by migration 0004 (again on demand after a flush): a product's cargo type by default.
DEFAULT_CARGO_TYPE_NAME = "Regular"


class CargoTypeQuerySet(models.QuerySet):
    def default_id(self) -> int:
        """The default cargo type's id (created when missing: a product can always be saved)."""
        found = self.filter(is_default=True).values_list("pk", flat=True).first()
        if found is not None:
            return found
        cargo_type, _created = self.update_or_create(
            name=DEFAULT_CARGO_TYPE_NAME, defaults={"is_default": True}
        )
        return cargo_type.pk


class CargoType(ShownByName, TimestampedModel):
    """A kind of cargo (regular, fragile, oversized, ...); shipping tables serve some of them."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    is_default = models.BooleanField(
        _("default"),
        default=False,
        help_text=_(
            "Given to every product that names no cargo type (exactly one cargo type is "
            "the default)."
        ),
    )

    objects = CargoTypeQuerySet.as_manager()

    class Meta:
        ordering = ["-is_default", "name", "id"]
        verbose_name = _("cargo type")
        verbose_name_plural = _("cargo types")
        constraints = [one_default("one_default_cargo_type")]


class Storage(TimestampedModel):
    """A place stock ships from (warehouse, store), with its address and coordinates."""

    code = models.SlugField(_("code"), max_length=50, unique=True)
    corporate_name = models.CharField(_("corporate name"), max_length=150)
    trade_name = models.CharField(_("trade name"), max_length=150)
    email = models.EmailField(_("email"), max_length=254, blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    document = models.CharField(
        _("document"), max_length=20, blank=True, help_text=_("Company registration (CNPJ).")
    )
    country_code = models.CharField(
        _("country code"), max_length=3, default="BRA", validators=[ALPHA_3]
    )
    state_code = models.CharField(
        _("state code"), max_length=10, help_text=_("ISO 3166-2 code, e.g. BR-SP.")
    )
    zip_code = models.CharField(
        _("zip code"), max_length=12, help_text=_("Postal code, e.g. 01310-100.")
    )
    city = models.CharField(_("city"), max_length=100)
    address = models.CharField(_("address"), max_length=200)
    district = models.CharField(_("district"), max_length=100, blank=True)
    number = models.CharField(_("number"), max_length=20, blank=True)
    complement = models.CharField(_("complement"), max_length=100, blank=True)
    latitude = degrees_field(_("latitude"), 90)
    longitude = degrees_field(_("longitude"), 180)
    active = models.BooleanField(_("active"), default=True)
    observation = models.TextField(_("observation"), blank=True, default="")
    trade_policy_exceptions = models.ManyToManyField(
        "catalog.TradePolicy",
        verbose_name=_("trade policy exceptions"),
        blank=True,
        related_name="excluded_storages",
        help_text=_("Trade policies this storage does not serve."),
    )
    additional_time = models.PositiveSmallIntegerField(
        _("additional time"),
        default=0,
        help_text=_("Extra days this storage needs before shipping."),
    )
    priority = models.IntegerField(
        _("priority"),
        default=0,
        help_text=_("Preferred order (highest first) when a postal code has no coordinates."),
    )
    cutoff_time = models.TimeField(
        _("cut-off time"),
        null=True,
        blank=True,
        help_text=_(
            "Orders placed before this time (store time zone) on a dispatch day leave that "
            "day. Empty: until midnight."
        ),
    )
    dispatches_on_saturdays = models.BooleanField(
        _("dispatches on Saturdays"),
        default=False,
        help_text=_("Never on Sundays or on the holidays of its state and city."),
    )

    objects = ActiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("storage")
        verbose_name_plural = _("storages")
        ordering = ["-priority", "trade_name", "id"]
        constraints = coordinate_constraints("storage")

    def __str__(self) -> str:
        return f"{self.trade_name} ({self.city})"

    @property
    def name(self) -> str:
        return self.trade_name


class StockQuerySet(models.QuerySet):
    def in_active_storages(self) -> Self:
        return self.filter(storage__active=True)


class Stock(TimestampedModel):
    """Units of a product in a storage: available to sell, and reserved by open orders."""

    product = product_fk("stocks")
    storage = models.ForeignKey(
        Storage, verbose_name=_("storage"), on_delete=models.CASCADE, related_name="stocks"
    )
    available = models.PositiveIntegerField(_("available"), default=0)
    reserved = models.PositiveIntegerField(_("reserved"), default=0)

    objects = StockQuerySet.as_manager()

    class Meta:
        verbose_name = _("stock")
        verbose_name_plural = _("stocks")
        ordering = ["product_id", "storage_id"]
        constraints = [
            models.UniqueConstraint(fields=["product", "storage"], name="stock_unique_per_storage")
        ]

    def __str__(self) -> str:
        return _("%(storage)s: %(available)d available") % {
            "storage": self.storage,
            "available": self.available,
        }
