"""Watch streams over real HTTP: initial state, resume from a resourceVersion, bookmarks,
410 after compaction, selectors, metadata-only events, timeouts and the failure controls."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from apiserver_support import CSVS, OLM, TABLE, get_json, read_events, serving
from conftest import wait_for

POM = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
PACKAGESERVER = ("csv", "openshift-operator-lifecycle-manager", "packageserver")


def _with_phase(obj: dict, phase: str) -> dict:
    return {**obj, "status": {**obj.get("status", {}), "phase": phase}}


async def test_watch_without_resource_version_starts_with_current_objects_as_added() -> None:
    async with serving() as (server, session):
        params = {"watch": "true", "labelSelector": "!olm.copiedFrom"}
        async with session.get(CSVS, params=params) as response:
            assert response.status == 200
            assert response.headers["Transfer-Encoding"] == "chunked"
            initial = await read_events(response, 3)
            assert {e["type"] for e in initial} == {"ADDED"}
            assert {e["object"]["metadata"]["name"] for e in initial} == {
                "image-caching-operator.v0.0.1",
                "projectrequestlimits.v0.0.1",
                "packageserver",
            }
            csv = server.state.get(*PACKAGESERVER)
            server.state.update(_with_phase(csv, "Failed"))
            (modified,) = await read_events(response, 1)
        assert modified["type"] == "MODIFIED"
        assert modified["object"]["status"]["phase"] == "Failed"
        assert modified["object"]["metadata"]["resourceVersion"] == server.state.resource_version


async def test_watch_from_resource_version_replays_only_later_changes() -> None:
    async with serving() as (server, session):
        rv = (await get_json(session, CSVS))["metadata"]["resourceVersion"]
        csv = server.state.get(*PACKAGESERVER)
        server.state.update(_with_phase(csv, "Replacing"))
        server.state.delete(*PACKAGESERVER)
        async with session.get(CSVS, params={"watch": "1", "resourceVersion": rv}) as response:
            modified, deleted = await read_events(response, 2)
            assert modified["type"] == "MODIFIED"
            assert deleted["type"] == "DELETED"
            assert deleted["object"]["status"]["phase"] == "Replacing"
            assert deleted["object"]["metadata"]["resourceVersion"] == server.state.resource_version
            server.state.create(csv)
            (added,) = await read_events(response, 1)
        assert added["type"] == "ADDED"


async def test_namespaced_watch_sees_only_its_namespace() -> None:
    async with serving() as (server, session):
        path = f"{OLM}/namespaces/default/clusterserviceversions"
        rv = server.state.resource_version
        async with session.get(path, params={"watch": "true", "resourceVersion": rv}) as resp:
            server.state.update(_with_phase(server.state.get(*PACKAGESERVER), "Failed"))
            copy = server.state.get("csv", "default", "projectrequestlimits.v0.0.1")
            server.state.update(_with_phase(copy, "Failed"))
            (event,) = await read_events(resp, 1)
        assert event["object"]["metadata"]["namespace"] == "default"


async def test_bookmarks_carry_only_kind_api_version_and_resource_version() -> None:
    async with serving(bookmark_interval=0.05) as (server, session):
        rv = server.state.resource_version
        server.state.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}})
        params = {"watch": "true", "resourceVersion": rv, "allowWatchBookmarks": "true"}
        async with session.get(CSVS, params=params) as response:
            (bookmark,) = await read_events(response, 1)
        assert bookmark == {
            "type": "BOOKMARK",
            "object": {
                "kind": "ClusterServiceVersion",
                "apiVersion": "operators.coreos.com/v1alpha1",
                "metadata": {"resourceVersion": server.state.resource_version},
            },
        }


async def test_no_bookmarks_unless_asked_and_timeout_seconds_ends_the_stream() -> None:
    async with serving(bookmark_interval=0.05) as (server, session):
        params = {
            "watch": "true",
            "resourceVersion": server.state.resource_version,
            "timeoutSeconds": "1",
        }
        async with session.get(CSVS, params=params) as response:
            body = await response.read()  # returns only when the server ends the stream
        assert body == b""


async def test_watch_from_a_compacted_resource_version_gets_a_410_error_event() -> None:
    async with serving() as (server, session):
        rv = server.state.resource_version
        server.state.update(_with_phase(server.state.get(*PACKAGESERVER), "Failed"))
        server.compact()
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": rv}) as resp:
            assert resp.status == 200
            lines = (await resp.read()).splitlines()
        assert len(lines) == 1
        event = json.loads(lines[0])
        assert event["type"] == "ERROR"
        status = event["object"]
        assert (status["kind"], status["code"], status["reason"]) == ("Status", 410, "Expired")
        assert status["message"] == f"too old resource version: {rv} ({int(rv) + 2})"


async def test_history_window_bounds_how_far_back_a_watch_can_resume() -> None:
    async with serving(history=2) as (server, session):
        rv = server.state.resource_version
        for phase in ("A", "B", "C"):
            server.state.update(_with_phase(server.state.get(*PACKAGESERVER), phase))
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": rv}) as resp:
            (event,) = await read_events(resp, 1)
        assert event["type"] == "ERROR" and event["object"]["code"] == 410
        recent = str(int(rv) + 1)
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": recent}) as r:
            events = await read_events(r, 2)
        assert [e["object"]["status"]["phase"] for e in events] == ["B", "C"]


async def test_selector_watch_sends_deleted_when_an_object_stops_matching() -> None:
    async with serving() as (server, session):
        params = {
            "watch": "true",
            "resourceVersion": server.state.resource_version,
            "labelSelector": "!olm.copiedFrom",
        }
        async with session.get(CSVS, params=params) as response:
            copy = server.state.get("csv", "default", "projectrequestlimits.v0.0.1")
            server.state.update(_with_phase(copy, "Failed"))  # a copy: not seen
            original = server.state.get(*PACKAGESERVER)
            original["metadata"]["labels"] = {"olm.copiedFrom": "elsewhere"}
            server.state.update(original)
            del original["metadata"]["labels"]
            server.state.update(original)
            gone, back = await read_events(response, 2)
        assert (gone["type"], gone["object"]["metadata"]["name"]) == ("DELETED", "packageserver")
        # the DELETED event carries the last state that matched
        assert "olm.copiedFrom" not in gone["object"]["metadata"].get("labels", {})
        assert (back["type"], back["object"]["metadata"]["name"]) == ("ADDED", "packageserver")


async def test_metadata_only_watch_events_and_bookmarks() -> None:
    async with serving(bookmark_interval=0.05) as (server, session):
        params = {
            "watch": "true",
            "labelSelector": "olm.copiedFrom",
            "fieldSelector": "metadata.namespace=default",
            "allowWatchBookmarks": "true",
        }
        async with session.get(CSVS, params=params, headers={"Accept": POM}) as response:
            assert response.headers["Content-Type"].startswith(
                "application/json;as=PartialObjectMetadata;"
            )
            events = await read_events(response, 3)
        added, bookmark = events[:2], events[2]
        for event in added:
            assert event["type"] == "ADDED"
            assert set(event["object"]) == {"kind", "apiVersion", "metadata"}
            assert event["object"]["kind"] == "PartialObjectMetadata"
            assert event["object"]["metadata"]["labels"]["olm.copiedFrom"]
        assert bookmark["type"] == "BOOKMARK"
        assert bookmark["object"]["kind"] == "PartialObjectMetadata"
        assert bookmark["object"]["metadata"] == {"resourceVersion": server.state.resource_version}


async def test_table_watch_events_carry_one_row_each() -> None:
    async with serving() as (_, session):
        params = {"watch": "true", "fieldSelector": "metadata.name=packageserver"}
        async with session.get(CSVS, params=params, headers={"Accept": TABLE}) as response:
            (event,) = await read_events(response, 1)
        assert event["object"]["kind"] == "Table"
        assert [r["cells"][0] for r in event["object"]["rows"]] == ["packageserver"]


async def test_drop_connections_cuts_open_watches_mid_stream() -> None:
    async with serving() as (server, session):
        params = {"watch": "true", "resourceVersion": server.state.resource_version}
        async with session.get(CSVS, params=params) as response:
            await wait_for(lambda: server.open_watches == 1, "the watch open")
            server.drop_connections()
            with pytest.raises(aiohttp.ClientPayloadError):
                await response.read()
        assert (await get_json(session, CSVS))["items"]  # the server itself is fine


async def test_stalled_watches_stay_open_but_silent_until_released() -> None:
    async with serving() as (server, session):
        params = {"watch": "true", "resourceVersion": server.state.resource_version}
        async with session.get(CSVS, params=params) as response:
            server.stall_watches(True)
            server.state.update(_with_phase(server.state.get(*PACKAGESERVER), "Failed"))
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(response.content.readline(), 0.3)
            # a new watch gets not even its response headers while stalled
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.3):
                    await session.get(CSVS, params=params)
            server.stall_watches(False)
            (event,) = await read_events(response, 1)
        assert event["object"]["status"]["phase"] == "Failed"
        assert (await get_json(session, CSVS))["items"]  # lists were never stalled


async def test_restart_closes_watches_cleanly_and_keeps_history_unless_cleared() -> None:
    async with serving() as (server, session):
        rv = server.state.resource_version
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": rv}) as resp:
            await wait_for(lambda: server.open_watches == 1, "the watch open")
            await server.restart()
            assert await resp.read() == b""  # a clean end of stream, not a payload error
        server.state.update(_with_phase(server.state.get(*PACKAGESERVER), "Failed"))
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": rv}) as resp:
            (event,) = await read_events(resp, 1)
        assert event["type"] == "MODIFIED"
        await server.restart(clear_history=True)
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": rv}) as resp:
            (event,) = await read_events(resp, 1)
        assert event["type"] == "ERROR" and event["object"]["reason"] == "Expired"


async def test_resource_version_the_server_never_reached_is_a_504_timeout() -> None:
    """A resourceVersion remembered from another server must not silently skip events."""
    async with serving() as (server, session):
        ahead = str(server.state.current_rv + 100)
        async with session.get(CSVS, params={"watch": "true", "resourceVersion": ahead}) as r:
            assert r.status == 504
            body = json.loads(await r.read())
        assert (body["reason"], body["code"]) == ("Timeout", 504)
        assert body["details"]["causes"][0]["reason"] == "ResourceVersionTooLarge"
        listed = await get_json(session, CSVS, expect=504, resourceVersion=ahead)
        assert listed["message"].startswith("Timeout: Too large resource version")
        await get_json(session, CSVS, expect=400, watch="true", resourceVersion="abc")
