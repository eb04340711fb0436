"""Overview: the seed's counts and health at a glance, then what needs attention, worst
first: incidents (one row per root cause, what follows from it in its detail), InstallPlans
waiting for approval, unhealthy catalogs, operators behind their channel head. Enter opens
the object of the row."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from olmtui.kinds import (
    CATALOG_SOURCE,
    CSV,
    INSTALL_PLAN,
    SUBSCRIPTION,
)
from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.viewmodels.finding_evidence import finding_evidence
from olmtui.model.viewmodels.metrics import HeadCounts
from olmtui.pipeline.session import Session
from olmtui.ui import access, palette
from olmtui.ui.formatting import SEVERITY_STYLE, SHORT_KINDS, mark, phase, severity
from olmtui.ui.loading_bar import LOADING_TEXT
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.extensions import MOVING
from olmtui.ui.screens.findings import (
    finding_ref,
    incident_search,
    incident_text,
    resolution_namespace,
)
from olmtui.ui.screens.remedy_preview import open_preview
from olmtui.ui.screens.timeline import open_incident_timeline
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.virtual_table import Column, Row


def metrics_text(session: Session, namespace: str | None = None) -> Text:
    """What the source holds and how it is, in words, as one paragraph that wraps to any
    width: ``8 operators, 2 not healthy, 90 copies · 5 Subscriptions, 1 waiting for approval
    · ...``; under ``:ns`` the namespace's own. The same numbers keep their metric names in
    ``olmtui check --output json``."""
    counts = session.analysis.overview_counts(namespace)
    m = counts.metrics
    text = Text()
    groups: list[list[tuple[str, str]]] = [
        [
            (count(m.csv_count, "operator"), ""),
            (
                f"{'?' if m.csv_count is None else len(m.csv_abnormal)} not healthy",
                palette.ERROR if m.csv_abnormal else "",
            ),
            (count(counts.copies, "copy", "copies"), ""),
        ],
        [(count(m.csv_upgrade_count, "upgrade") + " seen", "")],
        [
            (count(m.subscription_count, "Subscription"), ""),
            (
                f"{counts.waiting} waiting for approval",
                palette.WARNING_STRONG if counts.waiting else "",
            ),
        ],
        [(count(m.install_plan_count, "InstallPlan"), "")],
        [_catalogs(m.catalog_source_count, counts.healthy_catalogs)],
    ]
    if namespace is not None:
        text.append(f"in {namespace}: ", style=palette.MUTED)
    for i, group in enumerate(groups):
        if i:
            text.append(" · ", style=palette.MUTED)
        for j, (words, style) in enumerate(group):
            if j:
                text.append(", ")
            text.append(words, style=style or "bold")
    if namespace is None and session.analysis.has_v1():
        text.append("\n")
        text.append_text(v1_text(session))
    if session.store.unreadable:
        text.append(
            "\n? = no access (RBAC): "
            + ", ".join(
                access.empty_text(u).removeprefix("no access to ")
                for _, u in sorted(session.store.unreadable.items())
            ),
            style=palette.UNKNOWN,
        )
    text.append("\n")
    if session.loading_now:  # a partial snapshot proves no finding, nor their absence
        text.append("findings and channel heads when every file is read", style=palette.MUTED)
        return text
    text.append("incidents: ", style=palette.MUTED)
    text.append_text(_findings_text(counts.incidents))
    findings = sum(counts.severities.values())
    text.append(f" ({count(findings, 'finding')})", style=palette.MUTED)
    text.append(" · " + _behind_text(counts.heads), style=palette.MUTED)
    return text


def v1_text(session: Session) -> Text:
    """OLM v1 beside v0, for a source that holds v1 objects: ``OLM v1: 2 ClusterExtensions,
    1 installed, 1 failing · 1 ClusterCatalog, 1 serving, 0 not serving``. Failing: neither
    settled nor on its way (R-V1-5: Progressing=True/Succeeded is settled, not busy)."""
    state = session.analysis.v1_state()
    extensions = state.extensions.values()
    installed = sum(1 for e in extensions if e.installed is not None)
    failing = sum(1 for e in extensions if not e.state.settled and e.state.label not in MOVING)
    serving = sum(1 for c in state.catalogs.values() if c.serving)
    off = sum(1 for c in state.catalogs.values() if not c.serving and not c.user_unavailable)
    text = Text("OLM v1: ", style=palette.MUTED)
    for i, (words, style) in enumerate(
        (
            (count(len(extensions), "ClusterExtension"), ""),
            (f"{installed} installed", ""),
            (f"{failing} failing", palette.ERROR if failing else ""),
            (count(len(state.catalogs), "ClusterCatalog"), ""),
            (f"{serving} serving", ""),
            (f"{off} not serving", palette.ERROR if off else ""),
        )
    ):
        text.append(" · " if i == 3 else ", " if i else "", style=palette.MUTED if i == 3 else "")
        text.append(words, style=style or "bold")
    return text


def count(value: int | None, word: str, plural: str | None = None) -> str:
    """``1 operator``, ``2 operators``, ``? operators`` (no access is not zero)."""
    if value is None:
        return f"? {plural or word + 's'}"
    return f"{value} {word if value == 1 else plural or word + 's'}"


def _catalogs(total: int | None, healthy: int) -> tuple[str, str]:
    if total is None:
        return "? catalogs", ""
    unhealthy = total - healthy
    words = count(total, "catalog") + (f" ({unhealthy} unhealthy)" if unhealthy else "")
    return words, palette.ERROR if unhealthy else ""


_SEVERITY_WORDS = {"error": ("error", "errors"), "warning": ("warning", "warnings")}


def _findings_text(counts: dict[str, int]) -> Text:
    """``✖ 2 errors  ▲ 1 warning  ● 3 info``, or ``no findings``."""
    text = Text()
    if not any(counts.values()):
        return Text("no findings", style=palette.OK)
    for i, (sev, n) in enumerate(counts.items()):
        one, many = _SEVERITY_WORDS.get(sev, (sev, sev))
        text.append("  " if i else "")
        text.append(
            f"{mark(sev)} {count(n, one, many)}", style=SEVERITY_STYLE[sev] if n else palette.MUTED
        )
    return text


def _behind_text(heads: HeadCounts) -> str:
    """ "0 behind" must not stand for "no head to compare with" (R-UPG-1, R-UPG-5)."""
    if heads.unknown and heads.unknown == heads.installed:
        return f"behind channel head: unknown ({heads.unknown_reason})"
    text = f"{heads.behind} behind channel head"
    if heads.held:
        # R-RES-17: one answer; the resolver's decision, not the channel's, says what moves
        text += f" ({heads.held} held back by OLM's resolver)"
    if heads.unknown:
        text += f", {heads.unknown} unknown ({heads.unknown_reason})"
    return text


class OverviewScreen(TableScreen):
    VIEW_TITLE = "Overview"
    COLUMNS = (
        Column("what", "WHAT", 9),
        Column("code", "CODE", cut="never"),
        Column("object", "OBJECT", min_width=22, cut="middle"),
        Column("detail", "DETAIL"),
    )
    EMPTY_TEXT = "nothing needs attention"
    LOADING_EMPTY_TEXT = LOADING_TEXT
    BINDINGS = [
        Binding("p", "preview_remedy", "Preview remedy"),
        Binding("t", "timeline", "Timeline"),
    ]

    def action_preview_remedy(self) -> None:
        """``p`` on an incident row: its root's remedy tried on a copy of the state."""
        incident = getattr(self, "_incidents", {}).get(self.table.selected_key)
        open_preview(self, *(incident or (None, None)))

    def action_timeline(self) -> None:
        """``t`` on an incident row: what happened to its objects, in order."""
        incident = getattr(self, "_incidents", {}).get(self.table.selected_key)
        open_incident_timeline(self, *(incident or (None, None)))

    REFRESH_PARTS = (*TableScreen.REFRESH_PARTS, "#metrics")

    def compose_summary(self) -> ComposeResult:
        yield InertStatic(id="metrics", classes="metrics")

    def refresh_data(self) -> None:
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        self._show_metrics()
        super().refresh_data()

    def apply_scope(self) -> None:
        if not self.parts_present():
            return
        self._show_metrics()
        super().apply_scope()

    def _show_metrics(self) -> None:
        """The counts follow the ``:ns`` scope, as the rows below do."""
        self.query_one("#metrics", Static).update(metrics_text(self.session, self.namespace_scope))

    def build_rows(self) -> Iterable[Row]:
        session = self.session
        self._items: dict[Hashable, tuple[ObjectRef | None, RenderableType]] = {}
        self._finding_rows: dict[Hashable, Finding] = {}
        diagnosis = session.analysis.diagnosis()
        #: the incident rows' details, drawn when a row is shown (with the root's remedy)
        self._incidents: dict[Hashable, tuple[Diagnosis, int]] = {}
        for root in diagnosis.roots():
            # one row per incident (R-DIAG-9): what follows from its root is in its detail
            f = diagnosis.findings[root]
            key: Hashable = ("finding", root)
            self._items[key] = (finding_ref(f), Text(""))
            self._incidents[key] = (diagnosis, root)
            self._finding_rows[key] = f
            following = len(diagnosis.consequences(root))
            first = f.message.splitlines()[0] if f.message else ""
            yield Row(
                key,
                (
                    severity(diagnosis.severity(root)),
                    f.code,
                    _object(f.kind, f.namespace, f.name),
                    f"(+{following} follow) {first}" if following else first,
                ),
                search=incident_search(diagnosis, root),
            )
        for csv in session.analysis.metrics().csv_abnormal:
            key = ("abnormal", csv.namespace, csv.name)
            target = ObjectRef(CSV, csv.namespace, csv.name)
            state = session.model.csv(csv.namespace, csv.name)
            detail = Text(
                f"{csv.name} {csv.version or ''} in {csv.namespace}: "
                f"{csv.phase or 'no phase'} / {csv.reason or 'no reason'}\n"
                f"{state.message if state and state.message else ''}"
            )
            self._items[key] = (target, detail)
            yield Row(
                key,
                (
                    Text("abnormal", style=palette.WARNING),
                    phase(csv.phase),
                    _object(CSV, csv.namespace, csv.name),
                    f"{csv.version or '-'} {csv.reason or ''}",
                ),
            )
        for plan in session.analysis.approvals():
            key = ("approval", plan.namespace, plan.name)
            target = ObjectRef(INSTALL_PLAN, plan.namespace, plan.name)
            moves = ", ".join(p.name for p in plan.csvs) or "no CSVs"
            self._items[key] = (
                target,
                Text(
                    f"InstallPlan {plan.ref} waits for approval (R-IP-2). Approving it installs "
                    f"{moves}; it moves Subscriptions {', '.join(plan.subscriptions) or '-'}."
                ),
            )
            yield Row(
                key,
                (
                    Text("approval", style=palette.WARNING_STRONG),
                    "RequiresApproval",
                    _object(INSTALL_PLAN, plan.namespace, plan.name),
                    moves,
                ),
            )
        for health in session.analysis.catalog_healths():
            if health.healthy:
                continue
            key = ("catalog", health.namespace, health.name)
            self._items[key] = (
                health.object_ref,
                Text(
                    f"CatalogSource {health.ref}: {health.state or 'no connection state'} "
                    f"{health.reason or ''} {health.message or ''}"
                ),
            )
            yield Row(
                key,
                (
                    Text("catalog", style=palette.ERROR),
                    phase(health.state),
                    _object(CATALOG_SOURCE, health.namespace, health.name),
                    health.message or health.reason or "",
                ),
            )
        for sub in session.analysis.behind_head():
            key = ("behind", sub.namespace, sub.name)
            nxt = sub.upgrade.next or "?"
            self._items[key] = (
                ObjectRef(SUBSCRIPTION, sub.namespace, sub.name),
                Text(
                    f"Subscription {sub.ref} ({sub.package}, channel {sub.channel or 'default'}) "
                    f"has {sub.installed_csv}; next {nxt}, head {sub.upgrade.head}; "
                    f"{len(sub.upgrade.path)} hop(s) to the head. Press g for the graph."
                ),
            )
            yield Row(
                key,
                (
                    Text("behind", style=palette.INFO),
                    sub.package,
                    _object(SUBSCRIPTION, sub.namespace, sub.name),
                    f"{sub.installed_csv} -> {nxt} … {sub.upgrade.head}",
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        incident = getattr(self, "_incidents", {}).get(key)
        if incident is not None:
            diagnosis, root = incident
            finding = diagnosis.findings[root]
            remedy = self.session.analysis.remedy(finding)
            evidence = finding_evidence(finding, self.session.store)  # R-EVD-10
            return incident_text(diagnosis, root, remedy, evidence)
        item = getattr(self, "_items", {}).get(key)
        return Text("") if item is None else item[1]

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        item = getattr(self, "_items", {}).get(key)
        return None if item is None else item[0]

    def open(self, key: Hashable) -> None:
        finding = getattr(self, "_finding_rows", {}).get(key)
        namespace = None if finding is None else resolution_namespace(finding)
        if namespace is not None:
            self.app.show_resolution(namespace)
            return
        target = self.ref_for(key)
        if target is None:
            return
        extra = [(finding.code, r) for r in finding.related] if finding else []
        self.app.open_object(target, extra=extra)


def _object(kind: str, namespace: str, name: str) -> str:
    """``sub team-a/etcd``: the kind as ``oc get`` spells it short, then the object."""
    short = SHORT_KINDS.get(kind, kind)
    return " ".join(p for p in (short, f"{namespace}/{name}" if namespace else name) if p)
