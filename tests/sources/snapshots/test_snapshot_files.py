"""Which files a snapshot path stands for: directories sorted, must-gather roots found and
told apart, archives streamed."""

from __future__ import annotations

import io
import tarfile
from dataclasses import replace
from pathlib import Path

from data_paths import TESTS

from olmtui.sources.snapshots.snapshot_files import (
    SourceFile,
    path_content,
    read_source,
    select_files,
)

DATA = TESTS / "data" / "snapshots"
MUST_GATHER = DATA / "must-gather-mini"
IMAGE = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-415e56a6"


def names(files: list[SourceFile], prefix: str) -> list[str]:
    return [f.name.removeprefix(prefix) for f in files]


def source_files(path: Path, shown: str) -> list[SourceFile]:
    """Each file as read, its bytes in it."""
    read = (read_source(f) for f in path_content(path, shown).files)
    return [replace(source, data=data) for source, data in read]


def tar_of(directory: Path, target: Path, mode: str) -> Path:
    with tarfile.open(target, mode) as tar:
        tar.add(directory, arcname=directory.name)
    return target


def test_select_only_yaml_and_json_sorted_by_path_components() -> None:
    assert select_files(["b/x.json", "a.YML", "notes.txt", "a/z.yaml", "b.tar.gz"]).files == [
        "a/z.yaml",
        "a.YML",
        "b/x.json",
    ]


def test_select_must_gather_root_reads_only_its_resource_trees() -> None:
    paths = [
        "mg/img/namespaces/ns1/ns1.yaml",
        "mg/img/cluster-scoped-resources/g/things/a.yaml",
        "mg/img/monitoring/prometheus/rules.json",
        "mg/img/etcd_info/status.json",
        "mg/timestamp",
        "other/plain.yaml",
    ]
    assert select_files(paths).files == [
        "mg/img/cluster-scoped-resources/g/things/a.yaml",
        "mg/img/namespaces/ns1/ns1.yaml",
        "other/plain.yaml",
    ]


def test_select_image_directories_of_one_must_gather_are_one_must_gather() -> None:
    paths = [
        "mg/quay-io-a-sha256-0a1b/namespaces/ns/ns.yaml",
        "mg/quay-io-b-sha256-2c3d/cluster-scoped-resources/g/p/x.yaml",
        "mg/quay-io-b-sha256-2c3d/version.json",
        "mg/quay-io-a-sha256-0a1b/summary.yaml",
    ]
    selection = select_files(paths)
    assert selection.files == [
        "mg/quay-io-a-sha256-0a1b/namespaces/ns/ns.yaml",
        "mg/quay-io-b-sha256-2c3d/cluster-scoped-resources/g/p/x.yaml",
    ]
    assert selection.must_gathers == ["mg"]


def test_select_roots_beside_the_timestamp_file_are_one_must_gather() -> None:
    paths = ["mg/timestamp", "mg/img-a/namespaces/ns/ns.yaml", "mg/img-b/namespaces/n/n.yaml"]
    assert select_files(paths).must_gathers == ["mg"]


def test_select_names_each_must_gather_of_a_parent_folder() -> None:
    paths = [
        "dumps/aws/quay-io-x-sha256-0a1b/namespaces/ns/ns.yaml",
        "dumps/azure/quay-io-x-sha256-0a1b/namespaces/ns/ns.yaml",
        "dumps/inspect/namespaces/ns/ns.yaml",
        "dumps/inspect/cluster-scoped-resources/g/p/x.yaml",
        "namespaces/ns/ns.yaml",
    ]
    assert select_files(paths).must_gathers == ["", "dumps/aws", "dumps/azure", "dumps/inspect"]


def test_directory_and_archive_name_their_must_gathers_as_the_user_sees_them(
    tmp_path: Path,
) -> None:
    assert path_content(MUST_GATHER, "mg-dir").must_gathers == ["mg-dir"]
    assert path_content(DATA, "snap").must_gathers == ["snap/must-gather-mini"]
    archive = tar_of(MUST_GATHER, tmp_path / "mg.tgz", "w:gz")
    assert path_content(archive, "mg.tgz").must_gathers == ["mg.tgz:must-gather-mini"]
    assert path_content(DATA / "multi.yaml", "multi.yaml").must_gathers == []


def test_select_a_file_named_like_a_tree_is_not_a_root() -> None:
    selection = select_files(["namespaces.yaml", "side.yaml"])
    assert selection.files == ["namespaces.yaml", "side.yaml"]
    assert selection.must_gathers == []


def test_directory_files_from_must_gather_parent_folder() -> None:
    files = list(source_files(MUST_GATHER, str(MUST_GATHER)))
    assert all(f.error is None and f.data for f in files)
    assert names(files, f"{MUST_GATHER}/{IMAGE}/") == [
        "cluster-scoped-resources/operators.coreos.com/operators/"
        "image-caching-operator.cfe-test-namespace.yaml",
        "namespaces/cfe-test-namespace/operators.coreos.com/catalogsources/"
        "image-caching-operator-catalog.yaml",
        "namespaces/cfe-test-namespace/operators.coreos.com/operatorconditions.yaml",
        "namespaces/cfe-test-namespace/operators.coreos.com/operatorgroups/operator-sdk-og.yaml",
        "namespaces/cfe-test-namespace/operators.coreos.com/subscriptions/"
        "image-caching-operator-v0-0-1-sub.yaml",
        "namespaces/default/default.yaml",
        "namespaces/default/operators.coreos.com/clusterserviceversions/"
        "projectrequestlimits.v0.0.1.yaml",
        "namespaces/openshift-operators/operators.coreos.com/operatorgroups/global-operators.yaml",
    ]


