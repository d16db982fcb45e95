"""Installed apps that ship no pt-BR catalogue, made Portuguese by the project's own: their
msgids are listed below for makemessages and never used by code (tests/i18n checks the list
against the installed sources). INSTALLED_APPS names the app configurations below.
"""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext_lazy
from django_tasks_db.apps import TasksAppConfig


class AxesConfig(AxesAppConfig):
    verbose_name = _("Back-office sign-ins")


class TaskResultsConfig(TasksAppConfig):
    # The app declares a str; Django takes a lazy translation.
    verbose_name = _("Task queue")  # type: ignore[assignment]


THIRD_PARTY_MESSAGES = (
    # django-axes
    gettext_noop("Locked Out"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Not set"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Account locked: too many login attempts. Please try again later."),
    gettext_noop(
        "Account locked: too many login attempts. Contact an admin to unlock your account."
    ),
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("Username"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Access lock out"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Failed Logins"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("Access Attempt"),
    gettext_noop("Expires At"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("Logout Time"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    # django-tasks (a task result's status)
    pgettext_lazy("Task", "Ready"),
    pgettext_lazy("Task", "Running"),
    pgettext_lazy("Task", "Failed"),
    pgettext_lazy("Task", "Successful"),
    # django-tasks-db
    gettext_noop("status"),
    gettext_noop("enqueued at"),
    gettext_noop("started at"),
    gettext_noop("finished at"),
    gettext_noop("args kwargs"),
    gettext_noop("priority"),
    gettext_noop("task path"),
    gettext_noop("worker id"),
    gettext_noop("queue name"),
    gettext_noop("backend name"),
    gettext_noop("run after"),
    gettext_noop("return value"),
    gettext_noop("exception class path"),
    gettext_noop("traceback"),
    gettext_noop("Task Result"),
    gettext_noop("Task Results"),
)
