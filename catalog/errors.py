"""Errors of the catalog's rules (mapped to HTTP by apikit.exception_handler)."""

from infra.errors import ErrorCode, NotFoundError


class ProductNotFound(NotFoundError):
    """No active, sellable product has the id."""

    code = ErrorCode.PRODUCT_NOT_FOUND

    def __init__(self, product_id: int) -> None:
        super().__init__(f"Product {product_id} was not found.")
