"""Errors of the store's account rules (mapped to HTTP by apikit.exception_handler)."""

from infra.errors import AuthenticationFailed, RuleViolation


class EmailAlreadyRegistered(RuleViolation):
    field = "email"
    default_message = "The email field is already registered to an account."


class PasswordRejected(RuleViolation):
    """Django's password validators refused it (`messages`: their reasons)."""

    field = "password"


class InvalidCredentials(AuthenticationFailed):
    """Unknown e-mail, wrong password or inactive account (deliberately not told apart)."""

    default_message = "The email or password is incorrect."


class PasswordResetLinkInvalid(RuleViolation):
    """The reset link's uid and token name no account, were used already, or expired."""

    field = "token"
    default_message = (
        "The {token} of this password reset link is invalid, was already used or has "
        "expired. Ask for a new link."
    )
