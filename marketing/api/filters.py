"""What the upsell endpoint accepts in `condition`: its FilterSet (apikit.filters)."""

from apikit.filters import CharFilter, DateTimeFilter, FilterSet, NumberFilter

from ..models import Upsell


class UpsellFilter(FilterSet):
    displayTitle = CharFilter(field_name="display_title")
    productId = NumberFilter(field_name="product_id")
    priceRuleId = NumberFilter(field_name="price_rule_id")
    createdAt = DateTimeFilter(field_name="created_at")
    updatedAt = DateTimeFilter(field_name="updated_at")

    class Meta:
        model = Upsell
        fields = (
            "id",
            "priority",
            "quantity",
            "displayTitle",
            "productId",
            "priceRuleId",
            "createdAt",
            "updatedAt",
        )
