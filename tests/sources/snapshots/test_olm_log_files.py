"""R-EVD-10: a must-gather's OLM pod logs are found by their path, read bounded (newest
kept, what was cut said), from a directory or a tar archive, and never parsed as YAML."""

from __future__ import annotations

import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.sources.snapshots.olm_log_files import (
    MAX_LOG_BYTES,
    MAX_LOG_LINES,
    LogSource,
    newest_bytes,
    olm_log_of,
    read_log,
)
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

MUST_GATHER = DATA / "logs" / "must-gather-logs"
OLM_NS = "namespaces/openshift-operator-lifecycle-manager/pods"


@pytest.mark.parametrize(
    ("path", "found"),
    [
        (f"{OLM_NS}/olm-operator-5f9c-x/olm-operator/olm-operator/logs/current.log",
         ("olm-operator-5f9c-x", "olm-operator")),
        (f"img/{OLM_NS}/catalog-operator-7c-k/catalog-operator/catalog-operator/logs/previous.log",
         ("catalog-operator-7c-k", "catalog-operator")),
        (f"{OLM_NS}/packageserver-6d-q/packageserver/packageserver/logs/current.insecure.log",
         ("packageserver-6d-q", "packageserver")),
        ("namespaces/openshift-operator-controller/pods/operator-controller-controller-manager-1/"
         "manager/manager/logs/current.log",
         ("operator-controller-controller-manager-1", "manager")),
        (f"{OLM_NS}/some-operator-1/manager/manager/logs/current.log", None),  # not OLM's pod
        ("namespaces/team-a/pods/olm-operator-1/olm-operator/olm-operator/logs/current.log", None),
        (f"{OLM_NS}/olm-operator-1/olm-operator/other/logs/current.log", None),
        (f"{OLM_NS}/olm-operator-1/olm-operator/olm-operator/logs/notes.txt", None),
        (f"{OLM_NS}/olm-operator-1/olm-operator-1.yaml", None),
    ],
)  # fmt: skip
def test_only_olm_pods_logs_as_oc_adm_inspect_writes_them_are_read(
    path: str, found: tuple[str, str] | None
) -> None:
    assert olm_log_of(path.split("/")) == found


def test_a_stream_keeps_its_newest_bytes_and_counts_those_before() -> None:
    data, skipped = newest_bytes(io.BytesIO(b"a" * 1000 + b"b" * 100), limit=100)
    assert (data, skipped) == (b"b" * 100, 1000)
    assert newest_bytes(io.BytesIO(b"short"), limit=100) == (b"short", 0)


def test_a_large_log_keeps_its_newest_lines_and_says_what_was_cut(tmp_path: Path) -> None:
    line = 'time="2026-11-28T11:00:00Z" level=info msg="n" csv=x-{} namespace=ns\n'
    log = tmp_path / "current.log"
    log.write_text("".join(line.format(i) for i in range(MAX_LOG_BYTES // 40)))
    lines, read = read_log(LogSource("mg/current.log", "olm-operator-1", "olm-operator", str(log)))
    assert len(lines) == read.lines == MAX_LOG_LINES
    assert lines[-1].mentions == {("ns", f"x-{MAX_LOG_BYTES // 40 - 1}")}
    assert "bytes not read" in read.cut and "older lines not kept" in read.cut
    assert read.name == "olm-operator-1/olm-operator current.log"


def test_a_log_that_is_a_fifo_is_not_opened_for_reading_and_says_so(tmp_path: Path) -> None:
    fifo = tmp_path / "current.log"
    os.mkfifo(fifo)
    lines, read = read_log(LogSource("current.log", "p", "c", str(fifo)))
    assert lines == [] and read.cut.startswith("not read")


def _logs_of(store: Store) -> list[tuple[str, str, str]]:
    return sorted((x.pod, x.time, x.text) for x in store.logs.lines)


def test_a_must_gather_directory_and_its_archive_give_the_same_log_lines(tmp_path: Path) -> None:
    from_dir = Store()
    load_snapshot([MUST_GATHER], from_dir, workers=1)
    assert len(from_dir.logs.files) == 4 and len(from_dir.logs) == 12
    archive = tmp_path / "mg.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(MUST_GATHER, arcname="must-gather")
    from_tar = Store()
    load_snapshot([archive], from_tar, workers=1)
    assert _logs_of(from_tar) == _logs_of(from_dir)
    named = from_tar.logs.naming("openshift-operators", "etcdoperator.v0.9.4", 20)
    assert [x.level for x in named] == ["info", "info", "warning", "error"]


def test_log_files_are_never_parsed_as_yaml(tmp_path: Path) -> None:
    """A log whose text would break a YAML parser (or is the malformed fuzz sample) is read
    as lines: no unreadable document, nothing skipped."""
    copy = tmp_path / "mg"
    shutil.copytree(MUST_GATHER, copy)
    log = next(copy.rglob("olm-operator/logs/current.log"))
    malformed = sorted((DATA / "malformed").glob("*.yaml"))
    hostile = b"".join(p.read_bytes() for p in malformed[:5]) + b": [\n- {{{ &a *a\n\x00\xff"
    log.write_bytes(hostile)
    store = Store()
    result = load_snapshot([copy], store, workers=1)
    assert result.skipped == 0 and result.skipped_files == []
    assert all(f.code != "UnreadableDocument" for f in result.findings)
    assert len(store.logs) > 0


def test_a_log_that_links_to_a_device_is_refused_and_the_rest_still_loads(tmp_path: Path) -> None:
    copy = tmp_path / "mg"
    shutil.copytree(MUST_GATHER, copy)
    log = next(copy.rglob("packageserver/logs/current.log"))
    log.unlink()
    log.symlink_to("/dev/zero")
    store = Store()
    load_snapshot([copy], store, workers=1)
    refused = [f for f in store.logs.files if f.cut.startswith("not read")]
    assert [f.name for f in refused] == ["packageserver-6d8f7b9c4-q7w9r/packageserver current.log"]
    assert len(store.logs) == 11


@pytest.mark.parametrize("archived", [False, True])
def test_beyond_the_cap_on_log_files_the_rest_are_counted_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, archived: bool
) -> None:
    from olmtui.sources.snapshots import snapshot_files

    monkeypatch.setattr(snapshot_files, "MAX_LOG_FILES", 2)
    path = MUST_GATHER
    if archived:
        path = tmp_path / "mg.tar"
        with tarfile.open(path, "w") as tar:
            tar.add(MUST_GATHER, arcname="must-gather")
    store = Store()
    load_snapshot([path], store, workers=1)
    assert len(store.logs.files) == 3
    assert store.logs.files[-1].name == "2 more OLM log files"
    assert store.logs.cut()[-1].startswith("2 more OLM log files: not read")
