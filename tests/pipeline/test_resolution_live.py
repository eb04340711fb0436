"""Live mode takes ``--catalog`` too: OLM's registry cannot be read with GET
requests, so the dashboard over a live cluster resolves against the content given. Read
through the real client from the loopback API server; the flags reach the live session from
the command line, and given before a sub-command they are refused, not dropped."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import wait_for
from data_paths import DATA

from olmtui import cli
from olmtui.apiserver import LoopbackAPIServer, ServerThread, run_in_thread
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_options import LiveOptions

CASE = DATA / "resolution" / "upgrade-replaces-skiprange"
CATALOG = f"openshift-marketplace/company-catalog={CASE / 'catalog-company-catalog.yaml'}"


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, LiveOptions]]:
    server = LoopbackAPIServer()
    with open(CASE / "cluster.yaml", encoding="utf-8") as handle:
        server.state.load([d for d in yaml.safe_load_all(handle) if d])
    thread = run_in_thread(server)
    options = LiveOptions(kubeconfig=str(server.write_kubeconfig(tmp_path / "kubeconfig")))
    yield thread, options
    thread.stop()


async def test_a_live_session_resolves_against_the_catalog_content_given(cluster) -> None:
    _, options = cluster
    session = await asyncio.to_thread(live_session, options, [CATALOG], "openshift-marketplace")
    assert session.global_namespace == "openshift-marketplace"
    assert session.runner is not None and session.status is not None
    watching = asyncio.ensure_future(session.runner())
    try:
        await wait_for(lambda: session.status().state == "live", "the sync to settle")
        [team] = [r for r in session.analysis.resolutions() if r.namespace == "team"]
        assert (team.status, team.changes) == ("resolved", ("app.v1.2.0",))
        assert [(o.name, o.replaces) for o in team.operators] == [("app.v1.2.0", "app.v1.0.0")]
    finally:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching


def test_the_dashboard_takes_catalog_content_and_the_global_namespace(monkeypatch) -> None:
    seen: dict[str, Any] = {}

    def fake_session(
        options: LiveOptions, specs: list[str], global_namespace: str | None, next_catalogs: list
    ):
        seen.update(context=options.context, specs=specs, global_namespace=global_namespace)
        assert next_catalogs == []
        raise SystemExit(0)

    monkeypatch.setattr("olmtui.pipeline.build.live_session", fake_session)
    with pytest.raises(SystemExit):
        cli.main(["--context", "prod", "--catalog", CATALOG, "--global-catalog-namespace", "olm"])
    assert seen == {"context": "prod", "specs": [CATALOG], "global_namespace": "olm"}


@pytest.mark.parametrize(
    "argv",
    [
        ["--catalog", CATALOG, "check", "--sample"],
        ["--global-catalog-namespace", "olm", "check", "--sample"],
    ],
)
def test_dashboard_flags_before_a_sub_command_are_refused(argv: list[str], capsys) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "applies to the dashboard only" in err
    assert "give it after `check`" in err


def test_replay_takes_the_global_namespace() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["replay", "x.yaml", "--global-catalog-namespace", "olm"])
    assert isinstance(args, argparse.Namespace) and args.global_namespace == "olm"
