"""Error e-mails to the operators, never sent inside a request.

Unlike Django's AdminEmailHandler (the whole request, SMTP inside the failing request, once
per error), a record is formatted (message and traceback only) and queued for a background
thread. At most one e-mail per distinct error per ERROR_EMAIL_INTERVAL, per process and
across processes through the shared cache; the next one says how many were left out.
"""

import contextlib
import hashlib
import logging
import os
import queue
import threading
import time
import traceback

from django.conf import settings
from django.core.cache import cache
from django.core.mail import mail_admins

QUEUE_SIZE = 100


def error_key(record: logging.LogRecord) -> str:
    parts = [record.name, str(record.msg)]
    if record.exc_info and record.exc_info[1] is not None:
        exc = record.exc_info[1]
        first_line = (str(exc).strip().splitlines() or [""])[0]
        parts = [record.name, type(exc).__qualname__, first_line[:200]]
        frames = traceback.extract_tb(record.exc_info[2])
        if frames:
            parts.append(f"{frames[-1].filename}:{frames[-1].lineno}")
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "replace")).hexdigest()[:32]


class OperatorEmailHandler(logging.Handler):
    def __init__(self, level: int = logging.ERROR) -> None:
        super().__init__(level)
        self._queue: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        self._state_lock = threading.Lock()
        self._last_sent: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if not getattr(settings, "ERROR_EMAILS", True) or not settings.ADMINS:
                return
            key = error_key(record)
            now = time.monotonic()
            interval = settings.ERROR_EMAIL_INTERVAL
            with self._state_lock:
                last = self._last_sent.get(key)
                if last is not None and now - last < interval:
                    self._suppressed[key] = self._suppressed.get(key, 0) + 1
                    return
                self._last_sent[key] = now
                suppressed = self._suppressed.pop(key, 0)
            subject = f"{record.levelname}: {record.getMessage()}".splitlines()[0][:200]
            body = self.format(record)
            if suppressed:
                body += f"\n\n({suppressed} more of this error since the last e-mail.)"
            self._ensure_sender()
            self._queue.put_nowait((key, interval, subject, body))
        except queue.Full:
            pass  # the sender is behind (SMTP down): drop rather than block a request
        except Exception:
            self.handleError(record)

    def _ensure_sender(self) -> None:
        with self._state_lock:
            if self._pid != os.getpid():  # forked (gunicorn worker): the thread stayed behind
                self._pid = os.getpid()
                self._queue = queue.Queue(maxsize=QUEUE_SIZE)
                self._thread = None
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._send_forever, name="operator-email", daemon=True
                )
                self._thread.start()

    def _send_forever(self) -> None:
        while True:
            key, interval, subject, body = self._queue.get()
            try:
                with contextlib.suppress(Exception):  # no shared cache: the process's limit holds
                    if not cache.add(f"operator-email:{key}", 1, timeout=interval):
                        continue  # another process sent it
                mail_admins(subject, body, fail_silently=True)
            except Exception:  # noqa: S110 - a failed e-mail must never kill the sender
                pass
            finally:
                self._queue.task_done()

    def flush(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._queue.join()

    def reset(self) -> None:
        with self._state_lock:
            self._last_sent.clear()
            self._suppressed.clear()
