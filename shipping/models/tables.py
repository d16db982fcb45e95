"""Carriers, their shipping tables (rows of prices and days per range), pickup points."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.models import (
    ALPHA_3,
    ZERO,
    ActiveQuerySet,
    ShownByName,
    TimestampedModel,
    coordinate_constraints,
    degrees_field,
    money_field,
    percentage_field,
    weight_field,
)
from infra.numbers import money_text, range_text, weight_text

from ..countries import state_code_get
from ..postal import MAX_CODE_LENGTH, InvalidPostalCode, format_postal_code, normalize_postal_code
from .postal_codes import UNKNOWN_COUNTRY, country_alpha_3_clean

MAX_WEIGHT = Decimal("9999999.999")  # kilograms: the upper bound of a row without a limit
MAX_ORDER_VALUE = Decimal("9999999999.99")  # the upper bound of a row without a value limit


class Carrier(ShownByName, TimestampedModel):
    """A company that delivers (or the store itself for pickups)."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    tracking_url_template = models.CharField(
        _("tracking url template"),
        max_length=500,
        blank=True,
        help_text=_(
            "Tracking page, with {code} where the tracking code goes, e.g. "
            "https://tracking.example.com/?code={code}."
        ),
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("carrier")
        verbose_name_plural = _("carriers")
        ordering = ["name", "id"]

    def clean(self):
        super().clean()
        url = (self.tracking_url_template or "").strip()
        if url and not url.startswith(("https://", "http://")):
            raise ValidationError(
                {"tracking_url_template": _("Start the address with https:// (or http://).")}
            )
        self.tracking_url_template = url


class ShippingTableKind(models.TextChoices):
    DELIVERY = "delivery", _("Delivery to the address")
    PICKUP = "pickup", _("Pickup at a pickup point")
    LIVE = "live", _("Live quotes from a carrier integration")


class ShippingTableQuerySet(models.QuerySet):
    def active(self) -> "ShippingTableQuerySet":
        return self.filter(active=True, carrier__active=True)


class ShippingTable(TimestampedModel):
    """A carrier's price table for one country: rows of prices and days per range."""

    label = models.CharField(
        _("label"), max_length=100, help_text=_("Shown to the customer, e.g. SEDEX.")
    )
    carrier = models.ForeignKey(
        Carrier, verbose_name=_("carrier"), on_delete=models.PROTECT, related_name="tables"
    )
    kind = models.CharField(
        _("kind"),
        max_length=10,
        choices=ShippingTableKind.choices,
        default=ShippingTableKind.DELIVERY,
    )
    country = models.CharField(
        _("country"),
        max_length=3,
        default="BRA",
        validators=[ALPHA_3],
        help_text=_("Destination country (ISO alpha-3) of the rows' postal codes."),
    )
    integration_code = models.CharField(_("integration code"), max_length=50, blank=True)
    external_shipping_code = models.CharField(
        _("external shipping code"), max_length=50, blank=True
    )
    active = models.BooleanField(_("active"), default=True)
    delivers_on_saturdays = models.BooleanField(
        _("delivers on Saturdays"),
        default=False,
        help_text=_("Saturdays count as delivery days in the quote's dates."),
    )
    storages = models.ManyToManyField(
        "catalog.Storage",
        verbose_name=_("storages"),
        blank=True,
        related_name="shipping_tables",
        help_text=_("Storages the table ships from. Empty: every storage."),
    )
    cargo_types = models.ManyToManyField(
        "catalog.CargoType",
        verbose_name=_("cargo types"),
        blank=True,
        related_name="shipping_tables",
        help_text=_("Cargo types the table accepts. Empty: every cargo type."),
    )

    objects = ShippingTableQuerySet.as_manager()

    class Meta:
        verbose_name = _("shipping table")
        verbose_name_plural = _("shipping tables")
        ordering = ["carrier__name", "label", "id"]

    def __str__(self) -> str:
        return f"{self.label} ({self.carrier.name})" if self.carrier_id else self.label

    def clean(self):
        super().clean()
        country = country_alpha_3_clean(self.country)
        if country is None:
            raise ValidationError({"country": UNKNOWN_COUNTRY})
        self.country = country.alpha_3


