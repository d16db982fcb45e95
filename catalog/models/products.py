"""Products, their variations, attributes, medias and descriptions."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from storefront.models import TimestampedModel

from .inventory import CargoType

HEX_COLOR = RegexValidator(
    r"^#[0-9A-Fa-f]{6}\Z", "Enter a hex colour like #1A2B3C (a # and six hex digits)."
)
NOT_NEGATIVE = MinValueValidator(Decimal("0"))


class ProductType(models.TextChoices):
    PRODUCT = "product", "Product"
    VARIATION = "variation", "Variation"


class Attribute(TimestampedModel):
    """A variation axis, e.g. Color or Size."""

    name = models.CharField(max_length=100)
    code = models.SlugField(max_length=100, unique=True)
    position = models.PositiveIntegerField(default=0)
    filterable = models.BooleanField(
        _("filterable"),
        default=True,
        help_text=_("Listed in the product's filters (what a storefront can filter on)."),
    )

    class Meta:
        ordering = ["position", "name", "id"]

    def __str__(self) -> str:
        return self.name


class AttributeValue(TimestampedModel):
    """One value of an attribute, e.g. Color = Blue (with its swatch colour or image)."""

    attribute = models.ForeignKey(Attribute, on_delete=models.CASCADE, related_name="values")
    label = models.CharField(max_length=100)
    image = models.ImageField(upload_to="attributes/", blank=True)
    color = models.CharField(
        max_length=7, blank=True, validators=[HEX_COLOR], help_text="Swatch colour, e.g. #1A2B3C."
    )
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["attribute_id", "order", "label", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["attribute", "label"], name="attribute_value_label_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attribute.name}: {self.label}" if self.attribute_id else self.label


class ProductQuerySet(models.QuerySet):
    def active(self):
        return self.filter(active=True)

    def sellable(self):
        """Active products whose parent (for a variation) is active too."""
        return self.active().filter(models.Q(parent__isnull=True) | models.Q(parent__active=True))


class Product(TimestampedModel):
    """A product, or a variation of one (a child product carrying its attribute values)."""

    type = models.CharField(max_length=20, choices=ProductType.choices, default=ProductType.PRODUCT)
    sku = models.CharField("SKU", max_length=60, unique=True)
    name = models.CharField(max_length=200)
    slug = models.SlugField(
        max_length=255, unique=True, blank=True, help_text="Filled from name and SKU when empty."
    )
    priority = models.IntegerField(default=0, help_text="Higher shows first.")
    base_price = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        default=Decimal("0"),
        validators=[NOT_NEGATIVE],
        help_text="Reference price used when a trade policy has no price of its own.",
    )
    active = models.BooleanField(default=True)
    is_gift_card = models.BooleanField("gift card", default=False)

    # Flags
    subscription = models.BooleanField(default=False)
    service = models.BooleanField(default=False, help_text="A service: nothing is shipped.")
    show_in_site = models.BooleanField(default=True)
    sale_without_stock = models.BooleanField(default=False)
    minimum_stock = models.PositiveIntegerField(default=0)

    # Tax
    mpn = models.CharField("MPN", max_length=60, blank=True)
    ean = models.CharField("EAN", max_length=20, blank=True)
    ncm = models.CharField("NCM", max_length=20, blank=True)
    tax_exclusive = models.BooleanField("tax exclusive", default=False)

    brand = models.ForeignKey(
        "catalog.Brand", null=True, blank=True, on_delete=models.PROTECT, related_name="products"
    )
    main_category = models.ForeignKey(
        "catalog.Category",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="main_products",
    )
    categories = models.ManyToManyField("catalog.Category", blank=True, related_name="products")

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
        default=0, help_text="Extra days before shipping (handling time)."
    )
    width = models.DecimalField(
        max_digits=10, decimal_places=2, default=Decimal("0"), validators=[NOT_NEGATIVE]
    )
    height = models.DecimalField(
        max_digits=10, decimal_places=2, default=Decimal("0"), validators=[NOT_NEGATIVE]
    )
    length = models.DecimalField(
        max_digits=10, decimal_places=2, default=Decimal("0"), validators=[NOT_NEGATIVE]
    )
    weight = models.DecimalField(
        max_digits=10,
        decimal_places=3,
        default=Decimal("0"),
        validators=[NOT_NEGATIVE],
        help_text="Kilograms.",
    )

    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="variations",
        help_text="Set on a variation: the product it is a variation of.",
    )
    attribute_values = models.ManyToManyField(
        AttributeValue,
        blank=True,
        related_name="products",
        help_text="A variation's values (one per attribute), e.g. Color: Blue and Size: M.",
    )

    objects = ProductQuerySet.as_manager()

    class Meta:
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
                raise ValidationError({"parent": "A product cannot be its own variation."})
            if self.parent.parent_id is not None:
                raise ValidationError(
                    {"parent": "Variations belong to a main product, not to another variation."}
                )
            if self.pk is not None and self.variations.exists():
                raise ValidationError(
                    {"parent": "This product has variations of its own: it cannot be one."}
                )
            self.inherit_from_parent()
        elif self.type == ProductType.VARIATION:
            raise ValidationError({"parent": "A variation needs the product it belongs to."})

    def inherit_from_parent(self) -> None:
        """A variation is typed so and shares its parent's brand, category and cargo type
        unless it has its own (derived data, kept consistent on every save)."""
        if self.parent_id is None:
            return
        self.type = ProductType.VARIATION
        parent = self.parent
        assert parent is not None  # parent_id is set
        if self.brand_id is None:
            self.brand_id = parent.brand_id
        if self.main_category_id is None:
            self.main_category_id = parent.main_category_id
        if self.cargo_type_id is None:
            self.cargo_type_id = parent.cargo_type_id

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(f"{self.name}-{self.sku}")[:255]
        self.inherit_from_parent()
        if self.cargo_type_id is None:
            self.cargo_type_id = CargoType.objects.default_id()
        super().save(*args, **kwargs)


class MediaType(models.TextChoices):
    IMAGE = "image", "Image"
    VIDEO = "video", "Video"


class ProductMedia(TimestampedModel):
    """An uploaded image (width, height and size read by Pillow) or an external video URL."""

    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="medias")
    type = models.CharField(max_length=10, choices=MediaType.choices, default=MediaType.IMAGE)
    title = models.CharField(max_length=200, blank=True)
    alternative_text = models.CharField(max_length=255, blank=True, default="")
    file = models.ImageField(
        upload_to="products/",
        max_length=255,
        blank=True,
        help_text="Web-sized image shown in the store (made from the original).",
    )
    original_file = models.ImageField(
        upload_to="products/original/", max_length=255, blank=True, help_text="The upload."
    )
    size = models.PositiveIntegerField(null=True, blank=True, editable=False)
    original_size = models.PositiveIntegerField(null=True, blank=True, editable=False)
    width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    height = models.PositiveIntegerField(null=True, blank=True, editable=False)
    url = models.URLField(
        max_length=500, blank=True, default="", help_text="External address (videos)."
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        verbose_name_plural = "product medias"

    def __str__(self) -> str:
        return self.title or f"{self.get_type_display()} #{self.pk}"

    def clean(self):
        super().clean()
        if self.type == MediaType.VIDEO and not self.url:
            raise ValidationError({"url": "A video needs its external URL."})
        if self.type == MediaType.IMAGE and not (self.original_file or self.file):
            raise ValidationError({"original_file": "Upload the image."})


class GoogleCondition(models.TextChoices):
    NEW = "new", "New"
    REFURBISHED = "refurbished", "Refurbished"
    USED = "used", "Used"


class GoogleAgeGroup(models.TextChoices):
    NEWBORN = "newborn", "Newborn"
    INFANT = "infant", "Infant"
    TODDLER = "toddler", "Toddler"
    KIDS = "kids", "Kids"
    ADULT = "adult", "Adult"


class GoogleGender(models.TextChoices):
    UNISEX = "unisex", "Unisex"
    MALE = "male", "Male"
    FEMALE = "female", "Female"


class ProductDescription(TimestampedModel):
    """A product's texts and SEO fields for one trade policy."""

    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="descriptions")
    trade_policy = models.ForeignKey(
        "catalog.TradePolicy", on_delete=models.CASCADE, related_name="descriptions"
    )
    name = models.CharField(max_length=200)
    short_description = models.CharField(max_length=500, blank=True)
    video_url = models.URLField(max_length=500, blank=True, default="")
    search_description = models.CharField(max_length=500, blank=True)
    description = models.TextField(blank=True, default="")
    custom_description_1 = models.TextField(blank=True, default="")
    custom_description_2 = models.TextField(blank=True, default="")
    custom_description_3 = models.TextField(blank=True, default="")
    measure_table = models.TextField(blank=True, default="")
    seo_title = models.CharField(max_length=200, blank=True, default="")
    seo_description = models.CharField(max_length=500, blank=True, default="")
    seo_keywords = models.CharField(max_length=500, blank=True, default="")
    seo_canonical = models.CharField(max_length=500, blank=True, default="")
    seo_social_title = models.CharField(max_length=200, blank=True, default="")
    seo_social_description = models.CharField(max_length=500, blank=True, default="")
    seo_twitter_image_url = models.URLField(max_length=500, blank=True, default="")
    seo_graph_image_url = models.URLField(max_length=500, blank=True, default="")
    seo_google_category_id = models.PositiveIntegerField(
        default=0, help_text="Google product taxonomy id (0: none)."
    )
    seo_index_on_google = models.BooleanField(null=True, blank=True)
    seo_google_condition = models.CharField(
        max_length=20, choices=GoogleCondition.choices, default=GoogleCondition.NEW
    )
    seo_google_age_group = models.CharField(
        max_length=20, choices=GoogleAgeGroup.choices, blank=True, default=""
    )
    seo_google_gender = models.CharField(
        max_length=20, choices=GoogleGender.choices, default=GoogleGender.UNISEX
    )

    class Meta:
        ordering = ["product_id", "trade_policy_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["product", "trade_policy"], name="product_description_unique_per_policy"
            ),
        ]

    def __str__(self) -> str:
        return self.name
