"""MEDIA_STORAGE=s3 against an S3 emulator (moto's server, started here on a free port of
127.0.0.1; never the internet): images uploaded through the admin and the API are resized
into the bucket and served from its URL; an import staged by one process is confirmed by
another, and a postal-code job runs in a worker that never saw the upload; nothing is
written under MEDIA_ROOT or IMPORT_STAGING_DIR."""

import importlib.util
import io
import json
import logging
import os
import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from PIL import Image

from infra.storage import storages_setting

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("moto") is None,
    reason="needs moto, the S3 emulator (pip install -r requirements-dev.txt)",
)

ROOT = Path(__file__).resolve().parents[2]
KEY, SECRET, REGION = "test-key", "test-secret", "us-east-1"


@pytest.fixture(scope="module")
def s3_endpoint():
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


def _client(endpoint: str):
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=KEY,
        aws_secret_access_key=SECRET,
    )


@pytest.fixture
def bucket(s3_endpoint):
    """A new bucket whose media/ (only) anyone may read, as the README asks."""
    name = f"store-{secrets.token_hex(6)}"
    client = _client(s3_endpoint)
    client.create_bucket(Bucket=name)
    public = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": "*",
                "Action": "s3:GetObject",
                "Resource": f"arn:aws:s3:::{name}/media/*",
            }
        ],
    }
    client.put_bucket_policy(Bucket=name, Policy=json.dumps(public))
    return name


def _keys(endpoint: str, bucket: str, prefix: str = "") -> list[str]:
    listed = _client(endpoint).list_objects_v2(Bucket=bucket, Prefix=prefix)
    return [item["Key"] for item in listed.get("Contents", [])]


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - 127.0.0.1
        return response.read()


def _size_at(url: str) -> tuple[int, int]:
    with Image.open(io.BytesIO(_fetch(url))) as image:
        return image.size


def _local_files(*folders: Path) -> list[Path]:
    return [path for folder in folders for path in folder.rglob("*")]


@pytest.fixture
def on_s3(settings, tmp_path, s3_endpoint, bucket):
    """This process's settings with MEDIA_STORAGE=s3 (public URL: the bucket's, path-style);
    MEDIA_ROOT and IMPORT_STAGING_DIR are empty folders the test checks stay empty."""
    local = [tmp_path / "media", tmp_path / "staging"]
    for folder in local:
        folder.mkdir()
    settings.MEDIA_ROOT, settings.IMPORT_STAGING_DIR = local
    public_url = f"{s3_endpoint}/{bucket}"
    settings.STORAGES = {
        **storages_setting(
            "s3",
            bucket=bucket,
            endpoint_url=s3_endpoint,
            region=REGION,
            access_key=KEY,
            secret_key=SECRET,
            public_url=public_url,
        ),
        "staticfiles": settings.STORAGES["staticfiles"],
    }
    yield public_url + "/media/", local
    assert _local_files(*local) == []


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create(username="boss", is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


# --- Media, in this process -------------------------------------------------------------


@pytest.mark.django_db
def test_banner_group_images_are_fitted_into_the_bucket_and_served_from_its_url(
    staff, api_client, on_s3, s3_endpoint, bucket
):
    from tests.marketing.test_admin import group_form_data, inline_banner

    media_url, _local = on_s3
    data = group_form_data(code="s3", **{"banners-TOTAL_FORMS": "1"}, **inline_banner())

    response = staff.post(reverse("admin:marketing_bannergroup_add"), data)

    assert response.status_code == 302
    banner = api_client.get("/api/v3/publics/template/banners", {"codes": "s3"}).json()
    banner = banner["data"][0]["banners"][0]
    sizes = {"desktop": (1200, 400), "tablet": (800, 300), "mobile": (400, 400)}
    for device, size in sizes.items():
        url = banner[f"{device}Image"]
        assert url.startswith(media_url + "banners/fitted/")
        assert _size_at(url) == size
    assert _size_at(banner["desktopOriginalImage"]) == (2400, 800)
    assert any(key.startswith("media/banners/fitted/") for key in _keys(s3_endpoint, bucket))


@pytest.mark.django_db
def test_a_seal_is_fitted_into_the_bucket_and_shown_from_its_url(staff, on_s3):
    from catalog.models import Seal
    from catalog.models.merchandising import SEAL_MAX_SIDE
    from tests.catalog.test_admin_merchandising import seal_form, upload

    media_url, _local = on_s3

    response = staff.post(
        reverse("admin:catalog_seal_add"), seal_form(original_image=upload(1600, 800))
    )

    assert response.status_code == 302
    seal = Seal.objects.get()
    assert seal.image.url.startswith(media_url)
    assert _size_at(seal.image.url) == (SEAL_MAX_SIDE, SEAL_MAX_SIDE // 2)
    assert seal.image.url in staff.get(reverse("admin:catalog_seal_changelist")).content.decode()


@pytest.mark.django_db
def test_product_media_is_resized_into_the_bucket_and_served_from_its_url(staff, on_s3):
    from catalog.models import ProductMedia
    from catalog.services import WEB_IMAGE_MAX_SIDE
    from tests.catalog.factories import ProductFactory
    from tests.catalog.test_admin import _png, _product_form

    media_url, _local = on_s3
    product = ProductFactory()
    form = {
        "medias-TOTAL_FORMS": 1,
        "medias-0-type": "image",
        "medias-0-original_file": _png(WEB_IMAGE_MAX_SIDE + 400, 100),
        "medias-0-title": "Front",
        "medias-0-position": 0,
    }

    response = staff.post(
        reverse("admin:catalog_product_change", args=[product.pk]),
        _product_form(product, **form),
    )

    assert response.status_code == 302
    media = ProductMedia.objects.get(product=product)
    assert media.file.url.startswith(media_url)
    assert media.width == WEB_IMAGE_MAX_SIDE
    assert _size_at(media.file.url) == (media.width, media.height)
    assert _size_at(media.original_file.url) == (WEB_IMAGE_MAX_SIDE + 400, 100)


@pytest.mark.django_db
def test_review_photos_are_scaled_into_the_bucket_and_served_from_its_url(api_client, on_s3):
    from tests.catalog.factories import ProductFactory
    from tests.feedback.test_api_review_writes import bearer, image_b64
    from tests.storefront.factories import CustomerFactory

    media_url, _local = on_s3
    customer = CustomerFactory()
    body = {"productId": ProductFactory().pk, "score": 5, "comment": "Muito bom."}
    body["images"] = [image_b64(3200, 1000)]

    response = api_client.post("/review/product", body, format="json", **bearer(customer))

    assert response.status_code == 201, response.content
    [photo] = response.json()["data"]["medias"]
    assert photo["image"].startswith(media_url)
    with Image.open(io.BytesIO(_fetch(photo["image"]))) as stored:
        assert (stored.size, stored.format) == ((1600, 500), "JPEG")


# --- Staged imports and jobs, across processes ---------------------------------------------


def _admin_url(database_url: str, name: str) -> str:
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))


