"""The purchase back-fill file (pure: no database, no clock): one order a line.

    order_id,customer_id,email,product_ids,event
    A-1001,42,joana@example.com,12;31,order.paid

`customer_id` or `email` (or both); `product_ids` separated by ";" (or "|", or spaces);
`event` optional (order.paid). A line that breaks a rule is rejected with its number and
reason; the others are kept.
"""

import csv
import io
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

COLUMNS = ("order_id", "customer_id", "email", "product_ids", "event")
EVENTS = ("order.paid", "order.delivered")
MAX_LINES = 50_000
MAX_ID = 2**63 - 1
_SEPARATORS = re.compile(r"[;|\s]+")


@dataclass(frozen=True)
class PurchaseLine:
    line: int
    order_id: str
    customer_id: int | None
    email: str
    product_ids: tuple[int, ...]
    event: str


@dataclass(frozen=True)
class PurchaseFile:
    lines: list[PurchaseLine]
    rejections: list[tuple[int, str]]


class PurchaseFileError(ValueError):
    """The file cannot be read as the purchase CSV at all."""


def _positive(text: str) -> int | None:
    if not text.isdigit():
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def _line(number: int, row: dict[str, str]) -> PurchaseLine:
    order_id = (row.get("order_id") or "").strip()
    if not order_id or len(order_id) > 100:
        raise ValueError(_("the order id is empty or longer than 100 characters"))
    customer_text = (row.get("customer_id") or "").strip()
    customer_id = _positive(customer_text) if customer_text else None
    if customer_text and customer_id is None:
        raise ValueError(_("the customer id is not a positive integer"))
    email = (row.get("email") or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ValueError(_("the e-mail is not valid")) from None
    if customer_id is None and not email:
        raise ValueError(_("give the customer id or the e-mail"))
    texts = [text for text in _SEPARATORS.split(row.get("product_ids") or "") if text]
    products = [_positive(text) for text in texts]
    if not products or None in products or len(products) > 500:
        raise ValueError(_("the product ids must be 1 to 500 positive integers"))
    event = (row.get("event") or "").strip() or EVENTS[0]
    if event not in EVENTS:
        raise ValueError(_("the event must be order.paid or order.delivered"))
    return PurchaseLine(
        number, order_id, customer_id, email, tuple(p for p in products if p), event
    )


def purchase_file_read(content: bytes) -> PurchaseFile:
    """The file's valid lines and its rejections ((line number, reason); the header is 1)."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PurchaseFileError(_("The file is not UTF-8 text.")) from None
    reader = csv.DictReader(io.StringIO(text))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = [name for name in ("order_id", "product_ids") if name not in header]
    if missing:
        raise PurchaseFileError(
            _("The header lacks the columns: %(names)s.") % {"names": ", ".join(missing)}
        )
    reader.fieldnames = header
    lines, rejections = [], []
    try:
        for row in reader:
            number = reader.line_num
            if number > MAX_LINES + 1:
                raise PurchaseFileError(
                    _("The file has more than %(count)d lines.") % {"count": MAX_LINES}
                )
            try:
                lines.append(_line(number, row))
            except ValueError as exc:
                rejections.append((number, str(exc)))
    except csv.Error as exc:
        raise PurchaseFileError(
            _("The file is not valid CSV: %(error)s") % {"error": exc}
        ) from None
    return PurchaseFile(lines, rejections)
