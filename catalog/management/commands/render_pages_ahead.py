"""manage.py render_pages_ahead: every product page rendered ahead, now (the worker renders
them too, a pass at a time)."""

from django.core.management.base import BaseCommand, CommandError

from catalog.api.ahead import origins, render_ahead


class Command(BaseCommand):
    help = (
        "Render every missing or stale product page and summary ahead, now, for each origin in "
        "PAGES_AHEAD_ORIGINS, and delete the rows nobody will ask (the jobs worker does the "
        "same every PAGES_AHEAD_EVERY_SECONDS, for at most PAGES_AHEAD_PASS_SECONDS). Run it "
        "after a deploy so the new release's pages are there before shoppers ask. Safe to run "
        "while the store serves."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--seconds", type=float, default=None, help="Stop after this long (default: all)."
        )

    def handle(self, *args, seconds: float | None = None, **options):
        if not origins():
            raise CommandError(
                "PAGES_AHEAD_ORIGINS names no origin (e.g. https://api.example.com): nothing "
                "to render."
            )
        done = render_ahead(seconds=seconds)
        if done.failed:
            problem = (
                f"{done.failed} page(s) answered {done.failed_status} (not 200), not kept: "
                "does each origin's scheme and host match how this instance is served "
                "(HTTPS, ALLOWED_HOSTS)?"
            )
            if not done.rendered and not done.current:
                raise CommandError(problem)
            self.stderr.write(problem)
        self.stdout.write(
            self.style.SUCCESS(
                f"Product pages ahead: {done.pages} page(s) for {', '.join(origins())}; "
                f"{done.rendered} rendered, {done.current} still current; "
                f"{done.summaries} product summaries, {done.summaries_rendered} rendered; "
                f"{done.removed} row(s) removed, {done.left} left for the next pass."
            )
        )
