"""Wrong-typed fields become a ``MalformedObject`` finding at the cache (R-SRC-4): the field is
read as absent, the object is still used, and the finding says which object, which field, what
was expected and found, and where the object came from."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

import yaml
from model_builders import csv as make_csv
from model_builders import namespace, operator_group

from olmtui.cli import main
from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.shape import Problem, clean, clean_envelope, describe
from olmtui.store import Key, Store


def _csv(**spec: Any) -> dict[str, Any]:
    obj = make_csv("team-a", "etcd.v1")
    obj.setdefault("spec", {}).update(spec)
    return obj


def test_a_well_typed_object_comes_back_as_the_very_same_object() -> None:
    obj = _csv(version="1.0.0")
    out: list[Problem] = []
    assert clean_envelope(obj, out) is obj
    assert clean("ClusterServiceVersion", obj, out) is obj
    assert out == []


def test_a_wrong_field_is_removed_from_a_copy_and_the_input_is_left_alone() -> None:
    obj = _csv(version=5, installModes=[{"type": "OwnNamespace", "supported": True}, 7])
    before = copy.deepcopy(obj)
    out: list[Problem] = []
    cleaned = clean("ClusterServiceVersion", obj, out)
    assert obj == before
    assert "version" not in cleaned["spec"]
    assert cleaned["spec"]["installModes"] == [{"type": "OwnNamespace", "supported": True}]
    assert out == [
        Problem("spec.version", "a string", "a number (5)"),
        Problem("spec.installModes[1]", "a map", "a number (7)"),
    ]


def test_null_is_absent_without_a_problem() -> None:
    out: list[Problem] = []
    cleaned = clean("ClusterServiceVersion", _csv(version=None, replaces=None), out)
    assert "version" not in cleaned["spec"] and "replaces" not in cleaned["spec"]
    assert out == []


def test_an_integer_past_64_bits_is_named_by_its_size() -> None:
    out: list[Problem] = []
    obj = {"kind": "Deployment", "metadata": {"name": "d"}, "spec": {"replicas": 10**30}}
    assert "replicas" not in clean("Deployment", obj, out)["spec"]
    assert out == [
        Problem("spec.replicas", "an integer of at most 64 bits", "an integer of about 31 digits")
    ]
    assert describe(10**5000) == "an integer of about 5001 digits"


def test_unquoted_yaml_scalars_in_annotations_the_model_does_not_parse_are_kept() -> None:
    """An unquoted ``createdAt`` is a datetime to the YAML loader: no alarm for that."""
    obj = yaml.safe_load(
        "kind: Namespace\nmetadata:\n  name: a\n  annotations:\n"
        "    createdAt: 2021-01-01T00:00:00Z\n    olm.providedAPIs: 5\n"
    )
    out: list[Problem] = []
    cleaned = clean_envelope(obj, out)
    assert "createdAt" in cleaned["metadata"]["annotations"]
    assert "olm.providedAPIs" not in cleaned["metadata"]["annotations"]
    assert [p.path for p in out] == ["metadata.annotations['olm.providedAPIs']"]


def test_the_store_keeps_the_object_without_the_field_and_records_it_live() -> None:
    store = Store()
    store.apply("ADDED", _csv(version=5))
    cached = store.get("ClusterServiceVersion", "team-a", "etcd.v1")
    assert cached is not None and "version" not in cached["spec"]
    record = store.malformed[Key("ClusterServiceVersion", "team-a", "etcd.v1")]
    assert record.origin == "live"
    # set right again: the record goes, and so does the finding
    store.apply("MODIFIED", _csv(version="1.0.0"))
    assert store.malformed == {}


def test_a_change_of_the_wrong_value_alone_is_published() -> None:
    """5 and [] both read as absent: the cached object does not move, the finding does."""
    store = Store()
    store.apply("ADDED", _csv(version=5))
    change = store.apply("MODIFIED", _csv(version=[]))
    assert change is not None and change.old is change.new
    assert store.malformed[change.key].problems[0].found == "a list"


def test_objects_without_a_usable_name_or_kind_are_not_cached() -> None:
    store = Store()
    assert store.apply("ADDED", {"kind": "Namespace", "metadata": {"name": 5}}) is None
    assert store.apply("ADDED", {"kind": ["Namespace"], "metadata": {"name": "a"}}) is None
    assert store.apply("ADDED", 5) is None  # type: ignore[arg-type]
    assert store.apply("DELETED", {"kind": "Namespace", "metadata": 5}) is None
    assert store.apply_many([{"kind": {"a": 1}}, 7]) == []  # type: ignore[list-item]
    assert store.replace("Namespace", [{"kind": "Namespace", "metadata": {}}]) == []
    assert len(store) == 0


def test_the_finding_names_object_field_types_and_live_reference() -> None:
    store = Store()
    store.apply_many([namespace("team-a"), operator_group("team-a", "og")])
    store.apply("ADDED", _csv(version=5, replaces={"a": 1}))
    model = Model(store)
    found = [f for f in health_findings(store) if f.code == "MalformedObject"]
    assert len(found) == 1
    finding = found[0]
    assert (finding.severity, finding.kind, finding.namespace, finding.name, finding.rule) == (
        "warning",
        "ClusterServiceVersion",
        "team-a",
        "etcd.v1",
        "R-SRC-4",
    )
    assert "served live as ClusterServiceVersion team-a/etcd.v1" in finding.message
    assert "spec.version is a number (5), expected a string" in finding.message
    assert "spec.replaces is a map, expected a string" in finding.message
    index = HealthIndex(store, model, list)
    assert finding in index.findings()
    store.apply("MODIFIED", _csv(version="1.0.0"))
    assert not [f for f in index.findings() if f.code == "MalformedObject"]


def _check(path: Path) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", str(path), "--output", "json"])
    return code, json.loads(out.getvalue())


def test_check_names_the_file_and_line_and_exits_on_the_rest(tmp_path: Path) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n---\n"
        "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n"
        "  name: src\n  namespace: team-a\nspec:\n  sourceType: grpc\nstatus:\n"
        "  connectionState: 5\n"
    )
    code, report = _check(snapshot)
    assert code == 0  # a warning: the rest of the snapshot is read
    [finding] = [f for f in report["findings"] if f["code"] == "MalformedObject"]
    assert finding["kind"] == "CatalogSource" and finding["name"] == "src"
    # the line its document starts on (the ``---``), as the loader's other findings say it
    assert f"read from {snapshot} line 5" in finding["message"]
    assert "status.connectionState is a number (5), expected a map" in finding["message"]
