"""How OLM words look on screen: phases, severities, lists. Always Text, never markup."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from olmtui.model.viewmodels.views import STATE_PROBLEMS_SHOWN, StateView
from olmtui.ui import palette

SEVERITY_STYLE = {"error": palette.ERROR, "warning": palette.WARNING, "info": palette.INFO}
PHASE_STYLE = {
    "Succeeded": palette.OK,
    "Failed": palette.ERROR,
    "Pending": palette.WARNING,
    "Installing": palette.WARNING,
    "InstallReady": palette.WARNING,
    "Replacing": palette.INFO,
    "Deleting": palette.UNKNOWN,
    "Unknown": palette.UNKNOWN,
    "Complete": palette.OK,
    "RequiresApproval": palette.WARNING_STRONG,
    "AtLatestKnown": palette.OK,
    "UpgradePending": palette.WARNING,
    "UpgradeAvailable": palette.INFO,
    "UpgradeFailed": palette.ERROR,
    "READY": palette.OK,
    "TRANSIENT_FAILURE": palette.ERROR,
    "CONNECTING": palette.WARNING,
}
#: Phases that are a failure: their cell carries the error mark too (readable without colour).
_FAILED_PHASES = frozenset({"Failed", "UpgradeFailed", "TRANSIENT_FAILURE"})
#: How many names a cell or a detail line lists before it says "and N more".
LIST_LIMIT = 40


#: ``oc get``'s short names, so that a cell naming an object
#: keeps room for the name at 80 columns (and ``Clust…`` does not stand for three kinds).
SHORT_KINDS = {
    "ClusterServiceVersion": "csv",
    "Subscription": "sub",
    "OperatorGroup": "og",
    "CatalogSource": "catsrc",
    "InstallPlan": "ip",
    "Namespace": "ns",
    "CustomResourceDefinition": "crd",
    "OperatorCondition": "condition",
    "PackageManifest": "packagemanifest",
    "ClusterOperator": "co",
    "ClusterVersion": "clusterversion",
    "Deployment": "deploy",
    "Service": "svc",
    # OLM v1: cluster-scoped, named like their views (``:ce``, ``:cc``)
    "ClusterExtension": "ce",
    "ClusterCatalog": "cc",
    # Their revisions (R-V1-24): the CRDs give no short name, these are olmtui's own.
    "ClusterObjectSet": "cos",
    "ClusterExtensionRevision": "cer",
}


def phase(text: str | None) -> Text:
    """OLM's phase word, in its colour; a failed phase also carries the error mark."""
    word = text or "-"
    if word in _FAILED_PHASES:
        word = f"{palette.SEVERITY_MARK['error']} {word}"
    return Text(word, style=PHASE_STYLE.get(text or "", ""))


def mark(severity: str) -> str:
    """The glyph of a severity (``✖ ▲ ●``): severity must read without colour."""
    return palette.SEVERITY_MARK.get(severity, "")


def severity(text: str) -> Text:
    """A severity word with its mark, in its colour."""
    glyph = mark(text)
    return Text(f"{glyph} {text}" if glyph else text, style=SEVERITY_STYLE.get(text, ""))


def names(items: Sequence[str], limit: int = LIST_LIMIT, empty: str = "-") -> str:
    """Comma list, cut after ``limit`` items with a count of the rest; ``""`` is "all"."""
    if not items:
        return empty
    shown = ["(all namespaces)" if i == "" else i for i in items[:limit]]
    more = len(items) - limit
    return ", ".join(shown) + (f", … and {more} more" if more > 0 else "")


def label(title: str) -> Text:
    return Text(f"{title}: ", style="bold")


def line(title: str, value: str | Text, style: str = "") -> Text:
    """``title: value`` on one line; ``value`` comes from the cluster and stays plain."""
    out = label(title)
    out.append_text(value if isinstance(value, Text) else Text(value, style=style))
    return out


def section(title: str) -> Text:
    return Text(f"\n{title}", style="bold underline")


def severity_text(text: str, severity: str | None) -> Text:
    """``text`` in a severity's colour and after its mark; the healthy colour, unmarked,
    when ``severity`` is ``None``."""
    if severity is None:
        return Text(text, style=palette.OK)
    return Text(f"{mark(severity)} {text}", style=SEVERITY_STYLE[severity])


def state_text(view: StateView, limit: int | None = STATE_PROBLEMS_SHOWN) -> Text:
    """The state cell: OLM's state in its own colour when nothing contradicts it, else the
    state and its problems in the worst problem's colour and after its mark (never a healthy
    AtLatestKnown on a Subscription ``check`` reports as broken)."""
    if view.severity is None:
        return phase(view.state)
    return severity_text(view.label(limit), view.severity)


def name_and_package(name: str, package: str | None) -> str | Text:
    """A Subscription's or ClusterExtension's name, with its package after it only when the
    package is another name: one column instead of two that read the same on most rows."""
    if package == name:
        return name
    text = Text(name)
    text.append(f" ({package or 'no package'})", style=palette.MUTED)
    return text
