"""What the upsell endpoint accepts in `condition`, `order` and `fields`: its django-filter
FilterSet (apikit.query)."""

from apikit.query import ListField, list_filterset

from .serializers import UpsellSerializer

UPSELL_LIST = list_filterset(
    fields={
        "id": ListField("id", "int", order=True),
        "priority": ListField("priority", "int", order=True),
        "quantity": ListField("quantity", "int", order=True),
        "displayTitle": ListField("display_title", "str", order=True),
        "productId": ListField("product_id", "int", order=True),
        "priceRuleId": ListField("price_rule_id", "int"),
        "createdAt": ListField("created_at", "datetime", order=True),
        "updatedAt": ListField("updated_at", "datetime", order=True),
    },
    output_fields=frozenset(UpsellSerializer().fields),
    default_order=("-priority",),
)
