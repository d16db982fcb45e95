"""Steps of tests/storefront/test_object_storage.py run in processes of their own
(`manage.py shell -c "from tests.storefront.object_storage_steps import ...; ..."`), as
another app instance would: each prints one JSON line on stdout."""

import json

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse


def _staff() -> Client:
    user, _ = get_user_model().objects.get_or_create(
        username="boss", defaults={"is_staff": True, "is_superuser": True}
    )
    client = Client()
    client.force_login(user)
    return client


def _say(**values) -> None:
    print(json.dumps(values))


def _upload(name: str, content: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content.encode(), content_type="text/csv")


def rows_dry_run(content: str) -> None:
    """A new shipping table, and the dry run of `content` for it in the admin."""
    from shipping.models import StagedImport
    from tests.shipping.factories import ShippingTableFactory

    table = ShippingTableFactory()
    url = reverse("admin:shipping_shippingtable_import_rows", args=[table.pk])
    page = _staff().post(url, {"file": _upload("rows.csv", content), "dry_run": "on"})
    staged = StagedImport.objects.get(table=table)
    _say(table=table.pk, token=str(staged.token), path=staged.path, page=page.content.decode())


def rows_confirm(table_id: int, token: str) -> None:
    """Confirm ("Import these rows") the dry run `token` of table `table_id`."""
    from shipping.models import ShippingRow, StagedImport

    url = reverse("admin:shipping_shippingtable_import_rows", args=[table_id])
    response = _staff().post(url, {"confirm": "1", "token": token})
    rows = ShippingRow.objects.filter(table_id=table_id).order_by("initial_zipcode")
    _say(
        status=response.status_code,
        rows=[[row.initial_zipcode, row.final_zipcode, str(row.shipping_value)] for row in rows],
        staged=StagedImport.objects.filter(token=token).exists(),
    )


def postal_upload(content: str) -> None:
    """A postal-code file large enough for the background, uploaded in the admin."""
    from shipping.models import PostalImportJob, StagedImport

    response = _staff().post(
        reverse("admin:shipping_postalcode_import"),
        {"file": _upload("BR.txt", content), "country": "BRA"},
    )
    job = PostalImportJob.objects.get()
    _say(status=response.status_code, job=job.pk, path=StagedImport.objects.get().path)


def postal_job(job_id: int) -> None:
    from shipping.models import PostalCode, PostalImportJob, StagedImport

    job = PostalImportJob.objects.get(pk=job_id)
    _say(
        status=job.status,
        error=job.error,
        created=job.rows_created,
        codes=PostalCode.objects.count(),
        staged=StagedImport.objects.exists(),
    )
