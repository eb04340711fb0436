"""Findings about OLM v1 objects (R-V1-2..R-V1-20), with remedies.

Conditions are operator-controller's and catalogd's words: the findings quote them and add
only what the objects show. ``Progressing=True/Succeeded`` is the settled state (R-V1-5),
never "stuck". Nothing is said about the permissions of a service account: RBAC objects are
not read, and current operator-controller ignores the field anyway (R-V1-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from olmtui.kinds import CLUSTER_CATALOG, CLUSTER_EXTENSION
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding, ObjectRef, Severity
from olmtui.model.rules.v1.catalog_selector import SelectorError, catalog_selector
from olmtui.model.rules.v1.catalogs import ClusterCatalog, decode_catalog
from olmtui.model.rules.v1.extensions import SELF_CERTIFIED, ClusterExtension, decode_extension
from olmtui.model.rules.v1.outcome import extension_resolution
from olmtui.model.rules.v1.resolve import V1Resolution, content_by_catalog
from olmtui.model.rules.v1.revisions import DEADLINE_EXCEEDED
from olmtui.objects import Obj

CE = CLUSTER_EXTENSION
CC = CLUSTER_CATALOG
#: The deprecation conditions (R-V1-4); the rollup ``Deprecated`` joins their messages.
DEPRECATIONS = (
    ("PackageDeprecated", "package"),
    ("ChannelDeprecated", "channel"),
    ("BundleDeprecated", "installed bundle"),
)
#: The resolver's error texts (R-V1-8, R-V1-9, R-V1-15, R-V1-18, R-V1-19) -> what fixes them.
_REMEDIES = (
    (
        "is not being served",
        "see that ClusterCatalog's Serving condition and fix what catalogd reports, or leave "
        "it out of this extension with spec.source.catalog.selector (or set the catalog's "
        "spec.availabilityMode: Unavailable)",
    ),
    (
        "in multiple catalogs with the same priority",
        "give one of the catalogs a higher spec.priority, or narrow "
        "spec.source.catalog.selector to one catalog",
    ),
    (
        "desired version range",
        "fix spec.source.catalog.version (a Masterminds range such as '>=1.2.0, <2.0.0')",
    ),
    ("desired catalog selector is invalid", "fix spec.source.catalog.selector"),
    (
        "which is currently not supported",
        "OLM v1 cannot install a bundle with dependencies: choose a version without them "
        "with spec.source.catalog.version, and install what it needs yourself",
    ),
    (
        "error upgrading from currently installed version",
        "no successor of the installed bundle fits the range and channels: widen "
        "spec.source.catalog.version or channels, or pick a version the catalog's "
        "replaces/skips/skipRange lead to (upgradeConstraintPolicy: SelfCertified lifts "
        "that rule — only when the operator supports the jump)",
    ),
    (
        "no bundles found for package",
        "check spec.source.catalog.packageName, version and channels against the content "
        "of the selected ClusterCatalogs",
    ),
)

#: The resolver's errors that read no catalog content (R-V1-8: the selector, the version
#: range; R-V1-9: a selected catalog not serving).
_CONTENT_FREE = (
    "desired catalog selector is invalid",
    "desired version range",
    "is not being served",
)


def _quoted(reason: str, message: str) -> str:
    """A condition's reason and, when it has one, its message quoted."""
    return f"{reason}: {message!r}" if message else reason


def _remedy(message: str) -> str:
    for words, remedy in _REMEDIES:
        if words in message:
            return remedy
    return "fix the cause it names; operator-controller retries on its own"


def _basis(error: str) -> str:
    """What a computed resolution error rests on: the extension's spec or a ClusterCatalog's
    Serving condition alone (R-V1-8, R-V1-9), which hold with no content given at all, or
    the catalog content given (R-V1-10..R-V1-19), which may not be what catalogd serves."""
    if any(words in error for words in _CONTENT_FREE):
        return "as the objects read stand"
    return "with the catalog content given"


def _extension_finding(
    extension: ClusterExtension, severity: Severity, code: str, message: str, rule: str
) -> Finding:
    return Finding(severity, code, CE, "", extension.name, message, rule)


def selected_catalogs(
    extension: ClusterExtension, catalogs: Iterable[ClusterCatalog]
) -> list[ClusterCatalog]:
    """The ClusterCatalogs the extension's selector takes (R-V1-9: an unset or empty selector
    takes all; labels include the implicit name label), ``availabilityMode: Unavailable`` ones
    left out: the resolver's own selector (``catalog_selector``), so the extensions a finding
    names are those whose resolution reads the catalog. An invalid selector takes none (the
    extension's own condition says why, R-V1-8)."""
    try:
        selected = catalog_selector(extension.selector)
    except SelectorError:
        return []
    return [c for c in catalogs if not c.user_unavailable and selected(c.labels)]


