"""Models of the marketing app: banner groups and their banners, and cart upsell offers."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from PIL import Image

from infra.models import (
    EndsAfterStart,
    LiveQuerySet,
    ShownByName,
    TimestampedModel,
    derived_int_field,
    ends_after_start,
)
from infra.scheduling import Status, Window, status_at

from .images import MAX_SIDE, MAX_SOURCE_PIXELS

DEVICES = ("desktop", "tablet", "mobile")
MAX_IDENTIFIERS = 100
MAX_IDENTIFIER_LENGTH = 100

code_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*$",
    _("Use letters, digits, dots, hyphens and underscores (e.g. home-main)."),
)


def side_field(verbose_name, default: int) -> models.PositiveIntegerField:
    """A side (pixels) of the images a banner group asks for on one device."""
    return models.PositiveIntegerField(
        verbose_name,
        default=default,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SIDE)],
    )


def validate_image_pixels(value) -> None:
    """Refuse sources that would take too much memory to decode, and files that do not decode
    to the end (a truncated upload would leave the fitted copies of the image it replaced)."""
    try:
        pixels = value.width * value.height
    except (OSError, TypeError, ValueError) as exc:
        raise ValidationError(_("Upload a valid image.")) from exc
    if pixels > MAX_SOURCE_PIXELS:
        raise ValidationError(
            _(
                "The image is too large (%(width)sx%(height)s); "
                "at most %(limit)s pixels are accepted."
            )
            % {"width": value.width, "height": value.height, "limit": f"{MAX_SOURCE_PIXELS:,}"}
        )
    try:
        value.open("rb")
        value.seek(0)
        with Image.open(value) as image:
            image.draft("RGB", (max(1, image.width // 8), max(1, image.height // 8)))  # JPEG
            image.load()
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise ValidationError(_("The file is not a readable image.")) from exc
    finally:
        value.seek(0)


def validate_json_object(value) -> None:
    if not isinstance(value, dict):
        raise ValidationError(_('Enter a JSON object, e.g. {} or {"theme": "dark"}.'))


def additional_parameter_field() -> models.JSONField:
    return models.JSONField(
        _("additional parameter"),
        default=dict,
        blank=True,
        validators=[validate_json_object],
        help_text=_("A JSON object handed to front ends as is."),
    )


def validate_identifier_list(value) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError(_("Enter a list of identifiers (text)."))
    if len(value) > MAX_IDENTIFIERS:
        raise ValidationError(
            _("Enter at most %(count)d identifiers.") % {"count": MAX_IDENTIFIERS}
        )
    too_long = [item for item in value if len(item) > MAX_IDENTIFIER_LENGTH]
    if too_long:
        raise ValidationError(
            _("Identifiers have at most %(count)d characters: %(identifier)s...")
            % {"count": MAX_IDENTIFIER_LENGTH, "identifier": too_long[0][:20]}
        )


def identifier_list_field(verbose_name, help_text) -> models.JSONField:
    return models.JSONField(
        verbose_name,
        default=list,
        blank=True,
        validators=[validate_identifier_list],
        help_text=help_text,
    )


def moment_field(verbose_name, help_text) -> models.DateTimeField:
    return models.DateTimeField(verbose_name, null=True, blank=True, help_text=help_text)


# --- Scheduling shared by banners and upsell offers ---------------------------


class ScheduledQuerySet(LiveQuerySet):
    def scheduled_at(self, moment):
        return self.active().filter(start_at__gt=moment)

    def expired_at(self, moment):
        return self.active().filter(end_at__lte=moment)

    def with_status(self, status: str, moment):
        if status == Status.INACTIVE:
            return self.filter(active=False)
        return getattr(self, f"{Status(status)}_at")(moment)  # live_at, scheduled_at, expired_at


class ScheduledModel(EndsAfterStart, TimestampedModel):
    active = models.BooleanField(_("active"), default=True)
    start_at = moment_field(_("starts at"), _("Leave empty to start at once."))
    end_at = moment_field(_("ends at"), _("Leave empty to never end."))

    class Meta:
        abstract = True
        constraints = [ends_after_start("%(app_label)s_%(class)s_ends_after_start")]

    def status_at(self, moment) -> Status:
        return status_at(active=self.active, window=self.window, moment=moment)


# --- Banners --------------------------------------------------------------------


class BannerGroupQuerySet(models.QuerySet):
    def for_channel(self, channel):
        if channel is None:
            return self.filter(sales_channel__isnull=True)
        return self.filter(Q(sales_channel__isnull=True) | Q(sales_channel=channel))


class BannerGroup(EndsAfterStart, TimestampedModel):
    """A slot of the storefront (e.g. the home carousel) that front ends ask for by code."""

    code = models.CharField(
        _("code"),
        max_length=100,
        unique=True,
        validators=[code_validator],
        help_text=_("What front ends ask for (GET /api/v3/publics/template/banners?codes=...)."),
    )
    sales_channel = models.ForeignKey(
        "storefront.SalesChannel",
        verbose_name=_("sales channel"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="banner_groups",
        help_text=_("Limit the group to one channel; leave empty for every channel."),
    )
    location_id = models.CharField(
        _("location"),
        max_length=100,
        blank=True,
        help_text=_("Where front ends place the group (e.g. home-top); free text."),
    )
    name = models.CharField(_("name"), max_length=150)
    title = models.CharField(_("title"), max_length=200, blank=True)
    description = models.TextField(_("description"), max_length=2000, blank=True)
    desktop_width = side_field(_("desktop width"), 1920)
    desktop_height = side_field(_("desktop height"), 600)
    tablet_width = side_field(_("tablet width"), 1024)
    tablet_height = side_field(_("tablet height"), 400)
    mobile_width = side_field(_("mobile width"), 768)
    mobile_height = side_field(_("mobile height"), 600)
    start_at = moment_field(
        _("starts at"),
        _(
            "Leave empty to start at once. Banners show from this moment, or from their "
            "own start when it is later."
        ),
    )
    end_at = moment_field(
        _("ends at"),
        _(
            "Leave empty to never end. Banners stop at this moment, or at their own end "
            "when it is earlier."
        ),
    )
    additional_parameter = additional_parameter_field()
    products = models.ManyToManyField(
        "catalog.Product", verbose_name=_("products"), blank=True, related_name="banner_groups"
    )
    brands = models.ManyToManyField(
        "catalog.Brand", verbose_name=_("brands"), blank=True, related_name="banner_groups"
    )
    categories = models.ManyToManyField(
        "catalog.Category", verbose_name=_("categories"), blank=True, related_name="banner_groups"
    )
    showcases = identifier_list_field(
        _("showcases"), _("Identifiers of front-end showcases, one per line.")
    )
    pages = identifier_list_field(_("pages"), _("Identifiers of front-end pages, one per line."))

    objects = BannerGroupQuerySet.as_manager()

    class Meta:
        verbose_name = _("banner group")
        verbose_name_plural = _("banner groups")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=Q(desktop_width__gte=1, desktop_height__gte=1)
                & Q(tablet_width__gte=1, tablet_height__gte=1)
                & Q(mobile_width__gte=1, mobile_height__gte=1),
                name="banner_group_sizes_positive",
            ),
            ends_after_start("banner_group_ends_after_start"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def status_at(self, moment) -> Status:
        """The best status of its banners, in Status's order (one live banner makes it live);
        inactive without an active banner. Prefetch `banners` for a list."""
        statuses = {banner.status_at(moment) for banner in self.banners.all()}
        return next((status for status in Status if status in statuses), Status.INACTIVE)

    def size_for(self, device: str) -> tuple[int, int]:
        return getattr(self, f"{device}_width"), getattr(self, f"{device}_height")


class BannerQuerySet(ScheduledQuerySet):
    """Statuses of banners within their group's schedule (see Banner.effective_window)."""

    @staticmethod
    def _ended(moment) -> Q:
        return Q(end_at__lte=moment) | Q(group__end_at__lte=moment)

    @staticmethod
    def _not_started(moment) -> Q:
        return Q(start_at__gt=moment) | Q(group__start_at__gt=moment)

    def live_at(self, moment):
        return self.active().exclude(self._ended(moment)).exclude(self._not_started(moment))

    def scheduled_at(self, moment):
        return self.active().exclude(self._ended(moment)).filter(self._not_started(moment))

    def expired_at(self, moment):
        return self.active().filter(self._ended(moment))


