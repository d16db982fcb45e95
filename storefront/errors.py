"""Errors of the store's account rules (mapped to HTTP by apikit.exception_handler)."""

from infra.errors import AuthenticationFailed, RuleViolation


class EmailAlreadyRegistered(RuleViolation):
    field = "email"
    default_message = "The email field is already registered to an account."


class PasswordRejected(RuleViolation):
    field = "password"


class InvalidCredentials(AuthenticationFailed):
    default_message = "The email or password is incorrect."


class PasswordResetLinkInvalid(RuleViolation):
    field = "token"
    default_message = (
        "The {token} of this password reset link is invalid, was already used or has "
        "expired. Ask for a new link."
    )
