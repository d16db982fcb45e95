"""Test-only route: a customer list served through the shared list-query toolkit."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from apikit.query import (
    ListField,
    list_filterset,
    list_page,
    list_query_parameters,
    parse_list_query,
)
from apikit.responses import success
from apikit.routing import api_path
from apikit.schema import error_responses, page_container, success_envelope
from storefront.models import Customer

CUSTOMER_LIST = list_filterset(
    fields={
        "id": ListField("id", "int", order=True),
        "name": ListField("name", "str", order=True),
        "active": ListField("active", "bool"),
        "createdAt": ListField("created_at", "datetime", order=True),
    },
    output_fields=frozenset({"id", "name", "createdAt"}),
)


class QueryTestCustomerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")


class CustomerListView(APIView):
    @extend_schema(
        operation_id="query_test_customer_list",
        parameters=list_query_parameters(CUSTOMER_LIST),
        responses={
            200: success_envelope(
                "QueryTestCustomerPage",
                page_container("QueryTestCustomers", QueryTestCustomerSerializer),
            ),
            **error_responses(422),
        },
    )
    def get(self, request):
        query = parse_list_query(request.query_params, CUSTOMER_LIST)
        page = list_page(
            Customer.objects.all(),
            query,
            lambda customers: QueryTestCustomerSerializer(customers, many=True).data,
        )
        return success(page)


urlpatterns = [*api_path("customers", CustomerListView.as_view(), "query-customers")]
