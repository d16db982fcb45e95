"""Trade policies, prices per product and policy, and price rules."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.models import (
    NOT_NEGATIVE,
    ZERO,
    ActiveQuerySet,
    LiveQuerySet,
    ShownByName,
    TimestampedModel,
    ends_after_start,
    money_field,
    one_default,
)
from infra.numbers import money_text
from infra.scheduling import Window

from ..pricing import BaseField, Target, Trigger, UpdateComparison, ValueType
from .fields import product_fk


class TradePolicyQuerySet(ActiveQuerySet):
    def default(self):
        """The store's default trade policy (created by migration 0002)."""
        return self.filter(is_default=True).first()


class TradePolicy(ShownByName, TimestampedModel):
    """A commercial policy (retail, wholesale, ...) with its own prices and descriptions."""

    name = models.CharField(_("name"), max_length=100)
    code = models.SlugField(_("code"), max_length=50, unique=True)
    active = models.BooleanField(_("active"), default=True)
    is_default = models.BooleanField(
        _("default"),
        default=False,
        help_text=_("Used when a request names no trade policy (one policy is the default)."),
    )

    objects = TradePolicyQuerySet.as_manager()

    class Meta:
        verbose_name = _("trade policy")
        ordering = ["-is_default", "name", "id"]
        verbose_name_plural = _("trade policies")
        constraints = [one_default("one_default_trade_policy")]


class ProductPrice(TimestampedModel):
    """A product's price in one trade policy."""

    product = product_fk("prices")
    trade_policy = models.ForeignKey(
        TradePolicy, verbose_name=_("trade policy"), on_delete=models.CASCADE, related_name="prices"
    )
    comparison_price = money_field(
        _("comparison price"),
        default=ZERO,
        help_text=_('List price shown struck through ("from"); 0 when none.'),
    )
    sale_price = money_field(_("sale price"), help_text=_("Selling price."))
    markup = models.DecimalField(
        _("markup"),
        max_digits=8,
        decimal_places=4,
        default=ZERO,
        validators=[NOT_NEGATIVE],
        help_text=_("Markup over cost (informative, shown as is)."),
    )
    available_for_sale = models.BooleanField(_("available for sale"), default=True)

    class Meta:
        verbose_name = _("product price")
        verbose_name_plural = _("product prices")
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
        return f"{self.trade_policy}: {money_text(self.sale_price)}"


class PriceRuleOrigin(models.TextChoices):
    ADMIN = "admin", _("Back office")
    IMPORT = "import", _("Import")


class PriceRule(ShownByName, TimestampedModel):
    """A discount: who it applies to (target), when (trigger, window, quantity) and how much."""

    name = models.CharField(_("name"), max_length=100)
    trigger = models.CharField(
        _("trigger"), max_length=20, choices=Trigger.choices, default=Trigger.AUTOMATIC
    )
    rule_target = models.CharField(
        _("rule target"), max_length=20, choices=Target.choices, default=Target.PRODUCT
    )
    origin = models.CharField(
        _("origin"), max_length=20, choices=PriceRuleOrigin.choices, default=PriceRuleOrigin.ADMIN
    )
    apply_in_group = models.BooleanField(
        _("apply in group"),
        default=False,
        help_text=_("Count the quantity over all products the rule targets, not per product."),
    )
    update_comparison_price = models.CharField(
        _("update comparison price"),
        max_length=20,
        choices=UpdateComparison.choices,
        default=UpdateComparison.KEEP,
    )
    base_price_field = models.CharField(
        _("base price field"),
        max_length=20,
        choices=BaseField.choices,
        default=BaseField.SALE_PRICE,
        help_text=_("Price the discount is computed from."),
    )
    code = models.CharField(
        _("code"),
        max_length=50,
        blank=True,
        default="",
        help_text=_("Coupon code (coupon trigger)."),
    )
    begin_quantity = models.PositiveIntegerField(
        _("begin quantity"), default=1, validators=[MinValueValidator(1)]
    )
    end_quantity = models.PositiveIntegerField(
        _("end quantity"),
        default=0,
        help_text=_("Largest quantity the rule applies to; 0 means no upper limit."),
    )
    value = money_field(_("value"))
    value_type = models.CharField(
        _("value type"), max_length=20, choices=ValueType.choices, default=ValueType.PERCENTAGE
    )
    priority = models.IntegerField(
        _("priority"), default=0, help_text=_("When several rules apply, the highest.")
    )
    active = models.BooleanField(_("active"), default=True)
    start_at = models.DateTimeField(_("start at"), null=True, blank=True)
    end_at = models.DateTimeField(_("end at"), null=True, blank=True)
    trade_policies = models.ManyToManyField(
        TradePolicy,
        verbose_name=_("trade policies"),
        blank=True,
        related_name="price_rules",
        help_text=_("Empty: every policy."),
    )
    products = models.ManyToManyField(
        "catalog.Product", verbose_name=_("products"), blank=True, related_name="price_rules"
    )
    categories = models.ManyToManyField(
        "catalog.Category", verbose_name=_("categories"), blank=True, related_name="price_rules"
    )
    brands = models.ManyToManyField(
        "catalog.Brand", verbose_name=_("brands"), blank=True, related_name="price_rules"
    )
    last_update_user_name = models.CharField(
        _("last update user name"), max_length=150, blank=True, default=""
    )

    objects = LiveQuerySet.as_manager()

    class Meta:
        verbose_name = _("price rule")
        verbose_name_plural = _("price rules")
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
            ends_after_start("price_rule_window_ends_after_start"),
        ]

    @property
    def window(self) -> Window:
        return Window(self.start_at, self.end_at)

    def clean(self):
        super().clean()
        if self.trigger == Trigger.COUPON and not (self.code or "").strip():
            raise ValidationError({"code": _("A coupon rule needs its code.")})
        if self.value_type == ValueType.PERCENTAGE and self.value is not None:
            MaxValueValidator(Decimal("100"))(self.value)
