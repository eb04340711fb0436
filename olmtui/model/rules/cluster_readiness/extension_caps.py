"""OLM v1's installed bundles that cap the OpenShift version (R-CUP-3, R-CUP-4, R-CUP-5).

cluster-olm-operator reads each installed ClusterExtension's bundle properties and holds the
next OpenShift minor (``InstalledOLMOperatorsUpgradeable=False``) while a bundle's
``olm.maxOpenShiftVersion`` is not above the running minor (4.23 being 5.0), or cannot be read.
olmtui finds the installed bundle (``status.install.bundle``) in the catalog content given
(``--catalog`` or what catalogd serves) and applies the same comparison as OLM v0
(``blocks_next_minor``). Without that content the cap is unknown, never "not blocking"; the
``olm`` ClusterOperator's own condition (R-CUP-2) then says what the cluster decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.primitives.version import parse_version, version_key
from olmtui.model.records.catalog import Bundle, Catalog, Package
from olmtui.model.records.types import Finding
from olmtui.model.rules.cluster_readiness.cap_value import allows, read_cap
from olmtui.model.rules.cluster_readiness.extension_way_out import (
    ExtensionWayOut,
    extension_way_out,
    way_out_text,
)
from olmtui.model.rules.cluster_readiness.olm_condition import (
    OLM_V1_CLUSTER_OPERATOR,
    InstalledOperatorsUpgradeable,
)
from olmtui.model.rules.documented.cluster_upgrade import (
    MAX_OCP_PROPERTY,
    Minor,
    blocks_next_minor,
    next_minor,
    shown_minor,
)

__all__ = [
    "BLOCKS",
    "CAPPED",
    "INVALID",
    "UNKNOWN",
    "ExtensionCap",
    "extension_cap_findings",
    "extension_caps",
    "read_cap",
    "way_out",
    "way_out_words",
]
from olmtui.frozen import frozen
from olmtui.model.rules.v1.catalogs import decode_catalog
from olmtui.model.rules.v1.extensions import decode_extension
from olmtui.model.rules.v1.findings import selected_catalogs
from olmtui.model.rules.v1.resolve import content_by_catalog
from olmtui.objects import Obj

BLOCKS = "ClusterExtensionBlocksUpgrade"
INVALID = "ClusterExtensionMaxOpenShiftVersionInvalid"
UNKNOWN = "ClusterExtensionCapUnknown"
CAPPED = "ClusterExtensionMaxOpenShiftVersion"


@frozen
class ExtensionCap:
    """One installed ClusterExtension's cap as the content given shows it. ``catalog`` is
    where its installed bundle was found (``None``: in no content given, the cap unknown)."""

    extension: str
    package: str
    bundle: str
    version: str
    catalog: str | None
    maximum: Minor | None
    invalid: str | None
    #: the package as that content holds it, for the way out
    content: Package | None
    #: R-CUP-7: the way out as operator-controller would follow it, for an extension that
    #: holds the next minor (computed when the cluster's minor is known)
    way: ExtensionWayOut | None = None

    def way_out_words(self, current: Minor, *, command: bool = True) -> str:
        """The way out in words: the extension's own (R-CUP-7) when computed, else the
        lowest bundle whose cap allows the next minor (R-CUP-3). ``command``: with the
        ``oc patch`` to run."""
        if self.way is not None:
            return way_out_text(self.way, self.extension, current, command=command)
        return way_out_words(self.content, self.version, current)


def extension_caps(
    extension_objs: Iterable[Obj],
    cluster_catalogs: Sequence[Obj],
    catalogs: Sequence[Catalog],
    current: Minor | None = None,
) -> list[ExtensionCap]:
    """Each installed ClusterExtension's cap, by name: its bundle looked up in the content
    bound to the ClusterCatalogs its selector takes, then in any content with bundle
    properties (``--catalog``; PackageManifests carry none). With ``current`` (the running
    minor), an extension that holds the next one carries its way out (R-CUP-7)."""
    bound = content_by_catalog(catalogs, cluster_catalogs)
    records = [decode_catalog(c) for c in cluster_catalogs]
    with_properties = [c for c in catalogs if c.graph == "catalog"]
    out: list[ExtensionCap] = []
    for obj in extension_objs:
        extension = decode_extension(obj)
        if extension.installed is None or not extension.installed.bundle:
            continue
        selected = [bound[c.name] for c in selected_catalogs(extension, records) if c.name in bound]
        found: tuple[Catalog, Package, Bundle] | None = None
        for catalog in [*selected, *with_properties]:
            package = catalog.packages.get(extension.package)
            bundle = package.bundles.get(extension.installed.bundle) if package else None
            if package is not None and bundle is not None:
                found = (catalog, package, bundle)
                break
        if found is None:
            cap = ExtensionCap(
                extension.name,
                extension.package,
                extension.installed.bundle,
                extension.installed.version,
                None,
                None,
                None,
                None,
            )
        else:
            catalog, package, bundle = found
            maximum, invalid = read_cap(bundle.max_openshift_versions)
            cap = ExtensionCap(
                extension.name,
                extension.package,
                bundle.name,
                extension.installed.version,
                catalog.ref or catalog.origin,
                maximum,
                invalid,
                package,
            )
        if current is not None and _holds(cap, current):
            way = extension_way_out(obj, cap.version, cap.content, cluster_catalogs, bound, current)
            cap = replace(cap, way=way)
        out.append(cap)
    return sorted(out, key=lambda c: c.extension)


def _holds(cap: ExtensionCap, current: Minor) -> bool:
    """Whether the content shows the cap holding the minor after ``current`` (R-CUP-3,
    R-CUP-4)."""
    if cap.catalog is None:
        return False
    return cap.invalid is not None or (
        cap.maximum is not None and blocks_next_minor(cap.maximum, current)
    )


def way_out(package: Package | None, installed: str | None, current: Minor) -> Bundle | None:
    """R-CUP-6: the lowest bundle of ``package`` above the installed version whose cap lets
    the cluster go to its next minor (no cap, or a readable one that does not block)."""
    if package is None:
        return None
    floor = version_key(installed)
    fits = [
        b
        for b in package.bundles.values()
        if parse_version(b.version or "") is not None
        and version_key(b.version) > floor
        and allows(b, current)
    ]
    return min(fits, key=lambda b: version_key(b.version), default=None)


def _allows(bundle: Bundle, current: Minor) -> bool:
    maximum, invalid = read_cap(bundle.max_openshift_versions)
    return invalid is None and (maximum is None or not blocks_next_minor(maximum, current))


def way_out_words(package: Package | None, installed: str | None, current: Minor) -> str:
    """The way out in words: upgrade to the bundle :func:`way_out` names, else to a version
    whose cap allows the next minor; or uninstall."""
    target = shown_minor(next_minor(current))
    bundle = way_out(package, installed, current)
    if bundle is not None:
        return (
            f"Upgrade it to {bundle.name} (version {bundle.version}), whose cap allows "
            f"{target}, or uninstall it (its CRs and operands stay)."
        )
    shown = "" if package is None else " (the catalog content given offers none)"
    return (
        f"Upgrade it to a version whose cap allows {target}{shown}, or uninstall it (its CRs "
        "and operands stay)."
    )


def _finding(severity: Any, code: str, cap: ExtensionCap, message: str, rule: str) -> Finding:
    return Finding(severity, code, CLUSTER_EXTENSION, "", cap.extension, message, rule)


def extension_cap_findings(
    caps: Iterable[ExtensionCap],
    current: Minor | None,
    condition: InstalledOperatorsUpgradeable | None,
    openshift: bool,
) -> list[Finding]:
    """R-CUP-3..R-CUP-5 per installed extension (``openshift``: the source shows an OpenShift
    cluster, a ClusterVersion or the ``olm`` ClusterOperator; elsewhere a cap means nothing)."""
    if not openshift:
        return []
    found: list[Finding] = []
    co = f"the {OLM_V1_CLUSTER_OPERATOR} ClusterOperator"
    for cap in caps:
        bundle = f"{cap.bundle} ({cap.version})" if cap.version else cap.bundle
        if cap.catalog is None:
            found.extend(_unknown(cap, bundle, current, condition, co))
            continue
        if cap.invalid is not None:
            # R-CUP-4: cluster-olm-operator fails closed on a value it cannot read
            found.append(
                _finding(
                    "warning" if current is not None else "info",
                    INVALID,
                    cap,
                    f"The installed bundle {bundle} of this extension has an "
                    f"{MAX_OCP_PROPERTY} that cluster-olm-operator cannot read "
                    f"({cap.invalid}; catalog {cap.catalog}). It reports {co} Upgradeable=False "
                    "(FailureGettingExtensionMetadata), which holds every OpenShift minor "
                    "upgrade until the extension is upgraded to a bundle with a valid value "
                    "(<major>.<minor>) or uninstalled.",
                    "R-CUP-4",
                )
            )
            continue
        if cap.maximum is None:
            continue
        if current is None:
            found.append(
                _finding(
                    "info",
                    CAPPED,
                    cap,
                    f"The installed bundle {bundle} of this extension caps the cluster at "
                    f"OpenShift {shown_minor(cap.maximum)} ({MAX_OCP_PROPERTY}, catalog "
                    f"{cap.catalog}). The cluster version is not in the source, so whether it "
                    "holds the next minor now is not known.",
                    "R-CUP-3",
                )
            )
            continue
        if not blocks_next_minor(cap.maximum, current):
            continue
        target = shown_minor(next_minor(current))
        found.append(
            _finding(
                "warning",
                BLOCKS,
                cap,
                f"This extension blocks the cluster upgrade to {target}: its installed bundle "
                f"{bundle} declares {MAX_OCP_PROPERTY} {shown_minor(cap.maximum)} (catalog "
                f"{cap.catalog}) and the cluster runs {shown_minor(current)}. "
                f"cluster-olm-operator reports {co} Upgradeable=False "
                "(InstalledOLMOperators_IncompatibleOperatorsInstalled). "
                + cap.way_out_words(current, command=False),
                "R-CUP-3",
            )
        )
    return found


def _unknown(
    cap: ExtensionCap,
    bundle: str,
    current: Minor | None,
    condition: InstalledOperatorsUpgradeable | None,
    co: str,
) -> list[Finding]:
    """R-CUP-2 / R-CUP-5: an extension whose bundle is in no content given: what
    the ``olm`` ClusterOperator says of it, else that its cap is unknown."""
    if condition is not None and cap.extension in condition.blocking:
        target = f" to {shown_minor(next_minor(current))}" if current is not None else ""
        return [
            _finding(
                "warning",
                BLOCKS,
                cap,
                f"This extension blocks the cluster upgrade{target}: {co} names its installed "
                f"bundle {bundle} as requiring an upgrade first ({condition.message}). Its "
                f"{MAX_OCP_PROPERTY} is in no catalog content given (--catalog), so the way out "
                "is not named: upgrade it to a version whose cap allows the next minor, or "
                "uninstall it (its CRs and operands stay).",
                "R-CUP-2",
            )
        ]
    if condition is not None and cap.extension in condition.failing:
        return [
            _finding(
                "warning",
                INVALID,
                cap,
                f"cluster-olm-operator cannot read the properties of this extension's installed "
                f"bundle {bundle} ({condition.message}), so {co} holds every OpenShift minor "
                "upgrade until the extension is upgraded to a bundle with a valid "
                f"{MAX_OCP_PROPERTY} or uninstalled.",
                "R-CUP-2",
            )
        ]
    if condition is not None:
        return []  # R-CUP-2: the cluster's own verdict lists every blocking extension
    return [
        _finding(
            "info",
            UNKNOWN,
            cap,
            f"Whether this extension holds the next OpenShift minor is not known: its installed "
            f"bundle {bundle} is in no catalog content given, so its {MAX_OCP_PROPERTY} cannot "
            f"be read, and {co}'s Upgradeable condition is not in the source. Give its catalog "
            "(--catalog) to know.",
            "R-CUP-5",
        )
    ]
