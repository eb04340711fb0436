"""PATHs that cannot be one cluster's OLM state are refused: one line, exit 2, no hang.

Special files are never opened (a FIFO read blocks until a writer comes), a PATH without any
OLM object is not checked as if it were an empty cluster, and several must-gathers (several
clusters) are never merged into one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from data_paths import ROOT

from olmtui.cli import main

OPERATOR_GROUP = """\
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata: {namespace: ops, name: og}
spec: {}
"""


def olmtui(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """The CLI in a child process: a read that blocks fails the test by its timeout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "olmtui", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def must_gather(root: Path, image: str = "quay-io-org-must-gather-sha256-0123abcd") -> Path:
    """A small ``oc adm must-gather`` tree: a timestamp beside one image directory."""
    (root / "timestamp").parent.mkdir(parents=True)
    (root / "timestamp").write_text("2024-01-01 00:00:00\n")
    groups = root / image / "namespaces/ops/operators.coreos.com/operatorgroups"
    groups.mkdir(parents=True)
    (groups / "og.yaml").write_text(OPERATOR_GROUP)
    resources = root / image / "cluster-scoped-resources/core/namespaces"
    resources.mkdir(parents=True)
    (resources / "ops.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: ops}\n")
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "cluster.yaml"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "s.yaml"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        yield path


@pytest.mark.parametrize("command", [["check"], ["graph", "etcd"], ["replay"]])
def test_a_fifo_as_path_is_one_line_exit_2_without_blocking(fifo: Path, command: list[str]) -> None:
    result = olmtui(*command, fifo)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"olmtui: {fifo} is a FIFO, not a snapshot file, directory or archive\n"
    )


def test_a_socket_or_device_as_path_is_one_line_exit_2(
    unix_socket: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "check", unix_socket) == (
        2,
        "",
        f"olmtui: {unix_socket} is a socket, not a snapshot file, directory or archive\n",
    )
    assert run(capsys, "check", "/dev/null") == (
        2,
        "",
        "olmtui: /dev/null is a character device, not a snapshot file, directory or archive\n",
    )


def test_a_fifo_inside_a_directory_is_a_finding_never_opened(tmp_path: Path) -> None:
    (tmp_path / "og.yaml").write_text(OPERATOR_GROUP)
    os.mkfifo(tmp_path / "pipe.yaml")
    result = olmtui("check", tmp_path, "--output", "json")
    assert result.returncode == 0, result.stderr
    assert f'"name": "{tmp_path / "pipe.yaml"}"' in result.stdout
    assert "The file could not be read and was skipped: a FIFO, not read." in result.stdout


def test_a_path_without_olm_objects_is_exit_2_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifests = tmp_path / "app.yaml"
    manifests.write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: app}\n---\n"
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: app}\n"
    )
    code, out, err = run(capsys, "check", manifests)
    assert (code, out) == (2, "")
    assert err.startswith(f"olmtui: {manifests}: no OLM objects (only ConfigMap, Namespace); ")
    assert err.count("\n") == 1


def test_one_must_gather_with_its_image_directory_is_one_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = must_gather(tmp_path / "must-gather.local.1")
    code, _, err = run(capsys, "check", dump, "--output", "json")
    assert (code, err) == (0, "")


def test_a_path_holding_several_must_gathers_is_exit_2_naming_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = must_gather(tmp_path / "dumps/prod")
    second = must_gather(tmp_path / "dumps/stage", image="quay-io-other-sha256-4567cdef")
    code, out, err = run(capsys, "check", tmp_path / "dumps")
    assert (code, out) == (2, "")
    assert err == (
        f"olmtui: {tmp_path / 'dumps'} holds 2 must-gathers ({first}, {second}), that is "
        "2 clusters: give one\n"
    )


def test_several_path_args_that_are_different_must_gathers_are_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = must_gather(tmp_path / "prod")
    second = must_gather(tmp_path / "stage")
    code, out, err = run(capsys, "replay", first, second)
    assert (code, out) == (2, "")
    assert err == (
        f"olmtui: the PATHs hold 2 must-gathers ({first}, {second}), that is 2 clusters: give one\n"
    )
