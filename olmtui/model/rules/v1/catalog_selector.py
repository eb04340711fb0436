"""A ClusterExtension's ``spec.source.catalog.selector`` over ClusterCatalog labels (R-V1-9),
converted and rejected exactly as apimachinery's ``LabelSelectorAsSelector`` does, because
operator-controller puts that library's error text into its own (R-V1-8): the messages below
are Kubernetes' validation wording, which the ClusterExtension's status quotes."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from olmtui.model.primitives.go_text import go_quote
from olmtui.objects import labels as labels_of
from olmtui.objects import name_of

#: The label every ClusterCatalog carries, equal to its name (catalogd's defaulting webhook,
#: R-V1-6); snapshots may lack it, so the readers add it.
NAME_LABEL = "olm.operatorframework.io/metadata.name"

_QNAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\Z")
_DNS1123 = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")
_QNAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
_DNS_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
_OPERATORS = {"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!"}

Labels = Mapping[str, str]
Matcher = Callable[[Labels], bool]


class SelectorError(ValueError):
    """A selector apimachinery refuses; the text is apimachinery's."""


def _go_strings(values: list[str] | None) -> str:
    """Go's ``%#v`` of a ``[]string``."""
    if values is None:
        return "[]string(nil)"
    return "[]string{" + ", ".join(go_quote(v) for v in values) + "}"


def _key_errors(key: str) -> list[str]:
    """apimachinery ``IsQualifiedName``."""
    errs: list[str] = []
    parts = key.split("/")
    if len(parts) > 2:
        return [
            "a qualified name "
            + _QNAME_MSG
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            if len(prefix) > 253:
                errs.append("prefix part must be no more than 253 characters")
            if not _DNS1123.match(prefix):
                errs.append("prefix part " + _DNS_MSG)
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part must be no more than 63 characters")
    if not _QNAME.match(name):
        errs.append("name part " + _QNAME_MSG)
    return errs


def _value_errors(value: str) -> list[str]:
    """apimachinery ``IsValidLabelValue``."""
    errs = ["must be no more than 63 characters"] if len(value) > 63 else []
    if value and not _QNAME.match(value):
        errs.append(_VALUE_MSG)
    return errs


def _requirement(key: str, op: str, values: list[str] | None) -> Matcher:
    """apimachinery ``NewRequirement``: every problem of one term, aggregated."""
    errs: list[str] = []
    if key_errs := _key_errors(key):
        errs.append(f"key: Invalid value: {go_quote(key)}: {'; '.join(key_errs)}")
    count = len(values or ())
    if op in ("in", "notin") and count == 0:
        errs.append(
            f"values: Invalid value: {_go_strings(values)}: for 'in', 'notin' operators, "
            "values set can't be empty"
        )
    elif op == "=" and count != 1:
        errs.append(
            f"values: Invalid value: {_go_strings(values)}: exact-match compatibility "
            "requires one single value"
        )
    elif op in ("exists", "!") and count:
        errs.append(
            f"values: Invalid value: {_go_strings(values)}: values set must be empty for "
            "exists and does not exist"
        )
    for i, value in enumerate(values or ()):
        if value_errs := _value_errors(value):
            errs.append(
                f"values[{i}][{key}]: Invalid value: {go_quote(value)}: {'; '.join(value_errs)}"
            )
    if errs:
        unique = list(dict.fromkeys(errs))
        raise SelectorError(unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]")
    allowed = frozenset(values or ())
    tests: dict[str, Matcher] = {
        "=": lambda labels: labels.get(key) in allowed,
        "in": lambda labels: labels.get(key) in allowed,
        "notin": lambda labels: labels.get(key) not in allowed,
        "exists": lambda labels: key in labels,
        "!": lambda labels: key not in labels,
    }
    return tests[op]


def _strings(raw: Any) -> list[str] | None:
    return None if not raw else [str(v) for v in raw] if isinstance(raw, list) else [str(raw)]


def catalog_selector(selector: Any) -> Matcher:
    """R-V1-9: the ClusterCatalogs a selector admits. Absent or empty admits all (a "nothing"
    selector is turned into "everything" by operator-controller). Raises ``SelectorError``
    (R-V1-8) with apimachinery's text."""
    if not isinstance(selector, Mapping):
        return lambda labels: True
    match_labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or []
    requirements: list[Matcher] = []
    for key in sorted(match_labels if isinstance(match_labels, Mapping) else {}):
        requirements.append(_requirement(str(key), "=", [str(match_labels[key])]))
    for expr in expressions if isinstance(expressions, list) else ():
        expr = expr if isinstance(expr, Mapping) else {}
        operator = str(expr.get("operator") or "")
        if operator not in _OPERATORS:
            raise SelectorError(f"{go_quote(operator)} is not a valid label selector operator")
        key, values = str(expr.get("key") or ""), _strings(expr.get("values"))
        requirements.append(_requirement(key, _OPERATORS[operator], values))
    return lambda labels: all(r(labels) for r in requirements)


def catalog_labels(cluster_catalog: Mapping[str, Any]) -> dict[str, str]:
    """A ClusterCatalog's labels with the implicit name label (R-V1-6, R-V1-9)."""
    raw = labels_of(cluster_catalog)
    labels = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
    labels[NAME_LABEL] = name_of(cluster_catalog)
    return labels
