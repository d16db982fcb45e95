"""config/env.py: the environment readers shared by the settings and gunicorn's conf."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str, env_whole_patterns


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(None, True), ("", True), ("  ", True), ("1", True), (" Yes ", True), ("off", False)],
)
def test_booleans_blank_means_the_default(monkeypatch, raw, expected):
    monkeypatch.delenv("FLAG", raising=False)
    if raw is not None:
        monkeypatch.setenv("FLAG", raw)
    assert env_bool("FLAG", True) is expected


@pytest.mark.parametrize("reader", [env_bool, env_int])
def test_an_unreadable_value_names_its_variable_for_django_and_gunicorn(monkeypatch, reader):
    monkeypatch.setenv("SETTING", "maybe")
    with pytest.raises(ImproperlyConfigured, match=r"SETTING must be .*got 'maybe'"):
        reader("SETTING", 1)
    with pytest.raises(ValueError, match="SETTING"):
        reader("SETTING", 1)


def test_integers_strings_and_lists(monkeypatch):
    monkeypatch.setenv("NUMBER", " 12 ")
    monkeypatch.setenv("EMPTY", "")
    monkeypatch.setenv("ITEMS", " a, ,b ")
    assert env_int("NUMBER", 5) == 12 and env_int("EMPTY", 5) == 5
    assert env_str("EMPTY", "x") == "x" and env_list("ITEMS") == ["a", "b"]


def test_whole_patterns_are_space_separated_anchored_and_checked(monkeypatch):
    monkeypatch.setenv(
        "PATTERNS", r" https://a\.example\.com  https://pr-[0-9]{1,4}\.example\.com "
    )
    first, second = env_whole_patterns("PATTERNS")
    assert first.match("https://a.example.com")
    assert not first.match("https://a.example.com.evil.net")
    assert second.match("https://pr-12.example.com") and not second.match(
        "https://pr-12345.example.com"
    )
    monkeypatch.setenv("PATTERNS", "https://(unclosed")
    with pytest.raises(ImproperlyConfigured, match=r"PATTERNS: 'https://\(unclosed' is not"):
        env_whole_patterns("PATTERNS")
    monkeypatch.delenv("PATTERNS")
    assert env_whole_patterns("PATTERNS") == []
