"""Trade policies, prices per product and policy, and price rules."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from storefront.models import TimestampedModel

from ..pricing import BaseField, Target, Trigger, UpdateComparison, ValueType

NOT_NEGATIVE = MinValueValidator(Decimal("0"))


class TradePolicyQuerySet(models.QuerySet):
    def active(self):
        return self.filter(active=True)

    def default(self):
        """The store's default trade policy (created by migration 0002)."""
        return self.filter(is_default=True).first()


class TradePolicy(TimestampedModel):
    """A commercial policy (retail, wholesale, ...) with its own prices and descriptions."""

    name = models.CharField(max_length=100)
    code = models.SlugField(max_length=50, unique=True)
    active = models.BooleanField(default=True)
    is_default = models.BooleanField(
        "default",
        default=False,
        help_text="Used when a request names no trade policy (one policy is the default).",
    )

    objects = TradePolicyQuerySet.as_manager()

    class Meta:
        ordering = ["-is_default", "name", "id"]
        verbose_name_plural = "trade policies"
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=models.Q(is_default=True),
                name="one_default_trade_policy",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ProductPrice(TimestampedModel):
    """A product's price in one trade policy."""

    product = models.ForeignKey("catalog.Product", on_delete=models.CASCADE, related_name="prices")
    trade_policy = models.ForeignKey(TradePolicy, on_delete=models.CASCADE, related_name="prices")
    comparison_price = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        default=Decimal("0"),
        validators=[NOT_NEGATIVE],
        help_text='List price shown struck through ("from"); 0 when none.',
    )
    sale_price = models.DecimalField(
        max_digits=12, decimal_places=2, validators=[NOT_NEGATIVE], help_text="Selling price."
    )
    markup = models.DecimalField(
        max_digits=8,
        decimal_places=4,
        default=Decimal("0"),
        validators=[NOT_NEGATIVE],
        help_text="Markup over cost (informative, shown as is).",
    )
    available_for_sale = models.BooleanField(default=True)

    class Meta:
        ordering = ["product_id", "trade_policy_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["product", "trade_policy"], name="product_price_unique_per_policy"
            ),
            models.CheckConstraint(
                condition=models.Q(comparison_price__gte=0, sale_price__gte=0, markup__gte=0),
                name="product_price_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sale_price} ({self.trade_policy_id})"


# Choices of the rule fields: values from catalog/pricing.py's enums, labels for the admin.
TRIGGER_LABELS = {
    Trigger.AUTOMATIC: "Automatic (always applies)",
    Trigger.COUPON: "Coupon code",
    Trigger.UPSELL: "Upsell offer",
}
TARGET_LABELS = {
    Target.ALL: "Every product",
    Target.PRODUCT: "Chosen products",
    Target.CATEGORY: "Products of chosen categories",
    Target.BRAND: "Products of chosen brands",
}
VALUE_TYPE_LABELS = {
    ValueType.PERCENTAGE: "Percentage off",
    ValueType.FIXED: "Fixed amount off",
}
UPDATE_COMPARISON_LABELS = {
    UpdateComparison.KEEP: "Keep the comparison price",
    UpdateComparison.SALE_PRICE: "Show the price before the rule as comparison price",
}
BASE_FIELD_LABELS = {
    BaseField.SALE_PRICE: "Sale price",
    BaseField.COMPARISON_PRICE: "Comparison price",
}


class PriceRuleOrigin(models.TextChoices):
    ADMIN = "admin", "Back office"
    IMPORT = "import", "Import"


class PriceRuleQuerySet(models.QuerySet):
    def active(self):
        return self.filter(active=True)

    def live_at(self, moment):
        """Active rules whose scheduling window (when set) contains `moment`."""
        return self.active().filter(
            models.Q(start_at__isnull=True) | models.Q(start_at__lte=moment),
            models.Q(end_at__isnull=True) | models.Q(end_at__gt=moment),
        )


class PriceRule(TimestampedModel):
    """A discount: who it applies to (target), when (trigger, window, quantity) and how much."""

    name = models.CharField(max_length=100)
    trigger = models.CharField(max_length=20, choices=TRIGGER_LABELS, default=Trigger.AUTOMATIC)
    rule_target = models.CharField(max_length=20, choices=TARGET_LABELS, default=Target.PRODUCT)
    origin = models.CharField(
        max_length=20, choices=PriceRuleOrigin.choices, default=PriceRuleOrigin.ADMIN
    )
    apply_in_group = models.BooleanField(
        default=False,
        help_text="Count the quantity over all products the rule targets, not per product.",
    )
    update_comparison_price = models.CharField(
        max_length=20, choices=UPDATE_COMPARISON_LABELS, default=UpdateComparison.KEEP
    )
    base_price_field = models.CharField(
        max_length=20,
        choices=BASE_FIELD_LABELS,
        default=BaseField.SALE_PRICE,
        help_text="Price the discount is computed from.",
    )
    code = models.CharField(
        max_length=50, blank=True, default="", help_text="Coupon code (coupon trigger)."
    )
    begin_quantity = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    end_quantity = models.PositiveIntegerField(
        default=0, help_text="Largest quantity the rule applies to; 0 means no upper limit."
    )
    value = models.DecimalField(max_digits=12, decimal_places=2, validators=[NOT_NEGATIVE])
    value_type = models.CharField(
        max_length=20, choices=VALUE_TYPE_LABELS, default=ValueType.PERCENTAGE
    )
    priority = models.IntegerField(default=0, help_text="When several rules apply, the highest.")
    active = models.BooleanField(default=True)
    start_at = models.DateTimeField(null=True, blank=True)
    end_at = models.DateTimeField(null=True, blank=True)
    trade_policies = models.ManyToManyField(
        TradePolicy, blank=True, related_name="price_rules", help_text="Empty: every policy."
    )
    products = models.ManyToManyField("catalog.Product", blank=True, related_name="price_rules")
    categories = models.ManyToManyField("catalog.Category", blank=True, related_name="price_rules")
    brands = models.ManyToManyField("catalog.Brand", blank=True, related_name="price_rules")
    last_update_user_name = models.CharField(max_length=150, blank=True, default="")

    objects = PriceRuleQuerySet.as_manager()

    class Meta:
        ordering = ["-priority", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(value__gte=0), name="price_rule_value_not_negative"
            ),
            models.CheckConstraint(
                condition=~models.Q(value_type="percentage") | models.Q(value__lte=100),
                name="price_rule_percentage_at_most_100",
            ),
            models.CheckConstraint(
                condition=models.Q(end_quantity=0)
                | models.Q(end_quantity__gte=models.F("begin_quantity")),
                name="price_rule_quantity_range",
            ),
            models.CheckConstraint(
                condition=models.Q(start_at__isnull=True)
                | models.Q(end_at__isnull=True)
                | models.Q(end_at__gt=models.F("start_at")),
                name="price_rule_window_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self):
        super().clean()
        if self.trigger == Trigger.COUPON and not (self.code or "").strip():
            raise ValidationError({"code": "A coupon rule needs its code."})
        if self.value_type == ValueType.PERCENTAGE and self.value is not None:
            MaxValueValidator(Decimal("100"))(self.value)
