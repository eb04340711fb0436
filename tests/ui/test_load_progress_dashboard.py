"""``olmtui replay``: the first screen opens while the snapshot streams in, with a loading bar
and the rows read so far; no finding is claimed before every file is read; at the end the
bar goes and the screens hold what ``check`` would read."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import redrawn, wait_for
from textual.widgets import Static

from olmtui.cli import main
from olmtui.pipeline.build import snapshot_session, streaming_snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.loading_bar import LOADING_TEXT, LoadingBar
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.widgets.virtual_table import VirtualTable

FILES = 24
HALF = FILES // 2
SIZE = (140, 40)


def _file(i: int) -> str:
    ns = f"team-{i:02d}"
    return f"""\
apiVersion: v1
kind: Namespace
metadata: {{name: {ns}}}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: op.v1.0.{i}
  namespace: {ns}
  annotations: {{olm.operatorGroup: og, olm.operatorNamespace: {ns}, olm.targetNamespaces: {ns}}}
spec: {{version: 1.0.{i}, installModes: [{{type: OwnNamespace, supported: true}}]}}
status: {{phase: Succeeded, reason: InstallSucceeded}}
"""


def _groups() -> str:
    """Every namespace's OperatorGroup, in the last file: until it is read, every CSV
    seems to have none (a finding a partial load must not claim)."""
    return "".join(
        f"---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\n"
        f"metadata: {{name: og, namespace: team-{i:02d}}}\n"
        f"spec: {{targetNamespaces: [team-{i:02d}]}}\n"
        for i in range(FILES)
    )


@pytest.fixture
def snapshot(tmp_path: Path) -> Path:
    for i in range(FILES):
        (tmp_path / f"a{i:02d}.yaml").write_text(_file(i))
    (tmp_path / "z-groups.yaml").write_text(_groups())
    return tmp_path


def _table(app: OlmApp) -> VirtualTable:
    return app.screen.query_one("#table", VirtualTable)


async def test_the_first_screen_shows_the_bar_and_partial_rows_then_the_whole(
    snapshot: Path,
) -> None:
    go = threading.Event()
    calls = [0]

    def pace() -> None:  # the loading thread stops halfway until the test has looked
        calls[0] += 1
        if calls[0] == HALF:
            go.wait(20)

    session = streaming_snapshot_session([str(snapshot)], pace=pace)
    app = OlmApp(session, initial_view="csvs")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(lambda: _table(app).total_count == HALF, pilot=pilot)
            bar = app.screen.query_one(LoadingBar)
            # the bar draws itself once mounted: under load that can follow the rows
            await wait_for(lambda: f"files {HALF}/{FILES + 1}" in str(bar.render()), pilot=pilot)
            text = str(bar.render())
            assert "MB/s" in text
            assert "findings when every file is read" in text
            assert session.loading_now
            # the CSVs without their OperatorGroups yet: nothing claimed about them
            assert list(session.analysis.all_findings()) == []
            app.show_view("findings")
            await wait_for(lambda: bool(app.screen.query(LoadingBar)), pilot=pilot)
            await wait_for(
                lambda: (_table(app).total_count == 0) and (_table(app).empty_text == LOADING_TEXT),
                "_table(app).total_count == 0",
                pilot=pilot,
            )
            assert _table(app).total_count == 0
            assert _table(app).empty_text == LOADING_TEXT
            app.show_view("overview")  # it lists findings: none claimed, none denied
            await wait_for(
                lambda: (_table(app).total_count == 0) and (_table(app).empty_text == LOADING_TEXT),
                "_table(app).total_count == 0",
                pilot=pilot,
            )
            assert _table(app).total_count == 0
            assert _table(app).empty_text == LOADING_TEXT
            metrics = str(app.screen.query_one("#metrics", Static).render())
            assert "findings and channel heads when every file is read" in metrics
            assert "behind" not in metrics  # not "0 behind channel head" from half the files
            app.show_view("og")  # the groups come in the last file: no "no OperatorGroups"
            await wait_for(
                lambda: (
                    (_table(app).total_count == 0)
                    and (_table(app).empty_text == TableScreen.LOADING_EMPTY_TEXT)
                ),
                "_table(app).total_count == 0",
                pilot=pilot,
            )
            assert _table(app).total_count == 0
            assert _table(app).empty_text == TableScreen.LOADING_EMPTY_TEXT
            go.set()
            await wait_for(
                lambda: not session.loading_now and not app.screen.query(LoadingBar), pilot=pilot
            )
            await redrawn(pilot)
            assert not list(app.screen.query(LoadingBar))
            # the screen shown meanwhile is refreshed, its groups in
            await wait_for(lambda: _table(app).total_count == FILES, pilot=pilot)
            app.show_view("findings")
            await wait_for(
                lambda: _table(app).empty_text != LOADING_TEXT,
                "_table(app).empty_text != LOADING_TEXT",
                pilot=pilot,
            )
            assert _table(app).empty_text != LOADING_TEXT
            app.show_view("overview")
            await wait_for(lambda: _table(app).empty_text == OverviewScreen.EMPTY_TEXT, pilot=pilot)
            app.show_view("csvs")
            await wait_for(lambda: _table(app).total_count == FILES, pilot=pilot)
    finally:
        go.set()
    whole = snapshot_session([str(snapshot)])
    assert list(session.store.items("ClusterServiceVersion")) == list(
        whole.store.items("ClusterServiceVersion")
    )
    assert session.analysis.all_findings() == whole.analysis.all_findings()
    assert session.analysis.report() == whole.analysis.report()
    assert session.info() == whole.info()


async def test_input_with_no_olm_objects_closes_the_dashboard_with_the_reason(
    tmp_path: Path,
) -> None:
    (tmp_path / "ns.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    session = streaming_snapshot_session([str(tmp_path)])
    app = OlmApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: session.loading is not None and session.loading.done, pilot=pilot)
        await wait_for(lambda: app.return_code is not None, "the dashboard closed")
    assert session.loading is not None and session.loading.error is not None
    assert "no OLM objects" in session.loading.error
    assert app.return_code == 2


def test_replay_refuses_a_missing_path_before_any_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["replay", str(tmp_path / "absent")])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert "no such file or directory" in captured.err


async def test_quitting_while_loading_leaves_at_once(snapshot: Path) -> None:
    go = threading.Event()
    session = streaming_snapshot_session([str(snapshot)], pace=lambda: go.wait(20) and None)
    app = OlmApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: session.loading_now, "session.loading_now", pilot=pilot)
        assert session.loading_now
        await pilot.press("ctrl+q")
    go.set()
    await asyncio.sleep(0)


def test_a_bug_in_the_load_closes_the_dashboard_and_is_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unexpected exception while the files stream in is not a usage error (exit 2): the
    dashboard closes and ``olmtui replay`` reports it as any crash, one line and exit 3."""
    import olmtui.pipeline.streaming as streaming

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(streaming, "read_listing", broken)
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n")

    async def headless(self: OlmApp, *args: object, **kwargs: object) -> None:
        async with self.run_test(size=(100, 30)) as pilot:
            await wait_for(lambda: not self.is_running, "the app's exit", pilot=pilot)

    monkeypatch.setattr(OlmApp, "run_async", headless, raising=True)
    assert main(["replay", str(snapshot)]) == 3


