"""Products, their variations, attributes, medias and descriptions."""

from typing import TYPE_CHECKING, Self

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from infra.models import (
    ZERO,
    ActiveQuerySet,
    ShownByName,
    TimestampedModel,
    derived_int_field,
    length_field,
    money_field,
    weight_field,
)

from .fields import optional_fk, product_fk
from .inventory import CargoType

if TYPE_CHECKING:
    from .inventory import Stock
    from .merchandising import ProductRelation
    from .prices import ProductPrice

HEX_COLOR = RegexValidator(
    r"^#[0-9A-Fa-f]{6}\Z", _("Enter a hex colour like #1A2B3C (a # and six hex digits).")
)


class ProductType(models.TextChoices):
    PRODUCT = "product", _("Product")
    VARIATION = "variation", _("Variation")


class Attribute(ShownByName, TimestampedModel):
    """A variation axis, e.g. Color or Size."""

    name = models.CharField(_("name"), max_length=100)
    code = models.SlugField(_("code"), max_length=100, unique=True)
    position = models.PositiveIntegerField(_("position"), default=0)
    filterable = models.BooleanField(
        _("filterable"),
        default=True,
        help_text=_("Listed in the product's filters (what a storefront can filter on)."),
    )

    class Meta:
        verbose_name = _("attribute")
        verbose_name_plural = _("attributes")
        ordering = ["position", "name", "id"]