def original_image_field(verbose_name, **kwargs) -> models.ImageField:
    """A device's upload, kept as is (the fitted copy is made from it)."""
    return models.ImageField(
        verbose_name,
        upload_to="banners/original/%Y/%m/",
        max_length=255,
        validators=[validate_image_pixels],
        **kwargs,
    )


def fitted_image_field(verbose_name) -> models.ImageField:
    return models.ImageField(
        verbose_name, upload_to="banners/fitted/", max_length=255, blank=True, editable=False
    )


class Banner(ShownByName, ScheduledModel):
    """One slide of a group, with an image, a link and a size for each device; its schedule
    is bounded by its group's (`effective_window`)."""

    group = models.ForeignKey(
        BannerGroup, verbose_name=_("group"), on_delete=models.CASCADE, related_name="banners"
    )
    name = models.CharField(_("name"), max_length=150)
    alt = models.CharField(
        _("alternative text"), max_length=255, blank=True, help_text=_("Read by screen readers.")
    )
    desktop_original_image = original_image_field(
        _("desktop original image"),
        help_text=_("Uploaded as is; a copy fitted to the group's desktop size is generated."),
    )
    tablet_original_image = original_image_field(
        _("tablet original image"),
        blank=True,
        help_text=_("Optional: the desktop image is used when empty."),
    )
    mobile_original_image = original_image_field(
        _("mobile original image"),
        blank=True,
        help_text=_("Optional: the desktop image is used when empty."),
    )
    # Fitted copies: written by services.banner_images_refresh, never uploaded.
    desktop_image = fitted_image_field(_("desktop image"))
    tablet_image = fitted_image_field(_("tablet image"))
    mobile_image = fitted_image_field(_("mobile image"))
    desktop_width = derived_int_field(_("desktop width"))
    desktop_height = derived_int_field(_("desktop height"))
    tablet_width = derived_int_field(_("tablet width"))
    tablet_height = derived_int_field(_("tablet height"))
    mobile_width = derived_int_field(_("mobile width"))
    mobile_height = derived_int_field(_("mobile height"))
    desktop_url = models.CharField(
        _("desktop link"),
        max_length=500,
        blank=True,
        help_text=_("Where a click leads: a path (/sale) or a full URL."),
    )
    tablet_url = models.CharField(
        _("tablet link"), max_length=500, blank=True, help_text=_("Empty: the desktop link.")
    )
    mobile_url = models.CharField(
        _("mobile link"), max_length=500, blank=True, help_text=_("Empty: the desktop link.")
    )
    order = models.IntegerField(_("order"), default=0, help_text=_("Lower numbers come first."))
    additional_parameter = additional_parameter_field()

    objects = BannerQuerySet.as_manager()

    class Meta(ScheduledModel.Meta):
        verbose_name = _("banner")
        verbose_name_plural = _("banners")
        ordering = ["group_id", "order", "id"]
        indexes = [
            models.Index(fields=["group", "active", "order"], name="banner_group_active_order")
        ]

    @property
    def effective_window(self) -> Window:
        """The banner's window within its group's (select the group along)."""
        return self.window.within(self.group.window)

    def status_at(self, moment) -> Status:
        return status_at(active=self.active, window=self.effective_window, moment=moment)

    def original_for(self, device: str):
        """The upload a device's copy is made from (tablet and mobile fall back to desktop)."""
        original = getattr(self, f"{device}_original_image")
        return original if original else self.desktop_original_image

    def url_for(self, device: str) -> str:
        return getattr(self, f"{device}_url") or self.desktop_url


