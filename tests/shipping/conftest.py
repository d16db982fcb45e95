"""Shipping tests keep uploads staged by the admin imports in a temporary folder."""

import pytest


@pytest.fixture(autouse=True)
def _temporary_import_staging(settings, tmp_path):
    settings.IMPORT_STAGING_DIR = tmp_path / "staged-imports"
    settings.POSTAL_IMPORT_RUNNER = "none"  # tests run jobs themselves (no subprocess)
    return settings.IMPORT_STAGING_DIR
