"""Peak memory of ``olmtui check`` on small hostile inputs: each must stay under
1 GiB, whatever an input of 100 MB or less holds.

Each case is generated into a temporary directory, then checked by a real ``olmtui check
--output json`` in a child process; its peak resident set (``ru_maxrss`` from ``wait4``:
the largest of the process and the parse workers it waited for) and wall time are printed.

    python bench/bench_hostile_rss.py [--keep DIR] [CASE ...]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "tests/data/hostile/good.yaml").read_bytes()
LIMIT_MIB = 1024
_NAMESPACE = b"---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-%07d\n"


def empty_documents(path: Path) -> Path:
    """7 MB: a million documents ``{}`` (each an object without apiVersion)."""
    target = path / "empty.yaml"
    target.write_bytes(GOOD + b"---\n{}\n" * 1_000_000)
    return target


def alias_bytes(path: Path) -> Path:
    """1.1 MB: a CSV whose spec aliases one 1 MiB string 3,000 times (3 GiB of text)."""
    target = path / "alias.yaml"
    text = (
        "---\napiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n"
        "metadata:\n  name: bomb\n  namespace: team-a\n  annotations:\n"
        f"    a: &s {'x' * (1 << 20)}\nspec:\n  x: [{', '.join(['*s'] * 3000)}]\n"
    )
    target.write_bytes(GOOD + text.encode())
    return target


def namespaces(path: Path) -> Path:
    """64 MB: a million Namespaces in one YAML stream."""
    target = path / "namespaces.yaml"
    with target.open("wb") as stream:
        stream.write(GOOD)
        for index in range(1_000_000):
            stream.write(_NAMESPACE % index)
    return target


def namespaces_100mb(path: Path) -> Path:
    """100 MB: 1,600,000 Namespaces in one YAML stream, each as short as it can be."""
    target = path / "namespaces-100mb.yaml"
    with target.open("wb") as stream:
        stream.write(GOOD)
        for index in range(1_600_000):
            stream.write(b"---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n%07d}\n" % index)
    return target


def namespace_list(path: Path) -> Path:
    """100 MB: ``kubectl get namespaces -o json`` of 1,400,000 Namespaces (one List)."""
    target = path / "namespaces.json"
    item = b'{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n%07d"}}'
    with target.open("wb") as stream:
        stream.write(b'{"apiVersion":"v1","kind":"List","items":[')
        stream.write(json.dumps(list(yaml.safe_load_all(GOOD))).encode()[1:-1] + b",")
        stream.write(b",".join(item % index for index in range(1_400_000)))
        stream.write(b"]}\n")
    return target


def namespaced_groups(path: Path) -> Path:
    """~100 MB: 400,000 OperatorGroups, each in a namespace that has no Namespace object
    (every one inferred)."""
    target = path / "groups.yaml"
    with target.open("wb") as stream:
        stream.write(GOOD)
        for index in range(400_000):
            stream.write(
                b"---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n"
                b"  name: og\n  namespace: ns-%07d\nspec:\n  targetNamespaces:\n"
                b"  - ns-%07d\n" % (index, index)
            )
    return target


def empty_members(path: Path) -> Path:
    """100 MB: a tar of 200,000 empty members named ``*.yaml``."""
    target = path / "members.tar"
    with tarfile.open(target, "w") as tar:
        info = tarfile.TarInfo("good.yaml")
        info.size = len(GOOD)
        tar.addfile(info, io.BytesIO(GOOD))
        for index in range(200_000):
            tar.addfile(tarfile.TarInfo(f"d/{index}.yaml"))
    return target


CASES: dict[str, Callable[[Path], Path]] = {
    "empty-documents": empty_documents,
    "alias-bytes": alias_bytes,
    "namespaces": namespaces,
    "namespaces-100mb": namespaces_100mb,
    "namespace-list": namespace_list,
    "inferred-namespaces": namespaced_groups,
    "empty-members": empty_members,
}


def measure(target: Path) -> tuple[int, float, int]:
    """Exit status, wall seconds and peak RSS (MiB) of ``olmtui check`` on ``target``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    with subprocess.Popen(
        [sys.executable, "-m", "olmtui", "check", str(target), "--output", "json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    ) as process:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        assert process.stderr is not None
        err = process.stderr.read().decode().strip()
    if err:
        print(f"    stderr: {err[:200]}")
    return process.returncode, time.monotonic() - started, usage.ru_maxrss // 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this directory")
    parser.add_argument("cases", nargs="*", metavar="CASE", help=", ".join(CASES))
    args = parser.parse_args()
    chosen = args.cases or list(CASES)
    unknown = set(chosen) - set(CASES)
    if unknown:
        parser.error(f"unknown case(s): {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.keep or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        print(f"{'case':22} {'input':>9} {'exit':>4} {'wall':>7} {'peak RSS':>9}")
        over = 0
        for name in chosen:
            target = CASES[name](directory)
            size = target.stat().st_size / 1e6
            status, wall, peak = measure(target)
            over += peak > LIMIT_MIB
            print(f"{name:22} {size:7.1f}MB {status:4} {wall:6.1f}s {peak:6} MiB")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
