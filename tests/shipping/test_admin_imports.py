"""Admin imports without re-uploads: dry run -> "Import these rows" (name="confirm") for
shipping rows and postal codes, expiry, ownership, tampering, and background postal jobs."""

import uuid
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from shipping.imports.jobs import run_postal_import
from shipping.models import (
    JobStatus,
    PostalCode,
    PostalImportJob,
    ShippingRow,
    StagedImport,
)

from .factories import ShippingRowFactory, ShippingTableFactory
from .test_imports import geonames_line

pytestmark = pytest.mark.django_db

HEADER = (
    "initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,final_price,"
    "shipping_value,begin_shipping_time,end_shipping_time\n"
)
ROWS = HEADER + "01000-000,19999-999,0,1,0,,15.90,1,3\n20000-000,28999-999,0,,0,,20,2,4\n"
POSTAL = reverse("admin:shipping_postalcode_import")


def make_staff(client, username="boss"):
    user = get_user_model().objects.create(username=username, is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


@pytest.fixture
def staff(client):
    make_staff(client)
    return client


def rows_url(table) -> str:
    return reverse("admin:shipping_shippingtable_import_rows", args=[table.pk])


def upload(content: str | bytes, name="rows.csv"):
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="text/csv")


def dry_run(client, table, content=ROWS, **extra):
    response = client.post(rows_url(table), {"file": upload(content), "dry_run": "on", **extra})
    assert response.status_code == 200
    return response


def token_of(response) -> str:
    return str(response.context["staged"].token)


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- Shipping rows ------------------------------------------------------------------------


def test_the_form_shows_units_a_sample_and_the_links_sit_in_the_object_tools(staff):
    table = ShippingTableFactory()
    page = staff.get(rows_url(table)).content.decode()
    for text in ("kg", "days", "BRL", "Download a sample CSV", "no limit"):
        assert text in page
    sample = staff.get(reverse("admin:shipping_shippingtable_import_rows_sample"))
    assert sample.status_code == 200 and sample["Content-Type"].startswith("text/csv")
    assert b"attachment" in sample["Content-Disposition"].encode()
    change = staff.get(reverse("admin:shipping_shippingtable_change", args=[table.pk]))
    assert rows_url(table) in change.content.decode()
    rows_list = staff.get(reverse("admin:shipping_shippingrow_changelist"))
    assert reverse("admin:shipping_shippingrow_import") in rows_list.content.decode()
    chooser = staff.get(reverse("admin:shipping_shippingrow_import"))
    assert rows_url(table) in chooser.content.decode()
    direct = staff.get(reverse("admin:shipping_shippingrow_import") + f"?table={table.pk}")
    assert direct.status_code == 302 and direct["Location"] == rows_url(table)


def test_the_sample_csv_imports_cleanly(staff):
    table = ShippingTableFactory()
    sample = staff.get(reverse("admin:shipping_shippingtable_import_rows_sample")).content
    response = dry_run(staff, table, sample)
    assert "0 rejected" in response.content.decode()


def test_dry_run_then_confirm_imports_the_previewed_file_without_a_new_upload(staff):
    table = ShippingTableFactory()
    response = dry_run(staff, table)
    page = response.content.decode()
    assert "2 would be created" in page
    assert 'name="confirm"' in page and "Import these rows" in page
    assert f'<a href="{rows_url(table)}">Choose another file</a>' in page
    assert table.rows.count() == 0
    staged = StagedImport.objects.get()

    done = staff.post(rows_url(table), {"confirm": "1", "token": token_of(response)}, follow=True)

    assert done.status_code == 200
    assert table.rows.count() == 2
    assert any("2 were created" in message for message in messages_of(done))
    assert not StagedImport.objects.exists()
    assert not (staged_dir(staged)).exists()
    # the token is single use
    again = staff.post(rows_url(table), {"confirm": "1", "token": token_of(response)})
    assert again.status_code == 400
    assert table.rows.count() == 2


