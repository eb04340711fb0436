"""How to reach the cluster and how patiently to follow it (``olmtui.sources.cluster.live``
re-exports)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class LiveOptions:
    """Connection and timing settings of a live session.

    ``namespaces`` non-empty means: watch namespaced kinds only in those namespaces (for users
    who may not list cluster-wide). ``read_timeout`` bounds silence on any connection, the
    last guard behind the tighter bounds below.

    A half-open connection or a request the server never answers shows only as silence, so
    silence has bounds that meet the 10 s target: each watch asks the server to
    end it after ``watch_timeout`` seconds (``timeoutSeconds``; olmtui then watches again from
    the last resourceVersion: no relist, nothing lost), so a working watch is never silent
    longer, whatever the BOOKMARK interval (about a minute on a real API server). A watch
    whose answer or next data does not come within ``watch_silence`` seconds is suspect: the
    stream says "reconnecting" and the watch is replaced at once. A list page whose answer
    stops for ``list_timeout`` seconds is asked again (a server that is merely slow still
    sends bytes). The price is one watch request per quiet stream every ``watch_timeout``
    seconds, which the API server answers from its watch cache.

    The defaults meet the reliability targets (README, "Reliability"): after a fault clears
    the cache matches the server within 10 s, because no retry waits longer than
    ``backoff_max``; a kind that was forbidden (403) is asked again with a backoff from
    ``forbidden_initial`` up to ``forbidden_recheck``, so access given back shows within
    30 s (a refused request costs the server next to nothing). ``packagemanifest_debounce``
    groups CatalogSource changes into one PackageManifest relist; ``credential_refresh`` is
    the period of exec/OIDC credential renewal; ``exec_timeout`` bounds one run of an exec
    credential plugin; ``request_timeout`` bounds a one-shot read (``check --live``,
    ``snapshot``) as a whole; ``task_restart_max`` caps the backoff before a watch task that
    failed unexpectedly is started again.
    """

    kubeconfig: str | None = None
    context: str | None = None
    namespaces: list[str] = field(default_factory=list)
    read_timeout: float = 90
    watch_timeout: float = 6
    watch_silence: float = 8
    list_timeout: float = 8
    backoff_initial: float = 0.5
    backoff_max: float = 5
    packagemanifest_interval: float = 300
    packagemanifest_debounce: float = 5
    forbidden_initial: float = 2
    forbidden_recheck: float = 20
    credential_refresh: float = 60
    exec_timeout: float = 30
    request_timeout: float = 30
    task_restart_max: float = 5

    def backoff(self, failures: int) -> float:
        """Jittered exponential delay before retry number ``failures`` (1-based)."""
        return _jittered(failures, self.backoff_initial, self.backoff_max)

    def watch_seconds(self) -> int:
        """The ``timeoutSeconds`` a watch asks for: a whole number of seconds, at least 1."""
        return max(1, int(self.watch_timeout))

    def forbidden_backoff(self, refusals: int) -> float:
        """Delay before asking again after the ``refusals``-th 403 (or 404) in a row."""
        first = min(self.forbidden_initial, self.forbidden_recheck)
        return _jittered(refusals, first, self.forbidden_recheck)

    def restart_backoff(self, crashes: int) -> float:
        """Delay before restarting a task that ended with an unexpected error."""
        most = self.task_restart_max
        return _jittered(crashes, min(self.backoff_initial, most), most)


def _jittered(failures: int, initial: float, most: float) -> float:
    if failures <= 0:
        return 0.0
    ceiling = min(most, initial * 2 ** (failures - 1))
    return random.uniform(ceiling / 2, ceiling)
