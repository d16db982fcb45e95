"""Demo data of the marketing app: three banner groups with generated images (one banner
scheduled in the future, one expired, one inactive) and two upsell offers. The
`category-top` group is linked to categories (those of the offered products among them),
so product pages show it in `bannerGroups`.

Idempotent: a group is looked up by its code and its banners are only created with it;
upsell offers (on catalog demo products, looked up by SKU) are created only for a location
that has none. Nothing staff changed is
overwritten.
"""

import io
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.core.files.base import ContentFile
from django.utils import timezone
from PIL import Image, ImageDraw, ImageFont

from catalog.models import Category, PriceRule, Product
from catalog.pricing import Target, Trigger

from .models import Banner, BannerGroup, Upsell, UpsellLocation
from .services import banner_images_refresh

UPSELL_RULE_NAME = "Oferta de upsell: 10% de desconto"
# Products of the catalog demo (catalog/demo.py) the two offers use.
UPSELL_SKUS = {
    "cart-trigger": "DEMO-0001",
    "cart-offer": "DEMO-0002",
    "checkout-offer": "DEMO-0003",
}


@dataclass(frozen=True)
class DemoBanner:
    name: str
    colors: tuple[tuple[int, int, int], tuple[int, int, int]]
    url: str
    order: int
    active: bool = True
    starts_in_days: int | None = None  # negative: already started
    ends_in_days: int | None = None
    own_mobile_image: bool = False


@dataclass(frozen=True)
class DemoGroup:
    code: str
    name: str
    location: str
    title: str
    sizes: tuple[int, int, int, int, int, int]  # desktop w/h, tablet w/h, mobile w/h
    banners: tuple[DemoBanner, ...]


GROUPS = (
    DemoGroup(
        code="home-main",
        name="Home: carrossel principal",
        location="home-top",
        title="Ofertas da semana",
        sizes=(1920, 600, 1024, 400, 768, 600),
        banners=(
            DemoBanner("Liquidação de verão", ((255, 140, 0), (220, 40, 90)), "/sale", 1),
            DemoBanner(
                "Nova coleção",
                ((20, 90, 160), (10, 180, 170)),
                "/new",
                2,
                own_mobile_image=True,
            ),
            DemoBanner(
                "Black Friday (agendado)",
                ((20, 20, 20), (90, 90, 90)),
                "/black-friday",
                3,
                starts_in_days=30,
                ends_in_days=33,
            ),
            DemoBanner(
                "Carnaval (encerrado)",
                ((140, 0, 160), (240, 200, 0)),
                "/carnival",
                4,
                starts_in_days=-60,
                ends_in_days=-30,
            ),
            DemoBanner(
                "Campanha antiga (inativa)",
                ((120, 120, 120), (60, 60, 60)),
                "/old",
                5,
                active=False,
            ),
        ),
    ),
    DemoGroup(
        code="home-secondary",
        name="Home: faixa secundária",
        location="home-middle",
        title="Frete grátis",
        sizes=(960, 300, 768, 300, 640, 320),
        banners=(
            DemoBanner("Frete grátis", ((0, 130, 80), (120, 200, 60)), "/shipping", 1),
            DemoBanner(
                "Mês do cliente",
                ((200, 60, 60), (250, 170, 120)),
                "/customers",
                2,
                starts_in_days=-1,
                ends_in_days=30,
            ),
        ),
    ),
    DemoGroup(
        code="category-top",
        name="Páginas de categoria: banner do topo",
        location="category-top",
        title="",
        sizes=(1200, 200, 900, 200, 640, 200),
        banners=(DemoBanner("Destaques da categoria", ((40, 40, 120), (90, 120, 220)), "/c", 1),),
    ),
)


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
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85)
    return ContentFile(buffer.getvalue())


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")[:40]


def _seed_group(spec: DemoGroup, *, stdout) -> None:
    dw, dh, tw, th, mw, mh = spec.sizes
    group, created = BannerGroup.objects.get_or_create(
        code=spec.code,
        defaults={
            "name": spec.name,
            "location_id": spec.location,
            "title": spec.title,
            "desktop_width": dw,
            "desktop_height": dh,
            "tablet_width": tw,
            "tablet_height": th,
            "mobile_width": mw,
            "mobile_height": mh,
            "additional_parameter": {"autoplaySeconds": 6} if spec.code == "home-main" else {},
            "pages": ["home"] if spec.code.startswith("home") else ["category"],
        },
    )
    if not created:
        return
    now = timezone.now()
    for item in spec.banners:
        banner = Banner(
            group=group,
            name=item.name,
            alt=item.name,
            desktop_url=item.url,
            order=item.order,
            active=item.active,
            start_at=None if item.starts_in_days is None else now + timedelta(item.starts_in_days),
            end_at=None if item.ends_in_days is None else now + timedelta(item.ends_in_days),
        )
        name = f"{spec.code}-{_slug(item.name)}"
        banner.desktop_original_image.save(
            f"{name}-desktop.jpg",
            demo_image(dw * 3 // 2, dh * 3 // 2, item.name, item.colors),
            save=False,
        )
        if item.own_mobile_image:
            banner.mobile_original_image.save(
                f"{name}-mobile.jpg",
                demo_image(mw, mh, item.name, tuple(reversed(item.colors))),
                save=False,
            )
        banner.save()
        banner_images_refresh(banner=banner)
    if spec.code == "category-top":
        # the first categories, and those of the offered products: their pages show it
        offered = Product.objects.filter(sku__in=UPSELL_SKUS.values(), main_category__isnull=False)
        group.categories.set(
            [
                *Category.objects.order_by("id")[:2],
                *Category.objects.filter(pk__in=offered.values("main_category_id")),
            ]
        )
        group.products.set(Product.objects.filter(parent__isnull=True).order_by("id")[:3])
    stdout.write(f"  created banner group {spec.code} with {len(spec.banners)} banners")


def _upsell_rule() -> PriceRule:
    rule, _ = PriceRule.objects.get_or_create(
        name=UPSELL_RULE_NAME,
        defaults={
            "trigger": Trigger.UPSELL,
            "rule_target": Target.ALL,
            "value": Decimal("10"),
        },
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
    offers = [
        (UpsellLocation.CART, "Complete o visual", "cart-offer", ["cart-trigger"]),
        (UpsellLocation.CHECKOUT, "Oferta de última hora", "checkout-offer", []),
    ]
    for location, title, offered, triggers in offers:
        if Upsell.objects.filter(location=location).exists():
            continue
        product = products[UPSELL_SKUS[offered]]
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
        offer.trigger_products.set([products[UPSELL_SKUS[name]] for name in triggers])
        stdout.write(f"  created upsell offer '{title}' ({location})")


def seed(*, stdout) -> None:
    stdout.write("Marketing: banner groups and upsell offers")
    for spec in GROUPS:
        _seed_group(spec, stdout=stdout)
    _seed_upsells(stdout=stdout)