def test_a_file_refused_at_confirm_is_a_400_page_and_the_upload_is_dropped(staff, monkeypatch):
    from shipping.admin import imports as admin_imports
    from shipping.imports.base import FileFormatError

    table = ShippingTableFactory()
    response = dry_run(staff, table)

    def refuse(**kwargs):
        raise FileFormatError("The file changed its mind.")

    monkeypatch.setattr(admin_imports, "shipping_rows_import", refuse)
    refused = staff.post(rows_url(table), {"confirm": "1", "token": token_of(response)})

    assert refused.status_code == 400
    assert "The file changed its mind." in refused.content.decode()
    assert table.rows.count() == 0
    assert not StagedImport.objects.exists()


def staged_dir(staged):
    from django.conf import settings

    return Path(settings.IMPORT_STAGING_DIR) / staged.path


def test_confirm_keeps_the_replace_choice_of_the_dry_run(staff):
    table = ShippingTableFactory()
    old = ShippingRowFactory(table=table, initial_zipcode="90000000", final_zipcode="90999999")
    response = dry_run(staff, table, replace="on")
    assert "would be deleted" in response.content.decode()
    staff.post(rows_url(table), {"confirm": "1", "token": token_of(response)})
    assert not ShippingRow.objects.filter(pk=old.pk).exists()
    assert table.rows.count() == 2


def test_an_expired_preview_cannot_be_confirmed_and_is_cleaned_up(staff, settings):
    table = ShippingTableFactory()
    response = dry_run(staff, table)
    staged = StagedImport.objects.get()
    path = staged_dir(staged)
    assert path.exists()

    with time_machine.travel(timezone.now() + timedelta(minutes=31)):
        refused = staff.post(rows_url(table), {"confirm": "1", "token": token_of(response)})
        assert refused.status_code == 400
        assert "expired or is not yours" in refused.content.decode()
        assert table.rows.count() == 0
        dry_run(staff, table)  # any new upload purges the expired ones

    assert not path.exists()
    assert StagedImport.objects.count() == 1


def test_another_user_cannot_confirm_someone_elses_preview(staff, client):
    table = ShippingTableFactory()
    token = token_of(dry_run(staff, table))
    from django.test import Client

    other = Client()
    make_staff(other, "intruder")
    refused = other.post(rows_url(table), {"confirm": "1", "token": token})
    assert refused.status_code == 400
    assert table.rows.count() == 0
    assert StagedImport.objects.count() == 1  # still there for its owner


@pytest.mark.parametrize(
    "token", ["", "not-a-uuid", str(uuid.uuid4()), "' OR 1=1 --", "\x00", "9" * 5000]
)
def test_a_tampered_token_is_refused_never_a_500(staff, token):
    table = ShippingTableFactory()
    dry_run(staff, table)
    refused = staff.post(rows_url(table), {"confirm": "1", "token": token})
    assert refused.status_code == 400
    assert table.rows.count() == 0


def test_a_preview_of_another_table_cannot_be_confirmed_on_this_one(staff):
    table, other = ShippingTableFactory(), ShippingTableFactory()
    token = token_of(dry_run(staff, table))
    refused = staff.post(rows_url(other), {"confirm": "1", "token": token})
    assert refused.status_code == 400
    assert other.rows.count() == 0 and table.rows.count() == 0


def test_a_file_changed_on_the_server_after_its_dry_run_is_refused(staff):
    table = ShippingTableFactory()
    token = token_of(dry_run(staff, table))
    path = staged_dir(StagedImport.objects.get())
    path.write_bytes((HEADER + "01000-000,99999-999,0,1,0,,0.01,1,1\n").encode())
    refused = staff.post(rows_url(table), {"confirm": "1", "token": token})
    assert refused.status_code == 400
    assert table.rows.count() == 0


