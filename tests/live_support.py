"""Helpers for the live-source tests: a loopback cluster loaded with real objects, a
LiveSource with fast timings, and what the cache should hold for a given server state.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml
from conftest import wait_for
from data_paths import DATA
from model_builders import deployment
from model_builders import namespace as bare_namespace

from olmtui.apiserver import LoopbackAPIServer
from olmtui.pipeline.build import live_status
from olmtui.sources.cluster.live import LiveOptions, LiveSource
from olmtui.sources.cluster.live_resources import csv_from_partial, read_live
from olmtui.store import COPIED_FROM_LABEL, WATCHED_KINDS, Store

AZURE = DATA / "must-gather" / "must-gather-clean" / "must-gather-azure"
PACKAGE_MANIFESTS = (
    DATA
    / "cluster"
    / "openshift-console"
    / "frontend"
    / "packages"
    / "operator-lifecycle-manager"
    / "mocks.packagemanifests.yaml"
)

Obj = dict[str, Any]


def _documents(path: Path) -> Iterator[Obj]:
    for doc in yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader):
        if not isinstance(doc, dict):
            continue
        if doc.get("kind", "").endswith("List") and isinstance(doc.get("items"), list):
            yield from doc["items"]
        else:
            yield doc


def must_gather_objects() -> list[Obj]:
    """The real Azure must-gather (OCP 4.8: 131 CSVs of which 128 copies), plus the Namespace
    objects the dump lacks, so the cluster is whole (a real cluster has them all)."""
    objs = [o for p in sorted(AZURE.rglob("*.yaml")) for o in _documents(p)]
    named = {o["metadata"]["name"] for o in objs if o.get("kind") == "Namespace"}
    used = {o["metadata"].get("namespace") for o in objs} - {None, ""}
    objs += [
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": ns},
            "status": {"phase": "Active"},
        }
        for ns in sorted(used - named)
    ]
    return objs


def package_manifests(namespace: str = "openshift-marketplace") -> list[Obj]:
    """The console's PackageManifest fixtures, placed in ``namespace``."""
    docs = list(_documents(PACKAGE_MANIFESTS))
    for doc in docs:
        doc["metadata"]["namespace"] = namespace
    return docs


def fast_options(kubeconfig: Path, **overrides: Any) -> LiveOptions:
    """Timings for tests: short read timeout, fast backoff, quick re-checks."""
    settings: dict[str, Any] = dict(
        kubeconfig=str(kubeconfig),
        context=None,
        namespaces=[],
        read_timeout=2.0,
        backoff_initial=0.02,
        backoff_max=0.2,
        packagemanifest_interval=60,
        packagemanifest_debounce=0.05,
        forbidden_recheck=0.3,
    )
    settings.update(overrides)
    return LiveOptions(**settings)


def expected_store(server: LoopbackAPIServer) -> Store:
    """What the live cache must hold for the server's current state: every kept kind in
    full, except copied CSVs, which olmtui reads as metadata only, and the evidence kinds,
    of which it reads only what its selectors pick (R-EVD-1)."""
    store = Store()
    for kind in sorted(WATCHED_KINDS, key=lambda k: k == "Event"):  # Events by what is read
        for obj in (o for o in server.state.list(kind) if read_live(o, store)):
            labels = (obj.get("metadata") or {}).get("labels") or {}
            if kind == "ClusterServiceVersion" and COPIED_FROM_LABEL in labels:
                obj = csv_from_partial(obj, obj["apiVersion"])
            store.apply("ADDED", obj)
    return store


def contents(store: Store) -> dict[str, dict[tuple[str, str], Obj]]:
    return {
        kind: {(k.namespace, k.name): o for k, o in store.items(kind)} for kind in WATCHED_KINDS
    }


def differences(store: Store, server: LoopbackAPIServer) -> list[str]:
    """Readable differences between the cache and the server (empty when equal)."""
    want, have = contents(expected_store(server)), contents(store)
    out = []
    for kind in WATCHED_KINDS:
        for slot in sorted(set(want[kind]) | set(have[kind])):
            if want[kind].get(slot) != have[kind].get(slot):
                state = (
                    "missing"
                    if slot not in have[kind]
                    else ("extra" if slot not in want[kind] else "differs")
                )
                out.append(f"{kind} {slot}: {state}")
    return out


async def converged(store: Store, server: LoopbackAPIServer, timeout: float = 30.0) -> None:
    try:
        await wait_for(lambda: not differences(store, server), "cache == server", timeout)
    except AssertionError:
        shown = "; ".join(differences(store, server)[:10])
        raise AssertionError(f"cache != server: {shown}") from None


async def start_server(
    tmp_path: Path, objs: list[Obj], **kwargs: Any
) -> tuple[LoopbackAPIServer, Path]:
    server = LoopbackAPIServer(bookmark_interval=kwargs.pop("bookmark_interval", 0.2), **kwargs)
    server.state.load(objs, skip_unknown=True)
    await server.start()
    return server, server.write_kubeconfig(tmp_path / "kubeconfig")


async def started_source(store: Store, options: LiveOptions) -> tuple[LiveSource, asyncio.Task]:
    source = LiveSource(store, options)
    await source.connect()
    return source, asyncio.create_task(source.run())


async def stop_source(source: LiveSource, task: asyncio.Task) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await source.close()


SAMPLE = files("olmtui").joinpath("samples", "cluster.yaml")


def sample_objects() -> list[dict[str, Any]]:
    return [o for o in yaml.safe_load_all(SAMPLE.read_bytes()) if o]


def namespace(name: str) -> dict[str, Any]:
    """A Namespace as a client creates it (only its name)."""
    return bare_namespace(name, bare=True)


def lists_sent(server: LoopbackAPIServer) -> int:
    """LIST requests so far: olmtui lists in pages, so every list carries ``limit``."""
    return sum(1 for r in server.requests if r.query.get("watch") != "true" and "limit" in r.query)


def header_state(source: LiveSource, store: Store, options: LiveOptions) -> str:
    return live_status(source, store, options).state


def olm_deployment(
    ns: str,
    name: str,
    *,
    owner_csv: str | None = None,
    replicas: int = 1,
    ready: int = 1,
    labels: dict[str, str] | None = None,
) -> Obj:
    """A ready Deployment OLM made for ``owner_csv`` (``model_builders.deployment``)."""
    return deployment(
        ns,
        name,
        match_labels={"app": name},
        replicas=replicas,
        available=ready,
        ready=ready,
        labels=labels,
        owner_csv=owner_csv,
    )
