"""The banner listing as the API answers it: rendered groups cached with every active
banner and its window, the schedule applied per request (exact at every start and end)."""

import hashlib
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from infra.caching.kept import cached
from infra.scheduling import Window, next_boundary
from storefront.models import SalesChannel

from ..models import BannerGroup
from ..selectors import BANNERS_CACHE, banner_groups_by_codes
from .serializers import BannerGroupSerializer


@dataclass(frozen=True)
class BannerGroupEntry:
    group: dict
    banners: tuple[tuple[Window, dict], ...]


@dataclass(frozen=True)
class BannerListing:
    groups: list[dict]
    # First scheduling boundary after the moment: until then the listing stays exact.
    valid_until: datetime | None

    def max_age(self, moment: datetime) -> int:
        """Seconds a client or CDN may reuse the listing without missing a boundary."""
        limit = settings.PUBLIC_CACHE_SECONDS
        if self.valid_until is None:
            return limit
        return max(0, min(limit, math.floor((self.valid_until - moment).total_seconds())))


def group_entries(groups: Iterable[BannerGroup], context: dict[str, Any]) -> list[BannerGroupEntry]:
    entries = []
    for group in groups:
        data = dict(BannerGroupSerializer(group, context=context).data)
        windows = [banner.effective_window for banner in group.banners.all()]
        banners = tuple(zip(windows, map(dict, data["banners"]), strict=True))
        entries.append(BannerGroupEntry(group=data, banners=banners))
    return entries


def live_at(entries: list[BannerGroupEntry], moment: datetime) -> BannerListing:
    groups = [
        {
            **entry.group,
            "banners": [banner for window, banner in entry.banners if window.contains(moment)],
        }
        for entry in entries
    ]
    windows = (window for entry in entries for window, _ in entry.banners)
    return BannerListing(groups=groups, valid_until=next_boundary(windows, moment))


def _listing_key(codes: list[str], channel_id: int | None, base_url: str) -> str:
    raw = json.dumps([codes, channel_id, base_url], separators=(",", ":"))
    return hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()


def banner_listing_get(
    *, codes: list[str], channel: SalesChannel | None, moment: datetime, base_url: str
) -> BannerListing:
    """What GET /publics/template/banners answers at `moment` (groups in `codes` order):
    the cache holds every active banner, so the answer is exact at every start and end."""
    channel_id = channel.pk if channel is not None else None
    context = {"channel_id": channel_id, "base_url": base_url}
    entries = cached(
        BANNERS_CACHE,
        _listing_key(codes, channel_id, base_url),
        lambda: group_entries(banner_groups_by_codes(codes=codes, channel=channel), context),
    )
    return live_at(entries, moment)
