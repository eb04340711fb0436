"""The FBC reader's shortcuts read exactly what the plain reading would:
kept property values are the ``json.dumps(value, separators=(",", ":"))`` text of the
value, on every FBC bundle in tests/data/catalogs (see SOURCES.md) and on crafted edge
cases (escapes, unicode, nested values, numbers, unusual key order, odd documents)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA, FBC_FILES

from olmtui.model.records.catalog import RESOLVER_PROPERTY_TYPES, Bundle, Catalog
from olmtui.sources.catalog import catalogd
from olmtui.sources.catalog.fbc import FBCIndexer, _compact
from olmtui.sources.catalog.files import read_documents

CATALOGS = DATA / "catalogs"


def compact_text(value: Any) -> str:
    """The reference: what the catalog loader promises for a kept value."""
    return json.dumps(value, separators=(",", ":"))


def kept_reference(properties: Any) -> tuple[tuple[str, str], ...]:
    return tuple(
        (prop["type"], compact_text(prop.get("value")))
        for prop in properties
        if isinstance(prop, dict)
        and isinstance(prop.get("type"), str)
        and prop["type"] in RESOLVER_PROPERTY_TYPES
    )


def index(docs: list[Any]) -> Catalog:
    catalog = Catalog("test", "test")
    indexer = FBCIndexer(catalog, Path("test"))
    for doc in docs:
        indexer.add(doc)
    indexer.finish()
    return catalog


def bundle_of(doc: dict[str, Any]) -> Bundle:
    catalog = index([doc])
    (package,) = catalog.packages.values()
    return package.bundles[doc["name"]]


def test_real_catalogs_are_in_the_data() -> None:
    assert len(FBC_FILES) >= 4


@pytest.mark.parametrize("path", FBC_FILES, ids=lambda p: str(p.relative_to(CATALOGS)))
def test_kept_properties_equal_compact_json_on_real_catalogs(path: Path) -> None:
    docs = [doc for _, doc in read_documents(path, [])]
    bundles = [doc for doc in docs if isinstance(doc, dict) and doc.get("schema") == "olm.bundle"]
    assert bundles
    catalog = index(docs)
    assert catalog.findings == []
    for doc in bundles:
        package = catalog.packages[doc["package"]]
        assert package.bundles[doc["name"]].properties == kept_reference(doc["properties"])


@pytest.mark.parametrize(
    "value",
    [
        {"packageName": "etcd", "version": "0.9.4"},
        {"packageName": 'quo"te\\back/slash', "version": "1.0.0+build.1"},
        {"packageName": "caf\u00e9-\u4e2d\u6587", "version": "1.0.0-\U0001f680"},
        {"packageName": "ctl\n\t\x01\x1f\x7f", "version": "\u2028\u2029"},
        {"version": "2.0.0", "packageName": "reversed-key-order"},
        {"packageName": "", "version": ""},
        {},
        {"packageName": "x", "version": 1},
        {"packageName": "x", "version": 1.5, "extra": None},
        {"packageName": "x", "nested": {"a": [1, True, None, "\u00e9"]}},
        {"packageName": "x", "flag": False},
        {1: "int key, as YAML may give", "packageName": "x"},
        ["a", "list"],
        "a string",
        12,
        None,
    ],
)
def test_compact_text_equals_json_dumps(value: Any) -> None:
    assert _compact(value) == compact_text(value)


def test_edge_case_bundle_properties_equal_compact_json() -> None:
    properties: list[Any] = [
        {"value": {"packageName": "edge", "version": "1.0.0"}, "type": "olm.package"},
        {"type": "olm.gvk", "value": {"version": "v1", "kind": "Edge", "group": "e\u00e9.io"}},
        {"type": "olm.gvk", "value": {"group": 'q"uote.io', "kind": "K", "version": "v1"}},
        {"type": "olm.gvk.required", "value": {"group": "x.io", "kind": "K", "version": 1}},
        {"type": "olm.gvk", "value": {"group": "x.io", "kind": "K", "version": "v1", "n": [1]}},
        {"type": "olm.package.required", "value": {"packageName": "dep", "versionRange": ">=1"}},
        {"type": "olm.label", "value": {"label": "\\escaped\\ \u2028"}},
        {
            "type": "olm.constraint",
            "value": {"failureMessage": "no", "cel": {"rule": 'p.exists(q, q.type == "x")'}},
        },
        {"type": "olm.csv.metadata", "value": {"installModes": [{"supported": True, "type": "A"}]}},
        {"type": "olm.bundle.object", "value": {"data": "e30="}},
        "not a property",
        {"type": ["unhashable"], "value": {}},
        {"type": "unknown.type", "value": {"big": "x" * 100}},
    ]
    doc = {"schema": "olm.bundle", "name": "edge.v1.0.0", "package": "edge"}
    bundle = bundle_of({**doc, "properties": properties})
    assert bundle.properties == kept_reference(properties)
    assert bundle.version == "1.0.0"
    assert bundle.install_modes == ("A",)
    assert bundle.provided_apis == ("Edge.v1.e\u00e9.io", 'K.v1.q"uote.io', "K.v1.x.io")
    assert bundle.required_apis == ("K.1.x.io",)
    assert bundle.required_packages == (("dep", ">=1"),)


def test_same_gvk_in_another_key_order_keeps_its_own_text() -> None:
    first = {"group": "g.io", "kind": "K", "version": "v1"}
    second = {"version": "v1", "kind": "K", "group": "g.io"}
    docs = [
        {
            "schema": "olm.bundle",
            "name": f"p.v{i}",
            "package": "p",
            "properties": [{"type": "olm.gvk", "value": value}],
        }
        for i, value in enumerate((first, second, first))
    ]
    bundles = index(docs).packages["p"].bundles
    assert [b.properties for b in bundles.values()] == [
        (("olm.gvk", compact_text(value)),) for value in (first, second, first)
    ]
    assert {b.provided_apis for b in bundles.values()} == {("K.v1.g.io",)}


def test_odd_documents_are_ignored_or_reported_as_before() -> None:
    catalog = index(
        [
            {"schema": ["unhashable"], "name": "x"},
            {"schema": {"a": 1}},
            "not a mapping",
            {"schema": "olm.bundle", "package": "p"},
            {"schema": "olm.channel", "package": "p", "name": "c", "entries": [{"name": 7}, 3]},
            {"schema": "olm.package", "name": "p", "defaultChannel": "c"},
        ]
    )
    assert [f.message.split(";")[0] for f in catalog.findings] == [
        "test: line 4: olm.bundle document without name"
    ]
    channel = catalog.packages["p"].channels["c"]
    assert [entry.name for entry in channel.entries] == ["7"]


@pytest.mark.parametrize(
    "line",
    [
        b'{"schema":"olm.bundle","name":"caf\\u00e9 \xc3\xa9 \\"q\\"","x":[1,2.5,true,null]}',
        b'{"a":1} ',
        b'{"a":1}\r',
        b'{"a":1} {"b":2}',
        b'{"a":"\xff"}',
        b'{"a":"\xed\xa0\x80"}',
        b'{"a":"\x01"}',
        b'{"a":',
        b' {"a":1}',
        b"\xef\xbb\xbf" + b'{"a":1}',
        '{"a":"\u00e9"}'.encode("utf-16-le"),
        '{"a":"\u00e9"}'.encode("utf-16"),
        b"[1,2]",
        b'{"a":NaN,"b":-Infinity}',
        b'{"a":123456789012345678901234567890,"b":-9223372036854775809}',
        b'{"a":"\\ud800"}',
        b'{"a":1e400}',
    ],
)
def test_catalogd_line_decodes_as_json_loads_would(line: bytes) -> None:
    """The live index decodes with msgspec and falls back to ``json.loads`` for what msgspec
    refuses: same value, or the same error text in the finding."""
    catalog = Catalog("test", "test")
    try:
        expected: Any = json.loads(line)
    except ValueError as exc:
        expected = f"test: line 1: not JSON ({exc})"
    got = catalogd._decode(line, catalog, "test", 1)
    if isinstance(expected, str) and got is None:
        assert [f.message.split("; skipped")[0] for f in catalog.findings] == [expected]
    else:
        assert got == expected
        assert catalog.findings == []
