"""Subscriptions and upgrades: installed -> next -> head, approval and effective approval
(R-SUB-4: one Manual Subscription makes the namespace's plans Manual), the InstallPlan and
its CSVs, the conditions with ResolutionFailed messages in full, the CatalogSource's own state
beside what OLM wrote about it (R-SUB-8). The state column never shows OLM's state alone when
the findings or conditions contradict it (``model.views.subscription_state_view``). ``g``
opens the upgrade graph."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding

from olmtui.kinds import CATALOG_SOURCE, INSTALL_PLAN, SUBSCRIPTION
from olmtui.model.records.types import ObjectRef, SubscriptionState
from olmtui.model.rules.installplans.summaries import summarize_install_plan
from olmtui.model.rules.upgrades.graph import unknowable_reason
from olmtui.model.viewmodels.views import subscription_catalog_view
from olmtui.ui import palette
from olmtui.ui.formatting import (
    line,
    name_and_package,
    names,
    section,
    severity_text,
    state_text,
)
from olmtui.ui.next_catalog_text import next_catalog_lines
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.xray import open_xray
from olmtui.ui.widgets.virtual_table import Column, Row


def approval_text(sub: SubscriptionState) -> Text:
    if sub.approval != sub.effective_approval:
        return Text(f"{sub.approval} (as {sub.effective_approval})", style=palette.WARNING_STRONG)
    return Text(sub.approval)


#: The version part of a CSV name such as ``etcdoperator.v0.9.4``.
_VERSION_SUFFIX = re.compile(r"\.(v?\d.*)$")


class SubscriptionsScreen(TableScreen):
    VIEW_TITLE = "Subscriptions"
    COLUMNS = (
        Column("namespace", "NAMESPACE", cut="middle"),
        # with its package in brackets where the package is another name (not a column
        # of its own that repeats the name on most rows)
        Column("name", "NAME", cut="middle"),
        Column("channel", "CHANNEL", cut="middle"),
        Column("installed", "INSTALLED", sort="version", cut="never"),
        Column("next", "NEXT", sort="version", cut="never"),
        Column("head", "HEAD", sort="version", cut="never"),
        Column("approval", "APPROVAL"),
        Column("state", "STATE", min_width=33),
    )
    EMPTY_TEXT = "no Subscriptions"
    ACCESS_KIND = SUBSCRIPTION
    BINDINGS = [Binding("x", "xray", "X-ray"), Binding("r", "app.resolution", "Resolution")]

    def action_xray(self) -> None:
        open_xray(self)

    def build_rows(self) -> Iterable[Row]:
        """CSV names in the INSTALLED/NEXT/HEAD columns drop their ``<package>.`` prefix
        (``keycloak-operator.v26.6.3`` -> ``v26.6.3``) so the versions fit; the detail pane
        and the filter keep the full names."""
        subs = self.session.analysis.subscriptions()
        self._subs = {(s.namespace, s.name): s for s in subs}
        self._states = self.session.analysis.subscription_states(subs)
        for s in subs:
            head = s.upgrade.head or "?"
            at_head = s.installed_csv is not None and s.installed_csv == s.upgrade.head
            cells = (
                s.namespace,
                name_and_package(s.name, s.package),
                s.channel or "(default)",
                short_csv(s.installed_csv, s.package),
                short_csv(s.upgrade.next, s.package),
                Text(short_csv(head, s.package), style=palette.OK if at_head else ""),
                approval_text(s),
                state_text(self._states[(s.namespace, s.name)]),
            )
            search = " ".join(
                (
                    s.namespace,
                    s.name,
                    s.package,
                    s.channel or "",
                    s.installed_csv or "",
                    s.upgrade.next or "",
                    head,
                    s.approval,
                    s.effective_approval,
                    self._states[(s.namespace, s.name)].text,
                )
            ).lower()
            yield Row((s.namespace, s.name), cells, search=search)

    def describe(self, key: Hashable) -> RenderableType:
        sub: SubscriptionState | None = getattr(self, "_subs", {}).get(key)
        if sub is None:
            return Text("")
        store = self.session.store
        parts: list[RenderableType] = [
            line(
                SUBSCRIPTION,
                f"{sub.ref}: package {sub.package}, channel "
                f"{sub.channel or '(default)'}, from {sub.source_namespace}/{sub.source}",
            ),
            line("state", state_text(self._states[(sub.namespace, sub.name)], limit=None)),
            line(
                "installed -> next -> head",
                f"{sub.installed_csv or '(nothing)'} -> {sub.upgrade.next or '-'} -> "
                f"{sub.upgrade.head or '?'}",
            ),
        ]
        if sub.upgrade.not_head_because:
            decided = "OLM's resolver" if sub.upgrade.decided_by == "resolver" else "the channel"
            parts.append(line(f"not the head (decided by {decided})", sub.upgrade.not_head_because))
        if sub.upgrade.path:
            parts.append(
                line(
                    f"path to the head ({len(sub.upgrade.path)} hops, R-UPG-5)",
                    names(sub.upgrade.path, 12),
                )
            )
        unknown = unknowable_reason(sub.upgrade, sub.installed_csv)
        if unknown:
            parts.append(Text(unknown, style=palette.MUTED))
        approval = Text(sub.approval)
        if sub.approval != sub.effective_approval:
            approval.append(
                f", functioning as {sub.effective_approval}: another Subscription "
                "of the namespace is Manual, so every InstallPlan here is (R-SUB-4)",
                style=palette.WARNING_STRONG,
            )
        parts.append(line("approval", approval))
        if sub.install_plan is not None:
            plan = store.get(INSTALL_PLAN, sub.namespace, sub.install_plan.name)
            if plan is None:
                parts.append(line("InstallPlan", f"{sub.install_plan.name} (not in the cache)"))
            else:
                summary = summarize_install_plan(plan)
                approved = "approved" if summary.approved else "not approved"
                parts.append(
                    line(
                        INSTALL_PLAN,
                        f"{summary.name}: {summary.phase or '-'}, {summary.approval}, {approved}",
                    )
                )
                for planned in summary.csvs:
                    parts.append(
                        Text(
                            f"  installs {planned.name} {planned.version or ''}"
                            + (f" replacing {planned.replaces}" if planned.replaces else "")
                        )
                    )
                for step in summary.failed_steps:
                    parts.append(
                        Text(f"  step {step.kind} {step.name}: {step.status}", style=palette.ERROR)
                    )
                if summary.message:
                    parts.append(Text(f"  {summary.message}", style=palette.ERROR))
        parts.extend(self._catalog_lines(sub))
        ref = ObjectRef(SUBSCRIPTION, sub.namespace, sub.name)
        parts.extend(next_catalog_lines(self.session.analysis.next_catalog_for(ref)))
        obj = store.get(SUBSCRIPTION, sub.namespace, sub.name) or {}
        conditions = (obj.get("status") or {}).get("conditions") or []
        parts.append(section("Conditions"))
        if not conditions:
            parts.append(Text("none", style=palette.MUTED))
        for c in conditions:
            style = (
                palette.ERROR
                if c.get("type") == "ResolutionFailed" and c.get("status") == "True"
                else ""
            )
            parts.append(
                Text(
                    f"{c.get('type')}={c.get('status')} {c.get('reason') or ''}",
                    style=style or "bold",
                )
            )
            if c.get("message"):
                parts.append(Text(f"  {c['message']}"))
        return Group(*parts)

    def _catalog_lines(self, sub: SubscriptionState) -> list[Text]:
        """The CatalogSource's own state and OLM's CatalogSourcesUnhealthy on the
        Subscription, side by side: they can disagree, and neither is shown alone (R-SUB-8)."""
        target = (sub.source_namespace, sub.source)
        health = next(
            (h for h in self.session.analysis.catalog_healths() if (h.namespace, h.name) == target),
            None,
        )
        unreadable = self.session.store.unreadable.get(CATALOG_SOURCE)
        obj = self.session.store.get(SUBSCRIPTION, sub.namespace, sub.name) or {}
        view = subscription_catalog_view(
            f"{sub.source_namespace}/{sub.source}",
            health,
            obj.get("status") or {},
            readable=unreadable is None
            or (
                unreadable.namespaces is not None
                and sub.source_namespace not in unreadable.namespaces
            ),
        )
        lines = [
            line("catalog", severity_text(view.source, view.source_severity)),
            line("OLM says (R-SUB-8)", severity_text(view.olm, view.olm_severity)),
        ]
        if view.note:
            lines.append(Text(f"  {view.note}", style=palette.WARNING))
        return lines

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(SUBSCRIPTION, *key) if isinstance(key, tuple) else None


def short_csv(name: str | None, package: str) -> str:
    """A CSV name without its operator prefix (``<package>.`` or, as in
    ``etcdoperator.v0.9.4``, anything before ``.v<digit>``); ``-`` for none."""
    if not name:
        return "-"
    prefix = f"{package}."
    if name.startswith(prefix) and len(name) > len(prefix):
        return name[len(prefix) :]
    version = _VERSION_SUFFIX.search(name)
    return version.group(1) if version else name
