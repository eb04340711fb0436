"""A CSV that failed to install because of its Subscription's ``spec.config`` (R-CSV-IR).

OLM writes a Subscription's ``spec.config`` into every Deployment of the CSV it installs:
``env``, ``envFrom``, ``resources`` and ``volumeMounts`` into each container, ``nodeSelector``,
``tolerations``, ``volumes`` and ``affinity`` into the pod spec, ``annotations`` into the pod
template (operator-lifecycle-manager ``pkg/controller/operators/olm/overrides``). When the API
server rejects the Deployment (``install strategy failed: Deployment.apps "D" is invalid:
FIELD: ...``), the CSV goes ``Failed``/``InstallComponentFailed``; when FIELD is one the
Subscription's config sets, the bad value is the Subscription's, not the bundle's, and the
fix is on the Subscription.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from olmtui.frozen import frozen
from olmtui.objects import Obj, meta, spec, status

#: The reasons of an install that OLM tried and the API server refused (R-CSV-IR).
FAILED_REASONS = ("InstallComponentFailed", "InstallComponentFailedNoRetry")
_INVALID = re.compile(r'Deployment(?:\.apps)? "([^"]+)" is invalid: (.*)', re.DOTALL)
#: A rejected field path -> the ``spec.config`` field OLM wrote there.
_FIELDS = (
    (
        re.compile(
            r"spec\.template\.spec\.containers\[\d+\]\.(envFrom|env|resources|volumeMounts)\b"
        ),
        None,
    ),
    (re.compile(r"spec\.template\.spec\.(nodeSelector|tolerations|volumes|affinity)\b"), None),
    (re.compile(r"spec\.template\.metadata\.annotations\b"), "annotations"),
)
_PATH = re.compile(r"(spec\.template\.[\w.\[\]-]+)")


@frozen
class ConfigCause:
    """The Subscription whose ``spec.config.<field>`` made Deployment ``deployment`` invalid;
    ``error`` the API server's words for that field."""

    subscription: str
    field: str
    deployment: str
    error: str


def _config_field(path: str) -> str | None:
    for pattern, fixed in _FIELDS:
        if m := pattern.match(path):
            return fixed or m[1]
    return None


def _owner(name: str, subs: Iterable[Obj]) -> Obj | None:
    """The Subscription that installs CSV ``name`` (R-SUB-1: its installed or current CSV)."""
    for sub in subs:
        found = status(sub)
        if name in (found.get("installedCSV"), found.get("currentCSV")):
            return sub
    return None


def config_cause(csv: Obj, subs: Iterable[Obj]) -> ConfigCause | None:
    """What in its Subscription's ``spec.config`` made the CSV's install fail, when the
    failure is a Deployment the API server refused on a field that config sets; else None."""
    found = status(csv)
    if found.get("phase") != "Failed" or found.get("reason") not in FAILED_REASONS:
        return None
    invalid = _INVALID.search(str(found.get("message") or ""))
    if invalid is None:
        return None
    sub = _owner(meta(csv).get("name") or "", subs)
    config = spec(sub).get("config") if sub is not None else None
    if sub is None or not isinstance(config, dict):
        return None
    for error in invalid[2].strip("[]").split(", spec."):
        text = error if error.startswith("spec.") else "spec." + error
        path = _PATH.match(text)
        field = _config_field(path[1]) if path else None
        if field is not None and config.get(field):
            return ConfigCause(meta(sub).get("name") or "", field, invalid[1], text.strip())
    return None
