"""Test helpers for background jobs: the database backend and an in-process worker pass."""

from unittest import mock

from django_tasks_db.management.commands.db_worker import Worker

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def run_jobs(max_tasks: int | None = None) -> int:
    """Run every due job with django-tasks' own database worker (one pass, in this process);
    returns how many ran. Connections are not recycled (the test's transaction stays)."""
    worker = Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=max_tasks,
        worker_id="test-worker",
        excluded_queue_names=[],
    )
    with mock.patch(
        "django_tasks_db.management.commands.db_worker.close_old_connections", lambda: None
    ):
        worker.run()
    return worker._run_tasks
