"""The resolver's problem builder and entry point (``olmtui.model.rules.resolution.resolve``):
OLM's source order for dependencies, the ``@existing`` catalog, what stops resolution, what
olmtui cannot evaluate, and the report fields of a solution. The end-to-end table of OLM's own
tests is ``test_resolution_cases.py``; here each rule is pinned on its own, plus a property
test over random namespaces: every solution satisfies every constraint, every explanation is
minimal, and the same input gives the same answer."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from model_builders import catalog_source, csv, subscription
from solver_models import applied_of, holds, models

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.resolution.resolve import (
    CatalogContent,
    NamespaceObjects,
    _anchors,
    _build,
    _existing,
    _owners,
    _snapshots,
    global_catalog_namespace,
    resolve_namespace,
)
from olmtui.model.rules.resolution.solver import NotSatisfiable, Solution, solve
from olmtui.model.rules.resolution.sources import Sources
from olmtui.pipeline.resolution_inputs import default_global_namespace, resolve_cluster
from olmtui.store import Store

NS = "team"
GLOBAL = "olm"


def gvk(kind: str, group: str = "example.com", version: str = "v1") -> str:
    return json.dumps({"group": group, "kind": kind, "version": version}, separators=(",", ":"))


def bundle(name: str, package: str, version: str, *props: tuple[str, str]) -> Bundle:
    pkg = json.dumps({"packageName": package, "version": version}, separators=(",", ":"))
    return Bundle(name, package, version, properties=(("olm.package", pkg), *props))


def catalog(ref: str, *packages: Package) -> Catalog:
    return Catalog(ref, f"test {ref}", packages={p.name: p for p in packages})


def package(name: str, chain: list[Bundle], channel: str = "stable") -> Package:
    """One channel whose entries replace each other in ``chain`` order (oldest first)."""
    entries = [
        ChannelEntry(b.name, replaces=chain[i - 1].name if i else None) for i, b in enumerate(chain)
    ]
    return Package(
        name,
        default_channel=channel,
        channels={channel: Channel(name, channel, tuple(entries))},
        bundles={b.name: b for b in chain},
    )


def source(namespace: str, name: str, priority: int = 0) -> dict[str, Any]:
    return catalog_source(namespace, name, priority=priority)


def sub(name: str, pkg: str, src: str, src_ns: str = GLOBAL, **status: str) -> dict[str, Any]:
    return subscription(NS, name, package=pkg, source=src, source_ns=src_ns, status=status)


def make_csv(name: str, version: str, owned: tuple[str, ...] = (), **meta: Any) -> dict[str, Any]:
    made = csv(
        NS,
        name,
        bare=True,
        version=version,
        reason=None,
        owned=tuple((k, "v1", f"{k.lower()}s.example.com") for k in owned),
    )
    made["metadata"].update(meta)
    return made


def objects(
    subs: list[dict[str, Any]],
    sources: list[dict[str, Any]],
    csvs: list[dict[str, Any]] = [],  # noqa: B006 - never mutated
    groups: int = 1,
) -> NamespaceObjects:
    by_ns: dict[str, list[dict[str, Any]]] = {}
    for s in sources:
        by_ns.setdefault(s["metadata"]["namespace"], []).append(s)
    return NamespaceObjects(
        namespace=NS,
        operator_groups=[{"metadata": {"name": f"og{i}", "namespace": NS}} for i in range(groups)],
        subscriptions=sorted(subs, key=lambda s: s["metadata"]["name"]),
        csvs=csvs,
        catalog_sources=by_ns,
    )


def dependency_ids(obj: NamespaceObjects, content: CatalogContent, bundle_id: str) -> tuple:
    existing = _existing(obj)
    snapshots = [existing, *_snapshots(obj, content, GLOBAL)]
    builder, _ = _build(obj, Sources(NS, snapshots, _owners(obj, existing)))
    deps = [c for c in builder.drafts[bundle_id].constraints if hasattr(c, "ids")]
    return deps[0].ids


NEEDS_DB = bundle("app.v1", "app", "1.0.0", ("olm.gvk.required", gvk("Database")))


def db_package(name: str) -> Package:
    return package("db", [bundle(name, "db", "1.0.0", ("olm.gvk", gvk("Database")))])


def test_dependencies_prefer_own_catalog_then_priority_then_namespace_then_name() -> None:
    """R-RES-12.2 (``sortableSnapshots.Less``)."""
    content = CatalogContent(
        [
            catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB])),
            catalog(f"{GLOBAL}/zz-high", db_package("db.high")),
            catalog(f"{GLOBAL}/aa-low", db_package("db.low-global")),
            catalog(f"{NS}/zz-local", db_package("db.low-local")),
        ]
    )
    sources = [
        source(GLOBAL, "main"),
        source(GLOBAL, "zz-high", priority=10),
        source(GLOBAL, "aa-low"),
        source(NS, "zz-local"),
    ]
    obj = objects([sub("app", "app", "main")], sources)
    assert dependency_ids(obj, content, "main/olm/stable/app.v1") == (
        "zz-high/olm/stable/db.high",  # higher priority
        "zz-local/team/stable/db.low-local",  # same namespace before a foreign one
        "aa-low/olm/stable/db.low-global",
    )
    # The bundle's own catalog comes before any priority.
    content = CatalogContent(
        [
            catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB]), db_package("db.own")),
            catalog(f"{GLOBAL}/zz-high", db_package("db.high")),
        ]
    )
    obj = objects([sub("app", "app", "main")], sources[:2])
    assert dependency_ids(obj, content, "main/olm/stable/app.v1")[0] == "main/olm/stable/db.own"


def test_an_installed_provider_comes_first_and_is_chosen() -> None:
    """R-RES-12.2, R-RES-17: an installed CSV satisfies the dependency; nothing new for it."""
    content = CatalogContent(
        [catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB]), db_package("db.v2"))]
    )
    installed = make_csv("db.v1", "1.0.0", owned=("Database",))
    obj = objects([sub("app", "app", "main")], [source(GLOBAL, "main")], [installed])
    assert dependency_ids(obj, content, "main/olm/stable/app.v1") == (
        "@existing/team//db.v1",
        "main/olm/stable/db.v2",
    )
    result = resolve_namespace(obj, content, GLOBAL)
    assert result.status == "resolved"
    assert result.changes == ("app.v1",)
    assert {(o.name, o.catalog, o.reason) for o in result.operators} == {
        ("app.v1", "olm/main", "Subscription team/app"),
        ("db.v1", "@existing", "existing"),
    }


def test_a_catalog_dependency_says_whose_it_is() -> None:
    content = CatalogContent(
        [catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB]), db_package("db.v1"))]
    )
    obj = objects([sub("app", "app", "main")], [source(GLOBAL, "main")])
    result = resolve_namespace(obj, content, GLOBAL)
    assert result.changes == ("app.v1", "db.v1")
    reasons = {o.name: o.reason for o in result.operators}
    assert reasons == {"app.v1": "Subscription team/app", "db.v1": "dependency of app.v1"}


def test_nothing_changes_when_the_subscription_already_has_it() -> None:
    """R-RES-20.2: installed, current and referenced: no steps."""
    content = CatalogContent([catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB]))])
    app = make_csv("app.v1", "1.0.0")
    app["spec"]["customresourcedefinitions"]["required"] = [
        {"name": "databases.example.com", "kind": "Database", "version": "v1"}
    ]
    db = make_csv("db.v1", "1.0.0", owned=("Database",))
    subscription = sub("app", "app", "main", installedCSV="app.v1", currentCSV="app.v1")
    result = resolve_namespace(
        objects([subscription], [source(GLOBAL, "main")], [app, db]), content, GLOBAL
    )
    assert result.status == "resolved"
    assert result.changes == ()
    assert {o.reason for o in result.operators} == {"Subscription team/app", "existing"}


def test_unreferenced_csvs_of_one_package_stand_for_each_other() -> None:
    """OLM dedups dependency matches by source info; for installed CSVs that is package and
    owning Subscription, so only the first of two orphans of one package is a candidate."""
    props = {
        "operatorframework.io/properties": json.dumps(
            {
                "properties": [
                    {"type": "olm.package", "value": {"packageName": "db", "version": "1.0.0"}},
                    {
                        "type": "olm.gvk",
                        "value": {"group": "example.com", "kind": "Database", "version": "v1"},
                    },
                ]
            }
        )
    }
    one = make_csv("db.a", "1.0.0", annotations=props)
    two = make_csv("db.b", "1.0.0", annotations=props)
    content = CatalogContent([catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB]))])
    obj = objects([sub("app", "app", "main")], [source(GLOBAL, "main")], [one, two])
    assert dependency_ids(obj, content, "main/olm/stable/app.v1") == ("@existing/team//db.a",)


def test_invalid_existing_properties_stop_as_a_source_error() -> None:
    """R-RES-5: the ``@existing`` source's error, named as OLM names it."""
    broken = make_csv("x.v1", "1.0.0", owned=("Thing",))
    broken["spec"]["customresourcedefinitions"]["owned"][0]["name"] = "nodot"
    content = CatalogContent([catalog(f"{GLOBAL}/main", package("app", [NEEDS_DB]))])
    result = resolve_namespace(
        objects([sub("app", "app", "main")], [source(GLOBAL, "main")], [broken]), content, GLOBAL
    )
    assert (result.status, result.reason) == (
        "failed",
        "error using catalogsource team/@existing: error parsing crd name: nodot",
    )


