"""A tqdm progress bar over a file's bytes, shown only when the output is a terminal."""

import os
import sys
from contextlib import contextmanager

from tqdm import tqdm


@contextmanager
def file_progress(path, *, stdout, description: str):
    """Yield a callback taking bytes read (None when stdout is not a terminal)."""
    isatty = getattr(stdout, "isatty", None)
    if not (isatty and isatty()):
        yield None
        return
    with tqdm(
        total=os.path.getsize(path),
        unit="B",
        unit_scale=True,
        desc=description,
        file=sys.stderr,
        leave=False,
    ) as bar:
        yield bar.update
