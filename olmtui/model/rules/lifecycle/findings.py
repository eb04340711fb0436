"""Findings of the support lifecycle (R-LCY-2 .. R-LCY-6), and the view the report and the
screens show of each installed operator's lifecycle.

* R-LCY-3 ``OperatorOutOfSupport`` (warning): every phase of the installed minor has ended.
* R-LCY-4 ``OperatorSupportEndingSoon`` (info): the last phase ends within
  :data:`ENDING_SOON_DAYS` days.
* R-LCY-5 ``OperatorIncompatibleWithOpenShift`` (warning): the installed minor does not list
  the OpenShift minor the cluster runs; ``OperatorIncompatibleWithNextOpenShift``: it does not
  list the next one (warning; info when a newer minor of the operator lists it: upgrade
  the operator with the cluster).
* R-LCY-2 ``LifecycleVersionNotListed`` / ``LifecycleDocumentsConflict`` (info): the
  document says nothing of the installed minor, or several documents disagree.
* R-LCY-6: each finding names the way out, a newer minor in support.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from olmtui.frozen import frozen
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.lifecycle import Minor
from olmtui.model.records.types import Finding, Severity
from olmtui.model.rules.lifecycle.installed import (
    Found,
    Installed,
    content_for,
    input_day,
    installed_operators,
)
from olmtui.model.rules.lifecycle.support import (
    Support,
    compatible,
    compatible_text,
    next_release,
    release,
    shown,
    support_of,
    way_out,
)
from olmtui.objects import Obj

#: R-LCY-4: how near the end of support an operator is flagged (a quarter: one
#: maintenance window to plan the upgrade in).
ENDING_SOON_DAYS = 90
OUT_OF_SUPPORT = "OperatorOutOfSupport"
ENDING_SOON = "OperatorSupportEndingSoon"
INCOMPATIBLE = "OperatorIncompatibleWithOpenShift"
INCOMPATIBLE_NEXT = "OperatorIncompatibleWithNextOpenShift"
NOT_LISTED = "LifecycleVersionNotListed"
CONFLICT = "LifecycleDocumentsConflict"
LIFECYCLE_CODES = frozenset(
    {OUT_OF_SUPPORT, ENDING_SOON, INCOMPATIBLE, INCOMPATIBLE_NEXT, NOT_LISTED, CONFLICT}
)


@frozen
class LifecycleView:
    """One installed operator's lifecycle as the input shows it: ``support`` is ``None``
    when the content holds several documents for its package (``conflicting`` of them)."""

    installed: Installed
    found: Found
    support: Support | None
    conflicting: int = 0

    def json(self) -> dict[str, object]:
        """The report's ``lifecycle`` (R-LCY-2)."""
        support = self.support
        entry = support.entry if support is not None else None
        return {
            "phase": support.phase if support is not None else None,
            "endDate": _iso(support.end) if support is not None else None,
            "compatibleOpenShift": list(entry.openshift)
            if entry is not None and entry.openshift is not None
            else None,
            "version": entry.name if entry is not None else None,
            "supportEnds": _iso(support.ends) if support is not None else None,
            "asOf": _iso(support.day) if support is not None else None,
            "catalog": self.found.catalog,
            "conflictingDocuments": self.conflicting,
            "summary": self.line(),
        }

    def line(self) -> str:
        """``Support: <phase> until <date>; compatible: 4.20–4.22`` (the detail screens,
        Markdown and text)."""
        support = self.support
        if support is None:
            return f"Support: no data ({self.conflicting} lifecycle documents disagree)"
        entry = support.entry
        if entry is None:
            return f"Support: no data (the lifecycle lists no {self.installed.version} entry)"
        if support.phase is None and support.day is None:
            phase = f"phase not known (the input has no date); support ends {_iso(support.ends)}"
        elif support.phase is None:
            phase = f"not started on {_iso(support.day)}; support ends {_iso(support.ends)}"
        elif support.out_of_support:
            phase = f"{support.phase} since {_iso(support.end)}"
        else:
            phase = f"{support.phase} until {_iso(support.end)}"
        versions = "not stated" if entry.openshift is None else compatible_text(entry.openshift)
        return f"Support: {phase}; compatible: {versions}"


def _iso(day: dt.date | None) -> str | None:
    return day.isoformat() if day is not None else None


def lifecycle_views(
    csvs: Iterable[Obj],
    subscriptions: Iterable[Obj],
    extensions: Iterable[Obj],
    catalogs: Sequence[Catalog],
    now: dt.datetime | None,
) -> list[LifecycleView]:
    """R-LCY-2: the lifecycle of every installed operator whose package has a lifecycle
    document in the content given; ``now`` is the input's clock (none: the newest time the
    installed objects record)."""
    csvs, extensions = list(csvs), list(extensions)
    day = input_day(now, [*csvs, *extensions])
    views: list[LifecycleView] = []
    for installed in installed_operators(csvs, subscriptions, extensions):
        found = content_for(installed, catalogs)
        if found is None:
            continue
        documents = found.package.lifecycles
        if len(documents) > 1:
            views.append(LifecycleView(installed, found, None, len(documents)))
            continue
        support = support_of(documents[0], found.catalog, installed.version, day)
        views.append(LifecycleView(installed, found, support))
    return views


