"""The real kubernetes-asyncio client against the loopback server: paging, watching,
and the 403 / 410 errors it raises, all configured from a generated kubeconfig."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from apiserver_support import serving
from conftest import wait_for
from kubernetes_asyncio import client, config, watch
from kubernetes_asyncio.client.exceptions import ApiException

CSV_API = ("operators.coreos.com", "v1alpha1", "clusterserviceversions")


async def _api(server_kubeconfig: Path) -> client.ApiClient:
    return await config.new_client_from_config(config_file=str(server_kubeconfig))


async def test_list_cluster_custom_object_pages_with_limit_and_continue(tmp_path: Path) -> None:
    async with serving() as (server, _):
        api_client = await _api(server.write_kubeconfig(tmp_path / "config", token="t0ken"))
        async with api_client:
            api = client.CustomObjectsApi(api_client)
            pages = [await api.list_cluster_custom_object(*CSV_API, limit=2)]
            while token := pages[-1]["metadata"].get("continue"):
                pages.append(
                    await api.list_cluster_custom_object(*CSV_API, limit=2, _continue=token)
                )
        assert [len(p["items"]) for p in pages] == [2, 2, 2, 2, 1]
        names = [
            (i["metadata"]["namespace"], i["metadata"]["name"]) for p in pages for i in p["items"]
        ]
        assert names == [
            (o["metadata"]["namespace"], o["metadata"]["name"]) for o in server.state.list("csv")
        ]
        assert {p["metadata"]["resourceVersion"] for p in pages} == {server.state.resource_version}
        assert any(r.query.get("limit") == "2" and "continue" in r.query for r in server.requests)


async def test_watch_stream_receives_events_after_the_list(tmp_path: Path) -> None:
    async with serving(bookmark_interval=0.05) as (server, _):
        api_client = await _api(server.write_kubeconfig(tmp_path / "config"))
        async with api_client, watch.Watch() as w:
            api = client.CustomObjectsApi(api_client)
            listed = await api.list_cluster_custom_object(
                *CSV_API, label_selector="!olm.copiedFrom"
            )
            rv = listed["metadata"]["resourceVersion"]
            csv = server.state.get("csv", "openshift-operator-lifecycle-manager", "packageserver")

            async def change_later() -> None:
                await wait_for(lambda: server.open_watches == 1, "the watch open")
                server.state.update({**csv, "status": {**csv["status"], "phase": "Failed"}})

            changer = asyncio.create_task(change_later())
            seen = []
            async for event in w.stream(
                api.list_cluster_custom_object,
                *CSV_API,
                label_selector="!olm.copiedFrom",
                resource_version=rv,
                allow_watch_bookmarks=True,
                timeout_seconds=5,
            ):
                seen.append(event["type"])
                if event["type"] == "MODIFIED":
                    assert event["object"]["status"]["phase"] == "Failed"
                    break
            await changer
        assert "MODIFIED" in seen
        assert w.resource_version == server.state.resource_version


async def test_forbidden_list_raises_api_exception_403(tmp_path: Path) -> None:
    async with serving() as (server, _):
        server.forbid("csv")
        api_client = await _api(server.write_kubeconfig(tmp_path / "config"))
        async with api_client:
            api = client.CustomObjectsApi(api_client)
            with pytest.raises(ApiException) as raised:
                await api.list_cluster_custom_object(*CSV_API)
        assert raised.value.status == 403
        assert "cannot list resource" in raised.value.body


async def test_watch_from_compacted_version_raises_410(tmp_path: Path) -> None:
    async with serving() as (server, _):
        rv = server.state.resource_version
        server.state.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}})
        server.compact()
        api_client = await _api(server.write_kubeconfig(tmp_path / "config"))
        async with api_client, watch.Watch() as w:
            api = client.CustomObjectsApi(api_client)
            with pytest.raises(ApiException) as raised:
                async for _ in w.stream(
                    api.list_cluster_custom_object, *CSV_API, resource_version=rv, timeout_seconds=5
                ):
                    pass
        assert raised.value.status == 410
