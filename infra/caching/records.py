"""The versions of single records (`product:<id>`, `stock:<id>`) an answer or a fragment
shows: `depend_on` reads and notes them inside `recording()`, `still_current` checks them
before a kept value is reused (a change of one product retires what showed it only)."""

import contextvars
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from .versions import namespace_versions

_recorded: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "cache_dependencies", default=None
)


@contextmanager
def recording() -> Iterator[dict[str, int]]:
    """Collect the versions `depend_on` notes inside the block (and pass them outwards)."""
    outer = _recorded.get()
    found: dict[str, int] = {}
    token = _recorded.set(found)
    try:
        yield found
    finally:
        _recorded.reset(token)
        if outer is not None:
            outer.update(found)


def depend_on(namespaces: Iterable[str]) -> dict[str, int]:
    names = tuple(namespaces)
    versions = dict(zip(names, namespace_versions(names), strict=True))
    noted = _recorded.get()
    if noted is not None:
        noted.update(versions)
    return versions


def still_current(dependencies: dict[str, int]) -> bool:
    return not dependencies or depend_on(dependencies) == dependencies
