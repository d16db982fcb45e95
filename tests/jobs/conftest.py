import pytest

from .support import DATABASE_TASKS


@pytest.fixture
def db_tasks(settings):
    """Jobs are rows in the database (as in production), run by `run_jobs()`."""
    settings.TASKS = DATABASE_TASKS
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
