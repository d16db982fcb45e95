"""Holidays in the admin (issue 22): add and import them, storages' cut-off and Saturday
dispatch, tables' Saturday delivery; the quote's dates follow."""

import re
from datetime import date, time

import pytest
from django.urls import reverse
from django.utils import translation

from shipping.models import Holiday, HolidayScope, StagedImport

from .test_admin_imports import make_staff, messages_of, token_of, upload
from .test_api_quote_dates import at, delivery
from .test_api_quote_dates import store as store

pytestmark = pytest.mark.django_db

ADD = reverse("admin:shipping_holiday_add")
IMPORT = reverse("admin:shipping_holiday_import")
CSV = (
    "name,date,yearly,state_code,city,ibge_code\n"
    "Aniversário de São Paulo,25/01/2027,,SP,São Paulo,3550308\n"
    "Revolução Constitucionalista,2026-07-09,sim,BR-SP,,\n"
    "Emenda de Natal,2026-12-24,não,,,\n"
    "Sem estado,2026-03-01,,,Campinas,\n"
    "Data ruim,2026-13-01,,,,\n"
)


@pytest.fixture
def staff(client):
    make_staff(client)
    return client


def holiday_form(**fields) -> dict:
    return {
        "name": "Feriado municipal",
        "date": "2026-03-06",
        "yearly": "",
        "scope": HolidayScope.CITY,
        "state_code": "rj",
        "city": "  Rio   de Janeiro ",
        "ibge_code": "",
        **fields,
    }


def test_staff_add_a_city_holiday_and_the_quote_moves(staff, api_client, store):
    _, products, _ = store
    moment = at(2026, 3, 5, 9, 0)
    assert delivery(api_client, moment, products["sp"])[1] == "2026-03-06"

    response = staff.post(ADD, holiday_form())

    assert response.status_code == 302
    holiday = Holiday.objects.get()
    assert (holiday.state_code, holiday.city, holiday.yearly) == ("BR-RJ", "Rio de Janeiro", False)
    assert delivery(api_client, moment, products["sp"])[1] == "2026-03-09"


