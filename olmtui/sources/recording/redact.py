"""What the recorder blanks before an object reaches the file (R-REC-1).

olmtui never reads Secrets, and the cache drops what could carry credentials elsewhere:
Pods and Deployments keep no pod template (``store_evidence``, ``store._trim_deployment``),
``managedFields`` and kubectl's last-applied copy are gone. What the cache keeps and a file
should not: the literal ``env[].value`` of the containers a CSV deploys and of a
Subscription's ``spec.config.env`` (proxies with passwords, tokens pasted by hand; a
``valueFrom`` reference stays, it names a Secret and holds nothing of it), and the manifest
of a Secret an InstallPlan creates (its ``status.plan[].resource``). Each value becomes
:data:`REDACTED`; the rest of the object stays as the cache holds it. An object with nothing
to blank is returned as it is (the same dict), so the delta against its previous version
costs nothing more.
"""

from __future__ import annotations

from typing import Any

from olmtui.kinds import CSV, INSTALL_PLAN, SUBSCRIPTION
from olmtui.objects import Obj

#: What a blanked value reads as in a recording.
REDACTED = "<redacted by olmtui>"


def redacted(obj: Obj) -> Obj:
    """``obj`` with the values above blanked (a copy), or ``obj`` itself when none."""
    kind = obj.get("kind")
    if kind == CSV:
        return _csv(obj)
    if kind == SUBSCRIPTION:
        spec = obj.get("spec")
        config = spec.get("config") if isinstance(spec, dict) else None
        env = config.get("env") if isinstance(config, dict) else None
        blanked = _env(env)
        if blanked is env:
            return obj
        return {**obj, "spec": {**spec, "config": {**config, "env": blanked}}}  # type: ignore[dict-item]
    if kind == INSTALL_PLAN:
        return _install_plan(obj)
    return obj


def _env(env: Any) -> Any:
    """An ``env`` list with literal values blanked; the same list when none is literal."""
    if not isinstance(env, list):
        return env
    if not any(isinstance(e, dict) and "value" in e for e in env):
        return env
    return [{**e, "value": REDACTED} if isinstance(e, dict) and "value" in e else e for e in env]


def _containers(pod_spec: Any) -> Any:
    if not isinstance(pod_spec, dict):
        return pod_spec
    out = pod_spec
    for field in ("initContainers", "containers"):
        containers = pod_spec.get(field)
        if not isinstance(containers, list):
            continue
        blanked = [_container(c) for c in containers]
        if any(b is not c for b, c in zip(blanked, containers, strict=True)):
            out = {**out, field: blanked}
    return out


def _container(container: Any) -> Any:
    if not isinstance(container, dict):
        return container
    env = container.get("env")
    blanked = _env(env)
    return container if blanked is env else {**container, "env": blanked}


def _csv(obj: Obj) -> Obj:
    """spec.install.spec.deployments[].spec.template.spec's containers."""
    spec = obj.get("spec")
    install = spec.get("install") if isinstance(spec, dict) else None
    strategy = install.get("spec") if isinstance(install, dict) else None
    deployments = strategy.get("deployments") if isinstance(strategy, dict) else None
    if not isinstance(deployments, list):
        return obj
    changed = False
    kept: list[Any] = []
    for deployment in deployments:
        dep_spec = deployment.get("spec") if isinstance(deployment, dict) else None
        template = dep_spec.get("template") if isinstance(dep_spec, dict) else None
        pod_spec = template.get("spec") if isinstance(template, dict) else None
        blanked = _containers(pod_spec)
        if blanked is pod_spec:
            kept.append(deployment)
            continue
        changed = True
        template = {**template, "spec": blanked}  # type: ignore[dict-item]
        kept.append({**deployment, "spec": {**dep_spec, "template": template}})  # type: ignore[dict-item]
    if not changed:
        return obj
    strategy = {**strategy, "deployments": kept}  # type: ignore[dict-item]
    return {**obj, "spec": {**spec, "install": {**install, "spec": strategy}}}  # type: ignore[dict-item]


def _install_plan(obj: Obj) -> Obj:
    status = obj.get("status")
    plan = status.get("plan") if isinstance(status, dict) else None
    if not isinstance(plan, list):
        return obj
    kept: list[Any] = []
    changed = False
    for step in plan:
        resource = step.get("resource") if isinstance(step, dict) else None
        if (
            isinstance(resource, dict)
            and resource.get("kind") == "Secret"
            and resource.get("manifest")
        ):
            kept.append({**step, "resource": {**resource, "manifest": REDACTED}})
            changed = True
        else:
            kept.append(step)
    if not changed:
        return obj
    return {**obj, "status": {**status, "plan": kept}}  # type: ignore[dict-item]
