"""What the screens show: one cache, one model, and a description of where the data comes from.

The CLI builds a Session for each entry point (live, replay, demo); the screens only read it.
A live session carries a ``runner`` coroutine (the watcher) that the app starts as a worker,
and a ``status`` callable that says, in one line, how the connection is doing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from olmtui.model.catalog import Catalog
from olmtui.model.types import Finding
from olmtui.store import Store

if TYPE_CHECKING:
    from olmtui.model.engine import Model

SourceKind = Literal["live", "snapshot", "demo"]


@dataclass(frozen=True, slots=True)
class ConnectionState:
    """How the live source is doing, for the header: ``state`` is live/reconnecting/...;
    ``last_event_age`` is seconds since the last event (None when nothing arrived yet);
    ``no_access`` what it may not read, asked again every ``recheck`` seconds."""

    state: str
    detail: str = ""
    last_event_age: float | None = None
    no_access: tuple[str, ...] = ()
    recheck: float | None = None


@dataclass(slots=True)
class Session:
    store: Store
    model: Model
    kind: SourceKind
    label: str
    catalogs: list[Catalog] = field(default_factory=list)
    load_findings: list[Finding] = field(default_factory=list)
    runner: Callable[[], Awaitable[None]] | None = None
    status: Callable[[], ConnectionState] | None = None
    #: OLM's csv_upgrade_count as a watcher counts it (live sources); without it the
    #: Overview counts CSVs that replace a CSV still present in their namespace.
    upgrade_count: Callable[[], int] | None = None
    #: What the screens derive from the model, per model version (see ``ui/derived.py``).
    derived_cache: dict[str, tuple[int, Any]] = field(default_factory=dict)
