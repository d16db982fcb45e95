"""Errors of the review and comment rules (mapped to HTTP by apikit.exception_handler; a
`{name}` in a message is a field, written as the API names it)."""

from infra.errors import NotFoundError, RuleViolation


class InvalidParentComment(RuleViolation):
    field = "parent_comment_id"
    default_message = (
        "The {parent_comment_id} field must be an approved top-level comment of this product."
    )


class MissingCommenterContact(RuleViolation):
    field = "customer_name"
    default_message = "Anonymous comments need the {customer_name} and {customer_email}."


class BlankMessage(RuleViolation):
    field = "message"
    default_message = "The {message} field may not be blank."


class ReviewImageRejected(RuleViolation):
    """A review photo is not a readable image, or is too large (`messages`: why)."""

    field = "images"
    default_message = "The {images} field holds a file that is not an accepted image."


class SalesChannelNotFound(NotFoundError):
    """No sales channel serves the request's host and the store has no default channel."""

    default_message = "No sales channel serves this host."


class ScoreOutOfRange(RuleViolation):
    field = "score"
    default_message = "The {score} field must be an integer from 1 to 5."
