"""Demo data of the marketing app: banner groups with generated images (their banners only
created with the group) and upsell offers on the catalog demo's products (only for a
location that has none)."""

from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.core.files.base import ContentFile
from django.utils import timezone
from PIL import Image, ImageDraw, ImageFont

from catalog.models import Category, PriceRule, Product
from catalog.pricing import Target, Trigger
from demo import image_bytes, load_data
from marketing.models import Banner, BannerGroup, Upsell
from marketing.services import banner_images_refresh

DATA = load_data("marketing")
UPSELL_SKUS: dict[str, str] = DATA["upsell_skus"]  # products of the catalog demo


def demo_image(width: int, height: int, text: str, colors) -> ContentFile:
    """A horizontal two-colour gradient with a caption, as a JPEG upload."""
    start, end = colors
    mask = Image.linear_gradient("L").rotate(90).resize((width, height))
    # The mask is 255 on the right after the rotation: the end colour shows there.
    image = Image.composite(
        Image.new("RGB", (width, height), end), Image.new("RGB", (width, height), start), mask
    )
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=max(16, height // 8))
    draw.text((width // 20, height // 2), text, fill=(255, 255, 255), font=font, anchor="lm")
    return ContentFile(image_bytes(image, format="JPEG", quality=85))


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")[:40]


def _seed_group(spec: dict[str, Any], *, stdout) -> None:
    fields = {name: value for name, value in spec.items() if name not in ("code", "banners")}
    group, created = BannerGroup.objects.get_or_create(code=spec["code"], defaults=fields)
    if not created:
        return
    now = timezone.now()
    for item in spec["banners"]:
        starts, ends = item.get("starts_in_days"), item.get("ends_in_days")
        banner = Banner(
            group=group,
            name=item["name"],
            alt=item["name"],
            desktop_url=item["url"],
            order=item["order"],
            active=item.get("active", True),
            start_at=None if starts is None else now + timedelta(starts),
            end_at=None if ends is None else now + timedelta(ends),
        )
        name = f"{spec['code']}-{_slug(item['name'])}"
        colors = [tuple(color) for color in item["colors"]]
        width, height = group.size_for("desktop")
        banner.desktop_original_image.save(
            f"{name}-desktop.jpg",
            demo_image(width * 3 // 2, height * 3 // 2, item["name"], colors),
            save=False,
        )
        if item.get("own_mobile_image"):
            banner.mobile_original_image.save(
                f"{name}-mobile.jpg",
                demo_image(*group.size_for("mobile"), item["name"], colors[::-1]),
                save=False,
            )
        banner.save()
        banner_images_refresh(banner=banner)
    if spec["code"] == "category-top":
        # the first categories and the offered products': their pages show it
        offered = Product.objects.filter(sku__in=UPSELL_SKUS.values(), main_category__isnull=False)
        group.categories.set(
            [
                *Category.objects.order_by("id")[:2],
                *Category.objects.filter(pk__in=offered.values("main_category_id")),
            ]
        )
        group.products.set(Product.objects.filter(parent__isnull=True).order_by("id")[:3])
    stdout.write(f"  created banner group {spec['code']} with {len(spec['banners'])} banners")


def _upsell_rule() -> PriceRule:
    rule, _ = PriceRule.objects.get_or_create(
        name=DATA["upsell_rule_name"],
        defaults={"trigger": Trigger.UPSELL, "rule_target": Target.ALL, "value": Decimal("10")},
    )
    return rule


def _seed_upsells(*, stdout) -> None:
    products = {
        product.sku: product
        for product in Product.objects.sellable().filter(sku__in=UPSELL_SKUS.values())
    }
    if len(products) < len(set(UPSELL_SKUS.values())):
        stdout.write("  catalog demo products not found: upsell offers skipped")
        return
    for spec in DATA["upsells"]:
        location, title = spec["location"], spec["display_title"]
        if Upsell.objects.filter(location=location).exists():
            continue
        product = products[UPSELL_SKUS[spec["offered"]]]
        offer = Upsell.objects.create(
            display_title=title,
            display_description=f"Leve {product.name} com 10% de desconto.",
            display_button_text="Adicionar ao carrinho",
            quantity=1,
            product=product,
            price_rule=_upsell_rule(),
            location=location,
            priority=10,
        )
        offer.trigger_products.set([products[UPSELL_SKUS[name]] for name in spec["triggers"]])
        stdout.write(f"  created upsell offer '{title}' ({location})")


def seed(*, stdout) -> None:
    stdout.write("Marketing: banner groups and upsell offers")
    for spec in DATA["groups"]:
        _seed_group(spec, stdout=stdout)
    _seed_upsells(stdout=stdout)
