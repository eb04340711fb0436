"""Keys that match habits: q leaves a pushed screen, ctrl+c quits, Esc clears a
filter before leaving, Tab completes the ``:`` prompt, ``:view`` lands on the list."""

from __future__ import annotations

import io
from importlib.resources import files

import pytest
from conftest import wait_for
from rich.console import Console
from textual import events
from textual.command import CommandList
from textual.containers import VerticalScroll
from textual.widgets import Static

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.completion import candidates, extend
from olmtui.ui.object_finder import LIMIT, ObjectsProvider
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.screens.help import KEYS, HelpScreen, keys_table
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.widgets.command_bar import CommandBar
from olmtui.ui.widgets.virtual_table import VirtualTable

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
SIZE = (120, 36)


def _table(app: OlmApp) -> VirtualTable:
    return app.screen.query_one("#table", VirtualTable)


async def _command(pilot, line: str) -> None:
    await pilot.press("colon", *line, "enter")
    await pilot.pause()


async def test_q_on_a_pushed_screen_goes_back_and_quits_only_from_a_view(app):
    async with app.run_test(size=SIZE) as pilot:
        await _command(pilot, "csv")
        await pilot.press("enter")  # detail
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        await pilot.press("y", "q")  # the YAML tab: back, not out
        await pilot.pause()
        assert isinstance(app.screen, CSVsScreen)
        await pilot.press("question_mark", "q")
        await pilot.pause()
        assert isinstance(app.screen, CSVsScreen)
        assert app.is_running
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
async def test_ctrl_c_and_ctrl_q_quit_cleanly_even_from_the_prompt(app, key):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", "c")  # the prompt has the keys (Input binds ctrl+c: copy)
        await pilot.pause()
        assert app.screen.query_one(CommandBar).has_focus
        await pilot.press(key)
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0


async def test_colon_q_and_quit_end_the_app(app):
    async with app.run_test(size=SIZE) as pilot:
        await _command(pilot, "quit")
        assert not app.is_running


async def test_esc_clears_the_filter_first_then_goes_back(app):
    async with app.run_test(size=SIZE) as pilot:
        await _command(pilot, "csv")
        await pilot.press("slash", *"etcd", "enter")
        await pilot.pause()
        assert _table(app).filter_text == "etcd"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CSVsScreen)
        assert _table(app).filter_text == ""
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)


async def test_tab_completes_the_view_name_and_never_leaves_a_stuck_prompt(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"catsr", "tab")
        await pilot.pause()
        bar = app.screen.query_one(CommandBar)
        assert bar.value == "catsrc"
        assert bar.has_focus
        await pilot.press("enter")
        await pilot.pause()
        assert app.current_mode == "catalogs"
        # ambiguous: Tab cycles, the prompt keeps the keys; Esc closes it
        await pilot.press("colon", "c", "tab")
        first = app.screen.query_one(CommandBar).value
        await pilot.press("tab")
        second = app.screen.query_one(CommandBar).value
        assert first != second
        assert first.startswith("c") and second.startswith("c")
        assert app.screen.query_one(CommandBar).has_focus
        await pilot.press("escape")
        await pilot.pause()
        bar = app.screen.query_one(CommandBar)
        assert not bar.has_class("-shown")
        assert not bar.has_focus


async def test_tab_completes_namespace_names_after_ns(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"ns team-", "tab")
        await pilot.pause()
        value = app.screen.query_one(CommandBar).value
        assert value.startswith("ns team-")
        assert value[len("ns team-") :] != "" or len(app.session.model.namespaces()) > 1


def test_completion_candidates_and_extension():
    words = ["csv", "csvs", "catsrc", "changes"]
    assert candidates("cs", words) == ["csv", "csvs"]
    assert extend("cs", ["csv", "csvs"]) == "csv"
    assert extend("ch", ["changes"]) == "changes"
    assert candidates("ctx p", words, contexts=["prod", "dev", "prod-eu"]) == [
        "ctx prod",
        "ctx prod-eu",
    ]
    assert candidates("ns team", words, namespaces=["team-a", "team-b", "x"]) == [
        "ns team-a",
        "ns team-b",
    ]
    assert extend("ns team", ["ns team-a", "ns team-b"]) == "ns team-"


