"""Which must-gather files are OLM's pod logs, and their newest lines, read bounded (R-EVD-10).

``oc adm inspect`` writes a running pod's container logs (with the kubelet's timestamps) to
``namespaces/NS/pods/POD/CONTAINER/CONTAINER/logs/current.log`` and ``previous.log`` (the
container's last run, when it restarted); ``.insecure.log`` when it had to skip the kubelet's
TLS check. Only OLM's own pods are read: ``olm-operator``, ``catalog-operator`` and
``packageserver`` in OLM's namespace, and OLM v1's ``operator-controller`` and ``catalogd``.

A log can be gigabytes: of each file only the last :data:`MAX_LOG_BYTES` bytes and, of those,
the last :data:`MAX_LOG_LINES` lines are kept (the newest say what OLM did last), and what was
cut is said. These files are not YAML: the snapshot loader never parses them
(``snapshot_files.is_snapshot_file``), it hands them here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from typing import IO

from olmtui.frozen import frozen
from olmtui.sources.input_limits import special_file
from olmtui.sources.snapshots.olm_log_lines import parse_log_line
from olmtui.store import LogFileRead, LogLine

#: The newest bytes read of one log file.
MAX_LOG_BYTES = 2 << 20
#: The newest lines kept of one log file.
MAX_LOG_LINES = 5000
#: Log files read in one snapshot: OLM runs a handful of pods, each with one or two files.
MAX_LOG_FILES = 64
#: The namespaces OLM's pods run in: OpenShift's and upstream's, v0 and v1.
OLM_NAMESPACES: frozenset[str] = frozenset(
    {
        "openshift-operator-lifecycle-manager",
        "olm",
        "openshift-operator-controller",
        "openshift-catalogd",
        "olmv1-system",
    }
)
#: OLM's pods, by the name their Deployment gives them (``olm-operator-5f9c...``).
OLM_POD_PREFIXES: tuple[str, ...] = (
    "olm-operator-",
    "catalog-operator-",
    "packageserver-",
    "operator-controller-",
    "catalogd-",
)
_LOG_NAMES = frozenset(
    {"current.log", "previous.log", "current.insecure.log", "previous.insecure.log"}
)


@frozen
class LogSource:
    """One OLM log file to read: as shown, its pod and container, and where its bytes are (a
    file's ``path``, or an archive member's newest ``data`` with ``skipped`` bytes before)."""

    name: str
    pod: str
    container: str
    path: str | None = None
    data: bytes = b""
    skipped: int = 0


def olm_log_of(parts: Sequence[str]) -> tuple[str, str] | None:
    """The (pod, container) whose log a file is, by its path's parts, when it is one of OLM's
    pods' logs as ``oc adm inspect`` writes them; else ``None``."""
    if len(parts) < 8 or parts[-1] not in _LOG_NAMES or parts[-2] != "logs":
        return None
    namespaces, namespace, pods, pod, container, again = parts[-8:-2]
    if namespaces != "namespaces" or pods != "pods" or container != again:
        return None
    if namespace not in OLM_NAMESPACES or not pod.startswith(OLM_POD_PREFIXES):
        return None
    return pod, container


def newest_bytes(stream: IO[bytes], limit: int = MAX_LOG_BYTES) -> tuple[bytes, int]:
    """The last ``limit`` bytes of a stream read to its end (an archive member, which cannot
    seek), and how many bytes came before them."""
    kept = bytearray()
    skipped = 0
    while chunk := stream.read(1 << 16):
        kept += chunk
        if len(kept) > 2 * limit:
            skipped += len(kept) - limit
            del kept[: len(kept) - limit]
    if len(kept) > limit:
        skipped += len(kept) - limit
        del kept[: len(kept) - limit]
    return bytes(kept), skipped


def _file_tail(path: str) -> tuple[bytes, int]:
    """The last ``MAX_LOG_BYTES`` bytes of a regular file and how many came before them;
    ``OSError`` for anything else (a FIFO would block a read forever)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(descriptor)
        if special_file(status.st_mode) is not None or stat.S_ISDIR(status.st_mode):
            raise OSError(f"{special_file(status.st_mode) or 'a directory'}, not read")
        skipped = max(0, status.st_size - MAX_LOG_BYTES)
        os.lseek(descriptor, skipped, os.SEEK_SET)
        parts: list[bytes] = []
        left = MAX_LOG_BYTES
        while left > 0 and (chunk := os.read(descriptor, min(left, 1 << 20))):
            parts.append(chunk)
            left -= len(chunk)
    finally:
        os.close(descriptor)
    return b"".join(parts), skipped


def read_log(source: LogSource) -> tuple[list[LogLine], LogFileRead]:
    """The newest lines of one log file, parsed, and what was read of it (R-EVD-10)."""
    shown = f"{source.pod}/{source.container} {source.name.rsplit('/', 1)[-1]}"
    data, skipped = source.data, source.skipped
    if source.path is not None:
        try:
            data, skipped = _file_tail(source.path)
        except OSError as exc:
            return [], LogFileRead(shown, 0, f"not read ({exc.strerror or exc})")
    text = data.decode("utf-8", errors="replace")
    raw = text.splitlines()
    dropped_lines = 0
    if skipped and raw:
        raw = raw[1:]  # the first line read is the end of a line cut in two
    if len(raw) > MAX_LOG_LINES:
        dropped_lines = len(raw) - MAX_LOG_LINES
        raw = raw[dropped_lines:]
    cut = []
    if skipped:
        cut.append(f"the first {skipped:,} bytes not read")
    if dropped_lines:
        cut.append(f"{dropped_lines:,} older lines not kept")
    lines = [parse_log_line(source.pod, source.container, line) for line in raw]
    note = (
        f"{' and '.join(cut)} (olmtui keeps the newest {MAX_LOG_LINES:,} lines "
        f"of {MAX_LOG_BYTES >> 20} MiB)"
        if cut
        else ""
    )
    return lines, LogFileRead(shown, len(lines), note)
