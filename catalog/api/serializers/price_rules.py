"""The contract's Price rule."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .fields import MoneyField, nullable_text


class PriceRuleSchedulingSerializer(serializers.Serializer):
    startDate = serializers.DateTimeField(allow_null=True)
    endDate = serializers.DateTimeField(allow_null=True)


class PriceRuleSerializer(serializers.Serializer):
    """The contract's Price rule (prefetch selectors.PRICE_RULE_RELATIONS)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    trigger = serializers.CharField()
    ruleTarget = serializers.CharField(source="rule_target")
    origin = serializers.CharField()
    applyInGroup = serializers.BooleanField(source="apply_in_group")
    updateComparisonPrice = serializers.CharField(source="update_comparison_price")
    basePriceField = serializers.CharField(source="base_price_field")
    code = serializers.SerializerMethodField()
    beginQuantity = serializers.IntegerField(source="begin_quantity")
    endQuantity = serializers.IntegerField(
        source="end_quantity", help_text="0 means no upper limit."
    )
    value = MoneyField()
    valueType = serializers.CharField(source="value_type")
    priority = serializers.IntegerField()
    active = serializers.BooleanField()
    scheduling = serializers.SerializerMethodField()
    tradePolicies = serializers.SerializerMethodField()
    productIds = serializers.SerializerMethodField()
    productCategoryIds = serializers.SerializerMethodField()
    productBrandIds = serializers.SerializerMethodField()
    lastUpdateUserName = serializers.SerializerMethodField()
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_code(self, rule) -> str | None:
        return nullable_text(rule.code)

    @extend_schema_field(PriceRuleSchedulingSerializer(allow_null=True))
    def get_scheduling(self, rule) -> dict | None:
        if rule.start_at is None and rule.end_at is None:
            return None
        return PriceRuleSchedulingSerializer(
            {"startDate": rule.start_at, "endDate": rule.end_at}
        ).data

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_tradePolicies(self, rule) -> list[int]:
        return sorted(p.pk for p in rule.trade_policies.all())

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_productIds(self, rule) -> list[int]:
        return sorted(p.pk for p in rule.products.all())

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_productCategoryIds(self, rule) -> list[int]:
        return sorted(c.pk for c in rule.categories.all())

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_productBrandIds(self, rule) -> list[int]:
        return sorted(b.pk for b in rule.brands.all())

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_lastUpdateUserName(self, rule) -> str | None:
        return nullable_text(rule.last_update_user_name)
