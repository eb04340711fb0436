"""The resolver's bundle properties (``Bundle.properties``, R-RES-6) for catalogs that ship
CSVs instead of FBC: what ``opm`` would write into an FBC for the same bundle.

Bundle-format directories follow ``opm render`` (operator-registry
``pkg/registry/parse.go`` and ``ObjectsAndPropertiesFromBundle``):

* ``olm.package`` = ``{packageName, version[, release]}``: the package the annotations name
  and the CSV's ``spec.version`` (``spec.release`` when present). An ``olm.package`` in
  ``properties.yaml`` or in the CSV's ``olm.properties`` annotation takes its place; of several,
  the last in opm's order (properties file, annotations file, CSV annotation) wins.
* ``olm.gvk`` per version of each CRD manifest of the bundle (served or not, as opm reads them)
  and per owned APIService, plus the ``olm.gvk`` properties listed, de-duplicated.
* ``olm.gvk.required`` per required CRD (group from its name) and required APIService, plus
  each ``olm.gvk`` entry of the dependencies file.
* ``olm.package.required`` ``{packageName, versionRange}`` per ``olm.package`` dependency
  (its ``version`` text becomes the range).
* Every other listed property and every other dependency keeps its type and value as written:
  an ``olm.label`` dependency stays ``olm.label`` (opm converts only package and GVK
  dependencies), ``olm.constraint`` and ``olm.deprecated`` pass through.
* The result is sorted by type, then by value text, as opm sorts it.

Legacy package manifests follow what ``opm`` did with them (the SQLite loader and its
conversion to FBC, operator-registry v1.49 ``pkg/sqlite``): no metadata files are read; the
``olm.properties`` entries, the CRD manifests' and owned APIServices' ``olm.gvk``, an
``olm.package`` ``{packageName, version}`` always added (those listed are kept beside it),
the required APIs as ``olm.gvk.required``; de-duplicated and sorted the same way.

Where opm's text is not reproducible the choice is: values are compact JSON (opm sorts on the
text as written in an annotation, whitespace included; here on the compact text); values
read from a YAML metadata file have their keys sorted, as opm's YAML-to-JSON conversion does,
while those from JSON (a JSON file, the annotation) keep their order. A property opm would
reject (an unparsable ``olm.gvk`` or ``olm.package`` value, which fails ``opm render``) is
left out here, and a required CRD whose name has no group is skipped. A bundle directory whose
annotations name no package gets the package the loader settles on (its parent folder's
name) in ``olm.package``, where opm would write an empty name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from olmtui.model.primitives import json_text
from olmtui.model.primitives.manifest_fields import mapping
from olmtui.model.records.catalog import RESOLVER_PROPERTY_TYPES
from olmtui.model.records.types import Finding
from olmtui.model.rules.documented.cluster_upgrade import MAX_OCP_PROPERTY
from olmtui.model.rules.resolution.entries import compact
from olmtui.sources.catalog.files import catalog_files, read_documents
from olmtui.sources.snapshots.snapshot_files import looks_like_json

Obj = dict[str, Any]
Property = tuple[str, str]

#: The CSV annotation opm reads properties from: a JSON list of ``{type, value}``.
OPM_PROPERTIES_ANNOTATION = "olm.properties"


def keep_resolver_types(properties: Iterable[Property]) -> tuple[Property, ...]:
    return tuple(p for p in properties if p[0] in RESOLVER_PROPERTY_TYPES)


def _gvk(value: Any) -> str | None:
    """An ``olm.gvk`` value rebuilt as opm marshals it (group, kind, version), or ``None``."""
    if not isinstance(value, dict):
        return None
    fields = ["" if value.get(k) is None else value[k] for k in ("group", "kind", "version")]
    if not all(isinstance(f, str) for f in fields):
        return None
    return compact(dict(zip(("group", "kind", "version"), fields, strict=True)))


def _gvk_text(group: Any, kind: Any, version: Any) -> str | None:
    return _gvk({"group": group or "", "kind": kind or "", "version": version or ""})


def _package(name: Any, version: Any, release: Any = "") -> str | None:
    fields = {"packageName": name or "", "version": version or ""}
    if not all(isinstance(f, str) for f in fields.values()) or not isinstance(release, str):
        return None
    return compact({**fields, "release": release} if release else fields)


def listed_properties(items: Any, *, sort_keys: bool) -> list[Property]:
    """``[{type, value}]`` entries as ``(type, compact value)``; entries without a type are
    skipped. ``sort_keys`` for values that came through opm's YAML-to-JSON conversion."""
    out: list[Property] = []
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and isinstance(item.get("type"), str) and item["type"]:
            value = json.dumps(item.get("value"), separators=(",", ":"), sort_keys=sort_keys)
            out.append((item["type"], value))
    return out