def test_channel_errors_of_several_subscriptions_are_aggregated() -> None:
    """R-RES-13.2: each Subscription's error is kept; several print as Go's aggregate."""
    two_heads = Package(
        "p",
        default_channel="stable",
        channels={"stable": Channel("p", "stable", (ChannelEntry("p.a"), ChannelEntry("p.b")))},
        bundles={n: bundle(n, "p", "1.0.0") for n in ("p.a", "p.b")},
    )
    q = Package(
        "q",
        default_channel="stable",
        channels={"stable": Channel("q", "stable", (ChannelEntry("q.a", replaces="q.a"),))},
        bundles={"q.a": bundle("q.a", "q", "1.0.0")},
    )
    content = CatalogContent([catalog(f"{GLOBAL}/main", two_heads, q)])
    obj = objects([sub("p", "p", "main"), sub("q", "q", "main")], [source(GLOBAL, "main")])
    result = resolve_namespace(obj, content, GLOBAL)
    assert result.status == "failed"
    assert result.reason is not None
    assert result.reason.startswith("[a unique replacement chain within a channel is required")
    assert 'but 2 replacement chains were found in channel "stable" of package "p": p.a, p.b' in (
        result.reason
    )
    assert result.reason.endswith(
        ', no channel heads (entries not replaced by another entry) found in channel "stable" '
        'of package "q"]'
    )