# A row's ranges (with its table, its unique key), value and days, as the import reads them
# and the quote fetches them; its variables' columns (extra charges, 0: not charged).
RANGE_FIELDS = (
    "initial_zipcode",
    "final_zipcode",
    "initial_weight",
    "final_weight",
    "initial_price",
    "final_price",
)
ROW_COLUMNS = (*RANGE_FIELDS, "shipping_value", "begin_shipping_time", "end_shipping_time")
VARIABLE_FIELDS = ("extra_kg_value", "extra_kg_threshold", "order_value_percentage", "fixed_fee")


class ShippingRowQuerySet(models.QuerySet):
    def covering(self, postal_code: str):
        """Rows whose postal-code range holds `postal_code` (normalized)."""
        return self.filter(initial_zipcode__lte=postal_code, final_zipcode__gte=postal_code)


class ShippingRow(TimestampedModel):
    """One price of a table: for a postal-code, weight and order-value range (all inclusive)."""

    table = models.ForeignKey(
        ShippingTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="rows"
    )
    initial_zipcode = models.CharField(_("initial zipcode"), max_length=MAX_CODE_LENGTH)
    final_zipcode = models.CharField(_("final zipcode"), max_length=MAX_CODE_LENGTH)
    initial_weight = weight_field(_("initial weight"), default=ZERO)
    final_weight = weight_field(_("final weight"), default=MAX_WEIGHT)
    initial_price = money_field(_("initial order value"), default=ZERO)
    final_price = money_field(_("final order value"), default=MAX_ORDER_VALUE)
    shipping_value = money_field(_("shipping value"))
    begin_shipping_time = models.PositiveSmallIntegerField(
        _("begin shipping time"), help_text=_("Fewest days to deliver.")
    )
    end_shipping_time = models.PositiveSmallIntegerField(
        _("end shipping time"), help_text=_("Most days to deliver.")
    )
    # Variables: extra charges added to the shipping value (0 = not charged); the API
    # lists the non-zero ones in the row's `variables`.
    extra_kg_value = money_field(
        _("value per extra kg"),
        default=ZERO,
        help_text=_("Charged for each kilogram (or part of one) above the threshold."),
    )
    extra_kg_threshold = weight_field(
        _("extra kg threshold"),
        default=ZERO,
        help_text=_("Kilograms included in the shipping value."),
    )
    order_value_percentage = percentage_field(
        _("order value percentage"),
        default=ZERO,
        help_text=_("Percentage of the order value added to the shipping value."),
    )
    fixed_fee = money_field(
        _("fixed fee"),
        default=ZERO,
        help_text=_("Amount added to the shipping value (e.g. insurance, handling)."),
    )

    objects = ShippingRowQuerySet.as_manager()

    class Meta:
        verbose_name = _("shipping row")
        verbose_name_plural = _("shipping rows")
        ordering = ["table_id", "initial_zipcode", "initial_weight", "initial_price", "id"]
        constraints = [
            # Also the natural key of the CSV import (upsert) and the index of the
            # postal-code range lookup (table, initial_zipcode, ...).
            models.UniqueConstraint(
                fields=["table", *RANGE_FIELDS], name="shipping_row_unique_range"
            ),
            models.CheckConstraint(
                condition=models.Q(initial_zipcode__lte=models.F("final_zipcode")),
                name="shipping_row_zipcode_range",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    initial_weight__gte=0, final_weight__gte=models.F("initial_weight")
                ),
                name="shipping_row_weight_range",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    initial_price__gte=0, final_price__gte=models.F("initial_price")
                ),
                name="shipping_row_price_range",
            ),
            models.CheckConstraint(
                condition=models.Q(end_shipping_time__gte=models.F("begin_shipping_time")),
                name="shipping_row_days_range",
            ),
            models.CheckConstraint(
                condition=models.Q(shipping_value__gte=0), name="shipping_row_value_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(
                    extra_kg_value__gte=0,
                    extra_kg_threshold__gte=0,
                    order_value_percentage__gte=0,
                    order_value_percentage__lte=100,
                    fixed_fee__gte=0,
                ),
                name="shipping_row_variables_in_range",
            ),
        ]
        indexes = [
            models.Index(fields=["table", "final_zipcode"], name="shipping_row_final_zip"),
        ]

    def __str__(self) -> str:
        """ "01000-000 to 09999-999, 0,000 to 1,000 kg: R$ 18,90" (reads the table's country:
        select the table with the row). "No limit" is an open range, never 9999999.999."""
        weights = range_text(self.initial_weight, self.final_weight, weight_text, MAX_WEIGHT)
        return f"{self.zipcode_range()}, {weights} kg: {money_text(self.shipping_value)}"

    def zipcode_range(self) -> str:
        country = self.table.country if self.table_id else "BRA"
        return gettext("%(start)s to %(end)s") % {
            "start": format_postal_code(country, self.initial_zipcode),
            "end": format_postal_code(country, self.final_zipcode),
        }

    def clean(self):
        super().clean()
        country = self.table.country if self.table_id else "BRA"
        errors = {}
        for field in ("initial_zipcode", "final_zipcode"):
            try:
                setattr(self, field, normalize_postal_code(country, getattr(self, field) or ""))
            except InvalidPostalCode as exc:
                errors[field] = str(exc)
        below = {
            "final_zipcode": _("The final postal code cannot be below the initial one."),
            "final_weight": _("The final weight cannot be below the initial one."),
            "final_price": _("The final order value cannot be below the initial one."),
            "end_shipping_time": _("The final days cannot be below the initial one."),
        }
        lows = ("initial_zipcode", "initial_weight", "initial_price", "begin_shipping_time")
        for low, (high, message) in zip(lows, below.items(), strict=True):
            low_value, high_value = getattr(self, low), getattr(self, high)
            if low in errors or low_value is None or high_value is None:
                continue
            if low_value > high_value:
                errors[high] = message
        if errors:
            raise ValidationError(errors)


