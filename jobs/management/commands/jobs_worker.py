"""manage.py jobs_worker: run background jobs (django-tasks' database worker, plus a lease)."""

import logging
import os
import random
import time

from django.conf import settings
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker

from infra import deferred
from jobs.services import jobs_requeue_stale

logger = logging.getLogger("jobs")


class Command(DbWorkerCommand):
    help = (
        "Run a background worker: takes ready jobs from the database one at a time and runs "
        "them. Run as many as you need, on any machine that reaches the database. Every "
        "JOBS_LEASE_SECONDS/2 (30 s at most) it also makes ready again the jobs a dead worker "
        "left marked running for longer than JOBS_LEASE_SECONDS, and runs the apps' upkeep "
        "when due (the carrier call log's hourly prune)."
    )

    def handle(self, *, verbosity, queue_name, interval, batch, backend_name, startup_delay,
               reload, max_tasks, worker_id, exclude_queues, **options):  # fmt: skip
        self.configure_logging(verbosity)
        if verbosity < 2:
            # Each pass logs its start and its end: only with -v 2.
            logging.getLogger("django_tasks_db").setLevel(logging.WARNING)
        worker = Worker(
            queue_names=queue_name.split(","),
            interval=interval,
            batch=True,  # each pass ends when the queue is empty; the loop below goes on
            backend_name=backend_name,
            startup_delay=False,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=exclude_queues.split(",") if exclude_queues else [],
        )
        requeue_every = max(min(settings.JOBS_LEASE_SECONDS / 2, 30.0), 0.5)

        def loop() -> None:
            if startup_delay and interval:
                time.sleep(random.random())  # noqa: S311 (spreads workers started together)
            last_requeue = 0.0
            while True:
                now = time.monotonic()
                if now - last_requeue >= requeue_every:
                    requeued = jobs_requeue_stale()
                    if requeued:
                        logger.warning("Made %s job(s) of dead workers ready again", requeued)
                    last_requeue = now
                deferred.run_due()  # the apps' upkeep (infra.deferred.every), when due
                worker.run()
                if batch or not worker.running:
                    return
                if max_tasks is not None and worker._run_tasks >= max_tasks:
                    return
                time.sleep(interval)

        if reload and not batch:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()
            run_with_reloader(loop)
        else:
            worker.configure_signals()
            loop()