@pytest.mark.parametrize(
    "content",
    [b"", b"a,b\n1,2\n", b"\xff\xfe\x00garbage", b"\x00" * 100, HEADER.encode()[:20]],
)
def test_a_bad_file_is_a_form_error_never_a_500_and_nothing_is_kept(staff, content):
    table = ShippingTableFactory()
    response = staff.post(rows_url(table), {"file": upload(content), "dry_run": "on"})
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert "errorlist" in response.content.decode()
        assert not StagedImport.objects.exists()
    assert table.rows.count() == 0


def test_no_limit_is_never_shown_as_the_sentinel(staff):
    row = ShippingRowFactory(
        initial_weight=Decimal("2.5"),
        final_weight=Decimal("9999999.999"),
        initial_price=Decimal("100"),
        final_price=Decimal("9999999999.99"),
    )
    changelist = staff.get(reverse("admin:shipping_shippingrow_changelist")).content.decode()
    change = staff.get(reverse("admin:shipping_shippingrow_change", args=[row.pk]))
    for page in (changelist, change.content.decode()):
        assert "9999999999" not in page and "9999999.999" not in page
        assert "9,999,999" not in page  # nor grouped
    # The change list shows each range in one column: an open one reads "from <low>".
    assert "from 2.500, no limit" in changelist
    assert "from R$ 100.00, no limit" in changelist


