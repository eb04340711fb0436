"""The resolver's inputs: catalog entries (R-RES-6) and the ``@existing`` catalog (R-RES-7,
R-RES-21). Objects are built inline, shaped as OLM writes them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from model_builders import csv

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.resolution.channel_order import ResolutionError, sort_channel
from olmtui.model.rules.resolution.entries import (
    CatalogKey,
    Entry,
    catalog_entries,
    decode,
    parse_tolerant,
)
from olmtui.model.rules.resolution.existing import SourceError, existing_entries
from olmtui.model.rules.resolution.predicates import Gvk, dependency_predicates
from olmtui.model.rules.resolution.predicates import Package as PackagePredicate
from olmtui.sources.catalog.fbc import load_fbc


def _csv(name: str, phase: str = "Succeeded", replaces: str | None = None, **spec: Any) -> dict:
    return csv("ns", name, bare=True, phase=phase, reason=None, replaces=replaces, spec=spec)


def test_parse_tolerant() -> None:
    assert str(parse_tolerant("v1.2")) == "1.2.0"
    assert str(parse_tolerant(" 01.02.3 ")) == "1.2.3"
    assert parse_tolerant("1.2-rc") is None
    assert parse_tolerant(None) is None


def test_entries_one_per_channel_membership_and_ensure_package_property() -> None:
    package = Package(
        "a",
        default_channel="stable",
        channels={
            "alpha": Channel("a", "alpha", (ChannelEntry("a.v1"), ChannelEntry("missing"))),
            "stable": Channel("a", "stable", (ChannelEntry("a.v1", skip_range="not a range"),)),
        },
        bundles={"a.v1": Bundle("a.v1", "a", version="v1.0")},
    )
    catalog = Catalog(ref="ns/cat", origin="test", packages={"a": package})
    entries = list(catalog_entries(catalog, CatalogKey("cat", "ns")))
    assert [e.id for e in entries] == ["cat/ns/alpha/a.v1", "cat/ns/stable/a.v1"]
    assert [e.default_channel for e in entries] == [False, True]
    assert entries[0].properties == (("olm.package", '{"packageName":"a","version":"v1.0"}'),)
    assert str(entries[0].version) == "1.0.0"
    assert entries[1].skip_range is None


def test_existing_derives_properties_and_skips_copies() -> None:
    owned = {"owned": [{"name": "ks.g", "version": "v", "kind": "K"}]}
    csv = _csv("a.v1", customresourcedefinitions=owned)
    copy = _csv("b.v1")
    copy["metadata"]["labels"] = {"olm.copiedFrom": "other"}
    sub = {"spec": {"name": "a"}, "status": {"installedCSV": "a.v1"}}
    [entry] = existing_entries("ns", [csv, copy], [sub], fail_forward=False)
    assert entry.id == "@existing/ns//a.v1"
    assert entry.referenced and entry.package == "a"
    assert entry.properties == (
        ("olm.gvk", '{"group":"g","kind":"K","version":"v"}'),
        ("olm.package", '{"packageName":"a","version":"1.0.0"}'),
    )


def test_existing_crd_name_without_dot_is_a_source_error() -> None:
    csv = _csv("a.v1", customresourcedefinitions={"owned": [{"name": "bad", "kind": "K"}]})
    with pytest.raises(SourceError, match="error parsing crd name: bad"):
        existing_entries("ns", [csv], [], fail_forward=False)


def test_fail_forward_drops_replacing_csv_whose_chain_ends_in_failure() -> None:
    csvs = [_csv("a.v1", "Replacing"), _csv("a.v2", "Failed", replaces="a.v1")]
    names = [e.name for e in existing_entries("ns", csvs, [], fail_forward=True)]
    assert names == ["a.v2"]
    assert [e.name for e in existing_entries("ns", csvs, [], fail_forward=False)] == [
        "a.v1",
        "a.v2",
    ]


def test_fail_forward_walk_requires_replacing_phase() -> None:
    csvs = [_csv("a.v1", "Succeeded"), _csv("a.v2", "Failed", replaces="a.v1")]
    with pytest.raises(
        SourceError, match=re.escape("csv ns/a.v1 in phase Succeeded instead of Replacing")
    ):
        existing_entries("ns", csvs, [], fail_forward=True)


def _e(name: str, replaces: str = "", skips: tuple[str, ...] = ()) -> Entry:
    return Entry(name, "p", "c", CatalogKey("cat", "ns"), replaces=replaces, skips=skips)


def test_sort_channel_follows_replaces_and_drops_skipped() -> None:
    entries = [_e("a.v1"), _e("a.v2", "a.v1"), _e("a.v3", "a.v2", ("a.v2",))]
    assert [e.name for e in sort_channel(entries)] == ["a.v3", "a.v1"]


def test_sort_channel_no_heads() -> None:
    with pytest.raises(ResolutionError) as err:
        sort_channel([_e("a", "b"), _e("b", "a")])
    assert str(err.value) == (
        'no channel heads (entries not replaced by another entry) found in channel "c" of '
        'package "p"'
    )


def test_sort_channel_multiple_heads() -> None:
    with pytest.raises(ResolutionError) as err:
        sort_channel([_e("a.v1"), _e("a.v2", "a.v1"), _e("b.v1")])
    assert str(err.value) == (
        "a unique replacement chain within a channel is required to determine the relative "
        "order between channel entries, but 2 replacement chains were found in channel "
        '"c" of package "p": a.v2...a.v1, b.v1'
    )


def test_sort_channel_cycle() -> None:
    # Head h replaces x, x replaces y, y replaces x: a cycle below the head.
    with pytest.raises(ResolutionError) as err:
        sort_channel([_e("h", "x"), _e("x", "y"), _e("y", "x")])
    assert str(err.value) == (
        'a cycle exists in the chain of replacement beginning with "h" in channel "c" of '
        'package "p"'
    )


def _with(*props: tuple[str, str]) -> Entry:
    return Entry("b.v1", "b", "c", CatalogKey("cat", "ns"), properties=props, values=decode(props))


def test_dependency_predicate_texts() -> None:
    entry = _with(
        ("olm.gvk.required", '{"group":"g","version":"v","kind":"K"}'),
        ("olm.package.required", '{"packageName":"p","versionRange":">=1.0.0 <2.0.0"}'),
        (
            "olm.constraint",
            '{"not":{"constraints":[{"gvk":{"group":"g","version":"v","kind":"K"}},'
            '{"package":{"packageName":"q","versionRange":"1.0.1"}}]}}',
        ),
    )
    assert [str(p) for p in dependency_predicates(entry)] == [
        "providing an API with group: g, version: v, kind: K",
        "with package: p and with version in range: >=1.0.0 <2.0.0",
        "providing an API with group: g, version: v, kind: K and not with package: q and with "
        "version in range: 1.0.1",
    ]


def test_constraint_unknown_key_and_empty() -> None:
    with pytest.raises(ResolutionError, match='json: unknown field "bogus"'):
        dependency_predicates(_with(("olm.constraint", '{"bogus":{}}')))
    with pytest.raises(ResolutionError, match="constraint is empty"):
        dependency_predicates(_with(("olm.constraint", '{"failureMessage":"x"}')))


def test_fbc_bundle_properties_kept_in_file_order(tmp_path: Path) -> None:
    doc = {
        "schema": "olm.bundle",
        "name": "a.v1",
        "package": "a",
        "properties": [
            {"type": "olm.gvk", "value": {"group": "g", "kind": "K", "version": "v"}},
            {"type": "olm.bundle.object", "value": {"data": "e30="}},
            {"type": "olm.package", "value": {"packageName": "a", "version": "1.0.0"}},
        ],
    }
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(doc))
    catalog = Catalog(ref="ns/cat", origin="test")
    load_fbc([path], catalog)
    assert catalog.packages["a"].bundles["a.v1"].properties == (
        ("olm.gvk", '{"group":"g","kind":"K","version":"v"}'),
        ("olm.package", '{"packageName":"a","version":"1.0.0"}'),
    )


def test_an_absent_gvk_field_matches_an_empty_one_as_in_olm() -> None:
    """R-RES-11.2: OLM decodes properties into Go structs, where an absent field is "":
    a core-group API (no ``group`` written) satisfies a requirement of group "" (and the
    predicate agrees with the index dependencies are looked up in)."""
    provider = _with(("olm.gvk", '{"kind":"Secret","version":"v1"}'))
    assert Gvk("", "v1", "Secret").test(provider)
    assert not Gvk("x", "v1", "Secret").test(provider)
    assert PackagePredicate("").test(_with(("olm.package", '{"version":"1.0.0"}')))
