"""catalogd's ``all`` stream read through the typed bundle decoding
makes exactly the Catalog the plain reading makes (each line ``json.loads``-ed and handed
to ``FBCIndexer.add``): on every FBC in tests/data/catalogs, on the bench's generated
catalog, and on bundle lines mutated with the traps of skipped parts (duplicate keys,
non-ASCII text, integers past Python's digit limit, NaN, odd property shapes)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA, FBC_FILES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olmtui.model.records.catalog import Catalog
from olmtui.sources.catalog import fbc_typed
from olmtui.sources.catalog.catalogd import index_lines
from olmtui.sources.catalog.fbc import FBCIndexer
from olmtui.sources.catalog.files import read_documents, unreadable

sys.path.insert(0, str(ROOT / "bench"))
from bench_catalogd_index import generate

CATALOGS = DATA / "catalogs"
BENCH_LINES = generate(400, 0.3)
LIMIT = sys.get_int_max_str_digits()


def plain(lines: list[bytes]) -> Catalog:
    """The reference: every line decoded whole by ``json.loads``."""
    catalog = Catalog("test", "test")
    indexer = FBCIndexer(catalog, Path("test"))
    for number, line in enumerate(lines, 1):
        try:
            doc = json.loads(line)
        except ValueError as exc:
            catalog.findings.append(unreadable(Path("test"), f"line {number}: not JSON ({exc})"))
            doc = None
        indexer.add(doc)
    indexer.finish()
    return catalog


def streamed(lines: list[bytes]) -> Catalog:
    """What the live source makes of the same lines (typed bundle decoding first)."""

    async def reads() -> AsyncIterator[bytes]:
        yield b"\n".join(lines) + b"\n"

    catalog = Catalog("test", "test")
    asyncio.run(index_lines(reads(), catalog, "test"))
    return catalog


def typed_taken(lines: list[bytes]) -> int:
    """How many of ``lines`` the typed decoding takes."""
    indexer = FBCIndexer(Catalog("test", "test"), Path("test"))
    return sum(indexer.add_line(line) for line in lines)


def assert_same(lines: list[bytes]) -> None:
    expected, found = plain(lines), streamed(lines)
    assert found.findings == expected.findings
    assert found.packages.keys() == expected.packages.keys()
    for name, package in expected.packages.items():
        assert found.packages[name] == package, name
    assert found == expected


def json_lines(path: Path) -> list[bytes]:
    docs = [doc for _, doc in read_documents(path, [])]
    return [json.dumps(doc, separators=(",", ":"), default=str).encode() for doc in docs]


def test_real_catalogs_are_in_the_data() -> None:
    assert len(FBC_FILES) >= 4


@pytest.mark.parametrize("path", FBC_FILES, ids=lambda p: str(p.relative_to(CATALOGS)))
def test_real_catalogs_index_as_the_plain_reading(path: Path) -> None:
    lines = json_lines(path)
    assert_same(lines)
    assert_same([json.dumps(json.loads(line)).encode() for line in lines])  # with spaces


def test_bench_catalog_indexes_as_the_plain_reading_through_the_typed_path() -> None:
    assert_same(BENCH_LINES)
    bundles = sum(b'"schema":"olm.bundle"' in line for line in BENCH_LINES)
    assert typed_taken(BENCH_LINES) == bundles == 400


BASE: dict[str, Any] = {
    "schema": "olm.bundle",
    "name": "op.v1.0.0",
    "package": "op",
    "image": "quay.io/op@sha256:00",
    "properties": [
        {"type": "olm.gvk", "value": {"group": "g.io", "kind": "K", "version": "v1"}},
        {"type": "olm.package", "value": {"packageName": "op", "version": "1.0.0"}},
        {"type": "olm.gvk.required", "value": {"group": "d.io", "kind": "D", "version": "v1"}},
        {"type": "olm.package.required", "value": {"packageName": "dep", "versionRange": ">=1"}},
        {
            "type": "olm.csv.metadata",
            "value": {
                "description": "text",
                "installModes": [
                    {"type": "OwnNamespace", "supported": True},
                    {"type": "AllNamespaces", "supported": True},
                ],
            },
        },
        {"type": "olm.maxOpenShiftVersion", "value": "4.15"},
    ],
    "relatedImages": [{"name": "", "image": "quay.io/op@sha256:00"}],
}
PACKAGE = b'{"schema":"olm.package","name":"op","defaultChannel":"stable"}'
CHANNEL = (
    b'{"schema":"olm.channel","package":"op","name":"stable","entries":[{"name":"op.v1.0.0"}]}'
)

#: Texts put in place of a JSON value: the traps of the parts msgspec skips, and odd values.
ODD_VALUES = [
    "1" * (LIMIT + 1),
    "-" + "2" * (LIMIT + 5),
    "0." + "3" * (LIMIT + 1),
    "1" * 30,
    "NaN",
    "-Infinity",
    "1e999",
    '"caf\u00e9"',
    '"\\u00e9\\ud800"',
    '"\\ud83d\\ude80"',
    '"\\/\\"\\\\\\b"',
    '"tab\there"',
    "null",
    "[]",
    '[1,{"a":null}]',
    "{}",
    '{"group":"g.io","kind":"K","version":"v1","version":"v2"}',
    '{"group":1,"kind":true,"version":null}',
    '{"packageName":"op","version":"2.0.0"}',
    '{"installModes":{"type":"OwnNamespace"}}',
    '{"installModes":[1,"x"]}',
    '{"installModes":[{"type":"OwnNamespace","supported":true}],"installModes":null}',
    '{"data":"e30="}',
    '"olm.gvk"',
    '["olm.gvk"]',
    "true",
]
ODD_BYTES = [b"\xff", b"\xc3\xa9", b"\xed\xa0\x80", b"\x00", b" ", b"\t", b"}", b'"']


def place(doc: Any, path: list[int], marker: str) -> Any:
    """``doc`` with the value reached by following ``path`` (indices taken modulo the
    size of each level) replaced by ``marker``."""
    if not path or not isinstance(doc, dict | list) or not doc:
        return marker
    if isinstance(doc, dict):
        key = list(doc)[path[0] % len(doc)]
        return {**doc, key: place(doc[key], path[1:], marker)}
    index = path[0] % len(doc)
    return [*doc[:index], place(doc[index], path[1:], marker), *doc[index + 1 :]]


@st.composite
def mutated_lines(draw: st.DrawFn) -> bytes:
    """A bundle line with a few of the traps put in: odd values at random places, extra or
    duplicate keys, removed keys, and raw bytes edited."""
    doc: Any = json.loads(json.dumps(BASE))
    markers: dict[str, str] = {}
    for _ in range(draw(st.integers(0, 3))):
        marker = f"@@{len(markers)}@@"
        markers[marker] = draw(st.sampled_from(ODD_VALUES))
        path = draw(st.lists(st.integers(0, 9), max_size=5))
        if draw(st.booleans()):
            doc = place(doc, path, marker)
        else:  # a new key (perhaps a duplicate written after the first) at that object
            key = draw(st.sampled_from(["x", "schema", "name", "package", "type", "value"]))
            doc = add_key(doc, path, key, marker)
    text = json.dumps(doc, separators=(",", ":"))
    if draw(st.booleans()):
        text = text.replace('"name":', '"name":"first","name":', 1)
    if draw(st.booleans()):
        text = text.replace('"value":', draw(st.sampled_from(['"value":1,"value":', '"v":'])), 1)
    for marker, value in markers.items():
        text = text.replace(f'"{marker}"', value)
    line = text.encode()
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(line)))
        line = line[:at] + draw(st.sampled_from(ODD_BYTES)) + line[at:]
    return line


def add_key(doc: Any, path: list[int], key: str, marker: str) -> Any:
    """``doc`` with ``key: marker`` added to the object ``path`` reaches (or the document)."""
    if isinstance(doc, dict) and (not path or not doc):
        return {**doc, key: marker}
    if isinstance(doc, dict | list) and doc and path:
        keys = list(doc) if isinstance(doc, dict) else list(range(len(doc)))
        at = keys[path[0] % len(keys)]
        inner = add_key(doc[at], path[1:], key, marker)
        if isinstance(doc, dict):
            return {**doc, at: inner}
        return [*doc[:at], inner, *doc[at + 1 :]]
    return doc


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_lines())
def test_mutated_bundle_lines_index_as_the_plain_reading(line: bytes) -> None:
    if b"\n" in line or not line.strip():
        return
    assert_same([PACKAGE, CHANNEL, line, json.dumps(BASE).encode()])


def test_the_base_line_goes_the_typed_way() -> None:
    assert typed_taken([json.dumps(BASE).encode(), json.dumps(BASE, indent=1).encode()]) == 2
    assert typed_taken([PACKAGE, CHANNEL]) == 0


@pytest.mark.parametrize(
    "line",
    [
        json.dumps({**BASE, "x": "caf\u00e9"}, ensure_ascii=False).encode(),
        json.dumps(BASE).encode().replace(b'"text"', b'"\xff"'),
        json.dumps(BASE).encode().replace(b'"text"', b"1" * (LIMIT + 1)),
        json.dumps(BASE).encode().replace(b'"text"', b"NaN"),
        json.dumps({**BASE, "properties": {}}).encode(),
        json.dumps({**BASE, "properties": [1]}).encode(),
        json.dumps({**BASE, "name": ""}).encode(),
    ],
)
def test_lines_of_the_traps_go_the_plain_way(line: bytes) -> None:
    assert typed_taken([line]) == 0
    assert_same([line])


@given(st.integers(LIMIT + 1, 3 * LIMIT), st.integers(0, 3 * LIMIT), st.integers(0, 3 * LIMIT))
def test_every_run_past_the_digit_limit_is_seen(run: int, before: int, after: int) -> None:
    line = b"a" * before + b"7" * run + b"b" * after
    assert fbc_typed._long_digits(line)  # a false alarm only sends a line the plain way
