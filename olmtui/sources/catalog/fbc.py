"""File-based catalogs (FBC): ``olm.package``, ``olm.channel``, ``olm.bundle`` and
``olm.deprecations`` documents, YAML or JSON streams, as ``opm render`` writes them.

In an FBC the upgrade edges are on the channel entries, not in the bundles, so channels
are taken as written (an ``olm.skipRange`` annotation inside ``olm.csv.metadata`` is not an
edge: OLM's resolver reads the entry's ``skipRange``). Bundles carry typed properties; full
manifests (``olm.bundle.object``, base64) are only decoded when they add something: the
CRDs (served/storage versions, conversion webhook) and, when no ``olm.csv.metadata`` is
present, the CSV's install modes. The kind of an embedded object is read from the first few
hundred decoded bytes, so the big ones that are not needed are never decoded in full.
``io.openshift.operators.lifecycles.v1alpha1`` documents are kept on their package (R-LCY-1; one
that breaks its schema is reported with its file and line and skipped). Documents of other
schemas are ignored (``opm`` keeps them as opaque metadata), and so are documents with no
schema at all.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
from collections.abc import Iterable
from json.encoder import encode_basestring_ascii as _string
from pathlib import Path
from typing import Any

import msgspec
import yaml

from olmtui.model.primitives import json_text
from olmtui.model.primitives.manifest_fields import scalar_text, supported_install_modes
from olmtui.model.records.catalog import (
    RESOLVER_PROPERTY_TYPES,
    Bundle,
    Catalog,
    Channel,
    ChannelEntry,
    Package,
)
from olmtui.model.records.lifecycle import LIFECYCLE_SCHEMA
from olmtui.model.records.types import Finding
from olmtui.model.rules.documented.cluster_upgrade import MAX_OCP_PROPERTY
from olmtui.model.rules.lifecycle.blob import LifecycleError, parse_lifecycle
from olmtui.model.rules.resolution.entries import compact
from olmtui.sources.catalog import fbc_typed
from olmtui.sources.catalog.csv_records import (
    CRD_KIND,
    CSV_KIND,
    crd_all_versions,
    crd_has_conversion_webhook,
    crd_served,
    csv_has_conversion_webhook,
    gvk_key,
)
from olmtui.sources.catalog.files import read_documents, unreadable
from olmtui.sources.input_limits import DEPTH_PROBLEM, yaml_nesting
from olmtui.sources.snapshots.snapshot_documents import YamlLoader

Obj = dict[str, Any]

#: Enough base64 to show ``{"apiVersion": ..., "kind": ...}`` at the start of an object.
_HEAD = 400
Modes = tuple[str, ...] | None
#: What a Bundle keeps of one CRD: served versions and storage, all versions, whether it
#: converts through a webhook.
CrdFacts = tuple[tuple[str, tuple[str, ...], str | None], tuple[str, tuple[str, ...]], bool]
_KIND = re.compile(rb'"kind"\s*:\s*"([A-Za-z0-9]+)"|^kind:\s*([A-Za-z0-9]+)', re.MULTILINE)


def _text(value: Any) -> str | None:
    """``scalar_text``, without its call for the usual string."""
    if type(value) is str:
        return value or None
    return scalar_text(value)


def _compact(value: Any) -> str:
    """``compact(value)``: written directly for a mapping of strings (``olm.package``, the
    usual kept value), as ``json.dumps(value, separators=(",", ":"))`` writes it."""
    if type(value) is dict:
        parts = [
            _string(k) + ":" + _string(v)
            for k, v in value.items()
            if type(v) is str and type(k) is str
        ]
        if len(parts) == len(value):
            return "{" + ",".join(parts) + "}"
    return compact(value)


def _entry(raw: Any) -> ChannelEntry | None:
    if type(raw) is not dict and not isinstance(raw, dict):
        return None
    name = raw.get("name")
    if type(name) is not str:
        name = scalar_text(name)
    if not name:
        return None
    skips = raw.get("skips")
    return ChannelEntry(
        name,
        _text(raw.get("replaces")),
        tuple([str(s) for s in skips]) if skips and isinstance(skips, list) else (),
        _text(raw.get("skipRange")),
    )


def _decode(data: str) -> Obj | None:
    """An ``olm.bundle.object`` manifest: JSON, else YAML; one nested past the input's
    limit raises ``ValueError`` as any undecodable manifest does (libyaml would crash)."""
    raw = base64.b64decode(data, validate=False)
    try:
        value = json_text.loads(raw)
    except ValueError:
        if yaml_nesting(raw).too_deep_at is not None:
            raise ValueError(DEPTH_PROBLEM) from None
        value = yaml.load(raw, Loader=YamlLoader)
    return value if isinstance(value, dict) else None


def _object_kind(data: str) -> str | None:
    head = base64.b64decode(data[:_HEAD] if len(data) > _HEAD else data)
    match = _KIND.search(head)
    if match:
        return (match.group(1) or match.group(2)).decode()
    obj = _decode(data)
    return str(obj.get("kind")) if obj else None


def _sorted_set(items: list[str]) -> tuple[str, ...]:
    """``tuple(sorted(set(items)))``, without the work for the usual zero or one item."""
    if len(items) < 2:
        return tuple(items)
    return tuple(sorted(set(items)))


_SCHEMAS = frozenset(("olm.package", "olm.channel", "olm.bundle", "olm.deprecations"))
#: The property types whose values a bundle reads, besides APIs and install modes.
_READ = RESOLVER_PROPERTY_TYPES | {"olm.bundle.object", "olm.deprecated", MAX_OCP_PROPERTY}


class _Props:
    """What a bundle's properties say, gathered in their order (shared by the reading of
    decoded documents and of typed bundle lines, so both read alike)."""

    __slots__ = (
        "caps",
        "kept",
        "modes",
        "objects",
        "package",
        "packages",
        "prohibited",
        "provided",
        "required",
        "version",
    )

    def __init__(self, package: str | None) -> None:
        self.package = package
        self.version: str | None = None
        self.provided: list[str] = []
        self.required: list[str] = []
        self.packages: list[tuple[str, str]] = []
        self.modes: Modes = None
        self.prohibited = False
        self.objects: list[str] = []
        self.kept: list[tuple[str, str]] = []
        #: ``olm.maxOpenShiftVersion`` values as compact JSON text (R-CUP-3).
        self.caps: list[str] = []

    def api(self, kind: str, text: str, key: str | None) -> None:
        """An ``olm.gvk``/``olm.gvk.required`` property, as :meth:`_FBCReader.gvk` read it."""
        self.kept.append((kind, text))
        if key:
            (self.provided if kind == "olm.gvk" else self.required).append(key)

    def other(self, kind: Any, value: Any) -> None:
        """A property of any other type but ``olm.csv.metadata``."""
        if isinstance(kind, str) and kind in RESOLVER_PROPERTY_TYPES:
            self.kept.append((kind, _compact(value)))
        if kind == MAX_OCP_PROPERTY:
            self.caps.append(_compact(value))
            return
        if type(value) is not dict:
            value = value if isinstance(value, dict) else {}
        if kind == "olm.package":
            self.version = _text(value.get("version"))
            self.package = self.package or _text(value.get("packageName"))
        elif kind == "olm.package.required" and scalar_text(value.get("packageName")):
            version_range = scalar_text(value.get("versionRange")) or ""
            self.packages.append((str(value["packageName"]), version_range))
        elif kind == "olm.deprecated":
            # Legacy property: the bundle can never be newly chosen (R-UPG-2).
            self.prohibited = True
        elif kind == "olm.bundle.object" and isinstance(value.get("data"), str):
            self.objects.append(value["data"])


class _FBCReader:
    """Accumulates one catalog's FBC documents; channels and deprecations are applied last
    because an FBC may list them in any order."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.entries: dict[tuple[str, str], list[ChannelEntry]] = {}
        self.deprecations: list[Obj] = []
        self._gvks: dict[tuple[Any, ...], tuple[str, str | None]] = {}
        #: an ``olm.bundle.object`` CRD (base64, as given) -> what a Bundle keeps of it: the
        #: bundles of a package mostly carry the same CRDs, decoded once
        self._crds: dict[str, CrdFacts] = {}
        self._modes: dict[tuple[tuple[Any, bool], ...], tuple[str, ...]] = {}
        #: the same two, remembered by the raw JSON text of typed bundle lines
        self._raw_gvks: dict[tuple[str, bytes], tuple[str, str | None]] = {}
        self._raw_modes: dict[bytes, tuple[str, ...]] = {}

    @property
    def findings(self) -> list[Finding]:
        return self.catalog.findings

    def package(self, name: str) -> Package:
        found = self.catalog.packages.get(name)
        if found is None:
            found = self.catalog.packages[name] = Package(name)
        return found

    def read_file(self, path: Path) -> None:
        for line, value in read_documents(path, self.findings):
            self.read_document(path, line, value)

    def read_document(self, path: Path, line: int, doc: Any) -> None:
        if not isinstance(doc, dict):
            return
        schema = doc.get("schema")
        if schema == LIFECYCLE_SCHEMA:
            self.lifecycle(path, line, doc)
            return
        if not isinstance(schema, str) or schema not in _SCHEMAS:
            return
        name, package = _text(doc.get("name")), _text(doc.get("package"))
        if schema == "olm.bundle" and name:
            bundle = self.bundle(path, line, name, package, doc.get("properties"))
            if bundle.package:
                self.package(bundle.package).bundles[name] = bundle
        elif schema == "olm.package" and name:
            self.package(name).default_channel = scalar_text(doc.get("defaultChannel"))
        elif schema == "olm.channel" and name and package:
            raw = doc.get("entries")
            entries = [e for e in map(_entry, raw if isinstance(raw, list) else ()) if e]
            self.entries.setdefault((package, name), []).extend(entries)
        elif schema == "olm.deprecations" and package:
            self.deprecations.append(doc)
        else:
            self.findings.append(
                unreadable(
                    path,
                    f"line {line}: {schema} document without {'name' if not name else 'package'}",
                )
            )

    def lifecycle(self, path: Path, line: int, doc: Obj) -> None:
        """R-LCY-1: a lifecycle document, kept on its package; refused whole, with its file
        and line, when it breaks the schema."""
        try:
            found = parse_lifecycle(doc, f"{path}:{line}")
        except LifecycleError as exc:
            self.findings.append(
                unreadable(path, f"line {line}: {LIFECYCLE_SCHEMA} document is malformed ({exc})")
            )
            return
        kept = self.package(found.package).lifecycles
        if found not in kept:
            kept.append(found)

    # Every bundle of a package repeats its APIs and install modes: each distinct value is read once
    # (so indexing costs little more than decoding, as ``bench/bench_catalogd_index.py`` measures).
    # Only values whose scalars are all strings are remembered: a string never equals a number or a
    # bool, so a key found always stands for the same JSON text.
    def gvk(self, kind: str, value: Any) -> tuple[str, str | None]:
        """An ``olm.gvk``/``olm.gvk.required`` value: its compact text and API key."""
        memo_key = (kind, *value.items()) if type(value) is dict else None
        try:
            hit = self._gvks.get(memo_key) if memo_key is not None else None
        except TypeError:  # a list or mapping inside: not remembered
            hit = memo_key = None
        if hit is not None:
            return hit
        found = (compact(value), gvk_key(value) if isinstance(value, dict) else None)
        if memo_key is not None and all(type(v) is str for v in value.values()):
            self._gvks[memo_key] = found
        return found

    def install_modes(self, modes: Any) -> tuple[str, ...]:
        """``supported_install_modes`` of an ``olm.csv.metadata`` value's list."""
        if type(modes) is not list:
            return supported_install_modes(modes)
        try:
            memo_key = tuple([(m.get("type"), m.get("supported") is True) for m in modes])
        except AttributeError:  # not a list of mappings
            return supported_install_modes(modes)
        hit = self._modes.get(memo_key)
        if hit is None:
            hit = supported_install_modes(modes)
            if all(type(t) is str for t, _ in memo_key):
                self._modes[memo_key] = hit
        return hit

    def objects(
        self, path: Path, line: int, name: str, objects: list[str], modes: Modes
    ) -> tuple[list[CrdFacts], Modes, bool]:
        """What a bundle's ``olm.bundle.object`` manifests add: its CRDs, and the CSV's
        install modes and conversion webhooks when no ``olm.csv.metadata`` gave the modes."""
        crds: list[CrdFacts] = []
        webhook = False
        for data in objects:
            known = self._crds.get(data)
            if known is not None:
                crds.append(known)
                continue
            try:
                kind = _object_kind(data)
                if kind == CRD_KIND:
                    crd = _decode(data) or {}
                    known = self._crds[data] = (
                        crd_served(crd),
                        crd_all_versions(crd),
                        crd_has_conversion_webhook(crd),
                    )
                    crds.append(known)
                elif kind == CSV_KIND and modes is None:
                    csv = _decode(data) or {}
                    modes = supported_install_modes((csv.get("spec") or {}).get("installModes"))
                    webhook = webhook or csv_has_conversion_webhook(csv)
            except (binascii.Error, ValueError, yaml.YAMLError) as exc:
                self.findings.append(
                    unreadable(
                        path,
                        f"line {line}: an olm.bundle.object of bundle {name} does not "
                        f"decode ({exc})",
                    )
                )
        return crds, modes, webhook

    def bundle(
        self, path: Path, line: int, name: str, package: str | None, properties: Any
    ) -> Bundle:
        props = _Props(package)
        for prop in properties if isinstance(properties, list) else ():
            if type(prop) is not dict and not isinstance(prop, dict):
                continue
            kind, value = prop.get("type"), prop.get("value")
            if kind == "olm.gvk" or kind == "olm.gvk.required":
                props.api(kind, *self.gvk(kind, value))
            elif kind == "olm.csv.metadata":  # the bulkiest and most common: asked first
                if type(value) is not dict:
                    value = value if isinstance(value, dict) else {}
                props.modes = self.install_modes(value.get("installModes"))
            else:
                props.other(kind, value)
        return self.built(path, line, name, props)

    def bundle_line(self, path: Path, line: int, doc: fbc_typed.BundleLine) -> bool:
        """Read a bundle decoded by :func:`fbc_typed.bundle_line` as :meth:`read_document`
        reads it decoded whole; False, having kept nothing, when it must be read that way
        (no name: a finding; a value ``json.loads`` may read otherwise)."""
        name = _text(doc.name)
        if not name:
            return False
        try:
            props = self.typed_props(_text(doc.package), doc.properties)
        except (ValueError, RecursionError):
            return False
        bundle = self.built(path, line, name, props)
        if bundle.package:
            self.package(bundle.package).bundles[name] = bundle
        return True

    def typed_props(self, package: str | None, properties: list[fbc_typed.Prop]) -> _Props:
        """:meth:`bundle`'s reading of properties whose values are raw JSON text: APIs and
        install modes are remembered by their text (equal text, equal value), the values of
        other types read are decoded, the rest never are."""
        props = _Props(package)
        gvks, value, kept = self._raw_gvks, fbc_typed.value, props.kept
        for prop in properties:
            kind = prop.type
            if kind == "olm.gvk" or kind == "olm.gvk.required":
                key = (kind, bytes(prop.value))
                hit = gvks.get(key)
                if hit is None:
                    hit = gvks[key] = self.gvk(kind, value(prop.value))
                kept.append((kind, hit[0]))
                if hit[1]:  # as _Props.api, without its call: two or three a bundle
                    (props.provided if kind == "olm.gvk" else props.required).append(hit[1])
            elif kind == "olm.csv.metadata":
                props.modes = self.raw_install_modes(fbc_typed.install_modes(prop.value))
            elif type(kind) is str and kind in _READ:
                props.other(kind, value(prop.value))
        return props

    def raw_install_modes(self, raw: msgspec.Raw) -> tuple[str, ...]:
        """:meth:`install_modes` of a list given as raw JSON text, remembered by the text."""
        text = bytes(raw)
        modes = self._raw_modes.get(text)
        if modes is None:
            modes = self._raw_modes[text] = self.install_modes(fbc_typed.value(raw))
        return modes

    def built(self, path: Path, line: int, name: str, props: _Props) -> Bundle:
        """The Bundle of what its properties said (positional: the fields' order)."""
        modes = props.modes
        crd_facts: tuple[Any, Any, bool] = ((), (), False)
        if props.objects:  # most bundles of a rendered catalog have no manifests to read
            crds, modes, webhook = self.objects(path, line, name, props.objects, modes)
            crd_facts = (
                tuple(sorted([served for served, _, _ in crds])),
                tuple(sorted([versions for _, versions, _ in crds])),
                webhook or any(hook for _, _, hook in crds),
            )
        return Bundle(
            name,
            props.package or "",
            props.version,
            props.prohibited,
            None,
            _sorted_set(props.provided),
            _sorted_set(props.required),
            tuple(props.packages),
            modes or (),
            *crd_facts,
            tuple(props.kept),
            tuple(props.caps),
        )

    def finish(self) -> None:
        for (package_name, channel_name), entries in self.entries.items():
            self.package(package_name).channels[channel_name] = Channel(
                package_name, channel_name, tuple(entries)
            )
        for doc in self.deprecations:
            self.apply_deprecations(doc)

    def apply_deprecations(self, doc: Obj) -> None:
        """``olm.deprecations``: a message per package, channel or bundle reference."""
        package = self.package(str(doc["package"]))
        for item in doc.get("entries") or ():
            if not isinstance(item, dict):
                continue
            reference = item.get("reference")
            if not isinstance(reference, dict):
                reference = {}
            message = scalar_text(item.get("message")) or ""
            schema, name = reference.get("schema"), scalar_text(reference.get("name"))
            if schema == "olm.package":
                package.deprecation = message
            elif schema == "olm.channel" and name in package.channels:
                package.channels[name] = dataclasses.replace(
                    package.channels[name], deprecation=message
                )
            elif schema == "olm.bundle" and name in package.bundles:
                package.bundles[name] = dataclasses.replace(
                    package.bundles[name], deprecation=message
                )