def test_an_empty_upper_bound_in_the_row_form_means_no_limit(staff):
    table = ShippingTableFactory()
    response = staff.post(
        reverse("admin:shipping_shippingrow_add"),
        {
            "table": table.pk,
            "initial_zipcode": "01000-000",
            "final_zipcode": "01999-999",
            "initial_weight": "0",
            "final_weight": "",
            "initial_price": "0",
            "final_price": "",
            "shipping_value": "10",
            "begin_shipping_time": "1",
            "end_shipping_time": "2",
            "extra_kg_value": "0",
            "extra_kg_threshold": "0",
            "order_value_percentage": "0",
            "fixed_fee": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    row = table.rows.get()
    assert row.final_weight == Decimal("9999999.999")
    assert row.final_price == Decimal("9999999999.99")


# --- Postal codes ---------------------------------------------------------------------------


def geonames(count: int) -> str:
    return "".join(geonames_line(n) for n in range(1, count + 1))


def test_the_postal_import_link_sits_on_the_postal_code_list(staff):
    page = staff.get(reverse("admin:shipping_postalcode_changelist")).content.decode()
    assert POSTAL in page
    assert staff.get(POSTAL).status_code == 200


def test_a_small_postal_file_is_checked_then_imported_inline(staff):
    response = staff.post(
        POSTAL, {"file": upload(geonames(5), "BR.txt"), "country": "BRA", "dry_run": "on"}
    )
    assert response.status_code == 200
    assert "5 would be created" in response.content.decode()
    assert PostalCode.objects.count() == 0

    done = staff.post(POSTAL, {"confirm": "1", "token": token_of(response)}, follow=True)

    assert PostalCode.objects.count() == 5
    assert any("5 were created" in message for message in messages_of(done))
    assert not PostalImportJob.objects.exists()


def test_a_postal_csv_needs_a_country(staff):
    content = (
        "zip_code,public_place,complement,district,city,state,latitude,longitude\n"
        "01310-100,Avenida Paulista,,Bela Vista,São Paulo,SP,,\n"
    )
    refused = staff.post(POSTAL, {"file": upload(content), "country": "", "dry_run": "on"})
    assert refused.status_code == 400
    assert not StagedImport.objects.exists()
    ok = staff.post(POSTAL, {"file": upload(content), "country": "BRA"})
    assert ok.status_code == 302
    assert PostalCode.objects.get().city == "São Paulo"


def test_a_bad_postal_file_or_token_is_a_form_error(staff, client):
    refused = staff.post(POSTAL, {"file": upload(b""), "country": "BRA"})
    assert refused.status_code == 400
    bad_token = staff.post(POSTAL, {"confirm": "1", "token": "nope"})
    assert bad_token.status_code == 400
    assert "expired or is not yours" in bad_token.content.decode()


def test_a_large_postal_file_runs_in_the_background_with_a_progress_page(staff, settings):
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    response = staff.post(POSTAL, {"file": upload(geonames(30), "BR.txt"), "country": "BRA"})

    job = PostalImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:shipping_postalcode_import_job", args=[job.pk])
    assert job.status == JobStatus.PENDING and not job.dry_run
    assert PostalCode.objects.count() == 0  # nothing done inside the request
    page = staff.get(response["Location"]).content.decode()
    assert "Waiting to start" in page and "0 of 30 lines read" in page
    assert 'http-equiv="refresh"' in page

    call_command("run_postal_import", str(job.pk))

    job.refresh_from_db()
    assert job.status == JobStatus.DONE
    assert (job.rows_read, job.rows_created, job.rows_rejected) == (30, 30, 0)
    assert job.lines_read == job.lines_total == 30 and job.percent == 100
    assert PostalCode.objects.count() == 30
    page = staff.get(response["Location"]).content.decode()
    assert "Done" in page and "30 were created" in page and "refresh" not in page
    assert "30 of 30 lines read" in page
    assert not StagedImport.objects.exists()  # the kept upload is deleted after the import
    assert run_postal_import(job.pk).status == JobStatus.DONE  # a second run does nothing


def test_a_large_dry_run_in_the_background_then_confirm_starts_the_real_import(staff, settings):
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    response = staff.post(
        POSTAL,
        {"file": upload(geonames(20), "BR.txt"), "country": "BRA", "dry_run": "on"},
    )
    dry = PostalImportJob.objects.get()
    run_postal_import(dry.pk)
    page = staff.get(response["Location"]).content.decode()
    assert "20 would be created" in page and 'name="confirm"' in page
    assert PostalCode.objects.count() == 0
    token = str(StagedImport.objects.get().token)

    confirmed = staff.post(POSTAL, {"confirm": "1", "token": token})

    real = PostalImportJob.objects.exclude(pk=dry.pk).get()
    assert confirmed["Location"] == reverse("admin:shipping_postalcode_import_job", args=[real.pk])
    run_postal_import(real.pk)
    assert PostalCode.objects.count() == 20


def test_a_failing_background_import_records_its_error(staff, settings):
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 1
    content = "not,the,columns\n" + "x,y,z\n" * 3
    staff.post(POSTAL, {"file": upload(content), "country": "BRA"})
    job = PostalImportJob.objects.get()
    run_postal_import(job.pk)
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and job.error
    page = staff.get(reverse("admin:shipping_postalcode_import_job", args=[job.pk]))
    assert page.status_code == 200 and job.error in page.content.decode()


def test_the_job_page_of_an_unknown_job_is_a_404(staff):
    assert staff.get(reverse("admin:shipping_postalcode_import_job", args=[999])).status_code == 404


def test_the_import_pages_need_a_staff_login(client):
    table = ShippingTableFactory()
    for url in (POSTAL, rows_url(table), reverse("admin:shipping_shippingrow_import")):
        response = client.get(url)
        assert response.status_code == 302 and "login" in response["Location"]


def test_a_large_postal_file_is_imported_by_a_job_of_the_task_queue(staff, settings):
    # The default runner enqueues shipping.tasks.postal_import in the request's transaction;
    # the tests' task backend runs a job as soon as it is enqueued.
    settings.POSTAL_IMPORT_RUNNER = "job"
    settings.POSTAL_IMPORT_INLINE_MAX_LINES = 10
    response = staff.post(POSTAL, {"file": upload(geonames(30), "BR.txt"), "country": "BRA"})
    job = PostalImportJob.objects.get()
    assert response["Location"] == reverse("admin:shipping_postalcode_import_job", args=[job.pk])
    assert job.status == JobStatus.DONE
    assert PostalCode.objects.count() == 30
