"""Jobs of the marketing app: fitting banner images (Pillow work, off the admin request)."""

import logging

from django_tasks import task

from .images import ImageFitError
from .models import Banner, BannerGroup
from .services import banner_group_images_refresh, banner_images_refresh

logger = logging.getLogger(__name__)


@task()
def refresh_banner_images(banner_id: int, force: bool = False) -> list[str]:
    banner = Banner.objects.select_related("group").filter(pk=banner_id).first()
    if banner is None:
        return []
    try:
        return banner_images_refresh(banner=banner, force=force)
    except ImageFitError:
        # Not retried: the source itself is unreadable; staff see the copy missing.
        logger.warning("Banner %s has an unreadable image", banner_id, exc_info=True)
        return []


@task()
def refresh_group_images(group_id: int, force: bool = False) -> int:
    group = BannerGroup.objects.filter(pk=group_id).first()
    if group is None:
        return 0
    try:
        return banner_group_images_refresh(group=group, force=force)
    except ImageFitError:
        logger.warning("A banner of group %s has an unreadable image", group_id, exc_info=True)
        return 0