def load_fbc(files: Iterable[Path], catalog: Catalog) -> None:
    """Read FBC documents from ``files`` into ``catalog`` (problems become its findings)."""
    reader = _FBCReader(catalog)
    for path in files:
        reader.read_file(path)
    reader.finish()


class FBCIndexer:
    """Index FBC documents that arrive one at a time, already decoded (the JSON Lines of
    catalogd's ``all``, R-V1-21): the same reading as :func:`load_fbc`, so content fetched
    live and the same FBC loaded from a file make equal catalogs. ``origin`` names the
    source in findings; call :meth:`finish` once after the last document."""

    def __init__(self, catalog: Catalog, origin: Path) -> None:
        self._reader = _FBCReader(catalog)
        self._origin = origin
        self.documents = 0

    def add(self, doc: Any) -> None:
        self.documents += 1
        self._reader.read_document(self._origin, self.documents, doc)

    def add_line(self, line: bytes) -> bool:
        """Index one JSON line if it is a bundle the typed decoding reads (most lines of the
        stream); False, having counted nothing, when the caller must decode it and
        :meth:`add` it."""
        doc = fbc_typed.bundle_line(line)
        if doc is None or not self._reader.bundle_line(self._origin, self.documents + 1, doc):
            return False
        self.documents += 1
        return True

    def finish(self) -> None:
        self._reader.finish()
