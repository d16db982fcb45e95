"""The contract's Price rule."""

from typing import Any

from django.db.models import Manager, Model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ...models import PriceRule
from .fields import MoneyField, NullableTextField


@extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
class SortedIdsField(serializers.Field):
    """The ids of a (prefetched) to-many relation, sorted."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, related: Manager[Model]) -> list[int]:
        return sorted(row.pk for row in related.all())


class PriceRuleSchedulingSerializer(serializers.Serializer):
    startDate = serializers.DateTimeField(source="start_at", allow_null=True)
    endDate = serializers.DateTimeField(source="end_at", allow_null=True)


def scheduling(item: Any, serializer: type[serializers.Serializer]) -> dict[str, Any] | None:
    """The `scheduling` block of a rule or seal, None when it has neither start nor end."""
    if item.start_at is None and item.end_at is None:
        return None
    return serializer(item).data


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
    code = NullableTextField()
    beginQuantity = serializers.IntegerField(source="begin_quantity")
    endQuantity = serializers.IntegerField(
        source="end_quantity", help_text="0 means no upper limit."
    )
    value = MoneyField()
    valueType = serializers.CharField(source="value_type")
    priority = serializers.IntegerField()
    active = serializers.BooleanField()
    scheduling = serializers.SerializerMethodField()
    tradePolicies = SortedIdsField(source="trade_policies")
    productIds = SortedIdsField(source="products")
    productCategoryIds = SortedIdsField(source="categories")
    productBrandIds = SortedIdsField(source="brands")
    lastUpdateUserName = NullableTextField(source="last_update_user_name")
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")

    @extend_schema_field(PriceRuleSchedulingSerializer(allow_null=True))
    def get_scheduling(self, rule: PriceRule) -> dict[str, Any] | None:
        return scheduling(rule, PriceRuleSchedulingSerializer)
