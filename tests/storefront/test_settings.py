"""Settings come from the environment; production settings pass `check --deploy`."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, env_overrides: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "HTTPS"}
    }
    env["DATA_DIR"] = str(tmp_path / "data")
    env.update(env_overrides)
    return subprocess.run(  # noqa: S603 - fixed command line
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def production_env() -> dict[str, str]:
    return {
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "shop.example.com",
        "CORS_ALLOWED_ORIGINS": "https://www.shop.example.com",
    }


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env_overrides=production_env(),
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr and "?:" not in result.stdout


def test_missing_secret_key_without_debug_is_a_clear_startup_error(tmp_path):
    env = production_env()
    del env["SECRET_KEY"]
    result = run_manage("check", env_overrides=env, tmp_path=tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_invalid_boolean_is_a_clear_startup_error(tmp_path):
    result = run_manage(
        "check", env_overrides={**production_env(), "HTTPS": "maybe"}, tmp_path=tmp_path
    )
    assert result.returncode != 0
    assert "HTTPS must be a boolean" in result.stderr


def test_settings_read_from_environment(tmp_path):
    code = (
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.TIME_ZONE, s.CACHES['default']['BACKEND'], "
        "s.DATABASES['default']['ENGINE'], s.CORS_ALLOWED_ORIGINS, s.EMAIL_BACKEND);"
        "o = s.CACHES['default']['OPTIONS'];"
        "print(o['SOCKET_CONNECT_TIMEOUT'], o['SOCKET_TIMEOUT'], o['BREAKER_RESET_SECONDS'])"
    )
    env = {
        **production_env(),
        "TIME_ZONE": "UTC",
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "CACHE_CONNECT_TIMEOUT_MS": "20",
        "CACHE_TIMEOUT_MS": "40",
        "CACHE_BREAKER_SECONDS": "7",
        "DATABASE_URL": "postgres://user@db.example.com:5432/store",
    }
    result = run_manage("shell", "-c", code, env_overrides=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == ["0.02", "0.04", "7"]
    assert result.stdout.strip().splitlines()[-2].split() == [
        "False",
        "UTC",
        "infra.caching.backend.BreakerRedisCache",
        "django.db.backends.postgresql",
        "['https://www.shop.example.com']",
        "django.core.mail.backends.console.EmailBackend",
    ]


@pytest.mark.django_db
def test_debug_is_off_by_default_in_this_process(settings):
    assert settings.DEBUG is False


def test_api_docs_and_admin_answer_before_collectstatic_has_run(tmp_path):
    code = (
        "from django.test import Client;"
        "c = Client();"
        "d = c.get('/api/docs/');"
        "a = c.get('/admin/login/');"
        "s = c.get('/static/admin/css/base.css');"
        "print(d.status_code, a.status_code, s.status_code)"
    )
    env = {**production_env(), "HTTPS": "0", "ALLOWED_HOSTS": "testserver"}
    result = run_manage("shell", "-c", code, env_overrides=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "200 200 200"


def test_secret_key_is_read_from_the_key_file_when_the_variable_is_unset(tmp_path):
    env = production_env()
    del env["SECRET_KEY"]
    key_file = tmp_path / "key"
    key_file.write_text("k" * 60 + "\n")
    code = "from django.conf import settings; print(settings.SECRET_KEY == 'k' * 60)"
    result = run_manage(
        "shell",
        "-c",
        code,
        env_overrides={**env, "SECRET_KEY_FILE": str(key_file)},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "True"


def fake_sentry_sdk(folder: Path) -> Path:
    """A stand-in for sentry-sdk (an optional extra, not installed here) that prints its init."""
    package = folder / "sentry_sdk"
    (package / "integrations").mkdir(parents=True)
    (package / "__init__.py").write_text(
        "def init(**kwargs):\n"
        "    print('SENTRY', kwargs['dsn'], kwargs['send_default_pii'],\n"
        "          [type(i).__name__ for i in kwargs['integrations']])\n"
    )
    (package / "integrations" / "__init__.py").write_text("")
    (package / "integrations" / "django.py").write_text("class DjangoIntegration:\n    pass\n")
    return folder


def test_sentry_is_initialised_when_sentry_dsn_is_set(tmp_path):
    env = {
        **production_env(),
        "SENTRY_DSN": "https://key@errors.example/1",
        "PYTHONPATH": str(fake_sentry_sdk(tmp_path / "site")),
    }
    result = run_manage("check", env_overrides=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "SENTRY https://key@errors.example/1 False ['DjangoIntegration']" in result.stdout


def test_sentry_dsn_without_sentry_sdk_is_a_clear_startup_error(tmp_path):
    env = {**production_env(), "SENTRY_DSN": "https://key@errors.example/1"}
    result = run_manage("check", env_overrides=env, tmp_path=tmp_path)
    assert result.returncode != 0
    assert 'pip install "sentry-sdk[django]"' in result.stderr


def test_error_e_mails_are_on_by_default_and_switchable(tmp_path):
    code = "from django.conf import settings as s; print(s.ERROR_EMAILS, s.ERROR_EMAIL_INTERVAL)"
    on = run_manage("shell", "-c", code, env_overrides=production_env(), tmp_path=tmp_path)
    env = {**production_env(), "ERROR_EMAILS": "0", "ERROR_EMAIL_INTERVAL": "60"}
    off = run_manage("shell", "-c", code, env_overrides=env, tmp_path=tmp_path)
    assert on.stdout.strip().splitlines()[-1] == "True 300"
    assert off.stdout.strip().splitlines()[-1] == "False 60"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"MEDIA_STORAGE": "nfs"}, 'MEDIA_STORAGE must be "local" or "s3"'),
        ({"MEDIA_STORAGE": "s3"}, "MEDIA_STORAGE=s3 needs S3_BUCKET"),
    ],
)
def test_an_incomplete_media_storage_is_a_clear_startup_error(tmp_path, overrides, message):
    result = run_manage("check", env_overrides={**production_env(), **overrides}, tmp_path=tmp_path)
    assert result.returncode != 0
    assert message in result.stderr


def test_s3_media_storage_is_read_from_the_environment(tmp_path):
    code = (
        "from django.conf import settings as s; import json;"
        "print(json.dumps([s.STORAGES['default'], s.STORAGES['staging'], s.SERVE_MEDIA]))"
    )
    env = {
        **production_env(),
        "MEDIA_STORAGE": "s3",
        "S3_ENDPOINT_URL": "https://s3.example.com",
        "S3_BUCKET": "store-files",
        "S3_REGION": "sa-east-1",
        "S3_ACCESS_KEY_ID": "key",
        "S3_SECRET_ACCESS_KEY": "secret",
        "S3_PUBLIC_URL": "https://cdn.example.com/store/",
    }
    result = run_manage("shell", "-c", code, env_overrides=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    media, staging, serve_media = json.loads(result.stdout.strip().splitlines()[-1])
    assert media["BACKEND"] == staging["BACKEND"] == "storages.backends.s3.S3Storage"
    for options in (media["OPTIONS"], staging["OPTIONS"]):
        assert options["bucket_name"] == "store-files"
        assert options["endpoint_url"] == "https://s3.example.com"
        assert options["region_name"] == "sa-east-1"
        assert (options["access_key"], options["secret_key"]) == ("key", "secret")
    assert (media["OPTIONS"]["location"], staging["OPTIONS"]["location"]) == ("media", "imports")
    assert media["OPTIONS"]["url_protocol"] == "https:"
    assert media["OPTIONS"]["custom_domain"] == "cdn.example.com/store"
    assert "custom_domain" not in staging["OPTIONS"]
    assert serve_media is False
