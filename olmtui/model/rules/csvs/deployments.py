"""Which Deployment an installing CSV waits for, and what that Deployment says.

OLM's install check (R-CSV-I) keeps a CSV ``Installing``/``InstallWaiting`` with a message such
as ``installing: waiting for deployment X to become ready: deployment "X" not available: ...``,
and after ``InstallCheckFailed`` the same message stays in ``status.conditions`` (R-CSV-H). The
Deployment itself, when the input holds it, says why: its ``Available`` condition and its
replica counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from olmtui.objects import Obj, spec, status

_WAITING = (
    re.compile(r"waiting for deployment ([^\s:]+) to become ready"),
    re.compile(r'deployment "([^"]+)" not available'),
    re.compile(r'deployment "([^"]+)" waiting for'),
)


def waited_deployments(csv: Obj) -> list[str]:
    """The Deployments OLM's messages on the CSV say it waits for, newest message first
    (``status.message``, then ``status.conditions`` from the last; R-CSV-I, R-CSV-H)."""
    csv_status = status(csv)
    messages = [csv_status.get("message") or ""]
    messages += [c.get("message") or "" for c in reversed(csv_status.get("conditions") or ())]
    found: list[str] = []
    for message in messages:
        for pattern in _WAITING:
            for name in pattern.findall(message):
                if name not in found:
                    found.append(name)
        if found:
            return found
    return found


def deployment_state(name: str, deployment: Obj | None) -> str:
    """What the Deployment says about itself, in one sentence; it says so when the input does
    not hold it (unknown is not absent)."""
    if deployment is None:
        return (
            f"Deployment {name} is not in the input: look at it and its pods "
            "(image pulls, crashes, scheduling, readiness probes)."
        )
    dep_status = status(deployment)
    wanted = spec(deployment).get("replicas")
    wanted_text = "?" if wanted is None else str(wanted)
    available = dep_status.get("availableReplicas") or 0
    text = (
        f"Deployment {name} has {available}/{wanted_text} replicas available "
        f"({dep_status.get('replicas') or 0} created"
        f", {dep_status.get('readyReplicas') or 0} ready)"
    )
    cond = next(
        (c for c in dep_status.get("conditions") or () if c.get("type") == "Available"), None
    )
    if cond is not None:
        said = f": {cond['message']}" if cond.get("message") else ""
        text += (
            f", Available={cond.get('status') or '?'} ({cond.get('reason') or 'no reason'}"
            f"{said.rstrip('.')})"
        )
    return text + "."


def deployments_text(csv: Obj, deployments: Mapping[str, Obj]) -> str:
    """The sentence naming each Deployment the CSV waits for, with its state."""
    names = waited_deployments(csv)
    if not names:
        return ""
    return " " + " ".join(deployment_state(n, deployments.get(n)) for n in names)
