"""Product pages rendered ahead (docs/caching.md, "Pages rendered ahead").

A random product page of a large store is a miss almost every time (a worker keeps 12 MB of
answers; the bench store has 36,227 pages) and a miss costs about 3 ms. So upkeep renders
every product page before it is asked, for each origin in PAGES_AHEAD_ORIGINS (the
`scheme://host[:port]` storefront clients call), through the whole HTTP stack as a client's
GET, and keeps each answer with the versions it was rendered with in `ProductPageAhead`.
A GET that finds no answer in the cache reads its key's row (`answer_ahead`: one SELECT)
and serves it only if every version it depends on is still current, as any kept answer
(apikit.caching); a page changed since is rendered by the request as before, and again by
the next pass. A GET never writes: the rows are written here only.

Each product's summary (the Product summary listings, search, suggest, reviews and pages
embed) is rendered ahead too, per origin, into a row of the same table
(`catalog.api.fragments.summaries_ahead` reads it when a process has not kept it): a
listing of random categories otherwise renders most of its summaries itself, in each worker.

`render_ahead` is run by the jobs worker every PAGES_AHEAD_EVERY_SECONDS, for at most
PAGES_AHEAD_PASS_SECONDS (missing pages first, then stale ones; the rest on the next pass),
and by `manage.py render_pages_ahead` (all of them, after a deploy).
"""

import pickle
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from apikit.caching import RenderedAnswer, answer_key
from infra.caching.records import still_current
from infra.caching.versions import namespace_versions, per_request

from ..models import ProductPageAhead
from ..selectors.ahead import answers_ahead
from ..selectors.listing import product_page_ids
from .fragments import summary_ahead_keys, summary_namespaces, summary_parts

PAGE_PATH = "/publics/products/{}"
SAVE_EVERY = 200  # rows written in one statement
OTHER_RELEASES_KEPT = timedelta(days=1)  # a rolling deploy's older release still reads its own


def answer_ahead(key: str) -> RenderedAnswer | None:
    """The product page rendered ahead under the answer key `key` (None: none): one SELECT
    (`answers_ahead`)."""
    row = answers_ahead([key]).get(key)
    if row is None:
        return None
    try:
        answer = pickle.loads(row)  # noqa: S301  (written by render_ahead only)
    except Exception:  # a row another code version wrote: as if missing
        return None
    return answer if isinstance(answer, RenderedAnswer) else None


@dataclass
class AheadPass:
    """What one pass did (and, for an operator, what is left)."""

    pages: int = 0  # pages kept ahead: every origin's product pages
    rendered: int = 0
    current: int = 0  # found still current
    summaries: int = 0  # summaries kept ahead: every origin's products with a page
    summaries_rendered: int = 0
    removed: int = 0  # rows of products without a page, of origins or releases gone
    left: int = 0  # due, left for the next pass (out of time)
    failed: int = 0  # answered other than 200 (e.g. 301 to https: an origin's wrong scheme)
    failed_status: int | None = None  # the first such status


def origins() -> list[str]:
    """PAGES_AHEAD_ORIGINS as `scheme://host[:port]`."""
    found = []
    for origin in settings.PAGES_AHEAD_ORIGINS:
        parts = urlsplit(origin.strip())
        if parts.scheme in ("http", "https") and parts.netloc:
            found.append(f"{parts.scheme}://{parts.netloc}")
    return found