_POOLED_REPLAY = """
import asyncio, sys
from olmtui.sources.snapshots import parallel_load
parallel_load.POOL_THRESHOLD = 0
parallel_load.worker_count = lambda: 2
from olmtui.pipeline.build import streaming_snapshot_session
from olmtui.ui.app import OlmApp

async def main():
    session = streaming_snapshot_session([sys.argv[1]])
    app = OlmApp(session, initial_view="namespaces")
    async with app.run_test(size=(140, 40)) as pilot:
        while session.loading_now:
            await pilot.pause(0.05)
    print(session.loading.error, session.loading.crash, len(dict(session.store.slots("Namespace"))))

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_replay_parsed_by_a_spawned_pool_loads_everything(snapshot: Path, tmp_path: Path) -> None:
    """A snapshot large enough for the parse workers, in a fresh process as ``olmtui replay``
    runs it: the pool is spawned from the loading thread once Textual holds ``sys.stderr``
    (a stand-in without a file descriptor); it once failed the load ("bad value(s) in
    fds_to_keep") when multiprocessing's resource tracker started only then."""
    script = tmp_path / "replay_pooled.py"
    script.write_text(_POOLED_REPLAY)
    done = subprocess.run(
        [sys.executable, str(script), str(snapshot)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["None", "None", str(FILES)]
