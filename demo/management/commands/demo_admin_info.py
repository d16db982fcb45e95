from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from demo.storefront import DEMO_ADMIN_USERNAME, demo_admin_password_file


class Command(BaseCommand):
    help = "Print how to sign in to the admin of the demo store."

    def handle(self, *args, **options):
        admin = get_user_model().objects.filter(username=DEMO_ADMIN_USERNAME).first()
        password_file = demo_admin_password_file()
        password = password_file.read_text().strip() if password_file.exists() else ""
        if admin is None:
            self.stdout.write(
                "Admin sign-in:   no demo admin yet; create staff with "
                "`.venv/bin/python manage.py createsuperuser`."
            )
        elif password and admin.check_password(password):
            self.stdout.write(
                f"Admin sign-in:   user '{DEMO_ADMIN_USERNAME}', password '{password}' "
                f"(generated for this checkout, kept in {password_file})"
            )
        else:  # no generated password, or staff changed it since
            self.stdout.write(
                f"Admin sign-in:   user '{DEMO_ADMIN_USERNAME}' with the password set for it, "
                "or set a new one with "
                f"`.venv/bin/python manage.py changepassword {DEMO_ADMIN_USERNAME}`."
            )
