"""Masking of customer identity in public responses (pure: no Django, no database).

Public responses never carry a customer's full e-mail address (DESIGN §6): the local
part keeps its first character, `john.smith@example.com` becomes `j***@example.com`.
A review marked `masked` also hides the name: `John Smith` becomes `J*** S***`.
"""

MASK = "***"


def mask_email(email: str) -> str:
    """`john@example.com` -> `j***@example.com`; the result never equals a non-empty input.

    Text without `@` is masked as a whole (`john` -> `j***`); an empty value stays empty.
    """
    value = (email or "").strip()
    if not value:
        return ""
    local, at, domain = value.rpartition("@")
    if not at:
        local, domain = value, ""
    masked_local = f"{local[:1]}{MASK}"
    masked = f"{masked_local}@{domain}" if at else masked_local
    if masked == value:
        # A local part that already looks masked (`a***@x.com`) must still change.
        masked = f"{MASK}@{domain}" if at else MASK
    return masked


def mask_name(name: str) -> str:
    """`John Smith` -> `J*** S***`: each word keeps its first character."""
    return " ".join(f"{word[:1]}{MASK}" for word in (name or "").split())