def condition_findings(extension: ClusterExtension) -> list[Finding]:
    """Findings from the extension's own conditions (R-V1-4, R-V1-5): a Progressing error
    quoted with the remedy its text calls for, an Installed state that could not be read,
    deprecations, and the ignored service account (R-V1-2)."""
    found: list[Finding] = []
    progressing = extension.conditions.get("Progressing")
    installed = extension.conditions.get("Installed")
    is_installed = installed is not None and installed.status == "True"
    if (
        progressing is not None
        and progressing.status == "False"
        and progressing.reason != DEADLINE_EXCEEDED  # R-V1-25 says it, with the revisions
    ):
        # R-V1-4: Progressing=False (Blocked, InvalidConfiguration, ...) needs a person.
        found.append(
            _extension_finding(
                extension,
                "error",
                "ClusterExtensionBlocked",
                f"operator-controller stopped ({progressing.reason}): {progressing.message!r}; "
                f"{_remedy(progressing.message)}",
                "R-V1-4",
            )
        )
    elif progressing is not None and progressing.reason == "Retrying":
        # R-V1-5: with a bundle installed it keeps running while the retries go on.
        keeps = (
            f"the installed bundle {extension.installed.bundle} keeps running; "
            if is_installed and extension.installed is not None
            else "nothing is installed; "
        )
        found.append(
            _extension_finding(
                extension,
                "warning" if is_installed else "error",
                "ClusterExtensionRetrying",
                f"operator-controller is retrying: {progressing.message!r}; {keeps}"
                f"{_remedy(progressing.message)}",
                "R-V1-5",
            )
        )
    if installed is not None and installed.status == "Unknown":
        # R-V1-4: Installed=Unknown: operator-controller could not read its own install.
        found.append(
            _extension_finding(
                extension,
                "warning",
                "ClusterExtensionInstallUnknown",
                f"operator-controller could not read what is installed: {installed.message!r}",
                "R-V1-4",
            )
        )
    found += deprecation_findings(extension)
    if extension.service_account is not None:
        # R-V1-2: deprecated, and ignored by current operator-controller.
        found.append(
            _extension_finding(
                extension,
                "info",
                "ClusterExtensionServiceAccountIgnored",
                f"spec.serviceAccount.name {extension.service_account!r} is deprecated: current "
                "operator-controller ignores it and installs with its own service account "
                "(it may be removed from the spec)",
                "R-V1-2",
            )
        )
    return found


def deprecation_findings(extension: ClusterExtension) -> list[Finding]:
    """R-V1-4: a warning per deprecation condition that is True, quoting its message; the
    rollup ``Deprecated`` only when it is True and none of the others says more."""
    found = []
    for condition_type, what in DEPRECATIONS:
        # R-V1-4: each deprecation condition that is True, in the catalog's words.
        condition = extension.conditions.get(condition_type)
        if condition is not None and condition.status == "True":
            found.append(
                _extension_finding(
                    extension,
                    "warning",
                    f"ClusterExtension{condition_type}",
                    f"the {what} is deprecated: {condition.message!r}; plan a move to what "
                    "the catalog recommends (another channel, package or version)",
                    "R-V1-4",
                )
            )
    rollup = extension.conditions.get("Deprecated")
    if not found and rollup is not None and rollup.status == "True":
        found.append(
            _extension_finding(
                extension,
                "warning",
                "ClusterExtensionDeprecated",
                f"deprecated: {rollup.message!r}; plan a move to what the catalog recommends",
                "R-V1-4",
            )
        )
    return found


def resolution_findings(
    extension: ClusterExtension,
    resolution: V1Resolution | None,
    cluster_catalogs: Sequence[Obj],
    content: Mapping[str, Catalog],
) -> list[Finding]:
    """R-V1-9, R-V1-20: what the resolution olmtui computed adds — not computed (which
    catalogs lack content), the upgrade it would make or that it stays, a deprecated pick, and
    a failure the extension's own Progressing condition does not already show."""
    if resolution is None:
        return []
    if resolution.unknown is not None:
        # R-V1-9 (olmtui): a selected catalog without content given; unknown, not absent.
        selected = selected_catalogs(extension, map(decode_catalog, cluster_catalogs))
        missing = sorted(c.name for c in selected if c.name not in content)
        why = (
            "no catalog content was given for ClusterCatalog " + ", ".join(missing)
            if missing
            else resolution.unknown
        )
        return [
            Finding(
                "info",
                "ClusterExtensionResolutionUnknown",
                CE,
                "",
                extension.name,
                f"what operator-controller would resolve is not computed: {why}; give it with "
                "--catalog NAME=PATH (opm render output or catalogd's api/v1/all)",
                "R-V1-9",
                related=tuple(ObjectRef(CC, "", name) for name in missing),
            )
        ]
    found = []
    if resolution.error is not None:
        # R-V1-18: the resolver's error, unless the extension's Progressing already quotes it.
        progressing = extension.conditions.get("Progressing")
        if progressing is None or resolution.error not in progressing.message:
            found.append(
                _extension_finding(
                    extension,
                    "warning",
                    "ClusterExtensionWouldNotResolve",
                    f"{_basis(resolution.error)}, operator-controller would fail to "
                    f"resolve: {resolution.error!r}; {_remedy(resolution.error)}",
                    "R-V1-18",
                )
            )
        return found
    if resolution.bundle is None:
        return found
    found += _pick_findings(extension, resolution)
    return found


