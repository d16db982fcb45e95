"""Feedback part of the benchmark's data set: customers, reviews and comments."""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.utils import timezone

from catalog.models import Product
from demo.feedback import DATA
from feedback.models import Comment, ProductReview, SalesChannelReview
from storefront.models import Customer, SalesChannel

FIRST_NAMES, LAST_NAMES = DATA["first_names"], DATA["last_names"]
QUESTIONS, CUSTOMER_ANSWERS = DATA["questions"], DATA["customer_answers"]
STAFF_ANSWERS, STORE_REVIEW_TEXTS = DATA["staff_answers"], DATA["store_review_texts"]
REVIEW_TEXTS = {int(score): texts for score, texts in DATA["review_texts"].items()}
BENCH_EMAIL = "bench-{index:05d}@example.com"  # example.com: reserved, never delivered
STORE_CHANNEL_DOMAIN = "127.0.0.1"  # the channel the benchmark's requests are served by


def _backdate(model, records, rng: random.Random, *, days: int) -> None:
    """auto_now_add stamped every new record with now: spread them over the past `days`."""
    now = timezone.now()
    for record in records:
        record.created_at = record.updated_at = now - timedelta(
            minutes=rng.randint(60, days * 24 * 60)
        )
    model.objects.bulk_update(records, ["created_at", "updated_at"], batch_size=1000)


def customers_get(*, count: int, rng: random.Random) -> list:
    """The benchmark's customers (unusable passwords), created when missing."""
    wanted = [BENCH_EMAIL.format(index=index) for index in range(count)]
    existing = set(Customer.objects.filter(email__in=wanted).values_list("email", flat=True))
    unusable = make_password(None)
    Customer.objects.bulk_create(
        [
            Customer(
                name=f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
                email=email,
                password=unusable,
            )
            for email in wanted
            if email not in existing
        ],
        batch_size=1000,
    )
    return list(Customer.objects.filter(email__in=wanted).order_by("id"))


def _review_fields(rng: random.Random, customer, texts: dict[int, list[str]]) -> dict:
    score = rng.choices([5, 4, 3, 2, 1], weights=[45, 30, 13, 7, 5])[0]
    return {
        "customer_id": customer.pk,
        "name": customer.name,
        "email": customer.email,
        "score": score,
        "comment": rng.choice(texts[score]),
        "recommended": score >= 3,
        "active": True,
        "masked": rng.random() < 0.15,
    }


def _other_products(top, regular: int) -> list[int]:
    """Ids of the active main products among the first `regular` (by id) but the top one, in
    id order (reviews and comments stay on them however large the catalogue grows)."""
    first = Product.objects.filter(parent=None).order_by("id").values("id")[:regular]
    return list(
        Product.objects.active()
        .filter(parent=None, pk__in=list(first.values_list("id", flat=True)))
        .exclude(pk=top.pk)
        .order_by("id")
        .values_list("id", flat=True)
    )


def add_product_reviews(
    *, total: int, on_top: int, rng: random.Random, customers, top, regular: int
) -> None:
    """Approved reviews up to `total`, `on_top` of them on the top product; the others
    spread over the other active regular main products, a few popular ones getting more."""
    pairs = set(ProductReview.objects.values_list("product_id", "customer_id"))
    missing = on_top - ProductReview.objects.public().filter(product=top).count()
    reviewers = [c for c in customers if (top.pk, c.pk) not in pairs]
    new = [
        ProductReview(product_id=top.pk, **_review_fields(rng, customer, REVIEW_TEXTS))
        for customer in rng.sample(reviewers, k=max(0, missing))
    ]
    others = _other_products(top, regular)
    rng.shuffle(others)
    weights = [1 / (rank + 1) ** 0.5 for rank in range(len(others))]  # mild popularity skew
    wanted = total - ProductReview.objects.public().count() - len(new)
    attempts = 50 * max(wanted, 0)
    while wanted > 0 and attempts:
        attempts -= 1
        product_id = rng.choices(others, weights=weights)[0]
        customer = customers[rng.randrange(len(customers))]
        if (product_id, customer.pk) in pairs:
            continue
        pairs.add((product_id, customer.pk))
        new.append(
            ProductReview(product_id=product_id, **_review_fields(rng, customer, REVIEW_TEXTS))
        )
        wanted -= 1
    if wanted > 0:
        raise RuntimeError("not enough products and customers for the reviews wanted")
    created = ProductReview.objects.bulk_create(new, batch_size=1000)
    _backdate(ProductReview, created, rng, days=730)


