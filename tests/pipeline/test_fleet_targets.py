"""A fleet's targets (``check --fleet``): a folder of must-gathers is one target each, found
by the loader's own must-gather detection; a targets file's lines; unique names; a target
that cannot be named well is kept, with why (R-FLT-1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from model_builders import namespace
from snapshot_files import yaml_documents

from olmtui.apiserver.kubeconfig import kubeconfig
from olmtui.errors import UsageError
from olmtui.pipeline.fleet_targets import (
    Target,
    TargetSpec,
    fleet_targets,
    path_targets,
    unique_names,
)


def _gather(root: Path) -> Path:
    (root / "namespaces" / "ops").mkdir(parents=True)
    (root / "namespaces" / "ops" / "ns.yaml").write_text(yaml_documents([namespace("ops")]))
    return root


def _kubeconfig(path: Path, *contexts: str) -> Path:
    document = kubeconfig("http://127.0.0.1:1", context=contexts[0])
    document["contexts"] = [
        {"name": c, "context": {"cluster": contexts[0], "user": "olmtui-test"}} for c in contexts
    ]
    path.write_text(yaml_documents([document]))
    return path


def test_a_folder_of_must_gathers_is_a_target_each(tmp_path: Path) -> None:
    _gather(tmp_path / "gathers" / "one")
    _gather(tmp_path / "gathers" / "two" / "quay-io-olm-must-gather-sha256-0abc")
    (tmp_path / "gathers" / "two" / "timestamp").write_text("now\n")
    found = path_targets(str(tmp_path / "gathers"))
    assert [(t.name, t.paths) for t in found] == [
        ("one", (str(tmp_path / "gathers" / "one"),)),
        ("two", (str(tmp_path / "gathers" / "two"),)),
    ]


def test_one_must_gather_a_file_or_a_tarball_is_one_target(tmp_path: Path) -> None:
    one = _gather(tmp_path / "one")
    assert [t.name for t in path_targets(str(one))] == ["one"]
    archive = tmp_path / "customer-42.tar.gz"
    archive.write_bytes(b"")
    assert [t.name for t in path_targets(str(archive))] == ["customer-42"]
    missing = path_targets(str(tmp_path / "nope"))[0]
    assert missing.problem and "no such file" in missing.problem


def test_a_folder_of_tarballs_is_a_target_each(tmp_path: Path) -> None:
    for name in ("a.tar.gz", "b.tgz"):
        (tmp_path / name).write_bytes(b"")
    assert [t.name for t in path_targets(str(tmp_path))] == ["a", "b"]


def test_the_targets_file_lines(tmp_path: Path) -> None:
    config = _kubeconfig(tmp_path / "hub.kubeconfig", "hub", "spoke-1")
    _gather(tmp_path / "mg")
    listed = tmp_path / "targets.txt"
    listed.write_text(
        "# from: oc get managedclusters -o name\n"
        "\n"
        "context:spoke-1   # a spoke\n"
        "kubeconfig:hub.kubeconfig\n"
        "kubeconfig:hub.kubeconfig#spoke-1\n"
        "mg\n"
    )
    found = fleet_targets(TargetSpec(targets_file=str(listed), kubeconfigs=(str(config),)))
    # the --kubeconfig file's current context first; the same cluster named again is read once
    assert [(t.name, t.kind, t.context) for t in found] == [
        ("hub", "live", "hub"),
        ("spoke-1", "live", "spoke-1"),
        ("mg", "snapshot", None),
    ]
    assert found[1].kubeconfig == str(config)


def test_all_contexts_of_each_kubeconfig_and_an_unreadable_one_kept(tmp_path: Path) -> None:
    first = _kubeconfig(tmp_path / "a.kubeconfig", "prod", "stage")
    broken = tmp_path / "b.kubeconfig"
    broken.write_text("{not: [yaml")
    found = fleet_targets(TargetSpec(all_contexts=True, kubeconfigs=(str(first), str(broken))))
    assert [t.name for t in found] == ["prod", "stage", "b.kubeconfig"]
    assert found[2].problem


def test_names_are_made_unique_without_taking_a_given_name() -> None:
    targets = [
        Target("x", "live", context="1"),
        Target("x-2", "live", context="2"),
        Target("x", "live", context="3"),
    ]
    assert [t.name for t in unique_names(targets)] == ["x", "x-2", "x-3"]


def test_nothing_named_or_an_unreadable_targets_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--fleet needs targets"):
        fleet_targets(TargetSpec())
    with pytest.raises(UsageError, match="cannot read targets file"):
        fleet_targets(TargetSpec(targets_file=str(tmp_path / "none.txt")))


def test_each_cluster_of_a_folder_is_named_by_the_entry_holding_it(tmp_path: Path) -> None:
    _gather(tmp_path / "case-1" / "must-gather.local.1" / "quay-io-mg-sha256-0a")
    _gather(tmp_path / "case-2" / "must-gather.local.1" / "quay-io-mg-sha256-0a")
    _gather(tmp_path / "case-3" / "east")
    _gather(tmp_path / "case-3" / "west")
    found = path_targets(str(tmp_path))
    assert [t.name for t in found] == ["case-1", "case-2", "case-3/east", "case-3/west"]
    assert found[0].paths == (str(tmp_path / "case-1" / "must-gather.local.1"),)
