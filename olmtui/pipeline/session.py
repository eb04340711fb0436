"""One source's data as every mode uses it: the cache, the model, the catalogs, and the source.

:mod:`olmtui.pipeline.build` makes a Session for each entry point; its ``analysis``
(``pipeline/analysis.py``) is what ``olmtui check`` turns into the report once and what the
screens read as it changes. A live session also carries a ``runner`` coroutine (the
watcher) that the app starts as a worker, and a ``status`` callable that says, in one line,
how the connection is doing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from olmtui.frozen import frozen
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding
from olmtui.model.rules.input.partial import COMPLETE, PartialInput
from olmtui.pipeline.analysis import Analysis
from olmtui.pipeline.time_control import TimeControl
from olmtui.report.json_report import LoadSummary
from olmtui.store import Store

if TYPE_CHECKING:
    from olmtui.model.incremental.engine import Model

SourceKind = Literal["live", "snapshot", "demo", "recording"]


@frozen
class ConnectionState:
    """How the live source is doing, for the header: ``state`` is live/reconnecting/...;
    ``last_event_age`` is seconds since the last event (None when nothing arrived yet);
    ``no_access`` what it may not read, asked again every ``recheck`` seconds."""

    state: str
    detail: str = ""
    last_event_age: float | None = None
    no_access: tuple[str, ...] = ()
    recheck: float | None = None


class ContextUnavailable(Exception):
    """``:ctx NAME`` could not reach that context; the message says why, in one line."""


class InputUnavailable(Exception):
    """``:open PATH`` could not use that path; the message says why, in one line."""


@frozen
class SourceInfo:
    """What the session knows of the cluster behind it, for the header. Live: the
    kubeconfig ``context``, the API ``server``, the kubeconfig ``user`` and the server's own
    ``kubernetes_version`` (``/version``). A snapshot: ``snapshot_time``, the moment it was
    taken, exact when ``gathered`` (a must-gather's ``timestamp`` file), else the newest
    time its objects record (it was taken then or later). Empty fields are unknown."""

    context: str = ""
    server: str = ""
    user: str = ""
    kubernetes_version: str = ""
    snapshot_time: dt.datetime | None = None
    gathered: bool = False


class LoadingState(Protocol):
    """A snapshot still streaming into the store (``olmtui replay``, see
    ``pipeline/streaming.py``): how far it is, for the loading bar, and whether it is done.
    Until ``done`` the findings are not computed: an unread file proves nothing absent."""

    done: bool
    #: Why the input cannot be used (one line), once known: the dashboard closes with it.
    error: str | None
    #: An unexpected failure of the load (a bug): the dashboard closes, the command crashes.
    crash: Exception | None

    @property
    def line(self) -> str: ...

    @property
    def fraction(self) -> float: ...


def _no_info() -> SourceInfo:
    return SourceInfo()


def _no_catalogs() -> list[Catalog]:
    return []


@dataclass(slots=True)
class Session:
    """A built pipeline: ``model`` derives from ``store`` with the upgrade graphs of
    ``catalogs``; ``kind`` and ``label`` say where the objects come from."""

    store: Store
    model: Model
    kind: SourceKind
    label: str
    #: The catalog content the model's upgrade graphs use, as it is now (it follows a live
    #: cluster's PackageManifests): ``CatalogSet.current`` of the pipeline.
    catalogs: Callable[[], list[Catalog]] = _no_catalogs
    #: What loading a snapshot (or reading the cluster once) did: paths, counts, findings.
    load: LoadSummary | None = None
    runner: Callable[[], Awaitable[None]] | None = None
    status: Callable[[], ConnectionState] | None = None
    #: OLM's csv_upgrade_count as a watcher counts it (live sources); without it the
    #: Overview counts CSVs that replace a CSV still present in their namespace.
    upgrade_count: Callable[[], int] | None = None
    #: A live session's wall clock, which CSV ages are measured against; a must-gather's
    #: gather time (its ``timestamp`` file); other snapshots have none (ages are then lower
    #: bounds from the objects' own times).
    clock: Callable[[], dt.datetime] | None = None
    #: A live session's kubeconfig context names (``:ctx`` completes them), and how to
    #: build the same session (same options) on another context (``:ctx NAME``).
    contexts: Callable[[], list[str]] | None = None
    switch_context: Callable[[str], Awaitable[Session]] | None = None
    #: ``:open PATH``: another input (a snapshot, a must-gather, a recording) as a session
    #: read with the same catalog content; :class:`InputUnavailable` when it cannot be used.
    open_input: Callable[[str], Awaitable[Session]] | None = None
    #: Which cluster, which version, which moment (the header), as known now.
    info: Callable[[], SourceInfo] = _no_info
    #: The catalog operator's global catalog namespace (``--global-catalog-namespace``);
    #: None: OLM's default, ``openshift-marketplace`` when that Namespace exists, else ``olm``
    #: (R-RES-3).
    global_namespace: str | None = None
    #: A snapshot still being read while the screens are up (None: read before them).
    loading: LoadingState | None = None
    #: What of the input is known to be missing now (R-SRC-1): a live sync not finished,
    #: an archive cut short, documents skipped; None: nothing known missing.
    partial: Callable[[], PartialInput] | None = None
    #: When the must-gather read was taken (its ``timestamp`` file), if it says.
    gathered_at: dt.datetime | None = None
    #: The moment of a recording the session holds (``check --at``): the report's
    #: ``source.at``; None for every other source.
    recorded_at: dt.datetime | None = None
    #: The next release's catalog content (``--next-catalog``), which the installed
    #: operators are judged against (R-NXT-6); empty without it.
    next_catalogs: list[Catalog] = field(default_factory=list)
    #: A recording's time cursor (``olmtui replay`` on a recording): the store shows the
    #: recording at its moment; None for every other source.
    time: TimeControl | None = None
    #: What the screens and the reports derive from the session (``pipeline/analysis.py``).
    analysis: Analysis = field(init=False)

    def __post_init__(self) -> None:
        self.analysis = Analysis(self)

    @property
    def loading_now(self) -> bool:
        """Whether objects are still streaming in: no finding may be claimed yet."""
        return self.loading is not None and not self.loading.done

    def input_partial(self) -> PartialInput:
        """What of the input is known to be missing now (R-SRC-1)."""
        return self.partial() if self.partial is not None else COMPLETE

    @property
    def load_findings(self) -> list[Finding]:
        """The loader's own findings (unreadable documents, kinds the cluster lacks)."""
        return list(self.load.findings) if self.load is not None else []
