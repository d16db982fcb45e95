"""Shipping admin: pages render for staff, search by code, rows CSV upload, pickup inline."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from shipping.models import Carrier, Pickup, PostalCode, ShippingRow, ShippingTable

from .factories import (
    CarrierFactory,
    PickupFactory,
    PostalCodeFactory,
    ShippingRowFactory,
    ShippingTableFactory,
)

pytestmark = pytest.mark.django_db

HEADER = (
    "initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,final_price,"
    "shipping_value,begin_shipping_time,end_shipping_time\n"
)


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_superuser("boss", "boss@store.example", "x-pass-123")
    client.force_login(user)
    return client


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:shipping_{model._meta.model_name}_{action}", args=args)


@pytest.fixture
def shipping_data():
    postal_code = PostalCodeFactory()
    row = ShippingRowFactory()
    pickup = PickupFactory()
    return {
        PostalCode: postal_code,
        Carrier: row.table.carrier,
        ShippingTable: row.table,
        ShippingRow: row,
        Pickup: pickup,
    }


@pytest.mark.parametrize("model", [PostalCode, Carrier, ShippingTable, ShippingRow, Pickup])
def test_changelist_add_and_change_pages_render(staff_client, shipping_data, model):
    obj = shipping_data[model]
    assert staff_client.get(admin_url(model, "changelist")).status_code == 200
    assert staff_client.get(admin_url(model, "add")).status_code == 200
    assert staff_client.get(admin_url(model, "change", obj.pk)).status_code == 200


def test_the_rows_list_filters_by_table(staff_client):
    row = ShippingRowFactory(initial_zipcode="01000000")
    ShippingRowFactory(initial_zipcode="20000000")
    page = staff_client.get(admin_url(ShippingRow, "changelist"), {"table": row.table_id})
    content = page.content.decode()
    assert "01000-000" in content and "20000-000" not in content


def test_the_pickup_table_page_shows_its_pickup_points_inline(staff_client):
    pickup = PickupFactory(name="Loja Augusta")
    response = staff_client.get(admin_url(ShippingTable, "change", pickup.table_id))
    assert "Loja Augusta" in response.content.decode()


def postal_search(client, term: str) -> set[str]:
    """The postal codes (as shown) that the admin's search lists for `term`."""
    page = client.get(admin_url(PostalCode, "changelist"), {"q": term})
    assert page.status_code == 200
    return {code.display_code for code in page.context["cl"].result_list}


@pytest.fixture
def three_addresses():
    PostalCodeFactory()  # 01310-100 Avenida Paulista, Bela Vista, São Paulo
    PostalCodeFactory(
        code="20040002",
        city="Rio de Janeiro",
        public_place="Avenida Rio Branco",
        district="Centro",
        state_code="BR-RJ",
    )
    PostalCodeFactory(
        code="01310200", public_place="Rua São Paulo", district="Consolação", city="Sorocaba"
    )


@pytest.mark.parametrize(
    ("term", "found"),
    [
        ("01310-100", {"01310-100"}),
        ("01310100", {"01310-100"}),
        ("01310", {"01310-100", "01310-200"}),
        ("0131", {"01310-100", "01310-200"}),
        ("20040-0", {"20040-002"}),
        ("São Paulo", {"01310-100", "01310-200"}),
        ("sao paulo", {"01310-100", "01310-200"}),
        ("SÃO PAULO", {"01310-100", "01310-200"}),
        ("Rio de Janeiro", {"20040-002"}),
        ("rio", {"20040-002"}),
        ("Avenida Paulista", {"01310-100"}),
        ("paulista são paulo", {"01310-100"}),
        ("Consolacao", {"01310-200"}),
        ("  bela   vista ", {"01310-100"}),
        ("RJ", {"20040-002"}),
        ("Avenida Curitiba", set()),
        ("99999", set()),
        ("100%", set()),
        ("_", set()),
    ],
)
def test_postal_codes_are_found_by_every_word_of_the_address_or_part_of_the_code(
    staff_client, three_addresses, term, found
):
    assert postal_search(staff_client, term) == found


def test_an_empty_or_hostile_postal_search_answers_the_page(staff_client, three_addresses):
    assert len(postal_search(staff_client, "")) == 3
    assert postal_search(staff_client, "' OR 1=1 --") == set()
    assert postal_search(staff_client, "x" * 2000) == set()


