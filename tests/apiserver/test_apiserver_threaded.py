"""The server on its own loop in a daemon thread, driven from a blocking caller (as kubectl
tests and ``olmtui demo`` do)."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request

import aiohttp
import pytest
from apiserver_support import CSVS, must_gather_objects, read_events

from olmtui.apiserver import LoopbackAPIServer, run_in_thread


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def test_state_calls_from_the_calling_thread_are_served_at_once() -> None:
    with run_in_thread(LoopbackAPIServer()) as handle:
        assert handle.load(must_gather_objects()) == 26
        assert len(_get(handle.url + CSVS)["items"]) == 9
        handle.delete("csv", "default", "projectrequestlimits.v0.0.1")
        ns = handle.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}})
        assert len(_get(handle.url + CSVS)["items"]) == 8
        listed = _get(handle.url + "/api/v1/namespaces")
        assert listed["metadata"]["resourceVersion"] == ns["metadata"]["resourceVersion"]
        assert handle.get("ns", None, "x") is not None


def test_controls_and_coroutines_run_on_the_server_loop() -> None:
    with run_in_thread(LoopbackAPIServer()) as handle:
        handle.call(handle.server.forbid, "csv")
        with pytest.raises(urllib.error.HTTPError) as raised:
            _get(handle.url + CSVS)
        assert raised.value.code == 403
        raised.value.close()
        url = handle.run(handle.server.restart())
        assert url == handle.url
        handle.call(handle.server.allow, "csv")
        assert _get(handle.url + CSVS)["items"] == []


def test_stop_frees_the_port_and_can_be_called_twice() -> None:
    handle = run_in_thread(LoopbackAPIServer())
    port = handle.server.port
    handle.stop()
    handle.stop()
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0


def test_start_failure_is_raised_in_the_calling_thread() -> None:
    with run_in_thread(LoopbackAPIServer()) as first:
        second = LoopbackAPIServer(port=first.server.port)
        with pytest.raises(OSError):
            run_in_thread(second)


def test_changes_made_directly_from_another_thread_reach_watchers_once_in_order() -> None:
    """ClusterState may be changed off the server's loop: events hop onto the loop."""
    with run_in_thread(LoopbackAPIServer()) as handle:
        handle.load(must_gather_objects())
        state = handle.server.state
        csv = state.get("csv", "openshift-operator-lifecycle-manager", "packageserver")

        async def watch_while_changing() -> list[dict]:
            async with aiohttp.ClientSession(handle.url) as session:
                params = {"watch": "true", "fieldSelector": "metadata.name=packageserver"}
                async with session.get(CSVS, params=params) as response:
                    (added,) = await read_events(response, 1)
                    for i in range(50):  # straight from this thread, not through the handle
                        state.update(
                            {**csv, "status": {"phase": "Installing", "message": f"step {i}"}}
                        )
                    return [added, *await read_events(response, 50)]

        events = asyncio.run(watch_while_changing())
    assert [e["type"] for e in events] == ["ADDED"] + ["MODIFIED"] * 50
    assert [e["object"]["status"].get("message") for e in events[1:]] == [
        f"step {i}" for i in range(50)
    ]
    rvs = [int(e["object"]["metadata"]["resourceVersion"]) for e in events]
    assert rvs == sorted(set(rvs))
