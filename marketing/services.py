"""Writes of the marketing app."""

import hashlib
import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial

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
    """Write the fitted copy of each device whose source or group size changed.

    Returns the devices whose copy was (re)generated. Copies already matching their
    source and size are left alone, so calling this after every admin save is cheap.
    Raises images.ImageFitError when a source cannot be read.
    """
    if banner.pk is None:
        raise ValueError("Save the banner before generating its images.")
    group = banner.group
    refreshed: list[str] = []
    replaced: list[tuple] = []
    update_fields: list[str] = []
    for device in DEVICES:
        image_field = f"{device}_image"
        current = getattr(banner, image_field)
        source = banner.original_for(device)
        if not source:
            continue
        width, height = group.size_for(device)
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
        setattr(banner, image_field, saved_name)
        setattr(banner, f"{device}_width", fitted.width)
        setattr(banner, f"{device}_height", fitted.height)
        update_fields += [image_field, f"{device}_width", f"{device}_height"]
        refreshed.append(device)
    if update_fields:
        banner.save(update_fields=[*update_fields, "updated_at"])

        def delete_replaced() -> None:
            for storage, old_name in replaced:
                try:
                    storage.delete(old_name)
                except OSError:  # a leftover file is harmless; never fail the save for it
                    logger.warning("Could not delete replaced banner image %s", old_name)

        transaction.on_commit(delete_replaced)
    return refreshed


def banner_group_images_refresh(*, group: BannerGroup, force: bool = False) -> int:
    """Refresh the copies of every banner of the group (after its sizes changed).

    Returns how many banners got at least one new copy.
    """
    banners = group.banners.select_related("group")
    return sum(1 for banner in banners if banner_images_refresh(banner=banner, force=force))


# --- Publishing ----------------------------------------------------------------------
#
# save() per record (not update()): the post_save signal bumps the banners cache namespace,
# so the public listing answers the change at once for clients that revalidate.


def _locked_banners(banners: QuerySet[Banner]) -> QuerySet[Banner]:
    """The banners of `banners` (any queryset, even annotated), locked, with their group."""
    ids = list(banners.values_list("pk", flat=True))
    return (
        Banner.objects.filter(pk__in=ids)
        .select_related("group")
        .select_for_update(of=("self",))
        .order_by("group_id", "order", "id")
    )


def _locked_groups(groups: QuerySet[BannerGroup]) -> QuerySet[BannerGroup]:
    ids = list(groups.values_list("pk", flat=True))
    return BannerGroup.objects.filter(pk__in=ids).select_for_update().order_by("code")


def _publish_window(record: Banner | BannerGroup, moment: datetime) -> None:
    """Make `record`'s own schedule open at `moment`: a start still to come becomes
    `moment` (a start already passed is kept) and an end already passed is removed."""
    if record.start_at is None or record.start_at > moment:
        record.start_at = moment
    if record.end_at is not None and record.end_at <= moment:
        record.end_at = None


def _unpublish_window(record: Banner | BannerGroup, moment: datetime) -> None:
    """Close `record`'s own schedule at `moment` (an end still to come becomes `moment`);
    a start not yet reached is dropped so the window stays valid (end after start)."""
    if record.end_at is None or record.end_at > moment:
        record.end_at = moment
    if record.start_at is not None and record.start_at >= moment:
        record.start_at = None


def _save_locked(
    lock: Callable[[QuerySet], QuerySet], records: QuerySet, fields: list[str], change: Callable
) -> list:
    """Lock `records` (`lock` re-reads them), apply `change` to each and save its `fields`."""
    with transaction.atomic():
        locked = list(lock(records))
        for record in locked:
            change(record)
            record.save(update_fields=[*fields, "updated_at"])
    return locked


def banners_publish_now(*, banners: QuerySet[Banner], moment: datetime) -> list[Banner]:
    """Activate `banners` and start them at `moment`; returns them with their group
    (their group's schedule still bounds them: see Banner.effective_window)."""

    def publish(banner: Banner) -> None:
        banner.active = True
        _publish_window(banner, moment)

    return _save_locked(_locked_banners, banners, ["active", "start_at", "end_at"], publish)


def banners_unpublish(*, banners: QuerySet[Banner], moment: datetime) -> list[Banner]:
    """End `banners` at `moment` (they stay active, so "Publish now" brings them back)."""
    unpublish = partial(_unpublish_window, moment=moment)
    return _save_locked(_locked_banners, banners, ["start_at", "end_at"], unpublish)


def banners_set_active(*, banners: QuerySet[Banner], active: bool) -> list[Banner]:
    """Switch `banners` on or off without touching their schedule."""
    return _save_locked(
        _locked_banners, banners, ["active"], lambda banner: setattr(banner, "active", active)
    )


def banner_groups_publish_now(
    *, groups: QuerySet[BannerGroup], moment: datetime
) -> list[BannerGroup]:
    """Start `groups` at `moment` (their banners keep their own, later starts)."""
    publish = partial(_publish_window, moment=moment)
    return _save_locked(_locked_groups, groups, ["start_at", "end_at"], publish)


def banner_groups_unpublish(
    *, groups: QuerySet[BannerGroup], moment: datetime
) -> list[BannerGroup]:
    """End `groups` at `moment`: none of their banners shows any more."""
    unpublish = partial(_unpublish_window, moment=moment)
    return _save_locked(_locked_groups, groups, ["start_at", "end_at"], unpublish)
