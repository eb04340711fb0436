"""A recording made against the loopback API server while a scripted sequence, and then the
demo's own script, changes the cluster: at every moment taken, the state the file gives back
equals one read of the cluster at that moment, object by object (with what the recorder
blanks, blanked), the kinds unreadable then included; the recorder sends GET requests only;
and no token, from the kubeconfig or from an object, reaches the file."""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from pathlib import Path
from typing import Any

from conftest import wait_for
from live_support import (
    contents,
    converged,
    expected_store,
    fast_options,
    sample_objects,
    start_server,
)
from model_builders import csv, install_plan, namespace, pod, subscription

from olmtui.apiserver import LoopbackAPIServer
from olmtui.demo import scenario
from olmtui.demo.script import cycle
from olmtui.pipeline.recording import Recorded, RecordTo
from olmtui.sources.cluster.live import LiveSource
from olmtui.sources.recording.format import CHECKPOINT, DATA, MAGIC, frames
from olmtui.sources.recording.reader import open_recording
from olmtui.sources.recording.redact import redacted
from olmtui.sources.recording.timeline import load_state
from olmtui.store import Store

TOKEN = "planted-token-0123456789abcdef"  # a planted secret


def _secret_objects() -> list[dict[str, Any]]:
    """Objects carrying the planted token where a cluster could: a CSV's deployment env, a
    Subscription's config env, a catalog Pod's env, an InstallPlan's Secret step."""
    env = [{"name": "PROXY_PASSWORD", "value": TOKEN}, {"name": "PLAIN", "value": "kept"}]
    deployments = [
        {
            "name": "op",
            "spec": {"template": {"spec": {"containers": [{"name": "op", "env": env}]}}},
        }
    ]
    plan = install_plan("secrets", "install-1", "Complete", True)
    plan["status"]["plan"] = [
        {
            "resolving": "op.v1",
            "status": "Created",
            "resource": {
                "kind": "Secret",
                "name": "op-token",
                "manifest": f'{{"kind":"Secret","data":{{"token":"{TOKEN}"}}}}',
            },
        }
    ]
    return [
        namespace("secrets"),
        csv(
            "secrets",
            "op.v1",
            spec={"install": {"strategy": "deployment", "spec": {"deployments": deployments}}},
        ),
        subscription("secrets", "op", config={"env": env}),
        pod(
            "secrets",
            "catalog-pod",
            labels={"olm.catalogSource": "cat"},
            spec={"name": "registry", "image": "quay.io/x/index:v1", "env": env},
        ),
        plan,
    ]


def _read_now(server: LoopbackAPIServer) -> dict[str, Any]:
    """One read of the cluster as olmtui keeps it, blanked as a recording keeps it."""
    return {
        kind: {slot: redacted(obj) for slot, obj in objects.items()}
        for kind, objects in contents(expected_store(server)).items()
    }


async def _record(
    tmp_path: Path, server: LoopbackAPIServer, kubeconfig: Path
) -> tuple[Store, Recorded, asyncio.Future[None]]:
    store = Store()
    source = LiveSource(store, fast_options(kubeconfig))

    async def watch() -> None:
        await source.connect()
        await source.run()

    run = Recorded(watch, store, lambda: source.status, RecordTo(str(tmp_path / "rec")), None, [])
    return store, run, asyncio.ensure_future(run())


