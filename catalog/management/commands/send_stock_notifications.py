"""manage.py send_stock_notifications: e-mail customers whose product is back in stock."""

from django.core.management.base import BaseCommand

from catalog.services import stock_notifications_enqueue


class Command(BaseCommand):
    help = (
        "Queue the e-mail of every pending 'notify-me' product interest whose product is back "
        "in stock and mark it notified (one e-mail per interest, ever); background workers "
        "(manage.py jobs_worker) send them. Safe to run from cron on several machines at once "
        "(row locks with SKIP LOCKED on PostgreSQL)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Only count the interests that would be e-mailed; queue nothing.",
        )

    def handle(self, *args, dry_run: bool = False, **options):
        summary = stock_notifications_enqueue(dry_run=dry_run)
        if dry_run:
            self.stdout.write(
                f"Dry run: {summary.candidates} interest(s) would be e-mailed; nothing sent."
            )
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Back-in-stock e-mails: {summary.queued} queued for "
                f"{len(summary.products)} product(s); workers send them."
            )
        )
