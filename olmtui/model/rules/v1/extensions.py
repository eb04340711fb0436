"""A ClusterExtension as the dashboard reads it (R-V1-2..R-V1-5): its spec, the bundle
installed and its conditions in operator-controller's words, plus a one-word state.

The state summary exists because operator-controller's conditions mislead at a glance:
``Progressing=True`` with reason ``Succeeded`` is its steady "done" state, not work in
progress (R-V1-5), so a reader that took Progressing=True for "busy" would call every healthy
extension stuck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.objects import Obj, meta, spec, status, text_of

CATALOG_PROVIDED = "CatalogProvided"
SELF_CERTIFIED = "SelfCertified"


@frozen
class Condition:
    """One metav1.Condition as observed (R-V1-3): strings as written, ``""`` when absent."""

    type: str
    status: str
    reason: str
    message: str


@frozen
class InstalledBundle:
    """``status.install.bundle`` (R-V1-3): the version string is the status's own (a legacy
    release is folded in as build metadata, ``1.0.0+2``)."""

    bundle: str
    version: str


@frozen
class ExtensionState:
    """The dashboard summary of R-V1-5: ``label`` in a word or two, ``settled`` when
    nothing is wrong and nothing is moving, ``detail`` the condition message behind it."""

    label: str
    settled: bool
    detail: str = ""


@frozen
class ClusterExtension:
    """One ClusterExtension (R-V1-2, R-V1-3). ``service_account`` is shown as given but is
    deprecated and ignored by current operator-controller (R-V1-2)."""

    name: str
    namespace: str
    service_account: str | None
    package: str
    version_range: str | None
    channels: tuple[str, ...]
    upgrade_constraint_policy: str
    selector: Mapping[str, Any] | None
    watch_namespace: str | None
    installed: InstalledBundle | None
    conditions: Mapping[str, Condition]

    @property
    def state(self) -> ExtensionState:
        return extension_state(self.conditions, self.installed)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def conditions_by_type(obj: Obj) -> dict[str, Condition]:
    """``status.conditions`` by type, as observed (R-V1-3); a later entry of one type wins."""
    found: dict[str, Condition] = {}
    for entry in status(obj).get("conditions") or ():
        if isinstance(entry, Mapping) and _text(entry.get("type")):
            found[entry["type"]] = Condition(
                type=entry["type"],
                status=_text(entry.get("status")),
                reason=_text(entry.get("reason")),
                message=_text(entry.get("message")),
            )
    return found


def _installed(obj: Obj) -> InstalledBundle | None:
    """R-V1-3: absent ``status.install`` is nothing installed."""
    bundle = (status(obj).get("install") or {}).get("bundle")
    if not isinstance(bundle, Mapping) or not _text(bundle.get("name")):
        return None
    return InstalledBundle(bundle=bundle["name"], version=_text(bundle.get("version")))


def _watch_namespace(extension_spec: Mapping[str, Any]) -> str | None:
    """R-V1-2: ``spec.config.inline.watchNamespace`` when given."""
    inline = (extension_spec.get("config") or {}).get("inline")
    value = inline.get("watchNamespace") if isinstance(inline, Mapping) else None
    return text_of(value)


def decode_extension(obj: Obj) -> ClusterExtension:
    """The record of one ClusterExtension object (R-V1-2, R-V1-3)."""
    extension_spec = spec(obj)
    catalog = (extension_spec.get("source") or {}).get("catalog") or {}
    account = _text((extension_spec.get("serviceAccount") or {}).get("name"))
    channels = catalog.get("channels") or ()
    selector = catalog.get("selector")
    return ClusterExtension(
        name=_text(meta(obj).get("name")),
        namespace=_text(extension_spec.get("namespace")),
        service_account=account or None,
        package=_text(catalog.get("packageName")),
        version_range=_text(catalog.get("version")) or None,
        channels=tuple(c for c in channels if isinstance(c, str)),
        upgrade_constraint_policy=_text(catalog.get("upgradeConstraintPolicy")) or CATALOG_PROVIDED,
        selector=selector if isinstance(selector, Mapping) else None,
        watch_namespace=_watch_namespace(extension_spec),
        installed=_installed(obj),
        conditions=conditions_by_type(obj),
    )


def extension_state(
    conditions: Mapping[str, Condition], installed: InstalledBundle | None
) -> ExtensionState:
    """R-V1-5: what the conditions say, in a word. ``Progressing=True/Succeeded`` is the
    settled state (the quirk), not "still progressing"."""
    progressing = conditions.get("Progressing")
    done = conditions.get("Installed")
    is_installed = done.status == "True" if done is not None else installed is not None
    if progressing is None and done is None:
        return ExtensionState("Unknown", False, "no conditions yet")
    if progressing is not None and progressing.status == "False":
        return ExtensionState(progressing.reason or "Blocked", False, progressing.message)
    if progressing is not None and progressing.reason == "Retrying":
        label = "Installed, retrying" if is_installed else "Retrying"
        return ExtensionState(label, False, progressing.message)
    if progressing is not None and progressing.reason == "RollingOut":
        return ExtensionState("Rolling out", False, progressing.message)
    if is_installed:
        return ExtensionState("Installed", True, done.message if done is not None else "")
    if done is not None and done.status == "Unknown":
        return ExtensionState("Unknown", False, done.message)
    if done is not None and done.reason == "Absent":
        return ExtensionState("Installing", False, done.message)
    detail = done.message if done is not None else ""
    return ExtensionState("Not installed", False, detail)
