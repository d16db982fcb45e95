"""Errors of the review and comment rules (a `{name}` in a message is a field's API name)."""

from infra.errors import ErrorCode, NotFoundError, RuleViolation


class CommentNotFound(NotFoundError):
    """No approved comment of the product has the id."""

    code = ErrorCode.COMMENT_NOT_FOUND

    def __init__(self, comment_id: int) -> None:
        super().__init__(f"Comment {comment_id} was not found.")


class InvalidParentComment(RuleViolation):
    field = "parent_comment_id"
    default_message = (
        "The {parent_comment_id} field must be a top-level comment: replies are one level deep."
    )


class MissingCommenterContact(RuleViolation):
    field = "customer_name"
    default_message = "Anonymous comments need the {customer_name} and {customer_email}."


class BlankMessage(RuleViolation):
    field = "message"
    default_message = "The {message} field may not be blank."


class ReviewImageRejected(RuleViolation):
    field = "images"
    default_message = "The {images} field holds a file that is not an accepted image."


class SalesChannelNotFound(NotFoundError):
    default_message = "No sales channel serves this host."


class ScoreOutOfRange(RuleViolation):
    field = "score"
    default_message = "The {score} field must be an integer from 1 to 5."


class ReviewNotFound(NotFoundError):
    """No approved product review has the id."""

    code = ErrorCode.REVIEW_NOT_FOUND

    def __init__(self, review_id: int) -> None:
        super().__init__(f"Review {review_id} was not found.")


class InvalidPurchase(RuleViolation):
    field = "data"
    default_message = "The order names no customer: give {customer_id} or {email}."