# --- Upsell -----------------------------------------------------------------------


class UpsellLocation(models.TextChoices):
    CART = "cart", _("Cart")
    CHECKOUT = "checkout", _("Checkout")


class UpsellQuerySet(ScheduledQuerySet):
    def at_location(self, location: str):
        return self.filter(location=location)


class Upsell(ScheduledModel):
    """An offer shown at a cart location, optionally only when some products are in the cart."""

    display_title = models.CharField(_("display title"), max_length=150)
    display_description = models.TextField(_("display description"), max_length=1000, blank=True)
    display_button_text = models.CharField(
        _("display button text"), max_length=60, default="Add to cart"
    )
    quantity = models.PositiveIntegerField(
        _("quantity"), default=1, validators=[MinValueValidator(1), MaxValueValidator(999)]
    )
    product = models.ForeignKey(
        "catalog.Product",
        verbose_name=_("product"),
        on_delete=models.CASCADE,
        related_name="upsell_offers",
        help_text=_("The product offered."),
    )
    price_rule = models.ForeignKey(
        "catalog.PriceRule",
        verbose_name=_("price rule"),
        on_delete=models.PROTECT,
        related_name="upsell_offers",
        help_text=_("Price rule applied to the offered product."),
    )
    location = models.CharField(
        _("location"),
        max_length=50,
        default=UpsellLocation.CART,
        validators=[code_validator],
        help_text=_("Where the offer shows: cart, checkout, or any location your front end uses."),
    )
    priority = models.IntegerField(
        _("priority"), default=0, help_text=_("The highest priority is offered first.")
    )
    trigger_products = models.ManyToManyField(
        "catalog.Product",
        verbose_name=_("trigger products"),
        blank=True,
        related_name="upsell_triggers",
        help_text=_("Offer only when one of these products (or variations) is in the cart."),
    )
    trigger_categories = models.ManyToManyField(
        "catalog.Category",
        verbose_name=_("trigger categories"),
        blank=True,
        related_name="upsell_triggers",
        help_text=_("Offer only when a cart product belongs to one of these categories."),
    )

    objects = UpsellQuerySet.as_manager()

    class Meta(ScheduledModel.Meta):
        verbose_name = _("upsell")
        verbose_name_plural = _("upsells")
        ordering = ["location", "-priority", "id"]
        indexes = [
            models.Index(
                fields=["location", "active", "-priority"], name="upsell_location_priority"
            )
        ]

    def __str__(self) -> str:
        return f"{self.display_title} ({self.location})"