def test_what_olmtui_cannot_know_is_not_evaluated() -> None:
    """R-RES-22, R-RES-5: no content, PackageManifests only, a source OLM saw but not read."""
    obj = objects([sub("app", "app", "main")], [source(GLOBAL, "main")])
    assert resolve_namespace(obj, CatalogContent([]), GLOBAL).reason == (
        "no catalog content for CatalogSource olm/main"
    )
    listed = Catalog(f"{GLOBAL}/main", "PackageManifests", graph="packagemanifest")
    result = resolve_namespace(obj, CatalogContent([listed]), GLOBAL)
    assert result.status == "not-evaluated"
    assert result.reason is not None and result.reason.startswith(
        "only PackageManifests for CatalogSource olm/main"
    )
    seen = sub("app", "app", "main")
    seen["status"]["catalogHealth"] = [
        {"catalogSourceRef": {"namespace": GLOBAL, "name": "gone"}, "healthy": True}
    ]
    result = resolve_namespace(
        objects([seen], [source(GLOBAL, "main")]),
        CatalogContent([catalog(None, db_package("x"))]),
        GLOBAL,
    )
    assert (result.status, result.reason) == (
        "not-evaluated",
        "CatalogSource olm/gone is not among the objects read",
    )


def test_content_for_every_catalog_serves_each_one() -> None:
    """``--catalog PATH`` without a binding serves every CatalogSource."""
    content = CatalogContent([catalog(None, db_package("db.v1"))])
    obj = objects([sub("db", "db", "main")], [source(GLOBAL, "main")])
    assert resolve_namespace(obj, content, GLOBAL).changes == ("db.v1",)


def test_global_catalog_namespace_and_cluster_order() -> None:
    store = Store()
    store.apply_many(
        [
            sub("b", "db", "main"),
            {**sub("a", "db", "main"), "metadata": {"namespace": "aaa", "name": "a"}},
        ]
    )
    assert global_catalog_namespace(False) == "olm"
    assert global_catalog_namespace(True) == "openshift-marketplace"
    assert default_global_namespace(store) == "olm"
    store.apply_many([{"kind": "Namespace", "metadata": {"name": "openshift-marketplace"}}])
    assert default_global_namespace(store) == "openshift-marketplace"
    assert [r.namespace for r in resolve_cluster(store, [])] == ["aaa", NS]
    # explain resolves one namespace; one without a Subscription resolves nothing
    assert [r.namespace for r in resolve_cluster(store, [], only=[NS, "empty"])] == [NS]


