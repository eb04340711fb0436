"""Random add/modify/delete sequences, interleaved with cut streams and compactions, always
end with the live cache equal to the server (hypothesis, bounded)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from live_support import converged, fast_options, start_server, started_source, stop_source

from olmtui.apiserver import LoopbackAPIServer
from olmtui.store import Store

NAMESPACES = ("ns-a", "ns-b")
NAMES = ("x", "y", "z")


def make(kind: str, namespace: str, name: str, value: int) -> dict[str, Any]:
    """A small object of ``kind``; ``value`` lands in a field each kind really has."""
    if kind == "Namespace":
        return {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": f"{namespace}-{name}", "labels": {"v": str(value)}},
        }
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if kind == "OperatorGroup":
        return {
            "apiVersion": "operators.coreos.com/v1",
            "kind": kind,
            "metadata": meta,
            "spec": {"targetNamespaces": [namespace] * (value % 2)},
        }
    if kind == "Subscription":
        return {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": kind,
            "metadata": meta,
            "spec": {"name": name, "channel": f"c{value}", "source": "s", "sourceNamespace": "olm"},
        }
    csv = {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "ClusterServiceVersion",
        "metadata": meta,
        "spec": {"version": f"1.0.{value}"},
        "status": {"phase": "Succeeded", "reason": "InstallSucceeded"},
    }
    if kind == "copy":
        meta["name"] = f"copy-{name}"
        meta["labels"] = {"olm.copiedFrom": "operators", "v": str(value)}
        csv["status"] = {"phase": "Succeeded", "reason": "Copied"}
    return csv


KINDS = ("Namespace", "OperatorGroup", "Subscription", "ClusterServiceVersion", "copy")

operation = st.one_of(
    st.tuples(
        st.just("put"),
        st.sampled_from(KINDS),
        st.sampled_from(NAMESPACES),
        st.sampled_from(NAMES),
        st.integers(0, 5),
    ),
    st.tuples(
        st.just("delete"),
        st.sampled_from(KINDS),
        st.sampled_from(NAMESPACES),
        st.sampled_from(NAMES),
        st.just(0),
    ),
    st.tuples(
        st.sampled_from(["drop", "compact", "pause", "outage", "compacted outage"]),
        st.just(""),
        st.just(""),
        st.just(""),
        st.just(0),
    ),
)


async def perform(
    server: LoopbackAPIServer, op: tuple[str, str, str, str, int], up: list[bool]
) -> None:
    """Apply one operation. An outage stops the server (the operations that follow change
    its state unseen) until the next outage operation brings it back, with its watch history
    compacted for a "compacted outage" (so the client must relist, deletions included)."""
    action, kind, namespace, name, value = op
    if action in ("outage", "compacted outage"):
        if up[0]:
            await server.stop()
        else:
            await server.restart(clear_history=action == "compacted outage")
        up[0] = not up[0]
    elif action == "pause":
        await asyncio.sleep(0.05)
    elif action == "drop":
        server.drop_connections()
    elif action == "compact":
        server.compact()
        server.drop_connections()
    elif action == "put":
        server.state.apply(make(kind, namespace, name, value))
    elif action == "delete":
        obj = make(kind, namespace, name, 0)
        meta = obj["metadata"]
        if server.state.get(obj["kind"], meta.get("namespace"), meta["name"]) is not None:
            server.state.delete(obj["kind"], meta.get("namespace"), meta["name"])


async def scenario(ops: list[tuple[str, str, str, str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        seed = [make("Namespace", ns, "base", 0) for ns in NAMESPACES]
        server, kubeconfig = await start_server(Path(tmp), seed)
        store = Store()
        source, task = await started_source(store, fast_options(kubeconfig))
        try:
            up = [True]
            for op in ops:
                await perform(server, op, up)
                await asyncio.sleep(0)
            if not up[0]:
                await server.restart(clear_history=True)
            await converged(store, server)
        finally:
            await stop_source(source, task)
            await server.stop()


#: A deletion the client cannot see, then compaction: only a relist can notice it.
DELETED_DURING_COMPACTED_OUTAGE = [
    ("put", "Subscription", "ns-a", "x", 1),
    ("put", "copy", "ns-b", "y", 1),
    ("pause", "", "", "", 0),
    ("outage", "", "", "", 0),
    ("delete", "Subscription", "ns-a", "x", 0),
    ("delete", "copy", "ns-b", "y", 0),
    ("put", "ClusterServiceVersion", "ns-a", "z", 2),
    ("compacted outage", "", "", "", 0),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=25))
@example(DELETED_DURING_COMPACTED_OUTAGE)
def test_random_changes_end_with_cache_equal_to_server(ops: list) -> None:
    asyncio.run(scenario(ops))
