"""feedback/masking.py: e-mails and names in public responses (pure)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feedback.masking import mask_email, mask_name


@pytest.mark.parametrize(
    ("email", "masked"),
    [
        ("john.smith@example.com", "j***@example.com"),
        ("j@example.com", "j***@example.com"),
        ("Ana@Example.COM", "A***@Example.COM"),
        ("  joana@example.com ", "j***@example.com"),
        ("weird@local@example.com", "w***@example.com"),
        ("a***@example.com", "***@example.com"),
        ("no-at-sign", "n***"),
        ("", ""),
    ],
)
def test_mask_email_keeps_the_first_character_and_the_domain(email, masked):
    assert mask_email(email) == masked


@pytest.mark.parametrize(
    ("name", "masked"),
    [
        ("John Smith", "J*** S***"),
        ("  Maria   da  Silva ", "M*** d*** S***"),
        ("Ângela", "Â***"),
        ("", ""),
    ],
)
def test_mask_name_keeps_the_first_character_of_each_word(name, masked):
    assert mask_name(name) == masked


@given(
    # An all-asterisk local part ("***") has nothing left to hide: its mask contains it.
    local=st.text(min_size=1, max_size=40).filter(
        lambda s: "@" not in s and s.strip() == s and s.strip("*")
    ),
    domain=st.from_regex(r"[a-z]{1,10}\.[a-z]{2,4}", fullmatch=True),
)
def test_a_masked_email_never_contains_the_full_address(local, domain):
    email = f"{local}@{domain}"

    masked = mask_email(email)

    assert email not in masked
    assert masked.endswith(f"@{domain}")


@given(st.text(max_size=60))
def test_a_masked_name_reveals_at_most_one_character_per_word(name):
    masked = mask_name(name)

    words = masked.split()
    assert len(words) == len(name.split())
    assert all(word.endswith("***") and len(word) == 4 for word in words)