class PickupType(models.TextChoices):
    STORE = "store", _("Store")
    LOCKER = "locker", _("Locker")
    PARTNER = "partner", _("Partner point")


class Pickup(ShownByName, TimestampedModel):
    """A place where the customer collects the order (listed by a pickup table's options)."""

    table = models.ForeignKey(
        ShippingTable,
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="pickups",
        limit_choices_to={"kind": ShippingTableKind.PICKUP},
    )
    type = models.CharField(
        _("type"), max_length=20, choices=PickupType.choices, default=PickupType.STORE
    )
    name = models.CharField(_("name"), max_length=100)
    address = models.CharField(_("address"), max_length=200)
    number = models.CharField(_("number"), max_length=20, blank=True)
    complement = models.CharField(_("complement"), max_length=100, blank=True)
    district = models.CharField(_("district"), max_length=100, blank=True)
    city = models.CharField(_("city"), max_length=100)
    state_code = models.CharField(
        _("state code"), max_length=10, help_text=_("ISO 3166-2 code, e.g. BR-SP.")
    )
    country_code = models.CharField(
        _("country code"), max_length=3, default="BRA", validators=[ALPHA_3]
    )
    zip_code = models.CharField(
        _("zip code"), max_length=MAX_CODE_LENGTH, help_text=_("Postal code.")
    )
    latitude = degrees_field(_("latitude"), 90)
    longitude = degrees_field(_("longitude"), 180)
    opening_hours = models.CharField(
        _("opening hours"),
        max_length=300,
        blank=True,
        help_text=_("e.g. Mon-Fri 9:00-18:00; Sat 9:00-13:00."),
    )
    active = models.BooleanField(_("active"), default=True)
    position = models.PositiveIntegerField(_("position"), default=0)

    objects = ActiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("pickup")
        verbose_name_plural = _("pickups")
        ordering = ["table_id", "position", "name", "id"]
        constraints = coordinate_constraints("pickup")

    @property
    def display_zip_code(self) -> str:
        """The postal code in its country's usual format (01304-001)."""
        return format_postal_code(self.country_code, self.zip_code)

    def clean(self):
        super().clean()
        errors = {}
        if self.table_id and self.table.kind != ShippingTableKind.PICKUP:
            errors["table"] = _("Pickup points belong to pickup tables.")
        country = country_alpha_3_clean(self.country_code)
        if country is None:
            errors["country_code"] = UNKNOWN_COUNTRY
        else:
            self.country_code = country.alpha_3
            try:
                self.zip_code = normalize_postal_code(self.country_code, self.zip_code or "")
            except InvalidPostalCode as exc:
                errors["zip_code"] = str(exc)
            state = state_code_get(self.country_code, code=self.state_code or "")
            if state is None:
                errors["state_code"] = _("Not a subdivision of the country (e.g. BR-SP).")
            else:
                self.state_code = state
        if errors:
            raise ValidationError(errors)
