"""manage.py run_postal_import <id>: run a postal-code import recorded in the admin."""

from django.core.management.base import BaseCommand, CommandError

from shipping.imports.jobs import run_postal_import
from shipping.models import JobStatus, PostalImportJob


class Command(BaseCommand):
    help = "Run the pending postal-code import job <id> (started from the admin)."

    def add_arguments(self, parser):
        parser.add_argument("job_id", type=int)

    def handle(self, *args, job_id, **options):
        if not PostalImportJob.objects.filter(pk=job_id).exists():
            raise CommandError(f"No postal import job {job_id}.")
        job = run_postal_import(job_id)
        for line in job.summary:
            self.stdout.write(line)
        if job.status == JobStatus.FAILED:
            raise CommandError(job.error or "The import failed.")
        self.stdout.write(f"Job {job.pk}: {job.get_status_display()}.")
