from django.core.management.base import BaseCommand
from django.utils import timezone

from storefront.models import IdempotencyRecord


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
        expired = IdempotencyRecord.objects.filter(expires_at__lte=timezone.now())
        count = expired.count() if dry_run else expired.delete()[0]
        verb = "would be deleted" if dry_run else "deleted"
        self.stdout.write(f"{count} expired idempotency record(s) {verb}.")
