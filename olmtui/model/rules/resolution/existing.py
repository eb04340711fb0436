"""The ``@existing`` virtual catalog: the installed CSVs of a namespace (R-RES-7, R-RES-21).

OLM offers what is installed to the solver as one more catalog, so an installed operator can
satisfy a dependency, must stay when no Subscription references it, and is what an upgrade
replaces. Its properties come from the annotation OLM projects onto every CSV it creates, or
are derived from the owned and required APIs when the annotation is missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from olmtui.model.primitives import json_text
from olmtui.model.primitives.bundle_properties import PROPERTIES_ANNOTATION
from olmtui.model.rules.resolution.entries import (
    EXISTING,
    CatalogKey,
    Entry,
    compact,
    decode,
    parse_tolerant,
)
from olmtui.objects import annotations_of, name_of, spec, status
from olmtui.store import is_copied_csv

Obj = dict[str, Any]


class SourceError(Exception):
    """The ``@existing`` source cannot produce a snapshot (R-RES-5); the message is OLM's
    cause text."""


def _phase(obj: Mapping[str, Any]) -> str:
    return str(status(obj).get("phase") or "")


def _gvk(group: str, version: str, kind: str) -> str:
    return compact({"group": group, "kind": kind, "version": version})


def _api_properties(csv: Obj, section: str) -> list[str]:
    """``olm.gvk`` values of the owned (or required) CRDs and APIServices (R-RES-7.4),
    sorted by JSON text."""
    definitions = spec(csv).get(section.split(".")[0]) or {}
    values: list[str] = []
    for crd in (
        (definitions.get(section.split(".")[1]) or []) if isinstance(definitions, dict) else []
    ):
        if not isinstance(crd, dict):
            continue
        name = str(crd.get("name") or "")
        if "." not in name:
            raise SourceError(f"error parsing crd name: {name}")
        values.append(
            _gvk(name.split(".", 1)[1], str(crd.get("version") or ""), str(crd.get("kind") or ""))
        )
    return values


def _derived(csv: Obj, subscriptions: Sequence[Obj]) -> tuple[tuple[str, str], ...]:
    """R-RES-7.4 without the annotation: provided then required APIs, then an inferred
    ``olm.package`` when exactly one package names this CSV as installed."""
    csv_spec = spec(csv)
    provided: list[str] = []
    required: list[str] = []
    for kind, out in (("owned", provided), ("required", required)):
        out.extend(_api_properties(csv, f"customresourcedefinitions.{kind}"))
        for svc in (csv_spec.get("apiservicedefinitions") or {}).get(kind) or []:
            if isinstance(svc, dict):
                out.append(
                    _gvk(
                        str(svc.get("group") or ""),
                        str(svc.get("version") or ""),
                        str(svc.get("kind") or ""),
                    )
                )
    props = [("olm.gvk", v) for v in sorted(provided)]
    props += [("olm.gvk.required", v) for v in sorted(required)]
    packages = {
        str(spec(s).get("name") or "")
        for s in subscriptions
        if status(s).get("installedCSV") == name_of(csv)
    } - {""}
    if len(packages) == 1:
        version = parse_tolerant(str(csv_spec.get("version") or ""))
        text = str(version) if version and str(version) != "0.0.0" else ""
        props.append(("olm.package", compact({"packageName": packages.pop(), "version": text})))
    return tuple(props)


def _annotated(csv: Obj, text: str) -> tuple[tuple[str, str], ...]:
    """R-RES-7.4: exactly the properties of the annotation."""
    try:
        listed = json_text.loads(text).get("properties") or []
        return tuple((str(p["type"]), compact(p.get("value"))) for p in listed)
    except (ValueError, AttributeError, TypeError, KeyError) as exc:
        raise SourceError(f'failed to retrieve properties of csv "{name_of(csv)}": {exc}') from exc


def _replaced_by(csvs: Sequence[Obj]) -> dict[str, Obj]:
    return {str(spec(c).get("replaces")): c for c in csvs if spec(c).get("replaces")}


class _FailureChains:
    """R-RES-21 for every CSV of a namespace, each chain walked once (a chain of
    thousands of Replacing CSVs, walked again from each member, cost quadratic time).

    OLM follows the CSVs that replace a CSV; every one before the last must be
    ``Replacing``, else (or on a loop) an error; the chain ends in failure when the last is
    ``Failed``. A CSV's outcome is its successor's, unless its own step decides it."""

    def __init__(self, replaced_by: Mapping[str, Obj], namespace: str) -> None:
        self._replaced_by = replaced_by
        self._namespace = namespace
        #: Per CSV name: whether its chain ends in failure, or the error OLM reports.
        self._outcomes: dict[str, bool | str] = {}

    def ends_in_failure(self, csv: Obj) -> bool:
        """Raises ``SourceError`` with OLM's message."""
        outcome = self._outcome(csv)
        if isinstance(outcome, str):
            raise SourceError(outcome)
        return outcome

    def _outcome(self, csv: Obj) -> bool | str:
        outcomes, namespace = self._outcomes, self._namespace
        path: dict[str, int] = {}
        current = csv
        while (name := name_of(current)) not in outcomes:
            successor = self._replaced_by.get(name)
            if successor is None:
                outcomes[name] = _phase(current) == "Failed"
            elif _phase(current) != "Replacing":
                outcomes[name] = (
                    f"csv {namespace}/{name} in phase {_phase(current)} instead of Replacing"
                )
            elif name in path:
                # A loop: the walk from each CSV on it comes back to that CSV first.
                for looped in list(path)[path[name] :]:
                    outcomes[looped] = f"csv {namespace}/{looped} has already been seen"
            else:
                path[name] = len(path)
                current = successor
        outcome = outcomes[name]
        for walked in path:
            outcomes.setdefault(walked, outcome)
        return outcome


def existing_entries(
    namespace: str,
    csvs: Sequence[Obj],
    subscriptions: Sequence[Obj],
    fail_forward: bool,
) -> list[Entry]:
    """R-RES-7: the ``@existing`` entries of ``namespace``; raises ``SourceError``."""
    key = CatalogKey(EXISTING, namespace)
    installed = {status(s).get("installedCSV") for s in subscriptions}
    own = [c for c in csvs if not is_copied_csv(c)]  # R-RES-7.1
    chains = _FailureChains(_replaced_by(own), namespace)
    entries: list[Entry] = []
    for csv in own:
        # R-RES-7.5 / R-RES-21: a Replacing CSV whose successors ended in Failed is left out.
        ends_in_failure = fail_forward and chains.ends_in_failure(csv)
        if ends_in_failure and _phase(csv) == "Replacing":
            continue
        annotation = annotations_of(csv).get(PROPERTIES_ANNOTATION)
        props = (
            _annotated(csv, annotation) if annotation is not None else _derived(csv, subscriptions)
        )
        values = decode(props)
        package = ""
        for kind, value in values:  # R-RES-7.3: the last olm.package property names it
            if kind == "olm.package" and isinstance(value, dict):
                package = str(value.get("packageName") or "")
        entries.append(
            Entry(
                name=name_of(csv),
                package=package,
                channel="",
                catalog=key,
                version=parse_tolerant(str(spec(csv).get("version") or "")),
                properties=props,
                values=values,
                referenced=name_of(csv) in installed,  # R-RES-7.2
            )
        )
    return entries