def render_ahead(*, seconds: float | None = None) -> AheadPass:
    """Render the missing and stale product pages of every origin (for at most `seconds`),
    keep them, and delete the rows nobody will ask."""
    started, done = time.monotonic(), AheadPass()
    ids = sorted(product_page_ids())
    summaries = {  # first: cheaper, and each serves many answers
        key: (origin, pk)
        for origin in origins()
        for key, pk in summary_ahead_keys(f"{origin}/", ids).items()
    }
    pages = {
        answer_key(f"{origin}{PAGE_PATH.format(pk)}?"): (origin, pk)
        for origin in origins()
        for pk in ids
    }
    wanted = {**summaries, **pages}
    done.pages, done.summaries = len(pages), len(summaries)
    stored = ProductPageAhead.objects.filter(release=settings.RELEASE)
    found, gone = {}, []
    for key, dependencies, until in stored.values_list("key", "dependencies", "valid_until"):
        if key in wanted:
            found[key] = (dependencies, until)
        else:
            gone.append(key)
    done.removed = _prune(gone)
    now = time.time()
    with per_request():  # every version read once, in one call
        namespace_versions(tuple({name for deps, _ in found.values() for name, _ in deps}))
        current = {
            key
            for key, (dependencies, until) in found.items()
            if (until is None or until > now) and still_current(dict(dependencies))
        }
    done.current = len(current.intersection(pages))
    due = [key for key in wanted if key not in found] + [
        key for key in wanted if key in found and key not in current
    ]
    from django.test import Client  # the in-process client (not imported by the web workers)

    client, rows, batch = Client(), [], []
    for number, key in enumerate(due):
        if seconds is not None and time.monotonic() - started > seconds:
            done.left = len(due) - number
            break
        origin, product_id = wanted[key]
        if key in summaries:
            batch.append((origin, product_id))
            if len(batch) >= SAVE_EVERY or number + 1 == len(due) or due[number + 1] in pages:
                done.summaries_rendered += _save(_rendered_summaries(batch))
                batch = []
            continue
        status, row = _rendered(client, key, origin, product_id)
        if row is not None:
            rows.append(row)
        elif status != 200:
            done.failed += 1
            done.failed_status = done.failed_status or status
        if len(rows) >= SAVE_EVERY:
            done.rendered += _save(rows)
            rows = []
    done.rendered += _save(rows)
    done.summaries_rendered += _save(_rendered_summaries(batch))  # (one cut short by time)
    return done


def _rendered_summaries(batch: list[tuple[str, int]]) -> list[ProductPageAhead]:
    """The summaries of `batch` ((origin, product id)) as rows, with the versions read
    before they were rendered."""
    rows = []
    for origin in dict.fromkeys(origin for origin, _ in batch):
        pids = [pk for each, pk in batch if each == origin]
        keys = {pk: key for key, pk in summary_ahead_keys(f"{origin}/", pids).items()}
        names = tuple({name for pk in pids for name in summary_namespaces(pk)})
        versions = dict(zip(names, namespace_versions(names), strict=True))
        now = timezone.now()
        for pk, (head, tail) in summary_parts(pids, base_url=f"{origin}/").items():
            shown = [(name, versions[name]) for name in summary_namespaces(pk)]
            stamp = tuple(version for _, version in shown)
            rows.append(
                ProductPageAhead(
                    key=keys[pk],
                    product_id=pk,
                    release=settings.RELEASE,
                    answer=pickle.dumps((stamp, head, tail), protocol=pickle.HIGHEST_PROTOCOL),
                    dependencies=[list(pair) for pair in shown],
                    valid_until=None,
                    rendered_at=now,
                )
            )
    return rows


def _rendered(client: Any, key: str, origin: str, product_id: int) -> tuple[int, Any]:
    """(status, the page as a client's GET renders it as a row; None: not a kept answer)."""
    scheme, host = origin.split("://", 1)
    response = client.get(
        PAGE_PATH.format(product_id), headers={"host": host}, secure=scheme == "https"
    )
    answer = cache.get(key) if response.status_code == 200 else None
    cache.delete(key)  # a shared cache is not filled with every page: the row serves them
    if not isinstance(answer, RenderedAnswer):  # gone, or expiring now (a rule's boundary)
        return response.status_code, None
    return response.status_code, ProductPageAhead(
        key=key,
        product_id=product_id,
        release=settings.RELEASE,
        # whole (its plain body and its gzip bytes, made here: the rendering GET asked for
        # none): making the body again from the gzip bytes was a sixth of a hit's CPU
        # (docs/caching.md, "Pages rendered ahead")
        answer=pickle.dumps(answer.with_variants(), protocol=pickle.HIGHEST_PROTOCOL),
        dependencies=[list(pair) for pair in answer.dependencies],
        valid_until=answer.valid_until,
        rendered_at=timezone.now(),
    )


def _save(rows: list[ProductPageAhead]) -> int:
    ProductPageAhead.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["key"],
        update_fields=["answer", "dependencies", "valid_until", "rendered_at"],
    )
    return len(rows)


def _prune(gone: list[str]) -> int:
    """Delete the rows `gone` (this release's, nobody will ask), and older releases' after a
    day."""
    removed = 0
    for start in range(0, len(gone), 500):
        removed += ProductPageAhead.objects.filter(key__in=gone[start : start + 500]).delete()[0]
    older = ProductPageAhead.objects.exclude(release=settings.RELEASE)
    return removed + older.filter(rendered_at__lt=timezone.now() - OTHER_RELEASES_KEPT).delete()[0]
