"""Jobs of the shipping app (run by `manage.py jobs_worker`)."""

from django_tasks import task

from .imports.jobs import run_postal_import


@task()
def postal_import(job_id: int) -> str:
    """A background postal-code import started from the admin; returns its final status."""
    return run_postal_import(job_id).status
