"""Label and field selectors, parsed and matched as the Kubernetes apiserver does.

The label selector grammar is the one ``kubectl -l`` and ``labelSelector=`` accept:
comma-separated requirements ``key``, ``!key``, ``key=v``, ``key==v``, ``key!=v``,
``key in (a,b)``, ``key notin (a,b)``, ``key>n``, ``key<n``. OLM's copied CSVs are
selected with ``olm.copiedFrom`` and excluded with ``!olm.copiedFrom``. ``!=`` and ``notin``
also match objects that lack the label, as in Kubernetes.

Custom resources support only the field selectors ``metadata.name`` and
``metadata.namespace`` (with ``=``, ``==`` and ``!=``); anything else is refused. Core kinds
add their own, as kube-apiserver does: a Pod's ``status.phase``, ``spec.nodeName`` and a few
more, an Event's ``involvedObject.*``, ``reason``, ``type`` and ``source``, a Job's
``status.successful``; a field the kind does not support is a 400.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from olmtui.frozen import frozen

Obj = dict[str, Any]


class SelectorError(ValueError):
    """A selector the apiserver would answer with 400 Bad Request."""


_NAME = r"[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?"
_KEY = re.compile(rf"^({_NAME}/)?{_NAME}$")
_VALUE = re.compile(rf"^({_NAME})?$")
_SET_REQUIREMENT = re.compile(r"^(\S+)\s+(in|notin)\s*\((.*)\)$")
_COMPARISON = re.compile(r"^([^=!<>\s]+)\s*(==|=|!=|<|>)\s*(.*)$")


@frozen
class Requirement:
    """One label requirement: ``key`` compared with ``operator`` against ``values``."""

    key: str
    operator: str  # exists, !, in, notin, gt, lt
    values: tuple[str, ...] = ()

    def matches(self, labels: dict[str, str]) -> bool:
        present = self.key in labels
        op = self.operator
        if op == "exists":
            return present
        if op == "!":
            return not present
        if op == "in":
            return present and labels[self.key] in self.values
        if op == "notin":
            return not present or labels[self.key] not in self.values
        if not present:
            return False
        try:
            value = int(labels[self.key])
        except ValueError:
            return False
        bound = int(self.values[0])
        return value > bound if op == "gt" else value < bound


@frozen
class LabelSelector:
    """A conjunction of requirements; the empty selector matches everything."""

    requirements: tuple[Requirement, ...] = ()

    def matches(self, obj: Obj) -> bool:
        labels = (obj.get("metadata") or {}).get("labels") or {}
        return all(r.matches(labels) for r in self.requirements)


def _split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside ``( … )``."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise SelectorError(f"unable to parse requirement: unbalanced ')' in {text!r}")
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if depth:
        raise SelectorError(f"unable to parse requirement: unbalanced '(' in {text!r}")
    parts.append("".join(current))
    return parts


def _check_key(key: str) -> str:
    if not _KEY.match(key) or len(key.rpartition("/")[2]) > 63:
        raise SelectorError(f"unable to parse requirement: invalid label key {key!r}")
    return key


def _check_value(value: str) -> str:
    if not _VALUE.match(value) or len(value) > 63:
        raise SelectorError(f"unable to parse requirement: invalid label value {value!r}")
    return value


def _parse_requirement(text: str) -> Requirement:
    text = text.strip()
    if not text:
        raise SelectorError("unable to parse requirement: found '', expected: identifier")
    if text.startswith("!"):
        return Requirement(_check_key(text[1:].strip()), "!")
    set_match = _SET_REQUIREMENT.match(text)
    if set_match:
        key, op, inner = set_match.groups()
        values = tuple(_check_value(v.strip()) for v in inner.split(","))
        return Requirement(_check_key(key), op, values)
    comparison = _COMPARISON.match(text)
    if comparison:
        key, op, value = comparison.groups()
        value = value.strip()
        if op in ("<", ">"):
            if not re.fullmatch(r"-?\d+", value):
                raise SelectorError(f"unable to parse requirement: {value!r} is not an integer")
            return Requirement(_check_key(key), "gt" if op == ">" else "lt", (value,))
        return Requirement(_check_key(key), "notin" if op == "!=" else "in", (_check_value(value),))
    return Requirement(_check_key(text), "exists")


def parse_label_selector(text: str | None) -> LabelSelector:
    """Parse ``labelSelector``; raises :class:`SelectorError` on bad syntax."""
    if not text or not text.strip():
        return LabelSelector()
    return LabelSelector(tuple(_parse_requirement(p) for p in _split_top_level(text)))


def _path(*fields: str) -> Callable[[Obj], str]:
    """Reads the text at ``fields`` of an object ("" when absent), as the apiserver's field
    sets do (numbers and booleans as their text)."""

    def read(obj: Obj) -> str:
        value: Any = obj
        for field in fields:
            value = value.get(field) if isinstance(value, dict) else None
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value) if isinstance(value, str | int) else ""

    return read


_FIELDS: dict[str, Callable[[Obj], str]] = {
    "metadata.name": _path("metadata", "name"),
    "metadata.namespace": _path("metadata", "namespace"),
}
#: The fields each core kind adds (kube-apiserver's ``GetAttrs``/``ToSelectableFields`` of
#: pkg/registry/core/pod, core/event and batch/job).
_KIND_FIELDS: dict[str, dict[str, Callable[[Obj], str]]] = {
    "Pod": {
        "spec.nodeName": _path("spec", "nodeName"),
        "spec.restartPolicy": _path("spec", "restartPolicy"),
        "spec.schedulerName": _path("spec", "schedulerName"),
        "spec.serviceAccountName": _path("spec", "serviceAccountName"),
        "status.phase": _path("status", "phase"),
        "status.podIP": _path("status", "podIP"),
        "status.nominatedNodeName": _path("status", "nominatedNodeName"),
    },
    "Event": {
        **{
            f"involvedObject.{f}": _path("involvedObject", f)
            for f in (
                "kind",
                "namespace",
                "name",
                "uid",
                "apiVersion",
                "resourceVersion",
                "fieldPath",
            )
        },
        "reason": _path("reason"),
        "reportingComponent": _path("reportingComponent"),
        "source": _path("source", "component"),
        "type": _path("type"),
    },
    "Job": {
        "status.successful": _path("status", "succeeded"),
    },
}


@frozen
class FieldSelector:
    """A conjunction of ``field=value`` / ``field!=value`` terms."""

    terms: tuple[tuple[str, bool, str], ...] = ()  # (field, equal?, value)
    kind: str = ""

    def matches(self, obj: Obj) -> bool:
        fields = _fields_of(self.kind)
        return all((fields[f](obj) == v) == eq for f, eq, v in self.terms)


def _fields_of(kind: str) -> dict[str, Callable[[Obj], str]]:
    return {**_FIELDS, **_KIND_FIELDS.get(kind, {})}


def parse_field_selector(text: str | None, kind: str = "") -> FieldSelector:
    """Parse ``fieldSelector`` for objects of ``kind``: ``metadata.name`` and
    ``metadata.namespace`` always, and the fields the kind adds (``_KIND_FIELDS``)."""
    if not text or not text.strip():
        return FieldSelector(kind=kind)
    known = _fields_of(kind)
    terms: list[tuple[str, bool, str]] = []
    for part in text.split(","):
        match = re.fullmatch(r"\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*", part)
        if match is None:
            raise SelectorError(f"invalid selector: {part!r}; can't understand {part!r}")
        field, op, value = match.groups()
        if field not in known:
            raise SelectorError(f"field label not supported: {field}")
        terms.append((field, op != "!=", value))
    return FieldSelector(tuple(terms), kind)


@frozen
class Selection:
    """Both selectors of one request; ``empty`` when neither restricts anything."""

    labels: LabelSelector = LabelSelector()
    fields: FieldSelector = FieldSelector()

    @property
    def empty(self) -> bool:
        return not self.labels.requirements and not self.fields.terms

    def matches(self, obj: Obj) -> bool:
        return self.labels.matches(obj) and self.fields.matches(obj)


def parse_selection(
    label_selector: str | None, field_selector: str | None, kind: str = ""
) -> Selection:
    """Both selectors of a request for objects of ``kind``."""
    return Selection(
        parse_label_selector(label_selector), parse_field_selector(field_selector, kind)
    )
