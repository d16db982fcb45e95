"""What staff read of the jobs in pt-BR (issue 35): the outbox's hidden-value markers, the task
queue's task names, and the e-mails' sender."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django_tasks_db.models import DBTaskResult

from jobs.admin import TASK_NAMES, TaskResultAdmin
from jobs.models import OutboundEmail
from jobs.services import hidden_marker

pytestmark = pytest.mark.django_db


def test_the_outbox_shows_a_hidden_link_marker_in_portuguese(client, settings):
    settings.ADMIN_LANGUAGE_CODE = "pt-br"
    client.force_login(get_user_model().objects.create_superuser("g", "g@loja.example", "x"))
    marker = hidden_marker("reset link")
    email = OutboundEmail.objects.create(
        key="k", to="a@b.example", subject="Senha", body_text=f"Abra {marker}", body_html=""
    )
    page = client.get(reverse("admin:jobs_outboundemail_change", args=[email.pk]))
    content = page.content.decode()
    assert "[link de redefinição de senha: oculto, enviado só ao destinatário]" in content
    assert "hidden, sent only" not in content


@pytest.mark.parametrize("path", ["jobs.tasks.send_email", "webhooks.tasks.deliver_webhook"])
def test_task_names_read_in_portuguese(path):
    with translation.override("pt-br"):
        shown = TaskResultAdmin.task(None, DBTaskResult(task_path=path))
    assert shown in {"Enviar um e-mail", "Entregar um webhook"}


def test_every_task_of_the_project_has_a_portuguese_name():
    from django_tasks.base import Task

    import jobs.tasks
    import marketing.tasks
    import shipping.tasks
    import webhooks.tasks

    modules = (jobs.tasks, marketing.tasks, shipping.tasks, webhooks.tasks)
    tasks = {name for m in modules for name, v in vars(m).items() if isinstance(v, Task)}
    assert tasks == set(TASK_NAMES)


def test_the_sender_has_a_portuguese_display_name():
    assert settings.DEFAULT_FROM_EMAIL == "Loja <no-reply@store.example>"
