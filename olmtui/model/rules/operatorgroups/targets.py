"""OperatorGroup target namespaces (R-OG-1..5): what a group selects from its spec,
the canonical target string its member CSVs carry, and the effective set OLM uses when it
intersects groups.

Namespace sets follow ``nsset``: ``[""]`` means all namespaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives import nsset
from olmtui.model.records import findings
from olmtui.model.records.types import Finding, GroupMode, ObjectRef
from olmtui.objects import Obj, meta, spec, status

Labels = Mapping[str, str]

FAIL_FORWARD = "TechPreviewUnsafeFailForward"

#: Codes of the OperatorGroup errors that never reach status (R-OG-1).
TARGETS_CONTAIN_ALL = "TargetNamespacesContainAll"
TARGET_NAMESPACE_MISSING = "TargetNamespaceMissing"
INVALID_SELECTOR = "InvalidSelector"
SELECTOR_MATCHES_NOTHING = "SelectorMatchesNothing"
#: Errors that stop OLM's sync before status.namespaces is written.
BLOCKING_ERRORS = frozenset({TARGETS_CONTAIN_ALL, INVALID_SELECTOR})

_NAME = r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"
_KEY = re.compile(rf"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?{_NAME}$")
_VALUE = re.compile(rf"^({_NAME})?$")


class SelectorError(ValueError):
    """A label selector Kubernetes would refuse to turn into a selector."""


@frozen
class TargetSelection:
    """R-OG-1 result: the sorted target list (``("",)`` = all) and the OG errors that never
    reach status, each as ``(code, sentence)``."""

    namespaces: tuple[str, ...]
    errors: tuple[tuple[str, str], ...] = ()
    #: ``"list"``, ``"selector"`` or ``"global"``: which branch of R-OG-1 decided.
    source: str = "global"


def _check_key(key: Any) -> str:
    if not isinstance(key, str) or not _KEY.match(key) or len(key.rsplit("/", 1)[-1]) > 63:
        raise SelectorError(f"invalid label key {key!r}")
    return key


def _check_value(value: Any) -> str:
    if not isinstance(value, str) or not _VALUE.match(value):
        raise SelectorError(f"invalid label value {value!r}")
    return value


def selector_matches(selector: Mapping[str, Any], labels: Labels) -> bool:
    """Standard label-selector semantics (matchLabels AND matchExpressions).

    Raises :class:`SelectorError` for what Kubernetes would reject, whatever the labels.
    """
    match_labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(expressions, list):
        raise SelectorError("matchLabels must be a map and matchExpressions a list")
    ok = True
    for key, value in match_labels.items():
        if labels.get(_check_key(key)) != _check_value(value):
            ok = False
    for expr in expressions:
        if not isinstance(expr, Mapping):
            raise SelectorError("a matchExpressions entry is not a map")
        key = _check_key(expr.get("key"))
        operator = expr.get("operator")
        values = expr.get("values") or []
        if not isinstance(values, list):
            raise SelectorError(f"values of {key!r} must be a list")
        if operator in ("In", "NotIn"):
            if not values:
                raise SelectorError(f"operator {operator} on {key!r} needs at least one value")
            allowed = {_check_value(v) for v in values}
            present = key in labels and labels[key] in allowed
            ok = ok and (present if operator == "In" else not present)
        elif operator in ("Exists", "DoesNotExist"):
            if values:
                raise SelectorError(f"operator {operator} on {key!r} takes no values")
            ok = ok and ((key in labels) == (operator == "Exists"))
        else:
            raise SelectorError(f"unknown selector operator {operator!r}")
    return ok


def is_empty_selector(selector: Any) -> bool:
    """R-OG-1 step 2: an absent selector, ``{}`` or one with no terms selects everything."""
    if selector is None:
        return True
    if not isinstance(selector, Mapping):
        return False
    return not selector.get("matchLabels") and not selector.get("matchExpressions")


def target_namespaces(og: Obj, namespaces: Mapping[str, Labels]) -> TargetSelection:
    """R-OG-1: what OLM selects from ``spec`` given the existing namespaces and their labels.

    Listed names are not checked for existence by OLM; they are reported here as an error
    sentence, since nothing is copied there. A ``""`` entry or an unparsable selector makes
    OLM's sync fail without touching status.
    """
    og_spec = spec(og)
    listed = og_spec.get("targetNamespaces") or []
    if isinstance(listed, list) and listed:
        names = tuple(sorted({str(n) if n is not None else "" for n in listed}))
        errors = []
        if "" in names:
            errors.append(
                (
                    TARGETS_CONTAIN_ALL,
                    'spec.targetNamespaces contains "" (all namespaces): OLM\'s sync fails with '
                    "'TargetNamespaces cannot contain NamespaceAll' and status.namespaces is not "
                    "updated",
                )
            )
        missing = [n for n in names if n and n not in namespaces]
        if missing:
            errors.append(
                (
                    TARGET_NAMESPACE_MISSING,
                    "listed target namespaces do not exist: " + ", ".join(missing),
                )
            )
        return TargetSelection(names, tuple(errors), "list")
    selector = og_spec.get("selector")
    if is_empty_selector(selector):
        return TargetSelection(("",), (), "global")
    if not isinstance(selector, Mapping):
        return TargetSelection(
            (), ((INVALID_SELECTOR, "spec.selector is not a label selector"),), "selector"
        )
    try:
        selected = tuple(
            sorted(n for n, labels in namespaces.items() if selector_matches(selector, labels))
        )
        if not namespaces:
            selector_matches(selector, {})  # still validate the selector
    except SelectorError as exc:
        return TargetSelection(
            (),
            (
                (
                    INVALID_SELECTOR,
                    f"spec.selector cannot be parsed ({exc}): OLM's sync fails "
                    "and status is not updated",
                ),
            ),
            "selector",
        )
    if selected:
        return TargetSelection(selected, (), "selector")
    nothing = (SELECTOR_MATCHES_NOTHING, "spec.selector matches no namespace")
    return TargetSelection(selected, (nothing,), "selector")


def status_namespaces(og: Obj) -> tuple[str, ...] | None:
    """``status.namespaces`` as observed (order kept: R-OG-4 looks at the first entry)."""
    found = status(og).get("namespaces")
    if not isinstance(found, list):
        return None
    return tuple("" if n is None else str(n) for n in found)


def build_target_namespaces(status: Iterable[str] | None) -> str:
    """R-OG-3: sorted status namespaces joined with ``,`` (global and empty both give ``""``)."""
    return ",".join(sorted(status or (), key=lambda s: s.encode()))


def effective_namespaces(og_namespace: str, status: tuple[str, ...] | None) -> nsset.NSSet:
    """R-OG-4: the set used for intersection: status plus the OG's own namespace, unless
    status is empty (intersects nothing) or starts with ``""`` (taken as is)."""
    if not status:
        return nsset.EMPTY
    if status[0] == "":
        return frozenset(status)
    return frozenset(status) | {og_namespace}


def group_mode(og_namespace: str, targets: tuple[str, ...]) -> GroupMode:
    """How a group's targets look, named after the install mode they call for."""
    if not targets:
        return "None"
    if len(targets) > 1:
        return "MultiNamespace"
    if targets[0] == "":
        return "AllNamespaces"
    return "OwnNamespace" if targets[0] == og_namespace else "SingleNamespace"


