"""When a must-gather was taken: its ``timestamp`` file.

``oc adm must-gather`` writes, beside the image folders, a ``timestamp`` file whose first
line is the moment gathering started (``2021-09-13 15:45:01.297713385 +0000 UTC m=+0.04``)
and, once it finished, a second line with that moment. The finish, else the start, is the
snapshot's time: read from a folder here, from an archive while it is read for its objects
(``snapshot_files``: a stream is read once).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from olmtui.sources.input_limits import Refused, read_regular

TIMESTAMP_FILE = "timestamp"
_LINE = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.\d+)? ([+-]\d{4})")


def parse_timestamp_line(line: str) -> dt.datetime | None:
    """One line of the file as a UTC time; ``None`` when it is not in Go's format."""
    match = _LINE.match(line.strip())
    if match is None:
        return None
    parsed = dt.datetime.strptime(" ".join(match.groups()), "%Y-%m-%d %H:%M:%S %z")
    return parsed.astimezone(dt.UTC)


def is_timestamp_member(name: str) -> bool:
    """Whether an archive member is a must-gather's ``timestamp`` file: at the archive's root
    or one folder down (the folder ``oc`` made around the must-gather)."""
    parts = name.split("/")
    return parts[-1] == TIMESTAMP_FILE and len(parts) <= 2


def gathered_time(texts: Iterable[str]) -> dt.datetime | None:
    """The newest moment the given ``timestamp`` files record (each file's last readable
    line: the finish, else the start); ``None`` when none has one."""
    found: list[dt.datetime] = []
    for text in texts:
        times = [t for t in map(parse_timestamp_line, text.splitlines()) if t is not None]
        found += times[-1:]
    return max(found) if found else None


def must_gather_time(paths: Sequence[str]) -> dt.datetime | None:
    """The newest time of the ``timestamp`` files in the given folders or one level below
    (the must-gather root, or the folder ``oc`` made around it); ``None`` when there is none."""
    texts: list[str] = []
    for raw in paths:
        folder = Path(raw)
        if not folder.is_dir():
            continue
        candidates = [folder / TIMESTAMP_FILE, *sorted(folder.glob(f"*/{TIMESTAMP_FILE}"))]
        for candidate in candidates:
            try:  # a FIFO or a link to /dev/zero named ``timestamp`` is no timestamp
                texts.append(read_regular(candidate, 4096).decode(errors="replace"))
            except (OSError, Refused):
                continue
    return gathered_time(texts)