class AttributeValue(TimestampedModel):
    """One value of an attribute, e.g. Color = Blue (with its swatch colour or image)."""

    attribute = models.ForeignKey(
        Attribute, verbose_name=_("attribute"), on_delete=models.CASCADE, related_name="values"
    )
    label = models.CharField(_("label"), max_length=100)
    image = models.ImageField(_("image"), upload_to="attributes/", blank=True)
    color = models.CharField(
        _("color"),
        max_length=7,
        blank=True,
        validators=[HEX_COLOR],
        help_text=_("Swatch colour, e.g. #1A2B3C."),
    )
    order = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("attribute value")
        verbose_name_plural = _("attribute values")
        ordering = ["attribute_id", "order", "label", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["attribute", "label"], name="attribute_value_label_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.attribute.name}: {self.label}" if self.attribute_id else self.label


class ProductQuerySet(ActiveQuerySet):
    def sellable(self) -> Self:
        """Active products whose parent (for a variation) is active too."""
        return self.active().filter(models.Q(parent__isnull=True) | models.Q(parent__active=True))


class Product(TimestampedModel):
    """A product, or a variation of one (a child product carrying its attribute values)."""

    type = models.CharField(
        _("type"), max_length=20, choices=ProductType.choices, default=ProductType.PRODUCT
    )
    sku = models.CharField(_("SKU"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("slug"),
        max_length=255,
        unique=True,
        blank=True,
        help_text=_("Filled from name and SKU when empty."),
    )
    priority = models.IntegerField(_("priority"), default=0, help_text=_("Higher shows first."))
    base_price = money_field(
        _("base price"),
        default=ZERO,
        help_text=_("Reference price used when a trade policy has no price of its own."),
    )
    active = models.BooleanField(_("active"), default=True)
    is_gift_card = models.BooleanField(_("gift card"), default=False)

    # Flags
    subscription = models.BooleanField(_("subscription"), default=False)
    service = models.BooleanField(
        _("service"), default=False, help_text=_("A service: nothing is shipped.")
    )
    show_in_site = models.BooleanField(_("show in site"), default=True)
    sale_without_stock = models.BooleanField(_("sale without stock"), default=False)
    minimum_stock = models.PositiveIntegerField(_("minimum stock"), default=0)

    # Tax
    mpn = models.CharField(_("MPN"), max_length=60, blank=True)
    ean = models.CharField(_("EAN"), max_length=20, blank=True)
    ncm = models.CharField(_("NCM"), max_length=20, blank=True)
    tax_exclusive = models.BooleanField(_("tax exclusive"), default=False)

    brand = optional_fk("catalog.Brand", _("brand"), "products")
    main_category = optional_fk("catalog.Category", _("main category"), "main_products")
    categories = models.ManyToManyField(
        "catalog.Category", verbose_name=_("categories"), blank=True, related_name="products"
    )

    # Dimensions (centimetres and kilograms)
    cargo_type = models.ForeignKey(
        "catalog.CargoType",
        blank=True,
        on_delete=models.PROTECT,
        related_name="products",
        verbose_name=_("cargo type"),
        help_text=_(
            "Empty: a variation takes its main product's, any other product the store's "
            "default cargo type."
        ),
    )
    additional_time = models.PositiveSmallIntegerField(
        _("additional time"), default=0, help_text=_("Extra days before shipping (handling time).")
    )
    # 0 when unknown
    width = length_field(_("width"), default=ZERO)
    height = length_field(_("height"), default=ZERO)
    length = length_field(_("length"), default=ZERO)
    weight = weight_field(_("weight"), default=ZERO, help_text=_("Kilograms."))

    parent = optional_fk(
        "self",
        _("parent"),
        "variations",
        models.CASCADE,
        help_text=_("Set on a variation: the product it is a variation of."),
    )
    attribute_values = models.ManyToManyField(
        AttributeValue,
        verbose_name=_("attribute values"),
        blank=True,
        related_name="products",
        help_text=_("A variation's values (one per attribute), e.g. Color: Blue and Size: M."),
    )

    objects = ProductQuerySet.as_manager()

    # Set by catalog/selectors/' prefetches and annotations (for the type checker only).
    active_stocks: list["Stock"]
    default_prices: list["ProductPrice"]
    all_prices: list["ProductPrice"]
    active_variations: list["Product"]
    stocked_variations: list["Product"]
    visible_relations: list["ProductRelation"]
    available_units: int

    class Meta:
        verbose_name = _("product")
        verbose_name_plural = _("products")
        ordering = ["-priority", "name", "id"]
        indexes = [models.Index(fields=["active", "-priority"], name="product_active_priority")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(base_price__gte=0), name="product_base_price_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(width__gte=0, height__gte=0, length__gte=0, weight__gte=0),
                name="product_dimensions_not_negative",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(type=ProductType.VARIATION, parent__isnull=False)
                    | (~models.Q(type=ProductType.VARIATION) & models.Q(parent__isnull=True))
                ),
                name="product_variation_has_parent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.sku})"

    @property
    def url(self) -> str:
        return f"/{self.slug}"

    def clean(self):
        super().clean()
        self.sku = (self.sku or "").strip()
        if self.parent_id is not None:
            if self.parent_id == self.pk:
                raise ValidationError({"parent": _("A product cannot be its own variation.")})
            if self.parent.parent_id is not None:
                raise ValidationError(
                    {"parent": _("Variations belong to a main product, not to another variation.")}
                )
            if self.pk is not None and self.variations.exists():
                raise ValidationError(
                    {"parent": _("This product has variations of its own: it cannot be one.")}
                )
            self.inherit_from_parent()
        elif self.type == ProductType.VARIATION:
            raise ValidationError({"parent": _("A variation needs the product it belongs to.")})

    def inherit_from_parent(self) -> None:
        """A variation is typed so and takes its parent's brand, category and cargo type
        unless it has its own."""
        if self.parent_id is None:
            return
        self.type = ProductType.VARIATION
        parent = self.parent
        for field in ("brand_id", "main_category_id", "cargo_type_id"):
            if getattr(self, field) is None:
                setattr(self, field, getattr(parent, field))

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(f"{self.name}-{self.sku}")[:255]
        self.inherit_from_parent()
        if self.cargo_type_id is None:
            self.cargo_type_id = CargoType.objects.default_id()
        super().save(*args, **kwargs)


class MediaType(models.TextChoices):
    IMAGE = "image", _("Image")
    VIDEO = "video", _("Video")


class ProductMedia(TimestampedModel):
    """An uploaded image (width, height and size read by Pillow) or an external video URL."""

    product = product_fk("medias")
    type = models.CharField(
        _("type"), max_length=10, choices=MediaType.choices, default=MediaType.IMAGE
    )
    title = models.CharField(_("title"), max_length=200, blank=True)
    alternative_text = models.CharField(
        _("alternative text"), max_length=255, blank=True, default=""
    )
    file = models.ImageField(
        _("file"),
        upload_to="products/",
        max_length=255,
        blank=True,
        help_text=_("Web-sized image shown in the store (made from the original)."),
    )
    original_file = models.ImageField(
        _("original file"),
        upload_to="products/original/",
        max_length=255,
        blank=True,
        help_text=_("The upload."),
    )
    size = derived_int_field(_("size"))
    original_size = derived_int_field(_("original size"))
    width = derived_int_field(_("width"))
    height = derived_int_field(_("height"))
    url = models.URLField(
        _("URL"), max_length=500, blank=True, default="", help_text=_("External address (videos).")
    )
    position = models.PositiveIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("product media")
        ordering = ["position", "id"]
        verbose_name_plural = _("product medias")

    def __str__(self) -> str:
        return self.title or f"{self.get_type_display()} #{self.pk}"

    def clean(self):
        super().clean()
        if self.type == MediaType.VIDEO and not self.url:
            raise ValidationError({"url": _("A video needs its external URL.")})
        if self.type == MediaType.IMAGE and not (self.original_file or self.file):
            raise ValidationError({"original_file": _("Upload the image.")})


class GoogleCondition(models.TextChoices):
    NEW = "new", _("New")
    REFURBISHED = "refurbished", _("Refurbished")
    USED = "used", _("Used")


class GoogleAgeGroup(models.TextChoices):
    NEWBORN = "newborn", _("Newborn")
    INFANT = "infant", _("Infant")
    TODDLER = "toddler", _("Toddler")
    KIDS = "kids", _("Kids")
    ADULT = "adult", _("Adult")


class GoogleGender(models.TextChoices):
    UNISEX = "unisex", _("Unisex")
    MALE = "male", _("Male")
    FEMALE = "female", _("Female")


class ProductDescription(ShownByName, TimestampedModel):
    """A product's texts and SEO fields for one trade policy."""

    product = product_fk("descriptions")
    trade_policy = models.ForeignKey(
        "catalog.TradePolicy",
        verbose_name=_("trade policy"),
        on_delete=models.CASCADE,
        related_name="descriptions",
    )
    name = models.CharField(_("name"), max_length=200)
    short_description = models.CharField(_("short description"), max_length=500, blank=True)
    video_url = models.URLField(_("video URL"), max_length=500, blank=True, default="")
    search_description = models.CharField(_("search description"), max_length=500, blank=True)
    description = models.TextField(_("description"), blank=True, default="")
    custom_description_1 = models.TextField(_("custom description 1"), blank=True, default="")
    custom_description_2 = models.TextField(_("custom description 2"), blank=True, default="")
    custom_description_3 = models.TextField(_("custom description 3"), blank=True, default="")
    measure_table = models.TextField(_("measure table"), blank=True, default="")
    seo_title = models.CharField(_("SEO title"), max_length=200, blank=True, default="")
    seo_description = models.CharField(_("SEO description"), max_length=500, blank=True, default="")
    seo_keywords = models.CharField(_("SEO keywords"), max_length=500, blank=True, default="")
    seo_canonical = models.CharField(_("SEO canonical"), max_length=500, blank=True, default="")
    seo_social_title = models.CharField(
        _("SEO social title"), max_length=200, blank=True, default=""
    )
    seo_social_description = models.CharField(
        _("SEO social description"), max_length=500, blank=True, default=""
    )
    seo_twitter_image_url = models.URLField(
        _("SEO twitter image URL"), max_length=500, blank=True, default=""
    )
    seo_graph_image_url = models.URLField(
        _("SEO graph image URL"), max_length=500, blank=True, default=""
    )
    seo_google_category_id = models.PositiveIntegerField(
        _("SEO google category id"), default=0, help_text=_("Google product taxonomy id (0: none).")
    )
    seo_index_on_google = models.BooleanField(_("SEO index on google"), null=True, blank=True)
    seo_google_condition = models.CharField(
        _("SEO google condition"),
        max_length=20,
        choices=GoogleCondition.choices,
        default=GoogleCondition.NEW,
    )
    seo_google_age_group = models.CharField(
        _("SEO google age group"),
        max_length=20,
        choices=GoogleAgeGroup.choices,
        blank=True,
        default="",
    )
    seo_google_gender = models.CharField(
        _("SEO google gender"),
        max_length=20,
        choices=GoogleGender.choices,
        default=GoogleGender.UNISEX,
    )

    class Meta:
        verbose_name = _("product description")
        verbose_name_plural = _("product descriptions")
        ordering = ["product_id", "trade_policy_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["product", "trade_policy"], name="product_description_unique_per_policy"
            )
        ]
