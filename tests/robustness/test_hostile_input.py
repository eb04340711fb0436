"""Hostile documents: every case ends in a finding naming the file (and line), the
rest of the input still loads, no traceback, no hang, memory bounded.

Each run is a real ``olmtui check`` in a subprocess with its address space capped at 2 GiB
(``RLIMIT_AS``: an allocation past it fails, and the crash would show as exit 3) and a
timeout. The small cases are files in ``tests/data/hostile/`` (README there); big, sparse,
FIFO and symlink cases are made in ``tmp_path`` at test time.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import tarfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from capped_run import GIB, GOOD, HOSTILE, MIB, ROOT, Run, olmtui

from olmtui.model.records.types import Finding
from olmtui.sources import input_limits
from olmtui.sources.catalog.files import read_documents
from olmtui.sources.snapshots import snapshot_files
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store


def _one(run: Run, code: str = "UnreadableDocument") -> dict[str, Any]:
    found = run.findings(code)
    assert len(found) == 1, run.report["findings"]
    return found[0]


# --- deep nesting ---------------------------------------------------------------------------


#: Deep YAML documents, made at test time (ids stay short: pytest puts them in the environment).
DEEP_YAML = {
    # 100,000 levels of flow: counted from libyaml's events before loading (SIGSEGV before)
    "flow.yaml": lambda: b"kind: " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
    # compact block sequences on one line
    "compact.yaml": lambda: b"- " * 100_000 + b"x\n",
    # 3,000 levels of indentation: loaded, then measured
    "indented.yaml": lambda: b"".join(b" " * i + b"-\n" for i in range(3000)),
}


@pytest.mark.parametrize("name", sorted(DEEP_YAML))
def test_deep_yaml_is_refused_by_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"a: 1\n---\n" + DEEP_YAML[name]() + b"---\n" + GOOD.read_bytes())
    run = olmtui("check", path)
    assert run.status == 0
    finding = _one(run)
    assert finding["name"] == str(path)
    assert "starting at line 2 does not parse" in finding["message"]  # at its ``---``
    assert "nested deeper than 1,000 levels" in finding["message"]
    assert run.report["source"]["objects"] == 2


def test_deep_yaml_in_the_corpus_and_depth_1000_loads(tmp_path: Path) -> None:
    run = olmtui("check", HOSTILE / "deep.yaml")
    assert "nested deeper than 1,000 levels" in _one(run)["message"]
    assert run.report["source"]["objects"] == 1
    fine = tmp_path / "thousand.yaml"
    fine.write_bytes(b"a: " + b"[" * 999 + b"]" * 999 + b"\n---\n" + GOOD.read_bytes())
    assert olmtui("check", fine).findings() == []


def test_deep_json_is_a_finding_not_a_recursion_error(tmp_path: Path) -> None:
    run = olmtui("check", HOSTILE / "deep.json")
    finding = _one(run)
    assert finding["message"].startswith("The document starting at line 2 does not parse")
    assert "nested deeper than 1,000 levels" in finding["message"]
    assert run.report["source"]["objects"] == 2
    huge = tmp_path / "huge.json"
    namespace, group = (HOSTILE / "deep.json").read_text().splitlines()[0:3:2]
    huge.write_text(f"{namespace}\n{'[' * 100_000}{']' * 100_000}\n{group}\n")
    assert "nested deeper" in _one(olmtui("check", huge))["message"]


# --- aliases and integers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("alias-bomb.yaml", 'more than 1,000,000 nodes it does not hold (an alias bomb, "billion'),
        ("recursive-alias.yaml", "an alias makes it contain itself"),
        ("huge-int.yaml", "an integer of more than 4,300 digits"),
        ("huge-int.json", "an integer of more than 4,300 digits"),
    ],
)
def test_expanding_and_unconvertible_documents_are_findings(name: str, text: str) -> None:
    run = olmtui("check", HOSTILE / name)
    assert run.status == 0
    finding = _one(run)
    assert finding["name"] == str(HOSTILE / name)
    assert text in finding["message"]
    assert "the rest of the file was read" in finding["message"]
    assert run.report["source"]["objects"] >= 1


# --- lone surrogates ------------------------------------------------------------------------


@pytest.mark.parametrize("output", ["json", "text", "markdown"])
def test_a_lone_surrogate_is_read_as_the_api_server_reads_it(output: str) -> None:
    run = olmtui("check", HOSTILE / "surrogate.json", output=output)
    assert run.status in (0, 1)
    assert "etcd-\ufffd" in run.out
    if output == "json":
        assert run.report["source"]["objects"] == 3


def test_explain_prints_a_lone_surrogate() -> None:
    catalog = ROOT / "tests/data/catalogs/community-operators-prod/operators/etcd"
    for output in ("text", "json"):
        run = olmtui(
            "explain",
            "team-b",
            HOSTILE / "surrogate.json",
            "--catalog",
            f"olm/other={catalog}",
            "--output",
            output,
        )
        assert "etcd-\ufffd" in run.out


def test_report_writers_escape_lone_surrogates() -> None:
    """Whatever reaches a writer: a lone surrogate is printed as its escape, never raised."""
    from olmtui.report.json_report import dump_json, without_surrogates
    from olmtui.report.text_report import safe

    text = dump_json({"name": "a\ud800b"})
    assert json.loads(text) == {"name": "a\ud800b"}
    text.encode()
    assert without_surrogates("x\udfff") == "x\\udfff"
    assert safe("x\ud800") == "x\\ud800"


# --- special files, sizes, archives -------------------------------------------------------


def test_fifos_and_devices_in_a_directory_are_not_read(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_bytes(GOOD.read_bytes())
    os.mkfifo(tmp_path / "pipe.yaml")
    os.mkfifo(tmp_path / "timestamp")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    run = olmtui("check", tmp_path)
    assert run.status == 0
    messages = {f["name"]: f["message"] for f in run.findings()}
    assert "a FIFO, not read" in messages[str(tmp_path / "pipe.yaml")]
    assert "a character device, not read" in messages[str(tmp_path / "zero.yaml")]
    assert run.report["source"]["objects"] == 2


@pytest.mark.parametrize("special", ["fifo", "zero"])
def test_a_special_file_named_on_the_command_line_is_refused(tmp_path: Path, special: str) -> None:
    path = tmp_path / "x.yaml"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    run = olmtui("check", path)
    assert run.status == 2
    assert len(run.err.splitlines()) == 1
    assert "not a snapshot file" in run.err


def test_sparse_gigabyte_files_are_refused_by_size(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_bytes(GOOD.read_bytes())
    for n in range(3):
        with (tmp_path / f"sparse-{n}.yaml").open("wb") as stream:
            stream.truncate(GIB)
    run = olmtui("check", tmp_path)
    assert run.status == 0
    found = run.findings()
    assert len(found) == 3
    assert all("1.0 GiB, larger than the 256.0 MiB olmtui reads" in f["message"] for f in found)
    assert run.report["source"]["objects"] == 2


def _tar_header(name: str, size: int) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    return info.tobuf(format=tarfile.GNU_FORMAT)


def _good_member() -> bytes:
    data = GOOD.read_bytes()
    return _tar_header("good.yaml", len(data)) + data + b"\0" * (-len(data) % 512)


def test_a_gzip_bomb_stops_at_the_expansion_limit(tmp_path: Path) -> None:
    """A 4 MiB tar.gz whose member claims 4 GiB of zeros: concatenated gzip members (one per
    MiB) make it quickly; reading stops at 100 times the archive's size."""
    zeros = zlib.compressobj(9, zlib.DEFLATED, 31)
    one_mib = zeros.compress(b"\0" * MIB) + zeros.flush()
    path = tmp_path / "bomb.tar.gz"
    with path.open("wb") as stream:
        stream.write(gzip.compress(_good_member() + _tar_header("zeros.yaml", 4 * GIB)))
        for _ in range(4096):
            stream.write(one_mib)
    assert path.stat().st_size < 8 * MIB
    run = olmtui("check", path)
    assert run.status == 1  # objects after the stop are lost: an error, as for a cut archive
    stop, member = sorted(run.findings(), key=lambda f: f["severity"])  # error, warning
    assert (member["severity"], member["name"]) == ("warning", f"{path}:zeros.yaml")
    assert "4.0 GiB, larger than the 256.0 MiB olmtui reads of one file" in member["message"]
    assert (stop["severity"], stop["name"]) == ("error", str(path))
    assert "the archive expands to more than 100 times its compressed size" in stop["message"]
    assert run.report["source"]["objects"] == 2


