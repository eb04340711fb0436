"""Small must-gathers for the fleet's tests (``check --fleet``, ``olmtui --fleet``, the MCP
server's ``fleet`` and ``diff``): a folder of them, one with a failed operator (an error
finding, an operator not healthy), and a broken archive beside them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from model_builders import catalog_source, csv, namespace, operator_group, subscription
from snapshot_files import yaml_documents

Obj = dict[str, Any]


def small_must_gather(
    root: Path,
    version: str,
    image: str,
    *,
    failed: bool = False,
    phase: tuple[str, str] | None = None,
    extra: Sequence[Obj] = (),
) -> Path:
    """A must-gather of one operator at ``version`` from a catalog of ``image``;
    ``failed``: its CSV is Failed (OLM's csv_abnormal); ``phase``: (phase, reason) instead;
    ``extra``: more objects of namespace ``ops``."""
    name = f"pkg.v{version}"
    phase = phase or (
        ("Failed", "InstallComponentFailed") if failed else ("Succeeded", "InstallSucceeded")
    )
    objects = [
        operator_group("ops", "og"),
        csv("ops", name, version=version, phase=phase[0], reason=phase[1]),
        subscription("ops", "pkg", installed=name, current=name, state="AtLatestKnown"),
        catalog_source("openshift-marketplace", "cat", spec={"image": image}),
        *extra,
    ]
    (root / "namespaces" / "ops").mkdir(parents=True)
    (root / "namespaces" / "ops" / "olm.yaml").write_text(yaml_documents(objects))
    scoped = root / "cluster-scoped-resources" / "core" / "namespaces"
    scoped.mkdir(parents=True)
    for ns in ("ops", "openshift-marketplace"):
        (scoped / f"{ns}.yaml").write_text(yaml_documents([namespace(ns)]))
    (root / "timestamp").write_text("2026-11-01 10:00:00.000000000 +0000 UTC m=+0.1\n")
    return root


def fleet_folder(tmp: Path) -> dict[str, Path]:
    """``gathers/`` holding alpha, bravo (its operator Failed) and charlie (a newer version
    from another catalog image: skew), and a broken archive beside it."""
    folder = tmp / "gathers"
    small_must_gather(folder / "alpha", "1.0.0", "quay.io/x/index:v1")
    small_must_gather(folder / "bravo", "1.0.0", "quay.io/x/index:v1", failed=True)
    small_must_gather(folder / "charlie", "2.0.0", "quay.io/x/index:v2")
    broken = tmp / "broken.tar.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00 not a gzip stream at all")
    return {"folder": folder, "broken": broken}
