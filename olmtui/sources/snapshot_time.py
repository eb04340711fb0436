"""When a must-gather was taken: its ``timestamp`` file.

``oc adm must-gather`` writes, beside the image folders, a ``timestamp`` file whose first
line is the moment gathering started (``2021-09-13 15:45:01.297713385 +0000 UTC m=+0.04``)
and, once it finished, a second line with that moment. Only folders are looked into (an
archive's file is not extracted for this); the finish, else the start, is the snapshot's time.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path

TIMESTAMP_FILE = "timestamp"
_LINE = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.\d+)? ([+-]\d{4})")


def parse_timestamp_line(line: str) -> dt.datetime | None:
    """One line of the file as a UTC time; ``None`` when it is not in Go's format."""
    match = _LINE.match(line.strip())
    if match is None:
        return None
    parsed = dt.datetime.strptime(" ".join(match.groups()), "%Y-%m-%d %H:%M:%S %z")
    return parsed.astimezone(dt.UTC)


def must_gather_time(paths: Sequence[str]) -> dt.datetime | None:
    """The newest time of the ``timestamp`` files in the given folders or one level below
    (the must-gather root, or the folder ``oc`` made around it); ``None`` when there is none."""
    found: list[dt.datetime] = []
    for raw in paths:
        folder = Path(raw)
        if not folder.is_dir():
            continue
        candidates = [folder / TIMESTAMP_FILE, *sorted(folder.glob(f"*/{TIMESTAMP_FILE}"))]
        for candidate in candidates:
            try:
                lines = candidate.read_text(errors="replace").splitlines()
            except OSError:
                continue
            times = [t for t in map(parse_timestamp_line, lines) if t is not None]
            found += times[-1:]
    return max(found) if found else None