def annotation_properties(csv: Obj) -> list[Property]:
    """The CSV's ``olm.properties`` annotation; opm ignores (with a warning) one that does not
    parse, and so does this."""
    text = mapping(mapping(csv.get("metadata")).get("annotations")).get(OPM_PROPERTIES_ANNOTATION)
    try:
        items = json_text.loads(text) if isinstance(text, str) else None
    except ValueError:
        return []
    return listed_properties(items, sort_keys=False)


def _crd_gvks(crds: Iterable[Obj]) -> list[str]:
    """``olm.gvk`` per version of each CRD manifest (opm's ``ProvidedAPIs``)."""
    out: list[str] = []
    for crd in crds:
        spec = mapping(crd.get("spec"))
        group, kind = spec.get("group"), mapping(spec.get("names")).get("kind")
        versions = spec.get("versions")
        names = [mapping(v).get("name") for v in versions] if isinstance(versions, list) else []
        names += [spec.get("version")] if spec.get("version") else []
        out += [g for n in names if (g := _gvk_text(group, kind, n))]
    return out


def _csv_apis(csv: Obj) -> tuple[list[str], list[str]]:
    """``(owned APIService GVKs, required CRD and APIService GVKs)`` of a CSV."""
    spec = mapping(csv.get("spec"))
    services = mapping(spec.get("apiservicedefinitions"))
    owned = [
        _gvk_text(mapping(d).get("group"), mapping(d).get("kind"), mapping(d).get("version"))
        for d in services.get("owned") or ()
    ]
    required: list[str | None] = []
    for crd in mapping(spec.get("customresourcedefinitions")).get("required") or ():
        group = str(mapping(crd).get("name") or "").partition(".")[2]
        if group:  # opm rejects a required CRD name without a group
            required.append(_gvk_text(group, mapping(crd).get("kind"), mapping(crd).get("version")))
    required += [
        _gvk_text(mapping(d).get("group"), mapping(d).get("kind"), mapping(d).get("version"))
        for d in services.get("required") or ()
    ]
    return [g for g in owned if g], [g for g in required if g]


def _dedupe(properties: Iterable[Property]) -> list[Property]:
    return list(dict.fromkeys(properties))


def _csv_version(csv: Obj, key: str) -> str:
    """``spec.version`` or ``spec.release`` as opm reads it: absent is ``""``; a YAML number
    (``release: 2``) is its text, as opm's ``GetRelease`` accepts it."""
    value = mapping(csv.get("spec")).get(key)
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sorted(properties: Iterable[Property]) -> tuple[Property, ...]:
    """opm's final order: by type, then by value text; only the types the resolver reads."""
    return keep_resolver_types(sorted(properties))


