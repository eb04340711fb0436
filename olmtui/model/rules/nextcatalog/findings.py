"""The findings of the next release's catalog: one per installed operator it fails, for the
first thing missing (package, channel, an installable bundle, an upgrade edge), told with
the way out (R-NXT-1 .. R-NXT-5)."""

from __future__ import annotations

from collections.abc import Iterable

from olmtui.model.records.next_catalog import NextCatalogEntry
from olmtui.model.records.types import Finding

PACKAGE_MISSING = "NextCatalogPackageMissing"
CHANNEL_MISSING = "NextCatalogChannelMissing"
NOTHING_INSTALLABLE = "NextCatalogNothingInstallable"
NO_UPGRADE_EDGE = "NextCatalogNoUpgradeEdge"
#: Every code of this chapter, for the diagnosis' link table (R-DIAG-36, R-DIAG-37).
NEXT_CATALOG_CODES = frozenset(
    {PACKAGE_MISSING, CHANNEL_MISSING, NOTHING_INSTALLABLE, NO_UPGRADE_EDGE}
)


def _code_and_rule(entry: NextCatalogEntry) -> tuple[str, str]:
    if not entry.package_in_next:
        return PACKAGE_MISSING, "R-NXT-1"
    if not entry.channel_in_next:
        return CHANNEL_MISSING, "R-NXT-2"
    if not entry.installable:
        return NOTHING_INSTALLABLE, "R-NXT-4"
    return NO_UPGRADE_EDGE, "R-NXT-3"


def next_catalog_findings(entries: Iterable[NextCatalogEntry]) -> list[Finding]:
    """A warning per operator the next catalog fails: nothing breaks before the cluster
    upgrade, and the way out (R-NXT-5) must be taken before it."""
    findings = []
    for entry in entries:
        if entry.ok:
            continue
        code, rule = _code_and_rule(entry)
        findings.append(
            Finding(
                "warning",
                code,
                entry.object.kind,
                entry.object.namespace,
                entry.object.name,
                f"{entry.object}, installed {entry.installed}, checked against the next "
                f"release's catalog. {entry.advice or ''} ({rule}, R-NXT-5)",
                rule,
            )
        )
    return findings