# -- property test: random namespaces through the whole builder -----------------------------

KINDS = ("A", "B")


@st.composite
def namespaces(draw: st.DrawFn) -> tuple[NamespaceObjects, CatalogContent]:
    packages = []
    for p in ("p", "q"):
        chain = []
        for v in range(draw(st.integers(1, 3))):
            props = [("olm.gvk", gvk(k)) for k in draw(st.sets(st.sampled_from(KINDS), max_size=1))]
            props += [
                ("olm.gvk.required", gvk(k))
                for k in draw(st.sets(st.sampled_from(KINDS), max_size=1))
            ]
            if draw(st.integers(0, 5)) == 0:
                props.append(("olm.deprecated", "{}"))
            chain.append(bundle(f"{p}.v{v}", p, f"1.{v}.0", *props))
        packages.append(package(p, chain))
    csvs = [
        make_csv(f"{p}.v0", "1.0.0", owned=tuple(draw(st.sets(st.sampled_from(KINDS), max_size=1))))
        for p in ("p", "q")
        if draw(st.booleans())
    ]
    subs = []
    for p in ("p", "q"):
        if draw(st.booleans()):
            installed = f"{p}.v0" if any(c["metadata"]["name"] == f"{p}.v0" for c in csvs) else ""
            subs.append(
                sub(p, p, "main", installedCSV=installed) if installed else sub(p, p, "main")
            )
    subs = subs or [sub("p", "p", "main")]
    obj = objects(subs, [source(GLOBAL, "main")], csvs)
    return obj, CatalogContent([catalog(f"{GLOBAL}/main", *packages)])


@settings(max_examples=150, deadline=None)
@given(namespaces())
def test_random_namespaces_solve_soundly_minimally_and_stably(
    case: tuple[NamespaceObjects, CatalogContent],
) -> None:
    obj, content = case
    existing = _existing(obj)
    sources = Sources(NS, [existing, *_snapshots(obj, content, GLOBAL)], _owners(obj, existing))
    builder, extra = _build(obj, sources)
    variables = [d.frozen() for d in builder.drafts.values()] + extra
    result = solve(variables, _anchors(builder, extra))
    if isinstance(result, Solution):
        true = set(result.selected)
        assert all(holds(c, true) for c in applied_of(variables))
    else:
        assert isinstance(result, NotSatisfiable)
        core = list(result.constraints)
        assert not models(variables, core)
        for k in range(len(core)):
            assert models(variables, core[:k] + core[k + 1 :])
    assert resolve_namespace(obj, content, GLOBAL) == resolve_namespace(obj, content, GLOBAL)


def test_a_package_missing_from_content_given_is_unknown_not_absent() -> None:
    """R-DOC-8, R-RES-22: content given may be part of the catalog; only the source's live
    PackageManifests (the whole list) show a package is really not served."""
    obj = objects([sub("app", "app", "main")], [source(GLOBAL, "main")])
    partial = catalog(f"{GLOBAL}/main", db_package("db.v1"))
    result = resolve_namespace(obj, CatalogContent([partial]), GLOBAL)
    assert (result.status, result.reason) == (
        "not-evaluated",
        "package app of Subscription team/app is not in the catalog content given for "
        "CatalogSource olm/main",
    )
    listed = Catalog(f"{GLOBAL}/main", "PackageManifests", graph="packagemanifest", whole=True)
    listed.packages["db"] = Package("db")
    result = resolve_namespace(obj, CatalogContent([partial, listed]), GLOBAL)
    assert result.status == "unsatisfiable"
    assert result.explanation[0].constraint == (
        "no operators found in package app in the catalog referenced by subscription app"
    )


def test_a_namespace_session_that_did_not_read_the_global_catalogs_is_not_evaluated() -> None:
    """R-DOC-10: CatalogSources in a namespace not read are unknown."""
    content = CatalogContent([catalog(f"{GLOBAL}/main", db_package("db.v1"))])
    obj = objects([sub("db", "db", "main")], [])
    scoped = dataclasses.replace(obj, read_namespaces=frozenset({NS}))
    result = resolve_namespace(scoped, content, GLOBAL)
    assert (result.status, result.reason) == (
        "not-evaluated",
        "CatalogSources in olm were not read (--namespace session)",
    )
    assert resolve_namespace(obj, content, GLOBAL).status == "unsatisfiable"