def test_an_oversized_member_is_not_read(tmp_path: Path) -> None:
    """An uncompressed tar (sparse on disk) with a 300 MiB YAML member after a good one."""
    path = tmp_path / "big.tar"
    size = 300 * MIB
    with path.open("wb") as stream:
        stream.write(_good_member() + _tar_header("big.yaml", size))
        stream.seek(size, io.SEEK_CUR)
        stream.write(b"\0" * 1024)
    run = olmtui("check", path)
    assert run.status == 0
    finding = _one(run)
    assert finding["name"] == f"{path}:big.yaml"
    assert "300.0 MiB, larger than the 256.0 MiB olmtui reads of one file" in finding["message"]
    assert run.report["source"]["objects"] == 2


def test_an_archive_keeps_a_bounded_amount(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_files, "MAX_ARCHIVE_KEPT_BYTES", 600)
    path = tmp_path / "two.tar"
    with tarfile.open(path, "w") as tar:
        tar.add(GOOD, "a.yaml")
        tar.add(GOOD, "b.yaml")
    result = load_snapshot([path], Store())
    assert result.objects == 2
    (finding,) = result.findings
    assert finding.name == f"{path}:b.yaml"
    assert "olmtui keeps at most 600 bytes of one archive" in finding.message


def test_catalog_files_get_the_same_limits(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    with (tmp_path / "sparse.json").open("wb") as stream:
        stream.truncate(GIB)
    findings: list[Finding] = []
    assert list(read_documents(tmp_path / "pipe.yaml", findings)) == []
    assert list(read_documents(tmp_path / "sparse.json", findings)) == []
    assert [f.code for f in findings] == ["UnreadableCatalogFile"] * 2
    assert "a FIFO, not read" in findings[0].message
    assert "1.0 GiB, larger than the 256.0 MiB" in findings[1].message


def test_read_regular_stops_at_the_limit(tmp_path: Path) -> None:
    """A file that claims less than it holds (``/proc``) is still read only to the limit."""
    path = tmp_path / "f.yaml"
    path.write_bytes(b"x" * 100)
    assert input_limits.read_regular(path, 100) == b"x" * 100
    with pytest.raises(input_limits.Refused, match="100 bytes, larger than the 99 bytes"):
        input_limits.read_regular(path, 99)
    with pytest.raises(input_limits.Refused, match="holds more than the 99 bytes olmtui reads"):
        input_limits.read_regular(Path("/proc/self/status"), 99)  # claims 0 bytes


def test_the_yaml_screen_dumps_the_deepest_object_the_input_keeps() -> None:
    """An object nested as deep as the input limit allows (1,000 levels) is loaded, so its
    YAML view must dump it (PyYAML's representer recursed past the default limit at ~330)."""
    from olmtui.sources.input_limits import MAX_DEPTH
    from olmtui.ui.screens.object_detail import object_yaml

    obj: dict[str, Any] = {"kind": "ClusterServiceVersion"}
    inner = obj
    for _ in range(MAX_DEPTH - 1):
        inner["x"] = {}
        inner = inner["x"]
    assert object_yaml(obj).count("\n") == MAX_DEPTH


def test_json_text_nested_too_deep_inside_a_field_is_unreadable_text(tmp_path: Path) -> None:
    """JSON the model reads from a field (a CSV's properties annotation, an InstallPlan
    step's manifest) passes the input's checks as a plain string; nested past what
    ``json.loads`` recurses through, it is unreadable text like any other, not a crash."""
    deep = "[" * 5_000 + "]" * 5_000
    csv = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "ClusterServiceVersion",
        "metadata": {
            "name": "deep.v1.0.0",
            "namespace": "team-a",
            "annotations": {"operatorframework.io/properties": deep},
        },
        "spec": {"version": "1.0.0"},
        "status": {"phase": "Succeeded", "reason": "InstallSucceeded"},
    }
    plan = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "InstallPlan",
        "metadata": {"name": "install-deep", "namespace": "team-a"},
        "spec": {"approval": "Automatic", "approved": True, "clusterServiceVersionNames": []},
        "status": {
            "phase": "Complete",
            "plan": [
                {
                    "resolving": "deep.v1.0.0",
                    "resource": {
                        "kind": "ClusterServiceVersion",
                        "name": "deep.v1.0.0",
                        "manifest": deep,
                    },
                    "status": "Created",
                }
            ],
        },
    }
    snapshot = tmp_path / "deep-text.json"
    snapshot.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [csv, plan]}))
    run = olmtui("check", snapshot)
    assert run.status in (0, 1) and "internal error" not in run.err
    assert run.report["source"]["objects"] == 2


def test_libyaml_s_own_depth_refusal_reads_as_ours() -> None:
    """PyYAML 6.0.4's libyaml refuses nesting past 1,000 levels itself ("exceeded maximum
    nesting depth"): whichever refuses first, the finding says the same, at the same line."""
    import yaml

    from olmtui.sources.input_limits import libyaml_too_deep

    error = yaml.scanner.ScannerError(
        "while increasing flow level",
        None,
        "exceeded maximum nesting depth",
        yaml.Mark("", 0, 7, 3, None, None),
    )
    assert libyaml_too_deep(error) == 7
    assert libyaml_too_deep(yaml.YAMLError("something else")) is None
