"""The benchmark's data set at a tiny size, built once per test module on the test
database (bench/dataset), for the tests of the data set and of the random-key path lists."""

from io import StringIO

import pytest
from django.db import transaction
from django.test import override_settings

from bench.dataset.build import Size, build

# Just above what the demo store holds, so every section adds rows.
TINY = Size(
    categories=120,
    products=260,
    regular_products=170,
    reviews=400,
    top_reviews=25,
    store_reviews=40,
    comments=180,
    top_comments=12,
)
SEED = 7


@pytest.fixture(scope="module")
def dataset(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once for the module, inside a transaction rolled back at its end (each test
    runs in a savepoint of it)."""
    folder = tmp_path_factory.mktemp("bench-dataset")
    with (
        django_db_blocker.unblock(),
        override_settings(DATA_DIR=folder, MEDIA_ROOT=folder / "media"),
        transaction.atomic(),
    ):
        yield build(size=TINY, seed=SEED, stdout=StringIO())
        transaction.set_rollback(True)
