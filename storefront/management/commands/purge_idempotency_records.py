from django.core.management.base import BaseCommand

from storefront.idempotency import idempotency_records_purge


class Command(BaseCommand):
    help = (
        "Delete the stored first answers of Idempotency-Key requests whose time "
        "(IDEMPOTENCY_KEY_TTL) has passed. Safe to run from cron on several machines."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Count the expired records, delete nothing."
        )

    def handle(self, *args, dry_run: bool = False, **options):
        count = idempotency_records_purge(dry_run=dry_run)
        verb = "would be deleted" if dry_run else "deleted"
        self.stdout.write(f"{count} expired idempotency record(s) {verb}.")
