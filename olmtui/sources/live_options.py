"""How to reach the cluster and how patiently to follow it (``olmtui.sources.live`` re-exports)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class LiveOptions:
    """Connection and timing settings of a live session.

    ``namespaces`` non-empty means: watch namespaced kinds only in those namespaces (for users
    who may not list cluster-wide). ``read_timeout`` bounds silence on any connection, so it
    must exceed the server's bookmark period (about a minute). ``forbidden_recheck`` is how
    often a stream that got 403 (or 404) asks again (a refused request costs the server
    next to nothing, and access given back should show within a minute);
    ``packagemanifest_debounce`` groups CatalogSource changes into one PackageManifest
    relist; ``credential_refresh`` is the period of exec/OIDC credential renewal.
    """

    kubeconfig: str | None = None
    context: str | None = None
    namespaces: list[str] = field(default_factory=list)
    read_timeout: float = 90
    backoff_initial: float = 0.5
    backoff_max: float = 30
    packagemanifest_interval: float = 300
    packagemanifest_debounce: float = 5
    forbidden_recheck: float = 60
    credential_refresh: float = 60

    def backoff(self, failures: int) -> float:
        """Jittered exponential delay before retry number ``failures`` (1-based)."""
        if failures <= 0:
            return 0.0
        ceiling = min(self.backoff_max, self.backoff_initial * 2 ** (failures - 1))
        return random.uniform(ceiling / 2, ceiling)