@pytest.fixture(scope="module")
def instances(tmp_path_factory, s3_endpoint):
    """The environment of app processes sharing a fresh database and one bucket (on the
    database CI tests with: PostgreSQL when DATABASE_URL names a server, else SQLite)."""
    folder = tmp_path_factory.mktemp("s3-instances")
    bucket = f"store-{secrets.token_hex(6)}"
    _client(s3_endpoint).create_bucket(Bucket=bucket)
    local = [folder / "media", folder / "staging"]
    for path in local:
        path.mkdir()
    skipped = {"DJANGO_DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    env = {key: value for key, value in os.environ.items() if key not in skipped}
    env.update(
        {
            "HTTPS": "0",
            "ADMIN_LANGUAGE_CODE": "en",
            "SECRET_KEY": secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "testserver",
            "DATA_DIR": str(folder / "data"),
            "MEDIA_ROOT": str(local[0]),
            "IMPORT_STAGING_DIR": str(local[1]),
            "MEDIA_STORAGE": "s3",
            "S3_ENDPOINT_URL": s3_endpoint,
            "S3_BUCKET": bucket,
            "S3_REGION": REGION,
            "S3_ACCESS_KEY_ID": KEY,
            "S3_SECRET_ACCESS_KEY": SECRET,
            "POSTAL_IMPORT_RUNNER": "job",
            "POSTAL_IMPORT_INLINE_MAX_LINES": "10",
        }
    )
    database_url = os.environ.get("DATABASE_URL", "")
    name = f"s3_{secrets.token_hex(4)}"
    if database_url.startswith(("postgres://", "postgresql://")):
        import psycopg

        with psycopg.connect(_admin_url(database_url, "postgres"), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = _admin_url(database_url, name)
    _manage(env, "migrate", "--noinput", "-v0")
    yield env, bucket, local
    if "DATABASE_URL" in env:
        import psycopg

        with psycopg.connect(_admin_url(database_url, "postgres"), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - this interpreter, manage.py, fixed arguments
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _step(env: dict[str, str], call: str) -> dict:
    """Run `call` of tests/storefront/object_storage_steps.py in a new process."""
    code = f"from tests.storefront.object_storage_steps import *; {call}"
    return json.loads(_manage(env, "shell", "-c", code).strip().splitlines()[-1])


ROWS = (
    "initial_zipcode,final_zipcode,initial_weight,final_weight,initial_price,final_price,"
    "shipping_value,begin_shipping_time,end_shipping_time\n"
    "01000-000,19999-999,0,1,0,,15.90,1,3\n20000-000,28999-999,0,,0,,20,2,4\n"
)


def test_a_dry_run_in_one_process_is_confirmed_in_another(instances, s3_endpoint):
    env, bucket, local = instances

    dry = _step(env, f"rows_dry_run({ROWS!r})")

    assert "2 would be created" in dry["page"]
    assert _keys(s3_endpoint, bucket) == [f"imports/{dry['path']}"]
    with pytest.raises(urllib.error.HTTPError) as private:  # staged files are not public
        _fetch(f"{s3_endpoint}/{bucket}/imports/{dry['path']}")
    assert private.value.code == 403

    done = _step(env, f"rows_confirm({dry['table']}, {dry['token']!r})")

    assert done["status"] == 302
    assert done["rows"] == [["01000000", "19999999", "15.90"], ["20000000", "28999999", "20.00"]]
    assert done["staged"] is False
    assert _keys(s3_endpoint, bucket, "imports/") == []
    assert _local_files(*local) == []


def test_a_postal_import_job_runs_in_a_worker_that_never_saw_the_upload(instances, s3_endpoint):
    from tests.shipping.test_imports import geonames_line

    env, bucket, local = instances
    content = "".join(geonames_line(number) for number in range(1, 31))

    uploaded = _step(env, f"postal_upload({content!r})")

    assert uploaded["status"] == 302
    assert _keys(s3_endpoint, bucket, "imports/") == [f"imports/{uploaded['path']}"]

    _manage(env, "jobs_worker", "--batch", "--no-startup-delay", "--no-reload")

    job = _step(env, f"postal_job({uploaded['job']})")
    assert job == {"status": "done", "error": "", "created": 30, "codes": 30, "staged": False}
    assert _keys(s3_endpoint, bucket, "imports/") == []
    assert _local_files(*local) == []