def add_store_reviews(*, total: int, rng: random.Random, customers) -> None:
    """Approved reviews of the channel serving 127.0.0.1, up to `total` (one per customer)."""
    channel = SalesChannel.objects.get(domain=STORE_CHANNEL_DOMAIN)
    wanted = total - SalesChannelReview.objects.public().filter(sales_channel=channel).count()
    texts = dict.fromkeys(range(1, 6), STORE_REVIEW_TEXTS)
    reviewed = set(
        SalesChannelReview.objects.filter(sales_channel=channel).values_list(
            "customer_id", flat=True
        )
    )
    reviewers = [c for c in customers if c.pk not in reviewed]
    if wanted > len(reviewers):
        raise RuntimeError("not enough customers for the store reviews wanted (one each)")
    created = SalesChannelReview.objects.bulk_create(
        [
            SalesChannelReview(sales_channel=channel, **_review_fields(rng, customer, texts))
            for customer in rng.sample(reviewers, k=max(0, wanted))
        ],
        batch_size=1000,
    )
    _backdate(SalesChannelReview, created, rng, days=730)


def _thread(rng: random.Random, product_id: int, customers, staff) -> tuple:
    """A question and its replies (none, a customer's, the store's or both), unsaved."""
    asker = customers[rng.randrange(len(customers))]
    question = Comment(
        product_id=product_id,
        customer_id=asker.pk if rng.random() < 0.5 else None,
        customer_name=asker.name,
        customer_email=asker.email,
        message=rng.choice(QUESTIONS),
        active=rng.random() > 0.1,
    )
    replies = []
    if rng.random() < 0.15:
        answerer = customers[rng.randrange(len(customers))]
        replies.append(
            Comment(
                product_id=product_id,
                customer_name=answerer.name,
                customer_email=answerer.email,
                message=rng.choice(CUSTOMER_ANSWERS),
                active=rng.random() > 0.1,
            )
        )
    if staff is not None and question.active and rng.random() < 0.3:
        replies.append(
            Comment(
                product_id=product_id,
                user_id=staff.pk,
                user_name=staff.get_full_name() or "Store team",
                user_email=staff.email,
                message=rng.choice(STAFF_ANSWERS),
                reply_by_user=True,
                active=True,
            )
        )
    return question, replies


def add_comments(
    *, total: int, on_top: int, rng: random.Random, customers, top, regular: int
) -> None:
    """Questions and replies up to `total` in all, `on_top` on the top product; the others
    on random active regular main products. Staff replies are by the first staff user."""
    staff = get_user_model().objects.filter(is_staff=True).order_by("id").first()
    for_top = max(0, on_top - Comment.objects.filter(product=top).count())
    others = max(0, total - Comment.objects.count() - for_top)
    products = _other_products(top, regular)
    threads = []
    for wanted, pick in ((for_top, lambda: top.pk), (others, lambda: rng.choice(products))):
        while wanted > 0:
            question, replies = _thread(rng, pick(), customers, staff)
            replies = replies[: wanted - 1]
            threads.append((question, replies))
            wanted -= 1 + len(replies)
    questions = Comment.objects.bulk_create([q for q, _ in threads], batch_size=1000)
    _backdate(Comment, questions, rng, days=365)
    now = timezone.now()
    replies = []
    for question, answers in threads:
        for answer in answers:
            answer.parent_id = question.pk
            answered = question.created_at + timedelta(hours=rng.randint(1, 72))
            replies.append((answer, min(now, answered)))
    Comment.objects.bulk_create([answer for answer, _ in replies], batch_size=1000)
    for answer, answered in replies:  # a reply comes after its question
        answer.created_at = answer.updated_at = answered
    Comment.objects.bulk_update(
        [answer for answer, _ in replies], ["created_at", "updated_at"], batch_size=1000
    )