def test_the_postal_search_says_what_it_searches_in_portuguese(staff_client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    page = staff_client.get(admin_url(PostalCode, "changelist"))
    assert "CEP, logradouro, bairro ou cidade" in page.content.decode()


def test_the_search_column_follows_the_address_when_it_changes(staff_client):
    code = PostalCodeFactory()
    PostalCode.objects.filter(pk=code.pk).update(city="Guarulhos")  # as an import writes
    assert postal_search(staff_client, "guarulhos") == {"01310-100"}
    assert postal_search(staff_client, "são paulo") == set()


def test_the_changelists_do_not_query_per_row(staff_client, django_assert_max_num_queries):
    table = ShippingTableFactory()
    for number in range(60):
        ShippingRowFactory(table=table, initial_zipcode=f"{number:08d}")
        PickupFactory()
    for model in (ShippingRow, Pickup, ShippingTable):
        with django_assert_max_num_queries(12):
            assert staff_client.get(admin_url(model, "changelist")).status_code == 200


def test_a_csv_upload_imports_rows_into_the_table(staff_client):
    table = ShippingTableFactory()
    content = HEADER + "01000-000,19999-999,0,1,0,,15.90,1,3\n20000-000,28999-999,0,1,0,,20,2,4\n"
    upload = SimpleUploadedFile("rows.csv", content.encode(), content_type="text/csv")

    response = staff_client.post(
        admin_url(ShippingTable, "import_rows", table.pk), {"file": upload}, follow=True
    )

    assert response.status_code == 200
    assert table.rows.count() == 2
    messages = [str(m) for m in response.context["messages"]]
    assert any("2 were created" in m for m in messages)


def test_a_csv_upload_with_replace_and_rejected_lines_reports_them(staff_client):
    table = ShippingTableFactory()
    old = ShippingRowFactory(table=table, initial_zipcode="90000000")
    content = HEADER + "01000-000,19999-999,0,1,0,,15.90,1,3\nbad,1,0,1,0,,1,1,1\n"
    upload = SimpleUploadedFile("rows.csv", content.encode(), content_type="text/csv")

    response = staff_client.post(
        admin_url(ShippingTable, "import_rows", table.pk),
        {"file": upload, "replace": "on"},
        follow=True,
    )

    messages = [str(m) for m in response.context["messages"]]
    assert any("line 3:" in m for m in messages)
    assert any("were kept" in m for m in messages)
    assert ShippingRow.objects.filter(pk=old.pk).exists()


def test_a_dry_run_upload_saves_nothing(staff_client):
    table = ShippingTableFactory()
    upload = SimpleUploadedFile(
        "rows.csv", (HEADER + "01000-000,19999-999,0,1,0,,1,1,3\n").encode()
    )
    staff_client.post(
        admin_url(ShippingTable, "import_rows", table.pk),
        {"file": upload, "dry_run": "on"},
    )
    assert table.rows.count() == 0


def test_a_csv_without_the_columns_shows_the_form_again_with_the_error(staff_client):
    table = ShippingTableFactory()
    upload = SimpleUploadedFile("rows.csv", b"a,b\n1,2\n")
    response = staff_client.post(
        admin_url(ShippingTable, "import_rows", table.pk), {"file": upload}
    )
    assert response.status_code == 400  # the form again, with the error
    assert "lacks the column" in response.content.decode()
    assert table.rows.count() == 0


def test_the_import_page_renders_and_unknown_tables_are_404(staff_client):
    table = ShippingTableFactory()
    assert staff_client.get(admin_url(ShippingTable, "import_rows", table.pk)).status_code == 200
    assert staff_client.get(admin_url(ShippingTable, "import_rows", 99999)).status_code == 404


def test_the_import_needs_change_permission(client):
    table = ShippingTableFactory()
    user = get_user_model().objects.create_user("clerk", password="x-pass-123", is_staff=True)
    client.force_login(user)
    response = client.get(admin_url(ShippingTable, "import_rows", table.pk))
    assert response.status_code == 403


def test_a_row_with_a_reversed_range_is_refused_by_the_form(staff_client):
    table = ShippingTableFactory()
    response = staff_client.post(
        admin_url(ShippingRow, "add"),
        {
            "table": table.pk,
            "initial_zipcode": "20000-000",
            "final_zipcode": "10000-000",
            "initial_weight": "0",
            "final_weight": "1",
            "initial_price": "0",
            "final_price": "100",
            "shipping_value": "10",
            "begin_shipping_time": "1",
            "end_shipping_time": "2",
            "extra_kg_value": "0",
            "extra_kg_threshold": "0",
            "order_value_percentage": "0",
            "fixed_fee": "0",
        },
    )
    assert response.status_code == 200
    assert "cannot be below the initial one" in response.content.decode()
    assert not ShippingRow.objects.exists()


def test_a_row_added_in_the_admin_stores_normalized_postal_codes(staff_client):
    table = ShippingTableFactory()
    staff_client.post(
        admin_url(ShippingRow, "add"),
        {
            "table": table.pk,
            "initial_zipcode": "01000-000",
            "final_zipcode": "01999-999",
            "initial_weight": "0",
            "final_weight": "1",
            "initial_price": "0",
            "final_price": "100",
            "shipping_value": "10",
            "begin_shipping_time": "1",
            "end_shipping_time": "2",
            "extra_kg_value": "0",
            "extra_kg_threshold": "0",
            "order_value_percentage": "0",
            "fixed_fee": "0",
        },
    )
    row = ShippingRow.objects.get()
    assert (row.initial_zipcode, row.final_zipcode) == ("01000000", "01999999")
    assert row.shipping_value == Decimal("10")


def test_a_pickup_point_of_a_delivery_table_is_refused(staff_client):
    delivery = ShippingTableFactory(kind="delivery")
    carrier = CarrierFactory()
    response = staff_client.post(
        admin_url(Pickup, "add"),
        {
            "table": delivery.pk,
            "type": "store",
            "name": "Shop",
            "address": "Rua A",
            "city": "São Paulo",
            "state_code": "SP",
            "country_code": "BRA",
            "zip_code": "01310-100",
            "active": "on",
            "position": "0",
        },
    )
    assert response.status_code == 200
    assert not Pickup.objects.exists()
    assert carrier.pk


def test_a_row_typed_in_portuguese_saves_its_amounts_and_reads_them_back(staff_client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    table = ShippingTableFactory(country="BRA")
    response = staff_client.post(
        admin_url(ShippingRow, "add"),
        {
            "table": table.pk,
            "initial_zipcode": "01000-000",
            "final_zipcode": "09999-999",
            "initial_weight": "0",
            "final_weight": "1",
            "initial_price": "0",
            "final_price": "1.500,00",
            "shipping_value": "18,90",
            "begin_shipping_time": "1",
            "end_shipping_time": "2",
            "extra_kg_value": "2,5",
            "extra_kg_threshold": "0,5",
            "order_value_percentage": "1,5",
            "fixed_fee": "0",
        },
        follow=True,
    )
    row = ShippingRow.objects.get()
    assert (row.shipping_value, row.final_price) == (Decimal("18.90"), Decimal("1500.00"))
    assert (row.extra_kg_value, row.extra_kg_threshold) == (Decimal("2.5"), Decimal("0.5"))
    assert row.order_value_percentage == Decimal("1.5")
    # the message names the row by what it is
    assert "01000-000 a 09999-999, 0,000 a 1,000 kg: R$ 18,90" in response.content.decode()

    changelist = staff_client.get(admin_url(ShippingRow, "changelist")).content.decode()
    assert "R$ 18,90" in changelist
    assert "0,000 a 1,000" in changelist and "R$ 0,00 a R$ 1.500,00" in changelist


def test_a_freight_typed_with_a_point_in_portuguese_is_refused(staff_client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    row = ShippingRowFactory(shipping_value=Decimal("18.90"))
    page = staff_client.get(admin_url(ShippingRow, "change", row.pk)).content.decode()
    assert 'name="shipping_value" value="18,90"' in page

    response = staff_client.post(
        admin_url(ShippingRow, "change", row.pk),
        {
            "table": row.table_id,
            "initial_zipcode": "00000-000",
            "final_zipcode": "99999-999",
            "initial_weight": "0",
            "final_weight": "30",
            "initial_price": "0",
            "final_price": "",
            "shipping_value": "18.9",
            "begin_shipping_time": "2",
            "end_shipping_time": "5",
            "extra_kg_value": "0",
            "extra_kg_threshold": "0",
            "order_value_percentage": "0",
            "fixed_fee": "0",
        },
    )
    assert response.status_code == 200
    assert "antes dos centavos: 18,90" in response.content.decode()
    row.refresh_from_db()
    assert row.shipping_value == Decimal("18.90")