def bundle_properties(
    csv: Obj,
    package: str,
    crds: Iterable[Obj],
    listed: Iterable[Property] = (),
    dependencies: Iterable[Property] = (),
) -> tuple[Property, ...]:
    """A bundle directory's properties as ``opm render`` writes them. ``listed`` is the
    metadata properties file, ``dependencies`` the dependencies file, both already
    ``(type, compact value)``."""
    crds = list(crds)
    own_package = _package(package, _csv_version(csv, "version"), _csv_version(csv, "release"))
    base = _dedupe(
        [
            *listed,
            *([("olm.package", own_package)] if own_package else []),
            *annotation_properties(csv),
            *(("olm.gvk", g) for g in _crd_gvks(crds)),
        ]
    )
    owned, required = _csv_apis(csv)
    provided: set[str] = set(owned)
    needed: set[str] = set(required)
    package_value: str | None = None
    out: list[Property] = []
    for kind, text in base:
        if kind == "olm.gvk":
            provided.update(g for g in [_gvk(json_text.loads(text))] if g)
        elif kind == "olm.package":
            value = mapping(json_text.loads(text))
            rebuilt = _package(
                value.get("packageName"), value.get("version"), value.get("release", "")
            )
            package_value = rebuilt or package_value
        else:
            out.append((kind, text))
    for kind, text in dependencies:
        value = json_text.loads(text)
        if kind == "olm.gvk":
            needed.update(g for g in [_gvk(value)] if g)
        elif kind == "olm.package":
            value = mapping(value)
            name, version = value.get("packageName") or "", value.get("version") or ""
            if isinstance(name, str) and isinstance(version, str):
                required_package = {"packageName": name, "versionRange": version}
                out.append(("olm.package.required", compact(required_package)))
        else:
            out.append((kind, text))
    if package_value is None:
        package_value = own_package
    out += [("olm.package", package_value)] if package_value else []
    out += [("olm.gvk", g) for g in provided]
    out += [("olm.gvk.required", g) for g in needed]
    return _sorted(out)


def legacy_properties(csv: Obj, package: str, crds: Iterable[Obj]) -> tuple[Property, ...]:
    """A legacy package-manifest bundle's properties as ``opm`` rendered its SQLite form."""
    owned, required = _csv_apis(csv)
    provided = set(owned) | set(_crd_gvks(crds))
    out: list[Property] = []
    for kind, text in annotation_properties(csv):
        gvk = _gvk(json_text.loads(text)) if kind == "olm.gvk" else None
        if gvk:
            provided.add(gvk)
        elif kind != "olm.gvk":
            out.append((kind, text))
    own_package = _package(package, _csv_version(csv, "version"))
    out += [("olm.package", own_package)] if own_package else []
    out += [("olm.gvk", g) for g in provided]
    out += [("olm.gvk.required", g) for g in required]
    return _sorted(_dedupe(out))


def metadata_lists(
    directory: Path, findings: list[Finding]
) -> tuple[list[Property], list[Property], Any]:
    """``(properties, dependencies as properties, raw dependency items)`` from a bundle's
    ``metadata`` folder. As opm does, every file there is tried and the first holding a
    non-empty ``properties`` (``dependencies``) list is the one used."""
    listed: list[Property] | None = None
    dependencies: list[Property] | None = None
    raw: Any = None
    folder = directory / "metadata"
    for path in catalog_files(folder, recursive=False) if folder.is_dir() else []:
        try:
            sort_keys = not looks_like_json(path.read_bytes())
        except OSError:
            continue  # read_documents below reports it
        for _line, doc in read_documents(path, findings):
            if not isinstance(doc, dict):
                continue
            if listed is None and isinstance(doc.get("properties"), list) and doc["properties"]:
                listed = listed_properties(doc["properties"], sort_keys=sort_keys)
            deps = doc.get("dependencies")
            if dependencies is None and isinstance(deps, list) and deps:
                dependencies, raw = listed_properties(deps, sort_keys=sort_keys), deps
            break  # opm decodes the first document of each file
    return listed or [], dependencies or [], raw


def max_openshift_values(properties: Iterable[Property]) -> tuple[str, ...]:
    """The ``olm.maxOpenShiftVersion`` values among ``properties`` (compact JSON text), once
    each as opm de-duplicates them: what cluster-olm-operator reads of the bundle (R-CUP-3)."""
    return tuple(dict.fromkeys(text for kind, text in properties if kind == MAX_OCP_PROPERTY))
