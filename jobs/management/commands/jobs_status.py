"""manage.py jobs_status: the queue at a glance (for monitoring and alerts)."""

import json

from django.core.management.base import BaseCommand

from jobs.services import queue_stats


class Command(BaseCommand):
    help = (
        "Print the job queue's state: jobs ready (and due now), running, failed, the age in "
        "seconds of the oldest due job, e-mails queued and failed. --json for a monitor."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--json", action="store_true", dest="json_flag", help="One JSON object."
        )

    def handle(self, *args, json_flag: bool = False, **options):
        stats = queue_stats()
        if json_flag:
            self.stdout.write(json.dumps(stats.__dict__))
            return
        for name, value in stats.__dict__.items():
            self.stdout.write(f"{name}: {value}")
