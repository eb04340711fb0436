"""R-FLT-3: the same package installed at different versions, or followed in different
channels, across clusters (OLM v0 Subscriptions and OLM v1 ClusterExtensions together).

A version is known only from what the report shows installed: a Subscription's
``installedCSV`` whose CSV is in the report (its ``spec.version``), a ClusterExtension's
``installed.version``; nothing installed, or a version not shown, is left out, never taken as
a version of its own (unknown is not absent)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Report = Mapping[str, Any]
#: package -> value -> targets
_Seen = dict[str, dict[str, set[str]]]


def skew(reports: Mapping[str, Report]) -> list[dict[str, Any]]:
    """``[{"package", "versions": {VERSION: [targets]}, "channels": {CHANNEL: [targets]}}]``
    for each package seen at more than one version or channel, sorted by package."""
    versions: _Seen = {}
    channels: _Seen = {}
    for name, report in reports.items():
        for package, version, channel in installed_packages(report):
            if version is not None:
                versions.setdefault(package, {}).setdefault(version, set()).add(name)
            if channel is not None:
                channels.setdefault(package, {}).setdefault(channel, set()).add(name)
    packages = sorted(set(versions) | set(channels))
    entries = []
    for package in packages:
        by_version = versions.get(package, {})
        by_channel = channels.get(package, {})
        if not (_spread(by_version) or _spread(by_channel)):
            continue
        entries.append(
            {
                "package": package,
                "versions": {v: sorted(t) for v, t in sorted(by_version.items())},
                "channels": {c: sorted(t) for c, t in sorted(by_channel.items())},
            }
        )
    return entries


def installed_packages(report: Report) -> list[tuple[str, str | None, str | None]]:
    """``(package, version or None, channel or None)`` of each Subscription and
    ClusterExtension of one report."""
    csv_versions = {
        (c.get("namespace"), c.get("name")): c.get("version") for c in report.get("csvs") or ()
    }
    found: list[tuple[str, str | None, str | None]] = []
    for sub in report.get("subscriptions") or ():
        package = sub.get("package")
        if not package:
            continue
        installed = sub.get("installedCSV")
        version = csv_versions.get((sub.get("namespace"), installed)) if installed else None
        found.append((package, version, sub.get("channel")))
    for ext in report.get("clusterExtensions") or ():
        package = ext.get("package")
        if not package:
            continue
        installed = ext.get("installed") or {}
        version = installed.get("version") if isinstance(installed, dict) else None
        channels = ext.get("channels") or [None]
        found += [(package, version, channel) for channel in channels]
    return found


def _spread(values: dict[str, set[str]]) -> bool:
    """Several values over several clusters: one cluster with two installs of a package (in
    two namespaces) is not a fleet's skew."""
    return len(values) > 1 and len(set().union(*values.values())) > 1
