"""The ClusterExtension a conversion would create for an eligible operator (R-MIG-13), as YAML.

Field by field as the tool maps a Subscription: the name and install namespace are the
Subscription's; the channel is made explicit (the Subscription's, else the package's default
channel in the ClusterCatalog that serves it: OLM v1 without channels would follow edges of
every channel); ``Manual`` approval becomes a version pin to the installed version; the
selector pins the ClusterCatalog C7 found; ``spec.config`` (every field but ``selector``, which
v0 never honoured) becomes ``spec.config.inline.deploymentConfig``; ``spec.serviceAccount``,
deprecated and ignored by OLM v1, is not set. Only the annotation that marks the conversion is
shown: the tool adds its backups of the Subscription and OperatorGroup when it converts.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import yaml

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.rules.migration.checks import CatalogMatch, OperatorInputs
from olmtui.model.rules.v1.catalog_selector import NAME_LABEL
from olmtui.objects import Obj, name_of, namespace_of, spec, text_of

#: The annotation a conversion writes on the ClusterExtension (and its ClusterObjectSet).
MIGRATED_FROM = "olm.operatorframework.io/migrated-from-subscription"
V1_API = "olm.operatorframework.io/v1"
#: The Subscription config field OLM v1's deploymentConfig leaves out.
DROPPED_CONFIG = "selector"
#: PyYAML's frames per level of nesting, with room: a config may nest as deep as the input
#: keeps objects (1,000 levels), past Python's default recursion limit.
_FRAMES_PER_LEVEL = 6
_DEEPEST_KEPT = 1000


def deployment_config(sub: Obj) -> dict[str, Any] | None:
    """The Subscription's ``spec.config`` as OLM v1's ``deploymentConfig`` (None when empty)."""
    config = spec(sub).get("config")
    if not isinstance(config, Mapping):
        return None
    kept = {k: v for k, v in config.items() if k != DROPPED_CONFIG and v not in (None, {}, [])}
    return kept or None


def cluster_extension(inputs: OperatorInputs, match: CatalogMatch) -> Obj:
    """R-MIG-13: the ClusterExtension ``convert`` would create from this operator."""
    sub = inputs.subscription
    catalog: dict[str, Any] = {"packageName": inputs.package}
    channel = inputs.channel or match.default_channel
    if channel:
        catalog["channels"] = [channel]
    approval = text_of(spec(sub).get("installPlanApproval"))
    if approval == "Manual" and inputs.installed_version:
        catalog["version"] = inputs.installed_version
    if match.catalog:
        catalog["selector"] = {"matchLabels": {NAME_LABEL: match.catalog}}
    catalog["upgradeConstraintPolicy"] = "CatalogProvided"
    ce_spec: dict[str, Any] = {
        "namespace": namespace_of(sub),
        "source": {"sourceType": "Catalog", "catalog": catalog},
    }
    config = deployment_config(sub)
    if config is not None:
        ce_spec["config"] = {"configType": "Inline", "inline": {"deploymentConfig": config}}
    return {
        "apiVersion": V1_API,
        "kind": CLUSTER_EXTENSION,
        "metadata": {
            "name": name_of(sub),
            "annotations": {MIGRATED_FROM: f"{namespace_of(sub)}/{name_of(sub)}"},
        },
        "spec": ce_spec,
    }


def _comments(extension: Obj, inputs: OperatorInputs) -> list[str]:
    sub = inputs.subscription
    lines = [
        f"# The ClusterExtension a conversion of Subscription {namespace_of(sub)}/"
        f"{name_of(sub)} would create (R-MIG-13).",
        "# The tool adds its backup annotations of the Subscription and OperatorGroup.",
    ]
    catalog = extension["spec"]["source"]["catalog"]
    if not inputs.channel and "channels" in catalog:
        lines.append("# channels: the package's default channel (the Subscription names none).")
    if "version" in catalog:
        lines.append("# version: pinned to the installed version (installPlanApproval: Manual).")
    config = spec(sub).get("config")
    if "config" in extension["spec"]:
        lines.append("# config: needs OLM v1's NewOLMConfigAPI feature (experimental CRD).")
    if isinstance(config, Mapping) and DROPPED_CONFIG in config:
        lines.append("# spec.config.selector is dropped: OLM v0 never honoured it.")
    return lines


def preview_yaml(extension: Obj, inputs: OperatorInputs) -> str:
    """The preview as YAML to copy, with comments saying where each choice comes from."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _FRAMES_PER_LEVEL * _DEEPEST_KEPT + 200))
    try:
        body = yaml.safe_dump(extension, sort_keys=False, default_flow_style=False, width=100)
    finally:
        sys.setrecursionlimit(limit)
    return "\n".join(_comments(extension, inputs)) + "\n" + body