def test_json_chosen_by_suffix_in_directories() -> None:
    files = {Path(f.name).name: f for f in source_files(DATA, "snap")}
    assert files["csv-list.json"].json_format
    assert not files["multi.yaml"].json_format
    assert files["csv-list.json"].name == "snap/csv-list.json"


def test_explicit_file_without_known_suffix_sniffed(tmp_path: Path) -> None:
    (tmp_path / "dump").write_bytes(b'  {"kind": "List", "items": []}')
    (tmp_path / "notes").write_bytes(b"kind: List\nitems: []\n")
    [dump] = source_files(tmp_path / "dump", "dump")
    [notes] = source_files(tmp_path / "notes", "notes")
    assert dump.json_format
    assert not notes.json_format


def test_tgz_of_must_gather_streamed_with_member_names(tmp_path: Path) -> None:
    archive = tar_of(MUST_GATHER, tmp_path / "mg.tgz", "w:gz")
    files = source_files(archive, "mg.tgz")
    on_disk = source_files(MUST_GATHER, "must-gather-mini")
    assert [f.name for f in files] == [f"mg.tgz:{f.name}" for f in on_disk]
    assert [f.data for f in files] == [f.data for f in on_disk]


def test_plain_tar_of_a_directory_with_dot_slash_names(tmp_path: Path) -> None:
    archive = tmp_path / "snap.tar"
    with tarfile.open(archive, "w") as tar:
        for name in ("./b.json", "./a.yaml", "./skip.txt"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"{}"))
    files = source_files(archive, "snap.tar")
    assert [(f.name, f.json_format) for f in files] == [
        ("snap.tar:a.yaml", False),
        ("snap.tar:b.json", True),
    ]


def test_truncated_archive_keeps_members_read_and_reports_the_rest(tmp_path: Path) -> None:
    whole = tar_of(MUST_GATHER, tmp_path / "whole.tar", "w").read_bytes()
    cut = tmp_path / "cut.tar"
    cut.write_bytes(whole[: len(whole) // 2])
    files = source_files(cut, "cut.tar")
    assert files[-1].error is not None
    assert files[-1].error.startswith("unreadable archive")
    assert files[-1].name.startswith("cut.tar")
    assert any(f.error is None and f.data for f in files[:-1])


def test_garbage_with_archive_suffix_reported_not_raised(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.tgz"
    bogus.write_bytes(b"this is not gzip")
    [only] = source_files(bogus, "bogus.tgz")
    assert only.name == "bogus.tgz"
    assert only.error is not None


def archive_with_skipped_members(tmp_path: Path, mode: str, suffix: str) -> Path:
    """Objects between large members olmtui skips (logs), as in a must-gather: a cut that
    lands inside a skipped member or a header is the case tarfile's pipe mode reads as a
    whole, smaller archive."""
    target = tmp_path / f"snap{suffix}"
    with tarfile.open(target, mode) as tar:
        for index in range(6):
            for name, data in (
                (f"ns{index}/objects.yaml", b"kind: Namespace\n" * 40),
                (f"ns{index}/pod.log", bytes(range(256)) * 64),
            ):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return target


def test_an_archive_cut_anywhere_is_reported_in_every_compression(tmp_path: Path) -> None:
    for mode, suffix in (
        ("w", ".tar"),
        ("w:gz", ".tgz"),
        ("w:bz2", ".tar.bz2"),
        ("w:xz", ".tar.xz"),
    ):
        whole = archive_with_skipped_members(tmp_path, mode, suffix)
        assert not any(f.error for f in source_files(whole, whole.name)), mode
        data = whole.read_bytes()
        cut = tmp_path / f"cut{suffix}"
        step = max(1, len(data) // 97)
        with tarfile.open(whole) as tar:
            last = tar.getmembers()[-1]
        # A plain tar cut after its first end-of-archive block lost only padding (next test).
        end = len(data) if mode != "w" else last.offset_data + last.size + tarfile.BLOCKSIZE
        for length in range(1, end - 1, step):
            cut.write_bytes(data[:length])
            files = source_files(cut, cut.name)
            assert files[-1].truncated, (mode, length, len(data))


def test_a_plain_tar_cut_only_in_its_trailing_padding_lost_nothing(tmp_path: Path) -> None:
    """The end-of-archive block is whole and every member is there: nothing to report."""
    whole = archive_with_skipped_members(tmp_path, "w", ".tar")
    with tarfile.open(whole) as tar:
        last = tar.getmembers()[-1]
    end_block = last.offset_data + -(-last.size // tarfile.BLOCKSIZE) * tarfile.BLOCKSIZE
    data = whole.read_bytes()
    cut = tmp_path / "cut.tar"
    cut.write_bytes(data[: end_block + tarfile.BLOCKSIZE])
    assert not any(f.error for f in source_files(cut, "cut.tar"))
    cut.write_bytes(data[: end_block + tarfile.BLOCKSIZE - 1])
    assert source_files(cut, "cut.tar")[-1].truncated
