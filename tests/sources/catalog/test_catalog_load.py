"""``--catalog [NAMESPACE/NAME=|NAME=]PATH``: the spec, the choice of format, bad paths, and every
real catalog in tests/data/catalogs loading without a crash."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.errors import UsageError
from olmtui.sources.catalog.catalogs import load_catalog, parse_catalog_spec

CATALOGS = DATA / "catalogs"
PROD_ROOT = CATALOGS / "community-operators-prod"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("olm/community=/tmp/cat", ("olm/community", Path("/tmp/cat"))),
        (
            "openshift-marketplace/redhat-operators=cat.json",
            ("openshift-marketplace/redhat-operators", Path("cat.json")),
        ),
        ("/tmp/cat", (None, Path("/tmp/cat"))),
        ("dir/with=sign.yaml", ("dir/with", Path("sign.yaml"))),
        ("./dir/with=sign.yaml", (None, Path("./dir/with=sign.yaml"))),
        ("Upper/Case=x", (None, Path("Upper/Case=x"))),
        # R-V1-22: NAME=PATH binds a ClusterCatalog; what is no DNS-1123 name stays a path.
        ("a=b", ("a", Path("b"))),
        ("operatorhubio=/tmp/cat.jsonl", ("operatorhubio", Path("/tmp/cat.jsonl"))),
        ("my.catalog=dir/x=y.yaml", ("my.catalog", Path("dir/x=y.yaml"))),
        ("Upper=x", (None, Path("Upper=x"))),
        ("C:\\cats\\a=b.yaml", (None, Path("C:\\cats\\a=b.yaml"))),
        ("c:/cats=b.yaml", (None, Path("c:/cats=b.yaml"))),
        ("-a=b", (None, Path("-a=b"))),
        ("a.=b", (None, Path("a.=b"))),
    ],
)
def test_parse_catalog_spec(spec: str, expected: tuple) -> None:
    assert parse_catalog_spec(spec) == expected


@pytest.mark.parametrize("spec", ["olm/community=", "operatorhubio="])
def test_parse_catalog_spec_without_path_is_a_usage_error(spec: str) -> None:
    with pytest.raises(UsageError):
        parse_catalog_spec(spec)


def test_r_v1_22_an_existing_file_named_name_eq_path_is_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file called ``a=b`` given as is stays that file; ``a=other`` still binds."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a=b").write_text("")
    assert parse_catalog_spec("a=b") == (None, Path("a=b"))
    assert parse_catalog_spec("a=other") == ("a", Path("other"))


def test_r_v1_22_name_eq_path_loads_content_for_the_cluster_catalog() -> None:
    catalog = load_catalog(f"operatorhubio={DATA / 'v1-resolution' / 'gen-package'}")
    assert catalog.ref == "operatorhubio"
    assert catalog.for_cluster_catalog
    assert "foo" in catalog.packages


def test_missing_path_is_a_one_line_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as error:
        load_catalog(str(tmp_path / "nope"))
    assert "no such file or directory" in str(error.value)
    assert "\n" not in str(error.value)


def test_path_without_catalog_content_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.yaml").write_text("hello: world\n")
    with pytest.raises(UsageError, match="no catalog content"):
        load_catalog(str(tmp_path))


def test_catalog_ref_and_origin_from_the_spec() -> None:
    path = CATALOGS / "cluster-kube-descheduler-operator" / "v4.20"
    catalog = load_catalog(f"openshift-marketplace/redhat-operators={path}")
    assert (catalog.ref, catalog.origin, catalog.graph) == (
        "openshift-marketplace/redhat-operators",
        str(path),
        "catalog",
    )
    assert load_catalog(str(path)).ref is None


def test_repo_root_with_operators_and_catalogs_reads_the_bundle_format_only() -> None:
    catalog = load_catalog(str(PROD_ROOT))
    # opendatahub exists only as an FBC under catalogs/: not read from the root.
    assert "opendatahub-operator" not in catalog.packages
    assert len(catalog.packages) == 10
    # infinispan as bundle format: all 73 bundles, not the 49 of the v4.20 FBC.
    assert len(catalog.packages["infinispan"].bundles) == 73


def test_package_manifest_beside_bundle_directories_is_ignored(tmp_path: Path) -> None:
    shutil.copytree(PROD_ROOT / "operators" / "etcd", tmp_path / "etcd")
    (tmp_path / "etcd" / "etcd.package.yaml").write_text(
        "packageName: etcd\nchannels:\n- name: only\n  currentCSV: etcdoperator.v0.9.0\n"
    )
    catalog = load_catalog(str(tmp_path))
    assert sorted(catalog.packages["etcd"].channels) == [
        "alpha",
        "clusterwide-alpha",
        "singlenamespace-alpha",
    ]


def test_path_into_catalogs_is_fbc() -> None:
    catalog = load_catalog(str(PROD_ROOT / "catalogs" / "v4.20" / "infinispan"))
    assert len(catalog.packages["infinispan"].bundles) == 49


def _catalog_paths() -> list[Path]:
    """Every package directory, FBC directory, FBC file and OLM fixture in tests/data."""
    paths = sorted(p for p in (PROD_ROOT / "operators").iterdir() if p.is_dir())
    paths += sorted((PROD_ROOT / "catalogs" / "v4.20").iterdir())
    paths += sorted(
        p for p in (CATALOGS / "community-operators" / "upstream-community-operators").iterdir()
    )
    paths += sorted((CATALOGS / "cluster-kube-descheduler-operator").glob("v*/catalog/*/*.json"))
    paths += sorted((CATALOGS / "operator-lifecycle-manager").rglob("*.yaml"))
    return paths


@pytest.mark.parametrize("path", _catalog_paths(), ids=lambda p: str(p.relative_to(CATALOGS)))
def test_every_real_catalog_loads_without_findings(path: Path) -> None:
    catalog = load_catalog(str(path))
    assert catalog.packages
    assert catalog.findings == []
    for package in catalog.packages.values():
        assert package.channels
        for channel in package.channels.values():
            assert channel.entries


def test_whole_data_directory_loads() -> None:
    catalog = load_catalog(str(CATALOGS))
    assert {"etcd", "keycloak-operator", "strimzi-kafka-operator"} <= set(catalog.packages)


def test_r_v1_22_a_saved_catalogd_all_body_in_a_directory_loads(tmp_path: Path) -> None:
    """catalogd's ``/api/v1/all`` is JSON Lines; saved as ``all.jsonl`` in a directory it is
    catalog content like ``opm render``'s output."""
    lines = [
        '{"schema":"olm.package","name":"p","defaultChannel":"stable"}',
        '{"schema":"olm.channel","package":"p","name":"stable","entries":[{"name":"p.v1"}]}',
        '{"schema":"olm.bundle","name":"p.v1","package":"p","properties":'
        '[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}',
    ]
    (tmp_path / "all.jsonl").write_text("\n".join(lines) + "\n")
    catalog = load_catalog(f"operatorhubio={tmp_path}")
    assert catalog.ref == "operatorhubio"
    assert list(catalog.packages["p"].bundles) == ["p.v1"]
