"""The OLM v1 sections of the text and Markdown reports, from ``clusterExtensions[]`` and
``clusterCatalogs[]``. Both are left out when the source holds no v1 object, so reports of
clusters without OLM v1 read as before. Every name and message comes from the cluster and
is escaped by the renderers (text_report, markdown_report)."""

from __future__ import annotations

from typing import Any

from olmtui.model.rules.v1.extensions import Condition, InstalledBundle, extension_state
from olmtui.report.json_report import Report


def state_of(entry: dict[str, Any]) -> str:
    """The R-V1-5 summary of one ``clusterExtensions[]`` entry (Progressing=True/Succeeded
    is settled, not busy)."""
    conditions = {
        kind: Condition(kind, c["status"], c["reason"], c["message"])
        for kind, c in entry["conditions"].items()
    }
    installed = entry["installed"]
    bundle = (
        None if installed is None else InstalledBundle(installed["bundle"], installed["version"])
    )
    return extension_state(conditions, bundle).label


def _revision_words(revisions: list[dict[str, Any]]) -> str:
    """``#1 Archived, #2 Active Succeeded, #3 Active RollingOut``: each revision's number,
    lifecycle state and Progressing reason (R-V1-24)."""
    words = []
    for r in revisions:
        number = r["revision"] if r["revision"] is not None else "?"
        state = r["lifecycleState"] or ("Active" if r["active"] else "-")
        reason = (r["conditions"].get("Progressing") or {}).get("reason") or ""
        reason = "" if reason == state else reason  # an archived one says Archived twice
        words.append(f"#{number} {state} {reason}".rstrip())
    return ", ".join(words)


def _extension_words(entry: dict[str, Any]) -> tuple[str, str]:
    """What one extension asks for and holds, and what it would resolve to, as two phrases."""
    asks = f"package {entry['package']} into namespace {entry['namespace']}"
    if entry["versionRange"]:
        asks += f", version {entry['versionRange']}"
    if entry["channels"]:
        asks += f", channels {', '.join(entry['channels'])}"
    if entry["serviceAccount"]:
        # R-V1-2: shown as given, but current operator-controller ignores it.
        asks += f", service account {entry['serviceAccount']} (deprecated, ignored)"
    installed = entry["installed"]
    holds = (
        f"installed {installed['bundle']} ({installed['version']})"
        if installed
        else "nothing installed"
    )
    first = f"{asks}; {holds}; {state_of(entry)}"
    if entry.get("revisions"):
        first += f"; revisions {_revision_words(entry['revisions'])}"
    if entry.get("lifecycle") is not None:  # R-LCY-2
        first += f"; {entry['lifecycle']['summary']}"
    resolved = entry["resolved"]
    if resolved is not None:
        second = (
            f"would resolve to {resolved['bundle']} ({resolved['version']}) from "
            f"ClusterCatalog {resolved['catalog']}"
        )
    elif entry["error"] is not None:
        second = f"would fail to resolve: {entry['error']}"
    else:
        second = "resolution not computed"
    return first, second


def _catalog_words(entry: dict[str, Any]) -> str:
    serving = {True: "serving", False: "NOT serving", None: "serving unknown"}[entry["serving"]]
    words = [f"priority {entry['priority']}", serving]
    if entry["ref"]:
        words.append(f"image {entry['ref']}")
    if entry["resolvedRef"]:
        words.append(f"resolved {entry['resolvedRef']}")
    if entry["lastUnpacked"]:
        words.append(f"unpacked {entry['lastUnpacked']}")
    return ", ".join(words)


def extension_rows(report: Report) -> list[tuple[str, str, str]]:
    """Per ``clusterExtensions[]`` entry: name, what it asks for and holds, what it would
    resolve to (unescaped: the renderers escape)."""
    return [(e["name"], *_extension_words(e)) for e in report.get("clusterExtensions") or []]


def catalog_rows(report: Report) -> list[tuple[str, str]]:
    """Per ``clusterCatalogs[]`` entry: name and its serving state, priority and image."""
    return [(c["name"], _catalog_words(c)) for c in report.get("clusterCatalogs") or []]