async def _stop(task: asyncio.Future[Any]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def test_every_moment_replays_as_the_cluster_was_read_then(tmp_path: Path) -> None:
    server, kubeconfig = await start_server(tmp_path, sample_objects())
    store, run, task = await _record(tmp_path, server, kubeconfig)
    moments: list[tuple[int, dict[str, Any], set[str]]] = []

    async def take(unreadable: set[str] | None = None) -> None:
        await converged(store, server)
        if unreadable is not None:
            await wait_for(lambda: set(store.unreadable) == unreadable, "access as expected")
        moments.append((run.writer.position, _read_now(server), set(store.unreadable)))

    try:
        await take()
        state = server.state
        state.create(namespace("team-z"))
        await take()
        state.create(csv("team-z", "op.v1", phase="Installing"))
        await take()
        for phase in ("Succeeded", "Failed", "Succeeded"):
            state.update(csv("team-z", "op.v1", phase=phase, status={"message": phase}))
        await take()
        state.create(subscription("team-z", "op", channel="stable"))
        server.forbid("subscriptions")
        await take({"Subscription"})
        state.update(subscription("team-z", "op", channel="fast"))
        server.allow("subscriptions")
        await take(set())
        state.delete("ClusterServiceVersion", "team-z", "op.v1")
        await take()
    finally:
        await _stop(task)
        await server.stop()
    _replays_as_read(tmp_path / "rec", moments, server)


Moment = tuple[int, dict[str, Any], set[str]]


def _replays_as_read(path: Path, moments: list[Moment], server: LoopbackAPIServer) -> None:
    """Every moment taken, given back by the file as the cluster was read then; GET only."""
    timeline = open_recording(str(path))
    assert timeline.incomplete_because == []
    assert [count for count, _, _ in moments] == sorted({count for count, _, _ in moments})
    assert moments[-1][0] == len(timeline)
    for count, cluster, unreadable in moments:
        replayed = Store()
        load_state(replayed, timeline.state(count))
        assert contents(replayed) == cluster, count
        assert set(replayed.unreadable) == unreadable
    assert {r.method for r in server.requests} == {"GET"}


async def test_the_demo_script_replays_as_the_cluster_was_read_then(tmp_path: Path) -> None:
    """The demo's own cycle (``olmtui/demo/script.py``: an upgrade landing, a conflict coming
    and going, the rewind to the start) changing the loopback cluster while it is recorded."""
    start = scenario.build_scenario(scenario.timestamp())
    server, kubeconfig = await start_server(tmp_path, start.objects)
    store, run, task = await _record(tmp_path, server, kubeconfig)
    moments: list[Moment] = []
    try:
        await converged(store, server)
        moments.append((run.writer.position, _read_now(server), set(store.unreadable)))
        for step in cycle(start):
            step.change(server.state, scenario.timestamp())
            await converged(store, server)
            moments.append((run.writer.position, _read_now(server), set(store.unreadable)))
    finally:
        await _stop(task)
        await server.stop()
    assert len({count for count, _, _ in moments}) > len(cycle(start)) // 2  # it moved
    _replays_as_read(tmp_path / "rec", moments, server)


def _decompressed(path: Path) -> bytes:
    """Every byte the file holds, its compressed frames decompressed."""
    out = []
    with path.open("rb") as file:
        assert file.read(len(MAGIC)) == MAGIC
        segment = zlib.decompressobj()
        for found in frames(file):
            out.append(found.payload)
            if found.kind == CHECKPOINT:
                out.append(zlib.decompress(found.payload[16:]))
                segment = zlib.decompressobj()
            elif found.kind == DATA:
                times = int.from_bytes(found.payload[12:16])
                out.append(segment.decompress(found.payload[16 + times :]))
    return b"".join(out)


async def test_no_token_reaches_the_file(tmp_path: Path) -> None:
    server = LoopbackAPIServer(bookmark_interval=0.2)
    server.state.load([*sample_objects(), *_secret_objects()], skip_unknown=True)
    await server.start()
    kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig", token=TOKEN)
    assert TOKEN in kubeconfig.read_text()
    store, _, task = await _record(tmp_path, server, kubeconfig)
    try:
        await converged(store, server)
        assert store.get("Pod", "secrets", "catalog-pod") is not None  # the pod was read
        server.state.update(
            subscription(
                "secrets", "op", channel="fast", config={"env": [{"name": "T", "value": TOKEN}]}
            )
        )
        await converged(store, server)
    finally:
        await _stop(task)
        await server.stop()
    data = _decompressed(tmp_path / "rec")
    assert b"PROXY_PASSWORD" in data and b"op-token" in data  # the objects are there...
    assert TOKEN.encode() not in data  # ...their secret values are not
    assert b"Bearer" not in data
    assert {r.method for r in server.requests} == {"GET"}
