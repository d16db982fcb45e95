"""Settings of the job drills (bench/crash_drill.py, bench/jobs_bench.py): the real settings
with the database backend of jobs, a short lease, and e-mails written to files (one file per
message, so duplicates can be counted) or to the console backend."""

import os

from config.settings import *  # noqa: F403

TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
JOBS_LEASE_SECONDS = int(os.environ.get("JOBS_LEASE_SECONDS", "2"))
if os.environ.get("DRILL_EMAIL_DIR"):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["DRILL_EMAIL_DIR"]
HTTPS = False
SECURE_SSL_REDIRECT = False
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