def is_static(og: Obj) -> bool:
    return spec(og).get("staticProvidedAPIs") is True


def upgrade_strategy(og: Obj) -> str:
    """R-OG-9: anything but fail-forward behaves as ``Default``."""
    strategy = spec(og).get("upgradeStrategy") or {}
    name = strategy.get("name") if isinstance(strategy, Mapping) else strategy
    return FAIL_FORWARD if name == FAIL_FORWARD else "Default"


def service_account(og: Obj) -> str | None:
    return spec(og).get("serviceAccountName") or None


UID_LABEL_PREFIX = "olm.operatorgroup.uid/"


def uid_label(og: Obj) -> str | None:
    """R-OG-5: the namespace label a non-global group's targets carry."""
    uid = meta(og).get("uid")
    return f"{UID_LABEL_PREFIX}{uid}" if uid else None


def selection_findings(
    namespace: str,
    name: str,
    selection: TargetSelection,
    status: tuple[str, ...] | None,
    has_members: bool,
    platform: bool = False,
) -> list[Finding]:
    """R-OG-1..3 for one group: errors that keep its targets from status, a target list or a
    selector worth knowing about, and a ``status.namespaces`` OLM has yet to sync. A
    ``platform`` group (R-DOC-7) targets as it does by design: its target list or selector is
    info, without advice to change it."""
    codes = {code for code, _ in selection.errors}
    found = [
        findings.selection_error(code, namespace, name, text, has_members)
        for code, text in selection.errors
    ]
    if selection.source == "list" and len(selection.namespaces) > 1:
        found.append(findings.multiple_targets(namespace, name, selection.namespaces, platform))
    if selection.source == "selector" and not codes & (
        BLOCKING_ERRORS | {SELECTOR_MATCHES_NOTHING}
    ):
        found.append(findings.label_selector(namespace, name, selection.namespaces, platform))
    if not codes & BLOCKING_ERRORS and set(status or ()) != set(selection.namespaces):
        shown = None if status is None else tuple(sorted(set(status)))
        found.append(findings.status_not_synced(namespace, name, shown, selection.namespaces))
    return found


def namespace_findings(
    namespace: str,
    groups: list[str],
    labels: Mapping[str, str] | None,
    members: Iterable[tuple[tuple[str, str], Obj]],
    *,
    all_groups_read: bool = True,
) -> list[Finding]:
    """R-OG-1 and R-OG-5 for one namespace: more than one group, and the uid labels OLM keeps
    on it (one per group whose status names it: ``members``, (namespace, name) -> group, in
    order) against the ones it carries.
    ``labels`` is ``None`` when the namespace's labels are unknown. Without
    ``all_groups_read`` (a ``--namespace`` session) a label no group read accounts for may
    belong to a group in a namespace not read: only the labels missing are drift."""
    found: list[Finding] = []
    if len(groups) > 1:
        found.append(findings.multiple_groups(namespace, groups))
    if labels is None:
        return found
    expected: set[str] = set()
    owners: list[ObjectRef] = []
    for key, og in members:
        label = uid_label(og)
        if label:
            expected.add(label)
            owners.append(findings.og_ref(*key))
    actual = {k for k in labels if k.startswith(UID_LABEL_PREFIX)}
    extra = actual - expected if all_groups_read else set()
    if expected - actual or extra:
        found.append(
            findings.label_drift(namespace, sorted(expected - actual), sorted(extra), owners)
        )
    return found