async def test_a_view_command_lands_on_its_list_never_on_an_old_pushed_screen(app):
    async with app.run_test(size=SIZE) as pilot:
        await _command(pilot, "csv")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ObjectScreen)
        await _command_from_detail(pilot, app, "sub")
        assert app.current_mode == "subscriptions"
        await _command(pilot, "csv")
        assert isinstance(app.screen, CSVsScreen)
        await pilot.press("enter")
        await pilot.pause()
        await _command_from_detail(pilot, app, "csv")
        assert isinstance(app.screen, CSVsScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def _command_from_detail(pilot, app: OlmApp, view: str) -> None:
    """The palette is how a detail screen reaches ``:``; the app call is what it runs."""
    app.show_view(view)
    await pilot.pause()
    assert len(app.screen_stack) == 1


async def test_help_shows_every_key_whole_at_80x24(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one(VerticalScroll)
        assert box.max_scroll_y == 0  # nothing below the fold
        assert box.region.height <= 24 and box.region.width <= 80
        body = box.query_one(Static)
        console = Console(width=body.content_region.width, file=io.StringIO())
        with console.capture() as captured:
            console.print(keys_table())
        lines = captured.get().splitlines()
        assert len(lines) == len(KEYS) <= body.content_region.height
        for (key, what), line in zip(KEYS, lines, strict=True):
            assert line.startswith(key) and line.rstrip().endswith(what), line


async def test_the_palette_finds_objects_by_name_and_opens_them(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"etcdoperator")

        def shown_now() -> list[str]:
            options = app.screen.query_one(CommandList).options
            return [str(o.prompt).split("\n")[0] for o in options]

        await wait_for(
            lambda: any(s.startswith("CSV team-a/etcdoperator") for s in shown_now()),
            "the palette's hits",
            pilot=pilot,
        )
        shown = shown_now()
        assert "CSV team-a/etcdoperator.v0.9.4" in shown
        index = shown.index("CSV team-a/etcdoperator.v0.9.4")
        app.screen.query_one(CommandList).highlighted = index
        await pilot.press("enter")
        await wait_for(
            lambda: isinstance(app.screen, ObjectScreen),
            "isinstance(app.screen, ObjectScreen)",
            pilot=pilot,
        )
        assert isinstance(app.screen, ObjectScreen)
        assert app.screen.target == ObjectRef(
            "ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4"
        )


async def test_the_object_finder_lists_no_copies_and_caps_its_hits():
    import copy as copying

    session = snapshot_session([SAMPLE], label="sample")
    original = session.store.get("ClusterServiceVersion", "team-a", "etcdoperator.v0.9.4")
    copies = []
    for i in range(5000):
        obj = copying.deepcopy(original)
        obj["metadata"]["namespace"] = f"copy-{i}"
        obj["metadata"].setdefault("labels", {})["olm.copiedFrom"] = "team-a"
        obj["status"] = {"reason": "Copied", "phase": "Succeeded"}
        copies.append(obj)
    session.store.apply_many(copies)
    app = OlmApp(session)
    async with app.run_test(size=SIZE):
        provider = ObjectsProvider(app.screen)
        hits = [hit async for hit in provider.search("etcd")]
        texts = [h.text for h in hits]
        assert texts and len(texts) <= LIMIT
        assert not any("copy-" in t for t in texts)


async def test_a_command_typed_in_one_burst_lands_in_the_prompt(app):
    """A slow link batches keys: ``:csv`` and Enter arrive before the app has drawn the
    prompt, and every one must reach the prompt; ``:`` and ``/`` typed in an open prompt are
    text there."""
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, OverviewScreen)
        burst = [("colon", ":"), ("c", "c"), ("s", "s"), ("v", "v"), ("enter", None)]
        for key, character in burst:
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, CSVsScreen)
        bar = app.screen.query_one(CommandBar)
        assert not bar.has_class("-shown")
        await pilot.press("slash", *"a/b:c")
        assert bar.has_class("-shown") and bar.mode == "filter"
        assert bar.value == "a/b:c"
