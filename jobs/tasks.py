"""Jobs of the jobs app (run by `manage.py jobs_worker`)."""

from io import StringIO

from django.core.management import call_command
from django_tasks import task

from .services import email_send


@task()
def send_email(email_id: int) -> str:
    return email_send(email_id)


# Management commands a job may run (long imports started from the admin).
COMMANDS_AS_JOBS = frozenset({"import_postal_codes", "import_shipping_rows"})


@task()
def run_command(name: str, args: list[str]) -> str:
    """Run the management command `name` with `args`; returns its output's end."""
    if name not in COMMANDS_AS_JOBS:
        raise ValueError(f"The command {name!r} may not run as a job.")
    out = StringIO()
    call_command(name, *args, stdout=out, stderr=out)
    return out.getvalue()[-2000:]
