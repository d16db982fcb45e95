from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from infra.translations import compile_po, po_files, untranslated


class Command(BaseCommand):
    help = "Compile the project's .po catalogues to .mo (pure Python; `make messages`)."

    def handle(self, *args, **options):
        found = False
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in po_files(Path(locale_dir)):
                found = True
                mo_path = compile_po(po_path)
                missing = untranslated(po_path)
                self.stdout.write(f"{mo_path}: compiled, {len(missing)} untranslated")
                for msgid in missing:
                    self.stdout.write(f"  untranslated: {msgid!r}")
        if not found:
            raise CommandError("No .po file under LOCALE_PATHS.")
