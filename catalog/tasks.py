"""Jobs of the catalog app: the back-in-stock waves (run by `manage.py jobs_worker`)."""

from django_tasks import task

from .restocks import back_in_stock_wave


@task()
def send_back_in_stock_wave(restock_id: int, wave: int) -> int:
    return back_in_stock_wave(restock_id, wave)
