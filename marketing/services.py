"""Writes of the marketing app."""

import hashlib
import logging
from collections.abc import Callable
from datetime import datetime

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import QuerySet

from .images import FIT_VERSION, fit_image
from .models import DEVICES, Banner, BannerGroup

logger = logging.getLogger(__name__)


def _fitted_prefix(*, banner: Banner, device: str, width: int, height: int, source: str) -> str:
    """Stable name of a device copy: it changes when the source, the size or the fitting do."""
    digest = hashlib.blake2b(f"{FIT_VERSION}|{source}".encode(), digest_size=5).hexdigest()
    return f"banners/fitted/{banner.pk}/{device}-{width}x{height}-{digest}"


def banner_images_refresh(*, banner: Banner, force: bool = False) -> list[str]:
    """Write the fitted copy of each device whose source or group size changed (cheap after
    every admin save); returns those devices. Raises images.ImageFitError on a bad source."""
    if banner.pk is None:
        raise ValueError("Save the banner before generating its images.")
    refreshed: list[str] = []
    replaced: list[tuple] = []
    for device in DEVICES:
        current = getattr(banner, f"{device}_image")
        source = banner.original_for(device)
        if not source:
            continue
        width, height = banner.group.size_for(device)
        prefix = _fitted_prefix(
            banner=banner, device=device, width=width, height=height, source=source.name
        )
        if (
            not force
            and current
            and current.name.startswith(prefix + ".")
            and current.storage.exists(current.name)
        ):
            continue
        with source.open("rb") as stream:
            fitted = fit_image(stream, width=width, height=height)
        storage = current.storage
        name = f"{prefix}.{fitted.extension}"
        if storage.exists(name):
            storage.delete(name)  # keep the stable name (no random suffix)
        saved_name = storage.save(name, ContentFile(fitted.content))
        if current and current.name != saved_name:
            replaced.append((storage, current.name))
        setattr(banner, f"{device}_image", saved_name)
        setattr(banner, f"{device}_width", fitted.width)
        setattr(banner, f"{device}_height", fitted.height)
        refreshed.append(device)
    if refreshed:
        fields = [
            f"{device}_{name}" for device in refreshed for name in ("image", "width", "height")
        ]
        banner.save(update_fields=[*fields, "updated_at"])

        def delete_replaced() -> None:
            for storage, old_name in replaced:
                try:
                    storage.delete(old_name)
                except OSError:  # a leftover file is harmless; never fail the save for it
                    logger.warning("Could not delete replaced banner image %s", old_name)

        transaction.on_commit(delete_replaced)
    return refreshed


def banner_group_images_refresh(*, group: BannerGroup, force: bool = False) -> int:
    """Refresh the copies of the group's banners; returns how many got a new copy."""
    banners = group.banners.select_related("group")
    return sum(1 for banner in banners if banner_images_refresh(banner=banner, force=force))


# --- Publishing ----------------------------------------------------------------------
#
# save() per record (not update()): the post_save signal bumps the banners cache namespace,
# so the public listing answers the change at once for clients that revalidate.


def _save_locked(records: QuerySet, fields: list[str], change: Callable) -> list:
    """Re-read `records` (banners or groups; any queryset, even annotated) locked, apply
    `change` to each and save its `fields`; banners come with their group."""
    locked: QuerySet
    if records.model is Banner:
        locked = Banner.objects.select_related("group").select_for_update(of=("self",))
        locked = locked.order_by("group_id", "order", "id")
    else:
        locked = BannerGroup.objects.select_for_update().order_by("code")
    with transaction.atomic():
        saved = list(locked.filter(pk__in=list(records.values_list("pk", flat=True))))
        for record in saved:
            change(record)
            record.save(update_fields=[*fields, "updated_at"])
    return saved


def schedules_publish_now(*, records: QuerySet, moment: datetime) -> list:
    """Open the own schedule of `records` at `moment` (a start still to come becomes `moment`,
    an end already passed is removed); banners are activated too, their group's schedule
    still bounds them (Banner.effective_window)."""

    def publish(record: Banner | BannerGroup) -> None:
        if isinstance(record, Banner):
            record.active = True
        if record.start_at is None or record.start_at > moment:
            record.start_at = moment
        if record.end_at is not None and record.end_at <= moment:
            record.end_at = None

    fields = ["active", "start_at", "end_at"] if records.model is Banner else ["start_at", "end_at"]
    return _save_locked(records, fields, publish)


def schedules_unpublish(*, records: QuerySet, moment: datetime) -> list:
    """Close the own schedule of `records` at `moment` (banners stay active, so "Publish now"
    brings them back); a start not yet reached is dropped so the end stays after the start."""

    def unpublish(record: Banner | BannerGroup) -> None:
        if record.end_at is None or record.end_at > moment:
            record.end_at = moment
        if record.start_at is not None and record.start_at >= moment:
            record.start_at = None

    return _save_locked(records, ["start_at", "end_at"], unpublish)


def banners_set_active(*, banners: QuerySet[Banner], active: bool) -> list[Banner]:
    return _save_locked(banners, ["active"], lambda banner: setattr(banner, "active", active))
