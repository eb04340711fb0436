"""Overview: the seed's counts and health at a glance, then what needs attention, worst
first: findings, InstallPlans waiting for approval, unhealthy catalogs, operators behind
their channel head. Enter opens the object of the row."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from olmtui.model.metrics import HeadCounts
from olmtui.model.types import Finding, ObjectRef
from olmtui.pipeline.session import Session
from olmtui.ui import access, derived, palette
from olmtui.ui.formatting import SEVERITY_STYLE, phase, severity
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.findings import explain, finding_ref, finding_search
from olmtui.ui.widgets.virtual_table import Column, Row


def metrics_text(session: Session) -> Text:
    """The seed's metrics and the finding counts, as one paragraph that wraps to any width."""
    m = derived.metrics(session)
    counts = derived.severity_counts(session)
    healthy = sum(1 for h in derived.catalog_healths(session) if h.healthy)
    csvs_unread = "ClusterServiceVersion" in session.store.unreadable
    copied = "?" if csvs_unread else str(session.model.copied_csvs().present)
    catalogs = (
        "?" if m.catalog_source_count is None else f"{m.catalog_source_count} ({healthy} healthy)"
    )
    text = Text()
    for name, value, alarm in (
        ("csv_count", _count(m.csv_count), False),
        ("csv_succeeded", _count(m.csv_succeeded), False),
        (
            "csv_abnormal",
            "?" if m.csv_count is None else str(len(m.csv_abnormal)),
            bool(m.csv_abnormal),
        ),
        ("csv_upgrade_count", _count(m.csv_upgrade_count), False),
        ("subscription_count", _count(m.subscription_count), False),
        ("install_plan_count", _count(m.install_plan_count), False),
        (
            "catalog_source_count",
            catalogs,
            m.catalog_source_count is not None and healthy < m.catalog_source_count,
        ),
        ("copied CSVs", copied, False),
    ):
        text.append(f"{name} ", style=palette.MUTED)
        text.append(value, style=palette.ERROR if alarm else "bold")
        text.append("   ")
    if session.store.unreadable:
        text.append(
            "\n? = no access (RBAC): "
            + ", ".join(
                access.empty_text(u).removeprefix("no access to ")
                for _, u in sorted(session.store.unreadable.items())
            ),
            style=palette.UNKNOWN,
        )
    text.append("\nfindings: ", style=palette.MUTED)
    for sev, count in counts.items():
        text.append(f"{count} {sev}  ", style=SEVERITY_STYLE[sev] if count else palette.MUTED)
    text.append(f"· {len(derived.approvals(session))} pending approvals · ", style=palette.MUTED)
    text.append(_behind_text(derived.head_counts(session)), style=palette.MUTED)
    return text


def _behind_text(heads: HeadCounts) -> str:
    """ "0 behind" must not stand for "no head to compare with" (R-UPG-1, R-UPG-5)."""
    if heads.unknown and heads.unknown == heads.installed:
        return f"behind channel head: unknown ({heads.unknown_reason})"
    text = f"{heads.behind} behind channel head"
    if heads.unknown:
        text += f", {heads.unknown} unknown ({heads.unknown_reason})"
    return text


def _count(value: int | None) -> str:
    """A metric; ``?`` when the source may not read its kind (no access is not zero)."""
    return "?" if value is None else str(value)


class OverviewScreen(TableScreen):
    VIEW_TITLE = "Overview"
    COLUMNS = (
        Column("what", "WHAT", 12),
        Column("code", "CODE", min_width=22),
        Column("object", "OBJECT", min_width=22),
        Column("detail", "DETAIL"),
    )
    EMPTY_TEXT = "nothing needs attention"

    def compose_summary(self) -> ComposeResult:
        yield Static("", id="metrics", classes="metrics", markup=False)

    def refresh_data(self) -> None:
        self.query_one("#metrics", Static).update(metrics_text(self.session))
        super().refresh_data()

    def build_rows(self) -> Iterable[Row]:
        session = self.session
        self._items: dict[Hashable, tuple[ObjectRef | None, RenderableType]] = {}
        self._finding_rows: dict[Hashable, Finding] = {}
        for i, f in enumerate(derived.all_findings(session)):
            key: Hashable = ("finding", i)
            self._items[key] = (finding_ref(f), explain(f))
            self._finding_rows[key] = f
            yield Row(
                key,
                (
                    severity(f.severity),
                    f.code,
                    _object(f.kind, f.namespace, f.name),
                    f.message.splitlines()[0] if f.message else "",
                ),
                search=finding_search(f),
            )
        for csv in derived.metrics(session).csv_abnormal:
            key = ("abnormal", csv.namespace, csv.name)
            target = ObjectRef("ClusterServiceVersion", csv.namespace, csv.name)
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
                    Text("abnormal CSV", style=palette.WARNING),
                    phase(csv.phase),
                    f"{csv.namespace}/{csv.name}",
                    f"{csv.version or '-'} {csv.reason or ''}",
                ),
            )
        for plan in derived.approvals(session):
            key = ("approval", plan.namespace, plan.name)
            target = ObjectRef("InstallPlan", plan.namespace, plan.name)
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
                    plan.ref,
                    moves,
                ),
            )
        for health in derived.catalog_healths(session):
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
                    health.ref,
                    health.message or health.reason or "",
                ),
            )
        for sub in derived.behind_head(session):
            key = ("behind", sub.namespace, sub.name)
            nxt = sub.upgrade.next or "?"
            self._items[key] = (
                ObjectRef("Subscription", sub.namespace, sub.name),
                Text(
                    f"Subscription {sub.ref} ({sub.package}, channel {sub.channel or 'default'}) "
                    f"has {sub.installed_csv}; next {nxt}, head {sub.upgrade.head}; "
                    f"{len(sub.upgrade.path)} hop(s) to the head. Press g for the graph."
                ),
            )
            yield Row(
                key,
                (
                    Text("behind head", style=palette.INFO),
                    sub.package,
                    sub.ref,
                    f"{sub.installed_csv} -> {nxt} … {sub.upgrade.head}",
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        item = getattr(self, "_items", {}).get(key)
        return Text("") if item is None else item[1]

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        item = getattr(self, "_items", {}).get(key)
        return None if item is None else item[0]

    def open(self, key: Hashable) -> None:
        finding = getattr(self, "_finding_rows", {}).get(key)
        target = self.ref_for(key)
        if target is None:
            return
        extra = [(finding.code, r) for r in finding.related] if finding else []
        self.app.open_object(target, extra=extra)  # type: ignore[attr-defined]


def _object(kind: str, namespace: str, name: str) -> str:
    return " ".join(p for p in (kind, f"{namespace}/{name}" if namespace else name) if p)
