"""Jobs of the jobs app (run by `manage.py jobs_worker`)."""

from django_tasks import task

from .services import email_send


@task()
def send_email(email_id: int) -> str:
    return email_send(email_id)
