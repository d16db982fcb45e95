"""Writes of the marketing app."""

import hashlib
import logging

from django.core.files.base import ContentFile
from django.db import transaction

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
    count = 0
    for banner in group.banners.select_related("group"):
        if banner_images_refresh(banner=banner, force=force):
            count += 1
    return count
