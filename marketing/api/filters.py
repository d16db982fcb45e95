"""What the upsell endpoint accepts in `condition`: its FilterSet (apikit.filters)."""

from apikit.filters import FilterSet

from ..models import Upsell


class UpsellFilter(FilterSet):
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
