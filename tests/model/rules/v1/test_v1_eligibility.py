"""Could an OLM v0 operator move to OLM v1 (R-V1-23): the heuristic checklist read from the
installed CSV and the objects beside it. Every point says which way it goes and why; what the
objects cannot show (no properties annotation) is left out, not guessed."""

from __future__ import annotations

import json
from typing import Any

from model_builders import csv, operator_condition

from olmtui.model.rules.v1.eligibility import eligibility


def make_csv(modes: tuple[str, ...] = ("AllNamespaces",), **spec: Any) -> dict[str, Any]:
    return csv(
        "ops",
        "op.v1",
        bare=True,
        version=None,
        modes=modes,
        annotations={},
        spec=spec,
        phase=None,
        reason=None,
    )


def with_properties(obj: dict[str, Any], *types: str) -> dict[str, Any]:
    listed = [{"type": "olm.package", "value": {"packageName": "op", "version": "1.0.0"}}]
    listed += [{"type": t, "value": {}} for t in types]
    obj["metadata"]["annotations"]["operatorframework.io/properties"] = json.dumps(
        {"properties": listed}
    )
    return obj


def test_an_all_namespaces_operator_without_dependencies_can_move() -> None:
    result = eligibility(with_properties(make_csv()))
    assert result.movable
    assert [p.verdict for p in result.points] == ["ok", "ok"]


def test_without_the_properties_annotation_dependencies_are_unknown() -> None:
    result = eligibility(make_csv())
    assert [p.text for p in result.points if "dependenc" in p.text] == []


def test_what_blocks_a_move() -> None:
    own_only = eligibility(make_csv(("OwnNamespace", "SingleNamespace")))
    assert own_only.movable and own_only.points[0].verdict == "needs"
    assert "SingleOwnNamespaceInstallSupport" in own_only.points[0].text
    assert not eligibility(make_csv(("MultiNamespace",))).movable
    deps = eligibility(with_properties(make_csv(), "olm.gvk.required", "olm.constraint"))
    assert not deps.movable
    assert "olm.constraint, olm.gvk.required" in deps.points[1].text
    conversion = make_csv(
        ("AllNamespaces", "OwnNamespace"), webhookdefinitions=[{"type": "ConversionWebhook"}]
    )
    assert not eligibility(conversion).movable
    assert not eligibility(make_csv(), package="op", namespaces_with_package=2).movable


def test_what_a_move_needs() -> None:
    hooks = eligibility(make_csv(webhookdefinitions=[{"type": "ValidatingAdmissionWebhook"}]))
    assert hooks.movable and hooks.points[-1].verdict == "needs"
    assert "certificate provider" in hooks.points[-1].text
    used = operator_condition("op.v1", "False", ns="ops")
    held = eligibility(make_csv(), operator_conditions=[used])
    assert held.points[-1].verdict == "needs" and "OperatorCondition" in held.points[-1].text
    # OLM makes one for every CSV: without status conditions it is no use of the API
    unused = operator_condition("op.v1", None, ns="ops")
    points = eligibility(make_csv(), operator_conditions=[unused]).points
    assert not any("OperatorCondition" in p.text for p in points)
