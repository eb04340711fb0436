"""The loopback API server over real HTTP: discovery, get, list, pagination, selectors,
metadata-only and Table answers, Status bodies, and the read-only guarantee."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from apiserver_support import CSVS, OLM, TABLE, csv_names, get_json, serving

from olmtui.apiserver import LoopbackAPIServer

POM_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
POM = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"


async def test_discovery_lists_the_olm_groups_and_their_resources() -> None:
    async with serving([]) as (_, session):
        core = await get_json(session, "/api")
        assert core["kind"] == "APIVersions" and core["versions"] == ["v1"]
        groups = {
            g["name"]: [v["version"] for v in g["versions"]]
            for g in (await get_json(session, "/apis"))["groups"]
        }
        assert set(groups["operators.coreos.com"]) == {"v1alpha1", "v1", "v2"}
        assert groups["packages.operators.coreos.com"] == ["v1"]
        assert groups["apiextensions.k8s.io"] == ["v1"]
        v1alpha1 = await get_json(session, OLM)
        assert v1alpha1["groupVersion"] == "operators.coreos.com/v1alpha1"
        by_name = {r["name"]: r for r in v1alpha1["resources"]}
        assert set(by_name) == {
            "clusterserviceversions",
            "subscriptions",
            "installplans",
            "catalogsources",
        }
        csv = by_name["clusterserviceversions"]
        assert csv["kind"] == "ClusterServiceVersion" and csv["namespaced"] is True
        assert csv["shortNames"] == ["csv", "csvs"] and csv["singularName"]
        assert "olm" in csv["categories"] and "watch" in csv["verbs"]
        assert by_name["subscriptions"]["shortNames"] == ["sub", "subs"]
        v1 = {
            r["kind"]: r
            for r in (await get_json(session, "/apis/operators.coreos.com/v1"))["resources"]
        }
        assert v1["OperatorGroup"]["shortNames"] == ["og"]
        assert v1["OLMConfig"]["namespaced"] is False
        v2 = await get_json(session, "/apis/operators.coreos.com/v2")
        assert [r["kind"] for r in v2["resources"]] == ["OperatorCondition"]
        packages = await get_json(session, "/apis/packages.operators.coreos.com/v1")
        manifest = packages["resources"][0]
        assert (manifest["kind"], manifest["namespaced"], manifest["verbs"]) == (
            "PackageManifest",
            True,
            ["get", "list"],
        )
        namespaces = (await get_json(session, "/api/v1"))["resources"][0]
        assert (namespaces["name"], namespaces["namespaced"]) == ("namespaces", False)
        crds = await get_json(session, "/apis/apiextensions.k8s.io/v1")
        assert crds["resources"][0]["kind"] == "CustomResourceDefinition"
        assert (await get_json(session, "/version"))["major"] == "1"
        assert (await get_json(session, "/apis/operators.coreos.com"))["kind"] == "APIGroup"
        missing = await get_json(session, "/openapi/v2", expect=404)
        assert (missing["kind"], missing["reason"]) == ("Status", "NotFound")


async def test_aggregated_discovery_when_asked_for_first() -> None:
    aggregated = (
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
    )
    async with serving([]) as (_, session):
        async with session.get("/apis", headers={"Accept": aggregated}) as response:
            assert response.headers["Content-Type"] == (
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
            )
            body = await response.json(content_type=None)
        assert (body["kind"], body["apiVersion"]) == (
            "APIGroupDiscoveryList",
            "apidiscovery.k8s.io/v2",
        )
        olm = next(g for g in body["items"] if g["metadata"]["name"] == "operators.coreos.com")
        assert [v["version"] for v in olm["versions"]] == ["v2", "v1", "v1alpha1"]
        v1alpha1 = {r["resource"]: r for r in olm["versions"][2]["resources"]}
        csv = v1alpha1["clusterserviceversions"]
        assert csv["responseKind"] == {
            "group": "operators.coreos.com",
            "version": "v1alpha1",
            "kind": "ClusterServiceVersion",
        }
        assert (csv["scope"], csv["shortNames"]) == ("Namespaced", ["csv", "csvs"])
        core = await get_json(session, "/api", accept=aggregated)
        assert [r["resource"] for r in core["items"][0]["versions"][0]["resources"]] == [
            "namespaces",
            "services",
            "pods",
            "events",
        ]
        # a client that prefers the legacy form gets it
        legacy = await get_json(session, "/apis", accept="application/json")
        assert legacy["kind"] == "APIGroupList"


async def test_list_all_namespaces_carries_list_kind_and_store_resource_version() -> None:
    async with serving() as (server, session):
        body = await get_json(session, CSVS)
        assert body["apiVersion"] == "operators.coreos.com/v1alpha1"
        assert body["kind"] == "ClusterServiceVersionList"
        assert body["metadata"] == {"resourceVersion": server.state.resource_version}
        assert len(body["items"]) == 9
        assert all(i["kind"] == "ClusterServiceVersion" for i in body["items"])
        assert all(i["apiVersion"] == "operators.coreos.com/v1alpha1" for i in body["items"])
        assert csv_names(body["items"]) == sorted(csv_names(body["items"]))


async def test_namespaced_list_and_cluster_scoped_list() -> None:
    async with serving() as (_, session):
        body = await get_json(session, f"{OLM}/namespaces/default/clusterserviceversions")
        assert {i["metadata"]["namespace"] for i in body["items"]} == {"default"}
        assert len(body["items"]) == 2
        empty = await get_json(session, f"{OLM}/namespaces/nowhere/clusterserviceversions")
        assert empty["items"] == []
        namespaces = await get_json(session, "/api/v1/namespaces")
        assert namespaces["kind"] == "NamespaceList"
        assert {n["metadata"]["name"] for n in namespaces["items"]} == {
            "default",
            "openshift-etcd",
            "openshift-operator-lifecycle-manager",
        }
        operators = await get_json(session, "/apis/operators.coreos.com/v1/operators")
        assert len(operators["items"]) == 2


async def test_get_one_object_and_404_status_when_absent() -> None:
    async with serving() as (_, session):
        path = f"{OLM}/namespaces/cfe-test-namespace/subscriptions"
        sub = await get_json(session, f"{path}/projectrequestlimits-v0-0-1-sub")
        assert sub["kind"] == "Subscription" and sub["spec"]["name"] == "projectrequestlimits"
        missing = await get_json(session, f"{path}/nope", expect=404)
        assert missing == {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": 'subscriptions.operators.coreos.com "nope" not found',
            "reason": "NotFound",
            "details": {"name": "nope", "group": "operators.coreos.com", "kind": "subscriptions"},
            "code": 404,
        }
        ns = await get_json(session, "/api/v1/namespaces/default")
        assert ns["kind"] == "Namespace"
        # a namespaced resource has no cluster-scoped item path
        await get_json(session, f"{CSVS}/packageserver", expect=404)


async def test_pagination_serves_every_page_from_the_first_pages_snapshot() -> None:
    async with serving() as (server, session):
        expected = csv_names((await get_json(session, CSVS))["items"])
        first = await get_json(session, CSVS, limit="4")
        rv = first["metadata"]["resourceVersion"]
        assert len(first["items"]) == 4
        assert first["metadata"]["remainingItemCount"] == 5
        # the cluster changes between pages; the pages must not
        server.state.delete("csv", "openshift-operators", "projectrequestlimits.v0.0.1")
        copy = server.state.get("csv", "default", "image-caching-operator.v0.0.1")
        copy["metadata"]["namespace"] = "zzz-new"
        server.state.create(copy)
        pages = [first]
        while token := pages[-1]["metadata"].get("continue"):
            pages.append(await get_json(session, CSVS, limit="4", **{"continue": token}))
        assert [len(p["items"]) for p in pages] == [4, 4, 1]
        assert {p["metadata"]["resourceVersion"] for p in pages} == {rv}
        assert [n for p in pages for n in csv_names(p["items"])] == expected
        assert "remainingItemCount" not in pages[-1]["metadata"]


async def test_pagination_with_a_selector_has_no_remaining_count() -> None:
    async with serving() as (_, session):
        page = await get_json(session, CSVS, limit="1", labelSelector="!olm.copiedFrom")
        assert page["metadata"]["continue"] and "remainingItemCount" not in page["metadata"]
        rest = await get_json(
            session,
            CSVS,
            limit="5",
            labelSelector="!olm.copiedFrom",
            **{"continue": page["metadata"]["continue"]},
        )
        assert len(page["items"]) + len(rest["items"]) == 3


async def test_expired_or_unknown_continue_token_is_410_expired() -> None:
    async with serving() as (server, session):
        token = (await get_json(session, CSVS, limit="2"))["metadata"]["continue"]
        server.compact()
        gone = await get_json(session, CSVS, limit="2", expect=410, **{"continue": token})
        assert (gone["kind"], gone["reason"], gone["code"]) == ("Status", "Expired", 410)
        assert "too old to display a consistent list" in gone["message"]
        unknown = await get_json(session, CSVS, expect=410, **{"continue": "bm90LWEtdG9rZW4"})
        assert unknown["reason"] == "Expired"
    async with serving(continue_ttl=0.0) as (_, session):
        token = (await get_json(session, CSVS, limit="2"))["metadata"]["continue"]
        await asyncio.sleep(0.01)
        await get_json(session, CSVS, limit="2", expect=410, **{"continue": token})


async def test_label_and_field_selectors_filter_lists() -> None:
    async with serving() as (_, session):
        originals = await get_json(session, CSVS, labelSelector="!olm.copiedFrom")
        assert csv_names(originals["items"]) == [
            ("cfe-test-namespace", "image-caching-operator.v0.0.1"),
            ("cfe-test-namespace", "projectrequestlimits.v0.0.1"),
            ("openshift-operator-lifecycle-manager", "packageserver"),
        ]
        copies = await get_json(session, CSVS, labelSelector="olm.copiedFrom=cfe-test-namespace")
        assert len(copies["items"]) == 6
        notin = await get_json(
            session, CSVS, labelSelector="olm.copiedFrom notin (cfe-test-namespace)"
        )
        assert len(notin["items"]) == 3
        named = await get_json(session, CSVS, fieldSelector="metadata.name=packageserver")
        assert csv_names(named["items"]) == [
            ("openshift-operator-lifecycle-manager", "packageserver")
        ]
        in_default = await get_json(
            session,
            CSVS,
            fieldSelector="metadata.namespace=default",
            labelSelector="olm.copiedFrom",
        )
        assert len(in_default["items"]) == 2
        bad = await get_json(session, CSVS, labelSelector="a in (b", expect=400)
        assert bad["reason"] == "BadRequest"
        await get_json(session, CSVS, fieldSelector="status.phase=Failed", expect=400)


async def test_partial_object_metadata_list_and_get_return_metadata_only() -> None:
    async with serving() as (_, session):
        body = await get_json(
            session, CSVS, accept=f"{POM_LIST},application/json", labelSelector="olm.copiedFrom"
        )
        assert (body["kind"], body["apiVersion"]) == ("PartialObjectMetadataList", "meta.k8s.io/v1")
        assert body["metadata"]["resourceVersion"]
        item = body["items"][0]
        assert set(item) == {"kind", "apiVersion", "metadata"}
        assert item["kind"] == "PartialObjectMetadata"
        assert item["metadata"]["labels"]["olm.copiedFrom"] == "cfe-test-namespace"
        one = await get_json(
            session,
            f"{OLM}/namespaces/default/clusterserviceversions/projectrequestlimits.v0.0.1",
            accept=POM,
        )
        assert one["kind"] == "PartialObjectMetadata" and "spec" not in one
        # PartialObjectMetadata is for single objects: a list falls through to the next type
        fallback = await get_json(session, CSVS, accept=f"{POM},application/json")
        assert fallback["kind"] == "ClusterServiceVersionList"
        refused = await get_json(session, CSVS, accept=POM, expect=406)
        assert refused["reason"] == "NotAcceptable"


async def test_metadata_list_is_labelled_with_its_content_type() -> None:
    async with (
        serving() as (_, session),
        session.get(CSVS, headers={"Accept": POM_LIST}) as response,
    ):
        assert response.headers["Content-Type"].startswith(
            "application/json;as=PartialObjectMetadataList"
        )


async def test_table_answer_has_olm_printer_columns_and_metadata_rows() -> None:
    async with serving() as (_, session):
        table = await get_json(session, CSVS, accept=TABLE)
        assert (table["kind"], table["apiVersion"]) == ("Table", "meta.k8s.io/v1")
        assert [c["name"] for c in table["columnDefinitions"]] == [
            "Name",
            "Display",
            "Version",
            "Replaces",
            "Phase",
        ]
        row = next(r for r in table["rows"] if r["cells"][0] == "packageserver")
        assert row["cells"] == ["packageserver", "Package Server", "0.17.0", None, "Succeeded"]
        assert row["object"]["kind"] == "PartialObjectMetadata"
        assert row["object"]["metadata"]["namespace"] == "openshift-operator-lifecycle-manager"
        full = await get_json(session, CSVS, accept=TABLE, includeObject="Object")
        assert full["rows"][0]["object"]["kind"] == "ClusterServiceVersion"
        plans = await get_json(session, f"{OLM}/installplans", accept=TABLE)
        assert [c["name"] for c in plans["columnDefinitions"]] == [
            "Name",
            "CSV",
            "Approval",
            "Approved",
        ]
        assert {tuple(r["cells"][1:]) for r in plans["rows"]} == {
            ("image-caching-operator.v0.0.1", "Manual", True),
            ("projectrequestlimits.v0.0.1", "Manual", True),
        }


async def test_forbidden_resource_answers_with_the_real_403_status() -> None:
    async with serving() as (server, session):
        server.forbid("ClusterServiceVersion")
        body = await get_json(session, CSVS, expect=403)
        assert body == {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": "clusterserviceversions.operators.coreos.com is forbidden: User "
            '"olmtui-test" cannot list resource "clusterserviceversions" in API '
            'group "operators.coreos.com" at the cluster scope',
            "reason": "Forbidden",
            "details": {"group": "operators.coreos.com", "kind": "clusterserviceversions"},
            "code": 403,
        }
        watch = await get_json(session, CSVS, expect=403, watch="true")
        assert 'cannot watch resource "clusterserviceversions"' in watch["message"]
        server.allow("csv")
        await get_json(session, CSVS)


async def test_forbidden_in_one_namespace_only() -> None:
    async with serving() as (server, session):
        server.forbid("subscriptions", "cfe-test-namespace")
        path = f"{OLM}/namespaces/cfe-test-namespace/subscriptions"
        body = await get_json(session, path, expect=403)
        assert body["message"].endswith(
            'cannot list resource "subscriptions" in API group '
            '"operators.coreos.com" in the namespace '
            '"cfe-test-namespace"'
        )
        one = await get_json(session, f"{path}/projectrequestlimits-v0-0-1-sub", expect=403)
        assert one["details"]["name"] == "projectrequestlimits-v0-0-1-sub"
        assert one["message"].startswith(
            'subscriptions.operators.coreos.com "projectrequestlimits-v0-0-1-sub" is forbidden'
        )
        await get_json(session, f"{OLM}/namespaces/default/subscriptions")
        namespaces = "/api/v1/namespaces"
        server.forbid("ns", verbs=["list"])
        core = await get_json(session, namespaces, expect=403)
        assert core["message"].startswith(
            'namespaces is forbidden: User "olmtui-test" cannot '
            'list resource "namespaces" in API group ""'
        )
        await get_json(session, f"{namespaces}/default")  # get is still allowed


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
async def test_every_method_but_get_is_refused_with_405(method: str) -> None:
    async with serving() as (server, session):
        path = f"{OLM}/namespaces/default/clusterserviceversions/projectrequestlimits.v0.0.1"
        async with session.request(method, path, json={}) as response:
            assert response.status == 405
            body = await response.json()
        assert (body["reason"], body["code"]) == ("MethodNotAllowed", 405)
        assert server.state.get("csv", "default", "projectrequestlimits.v0.0.1") is not None
        assert [(r.method, r.path) for r in server.requests] == [(method, path)]


async def test_package_manifests_are_listed_and_got_but_not_watched() -> None:
    async with serving() as (server, session):
        path = (
            "/apis/packages.operators.coreos.com/v1/namespaces/"
            "openshift-operator-lifecycle-manager/packagemanifests"
        )
        listed = await get_json(session, path)
        assert listed["kind"] == "PackageManifestList"
        assert "etcd" in {i["metadata"]["name"] for i in listed["items"]}
        etcd = await get_json(session, f"{path}/etcd")
        assert etcd["status"]["packageName"] == "etcd"
        refused = await get_json(session, path, expect=405, watch="1")
        assert refused["reason"] == "MethodNotAllowed"
        assert {r.query.get("watch") for r in server.requests} == {None, "1"}


async def test_requests_are_recorded_with_query_and_accept() -> None:
    async with serving() as (server, session):
        await get_json(session, CSVS, accept=TABLE, labelSelector="!olm.copiedFrom", limit="2")
        record = server.requests[-1]
        assert (record.method, record.path, record.accept) == ("GET", CSVS, TABLE)
        assert record.query == {"labelSelector": "!olm.copiedFrom", "limit": "2"}


async def test_unreachable_server_closes_connections_until_reachable_again() -> None:
    async with serving() as (server, session):
        server.set_unreachable(True)
        with pytest.raises(aiohttp.ClientConnectionError):
            await get_json(session, CSVS)
        server.set_unreachable(False)
        assert len((await get_json(session, CSVS))["items"]) == 9


async def test_restart_keeps_state_and_port() -> None:
    server = LoopbackAPIServer()
    server.state.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}})
    url = await server.start()
    try:
        assert await server.restart() == url
        async with aiohttp.ClientSession(url) as session:
            body = await get_json(session, "/api/v1/namespaces/a")
        assert body["metadata"]["name"] == "a"
    finally:
        await server.stop()
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await get_json(session, f"{url}/api")
