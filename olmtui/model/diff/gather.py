"""A side's objects sorted for comparison (R-REC-6, R-REC-8): copies of CSVs counted per
CSV they copy rather than kept, Namespaces a snapshot made up set apart."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from olmtui.kinds import CSV, NAMESPACE
from olmtui.model.primitives.inferred import INFERRED_ANNOTATION
from olmtui.model.records.types import ObjectRef
from olmtui.objects import COPIED_FROM_LABEL, OPERATOR_NAMESPACE_ANNOTATION, Obj, is_copied_csv

#: ``(source namespace, CSV name)``: whose copies a count is of.
CopySource = tuple[str, str]


@dataclass
class Gathered:
    """The objects compared one by one, the copies present per CSV they copy, and the
    Namespaces a snapshot took to exist."""

    objects: dict[ObjectRef, Obj] = field(default_factory=dict)
    copies: Counter[CopySource] = field(default_factory=Counter)
    inferred: set[str] = field(default_factory=set)


def gather(pairs: Iterable[tuple[ObjectRef, Obj]]) -> Gathered:
    held = Gathered()
    for ref, obj in pairs:
        if ref.kind == CSV and is_copied_csv(obj):
            held.copies[(_copied_from(obj), ref.name)] += 1
        elif ref.kind == NAMESPACE and INFERRED_ANNOTATION in _annotations(obj):
            held.inferred.add(ref.name)
        else:
            held.objects[ref] = obj
    return held


def _annotations(obj: Obj) -> dict[str, Any]:
    annotations: dict[str, Any] = (obj.get("metadata") or {}).get("annotations") or {}
    return annotations


def _copied_from(copy: Obj) -> str:
    """The namespace of the CSV a copy copies (its ``olm.copiedFrom`` label, else its
    operator namespace annotation)."""
    label = ((copy.get("metadata") or {}).get("labels") or {}).get(COPIED_FROM_LABEL)
    if label:
        return str(label)
    return str(_annotations(copy).get(OPERATOR_NAMESPACE_ANNOTATION, ""))
