"""Errors of the review and comment rules (mapped to HTTP by apikit.exception_handler; a
`{name}` in a message is a field, written as the API names it)."""

from infra.errors import RuleViolation


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
