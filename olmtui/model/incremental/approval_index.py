"""The InstallPlans waiting for approval (R-IP-2), kept per namespace from the change feed.

:func:`olmtui.model.rules.installplans.summaries.pending_approvals` reads every InstallPlan; the
screens need it after every change. One namespace's approvals read its InstallPlans and
Subscriptions and the ``spec.replaces`` of the CSVs its plans name (those CSVs may sit in any
namespace:
:func:`~olmtui.model.rules.installplans.summaries.replaces_for`). So a change of an InstallPlan
or a Subscription marks its namespace, and a change of a non-copied CSV marks its namespace and
the namespaces whose plans name it; only those are recomputed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from olmtui.model.rules.installplans.summaries import (
    PendingApproval,
    pending_approval,
    summarize_install_plan,
)
from olmtui.objects import Obj


class ApprovalIndex:
    """Pending approvals per namespace; the owner (the HealthIndex) reports the changes."""

    def __init__(self) -> None:
        #: CSV name -> namespace -> ``spec.replaces``, of the non-copied CSVs.
        self._replaces: dict[str, dict[str, str]] = {}
        #: CSV name -> the namespaces whose InstallPlans name it, with how many plans.
        self._planned_in: dict[str, Counter[str]] = {}
        self._by_ns: dict[str, list[PendingApproval]] = {}
        self._dirty: set[str] = set()
        self._all: list[PendingApproval] = []

    def csv_changed(self, namespace: str, name: str, new: Obj | None) -> None:
        """The non-copied CSV is now ``new`` (``None``: removed, or now a copy)."""
        held = self._replaces.setdefault(name, {})
        if new is None:
            held.pop(namespace, None)
        else:
            held[namespace] = (new.get("spec") or {}).get("replaces") or ""
        if not held:
            del self._replaces[name]
        self._dirty.add(namespace)
        self._dirty.update(self._planned_in.get(name, ()))

    def plan_changed(self, namespace: str, old: Obj | None, new: Obj | None) -> None:
        for obj, step in ((old, -1), (new, 1)):
            if obj is None:
                continue
            for planned in summarize_install_plan(obj).csvs:
                counts = self._planned_in.setdefault(planned.name, Counter())
                counts[namespace] += step
                if counts[namespace] <= 0:
                    del counts[namespace]
                if not counts:
                    del self._planned_in[planned.name]
        self._dirty.add(namespace)

    def namespace_changed(self, namespace: str) -> None:
        """A Subscription of the namespace changed."""
        self._dirty.add(namespace)

    def approvals(
        self, plans: Mapping[str, Mapping[str, Obj]], subs: Mapping[str, Mapping[str, Obj]]
    ) -> list[PendingApproval]:
        """What ``pending_approvals`` gives for the same objects, sorted by namespace and
        name. The list is rebuilt (not recomputed) only when a namespace's approvals moved:
        keep it, it is not patched later."""
        moved = False
        for namespace in self._dirty:
            found = sorted(
                (
                    approval
                    for ip in plans.get(namespace, {}).values()
                    if (
                        approval := pending_approval(
                            ip, subs.get(namespace, {}).values(), self._replaces
                        )
                    )
                ),
                key=lambda p: p.name,
            )
            if found != self._by_ns.get(namespace, []):
                moved = True
                if found:
                    self._by_ns[namespace] = found
                else:
                    self._by_ns.pop(namespace, None)
        self._dirty.clear()
        if moved:
            self._all = [a for ns in sorted(self._by_ns) for a in self._by_ns[ns]]
        return self._all
