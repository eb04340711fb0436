"""Turning stored objects into response bodies: lists, metadata only, server-side Tables.

Tables follow what kube-apiserver produces for CRDs: a ``Name`` column, then the CRD's
``additionalPrinterColumns`` (``date`` columns rendered as an age such as ``5d3h``), and
rows whose ``object`` is, by default, the object's PartialObjectMetadata, which is where
kubectl reads the namespace for ``-A``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any

from olmtui.apiserver.negotiation import Representation, Shape
from olmtui.apiserver.resources import PrinterColumn, Resource

Obj = dict[str, Any]

_NAME_COLUMN = {
    "name": "Name",
    "type": "string",
    "format": "name",
    "description": "Name must be unique within a namespace. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
    "priority": 0,
}
_STEP = re.compile(
    r"""\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\[\?\(@\.([A-Za-z0-9_]+)\s*==\s*['"]([^'"]*)['"]\)\]"""
)


def partial_metadata(obj: Obj, rep: Representation) -> Obj:
    return {
        "kind": "PartialObjectMetadata",
        "apiVersion": rep.meta_api_version,
        "metadata": obj.get("metadata", {}),
    }


def represent(
    obj: Obj,
    rep: Representation,
    resource: Resource,
    *,
    include_object: str = "Metadata",
    now: dt.datetime | None = None,
) -> Obj:
    """One object (a get or a watch event) in the negotiated shape."""
    if rep.shape is Shape.METADATA:
        return partial_metadata(obj, rep)
    if rep.shape is Shape.TABLE:
        return table(
            resource,
            [obj],
            rep,
            {"resourceVersion": _rv_of(obj)},
            include_object=include_object,
            now=now,
        )
    return obj


def object_list(
    resource: Resource,
    items: list[Obj],
    rep: Representation,
    list_meta: Obj,
    *,
    include_object: str = "Metadata",
) -> Obj:
    """A list response in the negotiated shape."""
    if rep.shape is Shape.METADATA:
        return {
            "kind": "PartialObjectMetadataList",
            "apiVersion": rep.meta_api_version,
            "metadata": list_meta,
            "items": [partial_metadata(o, rep) for o in items],
        }
    if rep.shape is Shape.TABLE:
        return table(resource, items, rep, list_meta, include_object=include_object)
    return {
        "apiVersion": resource.api_version,
        "kind": resource.list_kind,
        "metadata": list_meta,
        "items": items,
    }


def bookmark(resource: Resource, rv: int, rep: Representation) -> Obj:
    """The object of a BOOKMARK event: only kind, apiVersion and the resourceVersion."""
    if rep.shape is Shape.METADATA:
        return {
            "kind": "PartialObjectMetadata",
            "apiVersion": rep.meta_api_version,
            "metadata": {"resourceVersion": str(rv)},
        }
    return {
        "kind": resource.kind,
        "apiVersion": resource.api_version,
        "metadata": {"resourceVersion": str(rv)},
    }


def table(
    resource: Resource,
    objs: Iterable[Obj],
    rep: Representation,
    list_meta: Obj,
    *,
    include_object: str = "Metadata",
    now: dt.datetime | None = None,
) -> Obj:
    now = now or dt.datetime.now(dt.UTC)
    columns = [_NAME_COLUMN, *(_column_definition(c) for c in resource.columns)]
    rows = []
    for obj in objs:
        row: Obj = {
            "cells": [obj["metadata"].get("name"), *(_cell(obj, c, now) for c in resource.columns)]
        }
        if include_object == "Object":
            row["object"] = obj
        elif include_object != "None":
            row["object"] = partial_metadata(obj, rep)
        rows.append(row)
    return {
        "kind": "Table",
        "apiVersion": rep.meta_api_version,
        "metadata": list_meta,
        "columnDefinitions": columns,
        "rows": rows,
    }


def _column_definition(column: PrinterColumn) -> Obj:
    return {
        "name": column.name,
        "type": column.type,
        "format": "",
        "description": column.description,
        "priority": 0,
    }


def _rv_of(obj: Obj) -> str:
    version: str = obj.get("metadata", {}).get("resourceVersion", "")
    return version


def json_path(obj: Any, path: str) -> Any:
    """Follow a CRD printer-column path: ``.spec.names[0]``, or with a filter such as
    ``.status.conditions[?(@.type=='Installed')].status`` (OLM v1's columns); None if absent.
    A filter may match several items: the first match is the cell, as kubectl shows it
    for conditions, whose types are unique."""
    values = [obj]
    position = 0
    while position < len(path):
        step = _STEP.match(path, position)
        if step is None:
            return None
        position = step.end()
        field, index, key, wanted = step.groups()
        found: list[Any] = []
        for value in values:
            if field is not None and isinstance(value, dict) and field in value:
                found.append(value[field])
            elif index is not None and isinstance(value, list) and int(index) < len(value):
                found.append(value[int(index)])
            elif key is not None and isinstance(value, list):
                found += [v for v in value if isinstance(v, dict) and v.get(key) == wanted]
        values = found
    return values[0] if values else None


def _cell(obj: Obj, column: PrinterColumn, now: dt.datetime) -> Any:
    value = json_path(obj, column.json_path)
    if column.type == "date" and isinstance(value, str):
        try:
            then = dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
        except ValueError:
            return value
        return human_duration(now - then)
    return value


def human_duration(delta: dt.timedelta) -> str:
    """An age as kubectl prints it (k8s.io/apimachinery ``duration.HumanDuration``)."""
    seconds = int(delta.total_seconds())
    if seconds < -1:
        return "<invalid>"
    if seconds < 0:
        return "0s"
    if seconds < 60 * 2:
        return f"{seconds}s"
    minutes = seconds // 60
    if minutes < 10:
        return _two_units(minutes, "m", seconds % 60, "s")
    if minutes < 60 * 3:
        return f"{minutes}m"
    hours = minutes // 60
    if hours < 8:
        return _two_units(hours, "h", minutes % 60, "m")
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        return _two_units(hours // 24, "d", hours % 24, "h")
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        return _two_units(hours // 24 // 365, "y", (hours // 24) % 365, "d")
    return f"{hours // 24 // 365}y"


def _two_units(big: int, big_unit: str, small: int, small_unit: str) -> str:
    """``5d3h``, or just ``5d`` when the smaller unit is zero."""
    return f"{big}{big_unit}{small}{small_unit}" if small else f"{big}{big_unit}"
