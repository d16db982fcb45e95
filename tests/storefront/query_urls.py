"""Test-only routes: customers and payment options listed on the lists' generic view."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from apikit.filters import DateFilter, DateTimeFilter, DecimalFilter, FilterSet
from apikit.generics import EnvelopedPagination, ListView
from apikit.routing import api_path
from apikit.schema import error_responses
from storefront.models import Customer, PaymentOption


class CustomerFilter(FilterSet):
    createdAt = DateTimeFilter(field_name="created_at")
    lastLogin = DateTimeFilter(field_name="last_login")
    createdOn = DateFilter(field_name="created_at__date")

    class Meta:
        model = Customer
        fields = ("id", "name", "active", "createdAt", "lastLogin", "createdOn")


class QueryTestCustomerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")


@extend_schema_view(
    get=extend_schema(
        operation_id="query_test_customer_list",
        responses={200: QueryTestCustomerSerializer, **error_responses(422)},
    )
)
class CustomerListView(ListView):
    queryset = Customer.objects.all()
    serializer_class = QueryTestCustomerSerializer
    filterset_class = CustomerFilter
    ordering_fields = {"id": "id", "name": "name", "createdAt": "created_at"}
    ordering_fields |= {"lastLogin": "last_login", "email": "email", "active": "active"}
    pagination_class = EnvelopedPagination


class PaymentOptionFilter(FilterSet):
    discount = DecimalFilter(field_name="discount_percentage")

    class Meta:
        model = PaymentOption
        fields = ("id", "discount")


class QueryTestPaymentOptionSerializer(serializers.Serializer):
    id = serializers.IntegerField()


@extend_schema_view(get=extend_schema(operation_id="query_test_payment_option_list"))
class PaymentOptionListView(ListView):
    queryset = PaymentOption.objects.all()
    serializer_class = QueryTestPaymentOptionSerializer
    filterset_class = PaymentOptionFilter
    ordering_fields = {"id": "id"}
    ordering = ("id",)


urlpatterns = [
    *api_path("customers", CustomerListView.as_view(), "query-customers"),
    *api_path("payment-options", PaymentOptionListView.as_view(), "query-payment-options"),
]
