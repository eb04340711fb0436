"""``:ctx NAME`` keeps the catalog content the live dashboard was given: the session of the
new context carries the same ``--catalog`` and ``--next-catalog`` content as the first
(R-NXT-1: the next-catalog lines and findings do not vanish on a context switch)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from data_paths import DATA
from live_support import namespace

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.pipeline.build import live_session
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.sources.cluster.live_options import LiveOptions

PKG = "cluster-kube-descheduler-operator"
NOW = DATA / "next-catalog" / PKG / "v4.21"
NEXT = DATA / "next-catalog" / PKG / "v4.22"


@pytest.fixture
def two_contexts(tmp_path: Path) -> Iterator[str]:
    """A kubeconfig whose contexts ``first`` and ``second`` are two loopback servers."""
    threads = []
    clusters = []
    for name in ("first", "second"):
        server = LoopbackAPIServer()
        server.state.load([namespace(name)], skip_unknown=True)
        threads.append(run_in_thread(server))
        clusters.append({"name": name, "cluster": {"server": server.url}})
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "first",
        "clusters": clusters,
        "users": [{"name": "u", "user": {}}],
        "contexts": [
            {"name": n, "context": {"cluster": n, "user": "u"}} for n in ("first", "second")
        ],
    }
    path = tmp_path / "kubeconfig"
    path.write_text(yaml.safe_dump(doc))
    yield str(path)
    for thread in threads:
        thread.stop()


async def test_ctx_keeps_the_catalog_and_next_catalog_content(two_contexts: str) -> None:
    options = LiveOptions(kubeconfig=two_contexts, context="first")
    next_catalog = load_catalog(f"openshift-marketplace/redhat-operators={NEXT}")
    catalog = f"openshift-marketplace/redhat-operators={NOW}"
    session = await asyncio.to_thread(live_session, options, [catalog], None, [next_catalog])
    assert session.next_catalogs == [next_catalog]
    assert session.switch_context is not None
    other = await session.switch_context("second")
    assert other.label == "second"
    assert other.next_catalogs == [next_catalog]
    assert [c.origin for c in other.catalogs() if c.graph == "catalog"] == [
        c.origin for c in session.catalogs() if c.graph == "catalog"
    ]
    assert any(PKG in c.packages for c in other.catalogs())
    # and again from the new context: what it carries is what the first was given
    assert other.switch_context is not None
    third = await other.switch_context("first")
    assert third.next_catalogs == [next_catalog]
