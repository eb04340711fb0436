"""Text that reads: the header says which cluster, which version and which
moment; the Overview speaks words with plurals; colours come from the theme and severity
reads without them."""

from __future__ import annotations

import datetime as dt
import tarfile
from importlib.resources import files
from pathlib import Path

import pytest
import yaml
from conftest import wait_for
from model_builders import ABSENT, csv, subscription
from rich.text import Text

from olmtui.model.viewmodels.source_facts import newest_time
from olmtui.pipeline.build import snapshot_session
from olmtui.store import KINDS
from olmtui.ui import palette
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.overview import count, metrics_text
from olmtui.ui.widgets.source_header import header_text
from olmtui.ui.widgets.virtual_table import VirtualTable
from tests.data_paths import DATA

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
MUST_GATHER = str(DATA / "snapshots" / "must-gather-mini")
MAX_OCP = str(DATA / "triage" / "max-ocp-fine" / "cluster.yaml")


def _fits(text: Text, width: int) -> str:
    assert text.cell_len <= width or text.overflow == "ellipsis"
    text.truncate(width, overflow="ellipsis")
    return text.plain


def test_must_gather_header_says_when_it_was_gathered():
    session = snapshot_session([MUST_GATHER])
    wide = header_text(session, "Overview", 200).plain
    assert "snapshot: " in wide and "gathered 2021-09-13 15:45 UTC" in wide
    narrow = _fits(header_text(session, "Overview", 80), 80)
    assert "2021-09-13 15:45" in narrow  # shortened before dropped, never lost at 80
    assert "must-gather-mini" in narrow


@pytest.mark.parametrize("compress", ["", "gz"])
def test_must_gather_archive_header_says_when_it_was_gathered(tmp_path, compress):
    """The ``timestamp`` file is read from a tarball too, as the archive is read once for
    its objects, under the folder ``oc`` makes around the must-gather."""
    archive = tmp_path / f"must-gather.tar{'.' + compress if compress else ''}"
    with tarfile.open(archive, f"w:{compress}") as tar:
        tar.add(MUST_GATHER, arcname="must-gather.local.123")
    session = snapshot_session([str(archive)])
    assert "gathered 2021-09-13 15:45 UTC" in header_text(session, "Overview", 200).plain


def test_snapshot_without_timestamp_file_says_or_later():
    session = snapshot_session([SAMPLE])
    newest = newest_time(o for k in KINDS for o in session.store.list(k))
    assert newest is not None
    plain = header_text(session, "Overview", 200).plain
    assert f"snapshot of {newest:%Y-%m-%d %H:%M} UTC or later" in plain
    assert "OpenShift" not in plain  # no ClusterVersion in the sample: say nothing


def test_snapshot_with_cluster_version_names_openshift():
    session = snapshot_session([MAX_OCP])
    plain = header_text(session, "Overview", 200).plain
    assert "OpenShift 4.12.45" in plain
    assert "snapshot of 2024-01-01 10:00 UTC or later" in plain  # the newest recorded time
    narrow = _fits(header_text(session, "Overview", 80), 80)
    assert "2024-01-01 10:00" in narrow  # the moment outranks the version at 80 columns
    assert "4.12.45" in _fits(header_text(session, "Overview", 110), 110)


def test_newest_time_reads_conditions_and_history():
    objs = [
        {"metadata": {"creationTimestamp": "2024-01-01T00:00:00Z"}},
        {"status": {"conditions": [{"lastTransitionTime": "2024-03-01T10:00:00Z"}]}},
        {"status": {"history": [{"completionTime": "2024-02-01T00:00:00Z"}]}},
    ]
    assert newest_time(objs) == dt.datetime(2024, 3, 1, 10, tzinfo=dt.UTC)
    assert newest_time([{"metadata": {}}]) is None


def test_counts_pluralise():
    assert count(1, "operator") == "1 operator"
    assert count(2, "operator") == "2 operators"
    assert count(0, "operator") == "0 operators"
    assert count(1, "copy", "copies") == "1 copy"
    assert count(90, "copy", "copies") == "90 copies"
    assert count(None, "Subscription") == "? Subscriptions"


def _csv(namespace: str, name: str, phase: str = "Succeeded") -> dict:
    return csv(namespace, name, bare=True, phase=phase)


def _sub(namespace: str, name: str) -> dict:
    return subscription(namespace, name, package=name, channel=ABSENT, source_ns=namespace)


def _session(tmp_path: Path, objects: list[dict]):
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml.safe_dump_all(objects))
    return snapshot_session([str(path)], label="test")


def test_overview_speaks_words_one_and_two(tmp_path):
    one = metrics_text(_session(tmp_path, [_csv("a", "foo.v1"), _sub("a", "foo")])).plain
    assert "1 operator, 0 not healthy" in one
    assert "1 Subscription, 0 waiting for approval" in one
    assert "0 InstallPlans" in one and "0 catalogs" in one
    two = metrics_text(
        _session(
            tmp_path,
            [
                _csv("a", "foo.v1"),
                _csv("b", "bar.v1", "Failed"),
                _sub("a", "foo"),
                _sub("b", "bar"),
            ],
        )
    ).plain
    assert "2 operators, 1 not healthy" in two
    assert "2 Subscriptions" in two
    for metric in ("csv_count", "csv_succeeded", "subscription_count", "catalog_source_count"):
        assert metric not in two


