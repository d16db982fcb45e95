"""Masking of customer identity in public responses (pure; DESIGN §6)."""

MASK = "***"


def mask_email(email: str) -> str:
    """`john@example.com` -> `j***@example.com`, `john` -> `j***`; never the input itself."""
    value = (email or "").strip()
    if not value:
        return ""
    local, at, domain = value.rpartition("@") if "@" in value else (value, "", "")
    masked = f"{local[:1]}{MASK}{at}{domain}"
    # A local part that already looks masked (`a***@x.com`) must still change.
    return f"{MASK}{at}{domain}" if masked == value else masked


def mask_name(name: str) -> str:
    """`John Smith` -> `J*** S***`: each word keeps its first character."""
    return " ".join(f"{word[:1]}{MASK}" for word in (name or "").split())
