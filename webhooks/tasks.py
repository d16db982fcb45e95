"""Jobs of the webhooks app."""

from django_tasks import task

from .services import delivery_attempt


@task()
def deliver_webhook(delivery_id: int) -> str:
    return delivery_attempt(delivery_id)