def test_the_form_refuses_a_city_holiday_without_city_or_state(staff):
    with translation.override("en"):
        response = staff.post(ADD, holiday_form(city="", state_code="XX", ibge_code="12"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"city", "state_code", "ibge_code"}
    assert not Holiday.objects.exists()


def test_a_national_holiday_drops_its_place(staff):
    staff.post(ADD, holiday_form(scope=HolidayScope.NATIONAL, ibge_code="3304557"))
    assert Holiday.objects.values_list("state_code", "city", "ibge_code").get() == ("", "", "")


def test_the_list_fits_and_links_the_import(staff):
    Holiday.objects.create(name="X", scope="national", date=date(2026, 3, 2))
    page = staff.get(reverse("admin:shipping_holiday_changelist")).content.decode()
    assert IMPORT in page
    sample = staff.get(reverse("admin:shipping_holiday_import_sample"))
    assert sample["Content-Type"].startswith("text/csv")
    assert sample.content.decode().startswith("name,date,yearly,state_code,city,ibge_code")


def test_import_dry_run_then_confirm(staff):
    response = staff.post(IMPORT, {"file": upload(CSV, "holidays.csv"), "dry_run": "on"})
    assert response.status_code == 200
    assert not Holiday.objects.exists()
    summary = " ".join(response.context["summary"])
    assert "3 would be created" in summary and "2 rejected" in summary
    assert "line 5: a city needs its state_code" in summary
    assert "line 6: date '2026-13-01' is not a date" in summary

    done = staff.post(IMPORT, {"confirm": "1", "token": token_of(response)}, follow=True)

    assert done.status_code == 200
    assert any("3 were created" in message for message in messages_of(done))
    assert not StagedImport.objects.exists()
    assert set(Holiday.objects.values_list("scope", "state_code", "city", "date", "yearly")) == {
        ("city", "BR-SP", "São Paulo", date(2000, 1, 25), True),  # yearly: day and month
        ("state", "BR-SP", "", date(2000, 7, 9), True),
        ("national", "", "", date(2026, 12, 24), False),
    }
    # the same file again updates (by place, date and repetition) and creates nothing
    again = staff.post(IMPORT, {"file": upload(CSV, "holidays.csv"), "dry_run": ""}, follow=True)
    assert any("0 were created, 3 were updated" in m for m in messages_of(again))


def test_an_import_moves_the_quote_dates(staff, api_client, store):
    _, products, _ = store
    moment = at(2026, 3, 5, 9, 0)
    assert delivery(api_client, moment, products["sp"])[1] == "2026-03-06"
    staff.post(
        IMPORT,
        {"file": upload("name,date,yearly,state_code\nFolga,2026-03-06,não,RJ\n"), "dry_run": ""},
    )
    assert delivery(api_client, moment, products["sp"])[1] == "2026-03-09"


def test_storage_cutoff_and_saturdays_are_edited_in_the_admin(staff, api_client, store):
    storages, products, delivery_table = store
    storage = storages["sp"]
    url = reverse("admin:catalog_storage_change", args=[storage.pk])
    form = staff.get(url).context["adminform"].form
    assert {"cutoff_time", "dispatches_on_saturdays", "additional_time"} <= set(form.fields)
    storage.cutoff_time, storage.dispatches_on_saturdays = time(10), True
    storage.save()  # as the admin saves: the signals retire the kept storages
    # Friday 11:00 is after a 10:00 cut-off: ships on Saturday
    assert delivery(api_client, at(2026, 3, 6, 11, 0), products["sp"])[0] == "2026-03-07"
    table_url = reverse("admin:shipping_shippingtable_change", args=[delivery_table.pk])
    assert "delivers_on_saturdays" in staff.get(table_url).context["adminform"].form.fields


def test_dates_outside_the_years_the_admin_can_show_are_refused(staff):
    # the changelist's year links end at 9999: a holiday in 9999 made its page a 500
    csv = "name,date\nFim,9999-12-31\nInício,01/01/1899\nOk,2030-01-01\n"
    response = staff.post(IMPORT, {"file": upload(csv, "holidays.csv"), "dry_run": "on"})
    summary = " ".join(response.context["summary"])
    assert "1 would be created" in summary and "2 rejected" in summary
    assert "line 2: date '9999-12-31' is not a date from 1900 to 2999" in summary
    assert "line 3: date '01/01/1899' is not a date from 1900 to 2999" in summary

    with translation.override("en"):
        form = staff.post(ADD, holiday_form(date="9999-12-31"))
    assert form.context["adminform"].form.errors["date"] == ["Enter a date from 1900 to 2999."]
    assert not Holiday.objects.exists()
    assert staff.get(reverse("admin:shipping_holiday_changelist")).status_code == 200


# --- Issue 35: yearly ones by day and month, the applied holidays, a second import --------


def test_a_yearly_holiday_is_listed_by_day_and_month(staff, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    staff.post(ADD, holiday_form(name="Padroeira local", date="20/01/2027", yearly="on"))
    staff.post(ADD, holiday_form(name="Ponto facultativo", date="06/03/2026"))
    holiday = Holiday.objects.get(name="Padroeira local")
    assert holiday.date == date(2000, 1, 20)  # one row per day and month
    page = staff.get(reverse("admin:shipping_holiday_changelist")).content.decode()
    assert '<td class="field-when">20 de Janeiro</td>' in page
    assert '<td class="field-when">06/03/2026</td>' in page
    assert not re.search(r"\d\d/\d\d/2000|de 2000", page)


def test_the_holidays_applied_in_a_year_and_state_are_listed_by_source(staff, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    Holiday.objects.create(
        name="Aniversário de São Paulo",
        date=date(2000, 1, 25),
        city="São Paulo",
        state_code="BR-SP",
    )
    Holiday.objects.create(
        name="Emenda", date=date(2027, 12, 24), yearly=False, scope=HolidayScope.NATIONAL
    )
    Holiday.objects.create(
        name="Só no Rio", date=date(2000, 4, 23), scope=HolidayScope.STATE, state_code="BR-RJ"
    )
    url = reverse("admin:shipping_holiday_applied")
    assert url in staff.get(reverse("admin:shipping_holiday_changelist")).content.decode()
    page = staff.get(url, {"year": "2027", "state": "BR-SP"})
    assert page.status_code == 200
    rows = {row[:3] for row in page.context["rows"]}
    assert (date(2027, 4, 21), "Tiradentes", "Nacional (pacote holidays)") in rows
    assert (date(2027, 7, 9), "Revolução Constitucionalista", "Estadual (pacote holidays)") in rows
    assert (date(2027, 1, 25), "Aniversário de São Paulo", "Loja: municipal") in rows
    assert (date(2027, 12, 24), "Emenda", "Loja: nacional") in rows
    assert not any(name == "Só no Rio" for _, name, _ in rows)
    # hostile or missing choices fall back to this year and São Paulo
    assert staff.get(url, {"year": "x" * 50, "state": "<script>"}).status_code == 200


def test_a_second_import_of_the_sample_csv_leaves_the_count_unchanged(staff):
    sample = staff.get(reverse("admin:shipping_holiday_import_sample")).content
    for _ in range(2):
        staff.post(IMPORT, {"file": upload(sample.decode(), "sample.csv"), "dry_run": ""})
    assert Holiday.objects.count() == 3
    # and the admin's own yearly holiday is the same row the sample updates
    Holiday.objects.filter(name="Revolução Constitucionalista").delete()
    staff.post(
        ADD,
        holiday_form(
            name="Revolução",
            date="2026-07-09",
            yearly="on",
            scope="state",
            state_code="SP",
            city="",
        ),
    )
    staff.post(IMPORT, {"file": upload(sample.decode(), "sample.csv"), "dry_run": ""})
    assert Holiday.objects.count() == 3
    assert Holiday.objects.get(scope="state").name == "Revolução Constitucionalista"
