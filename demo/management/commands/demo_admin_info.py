from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from demo.storefront import DEMO_ADMIN_USERNAME, demo_admin_password_file


class Command(BaseCommand):
    help = "Print how to sign in to the admin of the demo store."

    def handle(self, *args, **options):
        user_model = get_user_model()
        password_file = demo_admin_password_file()
        if not user_model.objects.filter(username=DEMO_ADMIN_USERNAME).exists():
            self.stdout.write(
                "Admin sign-in:   no demo admin yet; create staff with "
                "`.venv/bin/python manage.py createsuperuser`."
            )
        elif password_file.exists():
            password = password_file.read_text().strip()
            self.stdout.write(
                f"Admin sign-in:   user '{DEMO_ADMIN_USERNAME}', password '{password}' "
                f"(generated for this checkout, kept in {password_file})"
            )
        else:
            self.stdout.write(
                f"Admin sign-in:   user '{DEMO_ADMIN_USERNAME}'; set its password with "
                f"`.venv/bin/python manage.py changepassword {DEMO_ADMIN_USERNAME}`."
            )
