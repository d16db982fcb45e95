"""Demo data of the feedback app: customers, product and store reviews, comments. Records
are planned from seeded randoms and created, in bulk, only when their natural key is
missing (customer e-mail; subject and customer; product, author e-mail and message)."""

import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone, translation
from PIL import Image

from catalog.models import Product
from demo import image_bytes, load_data, say_created
from feedback.models import Comment, ProductReview, ReviewMedia, SalesChannelReview
from feedback.services import product_review_summaries_refresh, staff_display_name
from storefront.models import Customer, SalesChannel
from storefront.selectors import sales_channel_for_domain

DATA = load_data("feedback")


def seed_customers(stdout) -> list[Customer]:
    """40 demo customers (unusable passwords: they cannot sign in; register your own)."""
    rng = _rng("customers")
    wanted = {}
    for index in range(40):
        first = DATA["first_names"][index % len(DATA["first_names"])]
        last = rng.choice(DATA["last_names"])
        slug = f"{first}.{last}{index:02d}".lower()
        slug = slug.translate(str.maketrans("áéíóúâêôãõç", "aeiouaeoaoc"))
        wanted[DATA["customer_email"].format(slug=slug)] = f"{first} {last}"
    existing = {
        email.lower()
        for email in Customer.objects.filter(email__in=list(wanted)).values_list("email", flat=True)
    }
    unusable = make_password(None)
    created = Customer.objects.bulk_create(
        Customer(name=name, email=email, password=unusable)
        for email, name in wanted.items()
        if email not in existing
    )
    say_created(stdout, "customers", len(created))
    return list(Customer.objects.filter(email__in=list(wanted)).order_by("email"))


def _rng(section: str) -> random.Random:
    """One generator per section, so each section's plan never depends on another's."""
    return random.Random(f"{DATA['seed']}:{section}")  # noqa: S311  (reproducible demo data)


def _plan_age(record, rng: random.Random, days: int) -> None:
    """Draw the record's age now (planning), whether or not it gets created."""
    record.demo_age = timedelta(minutes=rng.randint(60, days * 24 * 60))


def _apply_ages(model, records) -> int:
    """Back-date the new records to their planned age (auto_now_add set now); how many."""
    now = timezone.now()
    for record in records:
        record.created_at = record.updated_at = now - record.demo_age
    model.objects.bulk_update(records, ["created_at", "updated_at"], batch_size=500)
    return len(records)


def _plan_review(rng: random.Random, kind: str, model, customer, texts, **subject):
    """A review by `customer` drawn as DATA["review_draws"][kind] says, its text from `texts`."""
    draws = DATA["review_draws"][kind]
    score = rng.choices([5, 4, 3, 2, 1], weights=draws["weights"])[0]
    review = model(
        **subject,
        customer=customer,
        name=customer.name,
        email=customer.email,
        score=score,
        comment=rng.choice(texts[str(score)] if isinstance(texts, dict) else texts),
        recommended=score >= 3,
        active=rng.random() > 0.1,
        masked=rng.random() < draws["masked"],
    )
    _plan_age(review, rng, days=365)
    return review


def _plan_product_reviews(customers, products) -> list[ProductReview]:
    rng = _rng("product-reviews")
    pool = [(p.pk, c.pk) for p in products[: DATA["reviewed_products"]] for c in customers]
    pairs = sorted(rng.sample(pool, k=min(DATA["product_reviews"], len(pool))))
    by_id = {c.pk: c for c in customers}
    return [
        _plan_review(
            rng, "product", ProductReview, by_id[c_id], DATA["review_texts"], product_id=p_id
        )
        for p_id, c_id in pairs
    ]


def _create_missing_reviews(reviews: list[ProductReview]) -> list[ProductReview]:
    existing = set(
        ProductReview.objects.filter(customer__in={r.customer_id for r in reviews}).values_list(
            "product_id", "customer_id"
        )
    )
    return ProductReview.objects.bulk_create(
        r for r in reviews if (r.product_id, r.customer_id) not in existing
    )


def seed_pending_reviews(customers, products) -> int:
    """A few reviews held for moderation, on products the main plan does not review."""
    spare = products[DATA["reviewed_products"] :] or products
    pending = enumerate(zip(customers, DATA["pending_reviews"], strict=False)) if spare else ()
    new = [
        ProductReview(
            product=spare[index % len(spare)],
            customer=customer,
            name=customer.name,
            email=customer.email,
            score=score,
            comment=text,
            recommended=recommended,
            active=False,
        )
        for index, (customer, (score, recommended, text)) in pending
    ]
    return len(_create_missing_reviews(new))


def _photo(index: int) -> bytes:
    hue = (index * 47) % 255
    return image_bytes(Image.new("RGB", (320, 240), (hue, 180, 255 - hue)), format="PNG")


def seed_review_photos(plan: list[ProductReview]) -> int:
    """A generated photo on each of the first `review_photos` approved planned reviews."""
    wanted = [(r.product_id, r.customer_id) for r in plan if r.active][: DATA["review_photos"]]
    reviews = {
        (r.product_id, r.customer_id): r
        for r in ProductReview.objects.filter(
            product_id__in={p for p, _ in wanted}, customer_id__in={c for _, c in wanted}
        )
    }
    with_photo = set(
        ReviewMedia.objects.filter(review__in=reviews.values()).values_list("review_id", flat=True)
    )
    new = []
    for index, key in enumerate(wanted):
        review = reviews.get(key)
        if review is None or review.pk in with_photo:
            continue
        name = f"reviews/demo-review-{index:02d}.png"
        if not default_storage.exists(name):
            name = default_storage.save(name, ContentFile(_photo(index)))
        new.append(ReviewMedia(review=review, image=name))
    return len(ReviewMedia.objects.bulk_create(new))