def _finding(view: LifecycleView, severity: Severity, code: str, rule: str, text: str) -> Finding:
    installed = view.installed
    return Finding(severity, code, installed.kind, installed.namespace, installed.name, text, rule)


def _way_out_text(view: LifecycleView, openshift: Minor | None) -> str:
    """R-LCY-6: the newer minor to move to, and whether the catalog serves it."""
    support = view.support
    if support is None:
        return ""
    available = [b.version for b in view.found.package.bundles.values() if b.version]
    target = way_out(support, openshift, available)
    if target is None:
        return (
            " The lifecycle lists no newer minor of the operator in support"
            + (f" and compatible with OpenShift {shown(openshift)}" if openshift else "")
            + ": ask its vendor, or plan to replace it."
        )
    served = any(
        (b.version or "").startswith(f"{target.name}.") or b.version == target.name
        for b in view.found.package.bundles.values()
    )
    where = (
        "the catalog serves it"
        if served
        else "the catalog content given holds no bundle of it (its channels may not offer it yet)"
    )
    return (
        f" Way out: upgrade to {target.name} (supported until "
        f"{target.phases[-1].end.isoformat()}; {where}), by its channel or spec.version."
    )


def _as_of(view: LifecycleView) -> str:
    support = view.support
    day = support.day if support is not None else None
    return "" if day is None else f" on {day.isoformat()}"


def _support_findings(view: LifecycleView, current: Minor | None) -> list[Finding]:
    support = view.support
    assert support is not None and support.entry is not None
    entry, version = support.entry, view.installed.version
    found: list[Finding] = []
    if support.out_of_support and support.end is not None:
        found.append(
            _finding(
                view,
                "warning",
                OUT_OF_SUPPORT,
                "R-LCY-3",
                f"Version {version} is out of support{_as_of(view)}: the last support phase "
                f"of its minor {entry.name} ended on {support.end.isoformat()} (lifecycle from "
                f"{view.found.catalog or 'the catalog content'})." + _way_out_text(view, current),
            )
        )
    elif (
        support.day is not None
        and support.ends is not None
        and (support.ends - support.day).days <= ENDING_SOON_DAYS
    ):
        days = (support.ends - support.day).days
        found.append(
            _finding(
                view,
                "info",
                ENDING_SOON,
                "R-LCY-4",
                f"Support for version {version} (minor {entry.name}, now in "
                f"{support.phase}) ends on {support.ends.isoformat()}, {days} day(s) after "
                f"{support.day.isoformat()}." + _way_out_text(view, current),
            )
        )
    if current is None:
        return found
    if compatible(entry, current) is False:
        found.append(
            _finding(
                view,
                "warning",
                INCOMPATIBLE,
                "R-LCY-5",
                f"Version {version} (minor {entry.name}) is not compatible with the OpenShift "
                f"{shown(release(current))} the cluster runs: its lifecycle lists "
                f"{compatible_text(entry.openshift or ())}." + _way_out_text(view, current),
            )
        )
        return found
    target = next_release(current)
    if compatible(entry, target) is False:
        newer = way_out(support, target)
        found.append(
            _finding(
                view,
                "info" if newer is not None else "warning",
                INCOMPATIBLE_NEXT,
                "R-LCY-5",
                f"Version {version} (minor {entry.name}) is not compatible with OpenShift "
                f"{shown(target)}, the cluster's next minor: its lifecycle lists "
                f"{compatible_text(entry.openshift or ())}. Upgrade the operator before or "
                "with the cluster." + _way_out_text(view, target),
            )
        )
    return found


def lifecycle_findings(views: Iterable[LifecycleView], current: Minor | None) -> list[Finding]:
    """R-LCY-2 .. R-LCY-6 over the views; ``current`` is the cluster's OpenShift minor
    (``None``: not in the input, nothing is said of compatibility)."""
    found: list[Finding] = []
    for view in views:
        if view.support is None:
            found.append(
                _finding(
                    view,
                    "info",
                    CONFLICT,
                    "R-LCY-2",
                    f"The catalog content ({view.found.catalog or 'serving every catalog'}) "
                    f"holds {view.conflicting} different lifecycle documents for package "
                    f"{view.installed.package}: a catalog build error. None is used, as the "
                    "console shows no data; ask the catalog's publisher to ship one.",
                )
            )
        elif view.support.entry is None:
            found.append(
                _finding(
                    view,
                    "info",
                    NOT_LISTED,
                    "R-LCY-2",
                    f"The lifecycle of package {view.installed.package} lists no entry for "
                    f"the minor of version {view.installed.version}: its support and "
                    "compatibility are not known.",
                )
            )
        else:
            found += _support_findings(view, current)
    return found
