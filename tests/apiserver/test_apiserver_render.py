"""Server-side Table details: printer-column paths and kubectl-style ages."""

from __future__ import annotations

import datetime as dt

import pytest

from olmtui.apiserver.negotiation import Representation, Shape, negotiate
from olmtui.apiserver.render import human_duration, json_path, table
from olmtui.apiserver.resources import by_kind


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (-5, "<invalid>"),
        (-0.5, "0s"),
        (59, "59s"),
        (119, "119s"),
        (150, "2m30s"),
        (600, "10m"),
        (3 * 3600 + 1, "3h"),
        (3 * 3600 + 60, "3h1m"),
        (9 * 3600, "9h"),
        (3 * 86400, "3d"),
        (3 * 86400 + 3600, "3d1h"),
        (100 * 86400, "100d"),
        (800 * 86400, "2y70d"),
        (9 * 365 * 86400, "9y"),
    ],
)
def test_ages_print_like_kubectl(seconds: float, shown: str) -> None:
    assert human_duration(dt.timedelta(seconds=seconds)) == shown


def test_printer_column_paths_follow_fields_and_indexes() -> None:
    plan = {"spec": {"clusterServiceVersionNames": ["a.v1", "b.v1"], "approved": False}}
    assert json_path(plan, ".spec.clusterServiceVersionNames[1]") == "b.v1"
    assert json_path(plan, ".spec.clusterServiceVersionNames[2]") is None
    assert json_path(plan, ".spec.approved") is False
    assert json_path(plan, ".status.phase") is None


def test_catalog_source_table_shows_age_from_creation_timestamp() -> None:
    now = dt.datetime(2021, 9, 16, 15, 30, tzinfo=dt.UTC)
    source = {
        "metadata": {
            "name": "redhat-operators",
            "namespace": "openshift-marketplace",
            "creationTimestamp": "2021-09-13T15:30:00Z",
        },
        "spec": {"displayName": "Red Hat Operators", "sourceType": "grpc", "publisher": "Red Hat"},
    }
    rendered = table(by_kind("CatalogSource"), [source], Representation(Shape.TABLE), {}, now=now)
    assert rendered["rows"][0]["cells"] == [
        "redhat-operators",
        "Red Hat Operators",
        "grpc",
        "Red Hat",
        "3d",
    ]


@pytest.mark.parametrize(
    ("accept", "listing", "shape"),
    [
        (None, True, Shape.OBJECT),
        ("*/*", False, Shape.OBJECT),
        ("application/vnd.kubernetes.protobuf,application/json", True, Shape.OBJECT),
        ("application/json;as=Table;v=v1beta1;g=meta.k8s.io", True, Shape.TABLE),
        ("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", True, Shape.METADATA),
        ("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", False, Shape.METADATA),
        (
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
            True,
            Shape.OBJECT,
        ),
    ],
)
def test_first_supported_accept_entry_wins(accept: str | None, listing: bool, shape: Shape) -> None:
    rep = negotiate(accept, listing=listing)
    assert rep is not None and rep.shape is shape


def test_nothing_acceptable_gives_none() -> None:
    assert negotiate("application/yaml", listing=True) is None
    assert (
        negotiate("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", listing=False)
        is None
    )