def seed_store_reviews(customers) -> int:
    """Reviews of the channel serving 127.0.0.1 (`make run`) and of the default channel."""
    rng = _rng("store-reviews")
    counts: dict[SalesChannel, int] = {}
    for channel, count in (
        (sales_channel_for_domain(domain="127.0.0.1"), DATA["store_reviews_local"]),
        (SalesChannel.objects.filter(is_default=True).first(), DATA["store_reviews_default"]),
    ):
        if channel is not None:
            counts[channel] = counts.get(channel, 0) + count
    new = []
    for channel, count in sorted(counts.items(), key=lambda item: item[0].pk):
        existing = set(channel.reviews.values_list("customer_id", flat=True))
        for customer in rng.sample(customers, k=min(count, len(customers))):
            texts = DATA["store_review_texts"]
            review = _plan_review(
                rng, "store", SalesChannelReview, customer, texts, sales_channel=channel
            )
            if customer.pk not in existing:
                new.append(review)
    return _apply_ages(SalesChannelReview, SalesChannelReview.objects.bulk_create(new))


def _plan_comments(customers, products, staff) -> list[tuple[Comment, list[Comment]]]:
    """Questions on the first products, each with its planned replies (not saved)."""
    # signed as a reply written in the admin is, in the customers' language
    with translation.override(settings.CUSTOMER_LANGUAGE_CODE):
        signature = staff_display_name(staff) if staff is not None else ""
    rng = _rng("comments")
    plan = []
    for product in products[: DATA["commented_products"]]:
        for asker in rng.sample(customers, k=rng.randint(1, 3)):
            question = Comment(
                product=product,
                customer=asker if rng.random() < 0.5 else None,
                customer_name=asker.name,
                customer_email=asker.email,
                message=rng.choice(DATA["questions"]),
                active=rng.random() > 0.15,
            )
            _plan_age(question, rng, days=120)
            replies = []
            if rng.random() < 0.5:
                answerer = rng.choice(customers)
                replies.append(
                    Comment(
                        product=product,
                        customer_name=answerer.name,
                        customer_email=answerer.email,
                        message=rng.choice(DATA["customer_answers"]),
                        active=rng.random() > 0.2,
                    )
                )
            staff_answers = rng.random() < 0.6
            if staff is not None and staff_answers and question.active:
                replies.append(
                    Comment(
                        product=product,
                        user=staff,
                        user_name=signature,
                        user_email=staff.email,
                        message=rng.choice(DATA["staff_answers"]),
                        reply_by_user=True,
                        active=True,
                    )
                )
            plan.append((question, replies))
    return plan


def _comment_key(comment: Comment) -> tuple:
    return (comment.product_id, comment.customer_email, comment.user_email, comment.message)


def seed_comments(customers, products) -> int:
    staff = get_user_model().objects.filter(is_staff=True).order_by("id").first()
    plan = _plan_comments(customers, products, staff)
    commented = products[: DATA["commented_products"]]

    def top_level_ids() -> dict[tuple, int]:
        rows = Comment.objects.filter(product__in=commented, parent__isnull=True).values_list(
            "id", "product_id", "customer_email", "user_email", "message"
        )
        return {tuple(row[1:]): row[0] for row in rows}

    existing = top_level_ids()
    questions: dict[tuple, Comment] = {}  # the first planned question of each key
    for question, _ in plan:
        if _comment_key(question) not in existing:
            questions.setdefault(_comment_key(question), question)
    created = _apply_ages(Comment, Comment.objects.bulk_create(questions.values()))

    parents = top_level_ids()
    existing_replies = set(
        Comment.objects.filter(product__in=commented, parent__isnull=False).values_list(
            "parent_id", "customer_email", "user_email", "message"
        )
    )
    replies = []
    for question, answers in plan:
        parent_id = parents.get(_comment_key(question))
        if parent_id is None:
            continue
        for answer in answers:
            key = (parent_id, answer.customer_email, answer.user_email, answer.message)
            if key not in existing_replies:
                existing_replies.add(key)
                answer.parent_id = parent_id
                replies.append(answer)
    return created + len(Comment.objects.bulk_create(replies))


def seed(*, stdout) -> None:
    stdout.write("Feedback: customers, product and store reviews, comments")
    customers = seed_customers(stdout)
    products = list(Product.objects.active().filter(parent__isnull=True).order_by("id"))
    if not products:
        stdout.write("  no active products yet: product reviews and comments skipped")
    reviews = _plan_product_reviews(customers, products)
    created = _apply_ages(ProductReview, _create_missing_reviews(reviews))
    say_created(stdout, "product reviews", created)
    # bulk inserts send no signal: recount the summaries of the reviewed products
    product_review_summaries_refresh(product_ids={r.product_id for r in reviews})
    say_created(stdout, "review photos", seed_review_photos(reviews))
    say_created(stdout, "reviews waiting for moderation", seed_pending_reviews(customers, products))
    say_created(stdout, "store reviews", seed_store_reviews(customers))
    say_created(stdout, "comments and replies", seed_comments(customers, products))
