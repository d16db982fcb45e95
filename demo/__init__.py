"""The demo store of `make run` (`manage.py seed_demo`): one seeder per app (demo/<app>.py,
listed in demo/management/commands/seed_demo.py), each reading its data from
demo/data/<app>.toml. No app imports this package."""

import tomllib
from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image


def load_data(name: str) -> dict[str, Any]:
    with (Path(__file__).parent / "data" / f"{name}.toml").open("rb") as file:
        return tomllib.load(file)


def image_bytes(image: Image.Image, **options: Any) -> bytes:
    buffer = BytesIO()
    image.save(buffer, **options)
    return buffer.getvalue()


def say_created(stdout, label: str, count: int | bool = True) -> None:
    """`  created <count> <label>`, or `  created <label>` for True; nothing for 0 or False."""
    if count:
        stdout.write(f"  created {label}" if count is True else f"  created {count} {label}")
