"""Could this OLM v0 operator be managed by OLM v1? A heuristic checklist (R-V1-23).

operator-controller's own limits on registry+v1 bundles give it: what v1 would refuse or need
for the version installed now (webhooks, tenancy, install modes), read from the installed CSV
and the objects beside it. The migration tool's own eligibility rules C1..C10 and its four
states are the "Migration to v1" chapter (``model/rules/migration``, R-MIG-1..14), which
reads the property parsing below; this checklist stays the v1-limits half. It is only ever
information: "heuristic", never a warning. A point the objects cannot show is left unsaid
rather than guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

from olmtui.frozen import frozen
from olmtui.model.primitives import json_text
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION
from olmtui.model.rules.installmodes.supported_modes import install_mode_set
from olmtui.objects import annotations_of, name_of, spec, status

Obj = Mapping[str, Any]
Verdict = Literal["blocks", "needs", "ok"]

#: Dependency properties operator-controller refuses on the bundle it would install.
DEPENDENCY_TYPES = ("olm.package.required", "olm.gvk.required", "olm.constraint")


@frozen
class Point:
    """One checklist point: ``blocks`` (v1 refuses this bundle), ``needs`` (works with a
    gate, a certificate provider or a change), ``ok``; ``text`` says which and why."""

    verdict: Verdict
    text: str


@frozen
class Eligibility:
    """The checklist of one installed CSV; ``movable`` is false when a point blocks."""

    points: tuple[Point, ...]

    @property
    def movable(self) -> bool:
        return all(p.verdict != "blocks" for p in self.points)


def _install_modes(csv: Obj) -> Point:
    supported = install_mode_set(spec(csv).get("installModes")).supported
    if "AllNamespaces" in supported:
        return Point("ok", "supports the AllNamespaces install mode, the one OLM v1 installs")
    if supported & {"SingleNamespace", "OwnNamespace"}:
        return Point(
            "needs",
            "supports only "
            + ", ".join(sorted(supported))
            + ": OLM v1 installs it so only behind its SingleOwnNamespaceInstallSupport "
            "feature gate (Alpha, off by default), with config.inline.watchNamespace",
        )
    return Point("blocks", "does not support AllNamespaces, the install mode OLM v1 uses")


def declared_properties(csv: Obj) -> list[Obj] | None:
    """The properties OLM projected onto the CSV (its properties annotation, a wrapped
    ``{"properties": [...]}`` or a bare list); None when it has none or they cannot be read."""
    text = annotations_of(csv).get(PROPERTIES_ANNOTATION)
    if not isinstance(text, str):
        return None
    try:
        read = json_text.loads(text)
    except ValueError:
        return None
    listed = (read.get("properties") or []) if isinstance(read, dict) else read
    if not isinstance(listed, list):
        return None
    return [p for p in listed if isinstance(p, dict)]


def _dependencies(csv: Obj) -> Point | None:
    """From the properties OLM projected onto the CSV; without them, unknown (None)."""
    listed = declared_properties(csv)
    if listed is None:
        return None
    found = sorted({str(p.get("type")) for p in listed} & set(DEPENDENCY_TYPES))
    if found:
        return Point(
            "blocks",
            f"declares dependencies ({', '.join(found)}): operator-controller refuses a "
            "bundle with dependency properties",
        )
    return Point("ok", "declares no dependency properties")


def _webhooks(csv: Obj) -> Point | None:
    hooks = [w for w in spec(csv).get("webhookdefinitions") or () if isinstance(w, Mapping)]
    if not hooks:
        return None
    supported = install_mode_set(spec(csv).get("installModes")).supported
    kinds = sorted({str(w.get("type") or "") for w in hooks})
    if "ConversionWebhook" in kinds and supported != {"AllNamespaces"}:
        return Point(
            "blocks",
            "has a conversion webhook but supports install modes besides AllNamespaces: "
            "OLM v1 takes conversion webhooks only from AllNamespaces-only bundles",
        )
    return Point(
        "needs",
        f"has webhooks ({', '.join(kinds)}): OLM v1 needs a certificate provider for them "
        "(cert-manager, or OpenShift's service CA)",
    )


def _operator_condition(csv: Obj, conditions: Iterable[Obj]) -> Point | None:
    """Use of the OperatorCondition API: its ``status.conditions`` hold an entry. OLM v0 makes
    an OperatorCondition (and grants its RBAC) for every CSV, so one alone is no use (the
    migration tool's C4 reads it the same way, R-MIG-5)."""
    name = name_of(csv)
    if any(name_of(c) == name and status(c).get("conditions") for c in conditions):
        return Point(
            "needs",
            "uses its OperatorCondition: OLM v1 has no OperatorCondition API, so an upgrade "
            "the operator holds back with Upgradeable=False would not wait",
        )
    return None


def _tenancy(package: str | None, namespaces_with_package: int) -> Point | None:
    if package and namespaces_with_package > 1:
        return Point(
            "blocks",
            f"package {package} is installed in {namespaces_with_package} namespaces: OLM v1 "
            "allows one ClusterExtension per package in a cluster",
        )
    return None


def eligibility(
    csv: Obj,
    operator_conditions: Iterable[Obj] = (),
    package: str | None = None,
    namespaces_with_package: int = 1,
) -> Eligibility:
    """R-V1-23: the checklist of an installed (non-copied) CSV. ``operator_conditions`` are the
    OperatorConditions of its namespace; ``namespaces_with_package`` how many namespaces hold
    an operator of its ``package``."""
    points = [
        _install_modes(csv),
        _dependencies(csv),
        _webhooks(csv),
        _operator_condition(csv, operator_conditions),
        _tenancy(package, namespaces_with_package),
    ]
    return Eligibility(tuple(p for p in points if p is not None))
