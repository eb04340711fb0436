"""What the reconciliation model derives, as plain frozen records.

These records are the contract between the model and its readers (the `check` report,
the screens). They hold OLM's vocabulary and nothing about rendering. Namespace lists are
sorted; ``[""]`` means "all namespaces"; object references are ``"namespace/name"``.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from olmtui.frozen import frozen

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}

#: R-API-5 results.
APIReconciliation = Literal["AddAPIs", "RemoveAPIs", "APIConflict", "NoAPIConflict"]
#: How an OperatorGroup selects its targets (for display): own/single/multi/all namespaces.
GroupMode = Literal["OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces", "None"]


def ref(namespace: str, name: str) -> str:
    """Object reference as the report writes it (cluster-scoped: just the name)."""
    return f"{namespace}/{name}" if namespace else name


@frozen
class ObjectRef:
    """A pointer to a cached object, for "jump to" and for findings' related objects."""

    kind: str
    namespace: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {ref(self.namespace, self.name)}"


@frozen
class FieldEvidence:
    """One field of one object a finding rests on, with the value read (R-EVD-2)."""

    kind: str
    namespace: str
    name: str
    field: str
    value: str


@frozen
class EventEvidence:
    """One Event a finding rests on: what the cluster recorded about its object (R-EVD-1)."""

    kind: str
    namespace: str
    name: str
    reason: str
    message: str
    type: str
    count: int
    time: str


@frozen
class LogEvidence:
    """One line of an OLM pod's log (from a must-gather) that names the finding's object
    (R-EVD-10): which pod and container wrote it, when (RFC 3339, "" when the line does not
    say), its level ("" when unknown) and the line as written (cut when very long)."""

    pod: str
    container: str
    time: str
    level: str
    line: str


Evidence = FieldEvidence | EventEvidence | LogEvidence


@frozen
class Finding:
    """One problem or notable fact, with the why and what-to-do a person needs.

    ``code`` is stable (OLM's own reason string where OLM has one); ``rule`` names the rule
    id from docs/rules.md that backs it; ``related`` are the other objects.
    """

    severity: Severity
    code: str
    kind: str
    namespace: str
    name: str
    message: str
    rule: str = ""
    related: tuple[ObjectRef, ...] = ()
    #: The fields and Events it rests on beyond its objects (``findings[].evidence``); a
    #: rule fills it with what it read, most rules leave it empty (the report and the
    #: screens add the object's fields, Events and log lines, ``finding_evidence``).
    evidence: tuple[Evidence, ...] = ()

    @property
    def sort_key(self) -> tuple[int, str, str, str, str]:
        return (SEVERITY_ORDER[self.severity], self.code, self.namespace, self.name, self.message)


@frozen
class Verdict:
    """The state OLM's next sync of a CSV would write, from the group rules (R-MEM-*, R-API-*)."""

    phase: str
    reason: str
    message: str
    rule: str = ""


@frozen
class Intersection:
    """Another group whose effective target set meets this one's (R-API-4, R-OG-4)."""

    operator_group: str
    namespaces: tuple[str, ...]


@frozen
class Conflict:
    """Another group that claims some of a CSV's provided APIs where both groups reach."""

    operator_group: str
    apis: tuple[str, ...]
    namespaces: tuple[str, ...]


@frozen
class OperatorGroupState:
    """One OperatorGroup as the group rules see it.

    ``expected_provided_apis`` is what ``olm.providedAPIs`` settles at once OLM has made the
    writes now pending: pruning of claims no CSV of the namespace provides (R-API-8),
    members' AddAPIs, and members' RemoveAPIs (R-API-6; see ``apis.expected_group_apis``).
    """

    namespace: str
    name: str
    mode: GroupMode
    target_namespaces: tuple[str, ...]
    status_namespaces: tuple[str, ...] | None
    effective_namespaces: tuple[str, ...]
    static: bool
    provided_apis: tuple[str, ...]
    expected_provided_apis: tuple[str, ...]
    members: tuple[str, ...]
    intersecting: tuple[Intersection, ...]
    upgrade_strategy: str = "Default"
    service_account: str | None = None
    selection_errors: tuple[str, ...] = ()

    @property
    def ref(self) -> str:
        return ref(self.namespace, self.name)


@frozen
class CSVState:
    namespace: str
    name: str
    version: str | None
    phase: str | None
    reason: str | None
    message: str | None
    operator_group: str | None
    provided_apis: tuple[str, ...]
    required_apis: tuple[str, ...]
    verdict: Verdict | None
    api_reconciliation: APIReconciliation | None
    conflicts: tuple[Conflict, ...]
    expected_copies: tuple[str, ...]
    replaces: str | None = None
    display_name: str | None = None

    @property
    def ref(self) -> str:
        return ref(self.namespace, self.name)


@frozen
class MissingCopy:
    csv: str
    namespace: str


@frozen
class StaleCopy:
    namespace: str
    name: str
    copied_from: str
    reason: str


@frozen
class CopiedCSVState:
    present: int
    missing: tuple[MissingCopy, ...]
    stale: tuple[StaleCopy, ...]


@frozen
class InstallPlanRef:
    name: str
    phase: str | None
    approved: bool | None


@frozen
class UpgradeEdge:
    source: str  # "from": the bundle being replaced
    target: str  # "to": the bundle that replaces it
    via: Literal["replaces", "skips", "skipRange"]


@frozen
class UpgradeInfo:
    """Where a Subscription goes next (R-UPG-2) and the whole path to the head (R-UPG-5)."""

    graph: Literal["catalog", "packagemanifest", "none"] = "none"
    head: str | None = None
    next: str | None = None
    path: tuple[str, ...] = ()
    edges: tuple[UpgradeEdge, ...] = ()
    #: R-RES-17: ``"resolver"`` when ``next`` is the resolution's pick, else ``"channel"``.
    decided_by: Literal["resolver", "channel"] = "channel"
    #: One line when ``next`` (or, with nothing next, the installed CSV) is not the head.
    not_head_because: str | None = None


@frozen
class SubscriptionState:
    namespace: str
    name: str
    package: str
    channel: str | None
    source: str
    source_namespace: str
    approval: Literal["Manual", "Automatic"]
    effective_approval: Literal["Manual", "Automatic"]
    state: str | None
    installed_csv: str | None
    current_csv: str | None
    install_plan: InstallPlanRef | None
    upgrade: UpgradeInfo = field(default_factory=UpgradeInfo)
    starting_csv: str | None = None

    @property
    def ref(self) -> str:
        return ref(self.namespace, self.name)


@frozen
class ChannelState:
    """One package channel as a catalog (or PackageManifest) describes it (R-UPG-1, R-UPG-7)."""

    catalog: str | None
    package: str
    channel: str
    head: str | None
    order: tuple[str, ...]
    errors: tuple[str, ...]
