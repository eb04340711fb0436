"""Every mode builds the same pipeline: the same objects give the same report through
``check PATH``, ``replay``, ``check --live``, the live dashboard and ``demo``.

The objects are the demo scenario's, served by one loopback API server (the demo's own) and
dumped to a file for the snapshot modes; the demo's catalog content is given as
``--catalog`` wherever a mode takes it. The modes that read the cluster fetch the serving
ClusterCatalog's content from the demo's catalogd (R-V1-21); the snapshot modes are given the
same content with ``--catalog NAME=PATH``, as catalogd's ``api/v1/all`` saved to a file.
What may differ is what describes the source, not the cluster:

* the ``source`` block: the kind of source, its paths, how many objects the loader read;
* for the modes that watch (the dashboard, the demo), how ``csv_upgrade_count`` was
  counted: ``csv_upgrade_count_source`` is ``watch`` rather than ``snapshot``, with its
  note. The count itself is compared: nothing changes while the cluster is watched here;
* whether each remedy was tried on the state: ``check`` proves its remedies (it reads the
  session once and shows it nowhere), the other modes plan them only. The two ``check``
  modes are compared with their verdicts.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from conftest import wait_for
from snapshot_files import yaml_documents

from olmtui.apiserver import LoopbackAPIServer
from olmtui.cli import build_parser
from olmtui.commands.check import check
from olmtui.demo import v1
from olmtui.demo.bundles import CATALOG_PATH
from olmtui.demo.cluster import DemoCluster
from olmtui.demo.lifecycle import LIFECYCLE_PATH
from olmtui.demo.scenario import CATALOG_REF
from olmtui.pipeline.build import demo_session, live_session, snapshot_session
from olmtui.pipeline.session import Session
from olmtui.report import Report
from olmtui.sources.cluster.live_options import LiveOptions
from olmtui.store import WATCHED_KINDS, Key, Obj, Store, key_of

CATALOG_SPEC = f"{CATALOG_REF}={CATALOG_PATH}"
#: The demo's lifecycle document, which the demo adds to that content (R-LCY-1).
LIFECYCLE_SPEC = f"{CATALOG_REF}={LIFECYCLE_PATH}"
#: The demo's script waits this long before its first change: never, within a test.
NO_CHANGES = 3600.0


def cluster_part(report: Report, *, watched: bool, proven: bool = False) -> Report:
    """The report without what describes the source (see the module docstring); without
    the remedies' verdicts unless ``proven`` (both reports are ``check``'s)."""
    part = copy.deepcopy({key: value for key, value in report.items() if key != "source"})
    metrics = part["summary"]["metrics"]
    assert metrics.pop("csv_upgrade_count_source") == ("watch" if watched else "snapshot")
    metrics["notes"].pop("csv_upgrade_count")
    if not proven:
        for finding in part.get("findings") or ():
            if finding["remedy"] is not None:
                finding["remedy"] = {"steps": finding["remedy"]["steps"]}
    return part


def test_the_comparison_sees_a_difference_in_the_cluster() -> None:
    def report(source: str, counted: str, csvs: list[str]) -> Report:
        metrics = {"csv_upgrade_count_source": counted, "notes": {"csv_upgrade_count": counted}}
        return {"source": {"kind": source}, "summary": {"metrics": metrics}, "csvs": csvs}

    watched = cluster_part(report("live", "watch", ["a"]), watched=True)
    assert watched == cluster_part(report("snapshot", "snapshot", ["a"]), watched=False)
    assert watched != cluster_part(report("snapshot", "snapshot", ["b"]), watched=False)


def holds_everything(store: Store, server: LoopbackAPIServer) -> bool:
    """Whether the cache holds every object of the server, at the server's version."""

    def versions(objs: Iterable[Obj]) -> dict[Key, str | None]:
        return {key_of(o): o["metadata"].get("resourceVersion") for o in objs}

    return all(
        versions(server.state.list(kind)) == versions(store.list(kind)) for kind in WATCHED_KINDS
    )


async def settled_report(session: Session, server: LoopbackAPIServer) -> Report:
    """Run the session's watcher as the app does until its header says ``live`` and the
    cache holds the server's objects, and report then."""
    assert session.runner is not None and session.status is not None
    status = session.status
    watching = asyncio.ensure_future(session.runner())
    try:
        await wait_for(
            lambda: (
                status().state == "live"
                and holds_everything(session.store, server)
                and any(c.ref == v1.COMMUNITY for c in session.catalogs())
            ),
            "the sync to settle and catalogd's content to arrive",
        )
        return session.analysis.report()
    finally:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching


def check_report(*argv: str) -> Report:
    """What ``olmtui check ARGV --output json`` prints, as a dict."""
    return check(build_parser().parse_args(["check", *argv])).report


@pytest.fixture
def demo() -> Iterator[DemoCluster]:
    with DemoCluster(NO_CHANGES, cycles=1) as cluster:
        yield cluster


@pytest.mark.parametrize(
    "specs", [[CATALOG_SPEC, LIFECYCLE_SPEC], []], ids=["--catalog", "packagemanifests"]
)
async def test_every_mode_reports_the_same(
    demo: DemoCluster, tmp_path: Path, specs: list[str]
) -> None:
    """With the demo's catalog content, and without it: then the upgrade graphs come from
    the cluster's PackageManifests alone (the demo always loads its catalog)."""
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(yaml_documents(o for k in WATCHED_KINDS for o in demo.server.state.list(k)))
    kubeconfig = str(demo.server.write_kubeconfig(tmp_path / "kubeconfig"))
    catalog_args = [arg for spec in specs for arg in ("--catalog", spec)]
    served = tmp_path / "all.json"  # what catalogd serves for the ClusterCatalog
    served.write_bytes(v1.catalogd_content())
    saved = [*specs, f"{v1.COMMUNITY}={served}"]
    reference = check_report(str(snapshot), *catalog_args, "--catalog", saved[-1])
    # a report worth comparing: upgrade graphs, heads and findings of every severity
    assert reference["summary"]["subscriptions"] > 0 and reference["channels"]
    assert any(s["upgrade"]["head"] for s in reference["subscriptions"])
    assert all(reference["summary"]["findings"].values())

    reports = {
        "replay": snapshot_session([str(snapshot)], saved).analysis.report(),
        # check --live and the dashboard connect with asyncio.run: off this test's loop
        "check --live": await asyncio.to_thread(
            check_report, "--live", "--kubeconfig", kubeconfig, *catalog_args
        ),
        "live dashboard": await settled_report(
            await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig), specs),
            demo.server,
        ),
    }
    if CATALOG_SPEC in specs:
        reports["demo"] = await settled_report(demo_session(demo), demo.server)
    want = cluster_part(reference, watched=False)
    for mode, report in reports.items():
        got = cluster_part(report, watched=mode in ("live dashboard", "demo"))
        assert sorted(k for k in want if got.get(k) != want[k]) == [], mode
        assert got == want, mode
    live = cluster_part(reports["check --live"], watched=False, proven=True)
    assert live == cluster_part(reference, watched=False, proven=True)