def test_overview_words_on_the_sample():
    plain = metrics_text(snapshot_session([SAMPLE])).plain
    assert "5 operators, 4 not healthy, 14 copies" in plain
    assert "5 Subscriptions, 0 waiting for approval" in plain
    assert "3 catalogs" in plain
    # the counts say incidents (R-DIAG-9): two of the six errors follow from another one
    assert "incidents: ✖ 3 errors  ▲ 3 warnings  ● 5 info (14 findings)" in plain


def _error_row_style(app: OlmApp) -> tuple[str, object]:
    """The painted style of the first cell of an error row away from the cursor."""
    table = app.screen.query_one("#table", VirtualTable)
    rows = table.shown_rows
    index = next(
        i for i, r in enumerate(rows) if i != table.cursor and str(r.cells[0]) == "✖ error"
    )
    line = table.render_line(index + 1 - round(table.scroll_y))
    mark = next(s for s in line if "✖" in s.text)
    return str(rows[index].cells[0]), mark.style


async def test_theme_switch_recolours_a_severity_cell():
    app = OlmApp(snapshot_session([SAMPLE], label="test"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        plain, before = _error_row_style(app)
        assert plain == "✖ error"
        header_before = app.screen.query_one("SourceHeader").render()
        app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        plain_after, after = _error_row_style(app)
        assert plain_after == plain
        assert before != after  # same cell, the new theme's error colour
        assert after.color == app.console.get_style(palette.ERROR).color
        # the Overview's summary and header were built again in the new colours
        assert app.screen.query_one("SourceHeader").render() is not header_before


async def test_no_color_keeps_the_severity_marks(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = OlmApp(snapshot_session([SAMPLE], label="test"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert app.no_color
        table = app.screen.query_one("#table", VirtualTable)
        firsts = {str(r.cells[0]) for r in table.shown_rows}
        assert {"✖ error", "▲ warning", "● info"} <= firsts
        screen = app.export_screenshot()
        assert "✖" in screen and "▲" in screen and "●" in screen


def test_palette_follows_the_theme_variables():
    theme = palette.rich_theme({"text-error": "#ff0000", "foreground": "#ffffff"})
    assert theme.styles[palette.ERROR].color is not None
    assert theme.styles[palette.ERROR].bold
    # a variable the theme lacks leaves the style plain, never an exception
    assert theme.styles[palette.OK].color is None


async def test_live_header_names_context_server_and_version(tmp_path):
    """A live session on the loopback API server: its context, its server, the server's
    /version, and OpenShift's version once the ClusterVersion arrives."""
    import asyncio

    from olmtui.apiserver import LoopbackAPIServer, run_in_thread
    from olmtui.pipeline.build import live_session
    from olmtui.sources.cluster.live_options import LiveOptions

    objects = [o for o in yaml.safe_load_all(Path(MAX_OCP).read_text()) if o]
    server = LoopbackAPIServer()
    server.state.load(objects, skip_unknown=True)
    thread = run_in_thread(server)
    try:
        kubeconfig = str(server.write_kubeconfig(tmp_path / "kubeconfig"))
        session = await asyncio.to_thread(live_session, LiveOptions(kubeconfig=kubeconfig))
        app = OlmApp(session)
        async with app.run_test(size=(200, 30)) as pilot:
            await wait_for(
                lambda: session.store.count("ClusterVersion"), "the ClusterVersion", pilot=pilot
            )
            info = session.info()
            assert info.server.startswith("http") and "127.0.0.1" in info.server
            assert info.kubernetes_version == "v1.32.0-olmtui-loopback"
            plain = header_text(session, "Overview", 200).plain
            assert f"live: {info.context}" in plain
            assert "OpenShift 4.12.45" in plain  # the ClusterVersion outranks /version
            assert info.server in plain
            narrow = _fits(header_text(session, "Overview", 80), 80)
            assert "live ·" in narrow or "syncing ·" in narrow  # the state stays
            assert "4.12.45" in narrow
    finally:
        thread.stop()


def test_scoped_counts_do_not_claim_the_watchers_upgrades_for_one_namespace():
    """A live watcher counts upgrades cluster-wide; under ``:ns`` the count is unknown for
    the namespace rather than the namespace's replacements in progress ("0 seen")."""
    session = snapshot_session([SAMPLE])
    assert "0 upgrades seen" in metrics_text(session, "team-a").plain  # a snapshot: its own
    session.upgrade_count = lambda: 3
    assert "3 upgrades seen" in metrics_text(session).plain
    assert "? upgrades seen" in metrics_text(session, "team-a").plain