def _pick_findings(extension: ClusterExtension, resolution: V1Resolution) -> list[Finding]:
    """R-V1-20: at latest allowed, or the upgrade (and the rule that allows it); a deprecated
    pick warns with the catalog's words."""
    found = []
    related = (ObjectRef(CC, "", resolution.catalog),) if resolution.catalog else ()
    installed = extension.installed
    # R-V1-20: the pick is the installed bundle, or an upgrade from it.
    if installed is not None and installed.bundle == resolution.bundle:
        found.append(
            Finding(
                "info",
                "ClusterExtensionAtLatest",
                CE,
                "",
                extension.name,
                f"{installed.bundle} is the latest bundle the spec allows in the catalog content "
                "given: nothing would change",
                "R-V1-20",
                related=related,
            )
        )
    elif installed is not None:
        how = (
            "upgradeConstraintPolicy SelfCertified allows any version in range"
            if extension.upgrade_constraint_policy == SELF_CERTIFIED
            else "a replaces/skips/skipRange entry of the catalog names the installed bundle"
        )
        found.append(
            Finding(
                "info",
                "ClusterExtensionUpgradeAvailable",
                CE,
                "",
                extension.name,
                f"operator-controller would move from {installed.bundle} ({installed.version}) "
                f"to {resolution.bundle} ({resolution.version}) from ClusterCatalog "
                f"{resolution.catalog}: {how}",
                "R-V1-20",
                related=related,
            )
        )
    for message in resolution.deprecations:
        # R-V1-20: a deprecated pick, in the catalog's words.
        found.append(
            Finding(
                "warning",
                "ClusterExtensionDeprecatedPick",
                CE,
                "",
                extension.name,
                f"the bundle operator-controller would pick, {resolution.bundle}, is "
                f"deprecated: {message!r}; choose a channel or version the catalog does not "
                "deprecate",
                "R-V1-20",
                related=related,
            )
        )
    return found


def catalog_findings(catalog_obj: Obj, extensions: Iterable[Obj]) -> list[Finding]:
    """One ClusterCatalog's findings (R-V1-7, R-V1-9): not serving, and so failing the
    resolution of every extension that selects it; catalogd retrying or blocked."""
    catalog = decode_catalog(catalog_obj)
    found: list[Finding] = []
    if catalog.serving is False and not catalog.user_unavailable:
        # R-V1-9: a selected catalog not serving fails each resolution that reads it.
        users = sorted(
            e.name for e in map(decode_extension, extensions) if selected_catalogs(e, [catalog])
        )
        serving = catalog.conditions["Serving"]
        effect = (
            f"the resolution of ClusterExtension {', '.join(users)} fails until it serves"
            if users
            else "no ClusterExtension selects it now"
        )
        found.append(
            Finding(
                "warning",
                "ClusterCatalogNotServing",
                CC,
                "",
                catalog.name,
                f"catalogd is not serving it ({_quoted(serving.reason, serving.message)}); every "
                f"ClusterExtension whose catalogs include it fails to resolve — {effect}; fix "
                "what its Progressing condition reports, or set spec.availabilityMode: "
                "Unavailable to take it out of resolution",
                "R-V1-9",
                related=tuple(ObjectRef(CE, "", name) for name in users),
            )
        )
    progressing = catalog.conditions.get("Progressing")
    # R-V1-7: catalogd blocked (Progressing=False) or retrying its unpack.
    if progressing is not None and (
        progressing.status == "False" or progressing.reason == "Retrying"
    ):
        found.append(
            Finding(
                "warning",
                "ClusterCatalogBlocked"
                if progressing.status == "False"
                else "ClusterCatalogRetrying",
                CC,
                "",
                catalog.name,
                f"catalogd reports ({progressing.reason}): {progressing.message!r}"
                + ("; it may keep serving its previous content" if catalog.serving else ""),
                "R-V1-7",
            )
        )
    return found


def extension_findings(
    extension_obj: Obj, cluster_catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> list[Finding]:
    """Every finding about one ClusterExtension: its conditions and, with the resolver, what
    it would resolve to (reads the extension, every ClusterCatalog and the content bound to
    them)."""
    extension = decode_extension(extension_obj)
    resolution = extension_resolution(extension_obj, cluster_catalogs, content)
    return condition_findings(extension) + resolution_findings(
        extension, resolution, cluster_catalogs, content
    )


def v1_findings(
    extensions: Iterable[Obj], cluster_catalogs: Iterable[Obj], catalogs: Sequence[Catalog]
) -> list[Finding]:
    """Every OLM v1 finding, from scratch (``olmtui check``): each ClusterCatalog's and each
    ClusterExtension's, with the content given (``--catalog``) bound per catalog (R-V1-22)."""
    extensions = list(extensions)
    cluster_catalogs = list(cluster_catalogs)
    content = content_by_catalog(catalogs, cluster_catalogs)
    found: list[Finding] = []
    for catalog in cluster_catalogs:
        found += catalog_findings(catalog, extensions)
    for extension in extensions:
        found += extension_findings(extension, cluster_catalogs, content)
    return found
