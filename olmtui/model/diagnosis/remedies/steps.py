"""Remedy steps as a person reads them and as the simulation applies them.

Each builder gives a :class:`Step` with the ``oc`` command shown (never run) and the
:class:`Change` the simulation (and ``whatif``) applies; the steps olmtui cannot apply to a
copy of the state (wait, upgrade the cluster, ask the bundle's author, anything else) carry
no change. Commands quote what came from the cluster with :func:`shlex.quote`, so a name or a
value is shown as one shell word whatever it holds.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import Any

from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CRD,
    CSV,
    INSTALL_PLAN,
    OLM_CONFIG,
    OPERATOR_CONDITION,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.model.records.diagnosis import Change, Remedy, Step
from olmtui.model.records.types import ObjectRef

#: What the report says of a remedy no simulation has tried yet.
NOT_SIMULATED = "not simulated"

#: The resource names ``oc`` takes for the kinds olmtui reads (else the kind in lower case).
_RESOURCE = {
    CSV: "csv",
    SUBSCRIPTION: "subscription",
    INSTALL_PLAN: "installplan",
    OPERATOR_GROUP: "operatorgroup",
    CATALOG_SOURCE: "catalogsource",
    OPERATOR_CONDITION: "operatorcondition",
    OLM_CONFIG: "olmconfig",
    CRD: "crd",
    CLUSTER_EXTENSION: "clusterextension",
    CLUSTER_CATALOG: "clustercatalog",
}


def plan(*steps: Step) -> Remedy:
    """A remedy of ``steps``, not yet tried on a copy of the state."""
    return Remedy(steps=tuple(steps), verified="not-simulated", outcome="", missing=NOT_SIMULATED)


def resource(kind: str) -> str:
    return _RESOURCE.get(kind, kind.lower())


def _target(ref: ObjectRef) -> str:
    where = f" -n {shlex.quote(ref.namespace)}" if ref.namespace else ""
    return f"{resource(ref.kind)} {shlex.quote(ref.name)}{where}"


def nested(field: str, value: Any) -> dict[str, Any]:
    """``{"spec": {"channel": value}}`` for ``spec.channel``: a merge patch of one field."""
    out: Any = value
    for part in reversed(field.split(".")):
        out = {part: out}
    result: dict[str, Any] = out
    return result


def change_value(value: Any) -> str:
    """The :class:`Change` value of a patched field: ``""`` removes it, a string is itself,
    anything else its JSON (``true``, ``3``, ``["v1"]``)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def delete(ref: ObjectRef, text: str) -> Step:
    return Step(
        "delete",
        text,
        object=ref,
        change=f"delete {ref}",
        command=f"oc delete {_target(ref)}",
        changes=(Change("delete", ref),),
    )


def patch(ref: ObjectRef, field: str, value: Any, text: str) -> Step:
    """Set ``field`` (a dotted path) of ``ref`` to ``value``; ``None`` removes it."""
    body = json.dumps(nested(field, value), sort_keys=True, separators=(",", ":"))
    said = f"remove {field}" if value is None else f"set {field} to {change_value(value)}"
    return Step(
        "patch",
        text,
        object=ref,
        change=said,
        command=f"oc patch {_target(ref)} --type merge -p {shlex.quote(body)}",
        changes=(Change("patch", ref, field=field, value=change_value(value)),),
    )


def approve(ref: ObjectRef, text: str) -> Step:
    body = '{"spec":{"approved":true}}'
    return Step(
        "approve",
        text,
        object=ref,
        change="set spec.approved to true",
        command=f"oc patch {_target(ref)} --type merge -p '{body}'",
        changes=(Change("approve", ref),),
    )


def create(ref: ObjectRef, body: Mapping[str, Any], text: str) -> Step:
    manifest = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return Step(
        "create",
        text,
        object=ref,
        change=f"create {ref}",
        command=f"echo {shlex.quote(manifest)} | oc create -f -",
        changes=(Change("create", ref, body=body),),
    )


def wait(text: str, ref: ObjectRef | None = None) -> Step:
    return Step("wait", text, object=ref)


def upgrade_cluster(text: str) -> Step:
    return Step("upgrade-cluster", text)


def contact_author(text: str, ref: ObjectRef | None = None) -> Step:
    return Step("contact-author", text, object=ref)


def other(text: str, ref: ObjectRef | None = None, command: str | None = None) -> Step:
    return Step("other", text, object=ref, command=command)
