"""Install modes: which target-namespace shapes a CSV supports (R-IM-1, R-MEM-4).

OLM builds a set from ``spec.installModes`` keyed by type and asks it whether the group's
targets are supported. There is no inference between types, and a type OLM does not know
(a typo such as ``OwnNamespacejl``) simply supports nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.records import findings
from olmtui.model.records.types import Finding

OWN = "OwnNamespace"
SINGLE = "SingleNamespace"
MULTI = "MultiNamespace"
ALL = "AllNamespaces"
KNOWN_TYPES: frozenset[str] = frozenset({OWN, SINGLE, MULTI, ALL})

ZERO_MESSAGE = (
    "operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces"
)
OWN_MESSAGE = "OwnNamespace InstallModeType not supported, cannot configure to watch own namespace"
ALL_MESSAGE = (
    "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces"
)
SINGLE_MESSAGE = (
    "SingleNamespace InstallModeType not supported, cannot configure to watch one namespace"
)
MULTI_ALL_MESSAGE = (
    "operatorgroup has invalid selected namespaces, "
    "NamespaceAll found when |selected namespaces| > 1"
)


def multi_message(count: int) -> str:
    return (
        "MultiNamespace InstallModeType not supported, "
        f"cannot configure to watch {count} namespaces"
    )


@frozen
class InstallModeSet:
    """``spec.installModes`` as OLM reads it.

    ``supported`` holds the types marked supported; ``duplicates`` is OLM's R-MEM-4 error
    text when a type repeats (the set cannot be built); ``unknown`` lists types OLM does not
    know, in their order of appearance.
    """

    supported: frozenset[str]
    duplicates: str | None = None
    unknown: tuple[str, ...] = ()


def _go_bool(value: Any) -> str:
    return "true" if value is True else "false"


def install_mode_set(modes: Any) -> InstallModeSet:
    """R-MEM-4: a repeated ``type`` makes the set invalid; the message prints the list the way
    Go's ``%v`` prints ``[]InstallMode``."""
    entries = [m for m in modes if isinstance(m, Mapping)] if isinstance(modes, list) else []
    seen: dict[str, bool] = {}
    duplicate = False
    unknown: list[str] = []
    for entry in entries:
        kind = str(entry.get("type") or "")
        if kind in seen:
            duplicate = True
        seen[kind] = entry.get("supported") is True
        if kind not in KNOWN_TYPES and kind not in unknown:
            unknown.append(kind)
    duplicates = None
    if duplicate:
        shown = " ".join(
            f"{{{e.get('type') or ''} {_go_bool(e.get('supported'))}}}" for e in entries
        )
        duplicates = f"InstallMode list contains duplicates, cannot make set: [{shown}]"
    return InstallModeSet(
        frozenset(k for k, ok in seen.items() if ok and k in KNOWN_TYPES),
        duplicates,
        tuple(unknown),
    )


def install_mode_verdict(
    supported: frozenset[str], targets: Sequence[str], operator_namespace: str
) -> str | None:
    """R-IM-1: ``None`` when the targets are supported, else OLM's exact message."""
    if not targets:
        return ZERO_MESSAGE
    if len(targets) == 1:
        target = targets[0]
        if target == operator_namespace:
            return None if OWN in supported else OWN_MESSAGE
        if target == "":
            return None if ALL in supported else ALL_MESSAGE
        return None if SINGLE in supported else SINGLE_MESSAGE
    if MULTI not in supported:
        return multi_message(len(targets))
    for target in targets:
        if target == operator_namespace and OWN not in supported:
            return OWN_MESSAGE
        if target == "":
            return MULTI_ALL_MESSAGE
    return None


def unknown_mode_findings(namespace: str, name: str, modes: Any) -> list[Finding]:
    """Install mode types OLM does not know (R-IM-1 ignores them), from ``spec.installModes``."""
    unknown = install_mode_set(modes).unknown
    return [findings.unknown_install_modes(namespace, name, unknown)] if unknown else []
