"""A database guard for reads: every statement a block runs on any connection of this thread
is checked, and a write (INSERT, UPDATE, DELETE, DDL, ...) fails the test. Used by the
autouse fixture of tests/conftest.py around every public GET/HEAD the suite makes, and by
tests/storefront/test_reads_only_read.py."""

import re
from contextlib import ExitStack, contextmanager

from django.conf import settings
from django.db import connections

# A statement that changes data or schema; a CTE (WITH ...) that does; not SELECT ... FOR
# UPDATE, savepoints or PRAGMA/SET (transaction and session control).
_WRITE = re.compile(
    r"^\s*(INSERT|UPDATE|DELETE|REPLACE|UPSERT|MERGE|CREATE|ALTER|DROP|TRUNCATE|GRANT|REVOKE"
    r"|COPY|VACUUM|REINDEX|CLUSTER|COMMENT|REFRESH)\b",
    re.IGNORECASE,
)
_CTE_WRITE = re.compile(
    r"^\s*WITH\b.*\b(INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\S+\s+SET)\b", re.IGNORECASE | re.DOTALL
)


def is_write(sql: str) -> bool:
    return bool(_WRITE.match(sql) or _CTE_WRITE.match(sql))


class DatabaseWriteInRead(AssertionError):
    pass


class WriteGuard:
    def __init__(self, what: str) -> None:
        self.what = what
        self.writes: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if is_write(sql):
            self.writes.append(sql)
            raise DatabaseWriteInRead(f"{self.what} wrote to the database: {sql[:300]}")
        return execute(sql, params, many, context)

    def check(self) -> None:
        """Fail even when the view caught the guard's error (a 500 envelope, a fallback)."""
        if self.writes:
            raise DatabaseWriteInRead(f"{self.what} wrote to the database: {self.writes[0][:300]}")


@contextmanager
def no_writes(what: str = "a read"):
    """Fail on any write statement on any database alias inside the block."""
    guard = WriteGuard(what)
    with ExitStack() as stack:
        for alias in settings.DATABASES:
            stack.enter_context(connections[alias].execute_wrapper(guard))
        yield guard
    guard.check()


def is_public_read(method: str, path: str) -> bool:
    """A GET/HEAD outside the admin. The admin's pages are staff tools on the primary: their
    GETs may write (a session saved, django-axes' records, the admin's own log)."""
    return method.upper() in ("GET", "HEAD") and not path.startswith(settings.ADMIN_PATH_PREFIX)
