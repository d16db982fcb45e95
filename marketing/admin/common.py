"""Pieces the marketing admins share: status badges and filter, thumbnails, the
publishing actions and their report."""

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from infra.admin import badge, thumbnail
from infra.cdn import cdn_purge, cdn_purge_configured
from infra.scheduling import Status

from ..models import DEVICES, Banner

STATUS_COLOURS = {
    Status.LIVE: "green",
    Status.SCHEDULED: "blue",
    Status.EXPIRED: "grey",
    Status.INACTIVE: "red",
}


def status_badge(record, moment=None):
    status = record.status_at(moment or timezone.now())
    return badge(status.label, STATUS_COLOURS[status])


@admin.display(description=_("status"))
def status_column(record):
    return status_badge(record) if record.pk else "-"


@admin.display(description=_("fitted copies (desktop, tablet, mobile)"))
def fitted_images_column(banner):
    if not banner.pk:
        return _("Generated when saved.")
    return format_html(
        "{} {} {}", *(thumbnail(getattr(banner, f"{device}_image")) for device in DEVICES)
    )


def when_text(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def _scheduled_reason(banner: Banner, moment) -> str:
    """Why a scheduled banner is not live yet: its group's start or its own."""
    group_start = banner.group.start_at
    if (
        group_start is not None
        and group_start > moment
        and (banner.start_at is None or group_start >= banner.start_at)
    ):
        return gettext("its group starts %(when)s") % {"when": when_text(group_start)}
    if banner.start_at is not None and banner.start_at > moment:
        return gettext("starts %(when)s") % {"when": when_text(banner.start_at)}
    return gettext("its schedule never overlaps its group's")


def banner_states_message(banners: list[Banner], moment) -> str:
    """ "2 banners live, 1 still scheduled (its group starts 2026-12-01 00:00)." at `moment`."""
    by_status: dict[Status, list[Banner]] = {status: [] for status in Status}
    for banner in banners:
        by_status[banner.status_at(moment)].append(banner)
    live = len(by_status[Status.LIVE])
    parts = [ngettext("%(n)d banner live", "%(n)d banners live", live) % {"n": live}]
    scheduled = by_status[Status.SCHEDULED]
    if scheduled:
        reasons = list(dict.fromkeys(_scheduled_reason(banner, moment) for banner in scheduled))
        parts.append(
            ngettext(
                "%(n)d still scheduled (%(why)s)", "%(n)d still scheduled (%(why)s)", len(scheduled)
            )
            % {"n": len(scheduled), "why": "; ".join(reasons[:3])}
        )
    expired = len(by_status[Status.EXPIRED])
    if expired:
        parts.append(ngettext("%(n)d expired", "%(n)d expired", expired) % {"n": expired})
    inactive = len(by_status[Status.INACTIVE])
    if inactive:
        parts.append(ngettext("%(n)d inactive", "%(n)d inactive", inactive) % {"n": inactive})
    return ", ".join(parts) + "."


def public_cache_note() -> str:
    """How long a browser or CDN may keep the listing answered before a change."""
    note = gettext(
        "The public banner listing answers the change at once to clients that revalidate; "
        "a browser or CDN may keep its previous copy for up to %(seconds)d seconds "
        "(Cache-Control max-age of %(path)s)."
    ) % {"seconds": settings.PUBLIC_CACHE_SECONDS, "path": banners_public_path()}
    if cdn_purge_configured():
        note += " " + gettext('Use the "Purge CDN" action to drop the CDN\'s copies now.')
    return note


def banners_public_path() -> str:
    return "/api/v3" + reverse("banner-groups")


def publishing_action(description, message, change):
    """An action of a PublishingActions admin: `change(records=, moment=)` returns the records
    it changed; the report counts them (`message`) and says what their banners show now."""

    @admin.action(description=description)
    def action(self, request, queryset):
        moment = timezone.now()
        records = change(records=queryset, moment=moment)
        banners = self.banners_of(records)
        self.message_user(
            request,
            f"{message % {'n': len(records)}} {banner_states_message(banners, moment)} "
            f"{public_cache_note()}",
        )

    return action


class PublishingActions:
    """ "Publish now", "Unpublish" and "Purge CDN" for the banner and banner group admins."""

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not cdn_purge_configured():
            actions.pop("purge_cdn", None)
        return actions

    def banners_of(self, records: list) -> list[Banner]:
        return records

    @admin.action(description=_("Purge CDN copies of the banner listing"))
    def purge_cdn(self, request, queryset):
        url = settings.PUBLIC_BASE_URL.rstrip("/") + banners_public_path()
        failure = cdn_purge([url])
        if failure:
            self.message_user(
                request,
                gettext("CDN purge of %(url)s failed: %(reason)s.")
                % {"url": url, "reason": failure},
                messages.ERROR,
            )
        else:
            self.message_user(request, gettext("CDN purge requested for %(url)s.") % {"url": url})


class StatusListFilter(admin.SimpleListFilter):
    """live / scheduled / expired / inactive, right now."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return Status.choices

    def queryset(self, request, queryset):
        if self.value() in Status.values:
            return queryset.with_status(self.value(), timezone.now())
        return queryset


BANNER_IMAGES_FIELDSET: tuple[Any, Any] = (  # shared by the inline and the banner admin
    _("Images and links"),
    {
        "fields": [
            *((f"{device}_original_image", f"{device}_url") for device in DEVICES),
            "fitted_images",
        ]
    },
)
